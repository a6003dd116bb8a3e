"""Manhattan positions and views as SVG pictures (the spec's ``render`` hook).

The board is drawn as seen from one seat's side of the table (its side at the bottom): the whole
board turned, the six cities' places as well as the lots in each, so a card reads like the
picture: card cell k (row by row from the top left, as printed on the card) is the lot at the
same place in every city of the picture. Each tower is a stack of pieces in
their owners' colours, with its height and owner written beside it; each lot shows its board
number (the ``Syd4`` of the notation) in the corner. Below the board, a key of the marks, then
each seat's side, colours, points, hand (cards drawn as small 3x3 grids), selected pieces and
supply.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from citybuild.core.svg import (
    HIGHLIGHT,
    Drawing,
    Mark,
    PictureOptions,
    final_sheet,
    key,
    key_height,
    last_move_text,
    player_colour,
    result_text,
    score_text,
    text_colour,
)
from citybuild.core.text import plural
from citybuild.core.tower import Tower, height
from citybuild.games.manhattan.moves import Build
from citybuild.games.manhattan.rules import (
    CITY_CODES,
    CITY_NAMES,
    COLOUR_LETTERS,
    LOT_NAMES,
    NEED,
    ROT,
    SIDE_LETTERS,
    SIZES,
)
from citybuild.games.manhattan.view import ManhattanView

LOT = 56
CITY = 3 * LOT
LABEL = 22
"""The room above each city for its name."""
SPACE = LABEL + 24
"""The space between two cities, across as well as down, so that the board turned a quarter is
still the same board."""
MARGIN = 30
TOP = 46
BOARD_W = 3 * CITY + 2 * SPACE
WIDTH = BOARD_W + 2 * MARGIN
SIDE_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}
EMPTY_LOT = "#efe9dc"
CARD_BACK = "#8c7b5a"
ROW_H = 64
CITY_ROWS, CITY_COLS = 2, 3
"""The six cities as the board lays them out seen from the South: two rows of three, city c at
row c // 3 and column c % 3 (North at the top)."""


def _game(position: Any) -> Any:
    """The game whose rules the position is read under: a state's, or a view's (when it names
    one), else the standard rules for its player count."""
    game = getattr(position, "game", None)
    if game is not None:
        return game
    from citybuild.core.registry import load

    return load("manhattan", players=len(position.points))


def side_of_seat(game: Any, seat: int) -> int:
    """The side (0 S, 1 W, 2 N, 3 E) where ``seat`` sits (MAN-SETUP-2)."""
    return SIDE_LETTERS.index(game.rules.sides[game.players][seat])


def seen_from(row: int, col: int, side: int, rows: int, cols: int) -> tuple[int, int]:
    """Where the cell at (``row``, ``col``) of a ``rows`` x ``cols`` grid seen from the South (North
    at the top) appears seen from ``side``: the grid turned a quarter anticlockwise per side, as
    the board looks to a player who sits one side further clockwise."""
    for _ in range(side % 4):
        row, col, rows, cols = cols - 1 - col, row, cols, rows
    return row, col


