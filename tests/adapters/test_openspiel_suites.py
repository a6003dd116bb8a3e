"""OpenSpiel's own simulation test (``games_sim_test.sim_game``, from the installed package) on every
game, preset and player count; pickling and OpenSpiel's serialisation; what observers serve."""

from __future__ import annotations

import contextlib
import io
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402
from open_spiel.python.tests import games_sim_test  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.adapters import openspiel as adapter  # noqa: E402
from citybuild.adapters.stepper import Stepper  # noqa: E402
from citybuild.core.registry import spec  # noqa: E402

GAMES = ("manhattan", "skyline", "urbanization")
PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)


def _every_setup() -> list[tuple[str, str, int]]:
    return [
        (name, preset, players)
        for name in GAMES
        for preset in cb.presets(name)
        for players in range(spec(name).min_players, spec(name).max_players + 1)
    ]


@pytest.mark.parametrize(("name", "preset", "players"), _every_setup())
def test_openspiel_games_sim_test(name: str, preset: str, players: int) -> None:
    """``sim_game`` as OpenSpiel runs it on its own games: the game and its type pickle, and at
    every power-of-two action the state goes through ``serialize_game_and_state`` and pickle; each
    action is applied to a clone too. A game ends within the test's bound of 1000 actions."""
    game = pyspiel.load_game(f"citybuild_{name}", {"players": players, "preset": preset})
    np.random.seed(players)  # sim_game draws from NumPy's global generator
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        games_sim_test.GamesSimTest().sim_game(game)
    assert "terminated with" in printed.getvalue()


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("manhattan", {"players": 3, "rules": '{"selection": "simultaneous_hidden"}'}),
        ("manhattan", {"players": 2, "returns": "points"}),
        ("skyline", {"players": 2, "returns": "points"}),
        ("urbanization", {"players": 5, "returns": "points"}),
    ],
)
def test_openspiel_games_sim_test_under_other_parameters(name: str, params: dict[str, Any]) -> None:
    """``sim_game`` with rule overrides (Manhattan's secret simultaneous selection) and with the
    final points as returns (a general-sum game): the game string carries every parameter."""
    game = pyspiel.load_game(f"citybuild_{name}", params)
    np.random.seed(len(params))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        games_sim_test.GamesSimTest().sim_game(game)
    assert "terminated with" in printed.getvalue()
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


@pytest.mark.parametrize("name", GAMES)
def test_games_and_states_pickle(name: str) -> None:
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 3, "returns": "points"})
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and type(game).__name__ == f"Citybuild{name.title()}Game"
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    assert getattr(adapter, type(game).__name__) is type(game)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copied = pickle.loads(pickle.dumps(state))
    assert str(copied) == str(state) and copied.history() == state.history()
    assert copied.legal_actions() == state.legal_actions()


def test_openspiel_serialisation_keeps_the_parameters() -> None:
    """``serialize_game_and_state`` writes the game string with every parameter, and reads it back."""
    game = pyspiel.load_game(
        "citybuild_skyline", {"players": 3, "preset": "all-nine-rounds", "rules": '{"rounds": 2}', "returns": "points"}
    )
    state = game.new_initial_state()
    for action in (33, 38, 35, 35, 0, 2, 0):
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game) and new_game.get_parameters() == game.get_parameters()
    assert new_game.citybuild_game == game.citybuild_game
    assert str(new_state) == str(state) and new_state.history() == state.history()
    assert set(game.get_type().parameter_specification) == {"players", "preset", "rules", "returns"}


@pytest.mark.parametrize("name", GAMES)
def test_no_information_state_tensor_is_served_or_advertised(name: str) -> None:
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 2})
    game_type = game.get_type()
    assert not game_type.provides_information_state_tensor
    assert game_type.provides_information_state_string and game_type.provides_observation_tensor
    state = game.new_initial_state()
    with pytest.raises(cb.RulesError, match="no tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0).startswith(state.observation_string(0))
    assert make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)).tensor is None


