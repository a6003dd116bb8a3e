"""Skyline's rules, written once: who acts, legal moves in canonical order (counted and indexed
without listing: ``offers``), their effects, rolls (``rolls``) and the end.

The engine changes its own arrays in place, as python-chess's ``Board`` does: dice are counted
per type (GF, UF, PH) in the yard, the district and the hand being rolled, and the active dice
per slot (``moves.SLOT_DICE``); each player's buildings are a list. ``freeze`` turns them into
the immutable fields of a ``SkylineState`` (``SkylinePosition``), and ``of`` builds an engine
from such fields, so a state is never changed and holds no cache.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from citybuild.core.engine import Engine
from citybuild.games.skyline.building import Building, Column, Skyline, Tile
from citybuild.games.skyline.moves import (
    SLOT,
    SLOT_DICE,
    SLOT_TYPE,
    TYPE_INDEX,
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
from citybuild.games.skyline.offers import (
    ABANDON,
    BUILD,
    DEMOLISH,
    END,
    REROLL,
    Offers,
    Part,
    Shape,
    completes,
    head_parts,
    locate,
    offers,
    shape,
    take_counts,
    yard_takes,
)
from citybuild.games.skyline.position import Counts, SkylinePosition
from citybuild.games.skyline.rolls import active_dice, face_slots, rerolls, roll_into, roll_outcomes, slot_counts
from citybuild.games.skyline.rules import MAX_HEIGHT, Rules

if TYPE_CHECKING:
    from citybuild.games.skyline.game import SkylineGame
    from citybuild.games.skyline.state import SkylineState

END_TURN = EndTurn()
TAKE_DISTRICT = TakeDistrict()
ABANDONS = tuple(Abandon(die) for die in SLOT_DICE)
"""Per slot, the Abandon of that die (moves are values: one of each is enough)."""


@lru_cache(maxsize=4096)
def build_move(slot: int, target: int | None) -> Build:
    return Build(SLOT_DICE[slot], target)


@lru_cache(maxsize=4096)
def demolish_move(slot: int, building: int) -> Demolish:
    return Demolish(SLOT_DICE[slot], building)


def well_formed_die(die: Any) -> bool:
    """A (type, face) pair of strings, so that it can be looked up (is_legal never raises)."""
    return type(die) is tuple and len(die) == 2 and type(die[0]) is str and type(die[1]) is str


class SkylineEngine(Engine):
    """A Skyline position, in mutable arrays, and its rules.

    ``game``, ``round``, ``turn``, ``phase`` and ``trigger`` are the position's fields as they
    are; the other fields are read through properties of the same names, built from the arrays.
    """

    answers_from_fields = True  # who acts, chance and the end read only ``phase`` and ``turn``

    lists_cheaply = False  # a continue phase offers every multiset of the active dice as a reroll

    game: SkylineGame
    round: int
    turn: int
    phase: str
    trigger: bool

    # --- snapshots ---------------------------------------------------------------------------
    @classmethod
    def of(cls, position: SkylinePosition) -> SkylineEngine:
        """A new engine at ``position`` (a state's fields), with arrays of its own."""
        e = object.__new__(cls)
        e.game = position.game
        e.round = position.round
        e.turn = position.turn
        e.phase = position.phase
        e.trigger = position.trigger
        e._yard = list(position.yard)
        e._district = list(position.district)
        e._rolling = list(position.rolling)
        e._act = list(slot_counts(position.active))
        e._short = list(position.short)
        skylines = position.skylines
        e._built = [list(s.buildings) for s in skylines]
        e._next_id = [s.next_id for s in skylines]
        e._frozen = list(skylines)  # per player, the Skyline value while the buildings are unchanged
        e._offers = [None] * len(skylines)  # per player, what the buildings offer (worked out when asked)
        e._faces = faces = face_slots(position.game.rules.faces_key())
        e._slots = sorted({slot for sides in faces for slot in sides} | {s for s, n in enumerate(e._act) if n})
        return e

    _yard: list[int]
    _district: list[int]
    _rolling: list[int]
    _act: list[int]
    """The active dice, counted per slot."""
    _short: list[int]
    _built: list[list[Building]]
    _next_id: list[int]
    _frozen: list[Skyline | None]
    _offers: list[Offers | None]
    _faces: tuple[tuple[int, ...], ...]
    """Per die type, the slot each of its six faces shows (SKY-COMP-4)."""
    _slots: list[int]
    """In canonical order, every slot an active die may be in: the faces the dice show, and
    those of the dice active when the engine was made."""

    def copy(self) -> SkylineEngine:
        """An independent engine at the same position: its own arrays (the values in them are immutable)."""
        new = object.__new__(SkylineEngine)
        d = dict(self.__dict__)
        d["_yard"] = self._yard[:]
        d["_district"] = self._district[:]
        d["_rolling"] = self._rolling[:]
        d["_act"] = self._act[:]
        d["_short"] = self._short[:]
        d["_built"] = [b[:] for b in self._built]
        d["_next_id"] = self._next_id[:]
        d["_frozen"] = self._frozen[:]
        d["_offers"] = self._offers[:]
        new.__dict__ = d
        return new

    def freeze(self) -> SkylineState:
        """This position as a new frozen ``SkylineState`` (fields in declaration order)."""
        state = object.__new__(self.snapshot)
        fields = {
            "game": self.game,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "yard": self.yard,
            "district": self.district,
            "active": self.active,
            "skylines": self.skylines,
            "rolling": self.rolling,
            "trigger": self.trigger,
            "short": tuple(self._short),
        }
        object.__setattr__(state, "__dict__", fields)
        return cast("SkylineState", state)

    # --- the fields, as immutable values -------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def yard(self) -> Counts:
        y = self._yard
        return (y[0], y[1], y[2])

    @property
    def district(self) -> Counts:
        d = self._district
        return (d[0], d[1], d[2])

    @property
    def rolling(self) -> Counts:
        r = self._rolling
        return (r[0], r[1], r[2])

    @property
    def active(self) -> tuple[Die, ...]:
        return active_dice(tuple(self._act))

    @property
    def short(self) -> tuple[int, ...]:
        return tuple(self._short)

    @property
    def skylines(self) -> tuple[Skyline, ...]:
        frozen = self._frozen
        for player, skyline in enumerate(frozen):
            if skyline is None:
                frozen[player] = Skyline(tuple(self._built[player]), self._next_id[player])
        return tuple(frozen)  # type: ignore[arg-type]

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
        if not all(type(d) is tuple and d in shown for d in dice):
            return False
        rolled = [0, 0, 0]
        for die in dice:
            rolled[TYPE_INDEX[die[0]]] += 1
        return rolled == self._rolling

    def sample_outcome(self, rng: random.Random) -> Roll:
        """The roll ``random_step`` would draw: one ``rng.random()`` per die (``rolls.roll_into``)."""
        shown = [0] * len(SLOT_DICE)
        roll_into(shown, self._faces, self._rolling, rng.random)
        return canonical(Roll, active_dice(tuple(shown)))

    # --- legal moves: takes; builds, abandons, demolishes; rerolls, end ----------------------
    def takes(self) -> tuple[TakeYard, ...]:
        """SKY-TURN-2: the yard takes (the district take follows them)."""
        return yard_takes(self._yard, self.game.rules.yard_take)

    def offers(self, player: int) -> Offers:
        """What ``player``'s skyline offers (worked out once per change of its buildings)."""
        offer = self._offers[player]
        if offer is None:
            offer = self._offers[player] = offers(self._built[player], self.game.rules)
        return offer

    def shape(self, player: int) -> Shape:
        """The shape of ``player``'s moves in a resolve or continue phase: a listing, a count, an
        index and a legality test share it. Its targets are building positions (``building_id``)."""
        return shape(self._act, self._slots, self.offers(player))

    def building_id(self, player: int, position: int | None) -> int | None:
        """The id of the building at ``position`` in ``player``'s skyline (None for a new one)."""
        return None if position is None else self._built[player][position].id

    def _position(self, player: int, building: Any) -> int | None:
        """Where the building with id ``building`` stands in ``player``'s skyline (None if nowhere)."""
        for position, b in enumerate(self._built[player]):
            if b.id == building:
                return position
        return None

    def build_targets(self, player: int) -> list[tuple[Die, int | None]]:
        """SKY-BUILD-1..3: the legal Builds as (die, target) pairs, in canonical order."""
        return [
            (SLOT_DICE[slot], self.building_id(player, target))
            for what, slot, target in head_parts(self.shape(player))
            if what is BUILD
        ]

    def count_moves(self, player: int) -> int:
        if self.phase == "take":
            d = self._district
            return len(take_counts(self._yard, self.game.rules.yard_take)) + (1 if d[0] or d[1] or d[2] else 0)
        s = self.shape(player)
        return s.head if self.phase == "resolve" else s.head + s.rerolls + 1

    def _move(self, player: int, s: Shape, part: Part) -> Any:
        """The move a part of ``s`` stands for."""
        what, a, b = part
        if what is BUILD:
            return build_move(a, self.building_id(player, b))
        if what is ABANDON:
            return ABANDONS[a]
        if what is END:
            return END_TURN
        if what is REROLL:
            picked: list[Die] = []
            for slot, limit, kept in zip(s.kinds, s.limits, a, strict=True):
                picked.extend([SLOT_DICE[slot]] * (limit - kept))
            return canonical(Reroll, tuple(picked))
        return demolish_move(a, self._built[player][b].id)

    def nth_move(self, player: int, index: int) -> Any:
        if self.phase == "take":
            takes = self.takes()
            return takes[index] if index < len(takes) else TAKE_DISTRICT
        s = self.shape(player)
        return self._move(player, s, locate(s, index))

    def legal_moves(self, player: int) -> Sequence[Any]:
        if self.phase == "take":
            return (*self.takes(), TAKE_DISTRICT) if any(self._district) else self.takes()
        s = self.shape(player)
        out: list[Any] = [self._move(player, s, part) for part in head_parts(s)]
        if self.phase == "continue":
            out.extend(rerolls(self.active, self.game.rules.reroll_all_remaining))
            out.append(END_TURN)
        return tuple(out)

    def is_legal(self, move: Any, player: int) -> bool:
        """Membership in the part of the legal moves of the move's kind, without listing rerolls."""
        kind = type(move)
        phase = self.phase
        if kind is TakeYard or kind is TakeDistrict:
            return phase == "take" and (move in self.takes() if kind is TakeYard else any(self._district))
        if phase != "resolve" and phase != "continue":
            return False
        if kind is Build or kind is Abandon or kind is Demolish:
            die = move.die
            if not well_formed_die(die) or die not in SLOT:
                return False
            slot = SLOT[die]
            s = self.shape(player)
            if kind is Build:
                target = move.target
                if target is None:
                    return slot in s.kinds and None in s.targets[slot]
                position = self._position(player, target) if type(target) is int else None
                return position is not None and slot in s.kinds and position in s.targets[slot]
            if kind is Abandon:
                return slot in s.abandons
            building = move.building
            position = self._position(player, building) if type(building) is int else None
            return slot in s.abandons and position is not None and position in s.razable
        if phase != "continue":
            return False
        if kind is EndTurn:
            return True
        if kind is not Reroll or type(move.dice) is not tuple or not move.dice:
            return False
        if self.game.rules.reroll_all_remaining:
            return bool(move.dice == self.active)
        rest = self._act[:]
        for die in move.dice:  # a sub-multiset of the active dice
            if not well_formed_die(die) or die not in SLOT or not rest[SLOT[die]]:
                return False
            rest[SLOT[die]] -= 1
        return True

    # --- effects -------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is TakeYard:
            types = move.types
            self._take((types.count("GF"), types.count("UF"), types.count("PH")))
        elif kind is TakeDistrict:
            self._take_district()
        elif kind is Reroll:
            act, rolling = self._act, self._rolling
            for die in move.dice:
                act[SLOT[die]] -= 1
                rolling[TYPE_INDEX[die[0]]] += 1
            self.phase = "roll"  # SKY-TURN-5: the others stay active
        elif kind is EndTurn:
            self._end_turn()
        elif kind is Build:
            target = None if move.target is None else self._position(player, move.target)
            self._resolve(player, BUILD, SLOT[move.die], target)
        elif kind is Abandon:
            self._resolve(player, ABANDON, SLOT[move.die], None)
        else:
            self._resolve(player, DEMOLISH, SLOT[move.die], self._position(player, move.building))

    def apply_outcome(self, outcome: Any) -> None:
        """SKY-TURN-3: the rolled dice join the active dice, to be resolved."""
        act = self._act
        for die in outcome.dice:
            act[SLOT[die]] += 1
        rolling = self._rolling
        rolling[0] = rolling[1] = rolling[2] = 0
        self.phase = "resolve"

    def random_step(self, rng: random.Random) -> Any:
        """One step of random play in place (``run``); returns None."""
        if not self.run(rng, 1):
            return super().random_step(rng)  # nothing to take, or over: refused as the engine refuses it
        return None

    def playout(self, rng: random.Random) -> int:
        steps = self.run(rng, -1)
        if self.phase != "over":
            super().random_step(rng)  # nothing to take: refused as the engine refuses it
        return steps

    def run(self, rng: random.Random, limit: int) -> int:
        """Random play in place for ``limit`` steps at most (all the way with -1), drawn as
        ``random_move`` and ``sample_outcome`` draw (one ``rng.random()`` per die rolled, one per
        decision) but applied by index, without making the moves' values; it stops early at the
        end or where no move can be drawn. The number of steps taken."""
        rnd = rng.random
        act, rolling, faces, known, slots = self._act, self._rolling, self._faces, self._offers, self._slots
        yard_take = self.game.rules.yard_take
        steps = 0
        while steps != limit:
            phase = self.phase
            if phase == "resolve" or phase == "continue":
                player = self.turn
                s = shape(act, slots, known[player] or self.offers(player))
                count = s.head if phase == "resolve" else s.head + s.rerolls + 1
                what, a, b = locate(s, int(rnd() * count))
                if what is REROLL:
                    kinds = s.kinds
                    for i in range(len(kinds)):
                        slot = kinds[i]
                        rolling[SLOT_TYPE[slot]] += act[slot] - a[i]
                        act[slot] = a[i]
                    self.phase = "roll"  # SKY-TURN-5: the others stay active
                elif what is END:
                    self._end_turn()
                else:
                    self._resolve(player, what, a, b)
            elif phase == "roll":
                roll_into(act, faces, rolling, rnd)
                rolling[0] = rolling[1] = rolling[2] = 0  # SKY-TURN-3: the dice rolled are active now
                self.phase = "resolve"
            elif phase == "take":
                takes = take_counts(self._yard, yard_take)
                d = self._district
                count = len(takes) + (1 if d[0] or d[1] or d[2] else 0)
                if not count:
                    break
                index = int(rnd() * count)
                if index < len(takes):
                    self._take(takes[index])
                else:
                    self._take_district()
            else:
                break
            steps += 1
        return steps

    def _take(self, taken: Counts) -> None:
        """SKY-TURN-2: take dice from the yard and roll them."""
        yard, rolling = self._yard, self._rolling
        for t in 0, 1, 2:
            yard[t] -= taken[t]
            rolling[t] = taken[t]
        self.phase = "roll"

    def _take_district(self) -> None:
        """SKY-TURN-2: take the district and roll it; one die of each type refills it from the yard."""
        yard, rolling, district = self._yard, self._rolling, self._district
        for t in 0, 1, 2:
            refill = 1 if yard[t] else 0
            yard[t] -= refill
            rolling[t] = district[t]
            district[t] = refill
        self.phase = "roll"

    def _end_turn(self) -> None:
        """SKY-TURN-6: the active dice go back to the yard and the turn ends."""
        act, yard = self._act, self._yard
        for slot, n in enumerate(act):
            if n:
                yard[SLOT_TYPE[slot]] += n
                act[slot] = 0
        self._next_turn()

    def _resolve(self, player: int, what: str, slot: int, target: int | None) -> None:
        """SKY-TURN-3: one active die is built, abandoned or spent on a demolition (``target``: a
        building's position)."""
        act = self._act
        act[slot] -= 1
        self.phase = "continue"
        if what is BUILD:
            self._build(player, slot, target)
        elif what is ABANDON:
            self._district[SLOT_TYPE[slot]] += 1  # SKY-ABANDON-1
        else:
            assert target is not None
            self._demolish(player, slot, target)
        if not any(act):  # SKY-TURN-7
            self._next_turn()

    def _build(self, player: int, slot: int, target: int | None) -> None:
        """SKY-BUILD-1..5: start a building (``target`` None) or add a floor to the one at position
        ``target``; a completed building becomes a tile."""
        kind, face = SLOT_DICE[slot]
        buildings = self._built[player]
        self._offers[player] = self._frozen[player] = None  # worked out again when asked
        if target is None:
            new_id = self._next_id[player]
            buildings.append(Column(new_id, face, (kind,)))
            self._next_id[player] = new_id + 1
            return
        where = target
        column = buildings[where]
        assert isinstance(column, Column)
        column = column.add(kind)
        if not completes(column.colour, kind):
            buildings[where] = column
            return
        # SKY-BUILD-5: the column becomes a tile; all its dice go back to the yard.
        height = column.height
        supply = self.tile_supply()
        if supply is not None and supply[height - 1] <= 0:
            self._short[height - 1] += 1
        buildings[where] = Tile(column.id, column.colour, height)
        yard = self._yard
        for piece in column.pieces:
            yard[TYPE_INDEX[piece]] += 1
        if height == MAX_HEIGHT and self.game.rules.six_floor_ends_game:
            self.trigger = True

    def _demolish(self, player: int, slot: int, building: int) -> None:
        """SKY-DEMOLISH-1/2: the die and the dice of the building at position ``building`` go to the yard."""
        buildings = self._built[player]
        self._offers[player] = self._frozen[player] = None  # worked out again when asked
        yard = self._yard
        yard[SLOT_TYPE[slot]] += 1
        target = buildings.pop(building)
        if type(target) is Column:
            for piece in target.pieces:
                yard[TYPE_INDEX[piece]] += 1
        elif type(target) is Tile and self._short[target.height - 1]:
            self._short[target.height - 1] -= 1  # a tileless one goes first
        if self.trigger and not self.game.rules.end_trigger_latches:  # SKY-END-2: needs a six-floor tile
            self.trigger = any(type(b) is Tile and b.height == MAX_HEIGHT for bs in self._built for b in bs)

    def tile_supply(self) -> tuple[int, ...] | None:
        """SKY-COMP-5: tiles left per height 1-6 with a finite supply; None when unlimited."""
        rules = self.game.rules
        if not rules.finite_tile_supply:
            return None
        standing = [0] * MAX_HEIGHT
        for buildings in self._built:
            for b in buildings:
                if type(b) is Tile:
                    standing[b.height - 1] += 1
        short = self._short
        return tuple(rules.tile_counts[h + 1] - standing[h] + short[h] for h in range(MAX_HEIGHT))

    def _next_turn(self) -> None:
        """SKY-TURN-1, SKY-END-1/2: the next seat, the next round, or the end of the game."""
        if self.turn + 1 < self.game.players:
            self.phase, self.turn = "take", self.turn + 1
        elif self.trigger or self.round >= self.game.rules.rounds:
            self.phase = "over"
        else:
            self.phase, self.turn, self.round = "take", 0, self.round + 1
