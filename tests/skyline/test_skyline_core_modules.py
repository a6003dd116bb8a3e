"""Skyline's buildings: unfinished columns and completed tiles, with stable ids."""

from __future__ import annotations

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
