"""Study benchmark: what the study machinery costs over bare random play, and how it scales.

    python benchmarks/bench_study.py            # the figures reported in the issue notes (a few minutes)
    python benchmarks/bench_study.py --quick    # a smoke run for CI
    python benchmarks/bench_study.py --only scaling   # one part: one-core, scaling or big

Manhattan, standard rules, 4 players, random play (the study plays it as the engine's playout).

1. One core: ``state.playout(rng)`` games per second against the study loop (``play_chunk``: the
   same playouts, plus each game's seed, its score sheet read into a row), both in CPU time of
   this process, the best of several runs taken in turn (on a busy machine even CPU time varies
   by several percent from run to run; the best run is the least disturbed one). Target: the
   study loses less than 10%.
2. Several cores: a study of N games in 1 process, in 2 processes, and on a Dask LocalCluster of
   2 single-threaded workers (started beforehand: its start-up is reported apart), each the best
   wall time of a few runs taken in turn. Targets: 2 processes at least 1.8x one, Dask at least
   1.7x. Wall time on a machine shared with other work depends on that work, so the load average
   is printed, and so is the games' processor time summed over the workers: the work itself does
   not grow when it is spread.
3. A 100,000-game study on 2 processes, written to a results folder. Target: about a minute.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
import warnings

from citybuild.core.registry import load
from citybuild.study import Plan, plan, play_chunk, run
from citybuild.study.cells import Chunk


class Seconds:
    """A ``Progress`` that adds up the processor time of the games on their workers."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.games = 0

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, games: int, seconds: float) -> None:
        self.games += games
        self.cpu += seconds

    def stop(self) -> None:
        pass


def load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def one_core(games: int, runs: int) -> float:
    """Study loop against bare playout on one core; returns the loss as a fraction."""
    grid = plan("manhattan", players=4, games=games, seed=1)
    state = load("manhattan", players=4).initial_state()
    chunk = Chunk(grid.cells[0], grid.seed, 0, games)
    bare: list[float] = []
    study: list[float] = []
    for _ in range(runs):  # taken in turn, so both see the same machine
        started = time.process_time()
        for seed in range(games):
            state.playout(random.Random(seed))
        bare.append(games / (time.process_time() - started))
        started = time.process_time()
        play_chunk(chunk)
        study.append(games / (time.process_time() - started))
    b, s = max(bare), max(study)
    loss = 1 - s / b
    spread = f"median {statistics.median(bare):.1f} and {statistics.median(study):.1f} games/s"
    print(f"1 core (CPU time, best of {runs} runs of {games} games; {spread}):")
    print(f"  bare playout   {b:8.1f} games/s")
    print(f"  study loop     {s:8.1f} games/s   loss {100 * loss:.1f}% (target < 10%)")
    return loss


def timed(grid: Plan, **how: object) -> tuple[float, float, float]:
    """Wall seconds of a study, the processor seconds of its games on the workers, and the
    processor seconds of this process outside the games (planning, results, writing)."""
    seconds = Seconds()
    started, cpu = time.perf_counter(), time.process_time()
    table = run(grid, progress=seconds, **how)  # type: ignore[arg-type]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert table.num_rows == grid.total and seconds.games == grid.total
    return wall, seconds.cpu, cpu - seconds.cpu if how.get("jobs") == 1 and "dask" not in how else cpu


def scaling(games: int, repeats: int) -> None:
    from distributed import Client, LocalCluster

    grid = plan("manhattan", players=4, games=games, seed=2)
    print(f"\n{games:,} games (wall time, best of {repeats} runs taken in turn; {load_average()}):")
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    startup = time.perf_counter() - started
    results: dict[str, list[tuple[float, float, float]]] = {"1 process": [], "2 processes": [], "Dask, 2 workers": []}
    try:
        for _ in range(repeats):
            results["1 process"].append(timed(grid, jobs=1))
            results["2 processes"].append(timed(grid, jobs=2))
            results["Dask, 2 workers"].append(timed(grid, jobs=2, dask=cluster.scheduler_address))
    finally:
        client.close()
        cluster.close()
    base = min(results["1 process"])
    targets = {"2 processes": 1.8, "Dask, 2 workers": 1.7}
    print(f"  {'':<16} {'wall':>7} {'games/s':>9} {'games CPU':>10} {'caller CPU':>10} {'cores got':>9}")
    for name, runs in results.items():
        wall, games_cpu, caller_cpu = min(runs)
        cores = (games_cpu + caller_cpu) / wall
        speed = f"  {base[0] / wall:.2f}x one process (target >= {targets[name]}x)" if name in targets else ""
        print(f"  {name:<16} {wall:6.1f}s {games / wall:9.1f} {games_cpu:9.1f}s {caller_cpu:9.2f}s {cores:9.2f}{speed}")
    # What the same runs would give on cores of their own: the work (games and caller CPU) is
    # what it is; only the cores the machine's other work left us differ from run to run.
    for name in targets:
        wall, games_cpu, caller_cpu = min(results[name])
        per_core = (games_cpu + caller_cpu) / (base[1] + base[2])
        print(f"  {name}: {per_core:.3f}x the processor time of one process for the same games")
    print(f"  (the LocalCluster took {startup:.1f} s to start; not counted above)")
    print(f"  {load_average()} after")


def big(games: int) -> None:
    grid = plan("manhattan", players=4, games=games, seed=3)
    with tempfile.TemporaryDirectory() as out:
        wall, cpu, caller = timed(grid, jobs=2, out=out)
    print(f"\n{games:,}-game Manhattan random-play study, 2 processes, written to Parquet ({load_average()}):")
    print(
        f"  {wall:.1f} s wall, {games / wall:,.0f} games/s; the games took {cpu:.1f} s of CPU on the workers, "
        f"the caller {caller:.1f} s; {(cpu + caller) / wall:.2f} cores obtained"
    )


def main() -> int:
    """``--quick``: a smoke run; ``--only one-core|scaling|big``: one part (to fit a quiet moment
    of a shared machine)."""
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    print("citybuild study benchmark", "(quick smoke run: numbers mean nothing)" if quick else "")
    print(load_average())
    if only in (None, "one-core"):
        one_core(games=20 if quick else 2000, runs=1 if quick else 7)
    if only in (None, "scaling"):
        scaling(games=40 if quick else 20_000, repeats=1 if quick else 3)
    if only in (None, "big"):
        big(games=200 if quick else 100_000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
