"""Pictures of positions as SVG, written as XML through the standard library (as ``chess.svg`` does).

A game draws its positions and views through the optional ``GameSpec.render`` hook, a function
``render(position, options) -> str``; ``picture(position, ...)`` calls the hook of the spec the
position's game carries, and ``State._repr_svg_`` (and every view's) is ``picture(self)``, so a notebook
shows a position as a picture. This module holds what every game's drawing shares: the options,
a small element builder with deterministic output (attributes in the order given, numbers rounded
to two decimals), the player colours, and the checks of the options.
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from typing import Any

import attrs

from citybuild.core import glyph_widths
from citybuild.core.errors import RulesError
from citybuild.core.scoresheet import ScoreSheet

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, sans-serif"
"""The pictures' font: DejaVu Sans, whose glyph widths ``citybuild.core.glyph_widths`` holds, so
that a picture knows how wide each of its texts is without any font installed."""
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#e6a800", "#2ca02c", "#9467bd")
"""Seat (or colour) 0, 1, 2, ...: red, blue, amber, green, purple; letters are always drawn too."""
TEXT_ON = ("#ffffff", "#ffffff", "#222222", "#ffffff", "#ffffff")
"""A readable text colour on each of ``PLAYER_COLOURS``."""
HIGHLIGHT = "#ff00aa"
"""The outline of what the last move changed."""


def _positive_size(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 16 <= value <= 10_000):
        raise RulesError(f"picture option {attribute.name}={value!r}: expected None or an int from 16 to 10000 pixels")


def _orientation(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise RulesError(f"picture option {attribute.name}={value!r}: expected None or a seat number")


def _bool(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"picture option {attribute.name}={value!r}: expected True or False")


@attrs.frozen(kw_only=True)
class PictureOptions:
    """How to draw a position.

    ``size``: the picture's width in pixels (None: the game's natural size; the height follows).
    ``orientation``: the seat whose side is drawn at the bottom (None: the viewer of a view, else
    seat 0); games without sides ignore it. ``last_move``: a move (or its text) to highlight.
    ``last_player``: who made it (None: chance, or unknown). ``coordinates``: draw lot numbers
    and grid coordinates."""

    size: int | None = attrs.field(default=None, validator=_positive_size)
    orientation: int | None = attrs.field(default=None, validator=_orientation)
    last_move: Any = None
    last_player: int | None = attrs.field(default=None, validator=_orientation)
    marked_move: Any = None
    """The last player move, when chance came after it (a draw after a build): what the
    picture highlights; None: the last move itself."""
    marked_player: int | None = attrs.field(default=None, validator=_orientation)
    coordinates: bool = attrs.field(default=True, validator=_bool)

    @property
    def marked(self) -> tuple[Any, int | None]:
        """The move a picture highlights and who made it: the last player move."""
        if self.marked_move is not None:
            return self.marked_move, self.marked_player
        return self.last_move, self.last_player


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at font size ``size`` (from the committed glyph widths)."""
    table = glyph_widths.BOLD if bold else glyph_widths.REGULAR
    return size * sum(table.get(ch, glyph_widths.DEFAULT) for ch in text)


def fit(text: str, room: float, size: float, bold: bool = False, smallest: float = 7.0) -> tuple[str, float]:
    """``text`` and a font size at which it fits in ``room`` pixels: ``size`` if it fits, else
    smaller down to ``smallest``, and below that the text cut short with an ellipsis."""
    wide = text_width(text, size, bold)
    if wide <= room:
        return text, size
    if wide * smallest / size <= room:
        return text, math.floor(size * room / wide * 100) / 100
    while text and text_width(text + "…", smallest, bold) > room:
        text = text[:-1]
    return (text.rstrip() + "…" if text else ""), smallest


def wrap(words: list[str], room: float, size: float, bold: bool = False, sep: str = " ") -> list[str]:
    """``words`` joined by ``sep`` into as few lines as fit in ``room``; a word wider than the room
    is broken at its spaces (and what is still too wide is left to ``fit`` to cut)."""
    lines: list[str] = []
    for word in words:
        if lines and text_width(lines[-1] + sep + word, size, bold) <= room:
            lines[-1] += sep + word
        elif text_width(word, size, bold) > room and " " in word.strip():
            lines += wrap(word.split(), room, size, bold)
        else:
            lines.append(word)
    return lines


