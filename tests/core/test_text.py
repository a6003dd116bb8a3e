"""The English of messages: counts agree with their nouns, and a/an goes by sound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.bench import BenchResult
from citybuild.core.text import article, plural


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("8", "an 8"),
        ("7", "a 7"),
        ("11", "an 11"),
        ("18", "an 18"),
        ("80", "an 80"),
        ("110", "a 110"),
        ("exploit", "an exploit"),
        ("urbanize", "an urbanize"),
        ("unique item", "a unique item"),
        ("one", "a one"),
        ("hour", "an hour"),
        ("tower", "a tower"),
        ("R7", "an R7"),
        ("B12", "a B12"),
        ("ScoreSheet", "a ScoreSheet"),
        ("Urbanization card", "an Urbanization card"),
    ],
)
def test_article_goes_by_sound(word: str, expected: str) -> None:
    assert article(word) == expected


@given(st.integers(min_value=-5, max_value=10**6))
def test_plural_agrees_with_the_count(count: int) -> None:
    text = plural(count, "move")
    assert text == (f"{count} move" if count == 1 else f"{count} moves")
    assert plural(count, "city", "cities").endswith("city" if count == 1 else "cities")


def test_messages_count_in_good_english() -> None:
    assert str(BenchResult("skyline", "standard", 2, 1, 1, 1.0, 1.0)).endswith("(1 run x 1 game)")
    assert str(BenchResult("skyline", "standard", 2, 50, 5, 1.0, 1.0)).endswith("(median of 5 runs x 50 games)")
    game = cb.load("skyline", players=2)
    moves = game.initial_state().legal_moves()
    with pytest.raises(IndexError, match=rf"there (is|are) {len(moves)} legal move"):
        moves[len(moves)]


def test_the_manhattan_draw_reads_an_8() -> None:
    from types import SimpleNamespace

    from citybuild.games.manhattan.terminal import announce

    state = SimpleNamespace(turn=0, game=cb.load("manhattan", players=2))
    assert str(announce(state, SimpleNamespace(card=8), 0)).startswith("you draw an 8 ")
    assert str(announce(state, SimpleNamespace(card=7), 0)).startswith("you draw a 7 ")
