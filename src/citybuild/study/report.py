"""A study's report, as one self-contained HTML page (plots embedded as base64 PNG) or as Markdown
(plots written as PNG files beside it): the cells side by side, the plots, then each cell.

Both are rendered from one list of blocks, so the two formats always say the same thing.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from citybuild.core.errors import RulesError
from citybuild.study.plots import KINDS, figures
from citybuild.study.stats import CellStats, Spread, summarise

if TYPE_CHECKING:
    import pyarrow as pa


@attrs.frozen
class Heading:
    text: str
    level: int = 2


@attrs.frozen
class Paragraph:
    text: str


@attrs.frozen
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@attrs.frozen
class Image:
    kind: str
    caption: str
    png: bytes = attrs.field(repr=False)


@attrs.frozen
class Code:
    """Lines a reader copies as they are (command-line arguments, Python)."""

    text: str


Block = Heading | Paragraph | Table | Image | Code


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return "-" if x != x else f"{x:.1f}"


def _spread(s: Spread) -> str:
    return "-" if s.mean != s.mean else f"{s.mean:.1f} ({s.low:.0f}-{s.high:.0f})"


def blocks(table: pa.Table, title: str = "Study report", note: str = "", plots: bool = True) -> list[Block]:
    """The report's content, in order."""
    stats = summarise(table)
    if not stats:
        raise RulesError("the study has no games to report on")
    out: list[Block] = [Heading(title, 1)]
    games = sum(c.games for c in stats)
    intro = (
        f"{games:,} games in {len(stats)} cells. Win rates count a win shared by k players as 1/k to "
        "each; intervals are 95% Wilson intervals; a fair game gives every seat 1/players. "
        "Ranges are the 10th to 90th percentiles."
    )
    out.append(Paragraph(f"{note} {intro}".strip()))
    out.append(Heading("The cells side by side"))
    out.append(comparison(stats))
    if plots:
        out.append(Heading("Plots"))
        for kind, png in figures(stats).items():
            out.append(Image(kind, KINDS[kind], png))
    out.append(Heading("Each cell"))
    for cell in stats:
        out.extend(cell_blocks(cell))
    return out


def comparison(stats: Sequence[CellStats]) -> Table:
    """One row per cell: games, each seat's win rate, seat 0's edge, scores, tie-breaks, length."""
    most = max(c.players for c in stats)
    header = (
        "cell",
        "games",
        *(f"P{seat} wins" for seat in range(most)),
        "P0 edge",
        "winning score",
        "margin",
        "tie-broken",
        "shared",
        "moves",
        "rounds",
    )
    rows = []
    for c in stats:
        seats = [_pct(s.win_rate) for s in c.seats] + [""] * (most - c.players)
        edge = c.first_seat_edge
        low, high = c.seats[0].low - c.fair, c.seats[0].high - c.fair
        broken = sum(v for k, v in c.tiebreaks.items() if k not in ("score", "shared"))
        rows.append(
            (
                c.cell,
                f"{c.games:,}",
                *seats,
                f"{100 * edge:+.1f} ({100 * low:+.1f} to {100 * high:+.1f})",
                _spread(c.winning_score),
                _num(c.margin.mean),
                _pct(broken),
                _pct(c.tiebreaks.get("shared", 0.0)),
                _spread(c.moves),
                _num(c.rounds.mean),
            )
        )
    return Table(header, tuple(rows))


def cell_blocks(c: CellStats) -> list[Block]:
    """One cell in detail: seats, categories, tie-breaks, length."""
    out: list[Block] = [Heading(c.cell, 3)]
    out.append(
        Paragraph(
            f"{c.game}, {c.variant}, {c.players} players, bots {c.bots}: {c.games:,} games. "
            f"Winning score {_spread(c.winning_score)}, margin over the runner-up {_num(c.margin.mean)}; "
            f"{_spread(c.moves)} player moves, {_num(c.rounds.mean)} rounds."
        )
    )
    out.append(
        Table(
            ("seat", "bot", "win rate", "95% interval", "mean score", "sd", "median", "10th-90th"),
            tuple(
                (
                    f"P{s.seat}",
                    s.bot,
                    _pct(s.win_rate),
                    f"{_pct(s.low)}-{_pct(s.high)}",
                    _num(s.score.mean),
                    _num(s.score.sd),
                    _num(s.score.median),
                    f"{s.score.low:.0f}-{s.score.high:.0f}",
                )
                for s in c.seats
            ),
        )
    )
    total = sum(c.categories.values())
    if c.categories:
        out.append(
            Table(
                ("category", "points per player", "share of points"),
                tuple(
                    (name, _num(points), _pct(points / total) if total else "-")
                    for name, points in sorted(c.categories.items(), key=lambda item: -item[1])
                ),
            )
        )
    out.append(Table(("first place decided by", "share of games"), tuple((k, _pct(v)) for k, v in c.tiebreaks.items())))
    return out


