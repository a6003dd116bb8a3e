"""Tuning a variant: the rule options of a search space played in rounds, the clearly worse
candidates dropped as their games come in (``racing``), integer ranges refined around the best.

A candidate is a study cell, so game ``i`` of a candidate is played from the seed of (tune seed,
the candidate's rules, ``i``) and stored in a study results folder: a tune stopped and run again
with the same folder plays only the games it lacks, and since every decision is made from those
games alone, it takes the same decisions and names the same variant.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from citybuild.core.errors import RulesError
from citybuild.study import racing
from citybuild.study.cells import Cell, Plan, plan
from citybuild.study.objectives import Games, Objectives, check_weights, measure, reference_of
from citybuild.study.runner import Progress, Workers, default_jobs, play_missing, pool
from citybuild.study.space import Candidate, Dimension, space
from citybuild.study.store import Store, read
from citybuild.study.tuning import DROPPED, KEPT, RECOMMENDED, REFERENCE, Entry, Round, Tuning

PRECISION = 0.01
"""Stop once every score still in the race is known to within this (half its 95% interval)."""


def search(
    game: str,
    vary: Mapping[str, Sequence[Any] | range] | Sequence[Dimension],
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
    progress: Progress | None = None,
) -> Tuning:
    """Search ``vary`` (option name -> a list of values, or a ``range`` of integers to refine;
    a dict option by key, ``"tile_counts.4"``) of ``game`` under ``preset`` for the variant with
    the best combined score, playing at most ``budget`` games: ``first`` games of each candidate,
    then rounds that double the games of those not yet clearly worse. ``bots``: one lineup, as in
    ``study``. ``weights``: the score's, laid over ``DEFAULT_WEIGHTS``. ``out``: a study results
    folder to keep the games in and resume from. ``jobs``/``dask``: as in ``study.run``.
    ``progress``: told of each round's games as they finish."""
    for name, value in (("budget", budget), ("first", first), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or (name != "seed" and value < 1):
            raise RulesError(f"{name} must be {'an' if name == 'seed' else 'a positive'} integer, not {value!r}")
    if isinstance(precision, bool) or not isinstance(precision, int | float) or not precision >= 0:
        raise RulesError(f"precision must be a number of at least 0, not {precision!r}")
    chosen = check_weights(weights)
    searched = space(game, preset, vary)
    lineup = bots if isinstance(bots, str) else ",".join(bots)

    def cell_of(candidate: Candidate) -> Cell:
        options = searched.options(candidate)
        return plan(game, presets=preset, options=options, players=players, bots=lineup, games=1, seed=seed).cells[0]

    base = searched.baseline()
    cells: dict[Candidate, Cell] = {}
    added: dict[Candidate, int] = {}
    for candidate in searched.start():
        cells[candidate] = cell_of(candidate)
        added[candidate] = 0
    if base not in cells:
        cells[base] = cell_of(base)
        added[base] = 0
    inside = set(searched.start())
    outside = base not in inside
    alive = [c for c in cells if c != base or not outside]
    games = dict.fromkeys(cells, 0)
    drops: dict[Candidate, racing.Drop] = {}
    scores: dict[Candidate, Objectives] = {}
    rounds: list[Round] = []
    done, stopped = 0, ""
    with _folder(out) as folder, _Workers(jobs, dask) as workers:
        store = Store(folder, seed)
        while True:
            playing = [*alive, *([base] if outside else [])]
            target = racing.next_games(
                {cells[c].key: games[c] for c in playing}, done, first, budget, sum(games.values())
            )
            if not target:
                stopped = f"the budget of {budget:,} games cannot pay for another round"
                break
            grid = Plan(tuple(cells[c] for c in playing), target, seed)
            before = sum(games.values())
            if grid.remaining(store.done(grid)):
                store.record(grid)
                play_missing(grid, workers.open(), store, progress=progress)
            for c in playing:
                games[c] = target
            scores.update(_measure(store, cells, {c: games[c] for c in cells}, base, chosen))
            rounds.append(Round(len(rounds) + 1, target, len(alive), sum(games.values()) - before))
            done = target
            keys = {cells[c].key: c for c in cells}
            best_key, dropped = racing.race({cells[c].key: scores[c] for c in alive}, [cells[c].key for c in alive])
            for drop in dropped:
                drops[keys[drop.key]] = drop
            alive = [c for c in alive if c not in drops]
            best = keys[best_key]
            if len(alive) == 1:
                stopped = f"one candidate left after {target} games each"
                break
            if racing.settled({cells[c].key: scores[c] for c in alive}, [cells[c].key for c in alive], precision):
                stopped = f"every score left known to within {precision} after {target} games each"
                break
            for candidate in searched.refine(best, cells):
                cells[candidate] = cell_of(candidate)
                games[candidate] = 0
                added[candidate] = len(rounds)
                alive.append(candidate)
        scores = _measure(store, cells, games, base, chosen)
    best = min(alive, key=lambda c: (scores[c].score.value, alive.index(c)))
    entries = []
    for c, cell in cells.items():
        if c == base and outside:
            status, reason = REFERENCE, "the preset's values, outside the space: played for comparison"
        elif c == best:
            status, reason = RECOMMENDED, "the best score of those left in the race"
        elif c in drops:
            status, reason = DROPPED, drops[c].reason
        else:
            status, reason = KEPT, "not distinguishable from the best at 95% when the rounds stopped"
        entries.append(Entry(c, cell, games[c], scores[c], status, reason, added[c]))
    return Tuning(
        searched,
        entries[0].cell.players,
        entries[0].cell.bots,
        seed,
        budget,
        chosen,
        tuple(entries),
        tuple(rounds),
        stopped,
    )


def _measure(
    store: Store,
    cells: Mapping[Candidate, Cell],
    games: Mapping[Candidate, int],
    base: Candidate,
    weights: Mapping[str, float],
) -> dict[Candidate, Objectives]:
    """Every played candidate's objectives from its first ``games`` games in the folder, the
    score's relative units from the preset's own games."""
    played = {c: n for c, n in games.items() if n}
    table = read(store.path, [cells[c] for c in played])
    pc = _compute()
    arrays = {}
    for c, n in played.items():
        rows = table.filter(pc.and_(pc.equal(table.column("cell"), cells[c].key), pc.less(table.column("index"), n)))
        arrays[c] = Games.of(rows)
    reference = reference_of(arrays[base])
    return {c: measure(g, reference, weights, cells[c].key) for c, g in arrays.items()}


def _compute() -> Any:
    from citybuild.study.extra import need

    return need("pyarrow.compute")


@contextlib.contextmanager
def _folder(out: str | os.PathLike[str] | None) -> Iterator[str | os.PathLike[str]]:
    """The results folder: ``out``, or a temporary one removed at the end."""
    if out is not None:
        yield out
        return
    with tempfile.TemporaryDirectory(prefix="citybuild-tune-") as temporary:
        yield temporary


class _Workers:
    """The tune's workers, started the first time a round has games to play (a tune resumed
    from a complete folder starts none) and kept for every later round."""

    def __init__(self, jobs: int | None, dask: str | None) -> None:
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise RulesError(f"jobs must be a positive integer, not {jobs!r}")
        if dask is not None and (not isinstance(dask, str) or not dask):
            raise RulesError(f"dask must be a scheduler address or 'local', not {dask!r}")
        self.jobs, self.dask = jobs or default_jobs(), dask
        self.stack = contextlib.ExitStack()
        self.workers: Workers | None = None

    def open(self) -> Workers:
        if self.workers is None:
            self.workers = self.stack.enter_context(pool(self.jobs, self.dask))
        return self.workers

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()
