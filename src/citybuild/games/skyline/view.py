"""What one Skyline player may know: everything. Skyline has no hidden information (no hands, no
face-down tiles, and rolls are public), so every field of its position is public and a view is
the whole position plus who is looking."""

from __future__ import annotations

from citybuild.core import position
from citybuild.core.position import PositionView
from citybuild.core.svg import Pictured
from citybuild.games.skyline.position import SkylinePosition


class SkylineView(PositionView, Pictured, position=SkylinePosition):
    """A player's view: every fact of the position (nothing is hidden), the viewer's seat and the
    game whose rules it is read under."""

    def notation(self) -> str:
        """The position notation with ``@P<viewer>`` after the header."""
        from citybuild.games.skyline.notation import view_text

        return view_text(self)

    def __str__(self) -> str:
        return self.notation()

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if no position could give this view (for views read from
        JSON). A view that names its game shows a whole position, held to every invariant of those
        rules; without its game, to the invariants that hold under every option."""
        if self.game is not None:
            position.check_view(self, "SKY-COMP-1")
            return
        from citybuild.games.skyline.invariants import validate_view

        validate_view(self)
