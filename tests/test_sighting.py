"""What each seat sees of each step, and the one undo rule of every human-facing surface: a human
never takes back a move once something was shown to them since (a chance outcome they were told
of, or another player's secret choice of the same round)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.determinize import determinize
from citybuild.match import Match
from citybuild.sighting import Told, is_secret, replay_unseen, secret_rounds, secret_steps, seen_step, undo_refusal

GAMES = [
    ("manhattan", {}),
    ("manhattan", {"selection": "simultaneous_hidden"}),
    ("skyline", {}),
    ("urbanization", {}),
]


def humans_first(match: Match, human: int) -> None:
    """One step as the terminal plays it: the human first among players who decide at once."""
    state = match.state
    player = human if human in state.to_act else (state.to_act[0] if state.to_act else None)
    match.play(match.random_move(player), player)


def test_urbanization_draft_pick_of_the_last_to_choose_is_secret_and_not_undone() -> None:  # URB-RAND-5
    match = Match(cb.load("urbanization", players=2), seed=3)
    while set(match.state.to_act) != {0, 1}:
        match.play(match.random_move())
    match.play(match.random_move(0), 0)
    assert match.state.to_act == (1,)
    match.play(match.random_move(1), 1)  # the last to choose acts alone, and chooses in secret
    secret = secret_steps(match.states, match.history)
    assert secret[-2:] == [True, True]
    seen = seen_step(match.states[-2], match.history[-1].move, 1, 0, secret[-1])
    assert seen == Told("pick (hidden)")
    assert undo_refusal(match, 0) == (
        "cannot undo: P1 has chosen in secret since your move, and you would choose again"
    )


def test_a_secret_choice_made_before_the_humans_in_the_same_round_blocks_undo() -> None:  # MAN-ROUND-1
    match = Match(cb.load("manhattan", players=2, selection="simultaneous_hidden"), seed=3)
    assert set(match.state.to_act) == {0, 1}
    match.play(match.random_move(1), 1)  # the bot chooses first (a server may let it)
    match.play(match.random_move(0), 0)  # the human's choice completes the round: both are revealed
    assert undo_refusal(match, 0) == "cannot undo: P1 chose in secret in the same round, and you would choose again"


def test_undo_is_allowed_past_open_moves_and_refused_past_a_draw_the_human_saw() -> None:  # MAN-RAND-1
    match = Match(cb.load("manhattan", players=2), seed=3)
    match.play(match.random_move(0), 0)
    match.play(match.random_move(1), 1)  # an open selection: nothing hidden was shown
    assert undo_refusal(match, 0) is None
    while not (match.history and match.history[-1].player is None and match.states[-2].turn == 0):
        humans_first(match, 0)  # on to the human's own draw
    refusal = undo_refusal(match, 0)
    assert refusal is not None and refusal.startswith("cannot undo what chance has shown you since your move: you draw")


def test_nothing_to_undo_before_the_first_move() -> None:
    assert undo_refusal(Match(cb.load("skyline", players=2), seed=1), 0) == "nothing to undo: you have not moved yet"


@settings(max_examples=100, deadline=None)
@given(
    game=st.sampled_from([g for g in GAMES if g[0] != "skyline"]),  # Skyline hides nothing to reveal
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 120),
    after=st.integers(0, 3),
    human=st.integers(0, 1),
)
def test_an_undo_that_is_allowed_reveals_nothing_hidden(
    game: tuple[str, dict[str, str]], seed: int, steps: int, after: int, human: int
) -> None:
    """Where the rule lets a human undo, what they saw since their move is the same whatever the
    hidden parts of the position before it were: replayed from positions drawn from their view
    before it (``determinize``, another way than the rule's own), the same steps give them the
    same view."""
    name, options = game
    match = Match(cb.load(name, players=2, **options), seed=seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        humans_first(match, human)
    while not match.state.is_over and not (match.history and match.history[-1].player == human):
        humans_first(match, human)  # on to the human's next move
    for _ in range(after):
        if match.state.is_over or human in match.state.to_act:
            break
        humans_first(match, human)
    assume(undo_refusal(match, human) is None)
    last = max(i for i, e in enumerate(match.history) if e.player == human)
    before, now = match.states[last], match.state.view(human)
    replayed = 0
    for draw in range(12):  # other draws than the rule's own
        position = determinize(match.game, before.view(human), random.Random(f"test {draw}"))
        state = replay_unseen(position, match.history[last:], random.Random(draw))
        if state is None:
            continue  # a move this position could not take: not a world the human must tell apart
        replayed += 1
        assert state.view(human) == now
    assume(replayed)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_human_sees_every_public_move_and_only_their_own_secret_ones(name: str, options: dict[str, str]) -> None:
    match = Match(cb.load(name, players=3, **options), seed=11)
    for _ in range(150):
        if match.state.is_over:
            break
        humans_first(match, 0)
    secret = secret_steps(match.states, match.history)
    for index, entry in enumerate(match.history):
        state = match.states[index]
        for viewer in range(3):
            seen = seen_step(state, entry.move, entry.player, viewer, secret[index])
            if entry.player == viewer or (entry.player is not None and not secret[index]):
                assert seen == entry.move
            elif entry.player is not None:
                assert seen == Told(f"{str(entry.move).split()[0]} (hidden)")
            elif seen is not None:
                assert isinstance(seen, Told) and seen.text == match.game.spec.announce(state, entry.move, viewer)
    assert any(secret) == (name == "urbanization" or options.get("selection") == "simultaneous_hidden")


def test_a_bots_only_log_tells_everything() -> None:
    match = Match(cb.load("urbanization", players=2), seed=2)
    for _ in range(30):
        humans_first(match, 0)
    entry = match.history[-1]
    assert seen_step(match.states[-2], entry.move, entry.player, None, True) == entry.move


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from([g for g in GAMES if g[0] != "skyline"] + [("manhattan", {"preset": "all-pieces"})]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31),
    steps=st.integers(1, 150),
    seat=st.integers(0, 3),
)
def test_what_a_seat_is_told_of_a_step_is_the_same_for_every_step_its_view_cannot_tell_apart(
    game: tuple[str, dict[str, str]], players: int, seed: int, steps: int, seat: int
) -> None:
    """The terminal's line for a step (``P1 pick (hidden)``, ``chance you draw a 3``) is what
    ``seen_step`` says: the same for the step played and for any other move or outcome there that
    leaves the seat's view the same."""
    name, options = game
    viewer = seat % players  # every seat of every player count, with nothing filtered out
    options = dict(options)
    preset = options.pop("preset", "standard")
    match = Match(cb.load(name, players=players, preset=preset, **options), seed=seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    states, history = match.states, match.history
    index = len(history) - 1
    before, entry = states[index], history[index]
    in_round = secret_rounds(states, history)[index]
    told = seen_step(before, entry.move, entry.player, viewer, secret_steps(states, history)[index])
    view = match.state.view(viewer)
    if entry.player is None:
        others = [outcome for outcome, _ in before.chance_outcomes()]
    else:
        others = list(before.legal_moves(entry.player))
    compared = 0
    for other in others[:60]:
        after = before.play(other, entry.player)
        if other == entry.move or after.is_over or after.view(viewer) != view:
            continue  # told apart by the view (or the game's end, which everyone sees): may be told
        secret = entry.player is not None and is_secret(before, other, in_round)
        assert seen_step(before, other, entry.player, viewer, secret) == told
        compared += 1
    assume(compared)
