"""Tune benchmark: does the adaptive search name a variant as good as a full grid's best, for at
most 30% of the grid's games?

    python benchmarks/bench_tune.py                 # the figures in the docs (several minutes)
    python benchmarks/bench_tune.py --quick         # a smoke run for CI (random players, fewer games)
    python benchmarks/bench_tune.py --report DIR    # also write the tune's Markdown report in DIR

The space: Skyline, 2 players, greedy players at both seats, ``yard_take`` in 2..5 and
``blue_min_height`` in 2..4: 12 variants. The grid plays every variant to ``GRID_GAMES`` games
(seed 1) and scores each by the combined score's default weights; its indifference zone is every
variant whose score is not distinguishable from the grid's best at 95% (the difference within
1.96 standard errors). The tune (seed 2, so its games are not the grid's) gets a budget of 30% of
the grid's games, once on 2 local processes and once on a Dask LocalCluster of 2 workers; it
must name a variant inside the zone, and the same one on both (every game is played from its own
seed, so where it ran changes nothing but the time).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from citybuild.study import plan, run, tune
from citybuild.study.objectives import Games, check_weights, distinguishable, measure, reference_of

VARY = {"yard_take": [2, 3, 4, 5], "blue_min_height": [2, 3, 4]}
GRID_GAMES = 200
SHARE = 0.30


def label(options: dict[str, object]) -> str:
    return ", ".join(f"{name}={options[name]}" for name in VARY)


def grid(bots: str, games: int, jobs: int) -> tuple[dict[str, float], set[str], str, int, float]:
    """Every variant to ``games`` games: the scores, the indifference zone, the best, the games
    played and the wall time."""
    weights = check_weights(None)
    variants = [{"yard_take": y, "blue_min_height": b} for y in VARY["yard_take"] for b in VARY["blue_min_height"]]
    started = time.perf_counter()
    cells = {}
    for options in variants:
        cells[label(options)] = plan("skyline", options=options, players=2, bots=bots, games=games, seed=1).cells[0]
    from citybuild.study.cells import Plan

    table = run(Plan(tuple(cells.values()), games, 1), jobs=jobs)
    wall = time.perf_counter() - started
    import pyarrow.compute as pc

    arrays = {name: Games.of(table.filter(pc.equal(table.column("cell"), cell.key))) for name, cell in cells.items()}
    reference = reference_of(arrays["yard_take=3, blue_min_height=2"])  # the standard preset's values
    measured = {name: measure(g, reference, weights, cells[name].key) for name, g in arrays.items()}
    best = min(measured, key=lambda name: measured[name].score.value)
    zone = {name for name, o in measured.items() if not distinguishable(o, measured[best])}
    total = len(cells) * games
    print(f"grid: {len(cells)} variants x {games} games = {total:,} games, {wall:.0f} s on {jobs} processes")
    for name, o in sorted(measured.items(), key=lambda item: item[1].score.value):
        mark = "best" if name == best else "in zone" if name in zone else ""
        print(
            f"  {name:32} score {o.score.value:.3f} +- {o.score.half_width:.3f}  gap {100 * o.fairness.value:4.1f}%  "
            f"shared {100 * o.shared.value:4.1f}%  moves {o.moves.value:5.1f}  {mark}"
        )
    return {name: o.score.value for name, o in measured.items()}, zone, best, len(cells) * games, wall


def adaptive(bots: str, budget: int, jobs: int, dask: str | None, report: str | None) -> tuple[str, int, float]:
    """The tune on processes or Dask: the variant it names, its games and its wall time."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        result = tune(
            "skyline",
            VARY,
            players=2,
            bots=bots,
            budget=budget,
            first=20,
            seed=2,
            out=folder,
            jobs=jobs,
            dask=dask,
            report=[os.path.join(report, "bench-tune.md")] if report else [],
        )
    wall = time.perf_counter() - started
    best = result.recommended
    name = ", ".join(f"{n}={v}" for n, v in best.candidate)
    where = "Dask LocalCluster, 2 workers" if dask else f"{jobs} processes"
    print(f"tune on {where}: {result.games:,} games in {len(result.rounds)} rounds, {wall:.0f} s; {result.stopped}")
    for e in sorted(result.entries, key=lambda e: (-e.games, e.objectives.score.value)):
        print(f"  {e.label:32} {e.games:4} games  score {e.objectives.score.value:.3f}  {e.status}")
    return name, result.games, wall


def main() -> int:
    quick = "--quick" in sys.argv
    report = sys.argv[sys.argv.index("--report") + 1] if "--report" in sys.argv else None
    bots = "random" if quick else "greedy"
    games = 60 if quick else GRID_GAMES
    print("citybuild tune benchmark", "(quick smoke run: random players, numbers mean nothing)" if quick else "")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    scores, zone, best, grid_games, _ = grid(bots, games, jobs=2)
    budget = int(SHARE * grid_games)
    failures = []
    named = []
    for dask in (None, "local"):
        name, used, _ = adaptive(bots, budget, 2, dask, report if dask is None else None)
        named.append(name)
        inside = name in zone
        print(
            f"  -> {name}: {'inside' if inside else 'OUTSIDE'} the grid's indifference zone "
            f"(grid score {scores[name]:.3f}, grid best {best} {scores[best]:.3f}); "
            f"{used:,} games = {100 * used / grid_games:.0f}% of the grid's"
        )
        if used > budget:
            failures.append(f"{name}: {used} games, over {budget}")
        if not inside and not quick:
            failures.append(f"{name} is outside the indifference zone")
    if named[0] != named[1]:
        failures.append(f"processes named {named[0]}, Dask {named[1]}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
