"""Writes ``src/citybuild/core/glyph_widths.py``: the advance widths of DejaVu Sans (Book and Bold),
in em, of printable ASCII and the few other characters the pictures draw.

Run once, by hand, where the fonts and fontTools are installed (``python tools/glyph_widths.py``);
the table it writes is committed data, so neither the pictures nor their tests need a font.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont

FONTS = Path("/usr/share/fonts/truetype/dejavu")
OUT = Path(__file__).resolve().parents[1] / "src" / "citybuild" / "core" / "glyph_widths.py"
EXTRA = "·—–…×▲▶▼◀•"
"""Characters beyond ASCII that the pictures write."""
HEAD = '''"""The advance widths of DejaVu Sans, the font the pictures name first, in em (written by
``tools/glyph_widths.py`` from the font files; data, not code to edit by hand).

``REGULAR`` and ``BOLD`` give each printable ASCII character's width, and those of the few other
characters the pictures draw; ``DEFAULT`` is the width assumed for any other character (the
widest of the table, so a guess never makes a text look shorter than it is). ``ASCENT`` and
``DESCENT`` bound a line of text above and below its baseline.
"""

from __future__ import annotations

'''


def widths(name: str) -> dict[str, float]:
    font = TTFont(FONTS / name)
    units = font["head"].unitsPerEm
    cmap = font.getBestCmap()
    metrics = font["hmtx"].metrics
    chars = [chr(c) for c in range(32, 127)] + list(EXTRA)
    return {ch: round(metrics[cmap[ord(ch)]][0] / units, 4) for ch in chars}


def extent(name: str) -> tuple[float, float]:
    """How far the table's glyphs reach above and below the baseline, in em (rounded up)."""
    font = TTFont(FONTS / name)
    units, glyphs, cmap = font["head"].unitsPerEm, font.getGlyphSet(), font.getBestCmap()
    top = bottom = 0.0
    for ch in [chr(c) for c in range(33, 127)] + list(EXTRA):
        pen = BoundsPen(glyphs)
        glyphs[cmap[ord(ch)]].draw(pen)
        if pen.bounds:
            top, bottom = max(top, pen.bounds[3] / units), max(bottom, -pen.bounds[1] / units)
    return math.ceil(top * 100) / 100, math.ceil(bottom * 100) / 100


def table(name: str, values: dict[str, float]) -> str:
    lines = [f"{name}: dict[str, float] = {{"]
    lines += [f"    {ch!r}: {w}," for ch, w in values.items()]
    return "\n".join([*lines, "}"])


def main() -> int:
    regular, bold = widths("DejaVuSans.ttf"), widths("DejaVuSans-Bold.ttf")
    ascent, descent = extent("DejaVuSans.ttf")
    default = max(max(regular.values()), max(bold.values()))
    body = [
        table("REGULAR", regular),
        table("BOLD", bold),
        f"DEFAULT = {default}",
        f"ASCENT = {ascent}",
        f"DESCENT = {descent}",
    ]
    OUT.write_text(HEAD + "\n\n".join(body) + "\n")
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
