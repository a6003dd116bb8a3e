"""What one Urbanization player may know (URB-RAND-5), as declared on ``UrbanizationPosition``.

Public: the city (stacks, owners, resources, Construction Sites, tokens), tableaus, New Hand
tokens, the discard pile, reserves and supplies of resources, hand sizes, who has chosen, how many
tiles each player gave, how many tiles are left to draw. Hidden: other players' hands, selections
(until revealed, when they resolve), tiles and SP behind their screens, kept characters during the
draft, other draft hands and the box, and the order and content of the draw pile and of the stacks.
A view also holds what its player saw: the cards they passed at the last pass.
"""

from __future__ import annotations

from citybuild.core import position
from citybuild.core.errors import InvalidStateError
from citybuild.core.position import PositionView
from citybuild.core.svg import Pictured
from citybuild.games.urbanization.position import UrbanizationPosition
from citybuild.games.urbanization.rules import HAND_SIZE


class UrbanizationView(PositionView, Pictured, position=UrbanizationPosition):
    """A player's view: public facts, and the viewer's own hand, tiles, SP and selection; others'
    are ``None`` (with hand sizes and whether they have chosen). ``game`` is the game whose rules
    the view is read under (for ``legal_moves()`` and ``game.determinize(view, rng)``)."""

    @property
    def players(self) -> int:
        """How many play (one hand size per player)."""
        return len(self.hand_sizes)

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
        if any(len(f) != n for f in (*per_player, self.hands, self.chosen, self.tableau, self.chars)):
            raise InvalidStateError("every per-player field has one entry per player", "URB-COMP-5")
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
        position.check_view(self, "URB-RAND-5")
