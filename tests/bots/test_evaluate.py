"""The evaluation hooks: points so far plus what the position promises, the final score at the
end, and (Skyline) a pending roll worth the average of its outcomes."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.evaluate import evaluator, points_so_far
from citybuild.games.manhattan.scoring import round_items, round_points
from citybuild.games.skyline.engine import SkylineEngine
from citybuild.games.skyline.evaluate import TIEBREAK
from citybuild.testing.strategies import games, states


@settings(max_examples=40, deadline=None)
@given(games(("manhattan",)).flatmap(lambda game: states(game, max_steps=400)))
def test_manhattan_round_points_total_the_round_items(state: cb.State) -> None:
    rules, players = state.game.rules, state.game.players
    totals = [0] * players
    for item in round_items(state.towers, rules, players, state.round):
        totals[item.player] += item.points
    assert round_points(state.towers, rules, players) == totals
    values = evaluator(state.game)(state._engine())
    assert all(v >= p for v, p in zip(values, state.points, strict=True))


@pytest.mark.parametrize("name", ["manhattan", "skyline", "urbanization"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_evaluation_of_a_finished_game_is_its_score(name: str, players: int) -> None:
    game = cb.load(name, players=players)
    final, _ = game.initial_state().playout(random.Random(players))
    values = evaluator(game)(final._engine())
    totals = final.scores().totals
    assert values == pytest.approx(totals, abs=TIEBREAK * 30)
    assert points_so_far(final._engine()) == tuple(float(t) for t in totals)
    best = max(values)
    assert {p for p, v in enumerate(values) if v == best} <= set(final.winners())


@settings(max_examples=30, deadline=None)
@given(states(cb.load("skyline", players=2), max_steps=300), st.integers(0, 2**32 - 1))
def test_a_skyline_roll_is_worth_the_average_of_its_outcomes(state: cb.State, seed: int) -> None:
    """The search may stop after a roll, and greedy right before one: the two must agree."""
    rng = random.Random(seed)
    while not state.is_over and not (state.is_chance and sum(state.rolling) <= 4):
        state = state.random_step(rng)
    assume(not state.is_over)
    evaluate = evaluator(state.game)
    before = evaluate(state._engine())
    average = [0.0] * state.game.players
    for outcome, probability in state.chance_outcomes():
        after = evaluate(state.play(outcome)._engine())
        for p in range(state.game.players):
            average[p] += float(probability) * after[p]
    assert isinstance(state._engine(), SkylineEngine)
    assert before == pytest.approx(average, abs=1e-9)
