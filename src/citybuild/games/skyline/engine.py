"""Skyline's rules, written once: who acts, legal moves in canonical order (counted and indexed
without listing), their effects, rolls and the end.

Dice are counted per type (GF, UF, PH) in the yard, the district and the hand being rolled;
active dice carry a face and are kept as a sorted tuple of ``(type, face)``. Each player's
buildings are a ``Skyline``. Every attribute holds an immutable value; a move rebinds the ones it
changes.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from citybuild.core import chance
from citybuild.core.engine import Engine
from citybuild.core.multiset import bounded_compositions
from citybuild.games.skyline.building import Building, Column, Skyline, Tile
from citybuild.games.skyline.moves import (
    Abandon,
    Build,
    Demolish,
    Die,
    EndTurn,
    Reroll,
    Roll,
    TakeDistrict,
    TakeYard,
    canonical,
)
from citybuild.games.skyline.position import ZERO, Counts, SkylinePosition
from citybuild.games.skyline.rules import FACES, MAX_HEIGHT, TYPES, Rules

_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}


def _plus(counts: Counts, index: int, by: int = 1) -> Counts:
    c = list(counts)
    c[index] += by
    return (c[0], c[1], c[2])


def _add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _sub(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def type_counts(types: tuple[str, ...] | list[str]) -> Counts:
    return (types.count("GF"), types.count("UF"), types.count("PH"))


_SINGLE_DICE = {t: tuple(((t, f),) for f in FACES) for t in TYPES}
"""Per type, a one-die tuple for each face in canonical order (random rolls join these)."""


SLOT_DICE: tuple[Die, ...] = tuple(itertools.product(TYPES, FACES))
"""Every die (type, face) in canonical order; a die's index here is its slot."""
SLOT = {die: slot for slot, die in enumerate(SLOT_DICE)}


def _sorted_dice(dice: Sequence[Die]) -> tuple[Die, ...]:
    return tuple(sorted(dice, key=SLOT.__getitem__))


@lru_cache(maxsize=64)
def _type_outcomes(kind: str, count: int, faces: str) -> tuple[tuple[tuple[Die, ...], Fraction], ...]:
    """One die type's share of a roll (core.chance.multiset_roll), dice in canonical order."""
    table = {kind: {f: Fraction(faces.count(f), 6) for f in FACES if f in faces}}
    return tuple((_sorted_dice(shown), p) for shown, p in chance.multiset_roll({kind: count}, table))


# Memory: a big hand has a huge table (a 20-die district roll has over 100,000 outcomes, a reroll
# of 20 active dice thousands of multisets), and big hands rarely come back, so only small tables
# stay in the caches (at most 256 x SMALL_TABLE entries each); the latest big table is kept alone,
# for repeated questions about one position. Keeping 128 big roll tables and 1024 reroll lists
# once took over 800 MB (benchmarks/bench_skyline.py --memory). Random play (``random_move``,
# ``playout``) lists neither.
SMALL_TABLE = 1000
"""Tables of at most this many entries are cached; of bigger ones only the latest is kept."""


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


def take_counts(yard: Counts, size: int) -> tuple[Counts, ...]:
    """SKY-TURN-2: every multiset of ``size`` die types the yard can give, as counts per type, in
    the order of ``yard_takes`` (random play draws an index into this list)."""
    # No take holds more than ``size`` of a type, so the yard clipped to ``size`` gives the same
    # list, and the cache stays small.
    return _take_counts((min(yard[0], size), min(yard[1], size), min(yard[2], size)), size)


@lru_cache(maxsize=1024)
def _take_counts(yard: Counts, size: int) -> tuple[Counts, ...]:
    return tuple((c[0], c[1], c[2]) for c in bounded_compositions(yard, size))


def yard_takes(yard: Counts, size: int) -> tuple[TakeYard, ...]:
    """SKY-TURN-2: every multiset of ``size`` die types the yard can give."""
    return _yard_takes((min(yard[0], size), min(yard[1], size), min(yard[2], size)), size)


@lru_cache(maxsize=1024)
def _yard_takes(yard: Counts, size: int) -> tuple[TakeYard, ...]:
    return tuple(
        TakeYard(tuple(t for t, n in zip(TYPES, c, strict=True) for _ in range(n))) for c in _take_counts(yard, size)
    )


