"""Towers (core.tower): a stack of pieces, owned by its top piece, floors per owner; for Manhattan's
player pieces and for any piece type with an owner and a size, such as Urbanization's tiles."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from citybuild.core import tower
from citybuild.core.tower import Piece


class Tile(NamedTuple):
    """An Urbanization-like building tile: one storey, a tile colour and number, and the player
    who placed it (None for a starting tile nobody owns)."""

    colour: str
    number: int
    owner: int | None

    @property
    def size(self) -> int:
        return 1


def test_a_manhattan_tower_is_owned_by_its_top_piece() -> None:
    t: tower.Tower = (Piece(0, 1), Piece(1, 3), Piece(0, 2))
    assert tower.height(t) == 6 and tower.owner(t) == 0 and tower.owner(()) is None
    assert tower.floors_by_owner(t) == {0: 3, 1: 3} and tower.floors_by_owner(()) == {}
    assert t[1].owner == t[1].colour == 1  # a player piece's owner is its colour


def test_a_tile_stack_reads_the_same_way() -> None:
    """URB-COMP-3: height = number of tiles, the top tile gives the colour and number; the owner is
    whoever placed the top tile (URB-CONSTRUCT-1 step 5), nobody on an unowned starting tile."""
    start: tuple[Tile, ...] = (Tile("B", 2, None),)
    assert tower.height(start) == 1 and tower.owner(start) is None
    built = (*start, Tile("B", 7, 1), Tile("B", 12, 0))
    assert tower.height(built) == 3 and tower.owner(built) == 0
    assert (built[-1].colour, built[-1].number) == ("B", 12)
    assert tower.floors_by_owner(built) == {None: 1, 1: 1, 0: 1}


pieces = st.builds(Piece, st.integers(0, 3), st.integers(1, 4))


@given(st.lists(pieces, max_size=12))
def test_floors_per_owner_add_up_to_the_height_and_the_top_owns(stack: list[Piece]) -> None:
    t = tuple(stack)
    floors = tower.floors_by_owner(t)
    assert sum(floors.values()) == tower.height(t) == sum(p.size for p in t)
    assert tower.owner(t) == (t[-1].colour if t else None)
    assert all(floors[p.colour] >= p.size for p in t)
    assert list(floors) == list(dict.fromkeys(p.colour for p in t))  # owners by their lowest piece
