"""What one Skyline player may know: everything. Skyline has no hidden information (no hands, no
face-down tiles, and rolls are public), so a view is the whole position plus who is looking."""

from __future__ import annotations

import attrs

from citybuild.core.errors import InvalidStateError
from citybuild.games.skyline.building import Skyline
from citybuild.games.skyline.moves import Die
from citybuild.games.skyline.rules import DICE_TOTAL, MAX_HEIGHT, PLAYER_COUNTS, TYPES
from citybuild.games.skyline.state import Counts, SkylineState


@attrs.frozen
class SkylineView:
    """A player's view: every fact of the position (nothing is hidden) and the viewer's seat."""

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

    def notation(self) -> str:
        """The position notation with ``@P<viewer>`` after the header."""
        from citybuild.games.skyline.notation import view_text

        return view_text(self)

    def __str__(self) -> str:
        return self.notation()

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if this view could not come from a real position (for views
        read from JSON). A view does not carry the game's options, so this checks what holds under
        every option: seats, field shapes, and the 60 dice (SKY-COMP-2)."""
        n = len(self.skylines)
        if n not in PLAYER_COUNTS or type(self.player) is not int or not 0 <= self.player < n:
            raise InvalidStateError(f"a view of {n} skylines cannot belong to player {self.player!r}", "SKY-COMP-1")
        if type(self.turn) is not int or not 0 <= self.turn < n or type(self.round) is not int or self.round < 1:
            raise InvalidStateError(f"turn {self.turn!r} / round {self.round!r} out of range", "SKY-TURN-1")
        if len(self.short) != MAX_HEIGHT or any(type(c) is not int or c < 0 for c in self.short):
            raise InvalidStateError("short holds 6 counts of 0 or more", "SKY-COMP-5")
        zones = (self.yard, self.district, self.rolling)
        if any(len(z) != 3 or any(type(c) is not int or c < 0 for c in z) for z in zones):
            raise InvalidStateError("yard, district and rolling are 3 counts (GF, UF, PH) of 0 or more", "SKY-COMP-6")
        total = [sum(z[i] for z in zones) for i in range(3)]
        for die in self.active:
            if not (isinstance(die, tuple) and len(die) == 2 and die[0] in TYPES):
                raise InvalidStateError(f"active die {die!r} is not a (type, face) pair", "SKY-TURN-8")
            total[TYPES.index(die[0])] += 1
        for skyline in self.skylines:
            for building in skyline.buildings:
                for floor in getattr(building, "pieces", ()):
                    if floor not in TYPES:
                        raise InvalidStateError(f"a building floor {floor!r} is not a die type", "SKY-COMP-2")
                    total[TYPES.index(floor)] += 1
        if tuple(total) != DICE_TOTAL:
            raise InvalidStateError(f"the view holds {tuple(total)} dice (GF, UF, PH), not {DICE_TOTAL}", "SKY-COMP-2")


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
    )
