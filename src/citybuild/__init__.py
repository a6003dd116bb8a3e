"""citybuild: the rules of city-building board games as a library.

    >>> import citybuild as cb
    >>> game = cb.load("manhattan", players=4)
    >>> state = game.initial_state()
"""

from citybuild.core.errors import CitybuildError, IllegalMoveError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec, games, load, presets, register, unregister
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation

__version__ = "0.1.0"

__all__ = [
    "CitybuildError",
    "Game",
    "GameSpec",
    "IllegalMoveError",
    "InvalidStateError",
    "NotationError",
    "RulesError",
    "ScoreItem",
    "ScoreSheet",
    "State",
    "Verdict",
    "Violation",
    "games",
    "load",
    "presets",
    "register",
    "unregister",
]
