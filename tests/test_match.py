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


@pytest.mark.parametrize("flag", ["no", "", 0, 1, None, [True]])
def test_auto_chance_must_be_a_bool(flag: object) -> None:
    with pytest.raises(cb.RulesError, match="auto_chance must be True or False"):
        cb.Match(two_player(), seed=1, auto_chance=flag)  # type: ignore[arg-type]
    assert not cb.Match(two_player(), seed=1, auto_chance=False).history  # a bool still works


def _no_listing(self: object, *args: object) -> None:
    raise AssertionError("listed every outcome or legal move just to pick one")


def test_chance_and_random_moves_are_sampled_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Skyline roll can have over a million outcomes: the match must draw it die by die through
    ``state.random_move`` and never list ``chance_outcomes()`` or ``legal_moves()``."""
    from citybuild.games.skyline.state import SkylineState

    def game() -> cb.Match:
        m = cb.Match(cb.load("skyline", players=3), seed=4)
        while not m.is_over:
            m.play(m.random_move())
        return m

    expected = game()
    monkeypatch.setattr(SkylineState, "chance_outcomes", _no_listing)
    monkeypatch.setattr(SkylineState, "legal_moves", _no_listing)
    again = game()
    assert again.record() == expected.record() and again.is_over  # and the same seed, the same game
    assert any(e.player is None for e in again.history)


@pytest.mark.parametrize("name", ["skyline", "manhattan"])
def test_chance_and_random_moves_come_from_state_random_move(name: str) -> None:
    """resolve_chance and random_move are the state's sampler fed by the match's generator."""
    m = cb.Match(cb.load(name, players=2), seed=9, auto_chance=False)
    twin = random.Random(9)
    for _ in range(200):
        if m.is_over:
            break
        expected = m.state.random_move(twin)
        if m.state.is_chance:
            assert m.resolve_chance() == expected
        else:
            move = m.random_move()
            assert move == expected
            m.play(move)
    assert m.random() == twin.random()


def test_random_move_at_a_chance_state_and_for_seats_not_to_act() -> None:
    m = cb.Match(two_player(), seed=2, auto_chance=False)
    assert m.state.is_chance
    outcome = m.random_move()
    assert m.state.check(outcome).ok
    with pytest.raises(cb.IllegalMoveError, match="P0 has no legal move"):
        m.random_move(player=0)  # nobody but chance acts at a chance state
    while m.state.is_chance:
        m.resolve_chance()
    with pytest.raises(cb.IllegalMoveError, match="P7 has no legal move"):
        m.random_move(player=7)
