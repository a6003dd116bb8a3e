"""Urbanization positions and views as SVG pictures (the spec's ``render`` hook).

The city is drawn as its grid (x to the right, y upwards): each building in the colour of its top
tile, with the tile's name, its height, the tiles below it, and the owner's resources on it (as
many as the building is tall); Construction Sites are marked with a dashed frame and "site", Urbanization tokens stand
on their empty cells as lettered discs, and districts (2 or more orthogonally connected buildings
whose top tiles share a colour, URB-SCORE-2) are outlined with a thick line. Below, each player's
panel: resources in reserve and supply, SP, tiles, hand (a view shows only its own player's; for
the others, counts), New Hand tokens, characters and tableau.
"""

from __future__ import annotations

from typing import Any

from citybuild.core.board import orthogonal
from citybuild.core.svg import HIGHLIGHT, Drawing, PictureOptions, final_sheet, last_move_text, result_text, score_text
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
ROW_H = 58
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
    cols, rows = x_max - x_min + 1, y_max - y_min + 1
    grid_w = cols * CELL
    n = len(position.reserve)
    width = max(MIN_WIDTH, grid_w + 2 * MARGIN + 24)
    top = 64
    grid_h = rows * CELL
    height = top + grid_h + 24 + 26 + n * ROW_H + 10
    d = Drawing(width, height, options.size, f"Urbanization, round {position.round}")
    d.text(MARGIN, 22, _headline(position), 14, font_weight="bold")
    d.text(MARGIN, 40, _piles(position), 11, fill="#444")
    left = (width - grid_w) / 2

    def place(cell: tuple[int, int]) -> tuple[float, float]:
        return left + (cell[0] - x_min) * CELL, top + (y_max - cell[1]) * CELL

    city = d.group(class_="city")
    if options.coordinates:
        for x in range(x_min, x_max + 1):
            d.text(place((x, y_max))[0] + CELL / 2, top - 3, str(x), 9, city, anchor="middle", fill="#8a7f66")
        for y in range(y_min, y_max + 1):
            d.text(left - 5, place((x_min, y))[1] + CELL / 2 + 3, str(y), 9, city, anchor="end", fill="#8a7f66")
    for y in range(y_min, y_max + 1):
        for x in range(x_min, x_max + 1):
            px, py = place((x, y))
            d.add("rect", city, x=px, y=py, width=CELL, height=CELL, fill="none", stroke="#e6e0d2", stroke_width=0.6,
                  data_part=cell_part(x, y))  # fmt: skip
    for i, (cell, stack) in enumerate(zip(position.cells, position.stacks, strict=True)):
        _building(d, *place(cell), stack, i in position.sites, city)
    for letter, cell in zip("ABCDEFGHIJKL", position.tokens, strict=True):
        if cell is not None:
            px, py = place(cell)
            d.add("rect", city, x=px + 3, y=py + 3, width=CELL - 6, height=CELL - 6, fill="none", stroke="#aaa",
                  stroke_dasharray="3 3")  # fmt: skip
            d.add("circle", city, cx=px + CELL / 2, cy=py + CELL / 2, r=14, fill="#fdf6e3", stroke="#7a6a48",
                  stroke_width=1.5, data_part=f"token {letter}")  # fmt: skip
            d.text(px + CELL / 2, py + CELL / 2 + 5, letter, 14, city, anchor="middle", font_weight="bold")
    _districts(d, position, place, city)
    last = options.last_move
    if isinstance(last, str) and getattr(position, "game", None) is not None:
        try:
            last = position.game.parse_move(last)
        except ValueError:
            last = None
    highlight = last if options.marked[0] is options.last_move else options.marked[0]
    if isinstance(highlight, Token):
        px, py = place((highlight.x, highlight.y))
        d.add("rect", city, x=px + 1, y=py + 1, width=CELL - 2, height=CELL - 2, fill="none", stroke=HIGHLIGHT,
              stroke_width=3)  # fmt: skip
    _panel(d, position, top + grid_h + 24, width, last, options.last_player)
    return d.tostring()


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
    top = stack[-1]
    g = d.group(parent, class_="building", data_part=card_part(top.tile))
    colour = top.tile // NUMBERS
    d.add("rect", g, x=px + 2, y=py + 2, width=CELL - 4, height=CELL - 4, rx=3, fill=TILE_FILL[colour], stroke="#333")
    ink = TILE_INK[colour]
    d.text(px + 6, py + 17, tile_name(top.tile), 13, g, fill=ink, font_weight="bold")
    d.text(px + CELL - 6, py + 17, f"h{len(stack)}", 10, g, anchor="end", fill=ink)
    if top.owner is not None:
        owner = top.owner
        for i in range(len(stack)):
            d.add("rect", g, x=px + 6 + i * 9, y=py + CELL - 17, width=7, height=7, fill=OWNER_FILL[owner % 5],
                  stroke="#fff", stroke_width=0.7)  # fmt: skip
        d.text(px + CELL - 6, py + CELL - 9, f"P{owner}", 10, g, anchor="end", fill=ink, font_weight="bold")
    if len(stack) > 1:  # the tiles below the top one, top down
        below = [tile_name(f.tile) for f in reversed(stack[:-1])]
        text = " ".join(below[:3]) + (" …" if len(below) > 3 else "")
        d.text(px + 6, py + 29, "on " + text, 8, g, fill=ink)
    if site:
        d.add("rect", g, x=px + 5, y=py + 5, width=CELL - 10, height=CELL - 10, fill="none", stroke="#fff",
              stroke_width=1.5, stroke_dasharray="4 3")  # fmt: skip
        d.text(px + CELL - 7, py + 39, "site", 8, g, anchor="end", fill=ink, font_style="italic")


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


