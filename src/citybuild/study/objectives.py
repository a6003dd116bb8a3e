"""What a tune measures of a rule set, each with its 95% interval, and the one score it ranks by.

- fairness: the largest gap between a seat's win rate and the fair share 1/n (0 is fair);
- shared: the share of games whose win is shared (decisiveness: 0 is always decided);
- moves and rounds: the game's length;
- margin: the winner's total minus the runner-up's (smaller is closer).

A win shared by k players counts 1/k to each seat, as in a study's table. The combined score is a
weighted sum, smaller is better: fairness and shared as they are, moves and margin as fractions of
the preset's (so a weight of 0.1 on moves says "a game 10% longer than the preset's costs as
much as one point of win-rate gap"). Fairness is a largest gap, not a mean, so its interval and
the score's come from a bootstrap over the games, drawn from a generator seeded by the
candidate's cell: the same games always give the same intervals.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.bots.arena import wilson
from citybuild.core.errors import RulesError
from citybuild.study.extra import need

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

OBJECTIVES = ("fairness", "shared", "moves", "rounds", "margin")
"""Every objective, in the report's order; each is better smaller."""
DEFAULT_WEIGHTS: dict[str, float] = {"fairness": 1.0, "shared": 1.0, "moves": 0.1, "margin": 0.1}
"""The combined score's weights (``rounds`` and any objective left out weigh 0)."""
RELATIVE = ("moves", "rounds", "margin")
"""Objectives the score takes as fractions of the preset's value."""
Z = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""
RESAMPLES = 400
"""Bootstrap resamples behind the fairness and score intervals."""


@attrs.frozen
class Estimate:
    """A value and its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@attrs.frozen
class Games:
    """A candidate's games as arrays: each seat's share of each win, and per game whether the win
    was shared, its moves, its rounds (NaN for a game without rounds) and the winner's margin."""

    shares: np.ndarray[Any, Any]
    shared: np.ndarray[Any, Any]
    moves: np.ndarray[Any, Any]
    rounds: np.ndarray[Any, Any]
    margin: np.ndarray[Any, Any]

    @property
    def count(self) -> int:
        return int(self.moves.shape[0])

    @classmethod
    def of(cls, rows: pa.Table) -> Games:
        """The arrays of one cell's rows of a study table."""
        np = need("numpy")
        if not rows.num_rows:
            raise RulesError("a candidate with no games has no objectives")
        n = int(rows.column("players")[0].as_py())
        winners: list[list[int]] = rows.column("winners").to_pylist()
        shares = np.zeros((n, len(winners)))
        for game, won in enumerate(winners):
            for seat in won:
                shares[seat, game] = 1 / len(won)
        scores = np.array([rows.column(f"p{s}_score").to_numpy(zero_copy_only=False) for s in range(n)], dtype=float)
        ordered = np.sort(scores, axis=0)
        rounds = [math.nan if r is None else r for r in rows.column("rounds").to_pylist()]
        return cls(
            shares=shares,
            shared=np.array([len(won) > 1 for won in winners], dtype=float),
            moves=rows.column("moves").to_numpy(zero_copy_only=False).astype(float),
            rounds=np.array(rounds, dtype=float),
            margin=ordered[-1] - ordered[-2],
        )


@attrs.frozen
class Objectives:
    """A candidate's objectives and combined score, each an ``Estimate``; ``se`` is the score's
    standard error (what racing compares)."""

    games: int
    fairness: Estimate
    shared: Estimate
    moves: Estimate
    rounds: Estimate
    margin: Estimate
    score: Estimate
    se: float

    def get(self, name: str) -> Estimate:
        if name not in (*OBJECTIVES, "score"):
            raise RulesError(f"unknown objective {name!r}; objectives are: {', '.join(OBJECTIVES)}")
        value: Estimate = getattr(self, name)
        return value


def check_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """The score's weights: the defaults with ``weights`` laid over them; ``RulesError`` for an
    unknown objective or a weight that is not a finite number of at least 0."""
    out = dict(DEFAULT_WEIGHTS)
    for name, weight in (weights or {}).items():
        if name not in OBJECTIVES:
            raise RulesError(f"unknown objective {name!r} to weigh; objectives are: {', '.join(OBJECTIVES)}")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight < math.inf:
            raise RulesError(f"the weight of {name} must be a number of at least 0, not {weight!r}")
        out[name] = float(weight)
    if not any(out.values()):
        raise RulesError("at least one objective must weigh more than 0")
    return out


