"""Variant studies: many games of every rule set, on local cores or a Dask cluster, as a table and a report.


A study is a grid of cells (game x rule set x player count x bots per seat) and a number of games
per cell; game ``i`` of a cell is played from a seed derived from (study seed, cell, ``i``), so the
results are the same in one process, in many, or on a cluster. Needs the study extra
(``pip install ".[study]"``); ``import citybuild`` never imports this package, and this
package imports the extra's modules only when it uses them.

A tune searches rule options for the variant with the best combined score (seat fairness, shared
wins, length, margin), playing candidates in rounds and dropping the clearly worse ones.

Examples:
    >>> from citybuild import study
    >>> table = study.study("manhattan", presets=["standard", "four-rounds"], players=[3, 4], games=200, seed=5)
    >>> study.report(table, "report.html")  # doctest: +SKIP
    >>> best = study.tune("skyline", {"yard_take": range(1, 7)}, players=2, budget=1000)  # doctest: +SKIP
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
from citybuild.study.search import PRECISION, search
from citybuild.study.store import read, read_manifest
from citybuild.study.tuning import Entry, Tuning

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


def tune(
    game: str,
    vary: Mapping[str, Sequence[Any] | range],
    *,
    preset: str = "standard",
    players: int | None = None,
    bots: str | Sequence[str] = "greedy",
    budget: int = 2000,
    first: int = 20,
    seed: int = 0,
    weights: Mapping[str, float] | None = None,
    precision: float = PRECISION,
    out: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    report: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    progress: Progress | None = None,
) -> Tuning:
    """Search the rule options ``vary`` (name -> a list of values, or a ``range`` of integers that
    the search refines around the best; a dict option by key, ``"tile_counts.4"``) for the variant
    with the best combined score, in at most ``budget`` games; see ``search.search`` for the
    rest. ``report``: paths of reports to write (``.html``, ``.md``). The answer's
    ``recommended``, ``option_lines()`` and ``rules()`` give the variant."""
    result = search(
        game,
        vary,
        preset=preset,
        players=players,
        bots=bots,
        budget=budget,
        first=first,
        seed=seed,
        weights=weights,
        precision=precision,
        out=out,
        jobs=jobs,
        dask=dask,
        progress=progress,
    )
    for path in [report] if isinstance(report, str | os.PathLike) else report:
        from citybuild.study.tune_report import write

        write(result, path)
    return result


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
    "Entry",
    "MissingExtraError",
    "Plan",
    "Played",
    "Progress",
    "Tuning",
    "Variant",
    "game_seed",
    "plan",
    "play_chunk",
    "play_random",
    "read",
    "run",
    "study",
    "tune",
    "write_report",
]
