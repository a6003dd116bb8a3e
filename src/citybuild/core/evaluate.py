"""What a position is worth to each player, for bots that look ahead (DESIGN principle 9).

``evaluator(game)`` gives the game's ``GameSpec.evaluate`` hook: per player, points so far plus
what the position promises (the points so far when a game declares none). It reads an engine, not
a frozen state, so that search can call it at every leaf.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from citybuild.core.engine import Engine

if TYPE_CHECKING:
    from citybuild.core.game import Game

Evaluator = Callable[[Engine], Sequence[float]]


def evaluator(game: Game) -> Evaluator:
    """The game's ``evaluate`` hook, or the points so far when it declares none."""
    hook: Evaluator | None = game.spec.evaluate
    return hook if hook is not None else points_so_far


def points_so_far(engine: Engine) -> tuple[float, ...]:
    """Each player's points in the position (what ``State.scores()`` totals)."""
    return tuple(float(t) for t in engine.copy().freeze().scores().totals)