def rerolls(active: tuple[Die, ...], all_remaining: bool) -> tuple[Reroll, ...]:
    """SKY-TURN-5: every non-empty multiset of the active dice (or all of them)."""
    if all_remaining:
        return (canonical(Reroll, active),)
    if math.prod(n + 1 for n in _kinds(active)[1]) - 1 <= SMALL_TABLE:
        return _small_rerolls(active)
    return _big_rerolls(active)


def _rerolls(active: tuple[Die, ...]) -> tuple[Reroll, ...]:
    kinds, limits = _kinds(active)
    # The order of core.multiset.bounded_compositions (each count from its limit down to 0),
    # built prefix by prefix, which is much faster than joining each multiset on its own.
    prefixes: list[tuple[Die, ...]] = [()]
    for kind, limit in zip(kinds, limits, strict=True):
        runs = [(kind,) * n for n in range(limit, -1, -1)]
        prefixes = [prefix + run for prefix in prefixes for run in runs]
    prefixes.pop()  # the empty multiset comes last
    return tuple([canonical(Reroll, dice) for dice in prefixes])


_small_rerolls = lru_cache(maxsize=256)(_rerolls)
_big_rerolls = lru_cache(maxsize=1)(_rerolls)


def _kinds(active: tuple[Die, ...]) -> tuple[tuple[Die, ...], tuple[int, ...]]:
    """The distinct active dice in canonical order, and how many of each (``active`` is sorted)."""
    kinds, _, limits, _ = _active_parts(active)
    return kinds, limits


@lru_cache(maxsize=1 << 16)
def _active_parts(active: tuple[Die, ...]) -> tuple[tuple[Die, ...], tuple[int, ...], tuple[int, ...], int]:
    """The distinct active dice in canonical order, their slots, how many of each, and the number
    of non-empty multisets of them (SKY-TURN-5). Cached: the same few multisets of dice come back
    again and again."""
    kinds = tuple(dict.fromkeys(active))  # in the order of ``active``, which is canonical
    limits = tuple(map(active.count, kinds))
    return kinds, tuple(map(SLOT.__getitem__, kinds)), limits, math.prod(map((1).__add__, limits)) - 1


def can_place(column: Column, die_type: str, rules: Rules) -> bool:
    """SKY-BUILD-3: whether a floor of ``die_type`` (UF or PH, of the column's colour) may go on ``column``."""
    return fits(column.colour, column.height, die_type, rules.blue_min_height)


def fits(colour: str, height: int, die_type: str, blue_min_height: int) -> bool:
    """SKY-BUILD-3 on plain values: an upper floor or penthouse on a building of this colour and height."""
    if colour == "P":
        return die_type == "UF" and height == 1
    if colour == "B":
        if die_type == "UF":
            return height <= 2
        return blue_min_height - 1 <= height <= 3
    if die_type == "UF":
        return height <= 4
    return 2 <= height <= 5


def completes(column: Column, die_type: str) -> bool:
    """SKY-BUILD-3/5: whether adding this floor completes the building."""
    return die_type == "PH" or column.colour == "P"


END_TURN = EndTurn()
TAKE_DISTRICT = TakeDistrict()


@lru_cache(maxsize=4096)
def _build(die: Die, target: int | None) -> Build:
    return Build(die, target)


@lru_cache(maxsize=4096)
def _demolish(die: Die, building: int) -> Demolish:
    return Demolish(die, building)


_ABANDONS = {die: Abandon(die) for die in SLOT_DICE}


SkylineTable = tuple[tuple[tuple[int | None, ...], ...], tuple[int, ...], tuple[int, ...]]


def _skyline_table(skyline: Skyline, blue_min_height: int) -> SkylineTable:
    """What one skyline offers (SKY-BUILD-1..3, SKY-DEMOLISH-1): per die slot, the targets a Build
    of that die may name, in building order (a new building for ground floors, none for blanks);
    the ids of every building, and of the unfinished ones. Kept on the (immutable) skyline, so it
    is worked out once per skyline rather than once per move."""
    cached: tuple[int, SkylineTable] | None = skyline.offers
    if cached is not None and cached[0] == blue_min_height:
        return cached[1]
    table = _offers(skyline.buildings, blue_min_height)
    object.__setattr__(skyline, "offers", (blue_min_height, table))
    return table


