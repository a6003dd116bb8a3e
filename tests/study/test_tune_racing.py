"""What a tune measures (objectives with intervals, the combined score) and how it races: the
games each round gives, which candidates are dropped, when the scores are settled."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citybuild.core.errors import RulesError
from citybuild.study import racing
from extras_support import importorskip_extra

importorskip_extra("study")

import numpy as np  # noqa: E402

from citybuild.study.objectives import (  # noqa: E402
    DEFAULT_WEIGHTS,
    Estimate,
    Games,
    Objectives,
    check_weights,
    distinguishable,
    dominates,
    measure,
    reference_of,
)


def games(winners: list[tuple[int, ...]], moves: float = 100.0, margin: float = 5.0, n: int = 2) -> Games:
    shares = np.zeros((n, len(winners)))
    for g, won in enumerate(winners):
        for seat in won:
            shares[seat, g] = 1 / len(won)
    count = len(winners)
    return Games(
        shares=shares,
        shared=np.array([len(w) > 1 for w in winners], dtype=float),
        moves=np.full(count, moves) + np.arange(count) % 3,
        rounds=np.full(count, 9.0),
        margin=np.full(count, margin) + np.arange(count) % 2,
    )


def test_fairness_is_the_largest_seat_gap_and_shared_wins_count_half() -> None:
    g = games([(0,)] * 60 + [(1,)] * 20 + [(0, 1)] * 20)  # seat 0: 60 + 10 of 100
    o = measure(g, reference_of(g), DEFAULT_WEIGHTS, "k")
    assert o.fairness.value == pytest.approx(0.2)
    assert o.fairness.low <= 0.2 <= o.fairness.high and o.fairness.high - o.fairness.low < 0.3
    assert o.shared.value == pytest.approx(0.2) and o.shared.low < 0.2 < o.shared.high
    assert o.moves.value == pytest.approx(g.moves.mean()) and o.rounds.value == 9.0
    # moves and margin at the preset's own value weigh their weight: 0.2 + 0.2 + 0.1 + 0.1
    assert o.score.value == pytest.approx(0.6)
    assert o.score.low < 0.6 < o.score.high and o.se > 0


def test_intervals_come_from_the_games_alone_and_narrow_with_more_of_them() -> None:
    few = games([(0,), (1,)] * 10)
    many = games([(0,), (1,)] * 200)
    a, b = measure(few, reference_of(few), DEFAULT_WEIGHTS, "k"), measure(few, reference_of(few), DEFAULT_WEIGHTS, "k")
    assert a == b  # the bootstrap is seeded by the candidate
    wide = a.score.high - a.score.low
    assert measure(many, reference_of(many), DEFAULT_WEIGHTS, "k").score.half_width < wide / 2


def test_weights_are_laid_over_the_defaults_and_bad_ones_refused() -> None:
    assert check_weights({"moves": 0, "rounds": 0.5}) == {**DEFAULT_WEIGHTS, "moves": 0.0, "rounds": 0.5}
    for bad, message in (
        ({"speed": 1}, "unknown objective 'speed'"),
        ({"moves": -1}, "at least 0"),
        ({"moves": math.inf}, "at least 0"),
        ({"moves": True}, "at least 0"),
        ({"fairness": 0, "shared": 0, "moves": 0, "margin": 0}, "more than 0"),
    ):
        with pytest.raises(RulesError, match=message):
            check_weights(bad)  # type: ignore[arg-type]


def scored(value: float, se: float, games: int = 40, **others: float) -> Objectives:
    def e(x: float) -> Estimate:
        return Estimate(x, x, x)

    return Objectives(
        games=games,
        fairness=e(others.get("fairness", value)),
        shared=e(others.get("shared", 0.0)),
        moves=e(others.get("moves", 100.0)),
        rounds=e(9.0),
        margin=e(others.get("margin", 1.0)),
        score=Estimate(value, value - 1.96 * se, value + 1.96 * se),
        se=se,
    )


def test_racing_drops_only_the_clearly_worse() -> None:
    scores = {"a": scored(0.10, 0.02), "b": scored(0.13, 0.02), "c": scored(0.30, 0.02)}
    best, drops = racing.race(scores, ["a", "b", "c"])
    assert best == "a" and [d.key for d in drops] == ["c"]
    assert "after 40 games" in drops[0].reason and "0.300" in drops[0].reason
    assert distinguishable(scores["a"], scores["c"]) and not distinguishable(scores["a"], scores["b"])
    # equal scores: the first listed is the best, nobody dropped
    assert racing.race({"x": scored(0.2, 0.01), "y": scored(0.2, 0.01)}, ["y", "x"]) == ("y", [])


def test_settled_when_every_score_left_is_known_to_within_the_precision() -> None:
    scores = {"a": scored(0.1, 0.004), "b": scored(0.1, 0.02)}
    assert racing.settled(scores, ["a"], 0.01) and not racing.settled(scores, ["a", "b"], 0.01)


def test_each_round_doubles_the_games_while_the_budget_pays() -> None:
    assert racing.next_games({"a": 0, "b": 0}, 0, 20, 1000, 0) == 20
    assert racing.next_games({"a": 20, "b": 20}, 20, 20, 1000, 40) == 40
    assert racing.next_games({"a": 20, "b": 20, "new": 0}, 20, 20, 1000, 40) == 40  # the newcomer catches up
    assert racing.next_games({"a": 40, "b": 40}, 40, 20, 110, 80) == 55  # cut to what is left
    assert racing.next_games({"a": 40, "b": 40}, 40, 20, 95, 80) == 0  # fewer than first // 2 more: stop
    assert racing.next_games({"a": 0, "b": 0}, 0, 20, 10, 0) == 5
    assert racing.next_games({"a": 0, "b": 0}, 0, 20, 1, 0) == 0


@given(
    st.dictionaries(st.text(min_size=1, max_size=3), st.integers(0, 64), min_size=1, max_size=6),
    st.integers(1, 40),
    st.integers(0, 2000),
)
def test_a_round_never_costs_more_than_the_budget_left(current: dict[str, int], first: int, left: int) -> None:
    done = max(current.values())
    target = racing.next_games(current, done, first, left, 0)
    cost = sum(max(0, target - g) for g in current.values())
    assert cost <= left
    assert target == 0 or target > done or done == 0


def test_the_front_holds_those_no_other_beats_everywhere() -> None:
    a = scored(0.2, 0.01, fairness=0.05, moves=100.0)
    b = scored(0.3, 0.01, fairness=0.02, moves=120.0)
    c = scored(0.4, 0.01, fairness=0.06, moves=130.0)
    assert dominates(a, c) and not dominates(a, b) and not dominates(b, a) and not dominates(a, a)


@given(st.integers(2, 4), st.lists(st.integers(0, 15), min_size=2, max_size=60))
def test_every_objective_lies_in_its_interval_and_fairness_within_its_bounds(players: int, codes: list[int]) -> None:
    # each code is a non-empty set of winning seats, as bits
    winners = [tuple(seat for seat in range(players) if code >> seat & 1) or (code % players,) for code in codes]
    g = games(winners, n=players)
    o = measure(g, reference_of(g), DEFAULT_WEIGHTS, "k")
    assert 0 <= o.fairness.value <= 1 - 1 / players + 1e-12
    for name in ("fairness", "shared", "moves", "margin", "score"):
        e = o.get(name)
        assert e.low <= e.value <= e.high, name
    assert 0 <= o.shared.low <= o.shared.high <= 1
    with pytest.raises(RulesError, match="unknown objective"):
        o.get("speed")
