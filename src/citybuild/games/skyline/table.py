"""A Skyline position in mutable arrays, and what moves do to them (the effects of SKY-TURN-2..7,
SKY-BUILD-1..5, SKY-ABANDON-1, SKY-DEMOLISH-1/2, SKY-END-1/2), changed in place as
python-chess's ``Board`` is changed.

Dice are counted per type (GF, UF, PH) in the yard, the district and the hand being rolled, and
the active dice per slot (``moves.SLOT_DICE``); each player's buildings are a list, and a move
names a building by its position there. ``freeze`` turns the arrays into the immutable fields of
a ``SkylineState`` (``SkylinePosition``) and ``of`` builds arrays from such fields, so a state
is never changed and holds no cache. ``engine.SkylineEngine`` adds the rules of who moves and
what may be played.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Self, cast

from citybuild.games.skyline.building import Building, Column, Skyline, Tile
from citybuild.games.skyline.moves import SLOT_DICE, SLOT_TYPE, TYPE_INDEX, Die
from citybuild.games.skyline.offers import ABANDON, BUILD, Offers, Shape, completes
from citybuild.games.skyline.position import Counts, SkylinePosition
from citybuild.games.skyline.rolls import active_dice, slot_counts
from citybuild.games.skyline.rules import MAX_HEIGHT, Rules

if TYPE_CHECKING:
    from citybuild.core.game import State
    from citybuild.games.skyline.game import SkylineGame
    from citybuild.games.skyline.state import SkylineState


ALL_SLOTS = tuple(range(len(SLOT_DICE)))
_SHALLOW_COPY = operator.itemgetter(slice(None))
"""``x[:]``: a list's copy, a tuple itself."""


def tile_supply(
    rules: Rules, built: Sequence[Sequence[Building]], short: Sequence[int]
) -> tuple[int, ...] | None:
    """SKY-COMP-5: tiles left per height 1-6 with a finite supply (the supply less the tiles
    standing, plus the buildings completed without one); None when unlimited."""
    if not rules.finite_tile_supply:
        return None
    standing = [0] * MAX_HEIGHT
    for buildings in built:
        for b in buildings:
            if type(b) is Tile:
                standing[b.height - 1] += 1
    return tuple(rules.tile_counts[h + 1] - standing[h] + short[h] for h in range(MAX_HEIGHT))


