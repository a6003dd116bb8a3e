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
        JSON): with its game, a position drawn from it must pass every invariant of those rules and
        give this very view back; without, what a view shows under every option must hold.

        The option-free checks (``validate_view``) hold for the view of every valid position, so
        they can refuse only a view the full check refuses too: they run when it does (first, as
        if they had run before it, so that a refusal names the rule the view breaks), not twice."""
        from citybuild.games.manhattan.invariants import validate_view

        if self.game is None:
            validate_view(self)
            position.check_view(self, "MAN-SETUP-1")
            return
        try:
            position.check_view(self, "MAN-SETUP-1")
            return
        except Exception as exc:  # whatever the full check trips over, the option-free checks speak first
            refusal = exc
        validate_view(self)
        raise refusal

    def __str__(self) -> str:
        return self.notation()
