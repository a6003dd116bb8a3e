"""Skyline positions and views as SVG pictures (the spec's ``render`` hook).

The shared dice come first: the yard and the district (unrolled dice, counted per type), then the
active dice of the player whose turn it is, each showing its face (purple, blue, orange or blank)
and its type. Below, one skyline per seat: unfinished buildings as columns of dice, bottom to top,
in the building's colour and with each die's type; completed buildings as tiles as tall as the
building, with its height and points. Each building carries its id, the number moves name it by.
A key between the dice and the skylines says what each mark means.
"""

from __future__ import annotations

from typing import Any

from citybuild.core.scoresheet import ScoreSheet
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
)
from citybuild.games.skyline.building import Column, Tile
from citybuild.games.skyline.choices import die_part
from citybuild.games.skyline.moves import Build
from citybuild.games.skyline.rules import TYPES
from citybuild.games.skyline.view import SkylineView

FACE_FILL = {"P": "#7b3fa0", "B": "#2b6cb0", "O": "#e8750a", "X": "#ffffff"}
FACE_TEXT = {"P": "#ffffff", "B": "#ffffff", "O": "#ffffff", "X": "#333333"}
UNROLLED = "#d9d4c7"
TYPE_NAMES = ("ground floor", "upper floor", "penthouse")
"""What the dice's types (``TYPES``: GF, UF, PH) are."""
DIE = 24
SLOT = 34
WIDTH = 680
MARGIN = 20


def _die(
    d: Drawing, x: float, y: float, kind: str, face: str | None, parent: Any, size: float = DIE, part: str | None = None
) -> None:
    """A die: its face's colour (grey when unrolled), its type written on it; ``part``: the
    picture part a click on it chooses (``skyline.choices``)."""
    fill = UNROLLED if face is None else FACE_FILL.get(face, "#ccc")
    ink = "#333333" if face is None else FACE_TEXT.get(face, "#333")
    g = d.box(x, y, size, size, parent, class_="die")
    d.add("rect", g, x=x, y=y, width=size, height=size, rx=4, fill=fill, stroke="#444", stroke_width=0.8,
          data_part=part)  # fmt: skip
    d.text(x + size / 2, y + size / 2 + 3.5, kind, size * 0.4, g, anchor="middle", fill=ink, font_weight="bold")


def _counts(d: Drawing, x: float, y: float, label: str, counts: tuple[int, ...], parent: Any) -> float:
    d.text(x, y, label, 11, parent, fill="#555")
    for i, kind in enumerate(TYPES):
        _die(d, x + i * 58, y + 6, kind, None, parent, part=label)
        d.text(x + i * 58 + DIE + 4, y + 23, f"×{counts[i]}", 12, parent)
    return x + 3 * 58


def _game(position: Any) -> Any:
    """A state's game, or a view's when it names one."""
    return getattr(position, "game", None)


def _dice(position: Any) -> list[tuple[str, str | None]]:
    """The dice in play: the active dice (rolled), and in the roll phase those being rolled."""
    dice: list[tuple[str, str | None]] = list(position.active)
    if position.phase == "roll":
        dice += [(kind, None) for kind, count in zip(TYPES, position.rolling, strict=True) for _ in range(count)]
    return dice


