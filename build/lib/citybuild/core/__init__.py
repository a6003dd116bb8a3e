"""The shared core: what every game builds on. It imports no game."""

from citybuild.core.errors import CitybuildError, IllegalMoveError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation

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
]
