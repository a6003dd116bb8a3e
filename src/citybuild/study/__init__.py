"""Variant studies: many games of every rule set, on local cores or a Dask cluster, as a table and a report.


A study is a grid of cells (game x rule set x player count x bots per seat) and a number of games
per cell; game ``i`` of a cell is played from a seed derived from (study seed, cell, ``i``), so the
results are the same in one process, in many, or on a cluster. Needs the study extra
(``pip install ".[study]"``); ``import citybuild`` never imports this package, and this
package imports the extra's modules only when it uses them.

Examples:
    >>> from citybuild import study
    >>> table = study.study("manhattan", presets=["standard", "four-rounds"], players=[3, 4], games=200, seed=5)
    >>> study.report(table, "report.html")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citybuild.study.cells import ALL, Cell, Chunk, Plan, Variant, game_seed, plan
from citybuild.study.extra import MissingExtraError
from citybuild.study.play import ChunkResult, Played, play_chunk, play_random
from citybuild.study.runner import LOCAL, Progress, run
from citybuild.study.store import read, read_manifest

if TYPE_CHECKING:
    import pyarrow as pa


def study(
    game: str | Sequence[str],
    *,
    presets: str | Sequence[str] = "standard",
    variants: Sequence[Variant | str] = (),
    options: Mapping[str, Any] | None = None,
    players: int | str | Sequence[int] | None = None,
    bots: str | Sequence[str | Sequence[str]] = "random",
    games: int = 1000,
    seed: int | None = None,
    out: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    chunk: int | None = None,
    report: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    progress: Progress | bool = False,
) -> pa.Table:
    """Run a study and return its table, one row per game (see ``plan`` for the grid and ``run``
    for ``out``, ``jobs``, ``dask`` and ``chunk``). ``seed``: by default the seed of the study
    already in ``out``, else 0. ``report``: paths of reports to write (``.html``, ``.md``).
    ``progress``: True for a progress bar on the terminal, or a ``Progress``."""
    if seed is None:
        manifest = read_manifest(Path(out)) if out is not None and Path(out).is_dir() else None
        seed = manifest["seed"] if manifest is not None else 0
    grid = plan(
        game,
        presets=presets,
        variants=variants,
        options=options,
        players=players,
        bots=bots,
        games=games,
        seed=seed,
    )
    bar: Progress | None
    if progress is True:
        from citybuild.study.progress import Bar

        bar = Bar()
    else:
        bar = progress or None
    table = run(grid, out=out, jobs=jobs, dask=dask, chunk=chunk, progress=bar)
    for path in [report] if isinstance(report, str | os.PathLike) else report:
        write_report(table, path)
    return table


def write_report(
    table: pa.Table, path: str | os.PathLike[str], title: str = "Study report", note: str = ""
) -> list[Path]:
    """Write a study's report: HTML (``.html``, plots embedded) or Markdown (``.md``, plots as PNG
    files beside it). Returns the files written."""
    from citybuild.study.report import write

    return write(table, path, title, note)


__all__ = [
    "ALL",
    "LOCAL",
    "Cell",
    "Chunk",
    "ChunkResult",
    "MissingExtraError",
    "Plan",
    "Played",
    "Progress",
    "Variant",
    "game_seed",
    "plan",
    "play_chunk",
    "play_random",
    "read",
    "run",
    "study",
    "write_report",
]
