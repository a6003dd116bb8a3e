"""PettingZoo's and Gymnasium's own checks, from the installed packages: ``api_test``, ``seed_test``,
``render_test`` and ``parallel_api_test`` on every game, ``check_env`` with the defaults; the
parallel environment (players who choose at once act in one step) and ``max_cycles``."""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.adapters.pettingzoo import env, parallel_env, single_agent_env  # noqa: E402

GAMES = ("manhattan", "skyline", "urbanization")


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_suites(name: str) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(name, players=3, max_cycles=400), num_cycles=100)
        seed_test(lambda: env(name, players=2), num_cycles=100)
        render_test(lambda render_mode=None: env(name, players=2, render_mode=render_mode))
        parallel_api_test(parallel_env(name, players=3), num_cycles=300)
    assert f"{name}/2" in printed.getvalue()  # render_mode="human" prints the position


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_with_the_defaults(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_agent_env(name))


def _first_legal(observations: dict[str, Any]) -> dict[str, int]:
    return {
        agent: int(np.flatnonzero(seen["action_mask"])[0])
        for agent, seen in observations.items()
        if seen["action_mask"].any()
    }


def _acting(environment: Any, observations: dict[str, Any]) -> list[str]:
    return [agent for agent, seen in observations.items() if seen["action_mask"].any()]


@pytest.mark.parametrize(
    ("name", "options"), [("urbanization", {}), ("manhattan", {"selection": "simultaneous_hidden"})]
)
def test_players_who_choose_at_once_act_in_one_step(name: str, options: dict[str, Any]) -> None:
    """A whole game; some steps have every player deciding; the winners share 1 at the end."""
    environment = parallel_env(name, players=3, **options)
    observations, _ = environment.reset(seed=3)
    most, steps, rewards = 0, 0, {}
    while environment.agents:
        most = max(most, len(_acting(environment, observations)))
        observations, rewards, terminations, truncations, _ = environment.step(_first_legal(observations))
        steps += 1
    assert most == 3 and all(terminations.values()) and not any(truncations.values())
    assert sum(rewards.values()) == pytest.approx(1.0) and environment.stepper.is_over


def test_a_secret_choice_does_not_show_in_the_others_observations() -> None:
    """Urbanization's secret selection (a card, then a tile): in the step in which everyone picks a
    card, what the first player picked does not show in the others' observations."""
    environment = parallel_env("urbanization", players=3)
    observations, _ = environment.reset(seed=8)
    while environment.stepper.engine.phase != "choose" or len(_acting(environment, observations)) < 3:
        observations, *_ = environment.step(_first_legal(observations))
    mask = observations["player_0"]["action_mask"]
    cards = np.flatnonzero(mask)
    assert len(cards) > 1
    seen = []
    for card in cards[:2]:
        branch = parallel_env("urbanization", players=3)
        branch.reset(seed=8)
        branch.stepper, branch.chosen = environment.stepper.copy(), dict(environment.chosen)
        actions = _first_legal(observations) | {"player_0": int(card)}
        after, *_ = branch.step(actions)
        seen.append(after)
    assert not np.array_equal(seen[0]["player_0"]["observation"], seen[1]["player_0"]["observation"])
    for agent in ("player_1", "player_2"):
        assert np.array_equal(seen[0][agent]["observation"], seen[1][agent]["observation"])


def test_the_parallel_environment_is_deterministic_under_a_seed() -> None:
    def play(seed: int) -> list[Any]:
        environment = parallel_env("manhattan", players=2, rounds={2: 1, 3: 1, 4: 1})
        observations, _ = environment.reset(seed=seed)
        trace = []
        while environment.agents:
            observations, rewards, *_ = environment.step(_first_legal(observations))
            trace.append((sorted(observations), rewards))
        return [str(environment.stepper), *trace]

    assert play(4) == play(4)


def test_max_cycles_truncates() -> None:
    environment = parallel_env("skyline", players=2, max_cycles=5)
    observations, _ = environment.reset(seed=1)
    for step in range(5):
        observations, rewards, terminations, truncations, _ = environment.step(_first_legal(observations))
        assert all(truncations.values()) == (step == 4) and not any(terminations.values())
    assert environment.agents == [] and set(rewards.values()) == {0.0}
    with pytest.raises(cb.RulesError, match="episode is over"):
        environment.step({})
    aec = env("urbanization", players=3, max_cycles=7)
    aec.reset(seed=2)
    taken = 0
    for _agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            assert truncation and not termination and taken == 7
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
        taken += 1
    assert taken == 7 and aec.agents == []
    for bad in (0, -3, 2.5, True, "9"):
        with pytest.raises(cb.RulesError, match="max_cycles"):
            parallel_env("skyline", max_cycles=bad)
        with pytest.raises(cb.RulesError, match="max_cycles"):
            env("skyline", max_cycles=bad)


def test_the_parallel_environment_refuses_bad_actions_and_changes_nothing() -> None:
    environment = parallel_env("urbanization", players=3)
    observations, _ = environment.reset(seed=5)
    before = (str(environment.stepper), dict(environment.chosen))
    acting = _acting(environment, observations)
    legal = _first_legal(observations)
    illegal = int(np.flatnonzero(observations[acting[-1]]["action_mask"] == 0)[0])
    for actions in ({}, legal | {acting[-1]: illegal}, legal | {acting[-1]: 3.0}, legal | {acting[-1]: True}):
        with pytest.raises(cb.RulesError):
            environment.step(actions)
        assert (str(environment.stepper), dict(environment.chosen)) == before
    with pytest.raises(cb.RulesError, match="render_mode"):
        parallel_env("skyline", render_mode="rgb_array")


def test_an_illegal_action_ends_the_episode_by_default() -> None:
    environment = single_agent_env("skyline", players=2)
    observation, _ = environment.reset(seed=0)
    before = str(environment.stepper)
    for bad in (int(np.flatnonzero(observation["action_mask"] == 0)[0]), 3.0, True, None, 10**6):
        _, reward, terminated, truncated, info = environment.step(bad)
        assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": True})
        assert str(environment.stepper) == before
    raising = single_agent_env("skyline", players=2, illegal="raise")
    raising.reset(seed=0)
    for bad in (95, 3.0, True, None):
        with pytest.raises(cb.RulesError):
            raising.step(bad)
        assert str(raising.stepper) == before


@pytest.mark.parametrize("bad", [-1, 2.0, "7", True, (1,), [1]])
def test_a_seed_is_none_or_an_int(bad: Any) -> None:
    """As Gymnasium takes: None or an int of at least 0; anything else is refused before a reset."""
    for make in (env, parallel_env, single_agent_env):
        environment = make("skyline", players=2)
        with pytest.raises(cb.RulesError, match="seed"):
            environment.reset(seed=bad)


def test_bad_arguments_of_the_environments_are_refused() -> None:
    for bad in (None, "-1", True, [0]):
        with pytest.raises(cb.RulesError, match="illegal_reward"):
            single_agent_env("skyline", illegal_reward=bad)
    assert single_agent_env("skyline", illegal_reward=np.float32(-2)).illegal_reward == -2.0
    environment = parallel_env("urbanization", players=3)
    environment.reset(seed=0)
    before = str(environment.stepper)
    for bad in (None, 3, [("player_0", 1)], "player_0"):
        with pytest.raises(cb.RulesError, match="dict of actions"):
            environment.step(bad)
        assert str(environment.stepper) == before
