"""``greedy``: one-ply look-ahead on the game's evaluation hook.

For each legal move, play it on a position consistent with the view and ask the game's
``evaluate`` hook what the result is worth; keep the move whose value for the viewer most exceeds
the best of the other players' (ties broken at random). It looks no further: it does not weigh
what the dice, the cards or the opponents do next, beyond what the evaluation itself promises.

``epsilon`` softens it for people: that share of its choices is a legal move drawn at random (from
the bot's own generator, so a seed still replays the game), which is what the ``easy`` and
``normal`` levels are made of.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from citybuild.bots.base import check_rng, require_moves
from citybuild.core.determinize import determinizer
from citybuild.core.errors import RulesError
from citybuild.core.evaluate import evaluator


def margin(values: Any, player: int) -> float:
    """``player``'s value minus the best of the others' (a player's lead, or how far behind)."""
    best_other = max((v for p, v in enumerate(values) if p != player), default=0.0)
    return float(values[player] - best_other)


def _share(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise RulesError(f"bot option {attribute.name} must be a number from 0 to 1, not {value!r}")


def _positive(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(f"bot option {attribute.name} must be a positive integer, not {value!r}")


@attrs.frozen
class GreedyBot:
    """The legal move with the best evaluation margin after it (one ply)."""

    max_moves: int = attrs.field(default=400, validator=_positive)
    """With more legal moves than this, that many are drawn at random and compared."""
    epsilon: float = attrs.field(default=0.0, validator=_share)
    """The share of choices made at random among the legal moves (0: always the best)."""

    @property
    def label(self) -> str:
        return "greedy" if self.epsilon == 0 else f"greedy:epsilon={self.epsilon:g}"

    def choose(self, view: Any, rng: random.Random) -> Any:
        rng = check_rng(rng)
        listed = require_moves(view)
        if self.epsilon and rng.random() < self.epsilon:  # no draw at all when epsilon is 0: old games replay
            return listed[int(rng.random() * len(listed))]
        me = view.player
        game = view.game
        engine = determinizer(game)(view, rng).thaw()
        evaluate = evaluator(game)
        count = len(listed)
        if count > self.max_moves:
            candidates = list(dict.fromkeys(listed[int(rng.random() * count)] for _ in range(self.max_moves)))
        else:
            candidates = list(listed)
        best: list[Any] = []
        best_value = float("-inf")
        for move in candidates:
            after = engine.copy()
            after.apply(move, me)
            value = margin(evaluate(after), me)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value >= best_value - 1e-9:
                best.append(move)
        return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]
