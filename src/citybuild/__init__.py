"""citybuild: the rules of city-building board games as a library.

    >>> import citybuild as cb
    >>> game = cb.load("manhattan", players=4)
    >>> state = game.initial_state()
"""

# The subpackage citybuild.games must be imported before the function games() is bound below:
# importing a subpackage sets it as an attribute of its parent, which would otherwise replace
# the function the first time a game plugin is loaded.
import citybuild.games as _games_package  # noqa: F401  (imported for the side effect above)
from citybuild.core.errors import CitybuildError, IllegalMoveError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec, games, load, presets, register, unregister
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation
from citybuild.match import GameRecord, Match, replay
from citybuild.serialize import from_json, to_json

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
    "from_json",
    "games",
    "load",
    "presets",
    "register",
    "replay",
    "to_json",
    "unregister",
]
