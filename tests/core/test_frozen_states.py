"""States are values: a state taken from an engine with ``freeze()`` stays as it was while the engine
moves on, and answering questions about a state writes nothing into it."""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(cb.games()),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    before=st.integers(0, 60),
    after=st.integers(1, 40),
)
def test_a_frozen_state_never_changes_when_its_engine_moves_on(
    game: str, players: int, seed: int, before: int, after: int
) -> None:
    rng = random.Random(seed)
    engine = cb.load(game, players=players).initial_state().thaw()
    for _ in range(before):
        if engine.is_over:
            break
        engine.random_step(rng)
    state = engine.freeze()
    notation, fields, digest = state.notation(), dict(state.__dict__), hash(state)
    for _ in range(after):
        if engine.is_over:
            break
        engine.random_step(rng)
    state.legal_moves(state.to_act[0]) if state.to_act else state.chance_outcomes()
    assert state.notation() == notation
    assert state.__dict__ == fields and hash(state) == digest


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(cb.games()), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_questions_write_nothing_into_a_state(game: str, seed: int, steps: int) -> None:
    match = cb.Match(cb.load(game, players=2), seed=seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    state = match.state
    fields = {field.name for field in attrs.fields(type(state))}
    assert set(state.__dict__) == fields
    for player in state.to_act:
        moves = state.legal_moves(player)
        state.check(moves[0], player)
        state.view(player).legal_moves()
    state.is_over, state.is_chance, state.chance_outcomes()
    assert set(state.__dict__) == fields


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(cb.games()),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    before=st.integers(0, 60),
    moved=st.booleans(),
)
def test_a_copy_of_an_engine_moves_on_alone(game: str, players: int, seed: int, before: int, moved: bool) -> None:
    """Engines may share a state's values until they change (Skyline's arrays do): a copy made
    before or after the first change moves on without touching its original or the state."""
    rng = random.Random(seed)
    state = cb.load(game, players=players).initial_state()
    for _ in range(before):
        if state.is_over:
            break
        state = state.random_step(rng)
    engine = state.thaw()
    if moved and not engine.is_over:
        engine.random_step(rng)
    before_copy = engine.freeze().notation()
    twin = engine.copy()
    for _ in range(40):
        if twin.is_over:
            break
        twin.random_step(rng)
    assert engine.freeze().notation() == before_copy
    assert state.thaw().freeze() == state
    for _ in range(40):
        if engine.is_over:
            break
        engine.random_step(rng)
    assert twin.copy().freeze() == twin.freeze()


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(cb.games()),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    before=st.integers(0, 60),
)
def test_the_engine_that_made_a_state_answers_for_it_unchanged(game: str, players: int, seed: int, before: int) -> None:
    """``play``'s engine may go on answering the state it made (Skyline keeps it): moving a thawed
    copy on, or playing on from the state, never changes the state's answers or what an earlier
    listing of its moves holds."""
    rng = random.Random(seed)
    state = cb.load(game, players=players).initial_state()
    for _ in range(before):
        if state.is_over:
            break
        state = state.random_step(rng)
    notation = state.notation()
    player = state.to_act[0] if len(state.to_act) == 1 else None
    listed = tuple(state.legal_moves(player)) if player is not None else None
    held = state.legal_moves(player) if player is not None else None
    engine = state.thaw()
    for _ in range(30):
        if engine.is_over:
            break
        engine.random_step(rng)
    later = state
    for _ in range(30):
        if later.is_over:
            break
        later = later.random_step(rng)
    assert state.notation() == notation
    assert state.thaw().freeze() == state
    if held is not None:
        assert tuple(held) == listed == tuple(state.legal_moves(player))
