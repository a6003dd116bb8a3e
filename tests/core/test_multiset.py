"""Multisets as count vectors (core.multiset): every vector within the limits, in one fixed order
that games' seeds depend on (Skyline's rolls and yard takes, Manhattan's selections)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from citybuild.core.multiset import bounded_compositions
from citybuild.games.manhattan.selections import multisets


def test_bounded_compositions_order_and_totals() -> None:
    every = list(bounded_compositions([2, 1]))
    assert every == [(2, 1), (2, 0), (1, 1), (1, 0), (0, 1), (0, 0)]
    assert len(list(bounded_compositions([3, 3, 3], 3))) == 10  # multisets of 3 from 3 kinds
    assert list(bounded_compositions([1, 0, 2], 2)) == [(1, 0, 1), (0, 0, 2)]
    assert list(bounded_compositions([1], 5)) == [] and list(bounded_compositions([], 0)) == [()]


@settings(max_examples=60)
@given(st.lists(st.integers(0, 4), max_size=4), st.none() | st.integers(0, 10))
def test_every_vector_once_largest_first(limits: list[int], total: int | None) -> None:
    vectors = list(bounded_compositions(limits, total))
    expected = [v for v in product(*(range(n + 1) for n in limits)) if total is None or sum(v) == total]
    assert vectors == sorted(expected, reverse=True)


def test_manhattan_selections_are_the_compositions_reversed() -> None:
    """MAN-ROUND-1: a colour's selectable multisets, fewest 1s first (the order seeds depend on)."""
    assert multisets((2, 1, 0, 1), 2) == ((2, 4), (1, 4), (1, 2), (1, 1))
    for supply in product(range(4), range(3), range(2), range(2)):
        for count in range(6):
            expected = [
                (1,) * a + (2,) * b + (3,) * c + (4,) * d
                for a in range(supply[0] + 1)
                for b in range(supply[1] + 1)
                for c in range(supply[2] + 1)
                for d in range(supply[3] + 1)
                if a + b + c + d == count
            ]
            assert multisets(supply, count) == tuple(expected)
