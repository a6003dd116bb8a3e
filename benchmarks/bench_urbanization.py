"""Urbanization random-play benchmark: complete games per second (``state.playout``) and steps per
second at 2 to 5 players, median of 5 runs, on one core (this process). Issue 8's target: at least
300 complete 3-player games per second.

    python benchmarks/bench_urbanization.py            # the figures reported in the issue notes
    python benchmarks/bench_urbanization.py --quick    # a smoke run for CI
"""

from __future__ import annotations

import sys

from citybuild.bench import run

TARGET = 300.0
"""Complete random 3-player games per second through ``state.playout`` (issue 8)."""


def main() -> int:
    quick = "--quick" in sys.argv
    games, runs = (2, 1) if quick else (200, 5)
    players = [3] if quick else [2, 3, 4, 5]
    for result in run("urbanization", players=players, preset="standard", games=games, runs=runs):
        print(result)
        if result.players == 3 and not quick:
            verdict = "meets" if result.games_per_second >= TARGET else "misses"
            print(f"  3 players: {result.games_per_second:.0f} games/s {verdict} the target of {TARGET:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