class SkylineTable:
    """A Skyline position in arrays. ``game``, ``round``, ``turn``, ``phase`` and ``trigger``
    are the position's fields as they are; the other fields are read through properties of the
    same names, built from the arrays.

    A new table reads its position's tuples where they are, and makes lists of its own (``own``)
    only when a move is about to change them: a state asked a question, or a move checked and
    refused, copies nothing. Whatever changes the arrays (the effects below, the engine's
    ``apply``, ``apply_outcome`` and ``run``) calls ``own`` first."""

    snapshot: ClassVar[type[State]]
    game: SkylineGame
    round: int
    turn: int
    phase: str
    trigger: bool

    # --- snapshots ---------------------------------------------------------------------------
    @classmethod
    def of(cls, position: SkylinePosition) -> Self:
        """A new engine at ``position`` (a state's fields), sharing its tuples until it changes."""
        e = object.__new__(cls)
        e.game = game = position.game
        e.round = position.round
        e.turn = position.turn
        e.phase = position.phase
        e.trigger = position.trigger
        # Until ``own``, the arrays are the position's tuples, only read (typed as the lists they become).
        e._yard = position.yard  # type: ignore[assignment]
        e._district = position.district  # type: ignore[assignment]
        e._rolling = position.rolling  # type: ignore[assignment]
        active = position.active
        e._act = slot_counts(active)  # type: ignore[assignment]
        e._short = position.short  # type: ignore[assignment]
        e._skylines = skylines = position.skylines
        e._built = [s.buildings for s in skylines]
        e._offers = [None] * len(skylines)  # per player, what the buildings offer (worked out when asked)
        e._faces = game.face_slots
        e._slots = game.shown_slots if game.shown_dice.issuperset(active) else ALL_SLOTS
        e._owned = False
        e._shape_of = None
        return e

    _yard: list[int]
    _district: list[int]
    _rolling: list[int]
    _act: list[int]
    """The active dice, counted per slot."""
    _short: list[int]
    _built: list[Sequence[Building]]
    """Per player, the buildings: the position's tuple until they change, then a list (``buildings``)."""
    _skylines: tuple[Skyline, ...]
    """The position's skylines, as they were when the engine was made."""
    _next_id: list[int]
    """Per player, the next building's id (made by ``own``)."""
    _frozen: list[Skyline | None]
    """Per player, the Skyline value while its buildings are unchanged (made by ``own``)."""
    _offers: list[Offers | None]
    _faces: tuple[tuple[int, ...], ...]
    """Per die type, the slot each of its six faces shows (SKY-COMP-4)."""
    _slots: tuple[int, ...]
    """In canonical order, every slot an active die may be in: the faces the dice show (and every
    slot, for a position whose active dice show others)."""
    _shape_of: tuple[int, Shape] | None
    """The shape of a player's moves (``SkylineEngine.shape``) while the arrays stay as they are:
    a listing, the move picked from it and the check of that move ask it of one position."""
    _owned: bool
    """Whether the arrays are lists of this engine's own (else the position's tuples, read only)."""

    def own(self) -> None:
        """Make the arrays lists of this engine's own, before a move changes them."""
        if self._owned:
            return
        self._yard = list(self._yard)
        self._district = list(self._district)
        self._rolling = list(self._rolling)
        self._act = list(self._act)
        self._short = list(self._short)
        self._built = self._built[:]  # a player's buildings become a list when they change (``buildings``)
        self._next_id = [s.next_id for s in self._skylines]
        self._frozen = list(self._skylines)
        self._owned = True

    def copy(self) -> Self:
        """An independent engine at the same position: its own lists, or the same tuples if it has
        none yet (the values in them are immutable)."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        d["_offers"] = self._offers[:]
        if self._owned:
            d["_next_id"] = self._next_id[:]
            d["_frozen"] = self._frozen[:]
            d["_yard"] = self._yard[:]
            d["_district"] = self._district[:]
            d["_rolling"] = self._rolling[:]
            d["_act"] = self._act[:]
            d["_short"] = self._short[:]
        d["_built"] = list(map(_SHALLOW_COPY, self._built))  # lists are copied, tuples shared
        new.__dict__ = d
        return new

    def freeze(self) -> SkylineState:
        """This position as a new frozen ``SkylineState`` (fields in declaration order)."""
        state = object.__new__(self.snapshot)
        y, d, r = self._yard, self._district, self._rolling
        fields = {
            "game": self.game,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "yard": (y[0], y[1], y[2]),
            "district": (d[0], d[1], d[2]),
            "active": active_dice(tuple(self._act)),
            "skylines": self.skylines,
            "rolling": (r[0], r[1], r[2]),
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
        if not self._owned:
            return self._skylines
        frozen = self._frozen
        for player, skyline in enumerate(frozen):
            if skyline is None:
                frozen[player] = Skyline(tuple(self._built[player]), self._next_id[player])
        return tuple(frozen)  # type: ignore[arg-type]

    def buildings(self, player: int) -> list[Building]:
        """``player``'s buildings as a list of this engine's own, about to change."""
        built = self._built[player]
        if not isinstance(built, list):
            built = self._built[player] = list(built)
        return built

    def take(self, taken: Counts) -> None:
        """SKY-TURN-2: take dice from the yard and roll them."""
        yard, rolling = self._yard, self._rolling
        for t in 0, 1, 2:
            yard[t] -= taken[t]
            rolling[t] = taken[t]
        self.phase = "roll"

    def take_district(self) -> None:
        """SKY-TURN-2: take the district and roll it; one die of each type refills it from the yard."""
        yard, rolling, district = self._yard, self._rolling, self._district
        for t in 0, 1, 2:
            refill = 1 if yard[t] else 0
            yard[t] -= refill
            rolling[t] = district[t]
            district[t] = refill
        self.phase = "roll"

    def end_turn(self) -> None:
        """SKY-TURN-6: the active dice go back to the yard and the turn ends."""
        act, yard = self._act, self._yard
        for slot, n in enumerate(act):
            if n:
                yard[SLOT_TYPE[slot]] += n
                act[slot] = 0
        self.next_turn()

    def resolve(self, player: int, what: str, slot: int, target: int | None) -> None:
        """SKY-TURN-3: one active die is built, abandoned or spent on a demolition (``target``: a
        building's position)."""
        act = self._act
        act[slot] -= 1
        self.phase = "continue"
        if what is BUILD:
            self.build(player, slot, target)
        elif what is ABANDON:
            self._district[SLOT_TYPE[slot]] += 1  # SKY-ABANDON-1
        else:
            assert target is not None
            self.demolish(player, slot, target)
        if not any(act):  # SKY-TURN-7
            self.next_turn()

    def build(self, player: int, slot: int, target: int | None) -> None:
        """SKY-BUILD-1..5: start a building (``target`` None) or add a floor to the one at position
        ``target``; a completed building becomes a tile."""
        kind, face = SLOT_DICE[slot]
        buildings = self.buildings(player)
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

    def demolish(self, player: int, slot: int, building: int) -> None:
        """SKY-DEMOLISH-1/2: the die and the dice of the building at position ``building`` go to the yard."""
        buildings = self.buildings(player)
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
        return tile_supply(self.game.rules, self._built, self._short)

    def next_turn(self) -> None:
        """SKY-TURN-1, SKY-END-1/2: the next seat, the next round, or the end of the game."""
        if self.turn + 1 < self.game.players:
            self.phase, self.turn = "take", self.turn + 1
        elif self.trigger or self.round >= self.game.rules.rounds:
            self.phase = "over"
        else:
            self.phase, self.turn, self.round = "take", 0, self.round + 1
