"""Fuzzing of the entry points learning frameworks and user interfaces call: the stepper, the move
builder, views, determinize and the bots, given bools, floats, None, out-of-range ints, another
game's states and other seats' views. Each call answers or raises a citybuild error, and nothing it
was given changes."""

from __future__ import annotations

import random
from typing import Any

import attrs
from fuzz_support import GAMES, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.adapters.stepper import Stepper
from citybuild.core.actions import MoveBuilder, decisions, steps_of
from citybuild.core.encoding import encoder
from citybuild.core.errors import CitybuildError
from citybuild.core.game import State

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 200),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.floats(0, 170).map(float.__floor__).map(float),  # a float equal to some id
    st.text(max_size=3),
    st.just([1]),
    st.just((0,)),
)


def _line(name: str, players: int, seed: int) -> list[Stepper]:
    stepper, rng, out = Stepper(cb.load(name, players=players)), random.Random(seed), []
    for _ in range(60):
        stepper.play_chance(rng)
        if stepper.is_over:
            break
        out.append(stepper.copy())
        stepper.apply(rng.choice(stepper.legal()))
    return out


LINES = {(name, players): _line(name, players, 3) for name in GAMES for players in (2, 3)}
STATES = [stepper.state() for line in LINES.values() for stepper in line]
VIEWS = [state.view(player) for state in STATES[::5] for player in range(state.game.players)]
steppers = st.sampled_from([s for line in LINES.values() for s in line])
sources = st.one_of(st.sampled_from(STATES), st.sampled_from(VIEWS), ODD)


def _snapshot(stepper: Stepper) -> tuple[Any, ...]:
    return str(stepper), stepper.chosen, tuple(stepper.history), stepper.current


def _answers_or_refuses(call: Any) -> Any:
    try:
        return call()
    except CitybuildError:
        return None


@fuzz_settings(150)
@given(steppers, st.lists(ODD, min_size=1, max_size=4))
def test_the_stepper_answers_or_refuses_and_a_refusal_changes_nothing(original: Stepper, inputs: list[Any]) -> None:
    stepper = original.copy()
    for value in inputs:
        before = _snapshot(stepper)
        legal = stepper.legal() if stepper.current >= 0 else tuple(step for step, _ in stepper.chance())
        try:
            stepper.apply(value)
        except CitybuildError:
            assert _snapshot(stepper) == before
        else:
            assert type(value) is int and value in legal
        for ask in (stepper.text, stepper.history_text, stepper.encode):
            _answers_or_refuses(lambda ask=ask, value=value: ask(value))


@fuzz_settings(150)
@given(sources, st.one_of(st.none(), ODD), st.one_of(ODD, st.integers(0, 170)))
def test_the_move_builder_answers_or_refuses(source: Any, player: Any, action: Any) -> None:
    builder = _answers_or_refuses(lambda: MoveBuilder.start(source, player))
    if builder is None:
        return
    state = source if isinstance(source, State) else None
    if state is not None:
        assert builder.player in state.to_act
    else:
        assert builder.player == source.player
    chosen = _answers_or_refuses(lambda: builder.choose(action))
    if chosen is not None:
        assert type(action) is int and action in builder.actions
    if state is not None:
        for move in (action, *state.legal_moves(builder.player)[:1]):
            steps = _answers_or_refuses(lambda move=move: steps_of(state, move, builder.player))
            if steps is not None:
                assert state.check(move, builder.player).ok


@fuzz_settings(100)
@given(st.sampled_from(VIEWS), ODD, st.sampled_from(STATES))
def test_views_determinize_and_bots_answer_or_refuse(view: Any, seat: Any, other: State) -> None:
    game = view.game
    odd_view = attrs.evolve(view, player=seat)
    moves = _answers_or_refuses(odd_view.legal_moves)
    if moves is not None:
        assert type(seat) is int and 0 <= seat < game.players
    for given_view in (odd_view, other, view):
        _answers_or_refuses(lambda given_view=given_view: game.determinize(given_view, random.Random(0)))
    move = _answers_or_refuses(lambda: cb.bots.load("random").choose(odd_view, random.Random(0)))
    if move is not None:
        assert move in moves
    for make in (decisions, encoder, Stepper, cb.bots.load):
        _answers_or_refuses(lambda make=make: make(seat))
    _answers_or_refuses(lambda: Stepper(game, other))
