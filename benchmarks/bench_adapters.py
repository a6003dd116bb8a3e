"""Framework-adapter benchmark: whole random games through OpenSpiel and PettingZoo, beside the same
games played by our own engine, and OpenSpiel's MCTS bot deciding through the adapter.

Rows, per game (Manhattan 4p, Skyline 2p, Urbanization 3p):

- ``engine playout``: ``state.playout(rng)``, our random play on the mutable engine (moves/s);
- ``API loop``: ``legal_moves()`` + ``play()`` on frozen states (moves/s);
- ``OpenSpiel``: ``legal_actions()`` / ``chance_outcomes()`` + ``apply_action()`` on
  ``citybuild_<game>`` with uniform random decisions (actions/s: a move is a few decisions, a
  Skyline roll a chance step per die; games/s compares with the rows above);
- ``PettingZoo``: the AEC loop ``last()`` + ``step()`` with random masked actions (actions/s);
- ``OpenSpiel MCTS``: ``MCTSBot`` with 20 simulations of one random rollout each (decisions/s).

OpenSpiel's own Python tic-tac-toe, played by the same random loop, anchors the OpenSpiel rows.
CPU time (``time.process_time``) on this process; each figure is the median of ``runs`` runs.

    python benchmarks/bench_adapters.py            # the figures reported in the issue notes
    python benchmarks/bench_adapters.py --quick    # a smoke run for CI (a few seconds)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

import citybuild as cb

PLAYERS = {"manhattan": 4, "skyline": 2, "urbanization": 3}


def _median_rate(run: Callable[[int], tuple[int, int]], runs: int) -> tuple[float, float]:
    """Median (per second) of the two counts ``run(seed)`` returns, over ``runs`` runs."""
    first, second = [], []
    for seed in range(runs):
        start = time.process_time()
        a, b = run(seed)
        spent = max(time.process_time() - start, 1e-9)
        first.append(a / spent)
        second.append(b / spent)
    return statistics.median(first), statistics.median(second)


def engine_playout(game: cb.Game, games: int) -> Callable[[int], tuple[int, int]]:
    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        steps = sum(game.initial_state().playout(rng)[1] for _ in range(games))
        return steps, games

    return run


def api_loop(game: cb.Game, games: int) -> Callable[[int], tuple[int, int]]:
    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        steps = 0
        for _ in range(games):
            state = game.initial_state()
            while not state.is_over:
                if state.is_chance:
                    state = state.play(state.random_move(rng))
                else:
                    player = state.to_act[0]
                    moves = state.legal_moves(player)
                    state = state.play(moves[int(rng.random() * len(moves))], player)
                steps += 1
        return steps, games

    return run


def openspiel_random(name: str, params: dict[str, object], games: int) -> Callable[[int], tuple[int, int]]:
    import pyspiel

    game = pyspiel.load_game(name, params)

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        actions = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    roll, total = rng.random(), 0.0
                    action = outcomes[-1][0]
                    for a, p in outcomes:
                        total += p
                        if roll < total:
                            action = a
                            break
                else:
                    legal = state.legal_actions()
                    action = legal[int(rng.random() * len(legal))]
                state.apply_action(action)
                actions += 1
        return actions, games

    return run


def pettingzoo_random(name: str, players: int, games: int) -> Callable[[int], tuple[int, int]]:
    from citybuild.adapters.pettingzoo import env

    environment = env(name, players=players)

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        actions = 0
        for g in range(games):
            environment.reset(seed=seed * 1000 + g)
            for _ in environment.agent_iter():
                observation, _, termination, truncation, _ = environment.last()
                if termination or truncation:
                    environment.step(None)
                    continue
                legal = [i for i, m in enumerate(observation["action_mask"]) if m]
                environment.step(legal[int(rng.random() * len(legal))])
                actions += 1
        return actions, games

    return run


def openspiel_mcts(name: str, params: dict[str, object], decisions: int) -> Callable[[int], tuple[int, int]]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name, params)

    def run(seed: int) -> tuple[int, int]:
        rng = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        made = 0
        while made < decisions and not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(bot.step(state))
                made += 1
        return made, made

    return run


def main() -> int:
    quick = "--quick" in sys.argv
    games, runs, mcts_decisions = (1, 1, 2) if quick else (10, 5, 20)
    print(f"{'game':<13} {'loop':<16} {'per second':>14} {'':>16}")
    for name in PLAYERS:
        players = PLAYERS[name]
        game = cb.load(name, players=players)
        params = {"players": players}
        rows = [
            ("engine playout", _median_rate(engine_playout(game, games), runs), "moves", "games"),
            ("API loop", _median_rate(api_loop(game, games), runs), "moves", "games"),
        ]
        try:
            import citybuild.adapters.openspiel  # noqa: F401 - registers the games
        except ImportError:
            print("(OpenSpiel not installed: pip install 'citybuild[openspiel]')")
        else:
            rows.append(
                (
                    "OpenSpiel",
                    _median_rate(openspiel_random(f"citybuild_{name}", params, games), runs),
                    "actions",
                    "games",
                )
            )
            rows.append(
                (
                    "OpenSpiel MCTS",
                    _median_rate(openspiel_mcts(f"citybuild_{name}", params, mcts_decisions), 1),
                    "decisions",
                    "",
                )
            )
        try:
            rate = _median_rate(pettingzoo_random(name, players, games), runs)
        except ImportError:
            print("(PettingZoo not installed: pip install 'citybuild[pettingzoo]')")
        else:
            rows.append(("PettingZoo", rate, "actions", "games"))
        for label, (a, b), unit_a, unit_b in rows:
            second = f"{b:>9.1f} {unit_b}" if unit_b else ""
            print(f"{name:<13} {label:<16} {a:>10.0f} {unit_a:<9} {second}")
    try:
        import open_spiel.python.games.tic_tac_toe  # noqa: F401 - registers python_tic_tac_toe
    except ImportError:
        return 0
    anchor = _median_rate(openspiel_random("python_tic_tac_toe", {}, games * 20), runs)
    print(f"{'anchor':<13} {'OS tic-tac-toe':<16} {anchor[0]:>10.0f} {'actions':<9} (OpenSpiel's Python game)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
