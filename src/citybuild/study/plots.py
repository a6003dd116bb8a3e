"""The report's plots, drawn with matplotlib's object interface (no pyplot, no global backend):
one figure per question, one row of axes per game, one group of marks per cell."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from citybuild.study.extra import need
from citybuild.study.stats import BY_SCORE, CellStats

KINDS = {
    "win-rates": "Win rate per seat, with 95% intervals; the dashes mark a fair share (1/players)",
    "scores": "Final scores: every player's (light) and the winner's (dark); boxes hold the middle half",
    "categories": "Mean points per player by scoring category",
    "tie-breaks": "Games whose leaders tied on points: decided by a tie-break step, or shared",
    "length": "Game length in player moves (the mean number of rounds is written above)",
}
"""Each plot's name and caption, in the report's order."""
_OUTSIDE: dict[str, Any] = {"fontsize": 7, "loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "frameon": False}
"""Legends beside the axes, where they hide no bar."""
SEAT_COLOURS = ("#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#a463f2", "#97bbf5")


def labels(cells: Sequence[CellStats]) -> list[str]:
    """Short x-axis labels: what varies among the cells of one game (rule set, players, bots)."""
    variants = len({c.variant for c in cells}) > 1
    lineups = len({c.bots for c in cells}) > 1
    out = []
    for c in cells:
        parts = [c.variant] if variants or not lineups else []
        parts.append(f"{c.players}p")
        if lineups:
            parts.append(c.bots)
        out.append("\n".join(parts))
    return out


def figures(stats: Sequence[CellStats]) -> dict[str, bytes]:
    """Every plot of the report as PNG bytes, by kind."""
    draw: dict[str, Callable[[Any, Sequence[CellStats]], None]] = {
        "win-rates": _win_rates,
        "scores": _scores,
        "categories": _categories,
        "tie-breaks": _tiebreaks,
        "length": _length,
    }
    return {kind: _figure(stats, draw[kind], KINDS[kind]) for kind in KINDS}


def _figure(stats: Sequence[CellStats], draw: Callable[[Any, Sequence[CellStats]], None], title: str) -> bytes:
    figure_module = need("matplotlib.figure")
    by_game: dict[str, list[CellStats]] = {}
    for cell in stats:
        by_game.setdefault(cell.game, []).append(cell)
    widest = max(len(cells) for cells in by_game.values())
    figure = figure_module.Figure(figsize=(max(6.0, 0.75 * widest + 2), 3.3 * len(by_game)), layout="constrained")
    axes = figure.subplots(len(by_game), 1, squeeze=False)[:, 0]
    for ax, (game, cells) in zip(axes, by_game.items(), strict=True):
        draw(ax, cells)
        ax.set_title(game, loc="left", fontsize=10, fontweight="bold")
        ax.set_xticks(range(len(cells)), labels(cells), fontsize=8)
        ax.set_xlim(-0.6, len(cells) - 0.4)
        ax.grid(axis="y", alpha=0.3)
    figure.suptitle(title, fontsize=10)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


def _win_rates(ax: Any, cells: Sequence[CellStats]) -> None:
    most = max(c.players for c in cells)
    width = 0.8 / most
    for x, cell in enumerate(cells):
        for seat in cell.seats:
            offset = x + width * (seat.seat + 0.5 - cell.players / 2)
            error = [[seat.win_rate - seat.low], [seat.high - seat.win_rate]]
            ax.bar(offset, seat.win_rate, width * 0.9, color=SEAT_COLOURS[seat.seat % len(SEAT_COLOURS)])
            ax.errorbar(offset, seat.win_rate, yerr=error, fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
        ax.hlines(cell.fair, x - 0.45, x + 0.45, colors="black", linestyles="dashed", linewidth=0.8)
    patches = need("matplotlib.patches")
    handles = [patches.Patch(color=SEAT_COLOURS[seat % len(SEAT_COLOURS)], label=f"P{seat}") for seat in range(most)]
    ax.set_ylabel("win rate")
    ax.set_ylim(0, min(1.0, max(s.high for c in cells for s in c.seats) * 1.1 + 0.02))
    ax.legend(handles=handles, **_OUTSIDE)


def _scores(ax: Any, cells: Sequence[CellStats]) -> None:
    np = need("numpy")
    everyone = [np.concatenate([np.array(s) for s in c.scores]) for c in cells]
    best = [np.max(np.array(c.scores), axis=0) for c in cells]
    x = np.arange(len(cells))
    style = {"widths": 0.35, "patch_artist": True, "showfliers": False, "medianprops": {"color": "black"}}
    light = ax.boxplot(everyone, positions=x - 0.2, **style)
    dark = ax.boxplot(best, positions=x + 0.2, **style)
    for box in light["boxes"]:
        box.set_facecolor("#c6d4f5")
    for box in dark["boxes"]:
        box.set_facecolor("#4269d0")
    ax.set_ylabel("points")


def _categories(ax: Any, cells: Sequence[CellStats]) -> None:
    names = sorted({name for c in cells for name in c.categories})
    up = [0.0] * len(cells)  # penalties (negative categories) stack downwards from 0
    down = [0.0] * len(cells)
    for k, name in enumerate(names):
        heights = [c.categories.get(name, 0.0) for c in cells]
        bottom = [u if h >= 0 else d for h, u, d in zip(heights, up, down, strict=True)]
        ax.bar(range(len(cells)), heights, 0.6, bottom=bottom, label=name, color=f"C{k}")
        up = [u + max(h, 0.0) for u, h in zip(up, heights, strict=True)]
        down = [d + min(h, 0.0) for d, h in zip(down, heights, strict=True)]
    ax.set_ylim(min(down) * 1.1, max(max(up) * 1.1, 1e-9))
    ax.set_ylabel("points per player")
    if names:  # nobody scored in any category: no legend (matplotlib would warn on stderr)
        ax.legend(**_OUTSIDE)


def _tiebreaks(ax: Any, cells: Sequence[CellStats]) -> None:
    names = [name for name in dict.fromkeys(name for c in cells for name in c.tiebreaks) if name != BY_SCORE]
    bottom = [0.0] * len(cells)
    for k, name in enumerate(names):
        heights = [c.tiebreaks.get(name, 0.0) for c in cells]
        ax.bar(range(len(cells)), heights, 0.6, bottom=bottom, label=name, color=f"C{k}")
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_ylabel("share of games")
    ax.set_ylim(0, max(0.01, max(bottom) * 1.15))
    ax.yaxis.set_major_formatter(need("matplotlib.ticker").PercentFormatter(1.0))
    if names:
        ax.legend(**_OUTSIDE)


def _length(ax: Any, cells: Sequence[CellStats]) -> None:
    style = {"widths": 0.5, "patch_artist": True, "showfliers": False, "medianprops": {"color": "black"}}
    boxes = ax.boxplot([list(c.lengths) for c in cells], positions=range(len(cells)), **style)
    for box in boxes["boxes"]:
        box.set_facecolor("#6cc5b0")
    top = max(max(c.lengths) for c in cells)
    for x, cell in enumerate(cells):
        if cell.rounds.mean == cell.rounds.mean:  # not NaN: the game counts rounds
            ax.text(x, top, f"{cell.rounds.mean:.1f} r", ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, top * 1.12)
    ax.set_ylabel("player moves")
