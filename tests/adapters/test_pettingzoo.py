"""citybuild games as PettingZoo AEC environments and single-agent Gymnasium environments."""

from __future__ import annotations

import random
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.adapters.pettingzoo import env, single_agent_env  # noqa: E402

GAMES = ("manhattan", "skyline", "urbanization")
SHORT: dict[str, dict[str, Any]] = {
    "manhattan": {"rounds": {2: 1, 3: 1, 4: 1}},
    "skyline": {"rounds": 1},
    "urbanization": {"max_rounds": 2},
}


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    api_test(env(name, players=3), num_cycles=150)
    seed_test(lambda: env(name, players=2), num_cycles=150)


def _play(environment: Any, seed: int) -> dict[str, float]:
    environment.reset(seed=seed)
    rng = random.Random(seed)
    totals: dict[str, float] = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(list(legal))))
    return totals


def test_a_whole_game_with_masks_and_rewards() -> None:
    environment = env("skyline", players=2, rounds=2, returns="points", render_mode="ansi")
    totals = _play(environment, seed=4)
    assert environment.agents == []
    assert max(totals.values()) > 0  # the final points, paid at the end
    assert "skyline/2" in environment.render()
    wins = _play(env("manhattan", players=2, rounds={2: 1, 3: 1, 4: 1}), seed=1)
    assert sum(wins.values()) == pytest.approx(1.0)


def test_only_the_agent_to_act_has_a_mask() -> None:
    environment = env(cb.load("manhattan", players=3))
    environment.reset(seed=0)
    acting = environment.agent_selection
    for agent in environment.possible_agents:
        mask = environment.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (69,)
        assert (mask.sum() > 0) == (agent == acting)
    assert environment.observation_space(acting)["observation"].shape == (643 + 1 + 8 * 69,)


def test_refusals() -> None:
    with pytest.raises(cb.RulesError, match="returns must be one of"):
        env("skyline", returns="rank")
    with pytest.raises(cb.RulesError, match="render_mode"):
        env("skyline", render_mode="rgb_array")
    with pytest.raises(cb.RulesError, match="either a loaded game"):
        env(cb.load("skyline"), players=3)
    with pytest.raises(cb.RulesError, match="no seat 5"):
        single_agent_env("skyline", players=2, seat=5)
    with pytest.raises(cb.RulesError, match="illegal must be"):
        single_agent_env("skyline", illegal="ignore")
    environment = single_agent_env("skyline", players=2, illegal="raise")
    environment.reset(seed=1)
    with pytest.raises(cb.RulesError, match="not legal now"):
        environment.step(95)


@pytest.mark.parametrize("name", GAMES)
def test_single_agent_env(name: str) -> None:
    check_env(single_agent_env(name, players=2, seat=1, illegal="end"), skip_render_check=True)
    environment = single_agent_env(name, players=3, seat=2, **SHORT[name])
    observation, _ = environment.reset(seed=3)
    rng = random.Random(3)
    done, reward, steps = False, 0.0, 0
    while not done:
        action = int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
        observation, reward, done, _, _ = environment.step(action)
        steps += 1
    assert steps > 3 and reward in (0.0, 0.5, 1.0, 1 / 3)
    ended = single_agent_env(name, players=2, illegal="end", illegal_reward=-5)
    observation, _ = ended.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    assert ended.step(illegal)[1:3] == (-5.0, True)


def test_opponents_decide_from_views() -> None:
    seen: list[Any] = []

    def first_move(view: Any, rng: random.Random) -> Any:
        """An opponent gets only its view (Skyline hides nothing, so the view is the position)."""
        seen.append(view)
        return environment.stepper.state().legal_moves(view.player)[0]

    class Bot:
        def choose(self, view: Any, rng: random.Random) -> Any:
            return first_move(view, rng)

    for opponent in (first_move, Bot()):
        seen.clear()
        environment = single_agent_env("skyline", players=2, seat=0, opponent=opponent, rounds=1)
        observation, _ = environment.reset(seed=2)
        done = False
        while not done:
            observation, _, done, _, _ = environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert seen and all(v.player == 1 for v in seen)


def test_a_bot_named_by_text_plays_the_other_seats() -> None:
    """``opponent="greedy"`` seats citybuild's greedy bot: a whole game against it, and a bad text
    is refused before anything starts."""
    environment = single_agent_env("skyline", players=2, seat=0, opponent="greedy", rounds=2)
    assert type(environment.opponent).__name__ == "GreedyBot"
    observation, _ = environment.reset(seed=5)
    done, reward = False, 0.0
    while not done:
        observation, reward, done, _, _ = environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert environment.stepper.is_over and reward in (0.0, 0.5, 1.0)
    with pytest.raises(cb.RulesError):
        single_agent_env("skyline", players=2, opponent="no-such-bot")
