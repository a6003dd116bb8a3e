"""Skyline's rules, written once: who acts, legal moves in canonical order (counted and indexed
without listing: ``offers``), their effects, rolls (``rolls``) and the end.

The engine changes its own arrays in place (``table``: the position and what moves do to it),
as python-chess's ``Board`` does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import trunc
from typing import TYPE_CHECKING, Any

from citybuild.core.engine import Engine
from citybuild.games.skyline import latest
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
    head_parts,
    kept_shape,
    locate,
    offers,
    shape_fields,
    take_counts,
    yard_takes,
)
from citybuild.games.skyline.rolls import active_dice, rerolls, roll_into, roll_outcomes
from citybuild.games.skyline.table import SkylineTable

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


class SkylineEngine(SkylineTable, Engine):
    """A Skyline position (in the arrays of ``SkylineTable``) and its rules."""

    answers_from_fields = True  # who acts, chance and the end read only ``phase`` and ``turn``

    lists_cheaply = False  # a continue phase offers every multiset of the active dice as a reroll

    game: SkylineGame

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
        rolled = [0, 0, 0]
        for die in outcome.dice:
            if type(die) is not tuple or die not in shown:
                return False
            rolled[TYPE_INDEX[die[0]]] += 1
        r = self._rolling
        return rolled[0] == r[0] and rolled[1] == r[1] and rolled[2] == r[2]

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
            offer = self._offers[player] = offers(self._built[player], self.game.offer_rules)
        return offer

    def shape(self, player: int) -> Shape:
        """The shape of ``player``'s moves in a resolve or continue phase: a listing, a count, an
        index and a legality test share it. Its targets are building positions (``building_id``)."""
        known = self._shape_of
        if known is not None and known[0] == player:
            return known[1]
        found = kept_shape(tuple(self._act), self._slots, self.offers(player))
        self._shape_of = (player, found)
        return found

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
            for slot, kept in zip(s.kinds, a, strict=True):
                picked.extend([SLOT_DICE[slot]] * (s.counts[slot] - kept))
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
        rest = list(self._act)
        for die in move.dice:  # a sub-multiset of the active dice
            if not well_formed_die(die) or die not in SLOT or not rest[SLOT[die]]:
                return False
            rest[SLOT[die]] -= 1
        return True

    def freeze_spent(self) -> SkylineState:
        """``freeze()``, and this engine, which ``State.play`` no longer moves on, kept to answer
        the new state's questions (``latest``)."""
        state = self.freeze()
        latest.keep(state, self)
        return state

    # --- effects -------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        self.own()
        self._shape_of = None
        kind = type(move)
        if kind is TakeYard:
            types = move.types
            self.take((types.count("GF"), types.count("UF"), types.count("PH")))
        elif kind is TakeDistrict:
            self.take_district()
        elif kind is Reroll:
            act, rolling = self._act, self._rolling
            for die in move.dice:
                act[SLOT[die]] -= 1
                rolling[TYPE_INDEX[die[0]]] += 1
            self.phase = "roll"  # SKY-TURN-5: the others stay active
        elif kind is EndTurn:
            self.end_turn()
        elif kind is Build:
            target = None if move.target is None else self._position(player, move.target)
            self.resolve(player, BUILD, SLOT[move.die], target)
        elif kind is Abandon:
            self.resolve(player, ABANDON, SLOT[move.die], None)
        else:
            self.resolve(player, DEMOLISH, SLOT[move.die], self._position(player, move.building))

    def apply_outcome(self, outcome: Any) -> None:
        """SKY-TURN-3: the rolled dice join the active dice, to be resolved."""
        self.own()
        self._shape_of = None
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
        self.own()
        self._shape_of = None
        rnd = rng.random
        act, rolling, faces, known, slots = self._act, self._rolling, self._faces, self._offers, self._slots
        yard_take = self.game.rules.yard_take
        steps = 0
        while steps != limit:
            phase = self.phase
            if phase == "resolve" or phase == "continue":
                player = self.turn
                s = shape_fields(act, slots, known[player] or self.offers(player))
                kinds, _, _, _, _, _, head, rerolls = s
                count = head if phase == "resolve" else head + rerolls + 1
                what, a, b = locate(s, trunc(rnd() * count))
                if what is REROLL:
                    for i, slot in enumerate(kinds):
                        kept = a[i]
                        rolling[SLOT_TYPE[slot]] += act[slot] - kept
                        act[slot] = kept
                    self.phase = "roll"  # SKY-TURN-5: the others stay active
                elif what is END:
                    self.end_turn()
                else:
                    self.resolve(player, what, a, b)
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
                index = trunc(rnd() * count)
                if index < len(takes):
                    self.take(takes[index])
                else:
                    self.take_district()
            else:
                break
            steps += 1
        return steps