def _positions(game: pyspiel.Game, seed: int, count: int) -> list[pyspiel.State]:
    state, rng, out = game.new_initial_state(), random.Random(seed), []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            if rng.random() < 0.2:
                out.append(state.clone())
    return out


@pytest.mark.parametrize("name", GAMES)
def test_the_public_observer_shows_public_information_only(name: str) -> None:
    """The public observation is the same for every player, and the same across positions that
    differ only in what some player cannot see (``hidden_variants``); it has no tensor."""
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 3})
    observer = make_observation(game, PUBLIC)
    assert observer.tensor is None
    variants = spec(name).hidden_variants
    checked = 0
    for state in _positions(game, 7, 12):
        seen = observer.string_from(state, 0)
        assert seen.startswith(f"{name}/3 public") and "?" not in seen
        assert all(observer.string_from(state, p) == seen for p in range(3))
        for player in range(3):
            for variant in list(variants(state.stepper.state(), player) if variants else [])[:4]:
                other = adapter.CitybuildState(game, Stepper(state.stepper.game, variant))
                assert observer.string_from(other, player) == seen
                checked += 1
    assert checked > 10 or name == "skyline"


def test_observers_that_are_not_offered_are_refused() -> None:
    game = pyspiel.load_game("citybuild_manhattan", {"players": 2})
    with pytest.raises(cb.RulesError, match="public information"):
        game.make_py_observer(pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    with pytest.raises(cb.RulesError, match="not all players"):
        game.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
        )


@pytest.mark.parametrize(
    ("name", "rules"), [("urbanization", ""), ("manhattan", '{"selection": "simultaneous_hidden"}')]
)
def test_the_public_observer_does_not_show_a_secret_choice(name: str, rules: str) -> None:
    """Where players choose at once, the first chooser's move is completed in different ways: the
    positions differ, the public observation (and the others' observations) do not."""
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 3, "rules": rules})
    observer = make_observation(game, PUBLIC)
    state, rng, checked = game.new_initial_state(), random.Random(2), 0
    while not state.is_terminal() and checked < 8:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if len(state.stepper.engine.to_act) > 1 and not state.stepper.chosen:
            chooser, others = state.current_player(), set(state.stepper.engine.to_act) - {state.current_player()}
            branches = []
            for seed in range(4):
                branch, pick = state.clone(), random.Random(seed)
                while branch.current_player() == chooser:
                    branch.apply_action(pick.choice(branch.legal_actions()))
                branches.append(branch)
            if len({str(branch.stepper.state().notation()) for branch in branches}) > 1:
                checked += 1
                assert len({observer.string_from(branch, 0) for branch in branches}) == 1
                for other in others:
                    assert len({branch.observation_string(other) for branch in branches}) == 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 8


def test_a_pickled_game_and_state_load_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """Unpickling imports the adapter and finds the game's class by name: no setup is needed."""
    game = pyspiel.load_game("citybuild_urbanization", {"players": 4, "rules": '{"max_rounds": 2}'})
    state = _positions(game, 3, 4)[-1]
    (tmp_path / "state.pickle").write_bytes(pickle.dumps((game, state)))
    script = (
        "import pickle, sys\n"
        "game, state = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(type(game).__name__, game, state.legal_actions())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "state.pickle")], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [
        "CitybuildUrbanizationGame",
        str(game),
        *str(state.legal_actions()).split(),
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_players_information_state_remembers_its_earlier_decisions(name: str) -> None:
    """Perfect recall of the served string: at each of a player's decisions its information state
    is new, and the same position reached with no decisions behind it (a game set up there) has
    the same observation but another information state."""
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 3})
    state, rng = game.new_initial_state(), random.Random(5)
    seen: set[str] = set()
    compared = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        player = state.current_player()
        key = f"P{player}\n{state.information_state_string(player)}"
        assert key not in seen
        seen.add(key)
        if state.stepper.history[player] is not None and not state.stepper.chosen:
            fresh = adapter.CitybuildState(game, Stepper(state.stepper.game, state.stepper.state()))
            assert fresh.observation_string(player) == state.observation_string(player)
            assert fresh.information_state_string(player) != state.information_state_string(player)
            compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 10
