"""Fuzzing of the entry points learning frameworks and user interfaces call: the stepper, the move
builder, views, determinize and the bots, given bools, floats, None, out-of-range ints, another
game's states, other seats' views and other positions' moves, and things that are no random
generator. Each call answers or raises a citybuild error, and nothing it was given changes."""

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
        for ask in (stepper.text, stepper.history_text, stepper.encode, stepper.play_chance, stepper.sample_chance):
            before = _snapshot(stepper)
            _answers_or_refuses(lambda ask=ask, value=value: ask(value))
            assert _snapshot(stepper) == before  # no seat, no generator: nothing asked changes anything
        seat = stepper.current if stepper.current >= 0 else 0
        for view, chosen in ((value, ()), (None, value), (VIEWS[0], (0,))):
            encoded = _answers_or_refuses(
                lambda view=view, chosen=chosen, seat=seat: stepper.encode_deciding(seat, True, chosen, view)
            )
            if encoded is not None:
                assert len(encoded) == stepper.observation_size


@fuzz_settings(150)
@given(sources, st.one_of(st.none(), ODD))
def test_the_move_builder_starts_or_refuses(source: Any, player: Any) -> None:
    """A builder starts only for a seat that is to act, of a state, or of a view for its viewer."""
    builder = _answers_or_refuses(lambda: MoveBuilder.start(source, player))
    if builder is not None:
        assert player is None or player == builder.player
        if isinstance(source, State):
            assert builder.player in source.to_act
        else:
            assert builder.player == source.player and isinstance(source.player, int)


DECIDING = [state for state in STATES if not state.is_chance and state.to_act]


@fuzz_settings(150)
@given(st.sampled_from(DECIDING), st.integers(0, 4), st.one_of(ODD, st.integers(0, 170)))
def test_a_builder_takes_only_its_options(state: State, seat: int, action: Any) -> None:
    player = state.to_act[seat % len(state.to_act)]
    builder = MoveBuilder.start(state, player)
    chosen = _answers_or_refuses(lambda: builder.choose(action))
    assert (chosen is not None) == (type(action) is int and action in builder.actions)
    for move in (action, *state.legal_moves(player)[:1]):
        steps = _answers_or_refuses(lambda move=move: steps_of(state, move, player))
        verdict = _answers_or_refuses(lambda move=move: state.check(move, player))  # text is parsed
        assert (steps is not None) == (verdict is not None and verdict.ok)


MOVES = [move for state in STATES[::3] if not state.is_chance for move in state.legal_moves()[:3]]
"""Moves legal somewhere: at another position, or in another game, most are illegal."""


@fuzz_settings(150)
@given(
    st.sampled_from(STATES),
    st.one_of(st.integers(0, 40), st.sampled_from(MOVES), ODD),
    st.one_of(st.none(), st.integers(0, 4), ODD),
)
def test_a_move_is_built_only_where_it_is_legal(state: State, move: Any, player: Any) -> None:
    """``MoveBuilder.of`` and ``steps_of`` give the ids of a legal move and refuse any other move
    (another position's, another game's, no move at all) or seat with a citybuild error."""
    own = state.legal_moves(state.to_act[0]) if state.to_act and not state.is_chance else ()
    if type(move) is int and own:  # one of this position's own legal moves
        move = own[move % len(own)]
    built = _answers_or_refuses(lambda: MoveBuilder.of(state, move, player))
    steps = _answers_or_refuses(lambda: steps_of(state, move, player))
    assert (built is None) == (steps is None)
    if built is not None:
        seat = built.player
        assert seat in state.to_act and (player is None or (type(player) is int and player == seat))
        assert state.check(move, seat).ok and built.done and built.chosen == steps
        assert built.move == (state.game.parse_move(move) if isinstance(move, str) else move)


@fuzz_settings(100)
@given(st.sampled_from(VIEWS), ODD, st.sampled_from(STATES), st.one_of(ODD, st.builds(random.Random, st.integers())))
def test_views_determinize_and_bots_answer_or_refuse(view: Any, seat: Any, other: State, rng: Any) -> None:
    game = view.game
    odd_view = attrs.evolve(view, player=seat)
    moves = _answers_or_refuses(odd_view.legal_moves)
    if moves is not None:
        assert type(seat) is int and 0 <= seat < game.players
    for given_view in (odd_view, other, view):
        _answers_or_refuses(lambda given_view=given_view: game.determinize(given_view, random.Random(0)))
    drawn = _answers_or_refuses(lambda: game.determinize(view, rng))  # with a generator only
    assert (drawn is not None) == isinstance(rng, random.Random)
    if drawn is not None:
        assert drawn.view(view.player) == view
    move = _answers_or_refuses(lambda: cb.bots.load("random").choose(odd_view, random.Random(0)))
    if move is not None:
        assert move in moves
    for make in (decisions, encoder, Stepper, cb.bots.load):
        _answers_or_refuses(lambda make=make: make(seat))
    _answers_or_refuses(lambda: Stepper(game, other))
