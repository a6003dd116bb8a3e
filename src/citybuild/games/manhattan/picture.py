"""Manhattan positions and views as SVG pictures (the spec's ``render`` hook).

The six cities are drawn as seen from one seat's side of the table (its side at the bottom), so a
card reads like the picture: card cell k (row by row from the top left, as printed on the card)
is the lot at the same place in every city of the picture. Each tower is a stack of pieces in
their owners' colours, with its height and owner written beside it; each lot shows its board
number (the ``Syd4`` of the notation) in the corner. Below the board, each seat's side, colours,
points, hand (cards drawn as small 3x3 grids), selected pieces and supply.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from citybuild.core.svg import (
    HIGHLIGHT,
    Drawing,
    PictureOptions,
    final_sheet,
    last_move_text,
    player_colour,
    result_text,
    score_text,
    text_colour,
)
from citybuild.core.text import plural
from citybuild.core.tower import Tower, height
from citybuild.games.manhattan.moves import Build
from citybuild.games.manhattan.rules import CITY_CODES, CITY_NAMES, COLOUR_LETTERS, NEED, ROT, SIDE_LETTERS, SIZES
from citybuild.games.manhattan.view import ManhattanView

LOT = 56
CITY = 3 * LOT
GAP = 24
MARGIN = 30
TOP = 34
BOARD_W = 3 * CITY + 2 * GAP
WIDTH = BOARD_W + 2 * MARGIN
SIDE_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}
EMPTY_LOT = "#efe9dc"
ROW_H = 64


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


def render(position: Any, options: PictureOptions) -> str:
    """A state or a view as SVG text (see the module's docstring)."""
    game = _game(position)
    n = game.players
    viewer = position.player if isinstance(position, ManhattanView) else 0
    seat = options.orientation if options.orientation is not None else viewer
    seat = seat if 0 <= seat < n else 0
    bottom = side_of_seat(game, seat)
    panel_h = 34 + n * ROW_H
    board_h = 2 * (CITY + 22) + GAP
    height_total = TOP + board_h + MARGIN + panel_h + 10
    title = f"Manhattan, round {position.round}, phase {position.phase}"
    d = Drawing(WIDTH, height_total, options.size, title)
    d.text(MARGIN, 22, _headline(position, game), 14, font_weight="bold")
    highlight = _highlighted_lot(position, game, options.marked[0])
    _sides(d, game, bottom, TOP, board_h)
    for city in range(6):
        x0 = MARGIN + (city % 3) * (CITY + GAP)
        y0 = TOP + 22 + (city // 3) * (CITY + 22 + GAP)
        d.text(x0 + CITY / 2, y0 - 6, f"{CITY_NAMES[city]} ({CITY_CODES[city]})", 12, anchor="middle", fill="#333")
        for k in range(9):
            lot = ROT[bottom][k]
            x = x0 + (k % 3) * LOT
            y = y0 + (k // 3) * LOT
            index = city * 9 + lot
            _lot(d, x, y, position.towers[index], lot, options.coordinates, index == highlight, f"lot {index}")
    _panel(d, position, game, TOP + board_h + MARGIN - 4, options)
    return d.tostring()


def _headline(position: Any, game: Any) -> str:
    total = game.rules.total_rounds(game.players)
    acting = ", ".join(f"P{p}" for p in position.to_act) or ("chance" if position.phase != "over" else "-")
    if position.phase == "over":
        sheet = final_sheet(position)
        result = f" · {result_text(sheet)}" if sheet is not None else ""
        return f"Manhattan · game over after {plural(total, 'round')}{result}"
    return f"Manhattan · round {position.round} of {total} · {position.phase} · to act: {acting}"


def _sides(d: Drawing, game: Any, bottom: int, top: float, board_h: float) -> None:
    """Each side of the table, with the seats (and colours) sitting there, around the board."""
    sitting: dict[int, list[str]] = {}
    for p in range(game.players):
        for colour in game.colour_table[p]:
            side = game.rules.side_of_colour(colour, game.players)
            sitting.setdefault(side, []).append(f"P{p} {COLOUR_LETTERS[colour]}")
    cx, cy = MARGIN + BOARD_W / 2, top + board_h / 2
    for offset in range(4):
        side = (bottom + offset) % 4
        letter = SIDE_LETTERS[side]
        who = ", ".join(sitting.get(side, [])) or "nobody"
        label = f"{SIDE_NAMES[letter]}: {who}"
        weight = "bold" if offset == 0 else None
        if offset == 0:
            d.text(cx, top + board_h + 16, label, 12, anchor="middle", font_weight=weight)
        elif offset == 2:
            d.text(WIDTH - MARGIN, 22, label, 12, anchor="end", fill="#555")
        else:
            x = MARGIN - 10 if offset == 1 else WIDTH - MARGIN + 10
            rotate = -90 if offset == 1 else 90
            d.text(x, cy, label, 12, anchor="middle", fill="#555", transform=f"rotate({rotate} {x} {cy})")


def _lot(d: Drawing, x: float, y: float, tower: Tower, lot: int, coordinates: bool, highlight: bool, part: str) -> None:
    """A lot and its tower; ``part``: the picture part a click on it chooses (``manhattan.choices``)."""
    g = d.group(class_="lot", data_part=part)
    d.add("rect", g, x=x + 1, y=y + 1, width=LOT - 2, height=LOT - 2, fill=EMPTY_LOT, stroke="#b8ad94")
    if coordinates:
        d.text(x + LOT - 4, y + 11, str(lot), 9, g, anchor="end", fill="#8a7f66")
    if tower:
        total = height(tower)
        unit = min(8.0, (LOT - 12) / total)
        bottom = y + LOT - 6
        for piece in tower:
            h = piece.size * unit
            bottom -= h
            d.add(
                "rect",
                g,
                x=x + 7,
                y=bottom,
                width=18,
                height=h,
                fill=player_colour(piece.owner),
                stroke="#ffffff",
                stroke_width=0.8,
            )
        top = tower[-1].owner
        d.text(x + 39, y + 32, str(total), 19, g, anchor="middle", font_weight="bold", fill="#222")
        d.add("circle", g, cx=x + 39, cy=y + 43, r=7, fill=player_colour(top))
        d.text(x + 39, y + 47, COLOUR_LETTERS[top], 10, g, anchor="middle", font_weight="bold", fill=text_colour(top))
    if highlight:
        d.add("rect", g, x=x + 2, y=y + 2, width=LOT - 4, height=LOT - 4, fill="none", stroke=HIGHLIGHT, stroke_width=3)


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
    fill = "#ffffff" if k is not None else "#8c7b5a"
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
    d.text(MARGIN, y + 12, line, 11, fill="#444")
    y += 24
    for p in range(n):
        g = d.group(class_="seat")
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
        d.text(MARGIN + 8, y + 42, points + (" · to act" if to_act else ""), 12, g)
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
    h = 3 * cell + 70
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
    d.text(x0, h - 12, "Board seen from above, North at the top; large: the card that builds there, small: the lot.",
           10, g, fill="#555")  # fmt: skip
    return d.tostring()
