"""Urbanization's rules, written once: the engine behind every ``UrbanizationState``.

One class made of one mixin per idea (``parts`` lists them): here who acts, legal moves and the
moves applied; the city, gains, Construct, the actions, the draft, the stacks' exhaustion, the
flow of rounds and the chance events in the modules named after them.

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

import random
from typing import Any

from citybuild.core.engine import Engine
from citybuild.core.tuples import removed, replaced
from citybuild.games.urbanization.construction import construction_costs, resources_for
from citybuild.games.urbanization.gains import RESOURCE
from citybuild.games.urbanization.moves import (
    DONE,
    KEEP,
    NEW_HAND,
    TAKE_RESOURCE,
    TAKE_TILE,
    Done,
    Give,
    Keep,
    NewHand,
    Pick,
    Select,
    Take,
    Token,
    card_selections,
    give,
    pick,
    token,
)
from citybuild.games.urbanization.outcomes import Outcomes
from citybuild.games.urbanization.rules import TILES


class UrbanizationEngine(Outcomes, Engine):
    """The rules of Urbanization (rules/urbanization.md) over a position changed in place."""

    answers_from_fields = True  # who acts, chance and the end are read off the fields

    # --- who acts -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "choose":  # plain loops here: this is asked several times per step
            waiting = []
            for p, chosen in enumerate(self.selections):
                if chosen is None:
                    waiting.append(p)
            return tuple(waiting)
        if phase == "draft":
            size = max(len(d) for d in self.draft)
            return tuple(p for p, d in enumerate(self.draft) if len(d) == size)
        if phase in ("newhand", "contribute") and not self.owed:
            return (self.turn,)
        if phase == "resolve" and self.pending:
            return (self.turn,)
        return ()

    # --- legality --------------------------------------------------------------------------------
    def legal_moves(self, player: int) -> tuple[Any, ...]:
        phase = self.phase
        if phase == "choose":
            return self._selections(player)
        if phase == "resolve":
            if self.pending == "take":
                return (TAKE_RESOURCE, TAKE_TILE)
            return tuple([token(x, y) for x, y in self.destinations()])
        if phase == "newhand":
            return (NEW_HAND, KEEP) if self.may_renew(player) else (KEEP,)
        if phase == "contribute":
            return (*map(give, self.tiles[player]), DONE)
        if phase == "draft":
            return tuple(map(pick, sorted(set(self.draft[player]))))
        return ()

    def _selections(self, player: int) -> tuple[Select, ...]:
        """URB-ROUND-2: each card alone, then with each tile it may be played with (``can_select``,
        here for every tile of a card at once)."""
        hand, tiles = self.hands[player], self.tiles[player]
        if not tiles:
            return tuple([card_selections(card)[TILES] for card in hand])
        out: list[Select] = []
        supply, sp = self.supply[player], self.sp[player]
        stacks = self.stacks
        top_tiles: list[int] | None = None
        for card in hand:
            row = card_selections(card)
            out.append(row[TILES])
            if card >= TILES:
                if supply >= 1 and self.tokens[card - TILES] is not None:
                    out.extend(map(row.__getitem__, tiles))
                continue
            if top_tiles is None:
                top_tiles = [s[-1].tile for s in stacks]
            try:
                stack = stacks[top_tiles.index(card)]
            except ValueError:  # no building shows the card's tile
                continue
            have = resources_for(stack, player, supply)
            for t, (need, cost) in zip(tiles, construction_costs(len(stack), card, tiles), strict=True):
                if have >= need and sp >= cost:
                    out.append(row[t])
        return tuple(out)

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
                return phase == "newhand" and self.may_renew(player)
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

    # --- decisions ------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is Select:
            self._select(player, move)
        elif kind is Take:
            self.pending = ""
            if move.item == "resource":
                self.gain(player, RESOURCE, 1)
            else:
                self.owed += 1
            self.continue_action()
        elif kind is Token:
            self.pending = ""
            self.move_token((move.x, move.y))
            self.continue_action()
        elif kind is Keep:
            self.next_renewal()
            self.settle()
        elif kind is NewHand:
            self.renew(player)
        elif kind is Give:
            self.give(player, move.tile)
        elif kind is Done:
            self.next_contributor()
        elif kind is Pick:
            self.pick(player, move.kind)
        else:  # pragma: no cover - State.play checks moves first
            raise ValueError(f"{move!r} is not an Urbanization move")

    def _select(self, player: int, move: Select) -> None:
        self.hands = replaced(self.hands, player, removed(self.hands[player], move.card))
        if move.tile is not None:
            self.tiles = replaced(self.tiles, player, removed(self.tiles[player], move.tile))
        self.selections = replaced(self.selections, player, move)
        for chosen in self.selections:  # someone still chooses (``is``: a Select's == is Python code)
            if chosen is None:
                return
        self.phase = "resolve"  # URB-ROUND-4
        self.turn = self.actor = self.first
        self.start_action()

    # --- fast random play ----------------------------------------------------------------------------
    def random_move(self, rng: random.Random, player: int) -> Any:
        moves = self.legal_moves(player)
        return moves[int(rng.random() * len(moves))] if moves else None
