"""Urbanization's rules, written once: the engine behind every ``UrbanizationState``.

The position changes in place by rebinding attributes that hold immutable values (tuples, ints,
strings), as ``citybuild.core.engine`` asks. The city is a set of buildings, each a core tower
(``core.tower``) of ``Floor`` pieces: tiles bottom to top, the top one owned by the player whose
resources stand on it (as many as the building is tall, URB-COMP-7), or by nobody. ``cells`` and
``stacks`` are parallel tuples in the order the buildings were made; ``UrbanizationState.board``
is the same city as a core ``Board`` (a networkx graph) for districts and pictures.

The flow of a game (``phase``, ``turn``, ``pending``, ``owed``):

- setup: ``layout`` (chance), ``discard`` (chance: the 2-3 player initial discard), ``characters``
  (chance: a deal per seat), ``draft`` (simultaneous picks), ``items`` (starting items; chance tile
  draws), ``first`` (chance), ``deal`` (chance: 4 cards per player from the first player);
- each round: ``newhand`` (in turn order), ``choose`` (simultaneous secret selections),
  ``resolve`` (the actor ``turn`` resolves; ``pending`` names a decision of theirs inside the
  action, ``owed`` counts tiles still to draw), ``contribute`` (after the first exhaustion;
  ``actor`` is the player whose action caused it), ``draw`` (phase 3 draws), then ``over``.

``owed`` counts cards still to draw in ``discard``/``deal``/``newhand``/``draw`` and tiles still to
draw in ``items``/``resolve``. Forced steps (passing hands, reshuffles, skipping a player with
nothing to decide) happen at once, so a position is always a decision, a chance event or the end.
"""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from citybuild.core.board import orthogonal
from citybuild.core.chance import shuffled
from citybuild.core.engine import Engine
from citybuild.core.multiset import bounded_compositions
from citybuild.core.tuples import bumped, inserted, merged, removed, replaced
from citybuild.games.urbanization.moves import (
    DONE,
    KEEP,
    NEW_HAND,
    TAKE_RESOURCE,
    TAKE_TILE,
    Deal,
    Done,
    DrawCard,
    DrawTile,
    FirstPlayer,
    Give,
    Keep,
    Layout,
    NewHand,
    Pick,
    Select,
    Take,
    Token,
)
from citybuild.games.urbanization.position import Cell, Floor, UrbanizationPosition
from citybuild.games.urbanization.rules import HAND_SIZE, NUMBERS, START_CELLS, START_TILES, TILES, Rules

EXPLOIT, URBANIZE, CONSTRUCT = 0, 1, 2
RESOURCE, TILE, SP = 0, 1, 2

SETUP_PHASES = ("layout", "discard", "characters", "draft", "items", "first", "deal")
ROUND_PHASES = ("newhand", "choose", "resolve", "contribute", "draw")
PHASES = (*SETUP_PHASES, *ROUND_PHASES, "over")
PENDING = ("", "take", "token")
CARD_PHASES = frozenset(("discard", "deal", "newhand", "draw"))
TILE_PHASES = frozenset(("items", "resolve"))


def _layouts() -> tuple[tuple[Layout, Fraction], ...]:
    """URB-RAND-1: every arrangement of the starting tiles, each 1/9!. The 362,880 outcomes are
    made with the cyclic garbage collector paused (it would otherwise rescan them many times)."""
    p = Fraction(1, math.factorial(len(START_TILES)))
    paused = gc.isenabled()
    gc.disable()
    try:
        return tuple((Layout(order), p) for order in permutations(START_TILES))
    finally:
        if paused:
            gc.enable()


def deal_probability(pool: Sequence[int], kinds: Sequence[int]) -> Fraction:
    """URB-RAND-4: prod_t C(c_t, k_t) / C(N, d) for the multiset ``kinds`` dealt from ``pool``."""
    counts = [0] * len(pool)
    for kind in kinds:
        counts[kind] += 1
    ways = 1
    for have, take in zip(pool, counts, strict=True):
        ways *= math.comb(have, take)
    return Fraction(ways, math.comb(sum(pool), len(kinds)))


