"""The picture of a finished game names the winner and gives each player's total exactly as the
final score sheet has it (Skyline's low-rise bonus included), for every game and preset."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import citybuild as cb
from citybuild.core.registry import games, spec
from citybuild.core.svg import picture

CASES = [(name, preset) for name in games() for preset in spec(name).presets]


def texts(svg: str) -> list[str]:
    return ["".join(node.itertext()) for node in ET.fromstring(svg).iter() if node.tag.endswith("text")]


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_a_finished_games_picture_names_the_winner_and_each_total(name: str, preset: str) -> None:
    for seed in range(4):
        game = cb.load(name, players=3, preset=preset)
        final, _ = game.initial_state().playout(random.Random(seed))
        sheet = final.scores()
        shown = texts(picture(final))
        winners = ", ".join(f"P{p}" for p in sheet.winners)
        assert any(f"winner{'s' if len(sheet.winners) > 1 else ''} {winners}" in line for line in shown), shown[:3]
        for p in range(3):
            line = f"final score {sheet.total(p)}" + (" · winner" if p in sheet.winners else "")
            assert any(text.endswith(line) or line + " ·" in text for text in shown), (p, line)


@pytest.mark.parametrize("name", ["skyline", "manhattan", "urbanization"])
def test_a_finished_games_view_scores_as_the_sheet_for_every_seat(name: str) -> None:
    """SKY-SCORE-1..4, MAN-SCORE-5, URB-SCORE-1: a seat's picture of a finished game gives each
    total exactly as the score sheet and names the winner (Urbanization's screens are lifted)."""
    game = cb.load(name, players=3)
    for seed in range(4):
        final, _ = game.initial_state().playout(random.Random(seed))
        sheet = final.scores()
        for seat in range(3):
            shown = texts(picture(final.view(seat)))
            winners = ", ".join(f"P{p}" for p in sheet.winners)
            assert any(f"winner{'s' if len(sheet.winners) > 1 else ''} {winners}" in line for line in shown)
            for p in range(3):
                assert any(f"final score {sheet.total(p)}" in text for text in shown), (seat, p)


def test_urbanization_screens_are_lifted_only_at_the_end() -> None:  # URB-RAND-5 URB-SCORE-1
    game = cb.load("urbanization", players=3)
    final, _ = game.initial_state().playout(random.Random(2))
    assert final.view(0).sp == final.sp
    state = game.initial_state()
    rng = random.Random(2)
    while not state.is_over and state.round < 2:
        state = state.random_step(rng)
    assert state.view(0).sp[1] is None and state.view(0).sp[0] == state.sp[0]


def test_a_game_in_play_names_no_winner() -> None:
    state = cb.load("manhattan", players=2).initial_state()
    assert not any("winner" in text for text in texts(picture(state)))


def test_the_last_player_move_stays_highlighted_after_a_draw() -> None:  # MAN-BUILD-1
    from citybuild.core.svg import HIGHLIGHT
    from citybuild.match import Match
    from citybuild.show import at_move

    match = Match(cb.load("manhattan", players=2), seed=4)
    while not (match.history and match.history[-1].player is None and type(match.history[-2].move).__name__ == "Build"):
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    shown = at_move(match.record(), None)
    assert shown.last_player is None and shown.marked is not None  # a draw came after the build
    assert HIGHLIGHT in picture(match.state, last_move=shown.last_move, marked_move=shown.marked.last_move,
                                marked_player=shown.marked.last_player)  # fmt: skip
    assert HIGHLIGHT not in picture(match.state, last_move=shown.last_move)
