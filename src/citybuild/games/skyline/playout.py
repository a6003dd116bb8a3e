"""Fast random playouts for Skyline: the same game as ``State.playout``, several times faster.

Bots (Monte Carlo search) and rule-variant studies play thousands of random games. The generic
playout builds a new frozen state per step and re-checks every move. This kernel keeps the dice
as counts per (type, face) slot and the buildings in mutable lists, and plays every step (takes,
rolls, rerolls, builds, abandons, demolishes, end of turn) the way ``SkylineState.random_move``
picks it and ``_apply``/``_apply_outcome`` play it: the same ``rng.random()`` calls in the same
order, the same move chosen among the same ``legal_moves()`` order, the same effects. Placement
and completion are the engine's own ``can_place`` and ``completes``; yard takes are the engine's
``take_counts``. A step the kernel does not know (a take with no dice anywhere, which the engine
refuses) is handed to the reference engine. The result, final state and step count, is identical
to the generic playout for the same generator; ``tests/skyline`` checks that on random seeds,
presets, options and starting points.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from citybuild.core.building import Building, Column, Skyline, Tile
from citybuild.core.game import State
from citybuild.games.skyline.rules import FACES, MAX_HEIGHT, TYPES
from citybuild.games.skyline.state import SkylineState, can_place, completes, face_slots, take_counts

if TYPE_CHECKING:
    from citybuild.games.skyline.game import SkylineGame

SLOTS = len(TYPES) * len(FACES)
"""A die (type, face) is slot ``4 * type + face`` (canonical order GF UF PH, P B O X)."""
DIE_OF_SLOT = tuple((t, f) for t in TYPES for f in FACES)
SLOT_OF_DIE = {die: slot for slot, die in enumerate(DIE_OF_SLOT)}
_GF, _UF, _PH = TYPES


class _Table:
    """A Skyline position as mutable lists, for the duration of one playout."""

    def __init__(self, state: SkylineState) -> None:
        self.game: SkylineGame = state.game
        rules = self.rules = state.rules
        self.n = state.players
        self.round = state.round
        self.turn = state.turn
        self.phase = state.phase
        self.yard = list(state.yard)
        self.district = list(state.district)
        self.rolling = list(state.rolling)
        self.active = [0] * SLOTS
        for die in state.active:
            self.active[SLOT_OF_DIE[die]] += 1
        self.buildings: list[list[Building]] = [list(s.buildings) for s in state.skylines]
        self.next_ids = [s.next_id for s in state.skylines]
        self.trigger = state.trigger
        self.short = list(state.short)
        self.standing = [0] * MAX_HEIGHT
        for buildings in self.buildings:
            for b in buildings:
                if isinstance(b, Tile):
                    self.standing[b.height - 1] += 1
        # per type, the slot each of the six faces of a die of that type shows
        self.roll_slots = [tuple(4 * t + s for s in face_slots(faces)) for t, faces in enumerate(rules.faces_key())]
        shown = {slot for slots in self.roll_slots for slot in slots}
        self.possible = [k for k in range(SLOTS) if k in shown or self.active[k]]
        self.targets: list[list[list[int | None]]] = []
        self.counts: list[list[int]] = []
        self.ids: list[list[int]] = []
        for player in range(self.n):
            self.targets.append([])
            self.counts.append([])
            self.ids.append([])
            self.refresh(player)

    def freeze(self) -> SkylineState:
        act = self.active
        active = tuple(die for k, die in enumerate(DIE_OF_SLOT) for _ in range(act[k]))
        y, d, r = self.yard, self.district, self.rolling
        return SkylineState(
            self.game,
            self.round,
            self.turn,
            self.phase,
            (y[0], y[1], y[2]),
            (d[0], d[1], d[2]),
            active,
            tuple(Skyline(tuple(b), i) for b, i in zip(self.buildings, self.next_ids, strict=True)),
            (r[0], r[1], r[2]),
            self.trigger,
            tuple(self.short),
        )

    def refresh(self, player: int) -> None:
        """A player's legal Build targets per die slot (as ``SkylineState._build_targets`` lists
        them: building order), their counts, and the ids a Demolish may name."""
        rules = self.rules
        targets: list[list[int | None]] = [[] for _ in range(SLOTS)]
        for f, face in enumerate(FACES):
            if face != "X":
                targets[f] = [None]  # a ground floor starts a new building
        allowed = rules.demolish_completed_allowed
        ids: list[int] = []
        for b in self.buildings[player]:
            if isinstance(b, Column):
                ids.append(b.id)
                colour = FACES.index(b.colour)
                if can_place(b, _UF, rules):
                    targets[4 + colour].append(b.id)
                if can_place(b, _PH, rules):
                    targets[8 + colour].append(b.id)
            elif allowed:
                ids.append(b.id)
        self.targets[player] = targets
        self.counts[player] = list(map(len, targets))
        self.ids[player] = ids

    # --- the effects, as in SkylineState._apply_build / _apply_demolish ------------------------
    def build(self, player: int, slot: int, target: int | None) -> None:
        kind, face = DIE_OF_SLOT[slot]
        buildings = self.buildings[player]
        if target is None:
            buildings.append(Column(self.next_ids[player], face, (kind,)))
            self.next_ids[player] += 1
            self.refresh(player)
            return
        where = next(i for i, b in enumerate(buildings) if b.id == target)
        column = buildings[where]
        assert isinstance(column, Column)
        column = column.add(kind)
        if not completes(column, kind):
            buildings[where] = column
            self.refresh(player)
            return
        # SKY-BUILD-5: the column becomes a tile; all its dice go back to the yard.
        height = column.height
        buildings[where] = Tile(column.id, column.colour, height)
        yard = self.yard
        for piece in column.pieces:
            yard[TYPES.index(piece)] += 1
        h = height - 1
        if self.rules.finite_tile_supply and self.rules.tile_counts[height] - self.standing[h] + self.short[h] <= 0:
            self.short[h] += 1  # SKY-COMP-5: completed without a tile
        self.standing[h] += 1
        if height == MAX_HEIGHT and self.rules.six_floor_ends_game:
            self.trigger = True
        self.refresh(player)

    def demolish(self, player: int, slot: int, building: int) -> None:
        buildings = self.buildings[player]
        yard = self.yard
        yard[slot >> 2] += 1
        where = next(i for i, b in enumerate(buildings) if b.id == building)
        target = buildings.pop(where)
        if isinstance(target, Column):
            for piece in target.pieces:
                yard[TYPES.index(piece)] += 1
        else:
            h = target.height - 1
            self.standing[h] -= 1
            if self.short[h]:
                self.short[h] -= 1  # a building without a tile goes first
        self.refresh(player)
        if self.trigger and not self.rules.end_trigger_latches:  # SKY-END-2
            self.trigger = any(isinstance(b, Tile) and b.height == MAX_HEIGHT for bs in self.buildings for b in bs)

    # --- random steps, consuming the generator as SkylineState.random_move does --------------
    def run(self, rng: random.Random) -> int:
        """Play until the game is over or a step the kernel leaves to the engine; the steps played."""
        rnd = rng.random
        rules = self.rules
        act, yard, district, rolling = self.active, self.yard, self.district, self.rolling
        roll_slots = self.roll_slots
        possible = self.possible
        counts_of, targets_of, ids_of = self.counts, self.targets, self.ids
        yard_take = rules.yard_take
        fallback_only = rules.fallback_only
        reroll_all = rules.reroll_all_remaining
        phase, turn = self.phase, self.turn
        steps = 0
        while True:
            if phase == "roll":
                for t in (0, 1, 2):
                    c = rolling[t]
                    if c:
                        slots = roll_slots[t]
                        for _ in range(c):
                            act[slots[int(rnd() * 6)]] += 1
                        rolling[t] = 0
                phase = "resolve"
                steps += 1
                continue
            if phase == "take":
                total = yard[0] + yard[1] + yard[2]
                size = min(yard_take, total)
                # no take holds more than ``size`` of a type, so the yard counts clipped to ``size``
                # give the same list (and the cache stays small)
                takes = take_counts((min(yard[0], size), min(yard[1], size), min(yard[2], size)), size) if total else ()
                count = len(takes) + (1 if district[0] or district[1] or district[2] else 0)
                if not count:
                    break  # nothing to take: the engine refuses (no legal move)
                index = int(rnd() * count)
                if index < len(takes):
                    taken = takes[index]
                    for t in (0, 1, 2):
                        yard[t] -= taken[t]
                        rolling[t] = taken[t]
                else:
                    for t in (0, 1, 2):
                        refill = 1 if yard[t] else 0
                        yard[t] -= refill
                        rolling[t] = district[t]
                        district[t] = refill
                phase = "roll"
                steps += 1
                continue
            if phase == "over":
                break
            # resolve or continue: builds, abandons, demolishes (, rerolls, end) in legal_moves order
            counts = counts_of[turn]
            kinds = []
            builds = 0
            product = 1
            for k in possible:
                c = act[k]
                if c:
                    kinds.append(k)
                    builds += counts[k]
                    product *= c + 1
            if fallback_only and builds:
                abandons = 0
                ids: list[int] = []
            else:
                abandons = len(kinds)
                ids = ids_of[turn]
            head = builds + abandons + abandons * len(ids)
            if phase == "resolve":
                index = int(rnd() * head)
            else:
                count = 1 if reroll_all else product - 1
                index = int(rnd() * (head + count + 1)) - head
                if index >= 0:
                    steps += 1
                    if index == count:  # EndTurn: the active dice go back to the yard
                        for k in kinds:
                            yard[k >> 2] += act[k]
                            act[k] = 0
                        phase, turn = self._next_turn(turn)
                        continue
                    if reroll_all:
                        for k in kinds:
                            rolling[k >> 2] += act[k]
                            act[k] = 0
                    else:  # the index-th of rerolls(): mixed radix, each count from its limit down
                        for k in reversed(kinds):
                            index, digit = divmod(index, act[k] + 1)
                            rolling[k >> 2] += act[k] - digit
                            act[k] = digit
                    phase = "roll"
                    continue
                index += head
            steps += 1
            if index < builds:
                for k in kinds:
                    if index < counts[k]:
                        break
                    index -= counts[k]
                act[k] -= 1
                self.build(turn, k, targets_of[turn][k][index])
            elif index < builds + abandons:
                k = kinds[index - builds]
                act[k] -= 1
                district[k >> 2] += 1
            else:
                die, target = divmod(index - builds - abandons, len(ids))
                k = kinds[die]
                act[k] -= 1
                self.demolish(turn, k, ids[target])
            if any(act):
                phase = "continue"
            else:  # SKY-TURN-7
                phase, turn = self._next_turn(turn)
        self.phase, self.turn = phase, turn
        return steps

    def _next_turn(self, turn: int) -> tuple[str, int]:
        """SKY-TURN-1, SKY-END-1/2 (``SkylineState._next_turn``): the next phase and seat."""
        if turn + 1 < self.n:
            return "take", turn + 1
        if self.trigger or self.round >= self.rules.rounds:
            return "over", turn
        self.round += 1
        return "take", 0


def playout(state: SkylineState, rng: random.Random) -> tuple[SkylineState, int]:
    """Random play to the end from ``state``; the same result as the generic ``State.playout``."""
    table = _Table(state)
    steps = 0
    while True:
        steps += table.run(rng)
        if table.phase == "over":
            return table.freeze(), steps
        # A step the kernel leaves to the reference engine, exactly as the generic path plays it.
        frozen = table.freeze()
        table = _Table(cast(SkylineState, frozen.play(State.random_move(frozen, rng))))
        steps += 1
