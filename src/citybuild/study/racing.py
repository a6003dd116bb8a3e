"""Racing: which candidates a tune keeps playing, how many games the next round gives each, and
when it stops.

Every round brings each candidate still in the race to the same number of games, doubling it
(the first round plays ``first``), and then drops each candidate whose score is worse than the
best one's by more than the 95% interval of their difference: a candidate is dropped only when
its own games say it is clearly worse, never for lack of games. The rounds stop when one
candidate is left, when the budget cannot pay for another round, or when the scores of those left
are all known to within ``precision``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs

from citybuild.study.objectives import Objectives, Z


@attrs.frozen
class Drop:
    """Why a candidate left the race: its score against the best's, at that many games."""

    key: str
    games: int
    reason: str


def next_games(current: Mapping[str, int], done: int, first: int, budget: int, played: int) -> int:
    """Games per candidate in the next round (``done`` is the last round's, 0 before the first):
    twice ``done`` (``first`` at the start), cut so that bringing every candidate of ``current``
    (key -> games it has) that far costs no more than ``budget - played``; 0 when not even
    ``first // 2`` more games each (or one game each, at the start) fit."""
    want = first if done == 0 else 2 * done
    left = budget - played

    def cost(target: int) -> int:
        return sum(max(0, target - games) for games in current.values())

    if cost(want) <= left:
        return want
    low, high = done, want  # cost(low) is 0 for candidates at done games; search the largest that fits
    while high - low > 1:
        middle = (low + high) // 2
        if cost(middle) <= left:
            low = middle
        else:
            high = middle
    least = done + max(1, first // 2) if done else 1
    return low if low >= least else 0


def race(scores: Mapping[str, Objectives], alive: Sequence[str], z: float = Z) -> tuple[str, list[Drop]]:
    """The best of ``alive`` (the smallest score; the first listed among equals) and the drops:
    every other whose score exceeds the best's by more than ``z`` standard errors of the
    difference."""
    best = min(alive, key=lambda key: (scores[key].score.value, alive.index(key)))
    b = scores[best]
    drops = []
    for key in alive:
        if key == best:
            continue
        c = scores[key]
        gap = c.score.value - b.score.value
        bound = z * math.hypot(c.se, b.se)
        if gap > bound:
            drops.append(
                Drop(
                    key,
                    c.games,
                    f"score {c.score.value:.3f} against the best's {b.score.value:.3f} after {c.games} games: "
                    f"worse by {gap:.3f}, more than the 95% bound {bound:.3f}",
                )
            )
    return best, drops


def settled(scores: Mapping[str, Objectives], alive: Sequence[str], precision: float) -> bool:
    """Whether every score still in the race is known to within ``precision`` (half its 95%
    interval): more games would not separate them by more than that."""
    return all(scores[key].score.half_width <= precision for key in alive)
