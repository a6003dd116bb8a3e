"""Pictures a designer would print: every text of every picture lies inside the picture, no two texts
overlap, a text drawn in a box (a tile, a lot, a card, a panel, the key) stays inside it, no text
covers a mark (a resource cube, a piece), every character's width is known, and every picture has
a key.

A text's extent is computed from its x, y, font size, anchor and weight with the glyph widths the
package ships (``citybuild.core.glyph_widths``): no font is needed. A box is a group with a
``data-box="x y width height"`` attribute; a text belongs to its nearest such group.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core import glyph_widths
from citybuild.core.registry import games, spec
from citybuild.core.svg import picture, text_width
from citybuild.match import Match

NS = "{http://www.w3.org/2000/svg}"
CASES = [(name, preset) for name in games() for preset in spec(name).presets]
EPS = 0.01
Rect = tuple[float, float, float, float]
"""x0, y0, x1, y1."""


@attrs.frozen
class Placed:
    text: str
    rect: Rect
    box: Rect | None


def _rotate(rect: Rect, transform: str | None) -> Rect:
    """``rect`` under a ``rotate(a cx cy)`` transform (quarter turns only)."""
    if not transform:
        return rect
    found = re.fullmatch(r"rotate\((-?[\d.]+) (-?[\d.]+) (-?[\d.]+)\)", transform)
    assert found, f"unexpected transform {transform!r}"
    angle, cx, cy = (float(v) for v in found.groups())
    assert angle % 90 == 0, transform
    x0, y0, x1, y1 = rect
    corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
    for _ in range(int(angle // 90) % 4):  # one quarter turn clockwise on screen: (x, y) -> (-y, x) about the centre
        corners = [(cx - (y - cy), cy + (x - cx)) for x, y in corners]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def extent(node: ET.Element, bold: bool) -> Rect:
    """Where a text element's glyphs can reach."""
    size = float(node.get("font-size", "16"))
    width = text_width(node.text or "", size, bold)
    x, y = float(node.get("x", "0")), float(node.get("y", "0"))
    anchor = node.get("text-anchor", "start")
    x0 = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    rect = (x0, y - glyph_widths.ASCENT * size, x0 + width, y + glyph_widths.DESCENT * size)
    return _rotate(rect, node.get("transform"))


def _box(node: ET.Element) -> Rect | None:
    value = node.get("data-box")
    if value is None:
        return None
    x, y, w, h = (float(v) for v in value.split())
    return x, y, x + w, y + h


Walked = tuple[ET.Element, Rect | None, bool]
"""An element, the box it is drawn in (None: the picture), and whether its text is bold."""


def walk(node: ET.Element, box: Rect | None = None, bold: bool = False) -> Iterator[Walked]:
    box = _box(node) or box
    bold = node.get("font-weight", "bold" if bold else "normal") == "bold"
    yield node, box, bold
    for child in node:
        yield from walk(child, box, bold)


def placed_texts(root: ET.Element) -> list[Placed]:
    return [Placed(n.text or "", extent(n, bold), box) for n, box, bold in walk(root) if n.tag == f"{NS}text"]


def marks(root: ET.Element) -> list[Rect]:
    """The shapes no text may cover (``class="mark"``)."""
    out = []
    for node in root.iter(f"{NS}rect"):
        if "mark" in (node.get("class") or "").split():
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            out.append((x, y, x + float(node.get("width", "0")), y + float(node.get("height", "0"))))
    return out


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        inner[0] >= outer[0] - EPS
        and inner[1] >= outer[1] - EPS
        and inner[2] <= outer[2] + EPS
        and inner[3] <= outer[3] + EPS
    )


def overlap(a: Rect, b: Rect) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > EPS and min(a[3], b[3]) - max(a[1], b[1]) > EPS


def layout_faults(svg: str) -> list[str]:
    """What is wrong with a picture's layout (nothing: an empty list)."""
    root = ET.fromstring(svg)
    x, y, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    frame = (x, y, x + w, y + h)
    texts = placed_texts(root)
    faults = [f"outside the picture: {t.text!r} {t.rect}" for t in texts if not inside(t.rect, frame)]
    faults += [f"outside its box: {t.text!r} {t.rect} {t.box}" for t in texts if t.box and not inside(t.rect, t.box)]
    ordered = sorted(texts, key=lambda t: t.rect[0])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.rect[0] >= a.rect[2]:
                break
            if overlap(a.rect, b.rect):
                faults.append(f"overlap: {a.text!r} {a.rect} and {b.text!r} {b.rect}")
    for mark in marks(root):
        faults += [f"over a mark: {t.text!r} {t.rect} {mark}" for t in texts if overlap(t.rect, mark)]
    unknown = {ch for t in texts for ch in t.text if ch not in glyph_widths.REGULAR}
    faults += [f"no glyph width for {ch!r}" for ch in sorted(unknown)]  # its width would be a guess
    if root.find(f".//{NS}g[@class='key']") is None:
        faults.append("no key")
    return faults


