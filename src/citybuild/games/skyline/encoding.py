"""Skyline views as 452 numbers (observation tensors), read from the view alone.

In order: the viewer (4, one-hot), the round, the seat whose turn it is (4), the phase (5,
one-hot: take roll resolve continue over), the seats to act (4); the yard and the district (3
counts per type each), the active dice (12 counts per die, types GF UF PH by faces P B O X), the
dice being rolled (3), the end trigger, the tileless completed buildings per height (6); per seat
(4): its points, and per colour (P B O) its unfinished buildings per height 1-5 and its tiles
per height 1-6; then the viewer's own buildings by position (the positions the action numbering
names), the first 30: present, completed, colour (3, one-hot), height and its floors per die type
(3). Seats beyond the game's are zeros.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.encoding import Encoder
from citybuild.games.skyline.building import Tile
from citybuild.games.skyline.moves import SLOT
from citybuild.games.skyline.position import PHASES
from citybuild.games.skyline.rules import COLOURS, TYPES

SHOWN_BUILDINGS = 30
SEAT = 1 + 3 * 11
SIZE = 4 + 1 + 4 + 5 + 4 + 3 + 3 + 12 + 3 + 1 + 6 + 4 * SEAT + SHOWN_BUILDINGS * 9


class SkylineEncoder(Encoder):
    """A Skyline view as ``SIZE`` numbers."""

    @property
    def size(self) -> int:
        return SIZE

    def encode(self, view: Any) -> Sequence[float]:
        out = [0.0] * SIZE
        out[view.player] = 1.0
        out[4] = view.round
        out[5 + view.turn] = 1.0
        out[9 + PHASES.index(view.phase)] = 1.0
        for p in view.to_act:
            out[14 + p] = 1.0
        out[18:21] = view.yard
        out[21:24] = view.district
        for die in view.active:
            out[24 + SLOT[die]] += 1.0
        out[36:39] = view.rolling
        out[39] = float(view.trigger)
        out[40:46] = view.short
        i = 46
        for skyline in view.skylines:
            out[i] = skyline.points
            for b in skyline.buildings:
                base = i + 1 + 11 * COLOURS.index(b.colour)
                if isinstance(b, Tile):
                    out[base + 5 + b.height - 1] += 1.0
                else:
                    out[base + b.height - 1] += 1.0
            i += SEAT
        i = 46 + 4 * SEAT
        for b in view.skylines[view.player].buildings[:SHOWN_BUILDINGS]:
            out[i] = 1.0
            out[i + 2 + COLOURS.index(b.colour)] = 1.0
            if isinstance(b, Tile):
                out[i + 1] = 1.0
                out[i + 5] = b.height
            else:
                out[i + 5] = b.height
                for t, kind in enumerate(TYPES):
                    out[i + 6 + t] = b.pieces.count(kind)
            i += 9
        return out
