"""The core modules added for Skyline, usable by any game: buildings made of pieces and multisets."""

from __future__ import annotations

from itertools import product

from citybuild.core.multiset import bounded_compositions
from citybuild.games.skyline.building import Column, Skyline, Tile


# SKY-COMP-6, SKY-BUILD-5, SKY-SCORE-3 in generic form
def test_skyline_ids_columns_and_tiles() -> None:
    sky = Skyline().start("O", "GF").start("B", "GF")
    assert [b.id for b in sky.buildings] == [1, 2] and sky.next_id == 3
    column = sky.get(1)
    assert isinstance(column, Column) and column.add("UF").height == 2
    sky = sky.put(Tile(1, "O", 3)).remove(2)
    assert sky.tiles == (Tile(1, "O", 3),) and sky.columns == () and sky.points == 9
    assert sky.start("P", "GF").buildings[-1].id == 3  # ids are never reused
    assert sky.get(2) is None


def test_bounded_compositions_order_and_totals() -> None:
    every = list(bounded_compositions([2, 1]))
    assert every == [(2, 1), (2, 0), (1, 1), (1, 0), (0, 1), (0, 0)]
    assert sorted(every) == sorted(product(range(3), range(2)))
    assert len(list(bounded_compositions([3, 3, 3], 3))) == 10  # multisets of 3 from 3 kinds
    sized = list(bounded_compositions([1, 0, 2], 2))
    assert sized == [(1, 0, 1), (0, 0, 2)]
    assert list(bounded_compositions([1], 5)) == []
