"""Random-play benchmarks for any registered game: complete games per second, steps per second.

Used by ``benchmarks/`` and by ``citybuild bench``. Figures are the median of several runs of CPU
time (this process, one core). Two loops are measured:

- ``state.playout(rng)``: the game's own fastest path to the end of a random game;
- the public API loop that bots and apps run (``legal_moves()`` then ``play()`` at a decision,
  ``random_move()`` at a chance state), compared when ``open_spiel`` is installed with OpenSpiel's
  Python tic-tac-toe played by the same loop in the same run.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from citybuild.core.game import Game, State
from citybuild.core.registry import load, spec
from citybuild.core.text import plural

ANCHOR = "python_tic_tac_toe"
"""The OpenSpiel game the API loop is compared with: pure Python, like citybuild."""
TARGET = 2.0
"""The aim of issue 7: our API-loop step rate at twice the anchor's, measured in the same run."""
INSTALL_HINT = 'pip install open_spiel (or pip install ".[bench]")'


def random_playout(state: State, rng: random.Random) -> tuple[State, int]:
    """Play uniformly random legal moves and sample chance outcomes to the end; return the final
    state and the number of steps (decisions plus chance outcomes). See ``State.playout``."""
    return state.playout(rng)


def api_game(state: State, rng: random.Random) -> tuple[State, int]:
    """Random play to the end through the public API, as a bot would: list the legal moves and
    ``play`` one chosen uniformly, or ``play(random_move(rng))`` at a chance state; when several
    players act at once, one of them is drawn first. Returns the final state and the step count.

    A decision costs a full listing here, where ``random_move`` may sample without one, so the
    games are random games of the same rules but not, for a given seed, ``playout``'s games."""
    steps = 0
    while not state.is_over:
        if state.is_chance:
            state = state.play(state.random_move(rng))
        else:
            to_act = state.to_act
            if len(to_act) == 1:
                moves = state.legal_moves()
                state = state.play(moves[int(rng.random() * len(moves))])
            else:
                player = to_act[int(rng.random() * len(to_act))]
                moves = state.legal_moves(player)
                state = state.play(moves[int(rng.random() * len(moves))], player)
        steps += 1
    return state, steps


@attrs.frozen
class Rates:
    """Median rates of one loop over several runs."""

    games_per_second: float
    steps_per_second: float
    games_per_run: int
    """Median number of complete games in a run."""
    runs: int


def median_rates(
    play: Callable[[random.Random], int], games: int, runs: int, seed: int = 0, min_seconds: float = 0.0
) -> Rates:
    """Median over ``runs`` of the rates of ``play`` (one complete game from the start; returns its
    steps). A run plays at least ``games`` games and goes on until ``min_seconds`` of CPU time have
    passed, so one budget suits fast and slow games alike.

    Every run draws from a fresh ``random.Random(seed)``, so the runs play the same games and differ
    only by timing noise, which the median removes; a figure then describes a fixed sample of games,
    comparable before and after a change. That matters where the cost per step is heavy-tailed (a
    Skyline game that lists a huge reroll can cost a hundred typical games). CPU time rather than
    wall time keeps the figure steady on a machine busy with other work."""
    if games < 1 or runs < 1:
        raise ValueError(f"games and runs must be at least 1, not {games} and {runs}")
    results: list[tuple[float, float, int]] = []
    for _ in range(runs):
        rng = random.Random(seed)
        played = steps = 0
        start = time.process_time()
        while True:
            steps += play(rng)
            played += 1
            elapsed = time.process_time() - start
            if played >= games and elapsed >= min_seconds:
                break
        elapsed = max(elapsed, 1e-9)
        results.append((played / elapsed, steps / elapsed, played))
    return Rates(
        games_per_second=statistics.median(r[0] for r in results),
        steps_per_second=statistics.median(r[1] for r in results),
        games_per_run=round(statistics.median(r[2] for r in results)),
        runs=runs,
    )


def playout_rates(game: Game, games: int, runs: int, seed: int = 0, min_seconds: float = 0.0) -> Rates:
    """Rates of ``state.playout(rng)`` from the initial state."""
    return median_rates(lambda rng: random_playout(game.initial_state(), rng)[1], games, runs, seed, min_seconds)


def api_rates(game: Game, games: int, runs: int, seed: int = 0, min_seconds: float = 0.0) -> Rates:
    """Rates of the public API loop (``api_game``) from the initial state."""
    return median_rates(lambda rng: api_game(game.initial_state(), rng)[1], games, runs, seed, min_seconds)


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
            f"{self.steps_per_second:11.0f} steps/s  "
            f"({'median of ' if self.runs > 1 else ''}{plural(self.runs, 'run')} "
            f"x {plural(self.games_per_run, 'game')})"
        )


def measure(game: Game, games: int = 50, runs: int = 5, seed: int = 0) -> BenchResult:
    """Median over ``runs`` of the CPU time (this process, one core) to play ``games`` complete
    random games with ``state.playout``."""
    rates = playout_rates(game, games, runs, seed)
    return BenchResult(
        game=game.name,
        preset=game.preset,
        players=game.players,
        games_per_run=games,
        runs=runs,
        games_per_second=rates.games_per_second,
        steps_per_second=rates.steps_per_second,
    )


