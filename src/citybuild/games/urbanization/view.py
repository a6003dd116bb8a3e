"""What one Urbanization player may know (URB-RAND-5).

Public: the city (stacks, owners, resources, Construction Sites, tokens), tableaus, New Hand
tokens, the discard pile, reserves and supplies of resources, hand sizes, who has chosen, how many
tiles each player gave, how many tiles are left to draw. Hidden: other players' hands, selections
(until revealed, when they resolve), tiles and SP behind their screens, kept characters during the
draft, other draft hands and the box, and the order and content of the draw pile and of the stacks.
A view also holds what its player saw: the cards they passed at the last pass.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from attrs import evolve as replace

from citybuild.core.errors import InvalidStateError
from citybuild.core.svg import Pictured
from citybuild.core.view import View
from citybuild.games.urbanization.engine import Building, Cell, _add, _insert, _put, _remove
from citybuild.games.urbanization.moves import Select
from citybuild.games.urbanization.rules import HAND_SIZE
from citybuild.games.urbanization.state import UrbanizationState


@attrs.frozen
class UrbanizationView(View, Pictured):
    """A player's view: public facts, and the viewer's own hand, tiles, SP and selection; others'
    are ``None`` (with hand sizes and whether they have chosen). ``game`` is the game whose rules
    the view is read under (for ``legal_moves()`` and ``game.determinize(view, rng)``)."""

    player: int
    players: int
    round: int
    phase: str
    turn: int
    actor: int
    pending: str
    owed: int
    first: int
    to_act: tuple[int, ...]
    cells: tuple[Cell, ...]
    stacks: tuple[Building, ...]
    sites: tuple[int, ...]
    tokens: tuple[Cell | None, ...]
    reserve: tuple[int, ...]
    supply: tuple[int, ...]
    boxed: tuple[int, ...]
    sp: tuple[int | None, ...]
    tiles: tuple[tuple[int, ...] | None, ...]
    newhand: tuple[int, ...]
    used: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    selection: Select | None
    chosen: tuple[bool, ...]
    tableau: tuple[tuple[int, ...], ...]
    chars: tuple[tuple[int, ...] | None, ...]
    draft: tuple[int, ...]
    passed: tuple[int, ...]
    draw_size: int
    discard: tuple[int, ...]
    draws_left: int
    second_size: int
    given: tuple[int, ...]
    exhaustion: int
    contribute_due: bool
    ending: bool
    game: Any = attrs.field(default=None, kw_only=True, repr=False)

    def notation(self) -> str:
        from citybuild.games.urbanization.notation import view_text

        return view_text(self)

    def __str__(self) -> str:
        """For a person: the city as a grid, each player's items, the piles, then the notation."""
        from citybuild.games.urbanization.render import render

        return render(self)

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if no position could give this view (for views read from
        JSON). The shape is checked here; then, when the view knows its game, a position is drawn
        from it (``determinize``), which must pass every invariant of the game and give this very
        view back, so a view is held to the same invariants as a position, written once."""
        n = self.players
        if n not in (2, 3, 4, 5) or type(self.player) is not int or not 0 <= self.player < n:
            raise InvalidStateError(f"a {n}-player view cannot belong to player {self.player!r}", "URB-COMP-5")
        per_player = (self.reserve, self.supply, self.boxed, self.sp, self.tiles, self.newhand, self.used)
        if any(len(f) != n for f in (*per_player, self.hands, self.hand_sizes, self.chosen, self.tableau, self.chars)):
            raise InvalidStateError("every per-player field has one entry per player", "URB-COMP-5")
        for q in range(n):
            mine = q == self.player
            if (self.hands[q] is None) == mine or (self.tiles[q] is None) == mine or (self.sp[q] is None) == mine:
                raise InvalidStateError(
                    f"a view shows exactly its own player's hand, tiles and SP (P{self.player})", "URB-RAND-5"
                )
        own = self.hands[self.player]
        if own is None or len(own) != self.hand_sizes[self.player]:
            raise InvalidStateError("the viewer's hand disagrees with its size", "URB-COMP-5")
        if any(not 0 <= size <= HAND_SIZE for size in self.hand_sizes):
            raise InvalidStateError(f"a hand holds 0 to {HAND_SIZE} cards", "URB-ROUND-7")
        if any(v < 0 for v in (self.draw_size, self.second_size, self.draws_left, *self.given, *self.newhand)):
            raise InvalidStateError("pile sizes, gifts and tokens are never negative", "URB-COMP-5")
        if len(self.cells) != len(self.stacks) or len(set(self.cells)) != len(self.cells):
            raise InvalidStateError("one stack per city cell, each cell once", "URB-COMP-3")
        if len(self.tokens) != 12:
            raise InvalidStateError("there are 12 Urbanization tokens", "URB-COMP-2")
        tiles = sum(len(s) for s in self.stacks)
        if tiles > 60 or any(not 0 <= f.tile < 60 for s in self.stacks for f in s):
            raise InvalidStateError("the city holds at most the 60 tiles", "URB-COMP-1")
        if self.game is None:
            return  # a view read without its game: only its shape can be checked
        from citybuild.games.urbanization.decide import determinize

        try:
            position = determinize(self.game, self, random.Random(0))
        except InvalidStateError:
            raise
        except (ValueError, IndexError, KeyError) as exc:  # hidden parts that cannot be filled
            raise InvalidStateError(f"no position gives this view: {exc}", "URB-RAND-5") from exc
        position.validate()
        if view_of(position, self.player) != self:
            raise InvalidStateError("no position gives this view (its public counts disagree)", "URB-RAND-5")


def view_of(state: UrbanizationState, player: int) -> UrbanizationView:
    state.require_player(player)
    n = state.players
    drafting = state.phase == "draft"
    return UrbanizationView(
        player=player,
        players=n,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        actor=state.actor,
        pending=state.pending,
        owed=state.owed,
        first=state.first,
        to_act=state.to_act,
        cells=state.cells,
        stacks=state.stacks,
        sites=state.sites,
        tokens=state.tokens,
        reserve=state.reserve,
        supply=state.supply,
        boxed=state.boxed,
        sp=tuple(s if p == player else None for p, s in enumerate(state.sp)),
        tiles=tuple(t if p == player else None for p, t in enumerate(state.tiles)),
        newhand=state.newhand,
        used=state.used,
        hands=tuple(h if p == player else None for p, h in enumerate(state.hands)),
        hand_sizes=tuple(len(h) for h in state.hands),
        selection=state.selections[player],
        chosen=tuple(s is not None for s in state.selections),
        tableau=state.tableau,
        chars=tuple(c if p == player or not drafting else None for p, c in enumerate(state.chars)),
        draft=state.draft[player],
        passed=state.passed[player],
        draw_size=len(state.draw),
        discard=state.discard,
        draws_left=state.draws_left,
        second_size=len(state.second),
        given=state.given,
        exhaustion=state.exhaustion,
        contribute_due=state.contribute_due,
        ending=state.ending,
        game=state.game,
    )


def hidden_variants(state: UrbanizationState, player: int) -> tuple[UrbanizationState, ...]:
    """Positions that differ from ``state`` only in what ``player`` cannot see (DESIGN principle
    6): for each other player, a card of their hand exchanged with one of the draw pile, a tile of
    their supply with one of the stack, one SP more, their secret selection exchanged with a card
    of their hand, and during the draft a kept character exchanged with one in the box."""
    out: list[UrbanizationState] = []
    stack = state.stack if state.exhaustion == 0 else state.second
    for q in range(state.players):
        if q == player:
            continue
        hand, draw = state.hands[q], state.draw
        swap = next(((a, b) for a in hand for b in draw if a != b), None)
        if swap is not None:
            a, b = swap
            out.append(
                replace(
                    state, hands=_put(state.hands, q, _insert(_remove(hand, a), b)), draw=_insert(_remove(draw, b), a)
                )
            )
        tiles = state.tiles[q]
        pair = next(((a, b) for a in tiles for b in stack if a != b), None)
        if pair is not None:
            a, b = pair
            new_tiles = _put(state.tiles, q, _insert(_remove(tiles, a), b))
            if state.exhaustion == 0:
                out.append(replace(state, tiles=new_tiles, stack=_insert(_remove(stack, b), a)))
            else:
                out.append(replace(state, tiles=new_tiles, second=_insert(_remove(stack, b), a)))
        out.append(replace(state, sp=_add(state.sp, q, 1)))
        chosen = state.selections[q]
        if chosen is not None and hand:
            other = hand[0]
            tiles_back = _put(state.tiles, q, _insert(tiles, chosen.tile)) if chosen.tile is not None else state.tiles
            out.append(
                replace(
                    state,
                    selections=_put(state.selections, q, Select(other)),
                    hands=_put(state.hands, q, _insert(_remove(hand, other), chosen.card)),
                    tiles=tiles_back,
                )
            )
        if state.phase == "draft" and state.chars[q]:
            kept = state.chars[q][0]
            boxed = next((k for k in range(9) if state.pool[k] and k != kept), None)
            if boxed is not None:
                chars = _put(state.chars, q, _insert(_remove(state.chars[q], kept), boxed))
                pool = _add(_add(state.pool, kept, 1), boxed, -1)
                out.append(replace(state, chars=chars, pool=pool))
    return tuple(out)
