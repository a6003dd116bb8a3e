"""The move builder and each game's action numbering, against the legal moves on random states."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.actions import Decisions, MoveBuilder, Option, decisions, steps_of
from citybuild.core.engine import Engine
from citybuild.testing import states
from citybuild.testing.decisions import check_decisions
from plugin_game import SPEC as RACE
from plugin_game import Roll

GAMES = ("manhattan", "skyline", "urbanization")


@st.composite
def configured_states(draw: st.DrawFn, name: str) -> cb.State:
    spec_presets = cb.presets(name)
    game = cb.load(name, players=draw(st.integers(2, 4)), preset=draw(st.sampled_from(spec_presets)))  # 2-4: every game
    return draw(states(game, max_steps=300))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_legal_move_is_reachable_and_nothing_else(name: str, data: st.DataObject) -> None:
    state = data.draw(configured_states(name))
    check_decisions(state, samples=10, rng=random.Random(data.draw(st.integers(0, 2**16))))


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_manhattan_options_under_other_rules(data: st.DataObject) -> None:
    """Free two-colour splits, hidden simultaneous selection, merged legality and the pass policy."""
    overrides = data.draw(
        st.fixed_dictionaries(
            {
                "two_colour_split": st.sampled_from(["per_colour", "free"]),
                "selection": st.sampled_from(["sequential_open", "simultaneous_hidden"]),
                "two_colour_legality": st.sampled_from(["per_colour", "merged"]),
                "no_legal_move": st.sampled_from(["redraw_then_forfeit", "forfeit", "pass_keep_piece"]),
            }
        )
    )
    game = cb.load("manhattan", players=data.draw(st.integers(2, 4)), **overrides)
    check_decisions(data.draw(states(game, max_steps=300)), samples=5)


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_skyline_options_under_other_rules(data: st.DataObject) -> None:
    overrides = data.draw(
        st.fixed_dictionaries(
            {
                "reroll_all_remaining": st.booleans(),
                "fallback_only": st.booleans(),
                "demolish_completed_allowed": st.booleans(),
                "yard_take": st.integers(1, 6),
            }
        )
    )
    game = cb.load("skyline", players=data.draw(st.integers(2, 4)), **overrides)
    check_decisions(data.draw(states(game, max_steps=300)), samples=5)


def test_a_build_is_card_city_piece() -> None:
    rng = random.Random(4)
    state = cb.load("manhattan", players=2).initial_state()
    while state.phase != "build":
        state = state.random_step(rng)
    builder = MoveBuilder.start(state)
    assert all(o.name.startswith("card ") for o in builder.options)
    builder = builder.choose(builder.actions[0])
    assert all(o.name.startswith("city ") for o in builder.options)
    builder = builder.choose(builder.actions[-1])
    assert all(o.name.startswith("piece ") for o in builder.options)
    builder = builder.choose(builder.actions[0])
    assert builder.done and builder.options == ()
    move = builder.move
    assert move in state.legal_moves()
    assert steps_of(state, move) == builder.chosen
    assert builder.back().back().back() == MoveBuilder.start(state)
    assert str(builder).startswith(f"P{state.to_act[0]}: card ")


def test_refusals_name_the_options() -> None:
    state = cb.load("manhattan", players=2).initial_state()
    with pytest.raises(cb.RulesError, match=r"not to act|name the player"):
        MoveBuilder.start(state)  # the deal: nobody acts
    rng = random.Random(1)
    while state.phase != "select":
        state = state.random_step(rng)
    builder = MoveBuilder.start(state)
    with pytest.raises(cb.RulesError, match=r"action 0 is not an option now; the options are 57 \(count 0\)"):
        builder.choose(0)
    with pytest.raises(cb.RulesError, match="not complete"):
        _ = builder.move
    with pytest.raises(cb.RulesError, match="P1 is not to act"):
        MoveBuilder.start(state, 1)
    assert builder.options[0] == Option(57, "count 0") and str(builder.options[0]) == "count 0"


class RaceDecisions(Decisions):
    """The least a plugin writes: the numbering of its moves and outcomes (the rest is derived)."""

    names = ("step 1", "step 2", "step 3", "roll")
    chance_names = tuple(f"die {f}" for f in range(1, 7))

    def steps(self, engine: Engine, player: int, move: Any) -> tuple[int, ...]:
        return (3,) if isinstance(move, Roll) else (move.squares - 1,)

    def outcome_steps(self, engine: Engine, outcome: Any) -> tuple[int, ...]:
        return (outcome.face - 1,)


def test_a_plugin_numbering_from_the_listing() -> None:
    cb.register(RACE)
    try:
        with pytest.raises(cb.RulesError, match="declares no decisions hook"):
            decisions(cb.load("race"))
    finally:
        cb.unregister("race")
    cb.register(attrs.evolve(RACE, decisions=RaceDecisions))
    try:
        rng = random.Random(3)
        state = cb.load("race", players=3).initial_state()
        checked = 0
        while not state.is_over:
            checked += check_decisions(state)
            state = state.random_step(rng)
        assert checked > 10
        with pytest.raises(cb.RulesError, match="make no legal move"):
            RaceDecisions(state.game).move(state._engine(), 0, (7,))
    finally:
        cb.unregister("race")


def test_a_whole_game_by_the_builder_is_a_legal_game() -> None:
    """Random decisions, step by step, play complete games of both games."""
    for name in GAMES:
        rng = random.Random(7)
        state = cb.load(name, players=3).initial_state()
        while not state.is_over:
            if state.is_chance:
                numbering = decisions(state.game)
                steps = numbering.sample_steps(state._engine(), rng)
                state = state.play(numbering.outcome(state._engine(), steps))
                continue
            builder = MoveBuilder.start(state, state.to_act[0])
            while not builder.done:
                builder = builder.choose(rng.choice(builder.actions))
            state = state.play(builder.move, builder.player)
        assert state.winners()


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_urbanization_options_under_other_rules(data: st.DataObject) -> None:
    """Random characters, token placement anywhere next to the city, two New Hands a round."""
    overrides = data.draw(
        st.fixed_dictionaries(
            {
                "character_mode": st.sampled_from(["draft", "random"]),
                "token_no_space": st.sampled_from(["remove", "any_cell_adjacent_to_city"]),
                "token_move_keeps_alphabetical_order": st.booleans(),
                "new_hand_per_round": st.integers(0, 2),
            }
        )
    )
    game = cb.load("urbanization", players=data.draw(st.integers(2, 5)), **overrides)
    check_decisions(data.draw(states(game, max_steps=400)), samples=5)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_builder_from_a_view_offers_what_the_state_offers(name: str, data: st.DataObject) -> None:
    """A user interface holds only its player's view: the builder it starts from that view offers,
    at every decision of a random walk, exactly the options of the builder on the real state, and
    the move it completes is legal there."""
    from hypothesis import assume

    state = data.draw(configured_states(name))
    rng = random.Random(0)
    while state.is_chance:  # a builder starts at a decision: play chance on to the next one
        state = state.random_step(rng)
    assume(not state.is_over)
    player = data.draw(st.sampled_from(state.to_act))
    from_view = MoveBuilder.start(state.view(player))
    from_state = MoveBuilder.start(state, player)
    assert from_view.player == player
    while not from_state.done:
        assert from_view.options == from_state.options
        action = data.draw(st.sampled_from(from_state.actions))
        from_view, from_state = from_view.choose(action), from_state.choose(action)
    assert from_view.done
    assert from_view.move == from_state.move
    assert state.check(from_view.move, player).ok