def num(value: float) -> str:
    """A coordinate as short, deterministic text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Drawing:
    """An SVG document being built: ``add`` appends elements to the root or to a group."""

    def __init__(self, width: float, height: float, size: int | None = None, title: str = "") -> None:
        self.width, self.height = width, height
        scale = 1.0 if size is None else size / width
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "version": "1.1",
                "width": num(width * scale),
                "height": num(height * scale),
                "viewBox": f"0 0 {num(width)} {num(height)}",
                "font-family": FONT,
            },
        )
        if title:
            ET.SubElement(self.root, "title").text = title
        self.add("rect", x=0, y=0, width=width, height=height, fill="#fbfaf6")

    def add(self, tag: str, parent: ET.Element | None = None, text: str | None = None, **attributes: Any) -> ET.Element:
        """An element with ``attributes`` (``class_`` for ``class``, ``font_size`` for
        ``font-size``: underscores become dashes); numbers are written by ``num``."""
        attrib = {}
        for key, value in attributes.items():
            if value is None:
                continue
            name = key.rstrip("_").replace("_", "-")
            attrib[name] = num(value) if isinstance(value, float | int) and not isinstance(value, bool) else str(value)
        element = ET.SubElement(self.root if parent is None else parent, tag, attrib)
        if text is not None:
            element.text = text
        return element

    def group(self, parent: ET.Element | None = None, **attributes: Any) -> ET.Element:
        return self.add("g", parent, **attributes)

    def text(
        self,
        x: float,
        y: float,
        content: str,
        size: float = 12,
        parent: ET.Element | None = None,
        anchor: str = "start",
        room: float | None = None,
        **attributes: Any,
    ) -> ET.Element:
        """A line of text whose baseline is at ``y``; with ``room`` (pixels), shrunk or cut by ``fit``
        so that it is no wider."""
        if room is not None:
            content, size = fit(content, room, size, attributes.get("font_weight") == "bold")
        return self.add("text", parent, content, x=x, y=y, font_size=size, text_anchor=anchor, **attributes)

    def box(self, x: float, y: float, width: float, height: float, parent: ET.Element | None = None,
            **attributes: Any) -> ET.Element:  # fmt: skip
        """A group for what is drawn inside the box (a tile, a lot, a card, a panel): every text in
        it stays inside; ``data-box`` says where the box is, for the tests that check it."""
        box = f"{num(x)} {num(y)} {num(width)} {num(height)}"
        return self.group(parent, **attributes, data_box=box)

    def tostring(self) -> str:
        ET.indent(self.root, space="")
        return ET.tostring(self.root, encoding="unicode")


def player_colour(index: int) -> str:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def text_colour(index: int) -> str:
    return TEXT_ON[index % len(TEXT_ON)]


def last_move_text(move: Any, player: int | None) -> str:
    """``last move: P1 build 3 Syd A4`` (a chance outcome without a seat)."""
    who = "" if player is None else f"P{player} "
    return f"last move: {who}{move}"


def final_sheet(position: Any) -> ScoreSheet | None:
    """The final score sheet a picture of ``position`` shows once the game is over: a state's own;
    a view's from any position it can be, since a finished game's score is told to everyone and its
    view shows all that scores (Urbanization's screens are lifted at the end)."""
    if getattr(position, "phase", None) != "over":
        return None
    scores = getattr(position, "scores", None)
    if scores is not None:
        sheet: ScoreSheet = scores()
        return sheet
    from citybuild.core.determinize import determinize

    game = getattr(position, "game", None)
    if game is None:
        return None

    whole: ScoreSheet = determinize(game, position, random.Random(0)).scores()  # every position it can be scores so
    return whole


def result_text(sheet: ScoreSheet) -> str:
    """``winner P0`` (``winners P0, P2``; ``after a tie-break`` when one decided): short enough
    for a headline, beside each player's final score on their own line."""
    winners = sheet.winners
    who = ("winner " if len(winners) == 1 else "winners ") + ", ".join(f"P{p}" for p in winners)
    return who + (" after a tie-break" if sheet.tiebreak else "")


def score_text(sheet: ScoreSheet, player: int) -> str:
    """``final score 60 · winner``: a player's total exactly as the final score sheet has it."""
    return f"final score {sheet.total(player)}" + (" · winner" if player in sheet.winners else "")


def picture(position: Any, **options: Any) -> str:
    """An SVG picture of a state or a view, drawn by its game's ``render`` hook.

    Keyword options are those of ``PictureOptions`` (``size``, ``orientation``, ``last_move``,
    ``coordinates``). Raises ``RulesError`` for a position that names no loaded game, a game
    that draws no pictures, or a bad option."""
    game = getattr(position, "game", None)
    if game is None or not hasattr(type(game), "spec"):
        raise RulesError(f"{type(position).__name__} is not a position or a view that names its game")
    game_spec = game.spec
    if game_spec.render is None:
        raise RulesError(f"{game_spec.name} draws no pictures (its GameSpec has no render hook)")
    drawn: str = game_spec.render(position, PictureOptions(**options))
    return drawn


class Pictured:
    """Mixed into view classes: a notebook shows a view as its picture, like a state."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return picture(self)


@attrs.frozen
class Mark:
    """One entry of a picture's key: a small sample of a mark and what it means. ``shape``:
    ``square`` (filled), ``disc`` (filled, ``letter`` on it), ``die`` (a rounded square, ``letter``
    on it), ``frame`` (an outline, dashed with ``dash``), ``line`` (a thick stroke) or ``text``
    (``letter`` alone, in the ``stroke`` colour)."""

    label: str
    shape: str = "square"
    fill: str = "none"
    stroke: str = "#333333"
    letter: str = ""
    ink: str = "#ffffff"
    dash: str | None = None


KEY_SIZE = 10
"""The font size of the key's labels."""
KEY_ROW = 17
KEY_SAMPLE = 12


def _key_rows(marks: list[Mark], width: float) -> list[list[tuple[Mark, float]]]:
    """The key's entries row by row, each with its x offset (entries flow left to right)."""
    rows: list[list[tuple[Mark, float]]] = [[]]
    x = text_width("key:", KEY_SIZE, True) + 8
    for mark in marks:
        wide = _sample_width(mark) + 4 + text_width(mark.label, KEY_SIZE)
        if rows[-1] and x + wide > width - 8:
            rows.append([])
            x = 8.0
        rows[-1].append((mark, x))
        x += wide + 12
    return rows


def key_height(marks: list[Mark], width: float) -> float:
    """The height ``key`` takes for ``marks`` in ``width`` pixels."""
    return len(_key_rows(marks, width)) * KEY_ROW + 6 if marks else 0.0


def key(d: Drawing, x: float, y: float, width: float, marks: list[Mark]) -> float:
    """The picture's key (what each of its marks means) in a box at (x, y): returns its height."""
    if not marks:
        return 0.0
    height = key_height(marks, width)
    g = d.box(x, y, width, height, class_="key")
    d.add("rect", g, x=x, y=y, width=width, height=height, rx=4, fill="#ffffff", stroke="#d8d0bd")
    d.text(x + 6, y + 15, "key:", KEY_SIZE, g, font_weight="bold", fill="#555")
    for row, entries in enumerate(_key_rows(marks, width)):
        base = y + 15 + row * KEY_ROW
        for mark, dx in entries:
            _sample(d, g, x + dx, base - 9.5, mark)
            d.text(x + dx + _sample_width(mark) + 4, base, mark.label, KEY_SIZE, g, fill="#333")
    return height


def _sample_width(mark: Mark) -> float:
    return text_width(mark.letter, KEY_SIZE, True) if mark.shape == "text" else KEY_SAMPLE


def _sample(d: Drawing, g: ET.Element, x: float, y: float, mark: Mark) -> None:
    s = KEY_SAMPLE
    if mark.shape == "text":
        d.text(x, y + s / 2 + 3.5, mark.letter, KEY_SIZE, g, font_weight="bold", fill=mark.stroke)
        return
    if mark.shape == "disc":
        d.add("circle", g, cx=x + s / 2, cy=y + s / 2, r=s / 2, fill=mark.fill, stroke=mark.stroke, stroke_width=0.6)
    elif mark.shape == "frame":
        d.add("rect", g, x=x + 1, y=y + 1, width=s - 2, height=s - 2, fill=mark.fill, stroke=mark.stroke,
              stroke_width=2, stroke_dasharray=mark.dash)  # fmt: skip
    elif mark.shape == "line":
        d.add("line", g, x1=x, y1=y + s / 2, x2=x + s, y2=y + s / 2, stroke=mark.stroke, stroke_width=3.5)
    else:
        rx = 2.5 if mark.shape == "die" else 0
        d.add("rect", g, x=x + 1, y=y + 1, width=s - 2, height=s - 2, rx=rx, fill=mark.fill, stroke=mark.stroke,
              stroke_width=0.8)  # fmt: skip
    if mark.letter:
        size = fit(mark.letter, s - 2, 7.5, True)[1]
        d.text(x + s / 2, y + s / 2 + 2.7, mark.letter, size, g, anchor="middle", font_weight="bold", fill=mark.ink)
