"""Skyline random-play benchmark: complete games per second and steps per second at 2 and 4
players (and 3 for reference), median of 5 runs, on one core (this process).

    python benchmarks/bench_skyline.py            # the figures reported in the issue notes
    python benchmarks/bench_skyline.py --quick    # a smoke run for CI
"""

from __future__ import annotations

import sys

from citybuild.bench import run


def main() -> int:
    quick = "--quick" in sys.argv
    games, runs = (2, 1) if quick else (200, 5)
    for preset in ("standard",) if quick else ("standard", "all-nine-rounds"):
        for result in run("skyline", players=[2, 3, 4], preset=preset, games=games, runs=runs):
            print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
