"""API-loop benchmark: random games played through the public ``legal_moves()`` + ``play()`` loop
(``random_move`` at chance states), steps and games per second, beside ``state.playout(rng)``, for
Manhattan 4p, Skyline 2p and every other registered game at its default player count; median of 5
runs of CPU time on one core (this process). Each run plays the same games: at least 60, and at
least one second of them (Skyline's API cost per game is heavy-tailed: a few games that list huge
rerolls take most of the time, so a small sample misstates it).

When ``open_spiel`` is installed (``pip install open_spiel``, or the ``bench`` extra), OpenSpiel's
Python tic-tac-toe is played by the same loop in the same run, and each of our API step rates is
printed as a multiple of it (issue 7's target: 2.0x).

    python benchmarks/bench_api.py            # the figures reported in the issue notes
    python benchmarks/bench_api.py --quick    # a smoke run for CI (a few seconds)
"""

from __future__ import annotations

import sys

from citybuild.bench import api_table, measure_api, openspiel_rates
from citybuild.core.registry import games, load, spec

PLAYERS = {"manhattan": 4, "skyline": 2}
"""The player counts issue 7 sets its targets for; other games run at their default count."""


def main() -> int:
    quick = "--quick" in sys.argv
    games_per_run, runs, seconds = (1, 1, 0.05) if quick else (60, 5, 1.0)
    results = []
    for name in games():
        game = load(name, players=PLAYERS.get(name, spec(name).default_players))
        results.append(measure_api(game, games=games_per_run, runs=runs, min_seconds=seconds))
    anchor = openspiel_rates(runs=runs, min_seconds=seconds)
    for line in api_table(results, anchor):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
