"""Buildings made of pieces: unfinished columns that complete into tiles scoring height squared.

A player's skyline holds both kinds, each with an integer id that is unique in that skyline and
never reused, so a move can name a building stably while others are completed or removed.
Pieces are named by kind (e.g. a die type); the colour is the building's.
"""

from __future__ import annotations

import attrs

from citybuild.core.scoring import squares_of_heights


@attrs.frozen(slots=True)
class Column:
    """An unfinished building: its pieces bottom to top, all in the building's colour."""

    id: int
    colour: str
    pieces: tuple[str, ...]

    @property
    def height(self) -> int:
        return len(self.pieces)

    def add(self, piece: str) -> Column:
        """The column with ``piece`` on top (pieces go only on top: no inserting or reordering)."""
        return Column(self.id, self.colour, (*self.pieces, piece))


@attrs.frozen(slots=True)
class Tile:
    """A completed building: it can no longer change, and scores the square of its height."""

    id: int
    colour: str
    height: int

    @property
    def points(self) -> int:
        return squares_of_heights((self.height,))


Building = Column | Tile


@attrs.frozen(slots=True)
class Skyline:
    """One player's buildings, in id order, and the id the next new building will get."""

    buildings: tuple[Building, ...] = ()
    next_id: int = 1

    def get(self, building_id: int) -> Building | None:
        for building in self.buildings:
            if building.id == building_id:
                return building
        return None

    @property
    def columns(self) -> tuple[Column, ...]:
        return tuple(b for b in self.buildings if isinstance(b, Column))

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(b for b in self.buildings if isinstance(b, Tile))

    @property
    def points(self) -> int:
        """Sum of height squared over the completed buildings."""
        return squares_of_heights(b.height for b in self.buildings if isinstance(b, Tile))

    def start(self, colour: str, piece: str) -> Skyline:
        """A new one-piece column, with the next id."""
        return Skyline((*self.buildings, Column(self.next_id, colour, (piece,))), self.next_id + 1)

    def put(self, building: Building) -> Skyline:
        """Replace the building with the same id (e.g. a column by its extension or by its tile)."""
        return Skyline(tuple(building if b.id == building.id else b for b in self.buildings), self.next_id)

    def remove(self, building_id: int) -> Skyline:
        return Skyline(tuple(b for b in self.buildings if b.id != building_id), self.next_id)
