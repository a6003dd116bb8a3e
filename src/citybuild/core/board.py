"""Boards made of grids of lots, with their adjacency as networkx graphs."""

from __future__ import annotations

from typing import NamedTuple

import networkx as nx


class Lot(NamedTuple):
    """A lot on a board of several square grids: which grid (city) and which cell."""

    city: int
    lot: int


def grid_index(row: int, col: int, size: int = 3) -> int:
    return size * row + col


def grid_coords(index: int, size: int = 3) -> tuple[int, int]:
    return divmod(index, size)


def grid_graph(size: int = 3) -> nx.Graph:
    """Orthogonal adjacency of a size x size grid, nodes numbered row by row."""
    graph = nx.Graph()
    graph.add_nodes_from(range(size * size))
    for row in range(size):
        for col in range(size):
            here = grid_index(row, col, size)
            if col + 1 < size:
                graph.add_edge(here, grid_index(row, col + 1, size))
            if row + 1 < size:
                graph.add_edge(here, grid_index(row + 1, col, size))
    return graph


def rotate_quarter(index: int, quarters: int, size: int = 3) -> int:
    """The cell a card cell lands on after ``quarters`` clockwise quarter-turns: (r, c) -> (c, size-1-r)."""
    row, col = grid_coords(index, size)
    for _ in range(quarters % 4):
        row, col = col, size - 1 - row
    return grid_index(row, col, size)
