"""Urbanization positions and views as SVG pictures (the spec's ``render`` hook).

The city is drawn as its grid (x to the right, y upwards): each building in the colour of its top
tile, with the tile's name, its height, the tiles below it, its owner and the owner's resources
on it (as many as the building is tall); Construction Sites are marked with a dashed frame and
"site", Urbanization tokens stand on their empty cells as lettered discs, and districts (2 or more
orthogonally connected buildings whose top tiles share a colour, URB-SCORE-2) are outlined with a
thick line. Below, a key of these marks, and each player's panel: resources in reserve and
supply, SP, tiles, hand (a view shows only its own player's; for the others, counts), New Hand
tokens, characters and tableau.
"""

from __future__ import annotations

from typing import Any

from citybuild.core.board import orthogonal
from citybuild.core.svg import (
    HIGHLIGHT,
    Drawing,
    Mark,
    PictureOptions,
    final_sheet,
    key,
    key_height,
    last_move_text,
    result_text,
    score_text,
    text_width,
    wrap,
)
from citybuild.games.urbanization.choices import card_part, cell_part
from citybuild.games.urbanization.moves import Token
from citybuild.games.urbanization.rules import NUMBERS, card_name, character_name, tile_name
from citybuild.games.urbanization.scoring import districts
from citybuild.games.urbanization.state import city_board
from citybuild.games.urbanization.view import UrbanizationView

CELL = 58
MARGIN = 24
TILE_FILL = ("#d94a3d", "#3a78c9", "#f0c419")
"""Red, blue and yellow tiles (URB-COMP-1)."""
TILE_INK = ("#ffffff", "#ffffff", "#222222")
OWNER_FILL = ("#111111", "#2ca02c", "#8e44ad", "#a0522d", "#e377c2")
"""Players' resource colours, chosen apart from the tile colours: black, green, purple, brown, pink."""
MIN_WIDTH = 640


def _hidden(value: Any) -> bool:
    return value is None


def render(position: Any, options: PictureOptions) -> str:
    """A state or a view as SVG text (see the module's docstring)."""
    cells = list(position.cells) + [t for t in position.tokens if t is not None]
    if position.pending == "token":  # a token moves: the squares around the city, its destinations among them
        cells += [c for cell in position.cells for c in orthogonal(cell)]
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    x_min, x_max, y_min, y_max = min(xs), max(xs), min(ys), max(ys)
    grid_w, grid_h = (x_max - x_min + 1) * CELL, (y_max - y_min + 1) * CELL
    width = max(MIN_WIDTH, grid_w + 2 * MARGIN + 24)
    top, room = 64, width - 2 * MARGIN
    last = _move(position, options.last_move)
    highlight = last if options.marked[0] is options.last_move else _move(position, options.marked[0])
    marks = _marks(position, isinstance(highlight, Token))
    seats = [_seat_lines(position, p, room - 20) for p in range(len(position.reserve))]
    below = top + grid_h + 16
    height = below + key_height(marks, room) + 30 + sum(_seat_height(lines) for lines in seats) + 10
    d = Drawing(width, height, options.size, f"Urbanization, round {position.round}")
    d.text(MARGIN, 22, _headline(position), 14, room=room, font_weight="bold")
    d.text(MARGIN, 40, _piles(position), 11, room=room, fill="#444")
    left = (width - grid_w) / 2

    def place(cell: tuple[int, int]) -> tuple[float, float]:
        return left + (cell[0] - x_min) * CELL, top + (y_max - cell[1]) * CELL

    city = d.group(class_="city")
    if options.coordinates:
        for x in range(x_min, x_max + 1):
            d.text(place((x, y_max))[0] + CELL / 2, top - 3, str(x), 9, city, anchor="middle", fill="#8a7f66")
        for y in range(y_min, y_max + 1):
            d.text(left - 5, place((x_min, y))[1] + CELL / 2 + 3, str(y), 9, city, anchor="end", fill="#8a7f66")
    _city(d, position, place, (x_min, x_max, y_min, y_max), city)
    if isinstance(highlight, Token):
        px, py = place((highlight.x, highlight.y))
        d.add("rect", city, x=px + 1, y=py + 1, width=CELL - 2, height=CELL - 2, fill="none", stroke=HIGHLIGHT,
              stroke_width=3)  # fmt: skip
    below += key(d, MARGIN, below, room, marks) + 8
    _panel(d, position, below, width, seats, last_move_text(last, options.last_player) if last is not None else None)
    return d.tostring()


def _move(position: Any, move: Any) -> Any:
    """A move given as text read as the position's game reads it (None when it cannot be read)."""
    if isinstance(move, str):
        game = getattr(position, "game", None)
        try:
            return game.parse_move(move) if game is not None else None
        except ValueError:
            return None
    return move


