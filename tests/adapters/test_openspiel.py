"""citybuild games as OpenSpiel Python games: OpenSpiel's own conformance test, its bots, no leaks."""

from __future__ import annotations

import pickle
import random
from functools import partial

import pytest

from extras_support import importorskip_extra

importorskip_extra("openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.adapters import openspiel as adapter  # noqa: E402
from citybuild.adapters.stepper import Stepper  # noqa: E402
from citybuild.core.registry import spec  # noqa: E402

GAMES = ("manhattan", "skyline", "urbanization")
SHORT = {
    "manhattan": '{"rounds": {"2": 1, "3": 1, "4": 1}}',
    "skyline": '{"rounds": 1}',
    "urbanization": '{"max_rounds": 2}',
}


def test_every_game_with_a_numbering_is_registered() -> None:
    assert tuple(f"citybuild_{name}" for name in GAMES) == adapter.GAMES
    assert set(adapter.GAMES) <= set(pyspiel.registered_names())
    assert adapter.register_all() == adapter.GAMES  # registering again changes nothing


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("params", [{"players": 2}, {"players": 4, "preset": "standard", "returns": "points"}])
def test_openspiel_random_simulation_test(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's own checks for Python games: legal actions sorted, chance distributions,
    clones, serialisation round trips, observation and information state calls, returns."""
    game = pyspiel.load_game(f"citybuild_{name}", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_parameters() -> None:
    game = pyspiel.load_game("citybuild_skyline", {"players": 3, "preset": "all-nine-rounds", "rules": '{"rounds": 2}'})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 96 and game.max_chance_outcomes() == 4
    assert game.citybuild_game.rules.rounds == 2 and game.citybuild_game.preset == "all-nine-rounds"
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    manhattan = pyspiel.load_game("citybuild_manhattan")
    assert manhattan.num_players() == 4 and manhattan.num_distinct_actions() == 69
    assert manhattan.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert manhattan.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    by_string = pyspiel.load_game("citybuild_manhattan(players=2,returns=points)")
    assert by_string.num_players() == 2 and by_string.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    with pytest.raises(cb.RulesError, match="returns must be one of win, points"):
        adapter.CitybuildGame.__new__(type(manhattan)).__init__({"returns": "score"})
    with pytest.raises(cb.RulesError, match="JSON object of rule overrides"):
        adapter.rule_overrides("rounds=3")
    with pytest.raises(cb.RulesError, match="JSON object"):
        adapter.rule_overrides("[1]")
    assert adapter.rule_overrides('{"rounds": {"2": 1}}') == {"rounds": {2: 1}}
    written = pyspiel.load_game('citybuild_skyline(rules={"rounds":3;"yard_take":4})')
    assert (written.citybuild_game.rules.rounds, written.citybuild_game.rules.yard_take) == (3, 4)
    assert str(written) == 'citybuild_skyline(players=2,preset=standard,returns=win,rules={"rounds":3;"yard_take":4})'


def _advance(state: pyspiel.State, rng: random.Random, steps: int) -> pyspiel.State:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_skyline_rolls_die_by_die() -> None:
    game = pyspiel.load_game("citybuild_skyline", {"players": 2})
    state = game.new_initial_state()
    for action in (33, 38, 35, 35):  # take from the yard: 3 ground floors, no upper floor, no penthouse
        state.apply_action(action)
    assert state.is_chance_node()
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in state.chance_outcomes()] == [
        "face P",
        "face B",
        "face O",
    ]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([0.5, 1 / 3, 1 / 6])
    for face in (0, 2, 0):  # three dice, three chance nodes
        assert state.is_chance_node()
        state.apply_action(face)
    assert state.current_player() == 0
    assert state.stepper.state().active == (("GF", "P"), ("GF", "P"), ("GF", "O"))


def test_pickles_and_returns() -> None:
    game = pyspiel.load_game("citybuild_manhattan", {"players": 2, "rules": SHORT["manhattan"]})
    state = _advance(game.new_initial_state(), random.Random(5), 60)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    state = _advance(state, random.Random(5), 10_000)
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(1.0)
    points = pyspiel.load_game("citybuild_manhattan", {"players": 2, "rules": SHORT["manhattan"], "returns": "points"})
    replayed = points.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert replayed.is_terminal()
    assert replayed.returns() == list(replayed.stepper.points()) and max(replayed.returns()) > 1


@pytest.mark.parametrize("name", ["manhattan", "urbanization"])
def test_observations_come_from_views_and_hide_what_views_hide(name: str) -> None:
    """Positions that differ only in what a player cannot see (other hands, the draw pile) give that
    player the same observation string and tensor."""
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 3})
    rng = random.Random(11)
    state = _advance(game.new_initial_state(), rng, 40)
    hidden_variants = spec(name).hidden_variants
    assert hidden_variants is not None
    checked = 0
    for _ in range(8):
        state = _advance(state, rng, 7)
        position = state.stepper.state()
        for player in range(3):
            for variant in list(hidden_variants(position, player))[:3]:
                other = Stepper(position.game, variant)
                other.chosen = state.stepper.chosen
                assert other.text(player) == state.observation_string(player)
                assert other.encode(player) == pytest.approx(state.observation_tensor(player))
                checked += 1
    assert checked > 10
    seen = state.observation_string(0)
    assert state.information_state_string(0).startswith(seen)
    if name == "manhattan":
        assert "????" in seen  # the other hands are hidden


def test_the_deciding_player_sees_its_own_half_made_move_only() -> None:
    game = pyspiel.load_game("citybuild_manhattan", {"players": 2})
    state = _advance(game.new_initial_state(), random.Random(3), 8)  # the deal, then a selection
    player = state.current_player()
    state.apply_action(state.legal_actions()[0])
    assert "deciding: count" in state.observation_string(player)
    assert "deciding" not in state.observation_string(1 - player)
    tensor = np.asarray(state.observation_tensor(player))
    assert tensor[-(1 + 8 * 69)] == 1.0 and tensor[-8 * 69 :].sum() == 1.0
    assert np.asarray(state.observation_tensor(1 - player))[-(1 + 8 * 69) :].sum() == 0.0


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_plays_a_game(name: str) -> None:
    game = pyspiel.load_game(f"citybuild_{name}", {"players": 2, "rules": SHORT[name]})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 6, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    assert decisions > 5 and sum(state.returns()) == pytest.approx(1.0)


def test_simultaneous_secret_choices_are_made_in_turn_and_stay_secret() -> None:
    """Urbanization's players choose a card at once: the adapter asks them one after another, lowest
    seat first, and what the first chose does not show in the observations of the others."""
    game = pyspiel.load_game("citybuild_urbanization", {"players": 3})
    rng = random.Random(8)
    state = game.new_initial_state()
    while not (state.stepper.engine.phase == "choose" and len(state.stepper.engine.to_act) == 3):
        state = _advance(state, rng, 1)
    assert state.current_player() == 0
    first_cards = state.legal_actions()
    assert len(first_cards) > 1
    after = []
    for card in first_cards[:2]:
        branch = state.clone()
        branch.apply_action(card)
        branch.apply_action(branch.legal_actions()[0])  # the tile, or no tile
        assert branch.current_player() == 1
        after.append(branch)
    assert after[0].observation_string(1) == after[1].observation_string(1)
    assert after[0].observation_tensor(2) == after[1].observation_tensor(2)
    assert after[0].information_state_string(0) != after[1].information_state_string(0)


def test_information_kinds() -> None:
    """Hands of cards are hidden (OpenSpiel's IS-MCTS applies); Skyline hides nothing (its MCTS does)."""
    information = pyspiel.GameType.Information
    kinds = {name: pyspiel.load_game(f"citybuild_{name}").get_type().information for name in GAMES}
    assert kinds == {
        "manhattan": information.IMPERFECT_INFORMATION,
        "skyline": information.PERFECT_INFORMATION,
        "urbanization": information.IMPERFECT_INFORMATION,
    }


@pytest.mark.parametrize("name", ["manhattan", "urbanization"])
def test_openspiel_ismcts_plays_a_game(name: str) -> None:
    """OpenSpiel's IS-MCTS plays a whole game of each game with hidden cards, with its own
    resampling (``resample_from_infostate``, which draws what the player cannot see through the
    game's ``determinize``): every sample keeps the player's information state and legal actions."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game(f"citybuild_{name}", {"players": 2, "rules": SHORT[name]})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        state.apply_action(bot.step(state))
        decisions += 1
    assert decisions > 5 and sum(state.returns()) == pytest.approx(1.0)


def test_a_custom_resampler_is_used() -> None:
    """``resampled`` takes any ``determinize(view, rng)``, here Urbanization's own."""
    from citybuild.games.urbanization.determinize import determinize

    game = pyspiel.load_game("citybuild_urbanization", {"players": 2, "rules": SHORT["urbanization"]})
    state = _advance(game.new_initial_state(), random.Random(2), 12)
    while state.is_chance_node():
        state = _advance(state, random.Random(2), 1)
    player = state.current_player()
    sample = state.resampled(player, partial(determinize, state.stepper.game), random.Random(3))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.legal_actions() == state.legal_actions()


def test_resampling_a_perfect_information_game_gives_the_same_position() -> None:
    game = pyspiel.load_game("citybuild_skyline", {"players": 2})
    state = _advance(game.new_initial_state(), random.Random(4), 30)
    while state.is_chance_node():
        state = _advance(state, random.Random(4), 1)
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(sample) == str(state)
    assert sample.information_state_string(player) == state.information_state_string(player)
