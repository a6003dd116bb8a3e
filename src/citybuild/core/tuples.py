"""Small edits of immutable tuples, shared by every engine: a position's fields are tuples, and a
move rebinds a field to an edited copy rather than changing a value in place."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the item at ``index`` replaced by ``value`` (edited as a list: faster than
    joining slices, and these edits are on every engine's hot path)."""
    edited = list(values)
    edited[index] = value
    return tuple(edited)


def bumped(counts: tuple[int, ...], index: int, by: int = 1) -> tuple[int, ...]:
    """``counts`` with ``by`` added to the count at ``index``."""
    edited = list(counts)
    edited[index] += by
    return tuple(edited)


def added(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two count vectors of the same length added item by item."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def subtracted(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``b`` taken from ``a`` item by item."""
    return tuple(x - y for x, y in zip(a, b, strict=True))


def inserted(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    """A sorted tuple with ``item`` added in its place."""
    i = bisect_left(items, item)
    return (*items[:i], item, *items[i:])


def removed(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """A tuple without the first occurrence of ``item`` (``ValueError`` if absent)."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def merged(items: tuple[Any, ...], more: Iterable[Any]) -> tuple[Any, ...]:
    """A sorted tuple with every item of ``more`` added in its place."""
    out = list(items)
    for item in more:
        insort(out, item)
    return tuple(out)


def is_index(value: Any, size: int) -> bool:
    """A real int (not a bool, nor a float that compares equal) in ``range(size)``."""
    return type(value) is int and 0 <= value < size
