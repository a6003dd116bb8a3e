"""The move builder, the stepper, views, determinize and the bots refuse bad input with citybuild's
own errors (``RulesError``, ``IllegalMoveError``) and change nothing: each case a user met."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.adapters.stepper import CHANCE, Stepper
from citybuild.core.actions import MoveBuilder, decisions, steps_of
from citybuild.core.encoding import encoder
from citybuild.games.urbanization.moves import Pick
from extras_support import importorskip_extra

GAMES = ("manhattan", "skyline", "urbanization")


def snapshot(stepper: Stepper) -> tuple[Any, ...]:
    return str(stepper), stepper.chosen, tuple(stepper.history), stepper.current, stepper.legal()


def positions(name: str, players: int, seed: int, count: int) -> list[Stepper]:
    """Steppers at decisions spread over a random game (some in the middle of a move)."""
    stepper, rng, out = Stepper(cb.load(name, players=players)), random.Random(seed), []
    while not stepper.is_over and len(out) < count:
        stepper.play_chance(rng)
        if stepper.is_over:
            break
        if rng.random() < 0.15:
            out.append(stepper.copy())
        stepper.apply(rng.choice(stepper.legal()))
    return out


BAD_ACTIONS = (True, False, 3.0, 15.0, None, "3", -1, 10**9, [3], (3,), 2.5)


@pytest.mark.parametrize("name", GAMES)
def test_the_stepper_takes_int_ids_only_and_changes_nothing_on_a_refusal(name: str) -> None:
    """Bools are no actions (``True`` is not ``draw 1``), nor floats, even one equal to a legal id
    (``15.0`` once left a half-recorded move behind); after a refusal everything is as it was."""
    checked = 0
    for stepper in positions(name, 3, 1, 10):
        before = snapshot(stepper)
        for bad in (*BAD_ACTIONS, float(stepper.legal()[0]), float(stepper.legal()[-1])):
            with pytest.raises(cb.RulesError):
                stepper.apply(bad)
            assert snapshot(stepper) == before
            checked += 1
        stepper.apply(stepper.legal()[0])  # and it goes on as before
    assert checked > 50


def test_numpy_integers_are_action_ids() -> None:
    importorskip_extra("pettingzoo")  # numpy comes with the frameworks' extras
    import numpy as np

    stepper = Stepper(cb.load("skyline", players=2))
    stepper.play_chance(random.Random(0))
    first = stepper.legal()[0]
    assert stepper.apply(np.int64(first)) is None and stepper.chosen == (first,)
    with pytest.raises(cb.RulesError):
        stepper.apply(np.float64(stepper.legal()[0]))
    with pytest.raises(cb.RulesError):
        stepper.apply(np.bool_(True))


def test_a_chance_step_must_be_an_int_too() -> None:
    stepper = Stepper(cb.load("manhattan", players=2))  # the deal
    assert stepper.current == CHANCE
    before = snapshot(stepper)
    for bad in (True, 0.0, None, 99):
        with pytest.raises(cb.RulesError):
            stepper.apply(bad)
        assert snapshot(stepper) == before


@pytest.mark.parametrize("bad", [5, -1, True, 1.0, None, "0"])
def test_the_stepper_asks_only_of_seated_players(bad: Any) -> None:
    stepper = positions("manhattan", 2, 3, 1)[0]
    for ask in (stepper.history_text, stepper.text, stepper.encode, stepper.view):
        with pytest.raises(cb.RulesError, match="no player"):
            ask(bad)


def test_a_stepper_a_numbering_and_an_encoder_need_a_loaded_game() -> None:
    manhattan, skyline = cb.load("manhattan", players=2), cb.load("skyline", players=2)
    for bad in (None, "manhattan", manhattan.initial_state(), 3):
        for make in (decisions, encoder, Stepper):
            with pytest.raises(cb.RulesError, match="loaded game"):
                make(bad)
    with pytest.raises(cb.RulesError, match="starts from a state of that game"):
        Stepper(manhattan, skyline.initial_state())
    with pytest.raises(cb.RulesError, match="starts from a state of that game"):
        Stepper(cb.load("manhattan", players=3), manhattan.initial_state())
    with pytest.raises(cb.RulesError, match="numbering"):
        Stepper(manhattan, numbering=decisions(skyline))
    with pytest.raises(cb.RulesError, match="encoder"):
        Stepper(manhattan, coder=encoder(skyline))


def _keep_or_new_hand() -> cb.State:
    """An Urbanization position at which the only legal moves are ``newhand`` and ``keep``."""
    state, rng = cb.load("urbanization", players=3).initial_state(), random.Random(0)
    while {type(m).__name__ for m in state.legal_moves()} != {"NewHand", "Keep"} or len(state.to_act) != 1:
        state = state.random_step(rng)
    return state


def test_the_builder_of_a_move_checks_that_it_is_legal() -> None:
    state = _keep_or_new_hand()
    for ask in (lambda: steps_of(state, Pick(7)), lambda: MoveBuilder.of(state, Pick(7))):
        with pytest.raises(cb.IllegalMoveError, match="pick YU") as refused:
            ask()
        assert not refused.value.verdict.ok
    assert len(steps_of(state, state.legal_moves()[0])) == 1


def test_a_view_builds_its_own_players_moves_only() -> None:
    rng = random.Random(1)
    state = cb.load("manhattan", players=2).initial_state()
    while state.is_chance or state.to_act != (0,):
        state = state.random_step(rng)
    with pytest.raises(cb.RulesError, match="a view of P1 builds P1's moves, not P0's"):
        MoveBuilder.start(state.view(1), player=0)
    with pytest.raises(cb.RulesError, match="not to act"):
        MoveBuilder.start(state.view(1))
    assert MoveBuilder.start(state.view(0), player=0).player == 0


@pytest.mark.parametrize("seat", [7, -1, 2, True, None, 0.0])
def test_a_view_of_no_seat_is_refused(seat: Any) -> None:
    game = cb.load("manhattan", players=2)
    rng = random.Random(2)
    state = game.initial_state()
    while state.is_chance:
        state = state.random_step(rng)
    view = attrs.evolve(state.view(0), player=seat)
    with pytest.raises(cb.RulesError, match="no seat"):
        view.legal_moves()
    with pytest.raises(cb.RulesError, match="no seat"):
        game.determinize(view, random.Random(0))
    for bot in ("random", "greedy", "ismcts:10"):
        with pytest.raises(cb.RulesError):
            cb.bots.load(bot).choose(view, random.Random(0))


def test_determinize_takes_a_view_not_a_state() -> None:
    for name in GAMES:
        game = cb.load(name, players=2)
        with pytest.raises(cb.RulesError, match="from a view"):
            game.determinize(game.initial_state(), random.Random(0))


@pytest.mark.parametrize("bad", [["random"], None, 3, ("random",), {"random": 1}])
def test_bots_load_refuses_what_is_no_name(bad: Any) -> None:
    with pytest.raises(cb.RulesError, match="unknown bot"):
        cb.bots.load(bad)


@pytest.mark.parametrize("bad", [None, 0, 1.5, "seed", random, [random.Random(0)]])
def test_chance_and_determinize_draw_with_a_random_generator_only(bad: Any) -> None:
    """A seed, a module or None is no generator: refused before anything is drawn or changed."""
    stepper = Stepper(cb.load("manhattan", players=2))  # the deal
    before = snapshot(stepper)
    for draw in (stepper.sample_chance, stepper.play_chance):
        with pytest.raises(cb.RulesError, match=r"random\.Random"):
            draw(bad)
        assert snapshot(stepper) == before
    stepper.play_chance(random.Random(0))
    with pytest.raises(cb.RulesError, match="no chance event"):
        stepper.sample_chance(random.Random(0))
    for name in GAMES:
        game = cb.load(name, players=2)
        state = positions(name, 2, 4, 1)[0].state()
        with pytest.raises(cb.RulesError, match=r"random\.Random"):
            game.determinize(state.view(state.to_act[0]), bad)


def test_an_observation_is_encoded_from_the_players_own_view_and_decisions() -> None:
    stepper = positions("urbanization", 3, 5, 1)[0]
    state = stepper.state()
    player = stepper.current
    other = (player + 1) % 3
    assert stepper.encode_deciding(player, True, (), state.view(player)) == stepper.encode_deciding(player, True, ())
    for view in (state.view(other), state, "view", cb.load("urbanization", players=2).initial_state().view(0)):
        with pytest.raises(cb.RulesError, match="view to encode"):
            stepper.encode(player, view)
    for chosen in (None, [0], (True,), (1.0,), (-1,), (stepper.numbering.size,), 3):
        with pytest.raises(cb.RulesError, match="tuple of action ids"):
            stepper.encode_deciding(player, True, chosen)