def _offers(buildings: tuple[Building, ...], blue_min_height: int) -> SkylineTable:
    targets: list[tuple[int | None, ...]] = list(_BASE_TARGETS)
    every: list[int] = []
    unfinished: list[int] = []
    for b in buildings:
        every.append(b.id)
        if type(b) is Column:
            unfinished.append(b.id)
            colour, height = b.colour, len(b.pieces)
            for kind in ("UF", "PH"):
                if fits(colour, height, kind, blue_min_height):
                    slot = SLOT[kind, colour]
                    targets[slot] = (*targets[slot], b.id)
    return tuple(targets), tuple(every), tuple(unfinished)


_BASE_TARGETS: tuple[tuple[int | None, ...], ...] = tuple(
    () if face == "X" or kind != "GF" else (None,) for kind, face in SLOT_DICE
)
"""Per die slot, the targets with no building: a ground floor starts a new one; nothing else can."""


Targets = tuple[tuple[int | None, ...], ...]
_Shape = tuple[
    tuple[Die, ...], tuple[int, ...], Targets, int, tuple[Die, ...], tuple[int, ...], int, int, tuple[int, ...]
]
"""A resolve or continue position's legal moves, by part, in canonical order: (distinct dice,
how many of each, per die slot its build targets, how many builds, the dice an Abandon or Demolish
may name, the ids a Demolish may name, builds + abandons + demolishes, how many rerolls, the
slots of the distinct dice). Builds
come per distinct die, its targets in order; then, unless ``fallback_only`` forbids them
(SKY-DEMOLISH-3), an Abandon per distinct die and a Demolish per (die, id); then the rerolls and
EndTurn."""

_latest_shape: tuple[Any, Any, Any, _Shape] | None = None
"""The latest shape worked out, with the active dice, skyline and rules it came from (``_shape``)."""


