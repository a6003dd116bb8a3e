"""Manhattan's picture seen from a seat's side is the whole board turned: the six cities' places
as well as the lots in each, so the picture is the board as that seat sees it (MAN-SETUP-2,
MAN-CARD-1: a player at side q sees the board turned q quarter-turns from the South's view)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import citybuild as cb
from citybuild.core.svg import picture
from citybuild.games.manhattan.picture import side_of_seat
from citybuild.games.manhattan.rules import LOT_NAMES, NEED, ROT

NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]


def lot_centres(svg: str) -> dict[str, Point]:
    """Each lot's centre in the picture, by its name (``Syd4``)."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{NS}g"):
        if g.get("class") == "lot":
            x, y, w, h = (float(v) for v in (g.get("data-box") or "").split())
            out[g.get("data-lot") or ""] = (x + w / 2, y + h / 2)
    assert sorted(out) == sorted(LOT_NAMES)
    return out


def from_centre(points: dict[str, Point]) -> dict[str, Point]:
    cx = sum(x for x, _ in points.values()) / len(points)
    cy = sum(y for _, y in points.values()) / len(points)
    return {name: (x - cx, y - cy) for name, (x, y) in points.items()}


def quarter_anticlockwise(point: Point, quarters: int) -> Point:
    """A point (screen coordinates, y downwards) turned anticlockwise as seen on the screen."""
    x, y = point
    for _ in range(quarters % 4):
        x, y = y, -x
    return x, y


STATE = cb.load("manhattan", players=4).initial_state()
SOUTH = from_centre(lot_centres(picture(STATE, orientation=0)))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_lot_is_where_the_turned_board_puts_it(seat: int) -> None:
    side = side_of_seat(STATE.game, seat)
    assert side == seat  # four players sit S, W, N, E
    seen = from_centre(lot_centres(picture(STATE, orientation=seat)))
    for name, point in SOUTH.items():
        expected = quarter_anticlockwise(point, side)
        assert seen[name] == pytest.approx(expected, abs=0.01), (seat, name)


def test_the_norths_picture_is_the_souths_upside_down() -> None:
    north = lot_centres(picture(STATE.view(2)))  # a view is drawn from its viewer's side
    south = lot_centres(picture(STATE))
    top_left = min(south, key=lambda name: south[name][0] + south[name][1])
    bottom_right = max(north, key=lambda name: north[name][0] + north[name][1])
    assert top_left == bottom_right == "Syd0"  # the North-West lot of Sydney


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_card_reads_like_the_picture(seat: int) -> None:
    """Card cell k (row by row from the top left) is the lot at that place in every city of the
    seat's picture: the lot the rules' table names for the seat's side."""
    side = side_of_seat(STATE.game, seat)
    centres = lot_centres(picture(STATE, orientation=seat))
    for city in ("Syd", "Man", "Fra", "HK", "SP", "Cai"):
        lots = [centres[f"{city}{lot}"] for lot in range(9)]
        rows = sorted({round(y) for _, y in lots})
        cols = sorted({round(x) for x, _ in lots})
        for k in range(9):
            x, y = lots[ROT[side][k]]
            assert (rows.index(round(y)), cols.index(round(x))) == divmod(k, 3)
            assert NEED[side][ROT[side][k]] == k


def test_the_sides_are_written_around_the_turned_board() -> None:
    root = ET.fromstring(picture(STATE, orientation=1))
    labels = {
        t.text: t for t in root.iter(f"{NS}text") if (t.text or "").split(":")[0] in ("West", "North", "East", "South")
    }
    assert labels["North: P2 C"].get("transform", "").startswith("rotate(-90")  # on the left
    assert labels["South: P0 A"].get("transform", "").startswith("rotate(90")  # on the right
    assert float(labels["East: P3 D"].get("y", "0")) < float(labels["West: P1 B"].get("y", "0"))
