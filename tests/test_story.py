"""The terminal tells the game as it happens: a header as each round begins, and each score item
the moment it is earned, so that a log's told items add up to the final totals; with a human at
the table, only what that human may see."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.match import Match
from citybuild.terminal.story import story_lines

SCORED = re.compile(r"^    scores: P(\d+) \S+ +([+-]\d+) ")


def finished(name: str, players: int, seed: int, **options: object) -> Match:
    match = Match(cb.load(name, players=players, **options), seed=seed)
    while not match.state.is_over:
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    return match


@pytest.mark.parametrize("seed", range(3))
def test_manhattan_tells_each_round_and_its_scoring_as_it_happens(seed: int) -> None:  # MAN-SCORE-1
    match = finished("manhattan", 3, seed)
    lines = story_lines(match, 0)
    rounds = [int(line.split()[1]) for line in lines if line.startswith("round ")]
    total_rounds = match.game.rules.total_rounds(3)
    assert rounds == list(range(1, total_rounds + 1))
    told = [0, 0, 0]
    for line in lines:
        if found := SCORED.match(line):
            told[int(found.group(1))] += int(found.group(2))
    final = match.state.scores().totals
    last_round = [i for i in match.state.scores().items if f"round {total_rounds}:" in i.detail]
    for item in last_round:  # the last round's scoring is the final score's, printed at the end
        told[item.player] += item.points
    assert tuple(told) == final
    first_scoring = next(i for i, line in enumerate(lines) if SCORED.match(line))
    assert lines.index("round 2") > first_scoring  # round 1 is scored before round 2 begins


def test_skyline_tells_each_completed_building() -> None:  # SKY-BUILD-5
    match = next(m for seed in range(100) if (m := finished("skyline", 2, seed)).states[-2].scores().items)
    lines = story_lines(match, 0)
    told = [line for line in lines if SCORED.match(line)]
    assert len(told) == len(match.states[-2].scores().items)  # every tile standing before the end was told


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), human=st.integers(0, 2))
def test_a_human_is_told_only_their_own_score_items_in_a_game_with_secrets(seed: int, human: int) -> None:
    match = finished("manhattan", 3, seed)
    for line in story_lines(match, 0, [human]):
        if found := SCORED.match(line):
            assert int(found.group(1)) == human
    assert "round 1" in story_lines(match, 0, [human])
