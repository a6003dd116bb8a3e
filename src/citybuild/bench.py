"""Random-play benchmarks for any registered game: complete games per second, steps per second.

Used by ``benchmarks/`` and by ``citybuild bench``. Figures are the median of several runs.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import attrs

from citybuild.core.game import Game, State
from citybuild.core.registry import load


def random_playout(state: State, rng: random.Random) -> tuple[State, int]:
    """Play uniformly random legal moves and sample chance outcomes to the end; return the final
    state and the number of steps (decisions plus chance outcomes). See ``State.playout``."""
    return state.playout(rng)


@attrs.frozen
class BenchResult:
    game: str
    preset: str
    players: int
    games_per_run: int
    runs: int
    games_per_second: float
    steps_per_second: float

    def __str__(self) -> str:
        return (
            f"{self.game:<12} {self.preset:<16} {self.players}p  {self.games_per_second:9.1f} games/s  "
            f"{self.steps_per_second:11.0f} steps/s  (median of {self.runs} runs x {self.games_per_run} games)"
        )


def measure(game: Game, games: int = 50, runs: int = 5, seed: int = 0) -> BenchResult:
    """Median over ``runs`` of the CPU time (this process, one core) to play ``games`` complete random games.

    CPU time rather than wall time keeps the figure steady on a machine busy with other work."""
    rates: list[tuple[float, float]] = []
    for run in range(runs):
        rng = random.Random(seed * 1000 + run)
        start = time.process_time()
        total_steps = 0
        for _ in range(games):
            _, steps = random_playout(game.initial_state(), rng)
            total_steps += steps
        elapsed = time.process_time() - start
        rates.append((games / elapsed, total_steps / elapsed))
    return BenchResult(
        game=game.name,
        preset=game.preset,
        players=game.players,
        games_per_run=games,
        runs=runs,
        games_per_second=statistics.median(r[0] for r in rates),
        steps_per_second=statistics.median(r[1] for r in rates),
    )


def run(
    name: str, players: list[int] | None = None, preset: str = "standard", games: int = 50, runs: int = 5
) -> list[BenchResult]:
    from citybuild.core.registry import spec

    counts = players or list(range(spec(name).min_players, spec(name).max_players + 1))
    return [measure(load(name, players=n, preset=preset), games=games, runs=runs) for n in counts]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="random-play benchmark")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="*")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args: Any = parser.parse_args(argv)
    for result in run(args.game, args.players, args.preset, args.games, args.runs):
        print(result)
    return 0
