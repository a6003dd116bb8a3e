"""What a Skyline position offers the player to act, in canonical order, counted and indexed
without listing: the takes (SKY-TURN-2), where a floor may go (SKY-BUILD-1..3), each skyline's
build and demolish targets (SKY-DEMOLISH-1..3), and the shape of a resolve or continue
position's moves. Explanations, evaluations and the action numbering ask these functions rather
than re-deriving the rules.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from citybuild.core.multiset import bounded_compositions
from citybuild.games.skyline.building import Building, Column
from citybuild.games.skyline.moves import SLOT, SLOT_DICE, TakeYard
from citybuild.games.skyline.position import Counts
from citybuild.games.skyline.rules import TYPES

# --- SKY-TURN-2: takes ------------------------------------------------------------------------


def take_size(yard: Sequence[int], yard_take: int) -> int:
    """SKY-TURN-2: how many dice a take from the yard holds: ``yard_take``, or all the yard has."""
    return min(yard_take, yard[0] + yard[1] + yard[2])


def take_counts(yard: Sequence[int], yard_take: int) -> tuple[Counts, ...]:
    """SKY-TURN-2: every multiset of die types a take from the yard can be, as counts per type,
    in canonical order (the order of ``yard_takes``; none with an empty yard)."""
    return _takes_of(yard[0], yard[1], yard[2], yard_take)


@lru_cache(maxsize=4096)
def _takes_of(gf: int, uf: int, ph: int, yard_take: int) -> tuple[Counts, ...]:
    size = take_size((gf, uf, ph), yard_take)
    if not size:
        return ()
    # No take holds more than ``size`` of a type, so the yard clipped to ``size`` gives the same
    # list, and the inner cache stays small.
    return _take_counts((min(gf, size), min(uf, size), min(ph, size)), size)


@lru_cache(maxsize=1024)
def _take_counts(yard: Counts, size: int) -> tuple[Counts, ...]:
    return tuple((c[0], c[1], c[2]) for c in bounded_compositions(yard, size))


def yard_takes(yard: Sequence[int], yard_take: int) -> tuple[TakeYard, ...]:
    """SKY-TURN-2: every legal ``TakeYard``, in canonical order."""
    return _yard_takes(take_counts(yard, yard_take))


@lru_cache(maxsize=1024)
def _yard_takes(counts: tuple[Counts, ...]) -> tuple[TakeYard, ...]:
    return tuple(TakeYard(tuple(t for t, n in zip(TYPES, c, strict=True) for _ in range(n))) for c in counts)


# --- SKY-BUILD-1..5: where a floor goes ----------------------------------------------------------


def floor_heights(colour: str, die_type: str, blue_min_height: int) -> range:
    """SKY-BUILD-3: the heights of an unfinished building of ``colour`` on which a floor of
    ``die_type`` (UF or PH) of that colour may go."""
    if colour == "P":
        return range(1, 2) if die_type == "UF" else range(0)
    if colour == "B":
        return range(0, 3) if die_type == "UF" else range(blue_min_height - 1, 4)
    return range(0, 5) if die_type == "UF" else range(2, 6)


def fits(colour: str, height: int, die_type: str, blue_min_height: int) -> bool:
    """SKY-BUILD-3: whether an upper floor or penthouse may go on a building of this colour and height."""
    return height in floor_heights(colour, die_type, blue_min_height)


def completes(colour: str, die_type: str) -> bool:
    """SKY-BUILD-3/5: whether this floor completes a building of ``colour`` (a penthouse always,
    a purple upper floor too)."""
    return die_type == "PH" or colour == "P"


def completed_heights(colour: str, blue_min_height: int) -> range:
    """SKY-BUILD-3: the heights at which a building of ``colour`` can be completed: one above
    those its completing floor may go on."""
    below = floor_heights(colour, "UF" if colour == "P" else "PH", blue_min_height)
    return range(below.start + 1, below.stop + 1)


# --- a skyline's targets, and the shape of a position's moves ------------------------------------

Targets = tuple[tuple[int | None, ...], ...]
"""Per die slot, the targets a Build of that die may name, in building order: None for a new
building, else the building's position in its skyline (its index in the buildings, not its id,
so that skylines alike but for their ids offer alike)."""

_BASE_TARGETS: Targets = tuple(() if face == "X" or kind != "GF" else (None,) for kind, face in SLOT_DICE)
"""Per die slot, the targets with no building: a ground floor starts a new one; nothing else can."""


@lru_cache(maxsize=1024)
def floor_slots(colour: str, height: int, blue_min_height: int) -> tuple[int, ...]:
    """SKY-BUILD-2/3: the slots of the dice (an upper floor or penthouse of its colour) that may
    go on an unfinished building of this colour and height."""
    return tuple(SLOT[kind, colour] for kind in ("UF", "PH") if fits(colour, height, kind, blue_min_height))


class Offers(NamedTuple):
    """What one skyline offers under the rules: per die slot its build targets (SKY-BUILD-1..3)
    and how many, the positions of the buildings a Demolish may name (SKY-DEMOLISH-1/2), and the
    options that shape the rest. Skylines alike (``layout``) share one value, and its ``key``
    names it among the shapes ``kept_shape`` keeps."""

    targets: Targets
    sizes: tuple[int, ...]
    razable: tuple[int, ...]
    fallback_only: bool
    reroll_all_remaining: bool
    key: int


Layout = tuple[tuple[str, int] | None, ...]
"""A skyline as its offers see it: per building, in order, an unfinished one's (colour, height),
or None for a completed one."""

OfferRules = tuple[int, bool, bool, bool]
"""``blue_min_height``, ``demolish_completed_allowed``, ``fallback_only``, ``reroll_all_remaining``
(the game's ``offer_rules``)."""


def layout(buildings: Sequence[Building]) -> Layout:
    """What of ``buildings`` their offers depend on."""
    return tuple([(b.colour, len(b.pieces)) if type(b) is Column else None for b in buildings])


def offers(buildings: Sequence[Building], rules: OfferRules) -> Offers:
    """What a skyline of these buildings offers under the game's ``offer_rules``."""
    return offers_of(layout(buildings), rules)


_keys = itertools.count()


@lru_cache(maxsize=1 << 12)
def offers_of(skyline: Layout, rules: OfferRules) -> Offers:
    """What a skyline of this layout offers (one value per layout; a new key if it comes back
    after leaving the cache, so a key never names two offers)."""
    blue_min_height, demolish_completed_allowed, fallback_only, reroll_all_remaining = rules
    targets = list(_BASE_TARGETS)
    every: list[int] = []
    unfinished: list[int] = []
    for position, b in enumerate(skyline):
        every.append(position)
        if b is not None:
            unfinished.append(position)
            for slot in floor_slots(b[0], b[1], blue_min_height):
                targets[slot] = (*targets[slot], position)
    razable = tuple(every) if demolish_completed_allowed else tuple(unfinished)
    sizes = tuple(map(len, targets))
    return Offers(tuple(targets), sizes, razable, fallback_only, reroll_all_remaining, next(_keys))


BUILD, ABANDON, DEMOLISH, REROLL, END = "build", "abandon", "demolish", "reroll", "end"
Part = tuple[str, Any, Any]
"""A move by its part: (BUILD, slot, position or None), (ABANDON, slot, None), (DEMOLISH, slot,
position), (REROLL, kept, None) with a list of the number of each distinct die kept, or (END,
None, None)."""
_END: Part = (END, None, None)


class Shape(NamedTuple):
    """A resolve or continue position's legal moves, by part, in canonical order: Builds per
    distinct die, its targets in order; then, unless ``fallback_only`` forbids them
    (SKY-DEMOLISH-3), an Abandon per distinct die and a Demolish per (die, building); then the
    rerolls (SKY-TURN-5) and EndTurn."""

    kinds: Sequence[int]
    """The slots of the distinct active dice, in canonical order."""
    counts: Sequence[int]
    """How many dice are active per slot (``limits`` gives them per distinct die)."""
    targets: Targets
    """Per die slot, its build targets."""
    builds: int
    """How many Builds there are."""
    abandons: Sequence[int]
    """The slots an Abandon or a Demolish may name."""
    razable: tuple[int, ...]
    """The positions of the buildings a Demolish may name."""
    head: int
    """Builds + abandons + demolishes: the moves of a resolve position."""
    rerolls: int
    """How many rerolls a continue position offers (they follow the head, then EndTurn)."""

    @property
    def limits(self) -> list[int]:
        """How many of each distinct die are active."""
        return [self.counts[slot] for slot in self.kinds]


_new_shape = tuple.__new__
ShapeFields = tuple[list[int], Sequence[int], Targets, int, list[int], tuple[int, ...], int, int]
"""A ``Shape``'s fields in order, unnamed."""


def shape(counts: Sequence[int], slots: Iterable[int], offer: Offers) -> Shape:
    """The shape of the moves of a player whose skyline offers ``offer``, with these active dice
    (counts per slot; ``slots``, in canonical order, holds every slot whose count may not be 0)."""
    return _new_shape(Shape, shape_fields(counts, slots, offer))


def shape_fields(counts: Sequence[int], slots: Iterable[int], offer: Offers) -> ShapeFields:
    """``shape``'s fields as a plain tuple, which random play makes at every step: a tuple is
    made by one instruction, a ``Shape`` through a call."""
    targets, sizes, razable, fallback_only, all_remaining, _ = offer
    kinds: list[int] = []
    builds = 0
    multisets = 1
    for slot in slots:
        if counts[slot]:  # most slots are empty: they cost one test
            n = counts[slot]
            kinds.append(slot)
            builds += sizes[slot]
            multisets *= n + 1
    if fallback_only and builds:
        abandons: list[int] = []
        razable = ()
    else:
        abandons = kinds
    rerolls = 1 if all_remaining else multisets - 1
    head = builds + len(abandons) * (1 + len(razable))
    return kinds, counts, targets, builds, abandons, razable, head, rerolls


SHAPES_KEPT = 1 << 14
"""How many shapes ``kept_shape`` keeps; it starts afresh when full."""
_kept: dict[tuple[int, tuple[int, ...]], Shape] = {}


def kept_shape(counts: tuple[int, ...], slots: Iterable[int], offer: Offers) -> Shape:
    """``shape``, kept by offers and dice: the states of a game played through the public API
    ask the same question of a new engine for each listing and each move checked. (Random play
    on one engine does not keep them: finding one costs about as much as working it out.)"""
    key = (offer.key, counts)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= SHAPES_KEPT:
            _kept.clear()
        found = _kept[key] = shape(counts, slots, offer)
    return found


def locate(s: Shape | ShapeFields, index: int) -> Part:
    """The ``index``-th move of a resolve or continue position, by its part."""
    kinds, counts, targets, builds, abandons, razable, head, rerolls = s
    if index < builds:
        for slot in kinds:
            row = targets[slot]
            n = len(row)
            if index < n:
                return BUILD, slot, row[index]
            index -= n
    if index < head:
        index -= builds
        n = len(abandons)
        if index < n:
            return ABANDON, abandons[index], None
        which, target = divmod(index - n, len(razable))
        return DEMOLISH, abandons[which], razable[target]
    index -= head
    if index == rerolls:
        return _END
    # the order of rolls.rerolls(): mixed radix, each kept count from the die's limit down to 0
    # (index 0 keeps none: the one reroll of ``reroll_all_remaining``)
    kept = [0] * len(kinds)
    for i in range(len(kinds) - 1, -1, -1):
        radix = counts[kinds[i]] + 1
        kept[i] = index % radix
        index //= radix
    return REROLL, kept, None


def head_parts(s: Shape) -> list[Part]:
    """The Builds, Abandons and Demolishes of ``s``, in order, by part."""
    return [locate(s, index) for index in range(s.head)]
