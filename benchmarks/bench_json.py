"""JSON round-trip benchmark: ``from_json(to_json(state))`` per second for a mid-game Manhattan
4-player state and a mid-game Skyline 2-player state, median of several runs, on one core (this
process, ``time.process_time``).

    python benchmarks/bench_json.py            # the figures reported in the issue notes
    python benchmarks/bench_json.py --quick    # a smoke run for CI

A mid-game state is the position halfway through a seeded random game (so it carries towers or
buildings, hands, selections and, for Manhattan, a ledger of scored rounds).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import citybuild as cb


def mid_game(name: str, players: int, seed: int = 7) -> cb.State:
    """The position halfway through the random game that ``seed`` plays."""
    start = cb.load(name, players=players).initial_state()
    _, length = start.playout(random.Random(seed))
    state, rng = start, random.Random(seed)
    for _ in range(length // 2):
        state = state.random_step(rng)
    return state


def round_trips_per_second(state: cb.State, count: int) -> float:
    """Round trips per second of CPU time over ``count`` round trips (each checked once)."""
    assert cb.from_json(cb.to_json(state)) == state
    started = time.process_time()
    for _ in range(count):
        cb.from_json(cb.to_json(state))
    return count / max(time.process_time() - started, 1e-9)


def main() -> int:
    quick = "--quick" in sys.argv
    count, runs = (50, 1) if quick else (2000, 5)
    for name, players in (("manhattan", 4), ("skyline", 2)):
        state = mid_game(name, players)
        rates = [round_trips_per_second(state, count) for _ in range(runs)]
        size = len(cb.to_json(state))
        print(
            f"{name} {players}p mid-game state ({size} bytes of JSON): "
            f"{statistics.median(rates):,.0f} round trips/s (median of {runs} x {count})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
