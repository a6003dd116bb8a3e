"""Skyline random-play benchmark: complete games per second and steps per second at 2 and 4
players (and 3 for reference), median of 5 runs, on one core (this process).

    python benchmarks/bench_skyline.py            # the figures reported in the issue notes
    python benchmarks/bench_skyline.py --quick    # a smoke run for CI
    python benchmarks/bench_skyline.py --memory   # listing play: CPU time and peak memory

``--memory`` plays 60 two-player games the way a client that lists everything does (every legal
move and every chance outcome of each position, as ``Match`` did before it sampled with
``random_move``), then prints the CPU time, the peak resident memory of this process and the
state of Skyline's table caches (rolls and rerolls of big hands are huge: keeping many of them
once cost over 800 MB).
"""

from __future__ import annotations

import random
import resource
import sys
import time

from citybuild.bench import run
from citybuild.core import chance
from citybuild.core.registry import load


def listing_games(games: int = 60) -> tuple[float, int]:
    """Play ``games`` random 2-player games listing every move and outcome; (CPU seconds, steps)."""
    start = time.process_time()
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = load("skyline", players=2).initial_state()
        while not state.is_over:
            if state.is_chance:
                move = chance.sample(state.chance_outcomes(), rng)
            else:
                moves = state.legal_moves()
                move = moves[int(rng.random() * len(moves))]
            state = state.play(move)
            steps += 1
    return time.process_time() - start, steps


def memory() -> None:
    from citybuild.games.skyline import offers, rolls

    games = 60
    elapsed, steps = listing_games(games)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(f"skyline listing play: {games} games, {steps} steps, {elapsed:.1f} s CPU, peak RSS {peak:.0f} MB")
    for module in (rolls, offers):
        for name in sorted(vars(module)):
            cached = getattr(module, name)
            if hasattr(cached, "cache_info"):
                print(f"  {module.__name__.rsplit('.', 1)[-1]}.{name}: {cached.cache_info()}")


def main() -> int:
    if "--memory" in sys.argv:
        memory()
        return 0
    quick = "--quick" in sys.argv
    games, runs = (2, 1) if quick else (200, 5)
    for preset in ("standard",) if quick else ("standard", "all-nine-rounds"):
        for result in run("skyline", players=[2, 3, 4], preset=preset, games=games, runs=runs):
            print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
