"""The city (URB-COMP-3): which building a card designates, its neighbours, and where a token may
go when an Urbanize covers its cell (URB-URBANIZE-3)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from citybuild.core.board import orthogonal
from citybuild.core.tuples import replaced
from citybuild.games.urbanization.parts import EnginePart
from citybuild.games.urbanization.position import Building, Cell


def neighbours(cells: tuple[Cell, ...], stacks: tuple[Building, ...], cell: Cell) -> Iterator[Building]:
    """The buildings orthogonally next to ``cell``: those an Urbanize there utilizes (URB-URBANIZE-4)."""
    for near in orthogonal(cell):
        if near in cells:
            yield stacks[cells.index(near)]


class City(EnginePart):
    """The city's questions, and the move of a token."""

    def building_of(self, card: int) -> int:
        """The index of the building whose top tile is ``card``'s (URB-COMP-3), or -1."""
        for i, stack in enumerate(self.stacks):
            if stack[-1].tile == card:
                return i
        return -1

    def destinations(self) -> tuple[Cell, ...]:
        """URB-URBANIZE-3: where the token on the newest building may go (() : it leaves the game)."""
        cells, tokens = self.cells, self.tokens
        here = cells[-1]
        empty = tuple(c for c in orthogonal(here) if c not in cells and c not in tokens)
        if empty and self.game.rules.token_move_keeps_alphabetical_order:
            kept = tuple(c for c in empty if self._keeps_order(here, c))
            empty = kept or empty
        if not empty and self.game.rules.token_no_space == "any_cell_adjacent_to_city":
            built = set(cells)
            empty = tuple(sorted({c for cell in cells for c in orthogonal(cell) if c not in built and c not in tokens}))
        return empty

    def _keeps_order(self, here: Cell, there: Cell) -> bool:
        """Whether the tokens, with the one on ``here`` moved to ``there``, still read A..L in cyclic
        order clockwise around the city (by angle about the centre of the buildings)."""
        cells = self.cells
        cx = sum(x for x, _ in cells) / len(cells)
        cy = sum(y for _, y in cells) / len(cells)
        placed = []
        for letter, cell in enumerate(self.tokens):
            if cell is None:
                continue
            if cell == here:
                cell = there
            x, y = cell[0] - cx, cell[1] - cy
            clockwise = (math.atan2(x, y)) % (2 * math.pi)  # 0 straight up, growing clockwise
            placed.append((clockwise, x * x + y * y, letter))
        order = [letter for _, _, letter in sorted(placed)]
        if len(order) < 3:
            return True
        start = order.index(min(order))
        rotated = order[start:] + order[:start]
        return rotated == sorted(rotated)

    def move_token(self, cell: Cell | None) -> None:
        """URB-URBANIZE-3: the token on the newest building goes to ``cell`` (None: out of the game)."""
        letter = self.tokens.index(self.cells[-1])
        self.tokens = replaced(self.tokens, letter, cell)
