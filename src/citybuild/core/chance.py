"""Chance helpers: outcomes with exact probabilities, and reproducible sampling.

Sampling uses only ``random.Random.random()``, whose sequence for a given seed is fixed
across Python versions, so a seed gives the same game everywhere.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TypeVar

from citybuild.core.errors import InvalidStateError
from citybuild.core.multiset import bounded_compositions

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

Outcomes = tuple[tuple[T, Fraction], ...]


@lru_cache(maxsize=8192)
def draw_from_counts(counts: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """Drawing one item from a pile of counts per index: index k with probability n_k / N (cached)."""
    return from_counts(counts)


def from_counts(counts: Mapping[K, int] | Sequence[int]) -> tuple[tuple[K | int, Fraction], ...]:
    """Drawing one item from a pile given as counts: each kind with probability n_k / N."""
    items = counts.items() if isinstance(counts, Mapping) else enumerate(counts)
    pairs = [(k, n) for k, n in items if n > 0]
    total = sum(n for _, n in pairs)
    if total == 0:
        raise InvalidStateError("cannot draw from an empty pile")
    return tuple((k, Fraction(n, total)) for k, n in pairs)


def multiset_roll(
    dice: Mapping[K, int], faces: Mapping[K, Mapping[str, Fraction]]
) -> tuple[tuple[tuple[tuple[K, str], ...], Fraction], ...]:
    """Rolling several dice at once: every multiset of (die type, face) with its exact probability.

    The probability of a multiset is, per die type t, the multinomial
    n_t! / prod_f k_{t,f}! * prod_f p_{t,f}^{k_{t,f}}, multiplied over types.
    Outcomes are sorted tuples of (type, face) pairs.
    """
    per_type: list[list[tuple[tuple[tuple[K, str], ...], Fraction]]] = []
    for die_type, n in dice.items():
        if n <= 0:
            continue
        probs = {f: p for f, p in faces[die_type].items() if p > 0}
        options: list[tuple[tuple[tuple[K, str], ...], Fraction]] = []
        for combo in bounded_compositions((n,) * len(probs), n):
            prob = Fraction(math.factorial(n))
            result: list[tuple[K, str]] = []
            for (face, p), k in zip(probs.items(), combo, strict=True):
                prob = prob / math.factorial(k) * p**k
                result.extend([(die_type, face)] * k)
            options.append((tuple(result), prob))
        per_type.append(options)
    out: list[tuple[tuple[tuple[K, str], ...], Fraction]] = []
    for parts in product(*per_type):
        dice_shown: list[tuple[K, str]] = []
        prob = Fraction(1)
        for shown, p in parts:
            dice_shown.extend(shown)
            prob *= p
        out.append((tuple(sorted(dice_shown, key=repr)), prob))
    return tuple(out)


_TWO_53 = 1 << 53


def sample_counts(counts: Sequence[int], rng: random.Random) -> int:
    """Draw an index from a pile of counts: the same index ``sample(from_counts(counts), rng)``
    gives for the same generator state, without building the Fractions (a playout's hot path)."""
    threshold = int(rng.random() * _TWO_53) * sum(counts)
    acc = 0
    last = -1
    for index, n in enumerate(counts):
        if n:
            acc += n
            last = index
            if threshold < acc * _TWO_53:
                return index
    if last < 0:
        raise InvalidStateError("cannot draw from an empty pile")
    return last


def sample(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """Pick one outcome with its probability, using a single ``rng.random()`` call.

    ``random()`` returns m / 2**53 for an integer m, so the comparison with the cumulative
    probabilities is done exactly in integers: the result depends only on the seed.
    """
    m = int(rng.random() * _TWO_53)
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    threshold = m * denominator
    acc = 0
    for outcome, p in outcomes:
        acc += p.numerator * (denominator // p.denominator)
        if threshold < acc * _TWO_53:
            return outcome
    return outcomes[-1][0]


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A uniform shuffle of ``items`` (Fisher-Yates) drawn with ``rng.random()`` only, so that a
    seed gives the same order on every Python (``random.shuffle`` may change between versions)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out
