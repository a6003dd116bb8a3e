"""The terminal tells the game as it happens: a header as each round begins, and each score item
the moment it is earned, so that a log's told items add up to the final totals; with a human at
the table, only what that human may see."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.match import Match
from citybuild.sighting import seen_scores
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
def test_a_human_is_told_every_score_item_of_a_game_that_scores_in_the_open(seed: int, human: int) -> None:
    """Manhattan hides hands but counts points in the open (MAN-SCORE-1): a seat is told the same
    score items as a log with no human at the table."""  # MAN-SCORE-1
    match = finished("manhattan", 3, seed)
    told = [line for line in story_lines(match, 0, [human]) if SCORED.match(line)]
    assert told == [line for line in story_lines(match, 0) if SCORED.match(line)]
    assert {int(SCORED.match(line).group(1)) for line in told} - {human}  # type: ignore[union-attr]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), human=st.integers(0, 2), steps=st.integers(40, 120))
def test_a_seat_sees_only_its_own_score_items_where_scores_are_hidden(seed: int, human: int, steps: int) -> None:
    """Urbanization's SP are behind each player's screen (URB-RAND-5): in play a seat sees its own items only."""
    match = Match(cb.load("urbanization", players=3), seed=seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    assume(not match.state.is_over)
    seen = seen_scores(match.state, human)
    assert seen is not None and not seen[1]
    assert all(item.player == human for item in seen[0].items)
    assert seen_scores(match.state, None) is None


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(cb.games()), seed=st.integers(0, 2**31), steps=st.integers(0, 200))
def test_a_sheet_shown_to_all_is_the_same_in_every_position_a_seat_cannot_tell_apart(
    game: str, seed: int, steps: int
) -> None:
    """Where a game shows the whole sheet in play, hidden things never change it: it leaks nothing."""
    state = cb.load(game, players=3).initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.random_step(rng)
    variants = state.game.spec.hidden_variants
    for seat in range(3):
        seen = seen_scores(state, seat)
        if seen is None or not seen[1] or variants is None or state.is_over:
            continue
        for other in itertools.islice(variants(state, seat), 12):
            assert other.scores() == seen[0]


HIDDEN = re.compile(r"^  P(\d+) +(\w+) \(hidden\)$")
REVEALED = re.compile(r"^  P(\d+) +reveals (.+)$")

SECRET_ROUNDS = [
    ("urbanization", {}),  # URB-SETUP-7 draft picks, URB-ROUND-2 selections
    ("manhattan", {"selection": "simultaneous_hidden"}),  # MAN-ROUND-1's hidden variant
]


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(SECRET_ROUNDS), seed=st.integers(0, 2**31), human=st.integers(0, 2))
def test_every_secret_choice_is_told_once_the_game_reveals_it(
    case: tuple[str, dict[str, object]], seed: int, human: int
) -> None:  # URB-ROUND-4 URB-SETUP-7 MAN-ROUND-1
    name, options = case
    match = finished(name, 3, seed, **options)
    lines = story_lines(match, 0, [human])
    hidden: dict[int, list[str]] = {}
    revealed: dict[int, list[str]] = {}
    for line in lines:
        if found := HIDDEN.match(line):
            hidden.setdefault(int(found.group(1)), []).append(found.group(2))
        elif found := REVEALED.match(line):
            said = found.group(2).split(", ")
            revealed.setdefault(int(found.group(1)), []).extend(m.split()[0] for m in said)
    secret_kinds = {"pick", "select"}
    told = {p: sorted(k for k in kinds if k in secret_kinds) for p, kinds in hidden.items()}
    assert told  # the game had secret choices
    assert human not in hidden and human not in revealed  # a seat sees its own choices in full
    assert {p: sorted(kinds) for p, kinds in revealed.items()} == told
    # and what is revealed is what was chosen, in full
    chosen = {
        (entry.player, str(entry.move))
        for entry in match.history
        if entry.player not in (None, human) and str(entry.move).split()[0] in secret_kinds
    }
    for line in lines:
        if found := REVEALED.match(line):
            for move in found.group(2).split(", "):
                assert (int(found.group(1)), move) in chosen


@pytest.mark.parametrize(("name", "options"), SECRET_ROUNDS)
def test_a_secret_choice_is_revealed_only_after_everyone_has_chosen(name: str, options: dict[str, object]) -> None:
    match = finished(name, 3, 5, **options)
    lines = story_lines(match, 0, [0])
    reveals = [i for i, line in enumerate(lines) if REVEALED.match(line)]
    assert reveals
    for index in reveals:
        kind = REVEALED.match(lines[index]).group(2).split()[0]  # type: ignore[union-attr]
        rest = lines[index + 1 :]
        until_next_round = rest[: next((i for i, x in enumerate(rest) if x.startswith("round ")), len(rest))]
        # nobody chooses in secret again in the round of a choice already revealed
        assert not any((m := HIDDEN.match(x)) and m.group(2) == kind for x in until_next_round)


@pytest.mark.parametrize(("name", "options"), SECRET_ROUNDS)
def test_a_story_told_in_parts_is_the_story_told_at_once(name: str, options: dict[str, object]) -> None:
    match = finished(name, 3, 7, **options)
    whole = story_lines(match, 0, [1])
    parts: list[str] = []
    cuts = [0, *range(13, len(match.history), 29), len(match.history)]
    for start, stop in itertools.pairwise(cuts):
        parts.extend(story_lines(match, start, [1], stop=stop))
    assert parts == whole


def test_a_bots_only_log_names_who_a_card_is_dealt_to() -> None:  # MAN-SETUP-4 MAN-RAND-1
    """A card dealt is told with the seat it goes to; a roll everyone sees is plain chance."""
    manhattan = story_lines(finished("manhattan", 2, 4), 0)
    deal = manhattan[1:9]
    assert deal == [f"  chance to P{p}: draw {line.split()[-1]}" for p in (0, 1) for line in deal[4 * p : 4 * p + 4]]
    skyline = story_lines(finished("skyline", 2, 4), 0)
    rolls = [line for line in skyline if line.startswith("  chance")]
    assert rolls and not any("chance to" in line for line in rolls)