class UrbanizationEngine(UrbanizationPosition, Engine):
    """The rules of Urbanization (rules/urbanization.md) over a position changed in place."""

    answers_from_fields = True  # who acts, chance and the end are read off the fields

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def players(self) -> int:
        return self.game.players

    # --- who acts -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        phase = self.phase
        if phase in ("layout", "characters", "first"):
            return True
        return self.owed > 0 and not self.pending and (phase in CARD_PHASES or phase in TILE_PHASES)

    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "choose":
            return tuple(p for p, s in enumerate(self.selections) if s is None)
        if phase == "draft":
            size = max(len(d) for d in self.draft)
            return tuple(p for p, d in enumerate(self.draft) if len(d) == size)
        if phase in ("newhand", "contribute") and not self.owed:
            return (self.turn,)
        if phase == "resolve" and self.pending:
            return (self.turn,)
        return ()

    # --- the city ---------------------------------------------------------------------------------
    def building_of(self, card: int) -> int:
        """The index of the building whose top tile is ``card``'s (URB-COMP-3), or -1."""
        for i, stack in enumerate(self.stacks):
            if stack[-1].tile == card:
                return i
        return -1

    def open_stack(self) -> tuple[int, ...] | None:
        """The stack tiles are drawn from now (URB-GAIN-3), or None when none can be drawn."""
        if self.exhaustion == 0:
            return self.stack
        if self.exhaustion == 1 and not self.contribute_due and self.second:
            return self.second
        return None

    def destinations(self) -> tuple[Cell, ...]:
        """URB-URBANIZE-3: where the token on the newest building may go (() : it leaves the game)."""
        cells, tokens = self.cells, self.tokens
        here = cells[-1]
        empty = tuple(c for c in orthogonal(here) if c not in cells and c not in tokens)
        if empty and self.rules.token_move_keeps_alphabetical_order:
            kept = tuple(c for c in empty if self._keeps_order(here, c))
            empty = kept or empty
        if not empty and self.rules.token_no_space == "any_cell_adjacent_to_city":
            built = set(cells)
            empty = tuple(sorted({c for cell in cells for c in orthogonal(cell) if c not in built and c not in tokens}))
        return empty

    def _keeps_order(self, here: Cell, there: Cell) -> bool:
        """Whether the tokens, with the one on ``here`` moved to ``there``, still read A..L in cyclic
        order clockwise around the city (by angle about the centre of the buildings)."""
        cells = self.cells
        cx = sum(x for x, _ in cells) / len(cells)
        cy = sum(y for _, y in cells) / len(cells)
        placed = []
        for letter, cell in enumerate(self.tokens):
            if cell is None:
                continue
            if cell == here:
                cell = there
            x, y = cell[0] - cx, cell[1] - cy
            clockwise = (math.atan2(x, y)) % (2 * math.pi)  # 0 straight up, growing clockwise
            placed.append((clockwise, x * x + y * y, letter))
        order = [letter for _, _, letter in sorted(placed)]
        if len(order) < 3:
            return True
        start = order.index(min(order))
        rotated = order[start:] + order[:start]
        return rotated == sorted(rotated)

    # --- legality --------------------------------------------------------------------------------
    def select_cost(self, player: int, card: int, tile: int) -> tuple[int, int, int] | None:
        """URB-CONSTRUCT-2: for Building card ``card`` and ``tile``, the (resources needed, resources
        available, SP needed), or None if the card designates no building."""
        i = self.building_of(card)
        if i < 0:
            return None
        stack = self.stacks[i]
        height = len(stack)
        own = height if stack[-1].owner == player else 0
        need = height + 1 + (tile // NUMBERS != card // NUMBERS)
        return need, self.supply[player] + own, max(0, card % NUMBERS - tile % NUMBERS)

    def can_select(self, player: int, card: int, tile: int | None) -> bool:
        """URB-ROUND-2, URB-URBANIZE-1, URB-CONSTRUCT-2: the selection is legal (its card and tile
        already taken from the hand and the supply, or not)."""
        if tile is None:
            return True
        if card >= TILES:
            return self.tokens[card - TILES] is not None and self.supply[player] >= 1
        cost = self.select_cost(player, card, tile)
        return cost is not None and cost[1] >= cost[0] and self.sp[player] >= cost[2]

    def legal_moves(self, player: int) -> tuple[Any, ...]:
        phase = self.phase
        if phase == "choose":
            return self._selections(player)
        if phase == "resolve":
            if self.pending == "take":
                return (TAKE_RESOURCE, TAKE_TILE)
            return tuple(Token(x, y) for x, y in self.destinations())
        if phase == "newhand":
            return (NEW_HAND, KEEP) if self._may_renew(player) else (KEEP,)
        if phase == "contribute":
            return (*(Give(t) for t in self.tiles[player]), DONE)
        if phase == "draft":
            return tuple(Pick(k) for k in sorted(set(self.draft[player])))
        return ()

    def _selections(self, player: int) -> tuple[Select, ...]:
        hand, tiles = self.hands[player], self.tiles[player]
        out: list[Select] = []
        supply, sp = self.supply[player], self.sp[player]
        tops = [s[-1] for s in self.stacks]
        top_tiles = [f.tile for f in tops]
        for card in hand:
            out.append(Select(card))
            if not tiles:
                continue
            if card >= TILES:
                if supply >= 1 and self.tokens[card - TILES] is not None:
                    out.extend(Select(card, t) for t in tiles)
                continue
            if card not in top_tiles:
                continue
            i = top_tiles.index(card)
            height = len(self.stacks[i])
            have = supply + (height if tops[i].owner == player else 0)
            need = height + 1
            colour, number = card // NUMBERS, card % NUMBERS
            for t in tiles:
                if have >= need + (t // NUMBERS != colour) and sp >= number - t % NUMBERS:
                    out.append(Select(card, t))
        return tuple(out)

    def _may_renew(self, player: int) -> bool:
        return self.newhand[player] > 0 and self.used[player] < self.rules.new_hand_per_round

    def is_legal(self, move: Any, player: int) -> bool:
        phase = self.phase
        kind = type(move)
        try:
            if kind is Select:
                return (
                    phase == "choose"
                    and type(move.card) is int
                    and (move.tile is None or type(move.tile) is int)
                    and self.selections[player] is None
                    and move.card in self.hands[player]
                    and (move.tile is None or move.tile in self.tiles[player])
                    and self.can_select(player, move.card, move.tile)
                )
            if kind is Take:
                return (
                    phase == "resolve"
                    and self.pending == "take"
                    and type(move.item) is str
                    and move.item in ("resource", "tile")
                )
            if kind is Token:
                return (
                    phase == "resolve"
                    and self.pending == "token"
                    and type(move.x) is int
                    and type(move.y) is int
                    and (move.x, move.y) in self.destinations()
                )
            if kind is NewHand:
                return phase == "newhand" and self._may_renew(player)
            if kind is Keep:
                return phase == "newhand"
            if kind is Give:
                return phase == "contribute" and type(move.tile) is int and move.tile in self.tiles[player]
            if kind is Done:
                return phase == "contribute"
            if kind is Pick:
                return (
                    phase == "draft"
                    and player in self.to_act
                    and type(move.kind) is int
                    and move.kind in self.draft[player]
                )
        except (TypeError, IndexError):
            return False
        return False

    # --- chance -------------------------------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        if not self.is_chance:
            return ()
        phase = self.phase
        if phase == "layout":
            return _layouts()
        if phase == "first":
            n = self.players
            return tuple((FirstPlayer(s), Fraction(1, n)) for s in range(n))
        if phase == "characters":
            pool, dealt = self.pool, self._dealt()
            out = []
            for counts in bounded_compositions(pool, dealt):
                kinds = tuple(k for k, c in enumerate(counts) for _ in range(c))
                out.append((Deal(kinds), deal_probability(pool, kinds)))
            return tuple(out)
        if phase in CARD_PHASES:
            p = Fraction(1, len(self.draw))
            return tuple((DrawCard(c), p) for c in self.draw)
        stack = self.open_stack() or ()
        p = Fraction(1, len(stack))
        return tuple((DrawTile(t), p) for t in stack)

    def chance_outcomes_exist(self) -> bool:
        """Whether the pending chance event has an outcome (a hand-written position may lack one)."""
        phase = self.phase
        if phase == "characters":
            return sum(self.pool) >= self._dealt()
        if phase in CARD_PHASES:
            return bool(self.draw)
        if phase in TILE_PHASES:
            return bool(self.open_stack())
        return True

    def _dealt(self) -> int:
        return 4 if self.rules.character_mode == "draft" else 3

    def is_outcome(self, outcome: Any) -> bool:
        if not self.is_chance:
            return False
        phase = self.phase
        kind = type(outcome)
        if phase == "layout":
            tiles = outcome.tiles if kind is Layout else None
            return (
                type(tiles) is tuple
                and len(tiles) == 9
                and all(type(t) is int for t in tiles)
                and tuple(sorted(tiles)) == START_TILES
            )
        if phase == "first":
            return kind is FirstPlayer and type(outcome.seat) is int and outcome.seat in range(self.players)
        if phase == "characters":
            kinds = outcome.kinds if kind is Deal else None
            if type(kinds) is not tuple or len(kinds) != self._dealt() or list(kinds) != sorted(kinds):
                return False
            return all(type(k) is int and 0 <= k < 9 and kinds.count(k) <= self.pool[k] for k in kinds)
        if phase in CARD_PHASES:
            return kind is DrawCard and type(outcome.card) is int and outcome.card in self.draw
        return kind is DrawTile and type(outcome.tile) is int and outcome.tile in (self.open_stack() or ())

    def sample_outcome(self, rng: random.Random) -> Any:
        phase = self.phase
        if phase in CARD_PHASES:
            draw = self.draw
            return DrawCard(draw[int(rng.random() * len(draw))])
        if phase in TILE_PHASES:
            stack = self.open_stack() or ()
            return DrawTile(stack[int(rng.random() * len(stack))])
        if phase == "layout":
            return Layout(tuple(shuffled(START_TILES, rng)))
        if phase == "first":
            return FirstPlayer(int(rng.random() * self.players))
        pool = list(self.pool)
        kinds = []
        for _ in range(self._dealt()):
            pick = int(rng.random() * sum(pool))
            for kind, count in enumerate(pool):
                if pick < count:
                    pool[kind] -= 1
                    kinds.append(kind)
                    break
                pick -= count
        return Deal(tuple(sorted(kinds)))

    def apply_outcome(self, outcome: Any) -> None:
        kind = type(outcome)
        if kind is DrawCard:
            card = outcome.card
            self.draw = removed(self.draw, card)
            if self.phase == "discard":
                self.discard = inserted(self.discard, card)
            else:
                self.hands = replaced(self.hands, self.turn, inserted(self.hands[self.turn], card))
            self.owed -= 1
            self._settle()
        elif kind is DrawTile:
            self._draw_tile(outcome.tile)
        elif kind is Layout:
            self.cells = START_CELLS
            self.stacks = tuple((Floor(t),) for t in outcome.tiles)
            self.phase = "discard"
            self.owed = self.rules.initial_discard(self.players)
            self._settle()
        elif kind is Deal:
            self._deal_characters(outcome.kinds)
        elif kind is FirstPlayer:
            self.first = self.turn = outcome.seat
            self.phase = "deal"
            self.owed = HAND_SIZE
            self._settle()
        else:  # pragma: no cover - State.play checks outcomes first
            raise ValueError(f"{outcome!r} is not an Urbanization chance outcome")

    def _draw_tile(self, tile: int) -> None:
        p = self.turn
        self.tiles = replaced(self.tiles, p, inserted(self.tiles[p], tile))
        self.owed -= 1
        if self.exhaustion == 0:
            self.stack = removed(self.stack, tile)
            self.draws_left -= 1
            if self.draws_left == 0:  # URB-END-1: the first exhaustion; the rest of the gain is lost
                self.exhaustion = 1
                self.contribute_due = self.phase == "resolve"
                self.owed = 0
        else:
            self.second = removed(self.second, tile)
            if not self.second:  # URB-END-2: the second exhaustion
                self.exhaustion = 2
                self.owed = 0
        if self.phase == "items":
            self._settle()
        else:
            self._continue()

    def _deal_characters(self, kinds: tuple[int, ...]) -> None:
        p = self.turn
        pool = self.pool
        for kind in kinds:
            pool = bumped(pool, kind, -1)
        self.pool = pool
        if self.rules.character_mode == "draft":
            self.draft = replaced(self.draft, p, kinds)
        else:
            self.chars = replaced(self.chars, p, kinds)
        if p + 1 < self.players:
            self.turn = p + 1
            return
        if self.rules.character_mode == "draft":
            self.phase = "draft"
        else:
            self._start_items()

    # --- decisions ------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is Select:
            self._select(player, move)
        elif kind is Take:
            self.pending = ""
            if move.item == "resource":
                self._gain(player, RESOURCE, 1)
            else:
                self.owed += 1
            self._continue()
        elif kind is Token:
            self.pending = ""
            self._move_token((move.x, move.y))
            self._continue()
        elif kind is Keep:
            self._next_renewal()
            self._settle()
        elif kind is NewHand:
            self.discard = merged(self.discard, self.hands[player])
            self.hands = replaced(self.hands, player, ())
            self.newhand = bumped(self.newhand, player, -1)
            self.used = bumped(self.used, player, 1)
            self.owed = HAND_SIZE
            self._settle()
        elif kind is Give:
            self.tiles = replaced(self.tiles, player, removed(self.tiles[player], move.tile))
            self.second = inserted(self.second, move.tile)
            self.given = bumped(self.given, player, 1)
            self.sp = bumped(self.sp, player, 1)
            if not self.tiles[player]:
                self._next_contributor()
        elif kind is Done:
            self._next_contributor()
        elif kind is Pick:
            self._pick(player, move.kind)
        else:  # pragma: no cover - State.play checks moves first
            raise ValueError(f"{move!r} is not an Urbanization move")

    def _pick(self, player: int, kind: int) -> None:
        self.draft = replaced(self.draft, player, removed(self.draft[player], kind))
        self.chars = replaced(self.chars, player, inserted(self.chars[player], kind))
        sizes = {len(d) for d in self.draft}
        if len(sizes) > 1:
            return
        if len(self.chars[0]) >= 3:  # URB-SETUP-7: the last card goes to the box
            pool = self.pool
            for hand in self.draft:
                for left in hand:
                    pool = bumped(pool, left, 1)
            self.pool = pool
            self.draft = ((),) * self.players
            self._start_items()
        else:  # pass the rest to the left (seat p + 1)
            n = self.players
            self.draft = tuple(self.draft[(p - 1) % n] for p in range(n))

    def _select(self, player: int, move: Select) -> None:
        self.hands = replaced(self.hands, player, removed(self.hands[player], move.card))
        if move.tile is not None:
            self.tiles = replaced(self.tiles, player, removed(self.tiles[player], move.tile))
        self.selections = replaced(self.selections, player, move)
        if None in self.selections:
            return
        self.phase = "resolve"  # URB-ROUND-4
        self.turn = self.actor = self.first
        self._start_action()

    # --- resolution --------------------------------------------------------------------------------
    def _gain(self, player: int, item: int, count: int) -> None:
        """URB-GAIN-1..3: resources from the reserve (capped), tiles owed (drawn next), SP."""
        if item == RESOURCE:
            take = min(count, self.reserve[player])
            if take:
                self.reserve = bumped(self.reserve, player, -take)
                self.supply = bumped(self.supply, player, take)
        elif item == TILE:
            self.owed += count
        elif count:
            self.sp = bumped(self.sp, player, count)

    def _fire(self, player: int, action: int) -> None:
        """Every bonus of ``action`` in the tableau, once (URB-EXPLOIT-3, URB-URBANIZE-5, URB-CONSTRUCT-1.7)."""
        gains = [0, 0, 0]
        bonus = self.game.cards.bonus
        for card in self.tableau[player]:
            fires, res, tiles, sp = bonus[card]
            if fires == action:
                gains[0] += res
                gains[1] += tiles
                gains[2] += sp
        for kind in self.chars[player]:
            if kind % 3 == action:  # URB-CHAR-1: +1 item of the character's colour
                gains[kind // 3] += 1
        for item in (RESOURCE, TILE, SP):
            if gains[item]:
                self._gain(player, item, gains[item])

    def _start_action(self) -> None:
        """Reveal the actor's selection and resolve it up to its first decision (URB-ROUND-4)."""
        p = self.turn
        move = self.selections[p]
        assert move is not None
        self.selections = replaced(self.selections, p, None)
        card, tile = move.card, move.tile
        if tile is not None and not self.can_select(p, card, tile):
            # URB-CONSTRUCT-3: the tile returns; the card resolves as an Exploit.
            self.tiles = replaced(self.tiles, p, inserted(self.tiles[p], tile))
            tile = None
        if tile is None:
            self.discard = inserted(self.discard, card)  # URB-EXPLOIT-4
            if card >= TILES:
                self._fire(p, EXPLOIT)
                self.pending = "take"  # URB-EXPLOIT-1: chosen now, at resolution
                return
            i = self.building_of(card)
            if i >= 0:  # URB-EXPLOIT-2 (a hand-written position may name no building)
                self._gain(p, card // NUMBERS, len(self.stacks[i]))
            self._fire(p, EXPLOIT)
            self._continue()
        elif card >= TILES:
            self._urbanize(p, card, tile)
        else:
            self._construct(p, card, tile)

    def _urbanize(self, p: int, card: int, tile: int) -> None:
        """URB-URBANIZE-2..6."""
        cell = self.tokens[card - TILES]
        assert cell is not None
        self.cells = (*self.cells, cell)
        self.stacks = (*self.stacks, (Floor(tile, p),))
        self.sites = (*self.sites, len(self.cells) - 1)
        self.supply = bumped(self.supply, p, -1)
        utilize_bonus = self.rules.utilize_triggers_exploit_bonus
        cells, stacks = self.cells, self.stacks
        for near in orthogonal(cell):
            if near in cells:
                stack = stacks[cells.index(near)]
                self._gain(p, stack[-1].tile // NUMBERS, len(stack))
                if utilize_bonus:
                    self._fire(p, EXPLOIT)
        self._fire(p, URBANIZE)
        self.discard = inserted(self.discard, card)
        choices = self.destinations()
        if len(choices) > 1:
            self.pending = "token"  # URB-URBANIZE-3: chosen now, at resolution
            return
        self._move_token(choices[0] if choices else None)
        self._continue()

    def _move_token(self, cell: Cell | None) -> None:
        letter = self.tokens.index(self.cells[-1])
        self.tokens = replaced(self.tokens, letter, cell)

    def _construct(self, p: int, card: int, tile: int) -> None:
        """URB-CONSTRUCT-1 steps 1-8."""
        i = self.building_of(card)
        stack = self.stacks[i]
        height = len(stack)
        owner = stack[-1].owner
        if owner is not None:  # 1. refund
            self.supply = bumped(self.supply, owner, height)
            if owner != p:
                self.sp = bumped(self.sp, owner, height)
        self.stacks = replaced(self.stacks, i, (*stack[:-1], Floor(card), Floor(tile, p)))  # 2.
        penalty = card % NUMBERS - tile % NUMBERS
        if penalty > 0:  # 3.
            self.sp = bumped(self.sp, p, -penalty)
        if tile // NUMBERS != card // NUMBERS:  # 4.
            self.supply = bumped(self.supply, p, -1)
            if self.rules.colour_penalty_to == "reserve":
                self.reserve = bumped(self.reserve, p, 1)
            else:
                self.boxed = bumped(self.boxed, p, 1)
        self.supply = bumped(self.supply, p, -(height + 1))  # 5.
        if i not in self.sites:  # 6.
            self.sites = inserted(self.sites, i)
        if self.rules.new_card_bonus_same_action:
            self.tableau = replaced(self.tableau, p, inserted(self.tableau[p], card))
            self._fire(p, CONSTRUCT)
        else:
            self._fire(p, CONSTRUCT)  # 7.
            self.tableau = replaced(self.tableau, p, inserted(self.tableau[p], card))  # 8.
        self._continue()

    def _continue(self) -> None:
        """After the actor's decisions: draw the tiles owed, then end the action."""
        if self.owed and self.open_stack():
            return
        self.owed = 0
        self._end_action()

    def _check_end(self) -> None:
        """URB-END-2..4: the second exhaustion, or a player with every resource in the city."""
        triggered = self.exhaustion == 2 or any(
            s == 0 and r == 0 for s, r in zip(self.supply, self.reserve, strict=True)
        )
        self.ending = (self.ending or triggered) if self.rules.end_trigger_latches else triggered

    def _end_action(self) -> None:
        self._check_end()
        if self.contribute_due:
            self.contribute_due = False
            if not self.ending:  # URB-END-1: the contribution step
                self.phase = "contribute"
                self.actor = self.turn
                self.turn = self.first
                if not self.tiles[self.turn]:
                    self._next_contributor()
                return
        self._next_actor()

    def _next_contributor(self) -> None:
        n = self.players
        nxt = (self.turn + 1) % n
        while nxt != self.first and not self.tiles[nxt]:
            nxt = (nxt + 1) % n
        if nxt != self.first:
            self.turn = nxt
            return
        if not self.second:  # nobody gave a tile: the second exhaustion at once
            self.exhaustion = 2
        self._check_end()
        self.phase = "resolve"
        self.turn = self.actor
        self._next_actor()

    def _next_actor(self) -> None:
        if self.ending and self.rules.end_timing == "immediate":  # URB-END-5
            self._game_over()
            return
        nxt = (self.turn + 1) % self.players
        if nxt != self.first:
            self.turn = self.actor = nxt
            self._start_action()
            return
        if self.ending or self.round >= self.rules.max_rounds:  # URB-END-5, URB-RAND-6
            self._game_over()
            return
        self._prepare()

    def _game_over(self) -> None:
        self.phase = "over"
        self.pending = ""
        self.owed = 0

    # --- phase 3 and phase 1 ------------------------------------------------------------------------
    def _prepare(self) -> None:
        """URB-ROUND-5..7: pass the piles left, new buildings join the deck, draw back to 4."""
        n = self.players
        self.passed = self.hands
        self.hands = tuple(self.hands[(p - 1) % n] for p in range(n))
        self.first = (self.first + 1) % n
        new_cards = [self.stacks[i][-1].tile for i in self.sites]
        if self.rules.new_card_insertion == "shuffle_into_draw":
            self.draw = merged(self.draw, new_cards)
        else:
            self.discard = merged(self.discard, new_cards)
        self.sites = ()
        self.phase = "draw"
        self.turn = self.first
        self.owed = 1
        self._settle()

    def _start_round(self) -> None:
        self.round += 1
        self.phase = "newhand"
        self.used = (0,) * self.players
        self.turn = self.first
        self.owed = 0

    def _next_renewal(self) -> None:
        nxt = (self.turn + 1) % self.players
        if nxt == self.first:
            self.phase = "choose"  # URB-ROUND-2
        else:
            self.turn = nxt

    def _start_items(self) -> None:
        self.phase = "items"
        self.turn = 0
        self._give_items(0)
        self._settle()

    def _give_items(self, p: int) -> None:
        """URB-SETUP-8: the starting items of ``p``'s characters (URB-CHAR-2)."""
        start = self.game.characters.start
        for kind in self.chars[p]:
            res, sp, tiles = start[kind]
            self._gain(p, RESOURCE, res)
            self._gain(p, SP, sp)
            self.owed += tiles

    def _settle(self) -> None:
        """Play the forced steps until a decision, a chance event or the end."""
        while True:
            phase = self.phase
            if phase in ("deal", "draw", "newhand"):
                if self.owed:
                    if not self.draw and self.discard:  # URB-ROUND-8: reshuffle
                        self.draw, self.discard = self.discard, ()
                    if self.draw:
                        return
                    self.owed = 0
                if phase == "newhand":
                    if self._may_renew(self.turn):
                        return
                    self._next_renewal()
                    continue
                nxt = (self.turn + 1) % self.players
                if nxt == self.first:
                    self._start_round()
                    continue
                self.turn = nxt
                self.owed = HAND_SIZE if phase == "deal" else 1
                continue
            if phase == "discard":
                if self.owed and self.draw:
                    return
                self.owed = 0
                self.phase = "characters"
                self.turn = 0
                return
            if phase == "items":
                if self.owed and self.open_stack():
                    return
                self.owed = 0  # URB-GAIN-3: a shortfall is lost
                if self.turn + 1 < self.players:
                    self.turn += 1
                    self._give_items(self.turn)
                    continue
                self.phase = "first"
                self.turn = 0
                return
            return

    # --- fast random play ----------------------------------------------------------------------------
    def random_move(self, rng: random.Random, player: int) -> Any:
        moves = self.legal_moves(player)
        return moves[int(rng.random() * len(moves))] if moves else None
