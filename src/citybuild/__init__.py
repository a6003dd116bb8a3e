"""citybuild: the rules of city-building board games as a library.

Every name below is the public contract: load a game, play its states (or a ``Match``, which
resolves chance itself), check moves for a ``Verdict``, score with a ``ScoreSheet``, and keep
``GameRecord``s as JSON.

Examples:
    >>> import citybuild as cb
    >>> game = cb.load("manhattan", players=4)
    >>> state = game.initial_state()
"""

import importlib

from citybuild import bots
from citybuild.core.errors import CitybuildError, IllegalMoveError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec, games, load, presets, register, unregister
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation
from citybuild.match import Match, replay
from citybuild.record import GameRecord
from citybuild.serialize import from_json, to_json

# citybuild.games is the games subpackage, made callable so that it is also games() (see its
# docstring). Importing it here, after the function above, leaves one object under the name
# whether or not a game plugin has been imported yet.
importlib.import_module("citybuild.games")

__version__ = "0.1.0"

__all__ = [
    "CitybuildError",
    "Game",
    "GameRecord",
    "GameSpec",
    "IllegalMoveError",
    "InvalidStateError",
    "Match",
    "NotationError",
    "RulesError",
    "ScoreItem",
    "ScoreSheet",
    "State",
    "Verdict",
    "Violation",
    "bots",
    "from_json",
    "games",
    "load",
    "presets",
    "register",
    "replay",
    "to_json",
    "unregister",
]
