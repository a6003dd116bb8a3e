"""Manhattan views as 643 numbers (observation tensors), read from the view alone.

In order: the viewer (4, one-hot), the round, the phase (6, one-hot: deal select build draw
redraw over), the seat whose turn it is (4), the seats to act (4); per lot, city by city (54):
its floors, its pieces, the colour on top (4, one-hot) and the floors of each colour (4); the
viewer's hand (9 counts per lot index), every hand's size (4), the draw pile's size, the discard
pile (9); per colour (4): its supply (4 counts per size), its selected unplaced pieces (4 counts,
then 1 if hidden, 1 if none chosen) and its box (4); the points (4) and the redraws so far.
Seats and colours beyond the game's are zeros.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.encoding import Encoder
from citybuild.games.manhattan.engine import PHASES
from citybuild.games.manhattan.takeover import floors_of

SIZE = 4 + 1 + 6 + 4 + 4 + 54 * 10 + 9 + 4 + 1 + 9 + 4 * (4 + 6 + 4) + 4 + 1


class ManhattanEncoder(Encoder):
    """A Manhattan view as ``SIZE`` numbers."""

    @property
    def size(self) -> int:
        return SIZE

    def encode(self, view: Any) -> Sequence[float]:
        out = [0.0] * SIZE
        out[view.player] = 1.0
        out[4] = view.round
        out[5 + PHASES.index(view.phase)] = 1.0
        out[11 + view.turn] = 1.0
        for p in view.to_act:
            out[15 + p] = 1.0
        i = 19
        for tower in view.towers:
            if tower:
                floors = floors_of(tower)
                out[i] = sum(floors.values())
                out[i + 1] = len(tower)
                out[i + 2 + tower[-1].owner] = 1.0
                for colour, count in floors.items():
                    out[i + 6 + colour] = count
            i += 10
        hand = view.hands[view.player]
        out[i : i + 9] = hand
        i += 9
        out[i : i + len(view.hand_sizes)] = view.hand_sizes
        i += 4
        out[i] = view.draw_size
        out[i + 1 : i + 10] = view.discard
        i += 10
        for colour in range(len(view.supply)):
            out[i : i + 4] = view.supply[colour]
            chosen = view.chosen[colour]
            if chosen == "?":
                out[i + 8] = 1.0
            elif chosen is None:
                out[i + 9] = 1.0
            else:
                out[i + 4 : i + 8] = chosen
            out[i + 10 : i + 14] = view.box[colour]
            i += 14
        i = SIZE - 5
        out[i : i + len(view.points)] = view.points
        out[SIZE - 1] = view.redraws
        return out
