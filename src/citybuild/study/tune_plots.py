"""A tune's plots, drawn with matplotlib's object interface: each option's effect on the score
and on fairness, the objectives' trade-off with the Pareto front, and the games each candidate
got."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

from citybuild.cli.options import option_text
from citybuild.study.extra import need
from citybuild.study.tuning import DROPPED, RECOMMENDED, REFERENCE, Entry, Tuning

STATUS_COLOURS = {RECOMMENDED: "#d62728", "kept": "#4269d0", DROPPED: "#9a9a9a", REFERENCE: "#efb118"}


def captions(result: Tuning) -> dict[str, str]:
    """Each plot's name and caption, in the report's order."""
    out = {
        f"effect-{d.name}": f"The effect of {d.name}: the score and fairness of every candidate with 95% "
        "intervals (smaller is better); the line joins those that share the other options with the recommended one"
        for d in result.space.dimensions
    }
    out["front"] = "Fairness against game length: the Pareto front (ringed) and the recommended variant (red)"
    out["games"] = "Games each candidate got before it was dropped or the search stopped"
    return out


def figures(result: Tuning) -> dict[str, bytes]:
    """Every plot as PNG bytes, by name."""
    out = {}
    for i, d in enumerate(result.space.dimensions):
        out[f"effect-{d.name}"] = _figure(functools.partial(_effect, result=result, i=i), (8.0, 3.2))
    out["front"] = _figure(lambda figure: _front(figure, result), (6.5, 4.0))
    out["games"] = _figure(lambda figure: _games(figure, result), (max(6.0, 0.4 * len(result.entries) + 2), 3.6))
    return out


def _figure(draw: Callable[[Any], None], size: tuple[float, float]) -> bytes:
    figure = need("matplotlib.figure").Figure(figsize=size, layout="constrained")
    draw(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


def _x(values: tuple[Any, ...], value: Any) -> float:
    """Where a value sits on an option's axis: itself for numbers, its place in the list otherwise."""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return float(value)
    return float(values.index(value))


def _effect(figure: Any, result: Tuning, i: int) -> None:
    d = result.space.dimensions[i]
    best = result.recommended.candidate
    axes = figure.subplots(1, 2)
    for ax, name, label in ((axes[0], "score", "combined score"), (axes[1], "fairness", "largest seat gap")):
        line = []
        for e in result.entries:
            value = e.candidate[i][1]
            if value not in d.values:
                continue
            x = _x(d.values, value)
            est = e.objectives.get(name)
            ax.errorbar(
                x,
                est.value,
                yerr=[[est.value - est.low], [est.high - est.value]],
                fmt="o",
                color=STATUS_COLOURS[e.status],
                alpha=1.0 if e.candidate[:i] + e.candidate[i + 1 :] == best[:i] + best[i + 1 :] else 0.35,
                markersize=4,
                capsize=2,
                elinewidth=0.8,
            )
            if e.candidate[:i] + e.candidate[i + 1 :] == best[:i] + best[i + 1 :]:
                line.append((x, est.value))
        if line:
            xs, ys = zip(*sorted(line), strict=True)
            ax.plot(xs, ys, color="#d62728", linewidth=0.8)
        played = sorted(
            {e.candidate[i][1] for e in result.entries if e.candidate[i][1] in d.values}, key=d.values.index
        )
        ax.set_xticks([_x(d.values, v) for v in played], [option_text(v) for v in played], fontsize=8)
        ax.set_xlabel(d.name)
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.grid(axis="y", alpha=0.3)


def _front(figure: Any, result: Tuning) -> None:
    ax = figure.subplots()
    front = {id(e) for e in result.front}
    for e in result.entries:
        o = e.objectives
        ax.scatter(o.moves.value, o.fairness.value, color=STATUS_COLOURS[e.status], s=25, zorder=3)
        if id(e) in front:
            ax.scatter(o.moves.value, o.fairness.value, facecolors="none", edgecolors="black", s=90, zorder=2)
            ax.annotate(
                _short(e), (o.moves.value, o.fairness.value), fontsize=6, xytext=(4, 4), textcoords="offset points"
            )
    patches = need("matplotlib.patches")
    ax.legend(handles=[patches.Patch(color=c, label=s) for s, c in STATUS_COLOURS.items()], fontsize=7, frameon=False)
    ax.set_xlabel("player moves per game (mean)")
    ax.set_ylabel("largest seat gap in win rate")
    ax.grid(alpha=0.3)


def _short(e: Entry) -> str:
    return " ".join(f"{name.rpartition('.')[2] if '.' in name else name}={option_text(v)}" for name, v in e.candidate)


def _games(figure: Any, result: Tuning) -> None:
    ax = figure.subplots()
    entries = sorted(result.entries, key=lambda e: (-e.games, e.objectives.score.value))
    ax.bar(range(len(entries)), [e.games for e in entries], color=[STATUS_COLOURS[e.status] for e in entries])
    ax.set_xticks(range(len(entries)), [_short(e) for e in entries], rotation=60, ha="right", fontsize=6)
    ax.set_ylabel("games")
    patches = need("matplotlib.patches")
    ax.legend(handles=[patches.Patch(color=c, label=s) for s, c in STATUS_COLOURS.items()], fontsize=7, frameon=False)
    ax.grid(axis="y", alpha=0.3)