class SkylineEngine(SkylinePosition, Engine):
    """A Skyline position and its rules."""

    answers_from_fields = True  # who acts, chance and the end are read off the fields

    lists_cheaply = False  # a continue phase offers every multiset of the active dice as a reroll

    @property
    def rules(self) -> Rules:
        return self.game.rules

    # --- who acts, chance, the end -----------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "roll" or phase == "over":
            return ()
        return (self.turn,)

    @property
    def is_chance(self) -> bool:
        return self.phase == "roll"

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        if self.phase != "roll":
            return ()
        return roll_outcomes(self.rolling, self.game.rules.faces_key())

    def is_outcome(self, outcome: Any) -> bool:
        """A roll of exactly the dice being rolled, each showing one of its faces (no listing)."""
        if self.phase != "roll" or type(outcome) is not Roll or type(outcome.dice) is not tuple:
            return False
        shown = self.game.shown_dice
        dice = outcome.dice
        return all(type(d) is tuple and d in shown for d in dice) and type_counts([d[0] for d in dice]) == self.rolling

    def _rolled(self, rng: random.Random) -> list[Die]:
        """SKY-RAND-2, die by die: one ``rng.random()`` per die picks one of its six faces (types
        in the order GF, UF, PH); the dice shown, in that order."""
        rnd = rng.random
        dice: list[Die] = []
        for faces, count in zip(self.game.die_faces, self.rolling, strict=True):
            if count:
                dice += [faces[int(rnd() * 6)] for _ in range(count)]
        return dice

    def sample_outcome(self, rng: random.Random) -> Roll:
        return canonical(Roll, _sorted_dice(self._rolled(rng)))

    # --- legal moves: takes; builds, abandons, demolishes; rerolls, end ----------------------
    def takes(self) -> tuple[TakeYard, ...]:
        """SKY-TURN-2: the yard takes (the district take follows them)."""
        total = sum(self.yard)
        return yard_takes(self.yard, min(self.game.rules.yard_take, total)) if total else ()

    def _take_counts(self) -> tuple[Counts, ...]:
        """The yard takes as counts per type, in the order of ``takes``."""
        yard = self.yard
        total = yard[0] + yard[1] + yard[2]
        return take_counts(yard, min(self.game.rules.yard_take, total)) if total else ()

    def _shape(self, player: int) -> _Shape:
        """The shape of ``player``'s moves: a listing, a count, an index and a legality test of one
        position share it. The latest one is remembered beside the module, never in a position,
        with the (immutable) active dice, skyline and rules it was worked out from; the memo holds
        them, so checking them by identity is safe, and a changed position never uses it."""
        global _latest_shape
        active, skyline, rules = self.active, self.skylines[player], self.game.rules
        memo = _latest_shape
        if memo is not None and memo[0] is active and memo[1] is skyline and memo[2] is rules:
            return memo[3]
        shape = self._work_out_shape(player)
        _latest_shape = (active, skyline, rules, shape)
        return shape

    def _work_out_shape(self, player: int) -> _Shape:
        rules = self.game.rules
        kinds, slots, limits, multisets = _active_parts(self.active)
        targets, every, unfinished = _skyline_table(self.skylines[player], rules.blue_min_height)
        builds = sum(map(len, map(targets.__getitem__, slots)))
        if rules.fallback_only and builds:
            abandons: tuple[Die, ...] = ()
            ids: tuple[int, ...] = ()
        else:
            abandons = kinds
            ids = every if rules.demolish_completed_allowed else unfinished
        rerolls = 1 if rules.reroll_all_remaining else multisets
        head = builds + len(abandons) * (1 + len(ids))
        return kinds, limits, targets, builds, abandons, ids, head, rerolls, slots

    def build_targets(self, player: int) -> list[tuple[Die, int | None]]:
        """SKY-BUILD-1..3: the legal Builds as (die, target) pairs, in canonical order."""
        kinds, _, targets, *_, slots = self._shape(player)
        return [(die, target) for die, slot in zip(kinds, slots, strict=True) for target in targets[slot]]

    def count_moves(self, player: int) -> int:
        if self.phase == "take":
            return len(self._take_counts()) + (1 if any(self.district) else 0)
        *_, head, rerolls, _ = self._shape(player)
        return head if self.phase == "resolve" else head + rerolls + 1

    def _locate(self, shape: _Shape, index: int) -> tuple[str, Any, Any]:
        """Which move the ``index``-th of a resolve or continue position is: ("build", die,
        target), ("abandon", die, None), ("demolish", die, id), ("reroll", digits, None) with
        the number of each distinct die kept, or ("end", None, None)."""
        kinds, limits, targets, builds, abandons, ids, _, rerolls, slots = shape
        if index < builds:
            for die, slot in zip(kinds, slots, strict=True):
                row = targets[slot]
                if index < len(row):
                    return "build", die, row[index]
                index -= len(row)
        index -= builds
        if index < len(abandons):
            return "abandon", abandons[index], None
        index -= len(abandons)
        if index < len(abandons) * len(ids):
            which, target = divmod(index, len(ids))
            return "demolish", abandons[which], ids[target]
        index -= len(abandons) * len(ids)
        if index == rerolls:
            return "end", None, None
        if self.game.rules.reroll_all_remaining:
            return "reroll", (0,) * len(kinds), None
        # the order of rerolls(): mixed radix, each kept count from the die's limit down to 0
        digits = [0] * len(kinds)
        for i in range(len(kinds) - 1, -1, -1):
            index, digits[i] = divmod(index, limits[i] + 1)
        return "reroll", tuple(digits), None

    def nth_move(self, player: int, index: int) -> Any:
        if self.phase == "take":
            takes = self.takes()
            return takes[index] if index < len(takes) else TAKE_DISTRICT
        shape = self._shape(player)
        what, a, b = self._locate(shape, index)
        if what == "build":
            return _build(a, b)
        if what == "abandon":
            return _ABANDONS[a]
        if what == "demolish":
            return _demolish(a, b)
        if what == "end":
            return END_TURN
        picked: list[Die] = []
        for die, limit, kept in zip(shape[0], shape[1], a, strict=True):
            picked.extend([die] * (limit - kept))
        return canonical(Reroll, tuple(picked))

    def legal_moves(self, player: int) -> Sequence[Any]:
        if self.phase == "take":
            return (*self.takes(), TAKE_DISTRICT) if any(self.district) else self.takes()
        kinds, _, targets, _, abandons, ids, _, _, slots = self._shape(player)
        out: list[Any] = [
            _build(die, target) for die, slot in zip(kinds, slots, strict=True) for target in targets[slot]
        ]
        out.extend(_ABANDONS[die] for die in abandons)
        out.extend(_demolish(die, i) for die in abandons for i in ids)
        if self.phase == "continue":
            out.extend(rerolls(self.active, self.game.rules.reroll_all_remaining))
            out.append(END_TURN)
        return tuple(out)

    def is_legal(self, move: Any, player: int) -> bool:
        """Membership in the part of the legal moves of the move's kind, without listing rerolls."""
        kind = type(move)
        phase = self.phase
        if kind is TakeYard or kind is TakeDistrict:
            return phase == "take" and (move in self.takes() if kind is TakeYard else any(self.district))
        if phase != "resolve" and phase != "continue":
            return False
        if kind is Build or kind is Abandon or kind is Demolish:
            die = move.die
            if not _well_formed_die(die) or die not in SLOT:
                return False
            kinds, _, targets, _, abandons, ids, _, _, _ = self._shape(player)
            if kind is Build:
                target = move.target
                return (target is None or type(target) is int) and die in kinds and target in targets[SLOT[die]]
            if kind is Abandon:
                return die in abandons
            return die in abandons and type(move.building) is int and move.building in ids
        if phase != "continue":
            return False
        if kind is EndTurn:
            return True
        if kind is not Reroll or type(move.dice) is not tuple or not move.dice:
            return False
        if self.game.rules.reroll_all_remaining:
            return bool(move.dice == self.active)
        rest = list(self.active)
        for die in move.dice:  # a sub-multiset of the active dice (so each is a well-formed die)
            if type(die) is not tuple or die not in rest:
                return False
            rest.remove(die)
        return True

    # --- effects -------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is TakeYard:
            self._take(type_counts(move.types))
        elif kind is TakeDistrict:
            self._take_district()
        elif kind is Reroll:
            kept = list(self.active)
            for die in move.dice:
                kept.remove(die)
            self._reroll(tuple(kept), type_counts([d[0] for d in move.dice]))
        elif kind is EndTurn:
            self._end_turn()
        elif kind is Build:
            self._resolve(player, "build", move.die, move.target)
        elif kind is Abandon:
            self._resolve(player, "abandon", move.die, None)
        else:
            self._resolve(player, "demolish", move.die, move.building)

    def random_step(self, rng: random.Random) -> Any:
        """One step of random play in place, drawn like ``random_move``/``sample_outcome`` but
        applied by its index, without making the move's value; returns None."""
        phase = self.phase
        if phase == "roll":
            self._add_rolled(self._rolled(rng))  # the same roll as sample_outcome's, not yet sorted
            return None
        if phase == "take":
            takes = self._take_counts()
            count = len(takes) + (1 if any(self.district) else 0)
            if not count:
                return super().random_step(rng)  # nothing to take: refused as the engine refuses it
            index = int(rng.random() * count)
            if index < len(takes):
                self._take(takes[index])
            else:
                self._take_district()
            return None
        player = self.turn
        shape = self._work_out_shape(player)  # used once: not worth remembering
        count = shape[6] if phase == "resolve" else shape[6] + shape[7] + 1
        what, a, b = self._locate(shape, int(rng.random() * count))
        if what == "reroll":
            kept: list[Die] = []
            rolled = [0, 0, 0]
            for die, limit, keep in zip(shape[0], shape[1], a, strict=True):
                kept.extend([die] * keep)
                rolled[_TYPE_INDEX[die[0]]] += limit - keep
            self._reroll(tuple(kept), (rolled[0], rolled[1], rolled[2]))
        elif what == "end":
            self._end_turn()
        else:
            self._resolve(player, what, a, b)
        return None

    def _take(self, taken: Counts) -> None:
        """SKY-TURN-2: take dice from the yard and roll them."""
        self.phase, self.yard, self.rolling = "roll", _sub(self.yard, taken), taken

    def _take_district(self) -> None:
        """SKY-TURN-2: take the district and roll it; one die of each type refills it from the yard."""
        yard = self.yard
        refill: Counts = (min(1, yard[0]), min(1, yard[1]), min(1, yard[2]))
        self.phase, self.yard, self.rolling, self.district = "roll", _sub(yard, refill), self.district, refill

    def _reroll(self, kept: tuple[Die, ...], rolled: Counts) -> None:
        """SKY-TURN-5: roll again some active dice; the others stay active."""
        self.phase, self.active, self.rolling = "roll", kept, rolled

    def _end_turn(self) -> None:
        """SKY-TURN-6: the active dice go back to the yard and the turn ends."""
        self.yard = _add(self.yard, type_counts([d[0] for d in self.active]))
        self.active = ()
        self._next_turn()

    def _resolve(self, player: int, what: str, die: Die, target: int | None) -> None:
        """SKY-TURN-3: one active die is built, abandoned or spent on a demolition."""
        active = self.active
        index = active.index(die)
        self.active = active[:index] + active[index + 1 :]
        self.phase = "continue"
        if what == "build":
            self._build(player, die, target)
        elif what == "abandon":
            self.district = _plus(self.district, _TYPE_INDEX[die[0]])  # SKY-ABANDON-1
        else:
            assert target is not None
            self._demolish(player, die, target)
        if not self.active:  # SKY-TURN-7
            self._next_turn()

    def _build(self, player: int, die: Die, target: int | None) -> None:
        """SKY-BUILD-1..5: start a building or add a floor; a completed building becomes a tile."""
        kind, face = die
        skyline = self.skylines[player]
        if target is None:
            self.skylines = self._with(player, skyline.start(face, kind))
            return
        column = skyline.get(target)
        assert isinstance(column, Column)
        column = column.add(kind)
        if not completes(column, kind):
            self.skylines = self._with(player, skyline.put(column))
            return
        # SKY-BUILD-5: the column becomes a tile; all its dice go back to the yard.
        height = column.height
        supply = self.tile_supply()
        if supply is not None and supply[height - 1] <= 0:
            short = self.short
            self.short = (*short[: height - 1], short[height - 1] + 1, *short[height:])
        self.skylines = self._with(player, skyline.put(Tile(column.id, column.colour, height)))
        self.yard = _add(self.yard, type_counts(column.pieces))
        if height == MAX_HEIGHT and self.game.rules.six_floor_ends_game:
            self.trigger = True

    def _demolish(self, player: int, die: Die, building: int) -> None:
        """SKY-DEMOLISH-1/2: the die and the building's dice go to the yard."""
        skyline = self.skylines[player]
        target = skyline.get(building)
        yard = _plus(self.yard, _TYPE_INDEX[die[0]])
        if isinstance(target, Column):
            yard = _add(yard, type_counts(target.pieces))
        elif isinstance(target, Tile) and self.short[target.height - 1]:
            h = target.height - 1
            self.short = (*self.short[:h], self.short[h] - 1, *self.short[h + 1 :])  # a tileless one goes first
        self.yard = yard
        self.skylines = skylines = self._with(player, skyline.remove(building))
        if self.trigger and not self.game.rules.end_trigger_latches:  # SKY-END-2: needs a six-floor tile
            self.trigger = any(isinstance(b, Tile) and b.height == MAX_HEIGHT for s in skylines for b in s.buildings)

    def _with(self, player: int, skyline: Skyline) -> tuple[Skyline, ...]:
        s = self.skylines
        return (*s[:player], skyline, *s[player + 1 :])

    def tile_supply(self) -> tuple[int, ...] | None:
        """SKY-COMP-5: tiles left per height 1-6 with a finite supply; None when unlimited."""
        rules = self.game.rules
        if not rules.finite_tile_supply:
            return None
        standing = [0] * MAX_HEIGHT
        for skyline in self.skylines:
            for b in skyline.buildings:
                if isinstance(b, Tile):
                    standing[b.height - 1] += 1
        return tuple(rules.tile_counts[h + 1] - standing[h] + self.short[h] for h in range(MAX_HEIGHT))

    def _next_turn(self) -> None:
        """SKY-TURN-1, SKY-END-1/2: the next seat, the next round, or the end of the game."""
        if self.turn + 1 < self.game.players:
            self.phase, self.turn = "take", self.turn + 1
        elif self.trigger or self.round >= self.game.rules.rounds:
            self.phase = "over"
        else:
            self.phase, self.turn, self.round = "take", 0, self.round + 1

    def apply_outcome(self, outcome: Any) -> None:
        self._add_rolled(outcome.dice)

    def playout(self, rng: random.Random) -> int:
        steps = 0
        while self.phase != "over":
            self.random_step(rng)
            steps += 1
        return steps

    def _add_rolled(self, dice: Sequence[Die]) -> None:
        """SKY-TURN-3: the rolled dice join the active dice, to be resolved."""
        self.phase, self.active, self.rolling = "resolve", _sorted_dice([*self.active, *dice]), ZERO


def _well_formed_die(die: Any) -> bool:
    return type(die) is tuple and len(die) == 2 and type(die[0]) is str and type(die[1]) is str
