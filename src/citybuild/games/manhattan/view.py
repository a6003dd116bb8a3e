"""What one Manhattan player may know: everything but other players' hands and the make-up of the
draw pile (their sizes are shown) and, under hidden selection, other players' choices until
everyone has chosen. The fields and who sees them are declared once, on ``ManhattanPosition``."""

from __future__ import annotations

from citybuild.core import position
from citybuild.core.position import PositionView
from citybuild.core.svg import Pictured
from citybuild.games.manhattan.position import ManhattanPosition


class ManhattanView(PositionView, Pictured, position=ManhattanPosition):
    """A player's view. Other hands are ``None`` (with their sizes in ``hand_sizes``), the draw
    pile shows only ``draw_size``. ``game`` is the game whose rules the view is read under (so
    that ``legal_moves()`` and ``game.determinize(view, rng)`` know them)."""

    def notation(self) -> str:
        from citybuild.games.manhattan.notation import view_text

        return view_text(self)

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if no position could give this view (for views read from
        JSON): what a view shows under every option, then, with its game, a position drawn from it
        that must pass every invariant of those rules and give this very view back."""
        from citybuild.games.manhattan.invariants import validate_view

        validate_view(self)  # first, so that a refusal names the rule the view breaks
        position.check_view(self, "MAN-SETUP-1")

    def __str__(self) -> str:
        return self.notation()
