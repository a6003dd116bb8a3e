"""What one Skyline player may know: everything. Skyline has no hidden information (no hands, no
face-down tiles, and rolls are public), so a view is the whole position plus who is looking."""

from __future__ import annotations

from typing import Any

import attrs

from citybuild.core.svg import Pictured
from citybuild.core.view import View
from citybuild.games.skyline.building import Skyline
from citybuild.games.skyline.moves import Die
from citybuild.games.skyline.state import Counts, SkylineState


@attrs.frozen
class SkylineView(View, Pictured):
    """A player's view: every fact of the position (nothing is hidden), the viewer's seat and the
    game whose rules it is read under."""

    player: int
    round: int
    turn: int
    phase: str
    to_act: tuple[int, ...]
    yard: Counts
    district: Counts
    active: tuple[Die, ...]
    skylines: tuple[Skyline, ...]
    rolling: Counts
    trigger: bool
    short: tuple[int, ...]
    game: Any = attrs.field(default=None, kw_only=True, repr=False)

    def notation(self) -> str:
        """The position notation with ``@P<viewer>`` after the header."""
        from citybuild.games.skyline.notation import view_text

        return view_text(self)

    def __str__(self) -> str:
        return self.notation()

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if no position could give this view (for views read from
        JSON): the invariants of a position that hold under every option, on what the view shows."""
        from citybuild.games.skyline.invariants import validate_view

        validate_view(self)


def view_of(state: SkylineState, player: int) -> SkylineView:
    state.require_player(player)  # a seat: an int (not a bool or float) from 0 to players - 1
    return SkylineView(
        player=player,
        round=state.round,
        turn=state.turn,
        phase=state.phase,
        to_act=state.to_act,
        yard=state.yard,
        district=state.district,
        active=state.active,
        skylines=state.skylines,
        rolling=state.rolling,
        trigger=state.trigger,
        short=state.short,
        game=state.game,
    )