def _mean(values: np.ndarray[Any, Any]) -> Estimate:
    np = need("numpy")
    kept = values[~np.isnan(values)]
    if not len(kept):
        return Estimate(math.nan, math.nan, math.nan)
    mean = float(kept.mean())
    half = Z * float(kept.std(ddof=1)) / math.sqrt(len(kept)) if len(kept) > 1 else math.inf
    return Estimate(mean, mean - half, mean + half)


def _gap(shares: np.ndarray[Any, Any]) -> Any:
    """The largest |win rate - 1/n| over the seats, for shares of shape (seats, ..., games)."""
    np = need("numpy")
    n = shares.shape[0]
    return np.abs(shares.mean(axis=-1) - 1 / n).max(axis=0)


def measure(games: Games, reference: Mapping[str, float], weights: Mapping[str, float], key: str) -> Objectives:
    """The objectives of ``games`` with the combined score under ``weights``; ``reference``
    holds the preset's mean moves, rounds and margin (the score's unit for each); ``key`` (the
    candidate's cell) seeds the bootstrap."""
    np = need("numpy")
    n_games = games.count
    shared_count = float(games.shared.sum())
    low, high = wilson(shared_count, n_games)
    rate = shared_count / n_games
    estimates = {
        "shared": Estimate(rate, min(low, rate), max(high, rate)),  # Wilson's 1 comes out as 0.9999999999999999
        "moves": _mean(games.moves),
        "rounds": _mean(games.rounds),
        "margin": _mean(games.margin),
    }
    seed = int.from_bytes(hashlib.blake2b(f"citybuild-tune:{key}".encode(), digest_size=8).digest(), "big")
    picks = np.random.default_rng(seed).integers(0, n_games, size=(RESAMPLES, n_games))
    gaps = _gap(games.shares[:, picks])
    fairness = float(_gap(games.shares))
    g_low, g_high = np.percentile(gaps, [2.5, 97.5])
    # a gap is biased upwards (|noise| > 0), so the resampled ones may all lie above it: the interval holds it
    estimates["fairness"] = Estimate(fairness, min(fairness, float(g_low)), max(fairness, float(g_high)))

    def scored(fair: Any, per: Mapping[str, Any]) -> Any:
        total = weights.get("fairness", 0.0) * fair + weights.get("shared", 0.0) * per["shared"]
        for name in RELATIVE:
            weight = weights.get(name, 0.0)
            if weight:
                unit = reference.get(name) or 1.0
                total = total + weight * per[name] / (unit if unit == unit and unit > 0 else 1.0)
        return total

    point = scored(fairness, {name: estimates[name].value for name in ("shared", *RELATIVE)})
    resampled = {
        "shared": games.shared[picks].mean(axis=1),
        "moves": games.moves[picks].mean(axis=1),
        "rounds": np.nan_to_num(games.rounds)[picks].mean(axis=1),
        "margin": games.margin[picks].mean(axis=1),
    }
    spread = scored(gaps, resampled)
    se = float(np.std(spread, ddof=1))
    return Objectives(
        games=n_games,
        score=Estimate(float(point), float(point) - Z * se, float(point) + Z * se),
        se=se,
        **estimates,
    )


def reference_of(games: Games) -> dict[str, float]:
    """The preset's means that the score's relative objectives are measured in."""
    np = need("numpy")
    rounds = games.rounds[~np.isnan(games.rounds)]
    return {
        "moves": float(games.moves.mean()),
        "rounds": float(rounds.mean()) if len(rounds) else math.nan,
        "margin": float(games.margin.mean()),
    }


def distinguishable(a: Objectives, b: Objectives, z: float = Z) -> bool:
    """Whether the two scores differ at the confidence ``z`` stands for (independent games)."""
    return abs(a.score.value - b.score.value) > z * math.hypot(a.se, b.se)


def dominates(a: Objectives, b: Objectives, names: tuple[str, ...] = ("fairness", "shared", "moves", "margin")) -> bool:
    """Whether ``a`` is no worse than ``b`` in every objective and better in one (point values)."""
    pairs = [(a.get(n).value, b.get(n).value) for n in names]
    return all(x <= y for x, y in pairs) and any(x < y for x, y in pairs)
