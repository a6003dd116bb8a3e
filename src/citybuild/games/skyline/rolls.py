"""Skyline's rolls and rerolls as tables (SKY-RAND-2, SKY-TURN-5): every outcome of a roll with its
exact probability, every reroll of the active dice in canonical order, and the face each of a
die's six sides shows, for drawing a roll die by die.

Memory: a big hand has a huge table (a 20-die district roll has over 100,000 outcomes, a reroll
of 20 active dice thousands of multisets), and big hands rarely come back, so only small tables
stay in the caches (at most 256 x SMALL_TABLE entries each); the latest big table is kept alone,
for repeated questions about one position. Keeping 128 big roll tables and 1024 reroll lists
once took over 800 MB (benchmarks/bench_skyline.py --memory). Random play lists neither.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import trunc

from citybuild.core import chance
from citybuild.games.skyline.moves import SLOT, SLOT_DICE, Die, Reroll, Roll, canonical, sorted_dice
from citybuild.games.skyline.position import Counts
from citybuild.games.skyline.rules import FACES, TYPES

SMALL_TABLE = 1000
"""Tables of at most this many entries are cached; of bigger ones only the latest is kept."""


def type_counts(types: Sequence[str]) -> Counts:
    """Die types counted per type (GF, UF, PH)."""
    return (types.count("GF"), types.count("UF"), types.count("PH"))


def roll_into(
    counts: list[int], slots: tuple[tuple[int, ...], ...], rolling: Sequence[int], rnd: Callable[[], float]
) -> None:
    """SKY-RAND-2, die by die: one ``rnd()`` (``rng.random``) per die picks one of its six faces
    (``slots``: the game's ``face_slots``), types in the order GF, UF, PH; each die shown is
    counted in its slot."""
    for t in 0, 1, 2:
        n = rolling[t]
        if n:
            sides = slots[t]
            for _ in range(n):
                counts[sides[trunc(rnd() * 6)]] += 1


@lru_cache(maxsize=64)
def _type_outcomes(kind: str, count: int, faces: str) -> tuple[tuple[tuple[Die, ...], Fraction], ...]:
    """One die type's share of a roll (core.chance.multiset_roll), dice in canonical order."""
    table = {kind: {f: Fraction(faces.count(f), 6) for f in FACES if f in faces}}
    return tuple((sorted_dice(shown), p) for shown, p in chance.multiset_roll({kind: count}, table))


def roll_outcomes(rolling: Counts, faces: tuple[str, str, str]) -> tuple[tuple[Roll, Fraction], ...]:
    """SKY-RAND-2: every multiset of (type, face) for these dice, with its exact probability."""
    if outcome_count(rolling, faces) <= SMALL_TABLE:
        return _small_roll_outcomes(rolling, faces)
    return _big_roll_outcomes(rolling, faces)


def outcome_count(rolling: Counts, faces: tuple[str, str, str]) -> int:
    """How many outcomes ``roll_outcomes`` lists: per type, the multisets of n dice over its k faces."""
    total = 1
    for n, f in zip(rolling, faces, strict=True):
        if n:
            k = len(set(f))
            total *= math.comb(n + k - 1, k - 1)
    return total


def _roll_outcomes(rolling: Counts, faces: tuple[str, str, str]) -> tuple[tuple[Roll, Fraction], ...]:
    """Types roll independently, so an outcome is a product of one share per type (types in
    canonical order, so the joined dice stay canonical) and its probability the product of theirs."""
    parts = [_type_outcomes(t, n, f) for t, n, f in zip(TYPES, rolling, faces, strict=True) if n]
    out: list[tuple[Roll, Fraction]] = []
    for combo in itertools.product(*parts):
        dice: tuple[Die, ...] = ()
        numerator = denominator = 1
        for shown, p in combo:
            dice += shown
            numerator *= p.numerator
            denominator *= p.denominator
        out.append((canonical(Roll, dice), Fraction(numerator, denominator)))
    return tuple(out)


_small_roll_outcomes = lru_cache(maxsize=256)(_roll_outcomes)
_big_roll_outcomes = lru_cache(maxsize=1)(_roll_outcomes)


_ONE_DIE = tuple((die,) for die in SLOT_DICE)
"""Per slot, a one-die tuple of its die."""


@lru_cache(maxsize=1 << 14)
def active_dice(counts: tuple[int, ...]) -> tuple[Die, ...]:
    """The active dice in canonical order, from their counts per slot (every slot's count)."""
    dice: tuple[Die, ...] = ()
    for slot, n in enumerate(counts):  # most counts are 0
        if n:
            dice += _ONE_DIE[slot] * n
    return dice


@lru_cache(maxsize=1 << 12)
def slot_counts(dice: tuple[Die, ...]) -> tuple[int, ...]:
    """Valid dice counted per slot (the inverse of ``active_dice``)."""
    counts = [0] * len(SLOT_DICE)
    for die in dice:
        counts[SLOT[die]] += 1
    return tuple(counts)


def rerolls(active: tuple[Die, ...], all_remaining: bool) -> tuple[Reroll, ...]:
    """SKY-TURN-5: every non-empty multiset of the active dice (or all of them), in the order of
    ``core.multiset.bounded_compositions``: each count from its limit down to 0, the empty
    multiset left out."""
    if all_remaining:
        return (canonical(Reroll, active),)
    if math.prod(active.count(die) + 1 for die in dict.fromkeys(active)) - 1 <= SMALL_TABLE:
        return _small_rerolls(active)
    return _big_rerolls(active)


def _rerolls(active: tuple[Die, ...]) -> tuple[Reroll, ...]:
    # built prefix by prefix, which is much faster than joining each multiset on its own
    prefixes: list[tuple[Die, ...]] = [()]
    for kind in dict.fromkeys(active):  # in the order of ``active``, which is canonical
        runs = [(kind,) * n for n in range(active.count(kind), -1, -1)]
        prefixes = [prefix + run for prefix in prefixes for run in runs]
    prefixes.pop()  # the empty multiset comes last
    return tuple([canonical(Reroll, dice) for dice in prefixes])


_small_rerolls = lru_cache(maxsize=256)(_rerolls)
_big_rerolls = lru_cache(maxsize=1)(_rerolls)