def pictures_of(match: Match, indices: list[int]) -> Iterator[tuple[str, str]]:
    """The pictures of the match after each step in ``indices``: the whole state (its last move
    marked) and each seat's view, each with a name for the failure message."""
    for index in indices:
        state = match.states[index]
        entry = match.history[index - 1] if index else None
        last = {"last_move": entry.move, "last_player": entry.player} if entry else {}
        yield f"state after {index} steps", picture(state, **last)
        for seat in range(state.game.players):
            yield f"seat {seat}'s view after {index} steps", picture(state.view(seat))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**31),
    fractions=st.lists(st.floats(0, 1), min_size=1, max_size=3),
)
def test_no_text_leaves_its_box_or_overlaps_another(
    case: tuple[str, str], players: int, seed: int, fractions: list[float]
) -> None:
    name, preset = case
    game_spec = spec(name)
    players = min(max(players, game_spec.min_players), game_spec.max_players)
    match = Match(cb.load(name, players=players, preset=preset), seed=seed)
    while not match.is_over:
        player = match.state.to_act[0]
        match.play(match.random_move(player), player)
    steps = len(match.history)
    indices = sorted({0, steps, *(round(f * steps) for f in fractions)})
    for what, svg in pictures_of(match, indices):
        faults = layout_faults(svg)
        assert not faults, f"{name}/{players} {preset} seed {seed}, {what}:\n" + "\n".join(faults[:8])


def test_the_checker_sees_overlaps_and_escapes() -> None:
    """The test's own eyes: an overlap, a text out of its box and one out of the picture are seen."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><g class="key">'
        '<text x="10" y="20" font-size="10">hello</text><text x="20" y="22" font-size="10">world</text>'
        '<g data-box="0 30 20 20"><text x="2" y="45" font-size="10">too wide</text></g>'
        '<text x="98" y="10" font-size="10" text-anchor="start">x</text></g></svg>'
    )
    faults = layout_faults(svg)
    assert any(f.startswith("overlap: 'hello'") for f in faults)
    assert any(f.startswith("outside its box: 'too wide'") for f in faults)
    assert any(f.startswith("outside the picture: 'x'") for f in faults)
    assert len(faults) == 3
    assert text_width("Mi", 10) == 10 * (glyph_widths.REGULAR["M"] + glyph_widths.REGULAR["i"])


def key_labels(svg: str) -> list[str]:
    found = ET.fromstring(svg).find(f".//{NS}g[@class='key']")
    assert found is not None
    return [t.text or "" for t in found.iter(f"{NS}text")]


def test_the_key_names_each_players_colour_and_the_marked_move() -> None:
    manhattan = cb.load("manhattan", players=2).parse_state(
        "manhattan/2 round=1 phase=build turn=0 hands=0034/1278 chosen=1124/1/1333/1"
    )
    whole = key_labels(picture(manhattan))
    assert {"P0's pieces (A)", "P0's pieces (C)", "P1's pieces (B)", "P1's pieces (D)"} <= set(whole)
    assert "card seen from the back" not in whole and "last build" not in whole
    seen = key_labels(picture(manhattan.view(0)))
    assert "card seen from the back" in seen  # the other hand is face down
    marked = key_labels(picture(manhattan.play("build 0 Syd A1"), last_move="build 0 Syd A1", last_player=0))
    assert "last build" in marked
    for name, players in (("skyline", 3), ("urbanization", 4)):
        match = Match(cb.load(name, players=players), seed=3)
        labels = key_labels(picture(match.state))
        colours = [label for label in labels if re.match(r"P\d", label)]
        assert len(colours) == players, labels
    urbanization = key_labels(picture(cb.load("urbanization", players=3).initial_state()))
    assert {"Construction Site", "district", "Urbanization token"} <= set(urbanization)


def test_the_card_rotation_diagram_is_laid_out_and_keyed() -> None:
    from citybuild.games.manhattan.picture import rotation_diagram

    assert layout_faults(rotation_diagram()) == []
