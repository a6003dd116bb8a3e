"""The parallel environment plays the game the AEC environment plays: players who choose at once
decide in one step, each from its own view, and the same decisions with the same seed reach the
same final position; ``max_cycles`` truncates, never terminates."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extras_support import importorskip_extra

importorskip_extra("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from citybuild.adapters.pettingzoo import env, parallel_env  # noqa: E402

SIMULTANEOUS = {
    "urbanization": {"max_rounds": 2},
    "manhattan": {"selection": "simultaneous_hidden", "rounds": {2: 1, 3: 1, 4: 1}},
}
"""Games in which several players choose at once, with short games."""
SEATS = {"urbanization": (2, 5), "manhattan": (2, 4)}


class Policy:
    """Each player draws its decisions from its own generator and its own action mask: the same
    player, shown the same masks in the same order, makes the same decisions in either environment."""

    def __init__(self, seed: int, players: int) -> None:
        self.rngs = [random.Random(seed * 100 + p) for p in range(players)]

    def __call__(self, player: int, mask: np.ndarray) -> int:
        return int(self.rngs[player].choice(np.flatnonzero(mask)))


def parallel_game(name: str, players: int, seed: int) -> tuple[str, list[int], dict[str, float]]:
    environment = parallel_env(name, players=players, **SIMULTANEOUS[name])
    observations, _ = environment.reset(seed=seed)
    policy, at_once, rewards = Policy(seed, players), [], {}
    while environment.agents:
        deciding = {int(a.split("_")[1]): seen["action_mask"] for a, seen in observations.items()}
        deciding = {p: mask for p, mask in deciding.items() if mask.any()}
        assert set(deciding) == set(environment.deciding())
        at_once.append(len(deciding))
        actions = {f"player_{p}": policy(p, mask) for p, mask in deciding.items()}
        observations, rewards, terminations, truncations, _ = environment.step(actions)
        assert not any(truncations.values())
    assert all(terminations.values())
    return str(environment.stepper), at_once, rewards


def aec_game(name: str, players: int, seed: int) -> tuple[str, dict[str, float]]:
    environment = env(name, players=players, **SIMULTANEOUS[name])
    environment.reset(seed=seed)
    policy, rewards = Policy(seed, players), {}
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        rewards[agent] = reward
        if termination or truncation:
            environment.step(None)
            continue
        environment.step(policy(int(agent.split("_")[1]), observation["action_mask"]))
    return str(environment.stepper), rewards


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(sorted(SIMULTANEOUS)), st.integers(0, 3), st.integers(0, 10**6))
def test_the_parallel_and_the_aec_environment_play_the_same_game(name: str, extra: int, seed: int) -> None:
    low, high = SEATS[name]
    players = low + extra % (high - low + 1)
    final, at_once, rewards = parallel_game(name, players, seed)
    assert max(at_once) == players  # everyone chose in one step at least once
    assert len(at_once) < sum(at_once)  # and the game took fewer steps than decisions
    assert sum(rewards.values()) == pytest.approx(1.0)
    aec_final, aec_rewards = aec_game(name, players, seed)
    assert final == aec_final and rewards == pytest.approx(aec_rewards)


@pytest.mark.parametrize("name", sorted(SIMULTANEOUS))
def test_parallel_api_test_with_simultaneous_choices(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(name, players=SEATS[name][1], **SIMULTANEOUS[name]), num_cycles=200)


@pytest.mark.parametrize("cycles", [1, 3, 8])
def test_max_cycles_counts_parallel_steps(cycles: int) -> None:
    """Each step is one cycle however many players decide in it; the last one truncates."""
    environment = parallel_env("urbanization", players=4, max_cycles=cycles)
    observations, _ = environment.reset(seed=cycles)
    policy, steps = Policy(cycles, 4), 0
    while environment.agents:
        actions: dict[str, Any] = {
            a: policy(int(a.split("_")[1]), seen["action_mask"])
            for a, seen in observations.items()
            if seen["action_mask"].any()
        }
        observations, rewards, terminations, truncations, _ = environment.step(actions)
        steps += 1
        assert all(truncations.values()) == (steps == cycles) and not any(terminations.values())
    assert steps == cycles and set(rewards.values()) == {0.0}