def _panel(d: Drawing, position: Any, y: float, width: float, last: Any, last_player: int | None) -> None:
    line = "resources: reserve / supply; a player's SP, tiles and hand are hidden from the others"
    if last is not None:
        line = last_move_text(last, last_player)
    d.text(MARGIN, y + 10, line, 11, fill="#444")
    y += 22
    viewer = position.player if isinstance(position, UrbanizationView) else None
    sheet = final_sheet(position)
    for p in range(len(position.reserve)):
        g = d.group(class_="seat")
        acting = p in position.to_act
        d.add("rect", g, x=MARGIN, y=y, width=width - 2 * MARGIN, height=ROW_H - 6, rx=4,
              fill="#fff7e0" if acting else "#f3f0e8", stroke="#e0a800" if acting else "#c9bfa8")  # fmt: skip
        d.add("circle", g, cx=MARGIN + 14, cy=y + 15, r=7, fill=OWNER_FILL[p % 5])
        you = " (viewer)" if viewer == p else ""
        first = " · first player" if position.first == p else ""
        d.text(MARGIN + 26, y + 19, f"P{p}{you}{first}" + (" · to act" if acting else ""), 12, g, font_weight="bold")
        sp = position.sp[p]
        tiles = position.tiles[p]
        hand = position.hands[p]
        sizes = position.hand_sizes[p] if isinstance(position, UrbanizationView) else len(hand)
        facts = [
            f"reserve {position.reserve[p]}",
            f"supply {position.supply[p]}",
            "SP hidden" if _hidden(sp) else f"{sp} SP",
            f"New Hand {position.newhand[p]}",
        ]
        if sheet is not None:
            facts.append(score_text(sheet, p))
        d.text(width - MARGIN - 10, y + 19, " · ".join(facts), 11, g, anchor="end")
        items = [
            "tiles: " + ("hidden" if _hidden(tiles) else " ".join(tile_name(t) for t in tiles) or "-"),
            "hand: " + (f"{sizes} cards" if _hidden(hand) else " ".join(card_name(c) for c in hand) or "-"),
        ]
        chars = position.chars[p]
        items.append("characters: " + ("hidden" if _hidden(chars) else " ".join(character_name(k) for k in chars)))
        if position.tableau[p]:
            items.append("tableau: " + " ".join(card_name(c) for c in position.tableau[p]))
        line = " · ".join(items)
        room = (width - 2 * MARGIN - 20) / 6.0  # characters that fit at 10 px
        d.text(MARGIN + 10, y + 40, line, 10 if len(line) <= room else max(6.0, 10 * room / len(line)), g, fill="#333")
        y += ROW_H
