"""``play`` moves on the engine kept for the state it plays from instead of copying it: what a
state, its lazy move list and its notation say must not change, whatever is played from it,
in which order, or on which thread."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from skyline_support import game

from citybuild.core import chance
from citybuild.core.errors import IllegalMoveError
from citybuild.games.skyline import EndTurn
from citybuild.games.skyline.state import SkylineState

CONFIGS = st.tuples(st.sampled_from(["standard", "all-nine-rounds"]), st.integers(2, 4), st.integers(0, 10_000))


def positions(preset: str, players: int, seed: int, decisions: int) -> list[SkylineState]:
    """Decision states of one random game, reached through ``play`` (so each has a kept engine
    when it is made)."""
    rng = random.Random(seed)
    state = game(players, preset).initial_state()
    out: list[SkylineState] = []
    while not state.is_over and len(out) < decisions:
        if state.is_chance:
            state = state.play(chance.sample(state.chance_outcomes(), rng))
            continue
        out.append(state)
        moves = state.legal_moves()
        state = state.play(moves[int(rng.random() * len(moves))])
    return out


@settings(max_examples=15, deadline=None)
@given(CONFIGS, st.randoms(use_true_random=False))
def test_branching_from_a_state_with_its_move_list_read_between_plays(
    config: tuple[str, int, int], pick: random.Random
) -> None:
    preset, players, seed = config
    for state in positions(preset, players, seed, decisions=12):
        text = state.notation()
        moves = state.legal_moves()  # lazy: read again after the plays below
        listed = tuple(moves)
        first = pick.randrange(len(listed))
        second = pick.randrange(len(listed))
        after_first = state.play(moves[first])  # takes the kept engine
        assert moves[second] == listed[second]
        after_second = state.play(moves[second])  # no kept engine left for ``state``: a new one
        assert tuple(state.legal_moves()) == listed
        assert state.notation() == text
        fresh = state.game.parse_state(text)  # a state with no kept engine behind it
        for move, after in ((listed[first], after_first), (listed[second], after_second)):
            again = state.play(move)
            assert again == after and again.notation() == after.notation()
            assert fresh.play(move) == after


def test_an_illegal_play_changes_nothing_and_the_state_plays_on() -> None:
    state = next(s for s in positions("standard", 2, 7, decisions=40) if s.phase == "take")
    text = state.notation()
    legal = tuple(state.legal_moves())
    with pytest.raises(IllegalMoveError):
        state.play(EndTurn())  # SKY-TURN-6: no turn to end before the dice are taken
    assert state.notation() == text
    assert tuple(state.legal_moves()) == legal
    assert state.play(legal[0]) == state.thaw().freeze().play(legal[0])


def test_each_thread_keeps_its_own_engine() -> None:
    """A state played on one thread does not move on an engine that another thread's question
    of the same state is using: every thread asks its own kept engine."""
    states = positions("standard", 3, 11, decisions=30)
    expected = [(tuple(s.legal_moves()), s.notation()) for s in states]
    seen: list[list[tuple[tuple[object, ...], str]]] = [[], []]
    barrier = threading.Barrier(2)

    def read_and_play(slot: int) -> None:
        barrier.wait()
        for s in states:
            moves = s.legal_moves()
            s.play(moves[0])
            seen[slot].append((tuple(moves), s.notation()))

    threads = [threading.Thread(target=read_and_play, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [expected, expected]


@settings(max_examples=10, deadline=None)
@given(CONFIGS)
def test_a_playout_takes_the_kept_engine_and_leaves_the_state_as_it_was(config: tuple[str, int, int]) -> None:
    preset, players, seed = config
    for state in positions(preset, players, seed, decisions=6):
        text, legal = state.notation(), tuple(state.legal_moves())
        final, steps = state.playout(random.Random(seed))  # moves the engine kept for ``state`` on
        again, steps_again = state.playout(random.Random(seed))  # none kept now: a new one
        assert (again, steps_again) == (final, steps) and again.notation() == final.notation()
        assert state.notation() == text and tuple(state.legal_moves()) == legal
        assert final.is_over and final.scores() == again.scores()
