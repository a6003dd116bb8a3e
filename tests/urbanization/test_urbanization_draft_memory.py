"""URB-RAND-5: a view holds what its player saw, the characters they passed on in the draft too."""

from __future__ import annotations

import random
from collections import Counter

import citybuild as cb


def _after_first_pass(seed: int, players: int = 3) -> cb.State:
    state, rng = cb.load("urbanization", players=players).initial_state(), random.Random(seed)
    while not any(state.passed_characters):
        state = state.random_step(rng)
    return state


def test_urb_rand_5_a_view_remembers_the_characters_its_player_passed() -> None:
    state = _after_first_pass(2)
    for player in range(3):
        view = state.view(player)
        assert len(view.passed_characters) == 3  # the three left after the first pick
        assert view.passed_characters == state.passed_characters[player]
        written = next(word for word in view.notation().split() if word.startswith("cpassed="))
        assert len(written.removeprefix("cpassed=").split(".")) == 3


def test_urb_rand_5_what_a_player_passed_stays_with_the_others_when_their_view_is_filled_in() -> None:
    for seed in range(20):
        state = _after_first_pass(seed)
        view = state.view(0)
        for draw in range(5):
            position = state.game.determinize(view, random.Random(draw))
            assert position.view(0) == view
            others = Counter(k for q in (1, 2) for k in (*position.draft[q], *position.chars[q]))
            mine = Counter((*position.draft[0], *position.chars[0]))
            assert not Counter(view.passed_characters) - mine - others


def test_urb_rand_5_positions_written_before_the_field_existed_still_read() -> None:
    state = _after_first_pass(5)
    old = " ".join(word for word in state.notation().split() if not word.startswith("cpassed="))
    again = state.game.parse_state(old)
    assert again.passed_characters == ((),) * 3
    assert again.draft == state.draft and again.chars == state.chars