PER_ROW = int((WIDTH - 2 * MARGIN) // (DIE + 4))
"""Active dice drawn in a row."""


def render(position: Any, options: PictureOptions) -> str:
    """A state or a view as SVG text (see the module's docstring)."""
    game = _game(position)
    n = len(position.skylines)
    rows = [max(3, *(b.height for b in s.buildings)) if s.buildings else 3 for s in position.skylines]
    row_heights = [r * DIE + 76 for r in rows]
    dice = _dice(position)
    last = _move(game, options.last_move)
    move, mover = options.marked
    marked = _marked(position, last if move is options.last_move else _move(game, move), mover)
    marks = _marks(n, marked is not None)
    top: float = 100 + max(1, -(-len(dice) // PER_ROW)) * (DIE + 4) + (18 if last is not None else 0)
    top += key_height(marks, WIDTH - 2 * MARGIN) + 12
    d = Drawing(WIDTH, top + sum(row_heights) + 6, options.size, f"Skyline, round {position.round}")
    sheet = final_sheet(position)
    d.text(MARGIN, 22, _headline(position, game, sheet), 14, room=WIDTH - 2 * MARGIN, font_weight="bold")
    shared = d.group(class_="dice")
    x = _counts(d, MARGIN, 44, "yard", position.yard, shared) + 14
    _counts(d, x, 44, "district", position.district, shared)
    d.text(MARGIN, 94, "rolling" if position.phase == "roll" else "active dice", 11, shared, fill="#555")
    for i, (kind, face) in enumerate(dice):
        part = None if face is None else die_part((kind, face))
        _die(d, MARGIN + (i % PER_ROW) * (DIE + 4), 100 + (i // PER_ROW) * (DIE + 4), kind, face, shared, part=part)
    if not dice:
        d.text(MARGIN, 117, "none", 11, shared, fill="#999")
    y: float = 100 + max(1, -(-len(dice) // PER_ROW)) * (DIE + 4) + 4
    if last is not None:
        d.text(MARGIN, y + 10, last_move_text(last, options.last_player), 11, room=WIDTH - 2 * MARGIN, fill="#444")
        y += 18
    key(d, MARGIN, y, WIDTH - 2 * MARGIN, marks)
    y = top
    for p in range(n):
        _skyline(d, position, p, y, row_heights[p], marked, sheet)
        y += row_heights[p]
    return d.tostring()


def _headline(position: Any, game: Any, sheet: ScoreSheet | None) -> str:
    over = position.phase == "over"
    rounds = f" of {game.rules.rounds}" if game is not None else ""
    head = "Skyline · game over" if over else f"Skyline · round {position.round}{rounds} · P{position.turn}'s turn"
    if sheet is not None:
        head += f" · {result_text(sheet)}"
    if not over:
        head += f" · {position.phase}"
    if position.trigger and not over:
        head += " · last round (six floors built)"
    return head


def _move(game: Any, move: Any) -> Any:
    """A move given as text read as the game reads it (None when it cannot be read)."""
    if isinstance(move, str):
        try:
            return game.parse_move(move) if game is not None else None
        except ValueError:
            return None
    return move


def _marks(players: int, highlighted: bool) -> list[Mark]:
    """The key: what the dice, the buildings and the seats' colours mean."""
    faces = (("purple", "P"), ("blue", "B"), ("orange", "O"), ("blank", "X"))
    marks = [Mark(f"{name} face", "die", fill=FACE_FILL[face], stroke="#444") for name, face in faces]
    marks.append(Mark("not rolled", "die", fill=UNROLLED, stroke="#444"))
    marks += [Mark(meaning, "text", letter=kind) for kind, meaning in zip(TYPES, TYPE_NAMES, strict=True)]
    marks += [
        Mark("completed building", fill=FACE_FILL["P"], stroke="#222"),
        Mark("its points", "text", letter="+4"),
        Mark("building number", "text", letter="#3", stroke="#555"),
    ]
    marks += [Mark(f"P{p}", "disc", fill=player_colour(p), stroke="#fff") for p in range(players)]
    if highlighted:
        marks.append(Mark("last build", "frame", stroke=HIGHLIGHT))
    return marks


def _marked(position: Any, last: Any, player: int | None) -> tuple[int, int] | None:
    """The (seat, building id) the last move built on, if it was a build."""
    if not isinstance(last, Build) or player is None or not 0 <= player < len(position.skylines):
        return None
    skyline = position.skylines[player]
    if last.target is None:
        return (player, skyline.next_id - 1)
    return (player, last.target)


def _skyline(
    d: Drawing, position: Any, p: int, y: float, h: float, marked: tuple[int, int] | None, sheet: ScoreSheet | None
) -> None:
    g = d.box(MARGIN, y, WIDTH - 2 * MARGIN, h - 8, class_="skyline")
    skyline = position.skylines[p]
    acting = p in position.to_act or (position.phase == "roll" and p == position.turn)
    d.add("rect", g, x=MARGIN, y=y, width=WIDTH - 2 * MARGIN, height=h - 8, rx=4,
          fill="#fff7e0" if acting else "#f3f0e8", stroke="#e0a800" if acting else "#c9bfa8")  # fmt: skip
    d.add("circle", g, cx=MARGIN + 14, cy=y + 16, r=7, fill=player_colour(p))
    you = " · viewer" if isinstance(position, SkylineView) and position.player == p else ""
    tiles = skyline.tiles
    points = f"{skyline.points} points from {len(tiles)} completed"
    if sheet is not None:  # the final score: bonuses and converted low-rises included, as the sheet has it
        points = score_text(sheet, p)
    d.text(MARGIN + 26, y + 20, f"P{p}{you} · {points}", 12, g, room=WIDTH - 2 * MARGIN - 36, font_weight="bold")
    ground = y + h - 26
    d.add("line", g, x1=MARGIN + 8, y1=ground, x2=WIDTH - MARGIN - 8, y2=ground, stroke="#777")
    count = len(skyline.buildings)
    slot = min(SLOT, (WIDTH - 2 * MARGIN - 20) / max(1, count))
    x: float = MARGIN + 12
    for building in skyline.buildings:
        colour = FACE_FILL[building.colour]
        if isinstance(building, Column):
            for level, kind in enumerate(building.pieces):
                _die(d, x + (slot - DIE) / 2, ground - (level + 1) * DIE, kind, building.colour, g)
        elif isinstance(building, Tile):
            top = ground - building.height * DIE
            d.add("rect", g, x=x + (slot - DIE) / 2, y=top, width=DIE, height=building.height * DIE, fill=colour,
                  stroke="#222", stroke_width=1.5)  # fmt: skip
            for level in range(1, building.height):
                yy = ground - level * DIE
                d.add("line", g, x1=x + (slot - DIE) / 2 + 4, y1=yy, x2=x + (slot + DIE) / 2 - 4, y2=yy,
                      stroke="#ffffff", stroke_opacity=0.5)  # fmt: skip
            d.text(x + slot / 2, top - 4, f"+{building.points}", 10, g, anchor="middle", font_weight="bold")
        d.text(x + slot / 2, ground + 13, f"#{building.id}", 9, g, anchor="middle", fill="#555")
        if marked == (p, building.id):
            tall = building.height * DIE
            d.add("rect", g, x=x + (slot - DIE) / 2 - 3, y=ground - tall - 3, width=DIE + 6, height=tall + 6,
                  fill="none", stroke=HIGHLIGHT, stroke_width=3)  # fmt: skip
        x += slot
    if not skyline.buildings:
        d.text(MARGIN + 12, ground - 8, "no buildings", 11, g, fill="#999")
