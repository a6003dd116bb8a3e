"""Scoring hooks (core.scoring): unique maximum, rankings with tie-break keys, same-colour groups on
a networkx graph, squares of heights."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from citybuild.core import scoring
from citybuild.core.board import Board


def test_unique_max_count_and_squares() -> None:
    assert scoring.unique_max({"a": 3, "b": 2}) == "a"
    assert scoring.unique_max({"a": 3, "b": 3}) is None
    assert scoring.unique_max({"a": 0}) is None and scoring.unique_max({}) is None
    assert scoring.count("abca") == {"a": 2, "b": 1, "c": 1}
    assert scoring.squares_of_heights([1, 2, 6]) == 41 and scoring.squares_of_heights([]) == 0


def test_rank_without_keys_is_a_majority() -> None:
    ranking = scoring.rank({0: 5, 1: 7, 2: 5})
    assert ranking.tiers == ((1,), (0, 2)) and ranking.splits == (None,)
    assert ranking.leaders == (1,) and ranking.tiebreak is None
    tied = scoring.rank({0: 5, 1: 5})
    assert tied.leaders == (0, 1) and tied.tiebreak == scoring.SHARED
    nobody: scoring.Ranking[int] = scoring.rank({})
    assert nobody.tiers == () and nobody.leaders == () and nobody.tiebreak is None
    alone = scoring.rank({3: 0})
    assert alone.leaders == (3,) and alone.tiebreak is None


def test_rank_names_the_key_that_decided() -> None:
    """URB-SCORE-3's example 9: resources, then the tallest owned building, then the top number."""
    tallest = ("tallest", {0: 2, 1: 1})
    number = ("number", {0: 10, 1: 6})
    a = scoring.rank({0: 2, 1: 2}, [tallest, number])
    assert a.leaders == (0,) and a.tiebreak == "tallest" and a.tiers == ((0,), (1,))
    b = scoring.rank({0: 2, 1: 2}, [("tallest", {0: 2, 1: 2}), ("number", {0: 10, 1: 11})])
    assert b.leaders == (1,) and b.tiebreak == "number"
    # three contenders: each boundary says which key drew it
    c = scoring.rank({0: 4, 1: 4, 2: 9, 3: 4}, [("k", {0: 1, 1: 2, 2: 0, 3: 1})])
    assert c.tiers == ((2,), (1,), (0, 3)) and c.splits == (None, "k") and c.tiebreak is None


contenders = st.dictionaries(st.integers(0, 7), st.integers(0, 4), max_size=8)


@settings(max_examples=60)
@given(contenders, st.lists(st.integers(0, 2**32), min_size=3, max_size=3), st.randoms(use_true_random=False))
def test_rank_is_lexicographic_and_ignores_input_order(
    scores: dict[int, int], seeds: list[int], rnd: random.Random
) -> None:
    keys = [(f"key{i}", {c: random.Random(seed + c).randrange(3) for c in scores}) for i, seed in enumerate(seeds)]
    ranking = scoring.rank(scores, keys)

    def shuffled(d: dict[int, int]) -> dict[int, int]:
        items = list(d.items())
        rnd.shuffle(items)
        return dict(items)

    assert scoring.rank(shuffled(scores), [(n, shuffled(k)) for n, k in keys]) == ranking
    flat = [c for tier in ranking.tiers for c in tier]
    assert sorted(flat) == sorted(scores)

    def vector(c: int) -> tuple[int, ...]:
        return (scores[c], *(k[c] for _, k in keys))

    for tier in ranking.tiers:
        assert list(tier) == sorted(tier) and len({vector(c) for c in tier}) == 1
    assert len(ranking.splits) == max(len(ranking.tiers) - 1, 0)
    for upper, lower, split in zip(ranking.tiers, ranking.tiers[1:], ranking.splits, strict=False):
        above, below = vector(upper[0]), vector(lower[0])
        assert above > below
        first_difference = next(i for i in range(len(above)) if above[i] != below[i])
        assert split == (None if first_difference == 0 else keys[first_difference - 1][0])
    if scores:
        best = max(map(vector, scores))
        assert ranking.leaders == tuple(sorted(c for c in scores if vector(c) == best))
    if scores and max(scores.values()) > 0:  # without keys, the ranking's sole leader is the unique maximum
        by_score = scoring.rank(scores).leaders
        assert scoring.unique_max(scores) == (by_score[0] if len(by_score) == 1 else None)


def test_districts_are_same_colour_groups_of_two_or_more() -> None:
    """URB-SCORE-2 and example 10: orthogonal groups sharing a top colour, at least 2 buildings;
    diagonal contact does not count; unowned buildings count for shape."""
    city = {(0, 0): "R", (0, 1): "R", (1, 1): "B", (2, 1): "B", (2, 0): "B", (3, 3): "R", (1, 0): "Y"}
    board = Board(sorted(city))
    colour = {i: city[cell] for i, cell in enumerate(board.cells)}
    groups = scoring.same_colour_groups(board.graph, colour.__getitem__, min_size=2)
    assert [tuple(board.cells[i] for i in g) for g in groups] == [((0, 0), (0, 1)), ((1, 1), (2, 0), (2, 1))]
    singles = scoring.same_colour_groups(board.graph, colour.__getitem__)
    assert len(singles) == 4 and sum(map(len, singles)) == len(city)
    diagonal = Board([(0, 0), (1, 1)])
    assert scoring.same_colour_groups(diagonal.graph, lambda _: "R", min_size=2) == ()


@settings(max_examples=40)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=30), st.integers(0, 2**32))
def test_groups_are_the_components_of_single_colour_subgraphs(cells: set[tuple[int, int]], seed: int) -> None:
    board = Board(sorted(cells))
    rng = random.Random(seed)
    colour = {i: rng.choice(("R", "B", None)) for i in range(len(board))}
    groups = scoring.same_colour_groups(board.graph, colour.__getitem__, min_size=2)
    expected = set()
    for c in ("R", "B"):
        sub = board.graph.subgraph([i for i in colour if colour[i] == c])
        expected |= {frozenset(comp) for comp in nx.connected_components(sub) if len(comp) >= 2}
    assert {frozenset(g) for g in groups} == expected
    assert list(groups) == sorted(groups) and all(list(g) == sorted(g) for g in groups)


def test_a_ranking_keeps_the_counts_that_decided_its_tie_break() -> None:  # MAN-END-2
    from citybuild.core.scoresheet import ScoreItem, ScoreSheet
    from citybuild.core.scoring import rank

    ranking = rank({0: 39, 1: 39, 2: 20}, [("most_majorities", {0: 2, 1: 3, 2: 9})])
    assert ranking.leaders == (1,) and ranking.tiebreak == "most_majorities"
    assert ranking.decided == ((1, 3), (0, 2))  # only the players tied on points, best first
    assert rank({0: 40, 1: 39}, [("most_majorities", {0: 0, 1: 5})]).decided == ()  # the score decided
    sheet = ScoreSheet(
        2, (ScoreItem(0, "towers", 39), ScoreItem(1, "towers", 39)), (1,), "most_majorities", ((1, 3), (0, 2))
    )
    assert str(sheet).endswith("winners: P1 (tie-break: most_majorities: P1 3, P0 2)")
