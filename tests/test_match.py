"""Match: seeded chance, history, undo/redo, and refusals that change nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.match import Entry


def two_player() -> cb.Game:
    return cb.load("manhattan", players=2)


def play_random(match: cb.Match, steps: int) -> None:
    for _ in range(steps):
        if match.is_over:
            return
        match.play(match.random_move())


def test_same_seed_same_game_and_different_seed_differs() -> None:
    a, b, c = cb.Match(two_player(), seed=11), cb.Match(two_player(), seed=11), cb.Match(two_player(), seed=12)
    for m in (a, b, c):
        play_random(m, 40)
    assert a.history == b.history and a.state == b.state
    assert a.history != c.history


def test_global_random_does_not_matter() -> None:
    a = cb.Match(two_player(), seed=3)
    play_random(a, 30)
    random.seed(99)
    b = cb.Match(two_player(), seed=3)
    for _ in range(30):
        random.random()
        b.play(b.random_move())
    assert a.record() == b.record()


def test_chance_is_resolved_and_recorded_with_no_player() -> None:
    m = cb.Match(two_player(), seed=1)
    assert not m.state.is_chance
    assert m.history and all(e.player is None for e in m.history)  # the opening deal: 8 draws
    assert len(m.history) == 8
    m.play(m.state.legal_moves()[0])
    assert m.history[8] == Entry(0, m.history[8].move)


def test_play_accepts_notation_text() -> None:
    m = cb.Match(two_player(), seed=1)
    move = m.state.legal_moves()[5]
    m.play(str(move))
    assert m.history[-1].move == move


@pytest.mark.parametrize("seed", [1.5, "7", True, None.__class__, [1]])
def test_bad_seed_is_a_rules_error(seed: object) -> None:
    with pytest.raises(cb.RulesError, match="seed must be an int"):
        cb.Match(two_player(), seed=seed)  # type: ignore[arg-type]


def test_no_seed_draws_one_and_records_it() -> None:
    m = cb.Match(two_player())
    assert isinstance(m.seed, int)
    assert m.record().seed == m.seed


def test_match_by_name_and_bad_game() -> None:
    assert cb.Match("manhattan", seed=1).game.players == 4
    with pytest.raises(cb.RulesError, match="unknown game"):
        cb.Match("chess", seed=1)
    with pytest.raises(cb.RulesError):
        cb.Match(42, seed=1)  # type: ignore[arg-type]


def test_refused_moves_change_nothing() -> None:
    m = cb.Match(two_player(), seed=4)
    before, history = m.state, m.history
    with pytest.raises(cb.IllegalMoveError) as refused:
        m.play("build 0 Syd A1")
    assert refused.value.verdict.codes == ("wrong-phase",)
    with pytest.raises(cb.NotationError):
        m.play("fly to the moon")
    with pytest.raises(cb.IllegalMoveError):
        m.play(m.state.legal_moves()[0], player=1)
    assert m.state is before and m.history == history


def test_undo_goes_back_to_the_previous_decision_with_its_chance() -> None:
    m = cb.Match(two_player(), seed=5)
    play_random(m, 10)  # selections, then builds each followed by a draw
    decision, length = m.states[-1], len(m.history)
    move = m.random_move()
    m.play(move)
    assert m.history[-1].player is None  # the draw after the build
    undone = m.undo()
    assert undone[0].move == move and all(e.player is None for e in undone[1:])
    assert m.state == decision and len(m.history) == length
    m.play(move)  # the same move draws the same card: the generator was rewound
    again = m.history[length:]
    m.undo()
    assert m.redo() == again
    assert m.history[length:] == again


def test_undo_and_redo_when_there_is_nothing() -> None:
    m = cb.Match(two_player(), seed=5)
    assert not m.can_undo and m.undo() == ()
    assert not m.can_redo and m.redo() == ()
    assert len(m.history) == 8  # the opening deal stays


def test_new_move_clears_redo() -> None:
    m = cb.Match(two_player(), seed=5)
    play_random(m, 3)
    m.undo()
    assert m.can_redo
    m.play(m.random_move())
    assert not m.can_redo


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31), st.lists(st.sampled_from(["play", "undo", "redo"]), max_size=40))
def test_undo_redo_sequences_match_a_fresh_replay(seed: int, actions: list[str]) -> None:
    m = cb.Match(two_player(), seed=seed)
    chooser = random.Random(seed)  # not the match's generator: it then serves chance only
    for action in actions:
        if action == "play" and not m.is_over:
            moves = m.state.legal_moves()
            m.play(moves[int(chooser.random() * len(moves))])
        elif action == "undo":
            m.undo()
        elif action == "redo":
            m.redo()
    replayed = cb.replay(m.record())
    assert replayed.state == m.state and replayed.history == m.history
    # And the generator is where a fresh match with the same choices would have it.
    assert replayed.random() == m.random()


def test_manual_chance() -> None:
    m = cb.Match(two_player(), seed=2, auto_chance=False)
    assert m.state.is_chance and m.history == ()
    outcome = m.resolve_chance()
    assert m.history == (Entry(None, outcome),)
    m.play("draw 3")
    assert m.history[-1] == Entry(None, m.game.parse_move("draw 3"))
    while m.state.is_chance:
        m.resolve_chance()
    with pytest.raises(cb.IllegalMoveError, match="no chance event"):
        m.resolve_chance()


def test_random_move_when_none() -> None:
    m = cb.Match(two_player(), seed=2)
    with pytest.raises(cb.IllegalMoveError):
        m.random_move(player=1)  # P0 selects first


def test_full_game_record_has_result() -> None:
    m = cb.Match(cb.load("manhattan", players=3, preset="four-rounds"), seed=8)
    assert m.record().result is None
    play_random(m, 10_000)
    assert m.is_over
    result = m.record().result
    sheet = m.state.scores()
    assert result is not None and result.totals == sheet.totals and result.winners == sheet.winners
    assert "over" in repr(m)
