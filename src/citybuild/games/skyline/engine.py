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
from typing import TYPE_CHECKING, Any

from citybuild.core import chance
from citybuild.core.engine import Engine
from citybuild.core.multiset import bounded_compositions
from citybuild.games.skyline.building import Column, Skyline, Tile
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
    die_rank,
)
from citybuild.games.skyline.rules import FACES, MAX_HEIGHT, TYPES, Rules

if TYPE_CHECKING:
    from citybuild.games.skyline.game import SkylineGame

Counts = tuple[int, int, int]
PHASES = ("take", "roll", "resolve", "continue", "over")
"""take: the turn opens with a take; roll: dice are being rolled (chance); resolve: at least one
die must be resolved; continue: resolve more, reroll or end the turn; over: the game has ended."""

_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
_FACE_INDEX = {f: i for i, f in enumerate(FACES)}
ZERO: Counts = (0, 0, 0)


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


@lru_cache(maxsize=16)
def face_slots(faces: str) -> tuple[int, ...]:
    """The canonical index (P B O X) of each of a die's six faces."""
    return tuple(_FACE_INDEX[f] for f in faces)


def _sorted_dice(dice: tuple[Die, ...]) -> tuple[Die, ...]:
    return tuple(sorted(dice, key=die_rank))


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


@lru_cache(maxsize=4096)
def take_counts(yard: Counts, size: int) -> tuple[Counts, ...]:
    """SKY-TURN-2: every multiset of ``size`` die types the yard can give, as counts per type, in
    the order of ``yard_takes`` (random play draws an index into this list)."""
    return tuple((c[0], c[1], c[2]) for c in bounded_compositions(yard, size))


