"""Decisions from views (DESIGN principle 9): a view lists its player's legal moves, and
determinisation fills in what the player cannot see, consistently and uniformly."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.determinize import determinize, has_hidden_information
from citybuild.games.manhattan.selections import selectable_multisets
from citybuild.testing.strategies import games, states

HIDDEN_SELECTION = {"selection": "simultaneous_hidden"}


@st.composite
def positions(draw: st.DrawFn) -> cb.State:
    """A reachable position of any game and preset, Manhattan also with hidden selection."""
    game = draw(games())
    if game.name == "manhattan" and draw(st.booleans()):
        game = cb.load("manhattan", players=game.players, preset=game.preset, **HIDDEN_SELECTION)
    return draw(states(game, max_steps=300))


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_view_lists_its_players_legal_moves(state: cb.State, seed: int) -> None:
    for player in range(state.game.players):
        view = state.view(player)
        assert tuple(view.legal_moves()) == tuple(state.legal_moves(player))


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_determinize_gives_a_position_with_the_same_view(state: cb.State, seed: int) -> None:
    game = state.game
    rng = random.Random(seed)
    for player in range(game.players):
        view = state.view(player)
        filled = game.determinize(view, rng)
        assert type(filled) is type(state)
        assert filled.view(player) == view
        filled.validate()
        assert filled.legal_moves(player) == state.legal_moves(player)
        if not has_hidden_information(game):
            assert filled == state


def test_a_view_read_from_json_still_knows_its_game() -> None:
    match = cb.Match(cb.load("manhattan", players=3, preset="four-rounds"), seed=4)
    view = match.state.view(0)
    again = cb.from_json(cb.to_json(view))
    assert again == view and again.game == match.game
    assert tuple(again.legal_moves()) == tuple(match.state.legal_moves(0))


def test_a_view_without_its_game_says_so() -> None:
    view = cb.Match(cb.load("skyline"), seed=1).state.view(0)
    import attrs

    bare = attrs.evolve(view, game=None)
    with pytest.raises(cb.RulesError, match="names no game"):
        bare.legal_moves()
    with pytest.raises(cb.RulesError, match="belongs to"):
        cb.load("skyline").determinize(bare, random.Random(0))
    with pytest.raises(cb.RulesError, match="belongs to"):
        cb.load("skyline", players=3).determinize(view, random.Random(0))


def _late_manhattan_state(seed: int) -> cb.State:
    """A 2-player Manhattan build with at least 28 discards: few unseen cards."""
    match = cb.Match(cb.load("manhattan", players=2), seed=seed)
    while not match.state.is_over:
        state = match.state
        if state.phase == "build" and sum(state.discard) >= 28:
            return state
        match.play(match.random_move())
    raise AssertionError("no late position")


def _chi_square_limit(df: int) -> float:
    """The 0.999 quantile of chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    z = 3.09
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


def test_hidden_hands_are_drawn_uniformly() -> None:
    """Every unseen card is equally likely to be anywhere: the opponent's hand follows the
    multivariate hypergeometric law over the unseen cards."""
    state = _late_manhattan_state(11)
    me, other = state.turn, 1 - state.turn
    view = state.view(me)
    unseen = [5 - view.hands[me][k] - view.discard[k] for k in range(9)]
    size = view.hand_sizes[other]
    total = sum(unseen)
    expected: dict[tuple[int, ...], float] = {}
    for hand in product(*(range(min(n, size) + 1) for n in unseen)):
        if sum(hand) == size:
            ways = math.prod(math.comb(n, h) for n, h in zip(unseen, hand, strict=True))
            expected[hand] = ways / math.comb(total, size)
    rng = random.Random(5)
    draws = 4000
    seen = Counter(state.game.determinize(view, rng).hands[other] for _ in range(draws))
    assert set(seen) <= set(expected)
    statistic = sum((seen[h] - draws * p) ** 2 / (draws * p) for h, p in expected.items())
    assert statistic < _chi_square_limit(len(expected) - 1), (statistic, len(expected))


def test_hidden_selections_are_drawn_uniformly() -> None:
    """Under hidden selection, another player's selection is any of the selections they could have
    made, each equally likely."""
    game = cb.load("manhattan", players=3, preset="all-pieces", **HIDDEN_SELECTION)
    per_round = game.rules.pieces_per_round[3]
    match = cb.Match(game, seed=2)
    while not (
        match.state.phase == "select"
        and 1 in match.state.to_act
        and 3 <= len(selectable_multisets(match.state.supply[1], per_round)) <= 40
    ):
        state = match.state
        match.play(match.random_move(state.to_act[-1]), state.to_act[-1])
    state = match.state
    state = state.play(state.random_move(random.Random(0), 1), 1)  # P1 chooses; P0 cannot see what
    view = state.view(0)
    assert view.chosen[1] == "?"
    options = selectable_multisets(view.supply[1], per_round)
    rng = random.Random(9)
    draws = 200 * len(options)
    seen = Counter(determinize(game, view, rng).chosen[1] for _ in range(draws))
    assert len(seen) == len(options)
    statistic = sum((count - 200) ** 2 / 200 for count in seen.values())
    assert statistic < _chi_square_limit(len(options) - 1), statistic


def test_skyline_has_nothing_to_hide() -> None:
    state = cb.Match(cb.load("skyline", players=3), seed=8).state
    assert not has_hidden_information(state.game)
    assert has_hidden_information(cb.load("manhattan"))
    assert state.game.determinize(state.view(2), random.Random(1)) == state
