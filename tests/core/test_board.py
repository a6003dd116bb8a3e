"""Boards (core.board): cells with coordinates, orthogonal adjacency as a networkx graph, regions;
Manhattan's six 3x3 cities and an unbounded grid that grows as cells are built."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.board import Board, orthogonal
from citybuild.games.manhattan.rules import BOARD, CITIES, LOT_NAMES, ROT, rotate_quarter


def test_manhattan_cities_are_the_regions_of_six_blocks() -> None:
    """MAN-COMP-1: 54 lots, six cities of 3x3, lot k of city c at c * 9 + k; no lot of one city
    touches another city, so the cities are exactly the board's connected components."""
    assert len(BOARD) == 54 and BOARD.graph.number_of_edges() == 6 * 12
    assert tuple(tuple(range(9 * c, 9 * c + 9)) for c in range(6)) == CITIES
    assert BOARD.region_of == tuple(i // 9 for i in range(54))
    assert BOARD.neighbours(9 + 4) == (10, 12, 14, 16)  # the middle lot of Manhattan
    assert BOARD.neighbours(9 + 2) == (10, 14)  # a corner: lots 1 and 5 of the same city only
    assert LOT_NAMES[:3] == ("Syd0", "Syd1", "Syd2") and LOT_NAMES[13] == "Man4" and LOT_NAMES[-1] == "Cai8"


def test_rotation_matches_the_manhattan_table() -> None:
    for side in range(4):  # MAN-CARD-1: ROT is one clockwise quarter-turn per side
        assert tuple(rotate_quarter(k, side) for k in range(9)) == ROT[side]
    assert rotate_quarter(0, 1, size=4) == 3 and rotate_quarter(5, 4, size=4) == 5


def test_a_rectangle_is_networkx_grid_graph() -> None:
    board = Board.rectangle(4, 3)
    assert board.cells[:5] == ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)) and board.index((1, 2)) == 9
    grid = nx.grid_2d_graph(4, 3)  # nodes (x, y), like the board's cells
    relabelled = nx.relabel_nodes(board.graph, dict(enumerate(board.cells)))
    assert set(relabelled.nodes) == set(grid.nodes)
    assert {frozenset(e) for e in relabelled.edges} == {frozenset(e) for e in grid.edges}
    assert len(board.regions) == 1 and nx.is_frozen(board.graph)


def test_an_unbounded_grid_grows_as_cells_are_built() -> None:
    """URB-COMP-3 and URB-URBANIZE-2/3: the city is any set of integer cells; a new building goes
    next to it; its empty neighbours are where a token may move."""
    city = Board((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1))
    assert len(city.regions) == 1 and city.index((0, 0)) == 4
    tokens = [(-1, 2), (0, 2), (1, 2), (2, 1), (2, 0), (2, -1), (1, -2), (0, -2), (-1, -2), (-2, -1), (-2, 0), (-2, 1)]
    assert city.frontier() == tuple(sorted(tokens))  # URB-SETUP-2: the twelve token cells
    grown = city.with_cells((2, 1))
    assert grown.cells[:9] == city.cells and grown.index((2, 1)) == 9 and city.index((0, 0)) == 4
    assert grown.neighbours(9) == (city.index((1, 1)),)
    assert grown.open_neighbours(9) == ((2, 2), (3, 1), (2, 0))
    far = grown.with_cells((-1000, 7))
    assert len(far.regions) == 2 and far.region_of[-1] == 1 and (-1000, 7) in far and (5, 5) not in far
    assert orthogonal((0, 0)) == ((0, 1), (1, 0), (0, -1), (-1, 0))


def test_a_board_is_a_value() -> None:
    a, b = Board([(0, 0), (1, 0)]), Board([(0, 0), (1, 0)])
    assert a == b and hash(a) == hash(b) and a != Board([(1, 0), (0, 0)]) and list(a) == [(0, 0), (1, 0)]
    assert repr(a) == "Board([(0, 0), (1, 0)])"
    with pytest.raises(nx.NetworkXError):
        a.graph.add_edge(0, 5)  # frozen: a shared board cannot be changed behind its regions' back


@pytest.mark.parametrize("cells", [[(0, 0), (0, 0)], [(0, 0.5)], [(True, 0)], [(1, 2, 3)], ["a1"]])
def test_bad_cells_are_refused(cells: list[object]) -> None:
    with pytest.raises(cb.InvalidStateError):
        Board(cells)  # type: ignore[arg-type]


@settings(max_examples=60)
@given(st.sets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), max_size=40))
def test_regions_are_networkx_components_of_the_grid(cells: set[tuple[int, int]]) -> None:
    board = Board(sorted(cells))
    grid = nx.Graph()
    grid.add_nodes_from(cells)
    grid.add_edges_from((c, n) for c in cells for n in orthogonal(c) if n in cells)
    components = {frozenset(c) for c in nx.connected_components(grid)}
    assert {frozenset(board.cells[i] for i in region) for region in board.regions} == components
    assert [r[0] for r in board.regions] == sorted(r[0] for r in board.regions)
    for i, cell in enumerate(board.cells):
        assert i in board.regions[board.region_of[i]]
        assert {board.cells[j] for j in board.neighbours(i)} == set(grid.adj[cell])
        assert set(board.open_neighbours(i)) == set(orthogonal(cell)) - cells
    assert set(board.frontier()) == {n for c in cells for n in orthogonal(c)} - cells