def run(
    name: str, players: list[int] | None = None, preset: str = "standard", games: int = 50, runs: int = 5
) -> list[BenchResult]:
    counts = players or list(range(spec(name).min_players, spec(name).max_players + 1))
    return [measure(load(name, players=n, preset=preset), games=games, runs=runs) for n in counts]


# --- the API loop against OpenSpiel ------------------------------------------------------------
@attrs.frozen
class ApiResult:
    """One game under one preset and player count: the API loop and ``playout`` side by side."""

    game: str
    preset: str
    players: int
    api: Rates
    playout: Rates


def measure_api(game: Game, games: int, runs: int, seed: int = 0, min_seconds: float = 0.0) -> ApiResult:
    """The API loop and ``playout`` of ``game``, each the median of ``runs`` runs (same seeds)."""
    return ApiResult(
        game=game.name,
        preset=game.preset,
        players=game.players,
        api=api_rates(game, games, runs, seed, min_seconds),
        playout=playout_rates(game, games, runs, seed, min_seconds),
    )


def openspiel_game(state: Any, rng: random.Random) -> int:
    """The API loop on an OpenSpiel state (turn-based games): a uniform index into
    ``legal_actions()`` at a decision, an outcome of ``chance_outcomes()`` drawn with its
    probability at a chance node, ``apply_action`` until terminal. Returns the step count."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            x = rng.random()
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                x -= probability
                if x < 0:
                    action = outcome
                    break
            state.apply_action(action)
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
        steps += 1
    return steps


def load_openspiel(name: str = ANCHOR) -> Any | None:
    """OpenSpiel's game ``name`` (its Python games registered), or None when open_spiel is not
    installed: it is an optional extra, never a dependency."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")
    except ImportError:
        return None
    return pyspiel.load_game(name)


def openspiel_rates(
    name: str = ANCHOR, games: int = 1, runs: int = 5, seed: int = 0, min_seconds: float = 0.5
) -> Rates | None:
    """Rates of the API loop on OpenSpiel's ``name``, or None when open_spiel is not installed."""
    game = load_openspiel(name)
    if game is None:
        return None
    return median_rates(lambda rng: openspiel_game(game.new_initial_state(), rng), games, runs, seed, min_seconds)


HEADER = (
    f"{'game':<12} {'preset':<18} {'':>3}  {'api steps/s':>11} {'api games/s':>11}  "
    f"{'playout steps/s':>15} {'playout games/s':>15}  games/run (api/playout)"
)


def api_table(results: Sequence[ApiResult], anchor: Rates | None) -> list[str]:
    """The report: one row per result, the anchor's row, then each API step rate as a multiple of
    the anchor's (or a line saying the anchor was not measured and how to install it)."""
    lines = [
        "random games through the public API (legal_moves + play; random_move at chance) and playout(rng);",
        "CPU time of this process, median of each row's runs",
        HEADER,
    ]
    for r in results:
        lines.append(
            f"{r.game:<12} {r.preset:<18} {r.players}p   {r.api.steps_per_second:11,.0f} "
            f"{r.api.games_per_second:11,.1f}  {r.playout.steps_per_second:15,.0f} "
            f"{r.playout.games_per_second:15,.1f}  {r.api.games_per_run}/{r.playout.games_per_run}"
        )
    if anchor is None:
        lines.append(f"OpenSpiel anchor ({ANCHOR}) not measured: open_spiel is not installed; {INSTALL_HINT}")
        return lines
    lines.append(
        f"{'openspiel':<12} {ANCHOR:<18} 2p   {anchor.steps_per_second:11,.0f} "
        f"{anchor.games_per_second:11,.1f}  {'':>15} {'':>15}  {anchor.games_per_run}"
    )
    for r in results:
        ratio = r.api.steps_per_second / anchor.steps_per_second
        lines.append(
            f"{r.game} {r.preset} {r.players}p: api {ratio:.2f}x OpenSpiel {ANCHOR} steps/s (target: {TARGET:.1f}x)"
        )
    return lines


def api_report(
    name: str,
    players: list[int] | None = None,
    preset: str = "standard",
    games: int = 50,
    runs: int = 5,
    anchor_seconds: float = 0.5,
) -> str:
    """``citybuild bench GAME --api``: the API loop and playout of ``name`` at each player count
    (all by default) with ``games`` games per run, and the anchor with ``anchor_seconds`` per run."""
    counts = players or list(range(spec(name).min_players, spec(name).max_players + 1))
    results = [measure_api(load(name, players=n, preset=preset), games, runs) for n in counts]
    anchor = openspiel_rates(runs=runs, min_seconds=anchor_seconds)
    return "\n".join(api_table(results, anchor))


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="random-play benchmark")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="*")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--api", action="store_true")
    args: Any = parser.parse_args(argv)
    if args.api:
        print(api_report(args.game, args.players, args.preset, args.games, args.runs))
        return 0
    for result in run(args.game, args.players, args.preset, args.games, args.runs):
        print(result)
    return 0