def _city(d: Drawing, position: Any, place: Any, bounds: tuple[int, int, int, int], city: Any) -> None:
    """The grid, the buildings, the Urbanization tokens on their cells and the districts."""
    x_min, x_max, y_min, y_max = bounds
    for y in range(y_min, y_max + 1):
        for x in range(x_min, x_max + 1):
            px, py = place((x, y))
            d.add("rect", city, x=px, y=py, width=CELL, height=CELL, fill="none", stroke="#e6e0d2", stroke_width=0.6,
                  data_part=cell_part(x, y))  # fmt: skip
    for i, (cell, stack) in enumerate(zip(position.cells, position.stacks, strict=True)):
        px, py = place(cell)
        _building(d, px, py, stack, i in position.sites, city)
    for letter, cell in zip("ABCDEFGHIJKL", position.tokens, strict=True):
        if cell is not None:
            px, py = place(cell)
            g = d.box(px + 3, py + 3, CELL - 6, CELL - 6, city, class_="token")
            d.add("rect", g, x=px + 3, y=py + 3, width=CELL - 6, height=CELL - 6, fill="none", stroke="#aaa",
                  stroke_dasharray="3 3")  # fmt: skip
            d.add("circle", g, cx=px + CELL / 2, cy=py + CELL / 2, r=14, fill="#fdf6e3", stroke="#7a6a48",
                  stroke_width=1.5, data_part=f"token {letter}")  # fmt: skip
            d.text(px + CELL / 2, py + CELL / 2 + 5, letter, 14, g, anchor="middle", font_weight="bold")
    _districts(d, position, place, city)


def _headline(position: Any) -> str:
    if position.phase == "over":
        sheet = final_sheet(position)
        result = f" · {result_text(sheet)}" if sheet is not None else ""
        return f"Urbanization · game over after round {position.round}{result}"
    acting = ", ".join(f"P{p}" for p in position.to_act) or "chance"
    return f"Urbanization · round {position.round} · {position.phase} · to act: {acting}"


def _piles(position: Any) -> str:
    draw = position.draw_size if isinstance(position, UrbanizationView) else len(position.draw)
    second = position.second_size if isinstance(position, UrbanizationView) else len(position.second)
    stack = f"{position.draws_left} tiles to draw" if position.exhaustion == 0 else f"second stack {second}"
    parts = [f"first player P{position.first}", f"draw pile {draw}", f"discard {len(position.discard)}", stack]
    if position.ending:
        parts.append("the end is triggered")
    return " · ".join(parts)


def _building(d: Drawing, px: float, py: float, stack: Any, site: bool, parent: Any) -> None:
    """A building's tile: its top tile's name and the height (first line), the tiles below (second),
    the owner (third), and the owner's resources on it (a row of cubes at the bottom)."""
    top = stack[-1]
    g = d.box(px + 2, py + 2, CELL - 4, CELL - 4, parent, class_="building", data_part=card_part(top.tile))
    colour = top.tile // NUMBERS
    d.add("rect", g, x=px + 2, y=py + 2, width=CELL - 4, height=CELL - 4, rx=3, fill=TILE_FILL[colour], stroke="#333")
    ink = TILE_INK[colour]
    tall = f"h{len(stack)}"
    tall_w = text_width(tall, 9)
    d.text(px + CELL - 5, py + 15, tall, 9, g, anchor="end", fill=ink)
    d.text(px + 5, py + 15, tile_name(top.tile), 12, g, room=CELL - 12 - tall_w, fill=ink, font_weight="bold")
    if len(stack) > 1:  # the tiles below the top one, top down
        below = " ".join(tile_name(f.tile) for f in reversed(stack[:-1]))
        d.text(px + 5, py + 27, "on " + below, 8, g, room=CELL - 10, fill=ink)
    if site:
        d.add("rect", g, x=px + 3.5, y=py + 3.5, width=CELL - 7, height=CELL - 7, rx=2, fill="none", stroke="#fff",
              stroke_width=1.5, stroke_dasharray="4 3")  # fmt: skip
        d.text(px + 5, py + 39, "site", 8, g, fill=ink, font_style="italic")
    if top.owner is not None:
        owner = top.owner
        d.text(px + CELL - 5, py + 39, f"P{owner}", 10, g, anchor="end", fill=ink, font_weight="bold")
        step = min(9.0, (CELL - 10) / len(stack))
        for i in range(len(stack)):
            d.add("rect", g, x=px + 5 + i * step, y=py + CELL - 14, width=step - 2, height=7, class_="mark",
                  fill=OWNER_FILL[owner % 5], stroke="#fff", stroke_width=0.7)  # fmt: skip


