"""A tune's report, in the blocks of a study's report (so HTML and Markdown say the same thing):
the recommended variant ready to copy, its objectives against the preset's, the options set
aside, the Pareto front, the plots, and every candidate with its games and standing."""

from __future__ import annotations

import os
from pathlib import Path

from citybuild.study.objectives import OBJECTIVES, Estimate, Objectives
from citybuild.study.report import Block, Code, Heading, Image, Paragraph, Table, check_path, write_blocks
from citybuild.study.tuning import Entry, Tuning

NAMES = {
    "fairness": "fairness: largest seat gap",
    "shared": "shared wins",
    "moves": "player moves",
    "rounds": "rounds",
    "margin": "winner's margin",
    "score": "combined score",
}
"""How the report names each objective."""


def _estimate(name: str, e: Estimate) -> str:
    if e.value != e.value:
        return "-"
    if name in ("fairness", "shared"):
        return f"{100 * e.value:.1f}% ({100 * e.low:.1f} to {100 * e.high:.1f})"
    digits = 3 if name == "score" else 1
    return f"{e.value:.{digits}f} ({e.low:.{digits}f} to {e.high:.{digits}f})"


def _objective_cells(o: Objectives) -> tuple[str, ...]:
    return tuple(_estimate(name, o.get(name)) for name in ("score", *OBJECTIVES))


def blocks(result: Tuning, title: str = "Tune report", note: str = "", plots: bool = True) -> list[Block]:
    """The report's content, in order."""
    space = result.space
    best, base = result.recommended, result.baseline
    weights = ", ".join(f"{name} {w:g}" for name, w in result.weights.items() if w)
    lineup = ",".join(result.bots) if len(set(result.bots)) > 1 else result.bots[0]
    out: list[Block] = [Heading(title, 1)]
    intro = (
        f"{space.game} {space.preset}, {result.players} players, bots {lineup}, seed {result.seed}: "
        f"{len(result.entries)} candidates, {result.games:,} games of a budget of {result.budget:,} "
        f"in {len(result.rounds)} rounds; {result.stopped}. Every objective is better smaller. The combined "
        f"score weighs {weights}, moves and margin as fractions of the preset's. Intervals are 95%: Wilson's "
        "for shared wins, the normal one for means, a bootstrap over the games for fairness and the score."
    )
    out.append(Paragraph(f"{note} {intro}".strip()))
    out.append(Heading("Recommended variant"))
    lines = result.option_lines()
    if lines:
        out.append(Paragraph(f"{best.label}, after {best.games:,} games. As options of citybuild play or study:"))
        out.append(Code(" ".join(lines)))
        out.append(Paragraph("As a Rules value:"))
        out.append(Code(result.rules_text()))
    else:
        out.append(Paragraph(f"The preset itself ({best.label}): no variant searched did better."))
    header = ("objective", "recommended", f"{space.preset} (the preset)")
    rows = [
        (NAMES[name], a, b)
        for name, a, b in zip(
            ("score", *OBJECTIVES), _objective_cells(best.objectives), _objective_cells(base.objectives), strict=True
        )
    ]
    rows.append(("games", f"{best.games:,}", f"{base.games:,}"))
    out.append(Table(header, tuple(rows)))
    if space.inert:
        out.append(Heading("Options with no effect here"))
        out.append(Paragraph("These were asked for but not searched: under these rules they change nothing."))
        out.append(Table(("option", "why"), tuple(space.inert.items())))
    out.append(Heading("The Pareto front"))
    out.append(
        Paragraph(
            "The candidates that no other beats in fairness, shared wins, moves and margin at once (point "
            "values; a dropped candidate's rest on fewer games)."
        )
    )
    out.append(_table(result, result.front))
    if plots:
        from citybuild.study.tune_plots import captions, figures

        named = captions(result)
        out.append(Heading("Plots"))
        for kind, png in figures(result).items():
            out.append(Image(kind, named[kind], png))
    out.append(Heading("Every candidate"))
    out.append(_rounds(result))
    ranked = sorted(result.entries, key=lambda e: (e.status != "recommended", -e.games, e.objectives.score.value))
    out.append(_table(result, ranked, standing=True))
    return out


def _table(result: Tuning, entries: tuple[Entry, ...] | list[Entry], standing: bool = False) -> Table:
    names = tuple(d.name for d in result.space.dimensions)
    header = (*names, "games", *(NAMES[n] for n in ("score", *OBJECTIVES)), *(("standing", "why") if standing else ()))
    rows = []
    for e in entries:
        values = tuple(_text(v) for _, v in e.candidate)
        extra = (e.status, e.reason) if standing else ()
        rows.append((*values, f"{e.games:,}", *_objective_cells(e.objectives), *extra))
    return Table(header, tuple(rows))


def _rounds(result: Tuning) -> Paragraph:
    steps = "; ".join(f"round {r.number}: {r.racing} racing to {r.games:,} games each" for r in result.rounds)
    return Paragraph(
        f"{steps}. A candidate is dropped when its score is worse than the best's by more than the "
        "95% interval of the difference; one added in a later round refines an integer range."
    )


def _text(value: object) -> str:
    from citybuild.cli.options import option_text

    return option_text(value)


def write(result: Tuning, path: str | os.PathLike[str], title: str = "Tune report", note: str = "") -> list[Path]:
    """Write a tune's report: HTML (``.html``, plots embedded) or Markdown (``.md``, plots as PNG
    files beside it). Returns the files written."""
    check_path(path)
    return write_blocks(blocks(result, title, note), path)
