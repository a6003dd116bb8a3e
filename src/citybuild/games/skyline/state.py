"""Skyline positions: the frozen state, who acts, legality with reasons, and the effects of moves.

Dice are counted per type (GF, UF, PH) in the yard, the district and the hand being rolled;
active dice carry a face and are kept as a sorted tuple of ``(type, face)``. Each player's
buildings are a ``core.building.Skyline``.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core import chance
from citybuild.core.building import Column, Skyline, Tile
from citybuild.core.game import State
from citybuild.core.multiset import bounded_compositions
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Violation
from citybuild.games.skyline import scoring
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
    dice_text,
    die_rank,
    die_text,
)
from citybuild.games.skyline.rules import COLOUR_NAMES, FACES, MAX_HEIGHT, TYPE_NAMES, TYPES, Rules

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


def placement_problem(column: Column, die_type: str, rules: Rules) -> str | None:
    """SKY-BUILD-3: why a floor of ``die_type`` cannot go on ``column`` (None if it can)."""
    if can_place(column, die_type, rules):
        return None
    h = column.height
    if column.colour == "P":
        return f"a purple low-rise takes only an upper floor on its ground floor (height {h}, {TYPE_NAMES[die_type]})"
    if column.colour == "B":
        if die_type == "UF":
            return f"a blue mid-rise takes upper floors only below height 3; this one is {h} high"
        low = rules.blue_min_height - 1
        return f"a blue penthouse needs a building of height {low} to 3 below it, and this one is {h} high"
    if die_type == "UF":
        return f"an orange high-rise takes upper floors only below height 5; this one is {h} high"
    return f"an orange penthouse needs a building of height 2 to 5 below it (it would complete at {h + 1} < 3)"


def completes(column: Column, die_type: str) -> bool:
    """SKY-BUILD-3/5: whether adding this floor completes the building."""
    return die_type == "PH" or column.colour == "P"


@attrs.frozen(slots=True)
class SkylineState(State):
    """A Skyline position.

    ``turn`` is the seat whose turn it is (also during its rolls). ``rolling`` counts the dice per
    type being rolled (only in phase ``roll``). ``short`` counts, per height 1-6, completed
    buildings that stand without a tile because the finite supply ran out (SKY-COMP-5).
    """

    turn_rule = "SKY-TURN-1"
    end_rule = "SKY-END-1"
    chance_rule = "SKY-RAND-1"

    game: SkylineGame
    round: int
    turn: int
    phase: str
    yard: Counts
    district: Counts
    active: tuple[Die, ...]
    skylines: tuple[Skyline, ...]
    rolling: Counts = ZERO
    trigger: bool = False
    short: tuple[int, ...] = (0,) * MAX_HEIGHT

    # --- derived facts -------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def players(self) -> int:
        return self.game.players

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

    @property
    def must_resolve(self) -> bool:
        """SKY-TURN-4: a die must be resolved before Reroll or EndTurn."""
        return self.phase == "resolve"

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        if self.phase != "roll":
            return ()
        return roll_outcomes(self.rolling, self.rules.faces_key())

    def dice_counts(self) -> dict[str, Counts]:
        """Where the dice are, per zone, counted per type (for conservation checks)."""
        built = [0, 0, 0]
        for skyline in self.skylines:
            for b in skyline.buildings:
                if isinstance(b, Column):
                    for piece in b.pieces:
                        built[_TYPE_INDEX[piece]] += 1
        return {
            "yard": self.yard,
            "district": self.district,
            "rolling": self.rolling,
            "active": type_counts([d[0] for d in self.active]),
            "buildings": (built[0], built[1], built[2]),
        }

    def tile_supply(self) -> tuple[int, ...] | None:
        """SKY-COMP-5: tiles left per height 1-6 with a finite supply; None when unlimited."""
        rules = self.rules
        if not rules.finite_tile_supply:
            return None
        standing = [0] * MAX_HEIGHT
        for skyline in self.skylines:
            for b in skyline.buildings:
                if isinstance(b, Tile):
                    standing[b.height - 1] += 1
        return tuple(rules.tile_counts[h + 1] - standing[h] + self.short[h] for h in range(MAX_HEIGHT))

    # --- legal moves ---------------------------------------------------------------------
    def _builds(self, skyline: Skyline) -> list[Build]:
        """SKY-BUILD-1..3: every legal Build for the active dice."""
        return [Build(die, target) for die, target in self._build_targets(skyline)]

    def _build_targets(self, skyline: Skyline) -> list[tuple[Die, int | None]]:
        """The legal Builds as (die, target) pairs, in order (random play builds only the chosen one)."""
        out: list[tuple[Die, int | None]] = []
        rules = self.rules
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
            for b in skyline.buildings:
                if isinstance(b, Column) and b.colour == face and can_place(b, kind, rules):
                    out.append((die, b.id))
        return out

    def _resolutions(self, player: int) -> list[Any]:
        """Builds, then (unless ``fallback_only`` forbids them) Abandons and Demolishes (§4)."""
        rules = self.rules
        skyline = self.skylines[player]
        out: list[Any] = self._builds(skyline)
        if not rules.fallback_only or not out:
            kinds = _kinds(self.active)[0]
            out.extend(Abandon(d) for d in kinds)
            allowed = rules.demolish_completed_allowed
            ids = [b.id for b in skyline.buildings if allowed or isinstance(b, Column)]
            out.extend(Demolish(d, i) for d in kinds for i in ids)
        return out

    def _legal_moves(self, player: int) -> tuple[Any, ...]:
        rules = self.rules
        if self.phase == "take":
            total = sum(self.yard)
            out: list[Any] = list(yard_takes(self.yard, min(rules.yard_take, total))) if total else []
            if any(self.district):
                out.append(TakeDistrict())
            return tuple(out)
        out = self._resolutions(player)
        if self.phase == "continue":
            out.extend(rerolls(self.active, rules.reroll_all_remaining))
            out.append(EndTurn())
        return tuple(out)

    # --- random play without listing every move ------------------------------------------
    def random_move(self, rng: random.Random, player: int | None = None) -> Any:
        """The move ``legal_moves(player)[int(rng.random() * n)]`` would give, and at a roll an
        outcome with its exact probability, without listing the (possibly many thousand) rerolls
        and roll outcomes: each die is rolled on its own, one ``rng.random()`` per die, and only
        the chosen move is built. A ``player`` that is not a seat raises ``RulesError``."""
        if player is not None:
            self.require_player(player)
        phase = self.phase
        if phase == "roll":
            dice: tuple[Die, ...] = ()
            for kind, count, faces in zip(TYPES, self.rolling, self.rules.faces_key(), strict=True):
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
        if phase == "over" or (player is not None and player != self.turn):
            return super().random_move(rng, player)
        rules = self.rules
        if phase == "take":
            total = sum(self.yard)
            takes = yard_takes(self.yard, min(rules.yard_take, total)) if total else ()
            count = len(takes) + (1 if any(self.district) else 0)
            index = int(rng.random() * count)
            return takes[index] if index < len(takes) else TakeDistrict()
        skyline = self.skylines[self.turn]
        builds = self._build_targets(skyline)
        kinds, limits = _kinds(self.active)
        if rules.fallback_only and builds:
            ids: list[int] = []
            abandons = 0
        else:
            allowed = rules.demolish_completed_allowed
            ids = [b.id for b in skyline.buildings if allowed or isinstance(b, Column)]
            abandons = len(kinds)
        head = len(builds) + abandons + abandons * len(ids)
        if phase == "resolve":
            index = int(rng.random() * head)
        else:
            count = 1 if rules.reroll_all_remaining else math.prod(n + 1 for n in limits) - 1
            index = int(rng.random() * (head + count + 1))
            if index >= head:
                return self._reroll_or_end(index - head, count, kinds, limits)
        # the order of _resolutions: builds, abandons, then demolishes die by die
        if index < len(builds):
            return Build(*builds[index])
        index -= len(builds)
        if index < abandons:
            return Abandon(kinds[index])
        die, target = divmod(index - abandons, len(ids))
        return Demolish(kinds[die], ids[target])

    def _reroll_or_end(self, index: int, count: int, kinds: list[Die], limits: list[int]) -> Any:
        """The ``index``-th of the rerolls (in ``rerolls`` order), or EndTurn just after them."""
        if index == count:
            return EndTurn()
        if self.rules.reroll_all_remaining:
            return canonical(Reroll, self.active)
        # bounded_compositions order: mixed radix, each count from its limit down to 0.
        picked: list[Die] = []
        for die, limit in reversed(list(zip(kinds, limits, strict=True))):
            index, digit = divmod(index, limit + 1)
            picked[:0] = [die] * (limit - digit)
        return canonical(Reroll, tuple(picked))

    def playout(self, rng: random.Random) -> tuple[SkylineState, int]:
        """Random play to the end, exactly as the generic ``State.playout`` plays it (same moves,
        same final state and step count), on the mutable kernel of ``skyline.playout``."""
        from citybuild.games.skyline.playout import playout

        return playout(self, rng)

    def _not_an_outcome(self, move: Any) -> Violation:
        """A roll that cannot happen, described by the dice rolled rather than by listing every
        outcome (a big roll has hundreds of thousands)."""
        rolling = ", ".join(f"{n} {t}" for t, n in zip(TYPES, self.rolling, strict=True) if n)
        return Violation(
            "not-an-outcome",
            "SKY-RAND-2",
            f"{move} is not an outcome of the pending roll of {rolling}: name each rolled die once, "
            "with one of its faces",
        )

    def _is_outcome(self, outcome: Any) -> bool:
        """A roll of exactly the dice being rolled, each showing one of its faces (no listing)."""
        if self.phase != "roll" or not isinstance(outcome, Roll):
            return False
        faces = self.rules.faces
        for die in outcome.dice:
            if not (isinstance(die, tuple) and len(die) == 2 and die[0] in faces and die[1] in faces[die[0]]):
                return False
        return type_counts([d[0] for d in outcome.dice]) == self.rolling

    # --- legality with reasons -----------------------------------------------------------
    def _violations(self, move: Any, player: int) -> list[Violation]:
        if isinstance(move, TakeYard | TakeDistrict):
            return self._take_violations(move)
        if isinstance(move, Build | Abandon | Demolish):
            return self._resolve_violations(move, player)
        if isinstance(move, Reroll | EndTurn):
            return self._continue_violations(move)
        if isinstance(move, Roll):
            return [Violation("not-a-decision", "SKY-RAND-1", f"{move} is a chance outcome; no roll is pending now")]
        return [Violation("not-a-move", "SKY-TURN-8", f"{move!r} is not a Skyline move")]

    def _take_violations(self, move: TakeYard | TakeDistrict) -> list[Violation]:
        if self.phase != "take":
            return [Violation("wrong-phase", "SKY-TURN-2", f"{move} opens a turn; P{self.turn} has already taken dice")]
        if isinstance(move, TakeDistrict):
            if not any(self.district):
                return [Violation("district-empty", "SKY-TURN-2", "the district is empty; take from the yard")]
            return []
        unknown = [t for t in move.types if t not in TYPES]
        if unknown:
            return [Violation("no-such-type", "SKY-COMP-2", f"die types are GF, UF and PH, not {unknown[0]!r}")]
        total = sum(self.yard)
        if not total:
            return [Violation("yard-empty", "SKY-TURN-2", "the yard is empty; take the district")]
        out: list[Violation] = []
        size = min(self.rules.yard_take, total)
        if len(move.types) != size:
            out.append(
                Violation(
                    "wrong-take-size",
                    "SKY-TURN-2",
                    f"take exactly {size} dice from the yard (it holds {total}), not {len(move.types)}",
                )
            )
        for index, t in enumerate(TYPES):
            wanted = move.types.count(t)
            if wanted > self.yard[index]:
                out.append(
                    Violation(
                        "not-in-yard", "SKY-TURN-2", f"{move} takes {wanted} {t} but the yard holds {self.yard[index]}"
                    )
                )
        return out

    def _die_problem(self, move: Any, die: Any) -> list[Violation]:
        if self.phase == "take":
            return [Violation("wrong-phase", "SKY-TURN-2", f"{move} needs active dice; take dice first")]
        if die not in self.active:
            return [
                Violation(
                    "die-not-active",
                    "SKY-TURN-8",
                    f"{die_text(die)} is not among the active dice ({dice_text(self.active)})",
                )
            ]
        return []

    def _resolve_violations(self, move: Build | Abandon | Demolish, player: int) -> list[Violation]:
        out = self._id_problem(move) or self._die_problem(move, move.die)
        if out:
            return out
        skyline = self.skylines[player]
        if isinstance(move, Build):
            return self._build_violations(move, player, skyline)
        if self.rules.fallback_only and self._builds(skyline):
            return [Violation("fallback-only", "SKY-DEMOLISH-3", f"{move}: fallback_only, and a build is legal")]
        if isinstance(move, Abandon):
            return []
        if not skyline.buildings:
            return [Violation("no-buildings", "SKY-DEMOLISH-2", f"P{player} has no building to demolish")]
        target = skyline.get(move.building)
        if target is None:
            return [self._no_such_building(move.building, player, skyline, "SKY-DEMOLISH-1")]
        if isinstance(target, Tile) and not self.rules.demolish_completed_allowed:
            return [
                Violation(
                    "completed-protected",
                    "SKY-DEMOLISH-1",
                    f"building {move.building} is completed, and demolish_completed_allowed is False",
                )
            ]
        return []

    @staticmethod
    def _id_problem(move: Build | Abandon | Demolish) -> list[Violation]:
        """SKY-COMP-6: a building id is an int; a float or bool that equals one is refused."""
        if isinstance(move, Abandon):
            return []
        value = move.target if isinstance(move, Build) else move.building
        if type(value) is int or (value is None and isinstance(move, Build)):
            return []
        return [
            Violation(
                "bad-building-id",
                "SKY-COMP-6",
                f"{move}: a building id is a whole number (int), not {value!r} ({type(value).__name__})",
            )
        ]

    @staticmethod
    def _no_such_building(building: Any, player: int, skyline: Skyline, rule: str) -> Violation:
        ids = ", ".join(str(b.id) for b in skyline.buildings) or "none"
        return Violation("no-such-building", rule, f"P{player} has no building {building!r} (buildings: {ids})")

    def _build_violations(self, move: Build, player: int, skyline: Skyline) -> list[Violation]:
        kind, face = move.die
        if face == "X":
            return [Violation("blank-face", "SKY-BUILD-2", f"{die_text(move.die)} is blank and can never be built")]
        if kind == "GF":
            if move.target is not None:
                return [
                    Violation(
                        "ground-floor-on-building",
                        "SKY-BUILD-1",
                        f"a ground floor always starts a new building; it cannot go on building {move.target}",
                    )
                ]
            return []
        if move.target is None:
            return [
                Violation(
                    "floor-needs-building",
                    "SKY-BUILD-2",
                    f"{die_text(move.die)}: an {TYPE_NAMES[kind]} goes on an unfinished building; it never starts one",
                )
            ]
        target = skyline.get(move.target)
        if target is None:
            return [self._no_such_building(move.target, player, skyline, "SKY-BUILD-2")]
        if isinstance(target, Tile):
            return [
                Violation(
                    "building-completed",
                    "SKY-BUILD-4",
                    f"building {target.id} is completed (height {target.height}); no die goes on a completed building",
                )
            ]
        if target.colour != face:
            return [
                Violation(
                    "colour-mismatch",
                    "SKY-BUILD-4",
                    f"{die_text(move.die)} shows {COLOUR_NAMES.get(face, face)} but building {target.id} is "
                    f"{COLOUR_NAMES[target.colour]}",
                )
            ]
        problem = placement_problem(target, kind, self.rules)
        if problem:
            return [Violation("bad-height", "SKY-BUILD-3", f"{die_text(move.die)} on building {target.id}: {problem}")]
        return []

    def _continue_violations(self, move: Reroll | EndTurn) -> list[Violation]:
        if self.phase == "take":
            return [Violation("wrong-phase", "SKY-TURN-2", f"{move} is not allowed before taking dice; take first")]
        if self.phase == "resolve":
            return [
                Violation(
                    "must-resolve",
                    "SKY-TURN-4",
                    f"{move}: resolve at least one die of the roll first (build, abandon or demolish)",
                )
            ]
        if isinstance(move, EndTurn):
            return []
        if not move.dice:
            return [Violation("empty-reroll", "SKY-TURN-5", "a reroll names at least one active die")]
        rest = list(self.active)
        for die in move.dice:
            if die not in rest:
                return [
                    Violation(
                        "die-not-active",
                        "SKY-TURN-5",
                        f"{move} names {die_text(die)} more often than the active dice hold it "
                        f"({dice_text(self.active)})",
                    )
                ]
            rest.remove(die)
        if rest and self.rules.reroll_all_remaining:
            return [
                Violation(
                    "reroll-all",
                    "SKY-TURN-5",
                    f"with reroll_all_remaining, reroll every active die ({dice_text(self.active)})",
                )
            ]
        return []

    # --- effects -------------------------------------------------------------------------
    def _evolve(
        self,
        *,
        round: int | None = None,
        turn: int | None = None,
        phase: str | None = None,
        yard: Counts | None = None,
        district: Counts | None = None,
        active: tuple[Die, ...] | None = None,
        skylines: tuple[Skyline, ...] | None = None,
        rolling: Counts | None = None,
        trigger: bool | None = None,
        short: tuple[int, ...] | None = None,
    ) -> SkylineState:
        """A copy with some fields changed (None: unchanged; no field is ever None). A plain
        constructor call with keyword defaults, much faster than attrs.evolve or ``**changes``."""
        return SkylineState(
            self.game,
            self.round if round is None else round,
            self.turn if turn is None else turn,
            self.phase if phase is None else phase,
            self.yard if yard is None else yard,
            self.district if district is None else district,
            self.active if active is None else active,
            self.skylines if skylines is None else skylines,
            self.rolling if rolling is None else rolling,
            self.trigger if trigger is None else trigger,
            self.short if short is None else short,
        )

    def _apply(self, move: Any, player: int) -> SkylineState:
        if isinstance(move, TakeYard):
            taken = type_counts(move.types)
            return self._evolve(phase="roll", yard=_sub(self.yard, taken), rolling=taken)
        if isinstance(move, TakeDistrict):
            yard = self.yard
            refill: Counts = (min(1, yard[0]), min(1, yard[1]), min(1, yard[2]))
            return self._evolve(phase="roll", yard=_sub(yard, refill), district=refill, rolling=self.district)
        if isinstance(move, Reroll):
            kept = list(self.active)
            for die in move.dice:
                kept.remove(die)
            return self._evolve(phase="roll", active=tuple(kept), rolling=type_counts([d[0] for d in move.dice]))
        if isinstance(move, EndTurn):
            returned = type_counts([d[0] for d in self.active])
            return self._evolve(yard=_add(self.yard, returned), active=())._next_turn()
        # Build, Abandon, Demolish: the die leaves the active dice.
        index = self.active.index(move.die)
        active = self.active[:index] + self.active[index + 1 :]
        kind = _TYPE_INDEX[move.die[0]]
        if isinstance(move, Abandon):
            state = self._evolve(phase="continue", active=active, district=_plus(self.district, kind))
        elif isinstance(move, Build):
            state = self._apply_build(move, player, active)
        else:
            state = self._apply_demolish(move, player, active, kind)
        return state if state.active else state._next_turn()  # SKY-TURN-7

    def _apply_build(self, move: Build, player: int, active: tuple[Die, ...]) -> SkylineState:
        kind, face = move.die
        skyline = self.skylines[player]
        if move.target is None:
            skyline = skyline.start(face, kind)
            return self._evolve(phase="continue", active=active, skylines=self._with(player, skyline))
        column = skyline.get(move.target)
        assert isinstance(column, Column)
        column = column.add(kind)
        if not completes(column, kind):
            return self._evolve(phase="continue", active=active, skylines=self._with(player, skyline.put(column)))
        # SKY-BUILD-5: the column becomes a tile; all its dice go back to the yard.
        height = column.height
        skyline = skyline.put(Tile(column.id, column.colour, height))
        yard = _add(self.yard, type_counts(column.pieces))
        short = self.short
        supply = self.tile_supply()
        if supply is not None and supply[height - 1] <= 0:
            short = (*short[: height - 1], short[height - 1] + 1, *short[height:])
        trigger = self.trigger or (height == MAX_HEIGHT and self.rules.six_floor_ends_game)
        skylines = self._with(player, skyline)
        return self._evolve(phase="continue", active=active, skylines=skylines, yard=yard, short=short, trigger=trigger)

    def _apply_demolish(self, move: Demolish, player: int, active: tuple[Die, ...], kind: int) -> SkylineState:
        skyline = self.skylines[player]
        target = skyline.get(move.building)
        yard = _plus(self.yard, kind)
        short = self.short
        trigger = self.trigger
        if isinstance(target, Column):
            yard = _add(yard, type_counts(target.pieces))
        elif isinstance(target, Tile) and short[target.height - 1]:
            h = target.height - 1
            short = (*short[:h], short[h] - 1, *short[h + 1 :])  # a building without a tile goes first
        skylines = self._with(player, skyline.remove(move.building))
        if trigger and not self.rules.end_trigger_latches:  # SKY-END-2: the trigger needs a six-floor tile
            trigger = any(isinstance(b, Tile) and b.height == MAX_HEIGHT for s in skylines for b in s.buildings)
        return self._evolve(phase="continue", active=active, skylines=skylines, yard=yard, short=short, trigger=trigger)

    def _with(self, player: int, skyline: Skyline) -> tuple[Skyline, ...]:
        s = self.skylines
        return (*s[:player], skyline, *s[player + 1 :])

    def _next_turn(self) -> SkylineState:
        """SKY-TURN-1, SKY-END-1/2: the next seat, the next round, or the end of the game."""
        if self.turn + 1 < self.players:
            return self._evolve(phase="take", turn=self.turn + 1)
        if self.trigger or self.round >= self.rules.rounds:
            return self._evolve(phase="over")
        return self._evolve(phase="take", turn=0, round=self.round + 1)

    def _apply_outcome(self, outcome: Any) -> SkylineState:
        return self._evolve(phase="resolve", active=_sorted_dice(self.active + outcome.dice), rolling=ZERO)

    # --- scores, views, text -------------------------------------------------------------
    def scores(self) -> ScoreSheet:
        """Completed buildings so far; once the game is over, the final score (SKY-SCORE-1..4)."""
        if self.is_over:
            return self.final_scores()
        return ScoreSheet(self.players, tuple(scoring.items(self.skylines, final=False)))

    def final_scores(self) -> ScoreSheet:
        """The score if the game ended now: lone purple ground floors become height-1 tiles,
        other unfinished buildings score 0, winners after the tie-break (SKY-SCORE-1..4)."""
        items = tuple(scoring.items(self.skylines, final=True))
        sheet = ScoreSheet(self.players, items)
        winners, tiebreak = scoring.break_ties(sheet.totals, self.skylines, self.rules)
        return attrs.evolve(sheet, winners=winners, tiebreak=tiebreak)

    def validate(self) -> None:
        from citybuild.games.skyline.invariants import validate

        validate(self)

    def view(self, player: int) -> Any:
        from citybuild.games.skyline.view import view_of

        return view_of(self, player)

    def notation(self) -> str:
        from citybuild.games.skyline.notation import state_text

        return state_text(self)