def city_places(side: int) -> dict[int, tuple[float, float]]:
    """The top-left corner of each city in the board's frame, seen from ``side`` (the board's own
    arrangement, turned with it)."""
    places: dict[int, tuple[float, float]] = {}
    for city in range(6):
        row, col = seen_from(city // CITY_COLS, city % CITY_COLS, side, CITY_ROWS, CITY_COLS)
        places[city] = (col * (CITY + SPACE), LABEL + row * (CITY + SPACE))
    return places


def board_size(side: int) -> tuple[float, float]:
    """The board's width and height (the cities' names included) seen from ``side``."""
    rows, cols = (CITY_ROWS, CITY_COLS) if side % 2 == 0 else (CITY_COLS, CITY_ROWS)
    return cols * CITY + (cols - 1) * SPACE, LABEL + rows * CITY + (rows - 1) * SPACE


def render(position: Any, options: PictureOptions) -> str:
    """A state or a view as SVG text (see the module's docstring)."""
    game = _game(position)
    n = game.players
    viewer = position.player if isinstance(position, ManhattanView) else 0
    seat = options.orientation if options.orientation is not None else viewer
    seat = seat if 0 <= seat < n else 0
    bottom = side_of_seat(game, seat)
    highlight = _highlighted_lot(position, game, options.marked[0])
    marks = _marks(position, game, highlight is not None)
    board_w, board_h = board_size(bottom)
    below = TOP + board_h + 26
    height_total = below + key_height(marks, BOARD_W) + 8 + 24 + n * ROW_H + 4
    title = f"Manhattan, round {position.round}, phase {position.phase}"
    d = Drawing(WIDTH, height_total, options.size, title)
    d.text(MARGIN, 22, _headline(position, game), 14, room=BOARD_W, font_weight="bold")
    left = (WIDTH - board_w) / 2
    _sides(d, game, bottom, (left, TOP, board_w, board_h))
    for city, (cx, cy) in city_places(bottom).items():
        x0, y0 = left + cx, TOP + cy
        d.text(x0 + CITY / 2, y0 - 6, f"{CITY_NAMES[city]} ({CITY_CODES[city]})", 12, anchor="middle", fill="#333")
        for k in range(9):
            lot = ROT[bottom][k]
            x = x0 + (k % 3) * LOT
            y = y0 + (k // 3) * LOT
            index = city * 9 + lot
            _lot(d, x, y, position.towers[index], index, options.coordinates, index == highlight, f"lot {index}")
    below += key(d, MARGIN, below, BOARD_W, marks) + 8
    _panel(d, position, game, below, options)
    return d.tostring()


def _headline(position: Any, game: Any) -> str:
    total = game.rules.total_rounds(game.players)
    acting = ", ".join(f"P{p}" for p in position.to_act) or ("chance" if position.phase != "over" else "-")
    if position.phase == "over":
        sheet = final_sheet(position)
        result = f" · {result_text(sheet)}" if sheet is not None else ""
        return f"Manhattan · game over after {plural(total, 'round')}{result}"
    return f"Manhattan · round {position.round} of {total} · {position.phase} · to act: {acting}"


def _sides(d: Drawing, game: Any, bottom: int, board: tuple[float, float, float, float]) -> None:
    """Each side of the table, with the seats (and colours) sitting there, around the board:
    the bottom one first, then the left, the top and the right."""
    sitting: dict[int, list[str]] = {}
    for p in range(game.players):
        for colour in game.colour_table[p]:
            side = game.rules.side_of_colour(colour, game.players)
            sitting.setdefault(side, []).append(f"P{p} {COLOUR_LETTERS[colour]}")
    left, top, board_w, board_h = board
    cx, cy = left + board_w / 2, top + board_h / 2
    for offset in range(4):
        side = (bottom + offset) % 4
        letter = SIDE_LETTERS[side]
        who = ", ".join(sitting.get(side, [])) or "nobody"
        label = f"{SIDE_NAMES[letter]}: {who}"
        if offset == 0:
            d.text(cx, top + board_h + 16, label, 12, anchor="middle", room=board_w, font_weight="bold")
        elif offset == 2:
            d.text(cx, top - 4, label, 12, anchor="middle", room=board_w, fill="#555")
        else:
            x = left - 10 if offset == 1 else left + board_w + 10
            rotate = -90 if offset == 1 else 90
            d.text(x, cy, label, 12, anchor="middle", room=board_h, fill="#555", transform=f"rotate({rotate} {x} {cy})")


def _lot(
    d: Drawing, x: float, y: float, tower: Tower, index: int, coordinates: bool, highlight: bool, part: str
) -> None:
    """A lot and its tower; ``part``: the picture part a click on it chooses (``manhattan.choices``)."""
    g = d.box(x + 1, y + 1, LOT - 2, LOT - 2, class_="lot", data_lot=LOT_NAMES[index], data_part=part)
    d.add("rect", g, x=x + 1, y=y + 1, width=LOT - 2, height=LOT - 2, fill=EMPTY_LOT, stroke="#b8ad94")
    if coordinates:
        d.text(x + LOT - 4, y + 11, str(index % 9), 9, g, anchor="end", fill="#8a7f66")
    if tower:
        total = height(tower)
        unit = min(8.0, (LOT - 12) / total)
        bottom = y + LOT - 6
        for piece in tower:
            h = piece.size * unit
            bottom -= h
            d.add("rect", g, x=x + 7, y=bottom, width=18, height=h, class_="mark", fill=player_colour(piece.owner),
                  stroke="#ffffff", stroke_width=0.8)  # fmt: skip
        top = tower[-1].owner
        d.text(x + 39, y + 32, str(total), 19, g, anchor="middle", font_weight="bold", fill="#222")
        d.add("circle", g, cx=x + 39, cy=y + 43, r=7, fill=player_colour(top))
        d.text(x + 39, y + 47, COLOUR_LETTERS[top], 10, g, anchor="middle", font_weight="bold", fill=text_colour(top))
    if highlight:
        d.add("rect", g, x=x + 2, y=y + 2, width=LOT - 4, height=LOT - 4, fill="none", stroke=HIGHLIGHT, stroke_width=3)


def _marks(position: Any, game: Any, highlighted: bool) -> list[Mark]:
    """The key: what the board's and the panel's marks mean."""
    marks = []
    for p in range(game.players):
        for colour in game.colour_table[p]:
            letter = COLOUR_LETTERS[colour]
            marks.append(Mark(f"P{p}'s pieces ({letter})", "disc", fill=player_colour(colour), stroke="#fff",
                              letter=letter, ink=text_colour(colour)))  # fmt: skip
    marks += [
        Mark("floors and owner of a tower", "text", letter="4 A"),
        Mark("lot number (Syd4)", "text", letter="4", stroke="#8a7f66"),
        Mark("card (the marked cell names a lot)", fill="#ffffff", stroke="#555"),
    ]
    if any(hand is None for hand in position.hands):
        marks.append(Mark("card seen from the back", fill=CARD_BACK, stroke="#555"))
    if highlighted:
        marks.append(Mark("last build", "frame", stroke=HIGHLIGHT))
    return marks


def _move(move: Any, game: Any) -> Any:
    if isinstance(move, str):
        try:
            return game.parse_move(move)
        except ValueError:
            return None
    return move


def _highlighted_lot(position: Any, game: Any, last_move: Any) -> int | None:
    move = _move(last_move, game)
    if not isinstance(move, Build) or not 0 <= move.city < 6 or not 0 <= move.colour < game.colours:
        return None
    if not 0 <= move.card < 9:
        return None
    return int(move.city * 9 + game.lot_table[move.colour][move.card])


def card(
    d: Drawing, x: float, y: float, k: int | None, parent: ET.Element, w: float = 20, part: str | None = None
) -> None:
    """A Manhattan card: a 3x3 grid with cell ``k`` marked (None: a card seen from the back);
    ``part``: the picture part a click on it chooses (``manhattan.choices``)."""
    h = w * 1.35
    parent = d.box(x, y, w, h, parent, class_="card")
    fill = "#ffffff" if k is not None else CARD_BACK
    d.add("rect", parent, x=x, y=y, width=w, height=h, rx=2, fill=fill, stroke="#555", data_part=part)
    if k is None:
        return
    cell = (w - 4) / 3
    for i in range(9):
        cx = x + 2 + (i % 3) * cell
        cy = y + 2 + (i // 3) * cell
        fill = "#333333" if i == k else "#e8e2d4"
        d.add("rect", parent, x=cx + 0.4, y=cy + 0.4, width=cell - 0.8, height=cell - 0.8, fill=fill)
    d.text(x + w / 2, y + h - 2.5, str(k), 8, parent, anchor="middle", fill="#333")


def _pieces(d: Drawing, x: float, y: float, colour: int, sizes: list[int], parent: ET.Element) -> float:
    """Selected pieces as little blocks (height by floors) with their size; returns the new x."""
    for size in sizes:
        h = 5 + 4 * size
        d.add("rect", parent, x=x, y=y + 22 - h, width=11, height=h, fill=player_colour(colour), stroke="#fff")
        d.text(x + 5.5, y + 31, str(size), 8, parent, anchor="middle", fill="#333")
        x += 12
    return x


def _panel(d: Drawing, position: Any, game: Any, y: float, options: PictureOptions) -> None:
    sheet = final_sheet(position)
    n = game.players
    hands = position.hands
    if isinstance(position, ManhattanView):
        sizes, draw_size = position.hand_sizes, position.draw_size
    else:
        sizes, draw_size = tuple(sum(h) for h in hands), sum(position.draw)
    discard = sum(position.discard)
    last = _move(options.last_move, game)
    line = f"draw pile {draw_size} · discard {discard}"
    if last is not None:
        line += f" · {last_move_text(last, options.last_player)}"
    d.text(MARGIN, y + 12, line, 11, room=BOARD_W, fill="#444")
    y += 24
    for p in range(n):
        g = d.box(MARGIN, y, BOARD_W, ROW_H - 6, class_="seat")
        to_act = p in position.to_act
        d.add("rect", g, x=MARGIN, y=y, width=BOARD_W, height=ROW_H - 6, rx=4,
              fill="#fff7e0" if to_act else "#f3f0e8", stroke="#c9bfa8" if not to_act else "#e0a800")  # fmt: skip
        side = SIDE_LETTERS[side_of_seat(game, p)]
        x: float = MARGIN + 8
        for colour in game.colour_table[p]:
            d.add("circle", g, cx=x + 7, cy=y + 15, r=7, fill=player_colour(colour))
            d.text(x + 7, y + 19, COLOUR_LETTERS[colour], 10, g, anchor="middle", font_weight="bold",
                   fill=text_colour(colour))  # fmt: skip
            x += 17
        d.text(x + 2, y + 19, f"P{p} · {SIDE_NAMES[side]}", 12, g, font_weight="bold")
        points = plural(position.points[p], "point") if sheet is None else score_text(sheet, p)
        d.text(MARGIN + 8, y + 42, points + (" · to act" if to_act else ""), 12, g, room=136)
        hand = hands[p]
        hx = MARGIN + 150
        d.text(hx, y + 12, "hand", 9, g, fill="#666")
        if hand is None:
            for i in range(sizes[p]):
                card(d, hx + i * 23, y + 16, None, g)
        else:
            cards = [k for k in range(9) for _ in range(hand[k])]
            for i, k in enumerate(cards):
                card(d, hx + i * 23, y + 16, k, g, part=f"card {k}")
        _selected(d, position, game, p, y, g)
        supply = " ".join(
            f"{COLOUR_LETTERS[c]}:" + "/".join(str(v) for v in position.supply[c]) for c in game.colour_table[p]
        )
        d.text(MARGIN + BOARD_W - 8, y + 12, "supply (1/2/3/4 floors)", 9, g, anchor="end", fill="#666")
        d.text(MARGIN + BOARD_W - 8, y + 30, supply, 11, g, anchor="end")
        boxed = sum(sum(position.box[c]) for c in game.colour_table[p])
        if boxed:
            d.text(MARGIN + BOARD_W - 8, y + 46, f"{boxed} forfeited", 10, g, anchor="end", fill="#a33")
        y += ROW_H


def _selected(d: Drawing, position: Any, game: Any, p: int, y: float, g: ET.Element) -> None:
    """A seat's selected pieces per colour: drawn, hidden (a secret selection), or none yet."""
    x: float = MARGIN + 256
    d.text(x, y + 12, "selected", 9, g, fill="#666")
    for colour in game.colour_table[p]:
        chosen = position.chosen[colour]
        if chosen == "?":
            d.text(x, y + 36, f"{COLOUR_LETTERS[colour]}: hidden", 10, g, fill="#666")
            x += 60
        elif chosen is None:
            d.text(x, y + 36, f"{COLOUR_LETTERS[colour]}: —", 10, g, fill="#666")
            x += 40
        else:
            placed = [s for s in SIZES for _ in range(chosen[s - 1])]
            x = _pieces(d, x, y + 14, colour, placed, g) + 8


def rotation_diagram(size: int | None = None) -> str:
    """The card rotation per side (MAN-CARD-1) as SVG: a card, and for each side a city seen from
    above (North at the top) whose lots show their board number and, large, the card a player at
    that side plays to build there."""
    cell, gap = 34, 26
    w = 4 * 3 * cell + 3 * gap + 2 * 20 + 3 * cell + gap
    h = 3 * cell + 70 + key_height(ROTATION_KEY, w - 40)
    d = Drawing(w, h, size, "Manhattan card rotation per side")
    g = d.group()
    d.text(20, 18, "a card (cell 8 marked)", 11, g, fill="#333")
    card(d, 20 + cell * 0.6, 30, 8, g, w=cell * 1.6)
    x0 = 20 + 3 * cell + gap
    for side in range(4):
        x = x0 + side * (3 * cell + gap)
        letter = SIDE_LETTERS[side]
        d.text(x + 1.5 * cell, 18, f"{SIDE_NAMES[letter]} player", 12, g, anchor="middle", font_weight="bold")
        for lot in range(9):
            cx = x + (lot % 3) * cell
            cy = 26 + (lot // 3) * cell
            d.add("rect", g, x=cx, y=cy, width=cell - 1, height=cell - 1, fill=EMPTY_LOT, stroke="#b8ad94")
            d.text(cx + cell - 4, cy + 10, str(lot), 8, g, anchor="end", fill="#8a7f66")
            d.text(
                cx + cell / 2 - 2, cy + cell / 2 + 6, str(NEED[side][lot]), 16, g, anchor="middle", font_weight="bold"
            )
        arrow = {0: "▲ sits here (bottom)", 1: "◀ sits left", 2: "▼ sits at the top", 3: "▶ sits right"}[side]
        d.text(x + 1.5 * cell, 26 + 3 * cell + 16, arrow, 10, g, anchor="middle", fill="#555")
    d.text(x0, 26 + 3 * cell + 34, "Each city seen from above, North at the top.", 10, g, fill="#555")
    key(d, 20, h - 8 - key_height(ROTATION_KEY, w - 40), w - 40, ROTATION_KEY)
    return d.tostring()


ROTATION_KEY = [
    Mark("the card a player at that side plays to build there", "text", letter="8"),
    Mark("the lot's number", "text", letter="8", stroke="#8a7f66"),
]
