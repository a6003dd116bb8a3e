"""Moves as a newcomer clicks them (``core.choices``, each game's ``choices``): every legal move has
one choice, told apart from the others by its part and words, whose part the picture of the view
marks, in words rather than notation."""

from __future__ import annotations

import random
import re

import pytest

from citybuild import load
from citybuild.core.choices import Choice, choices_of, move_words
from citybuild.core.svg import picture

SHORT = {"skyline": {"rounds": 2}, "manhattan": {"rounds": {2: 1, 3: 1, 4: 1}}, "urbanization": {"max_rounds": 2}}
NOTATION = re.compile(r"^(count|character|die|card|piece|destination) \w+$")
"""What the move builder's names look like, and a newcomer's button must not."""


def _check(view: object, moves: list[object], made: list[Choice]) -> None:
    assert len(made) == len(moves)
    parts = set(re.findall(r'data-part="([^"]*)"', picture(view)))
    keys = [(c.part, c.path) for c in made]
    assert len(set(keys)) == len(keys), "two moves the client could not tell apart"
    for choice in made:
        assert choice.part is None or choice.part in parts, choice
        assert choice.path and all(step and not NOTATION.match(step) for step in choice.path), choice
        assert choice.words
        for other in made:  # no path is a step on the way to another's: each leads to one move
            if other is not choice and other.part == choice.part:
                assert other.path[: len(choice.path)] != choice.path, (choice, other)


@pytest.mark.parametrize(("game_name", "players"), [("skyline", 2), ("skyline", 4), ("manhattan", 2), ("manhattan", 3),
                                                    ("urbanization", 2), ("urbanization", 3)])  # fmt: skip
def test_every_legal_move_is_a_choice_on_the_picture(game_name: str, players: int) -> None:
    game = load(game_name, players=players, **SHORT[game_name])
    rng = random.Random(players)
    for _ in range(2):
        state = game.initial_state()
        while not state.is_over:
            if not state.is_chance:
                for player in state.to_act:
                    view = state.view(player)
                    moves = list(view.legal_moves())
                    _check(view, moves, choices_of(view, moves))
            state = state.random_step(rng)


def test_moves_are_told_in_words() -> None:
    game = load("skyline", players=2)
    state = game.initial_state()
    view = state.view(state.to_act[0])
    assert (
        move_words(view, game.parse_move("take yard GF,GF,PH"))
        == "Take dice from the yard: 2 ground floors, 1 penthouse"
    )
    assert move_words(view, game.parse_move("end")) == "End of the turn"


def test_a_manhattan_redraw_is_played_on_the_card_it_swaps() -> None:
    game = load("manhattan", players=3)
    rng, state = random.Random(2), game.initial_state()
    while state.is_chance or not any(str(m).startswith("redraw") for m in state.legal_moves()):
        state = state.random_step(rng)
    view = state.view(state.to_act[0])
    moves = list(view.legal_moves())
    made = choices_of(view, moves)
    _check(view, moves, made)
    assert [c.part for c in made] == [f"card {m.card}" for m in moves]  # type: ignore[attr-defined]