# --- rendering ------------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 78rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.8rem 0 1.4rem; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f2f4f8; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; } figcaption { font-size: 0.9rem; color: #555; }
"""


def to_html(content: Sequence[Block]) -> str:
    """A self-contained page: styles inline, plots as base64 PNG."""
    title = next((b.text for b in content if isinstance(b, Heading)), "Study report")
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
    ]
    for block in content:
        if isinstance(block, Heading):
            parts.append(f"<h{block.level}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, Code):
            parts.append(f"<pre><code>{html.escape(block.text)}</code></pre>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{html.escape(h)}</th>" for h in block.header)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>" for row in block.rows)
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        else:
            data = base64.b64encode(block.png).decode("ascii")
            parts.append(
                f'<figure><img alt="{html.escape(block.kind)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{html.escape(block.caption)}</figcaption></figure>"
            )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def to_markdown(content: Sequence[Block], images: str) -> tuple[str, dict[str, bytes]]:
    """Markdown text and the PNG files it links to (named ``<images>-<kind>.png``)."""
    lines: list[str] = []
    files: dict[str, bytes] = {}
    for block in content:
        if isinstance(block, Heading):
            lines += ["#" * block.level + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            lines += [block.text, ""]
        elif isinstance(block, Code):
            lines += ["```", block.text, "```", ""]
        elif isinstance(block, Table):
            lines.append("| " + " | ".join(_cell(h) for h in block.header) + " |")
            lines.append("|" + "|".join(":---" if i == 0 else "---:" for i in range(len(block.header))) + "|")
            lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in block.rows]
            lines.append("")
        else:
            name = f"{images}-{block.kind}.png"
            files[name] = block.png
            lines += [f"![{block.caption}]({name})", "", f"*{block.caption}*", ""]
    return "\n".join(lines), files


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


UNENCODABLE = "backslashreplace"
"""How a report writes what UTF-8 cannot hold: a title typed in bytes that are not UTF-8 reaches
Python as lone surrogates (it raised UnicodeEncodeError; now it reads '\\udcff')."""


def check_path(path: str | os.PathLike[str]) -> str:
    """The report's format from its path, ``.html`` (or ``.htm``) or ``.md``; a ``RulesError``
    for any other (``citybuild study`` checks before playing, not after hours of games)."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".html", ".htm", ".md"):
        raise RulesError(f"a report is .html or .md, not {str(path)!r}")
    return suffix


def write(
    table: pa.Table, path: str | os.PathLike[str], title: str = "Study report", note: str = "", plots: bool = True
) -> list[Path]:
    """Write the report of ``table`` to ``path``: HTML for ``.html``/``.htm``, Markdown for
    ``.md`` (plots beside it as ``<name>-<plot>.png``); the files written."""
    check_path(path)
    return write_blocks(blocks(table, title, note, plots), path)


def write_blocks(content: Sequence[Block], path: str | os.PathLike[str]) -> list[Path]:
    """Write a report's blocks to ``path`` as HTML or Markdown (by its suffix); the files written."""
    target = Path(path)
    suffix = check_path(path)
    try:
        if suffix == ".md":
            text, files = to_markdown(content, target.stem)
            written = []
            for name, png in files.items():
                (target.parent / name).write_bytes(png)
                written.append(target.parent / name)
            target.write_text(text, encoding="utf-8", errors=UNENCODABLE)
            return [target, *written]
        target.write_text(to_html(content), encoding="utf-8", errors=UNENCODABLE)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte or unencodable character in the path
        raise RulesError(f"cannot write the report {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    return [target]
