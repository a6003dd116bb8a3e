"""Boards: cells at integer coordinates, their orthogonal adjacency as a networkx graph, and regions.

A ``Board`` is a frozen value. Its cells come in a fixed order and a cell's index is its place in
that order, so a game keeps what stands on each cell in a tuple indexed the same way (Manhattan's
towers). The adjacency graph has the indices as nodes (each with its ``cell`` coordinates) and an
edge between cells one step apart horizontally or vertically; a **region** is a connected
component of it. One class describes both kinds of board the games use:

- a fixed layout: Manhattan's six 3x3 cities are ``Board.blocks(6, 3)``, six squares set apart so
  that each city is one region, lot ``k`` of city ``c`` at index ``c * 9 + k``;
- an unbounded grid that grows as cells are built (Urbanization's city): any integer coordinates,
  ``board.with_cells(...)`` gives the board with more cells, the old indices unchanged.

Coordinates are ``(x, y)`` pairs; only the four orthogonal neighbours count, so whether y grows up
or down is the game's convention. Building a board runs networkx once; games that read regions
often build their board once, at import.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import networkx as nx

from citybuild.core.errors import InvalidStateError

Cell = tuple[int, int]


def orthogonal(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells next to ``cell``, clockwise from (x, y + 1), on an unbounded grid."""
    x, y = cell
    return ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))


class Board:
    """Cells at integer coordinates, their orthogonal adjacency (a frozen networkx graph over the
    cell indices) and its regions, computed once when the board is made."""

    __slots__ = ("_index", "cells", "graph", "region_of", "regions")

    cells: tuple[Cell, ...]
    """The cells in index order."""
    graph: nx.Graph
    """Orthogonal adjacency over the indices; each node carries its ``cell``. Frozen."""
    regions: tuple[tuple[int, ...], ...]
    """Connected components, each as sorted indices, in order of their smallest index."""
    region_of: tuple[int, ...]
    """The region (position in ``regions``) of each index."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        cells = tuple(cells)
        index: dict[Cell, int] = {}
        for i, cell in enumerate(cells):
            if not (type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int):
                raise InvalidStateError(f"a board cell is a pair of integers (x, y), not {cell!r}")
            if cell in index:
                raise InvalidStateError(f"cell {cell} appears twice on the board")
            index[cell] = i
        graph = nx.Graph()
        graph.add_nodes_from((i, {"cell": cell}) for i, cell in enumerate(cells))
        for i, (x, y) in enumerate(cells):
            for step in ((x + 1, y), (x, y + 1)):
                j = index.get(step)
                if j is not None:
                    graph.add_edge(i, j)
        regions = sorted(tuple(sorted(component)) for component in nx.connected_components(graph))
        region_of = [0] * len(cells)
        for r, members in enumerate(regions):
            for i in members:
                region_of[i] = r
        self._index = index
        self.cells = cells
        self.graph = nx.freeze(graph)
        self.regions = tuple(regions)
        self.region_of = tuple(region_of)

    @classmethod
    def rectangle(cls, width: int, height: int) -> Board:
        """A ``width`` x ``height`` grid, cells row by row from (0, 0): index ``y * width + x``."""
        return cls((x, y) for y in range(height) for x in range(width))

    @classmethod
    def blocks(cls, count: int, size: int) -> Board:
        """``count`` squares of ``size`` x ``size`` cells side by side, one empty column apart, so
        that each square is one region: cell (row, col) of square ``b`` is at
        ``(b * (size + 1) + col, row)`` and has index ``b * size * size + row * size + col``."""
        return cls((b * (size + 1) + col, row) for b in range(count) for row in range(size) for col in range(size))

    def with_cells(self, *cells: Cell) -> Board:
        """This board with more cells (an unbounded grid growing): old cells keep their indices."""
        return Board(self.cells + cells)

    def index(self, cell: Cell) -> int:
        """The index of ``cell``; raises ``KeyError`` if it is not on the board."""
        return self._index[cell]

    def neighbours(self, index: int) -> tuple[int, ...]:
        """The indices of the cells next to cell ``index`` on this board, in increasing order."""
        return tuple(sorted(self.graph.adj[index]))

    def open_neighbours(self, index: int) -> tuple[Cell, ...]:
        """The cells next to cell ``index`` that are not on the board (yet), clockwise from above."""
        return tuple(c for c in orthogonal(self.cells[index]) if c not in self._index)

    def frontier(self) -> tuple[Cell, ...]:
        """Every cell off the board next to a cell on it, sorted: where an unbounded grid can grow."""
        return tuple(sorted({c for cell in self.cells for c in orthogonal(cell) if c not in self._index}))

    def __contains__(self, cell: object) -> bool:
        return cell in self._index

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __repr__(self) -> str:
        return f"Board({list(self.cells)!r})"