@lru_cache(maxsize=4096)
def yard_takes(yard: Counts, size: int) -> tuple[TakeYard, ...]:
    """SKY-TURN-2: every multiset of ``size`` die types the yard can give."""
    return tuple(
        TakeYard(tuple(t for t, n in zip(TYPES, c, strict=True) for _ in range(n))) for c in take_counts(yard, size)
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


def _kinds(active: tuple[Die, ...]) -> tuple[list[Die], list[int]]:
    """The distinct active dice in canonical order, and how many of each (``active`` is sorted)."""
    kinds: list[Die] = []
    limits: list[int] = []
    for die in active:
        if kinds and kinds[-1] == die:
            limits[-1] += 1
        else:
            kinds.append(die)
            limits.append(1)
    return kinds, limits


def can_place(column: Column, die_type: str, rules: Rules) -> bool:
    """SKY-BUILD-3: whether a floor of ``die_type`` (UF or PH, of the column's colour) may go on ``column``."""
    h = column.height
    if column.colour == "P":
        return die_type == "UF" and h == 1
    if column.colour == "B":
        if die_type == "UF":
            return h <= 2
        return rules.blue_min_height - 1 <= h <= 3
    if die_type == "UF":
        return h <= 4
    return 2 <= h <= 5


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


_ABANDONS = {die: Abandon(die) for die in itertools.product(TYPES, FACES)}


class SkylineEngine(Engine):
    """A Skyline position and its rules.

    ``turn`` is the seat whose turn it is (also during its rolls). ``rolling`` counts the dice per
    type being rolled (only in phase ``roll``). ``short`` counts, per height 1-6, completed
    buildings that stand without a tile because the finite supply ran out (SKY-COMP-5).
    """

    lists_cheaply = False  # a continue phase offers every multiset of the active dice as a reroll

    game: SkylineGame
    round: int
    turn: int
    phase: str
    yard: Counts
    district: Counts
    active: tuple[Die, ...]
    skylines: tuple[Skyline, ...]
    rolling: Counts
    trigger: bool
    short: tuple[int, ...]

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
        faces = self.game.rules.faces
        for die in outcome.dice:
            if not (
                type(die) is tuple
                and len(die) == 2
                and type(die[0]) is str
                and type(die[1]) is str
                and die[0] in faces
                and die[1] in faces[die[0]]
                and len(die[1]) == 1
            ):
                return False
        return type_counts([d[0] for d in outcome.dice]) == self.rolling

    def sample_outcome(self, rng: random.Random) -> Roll:
        """SKY-RAND-2, die by die: one ``rng.random()`` per die picks one of its six faces."""
        dice: tuple[Die, ...] = ()
        for kind, count, faces in zip(TYPES, self.rolling, self.game.rules.faces_key(), strict=True):
            if count:
                slots = face_slots(faces)
                shown = [0, 0, 0, 0]  # per face, in canonical order P B O X
                for _ in range(count):
                    shown[slots[int(rng.random() * 6)]] += 1
                singles = _SINGLE_DICE[kind]
                for face, n in enumerate(shown):
                    if n:
                        dice += singles[face] * n
        return canonical(Roll, dice)

    # --- legal moves: takes; builds, abandons, demolishes; rerolls, end ----------------------
    def takes(self) -> tuple[TakeYard, ...]:
        """SKY-TURN-2: the yard takes (the district take follows them)."""
        total = sum(self.yard)
        return yard_takes(self.yard, min(self.game.rules.yard_take, total)) if total else ()

    def build_targets(self, player: int) -> list[tuple[Die, int | None]]:
        """SKY-BUILD-1..3: the legal Builds as (die, target) pairs, in order: dice in canonical
        order, and for each a new building (ground floors) or the player's buildings in id order."""
        out: list[tuple[Die, int | None]] = []
        rules = self.game.rules
        buildings = self.skylines[player].buildings
        previous = None
        for die in self.active:
            if die == previous:
                continue
            previous = die
            kind, face = die
            if face == "X":
                continue
            if kind == "GF":
                out.append((die, None))
                continue
            for b in buildings:
                if type(b) is Column and b.colour == face and can_place(b, kind, rules):
                    out.append((die, b.id))
        return out

    def demolishable(self, player: int) -> list[int]:
        """SKY-DEMOLISH-1: the ids a Demolish may name (completed ones only if allowed)."""
        allowed = self.game.rules.demolish_completed_allowed
        return [b.id for b in self.skylines[player].buildings if allowed or type(b) is Column]

    def _shape(self, player: int) -> tuple[list[tuple[Die, int | None]], list[Die], list[int], list[int]]:
        """The resolutions' parts in order: builds, then (unless ``fallback_only`` forbids them,
        SKY-DEMOLISH-3) an Abandon per distinct active die and a Demolish per (die, id); also
        how many of each distinct die are active (for rerolls)."""
        builds = self.build_targets(player)
        kinds, limits = _kinds(self.active)
        if self.game.rules.fallback_only and builds:
            return builds, [], [], limits
        return builds, kinds, self.demolishable(player), limits

    def _reroll_count(self, limits: list[int]) -> int:
        """SKY-TURN-5: every non-empty multiset of the active dice (or, with reroll_all_remaining, all)."""
        return 1 if self.game.rules.reroll_all_remaining else math.prod(n + 1 for n in limits) - 1

    def count_moves(self, player: int) -> int:
        if self.phase == "take":
            return len(self.takes()) + (1 if any(self.district) else 0)
        builds, abandons, ids, limits = self._shape(player)
        head = len(builds) + len(abandons) * (1 + len(ids))
        return head if self.phase == "resolve" else head + self._reroll_count(limits) + 1

    def nth_move(self, player: int, index: int) -> Any:
        if self.phase == "take":
            takes = self.takes()
            return takes[index] if index < len(takes) else TAKE_DISTRICT
        builds, kinds, ids, limits = self._shape(player)
        if index < len(builds):
            return _build(*builds[index])
        index -= len(builds)
        if index < len(kinds):
            return _ABANDONS[kinds[index]]
        index -= len(kinds)
        if index < len(kinds) * len(ids):
            which, target = divmod(index, len(ids))
            return _demolish(kinds[which], ids[target])
        index -= len(kinds) * len(ids)
        if index == self._reroll_count(limits):
            return END_TURN
        if self.game.rules.reroll_all_remaining:
            return canonical(Reroll, self.active)
        # the order of rerolls(): mixed radix, each count from its limit down to 0
        distinct = _kinds(self.active)[0]
        picked: list[Die] = []
        for die, limit in reversed(list(zip(distinct, limits, strict=True))):
            index, digit = divmod(index, limit + 1)
            picked[:0] = [die] * (limit - digit)
        return canonical(Reroll, tuple(picked))

    def legal_moves(self, player: int) -> Sequence[Any]:
        if self.phase == "take":
            return (*self.takes(), TAKE_DISTRICT) if any(self.district) else self.takes()
        builds, kinds, ids, _ = self._shape(player)
        out: list[Any] = [_build(die, target) for die, target in builds]
        out.extend(_ABANDONS[die] for die in kinds)
        out.extend(_demolish(die, i) for die in kinds for i in ids)
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
        if phase not in ("resolve", "continue"):
            return False
        if kind is Build:
            return (
                _well_formed_die(move.die)
                and (move.target is None or type(move.target) is int)
                and ((move.die, move.target) in self.build_targets(player))
            )
        if kind is Abandon or kind is Demolish:
            if not _well_formed_die(move.die):
                return False
            _, kinds, ids, _ = self._shape(player)
            if kind is Abandon:
                return move.die in kinds
            return move.die in kinds and type(move.building) is int and move.building in ids
        if phase != "continue":
            return False
        if kind is EndTurn:
            return True
        if kind is not Reroll or not move.dice or not all(_well_formed_die(d) for d in move.dice):
            return False
        if self.game.rules.reroll_all_remaining:
            return bool(move.dice == self.active)
        rest = list(self.active)
        for die in move.dice:
            if die not in rest:
                return False
            rest.remove(die)
        return True

    # --- effects -------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is TakeYard:
            taken = type_counts(move.types)
            self.phase, self.yard, self.rolling = "roll", _sub(self.yard, taken), taken
            return
        if kind is TakeDistrict:
            yard = self.yard
            refill: Counts = (min(1, yard[0]), min(1, yard[1]), min(1, yard[2]))
            self.phase, self.yard, self.rolling, self.district = "roll", _sub(yard, refill), self.district, refill
            return
        if kind is Reroll:
            kept = list(self.active)
            for die in move.dice:
                kept.remove(die)
            self.phase, self.active, self.rolling = "roll", tuple(kept), type_counts([d[0] for d in move.dice])
            return
        if kind is EndTurn:
            self.yard = _add(self.yard, type_counts([d[0] for d in self.active]))
            self.active = ()
            self._next_turn()
            return
        # Build, Abandon, Demolish: the die leaves the active dice.
        index = self.active.index(move.die)
        self.active = self.active[:index] + self.active[index + 1 :]
        self.phase = "continue"
        if kind is Abandon:
            self.district = _plus(self.district, _TYPE_INDEX[move.die[0]])
        elif kind is Build:
            self._build(move, player)
        else:
            self._demolish(move, player)
        if not self.active:  # SKY-TURN-7
            self._next_turn()

    def _build(self, move: Build, player: int) -> None:
        kind, face = move.die
        skyline = self.skylines[player]
        if move.target is None:
            self.skylines = self._with(player, skyline.start(face, kind))
            return
        column = skyline.get(move.target)
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

    def _demolish(self, move: Demolish, player: int) -> None:
        skyline = self.skylines[player]
        target = skyline.get(move.building)
        yard = _plus(self.yard, _TYPE_INDEX[move.die[0]])
        if isinstance(target, Column):
            yard = _add(yard, type_counts(target.pieces))
        elif isinstance(target, Tile) and self.short[target.height - 1]:
            h = target.height - 1
            self.short = (
                *self.short[:h],
                self.short[h] - 1,
                *self.short[h + 1 :],
            )  # a building without a tile goes first
        self.yard = yard
        self.skylines = skylines = self._with(player, skyline.remove(move.building))
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
        self.phase, self.active, self.rolling = "resolve", _sorted_dice(self.active + outcome.dice), ZERO


def _well_formed_die(die: Any) -> bool:
    return type(die) is tuple and len(die) == 2 and type(die[0]) is str and type(die[1]) is str