def _marks(position: Any, highlighted: bool) -> list[Mark]:
    """The key: what the city's marks mean."""
    marks = [Mark(f"{name} tile", fill=fill) for name, fill in zip(("red", "blue", "yellow"), TILE_FILL, strict=True)]
    marks += [
        Mark("height", "text", letter="h2"),
        Mark("tiles below the top one", "text", letter="on R3"),
        Mark("Construction Site", "frame", stroke="#555", dash="4 3"),
        Mark("district", "line", stroke="#111"),
        Mark("Urbanization token", "disc", fill="#fdf6e3", stroke="#7a6a48", letter="A", ink="#222"),
    ]
    marks += [Mark(f"P{p}'s resources", fill=OWNER_FILL[p % 5], stroke="#fff") for p in range(len(position.reserve))]
    if highlighted:
        marks.append(Mark("last move", "frame", stroke=HIGHLIGHT))
    return marks


def _districts(d: Drawing, position: Any, place: Any, parent: Any) -> None:
    """A thick outline around each district (URB-SCORE-2), drawn edge by edge."""
    if not position.cells:
        return
    g = d.group(parent, class_="districts")
    for district in districts(position.cells, position.stacks, city_board(position.cells)):
        members = set(district.cells)
        for x, y in sorted(members):
            px, py = place((x, y))
            edges = (
                ((x, y + 1), (px, py, px + CELL, py)),
                ((x, y - 1), (px, py + CELL, px + CELL, py + CELL)),
                ((x - 1, y), (px, py, px, py + CELL)),
                ((x + 1, y), (px + CELL, py, px + CELL, py + CELL)),
            )
            for neighbour, (x1, y1, x2, y2) in edges:
                if neighbour not in members:
                    d.add("line", g, x1=x1, y1=y1, x2=x2, y2=y2, stroke="#111", stroke_width=3.5,
                          stroke_linecap="round")  # fmt: skip


SeatLines = tuple[str, list[str], list[str]]
"""A seat's panel: its title, its facts (resources, SP, score) and its items (tiles, hand, ...) as lines."""


def _seat_lines(position: Any, p: int, room: float) -> SeatLines:
    viewer = position.player if isinstance(position, UrbanizationView) else None
    sheet = final_sheet(position)
    you = " (viewer)" if viewer == p else ""
    first = " · first player" if position.first == p else ""
    title = f"P{p}{you}{first}" + (" · to act" if p in position.to_act else "")
    sp, tiles, hand = position.sp[p], position.tiles[p], position.hands[p]
    sizes = position.hand_sizes[p] if isinstance(position, UrbanizationView) else len(hand)
    facts = [
        f"reserve {position.reserve[p]}",
        f"supply {position.supply[p]}",
        "SP hidden" if _hidden(sp) else f"{sp} SP",
        f"New Hand {position.newhand[p]}",
    ]
    if sheet is not None:
        facts.append(score_text(sheet, p))
    fact = " · ".join(facts)
    if text_width(title, 12, True) + 20 + text_width(fact, 11) <= room:
        title, facts = f"{title}\t{fact}", []  # the facts fit beside the title, at the right
    items = [
        "tiles: " + ("hidden" if _hidden(tiles) else " ".join(tile_name(t) for t in tiles) or "-"),
        "hand: " + (f"{sizes} cards" if _hidden(hand) else " ".join(card_name(c) for c in hand) or "-"),
    ]
    chars = position.chars[p]
    items.append("characters: " + ("hidden" if _hidden(chars) else " ".join(character_name(k) for k in chars) or "-"))
    if position.tableau[p]:
        items.append("tableau: " + " ".join(card_name(c) for c in position.tableau[p]))
    return title, wrap(facts, room, 11, sep=" · "), wrap(items, room, 10, sep=" · ")


def _seat_height(lines: SeatLines) -> float:
    return 34 + 15 * len(lines[1]) + 13 * len(lines[2])


def _panel(d: Drawing, position: Any, y: float, width: float, seats: list[SeatLines], last: str | None) -> None:
    line = last or "resources: reserve / supply; a player's SP, tiles and hand are hidden from the others"
    d.text(MARGIN, y + 10, line, 11, room=width - 2 * MARGIN, fill="#444")
    y += 22
    room = width - 2 * MARGIN
    for p, (title, facts, items) in enumerate(seats):
        h = _seat_height((title, facts, items))
        g = d.box(MARGIN, y, room, h - 6, class_="seat")
        acting = p in position.to_act
        d.add("rect", g, x=MARGIN, y=y, width=room, height=h - 6, rx=4,
              fill="#fff7e0" if acting else "#f3f0e8", stroke="#e0a800" if acting else "#c9bfa8")  # fmt: skip
        d.add("circle", g, cx=MARGIN + 14, cy=y + 15, r=7, fill=OWNER_FILL[p % 5])
        name, _, beside = title.partition("\t")
        d.text(MARGIN + 26, y + 19, name, 12, g, room=room - 36, font_weight="bold")
        if beside:
            d.text(width - MARGIN - 10, y + 19, beside, 11, g, anchor="end")
        base = y + 19
        for line in facts:
            base += 15
            d.text(MARGIN + 10, base, line, 11, g, room=room - 20)
        base += 3
        for line in items:
            base += 13
            d.text(MARGIN + 10, base, line, 10, g, room=room - 20, fill="#333")
        y += h
