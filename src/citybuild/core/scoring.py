"""Scoring hooks shared by the games: who has the most, who has more than half, groups, squares."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

import networkx as nx

K = TypeVar("K", bound=Hashable)


def unique_max(values: Mapping[K, int]) -> K | None:
    """The key with the single greatest positive value; a tie (or nothing positive) gives nobody."""
    best: K | None = None
    best_value = 0
    tied = False
    for key, value in values.items():
        if value > best_value:
            best, best_value, tied = key, value, False
        elif value == best_value and value > 0:
            tied = True
    return None if tied else best


def strict_majority(counts: Mapping[K, int]) -> K | None:
    """The key holding more than half of the total; otherwise nobody."""
    total = sum(counts.values())
    for key, value in counts.items():
        if 2 * value > total:
            return key
    return None


def count(keys: Iterable[K]) -> dict[K, int]:
    out: dict[K, int] = {}
    for key in keys:
        out[key] = out.get(key, 0) + 1
    return out


def squares_of_heights(heights: Iterable[int]) -> int:
    """Sum of height squared: a building of height h scores h*h."""
    return sum(h * h for h in heights)


def same_colour_groups(graph: nx.Graph, colour_of: Callable[[Hashable], Hashable | None]) -> list[set[Hashable]]:
    """Connected groups of nodes sharing a colour (nodes whose colour is None belong to none)."""
    groups: list[set[Hashable]] = []
    for colour in {colour_of(n) for n in graph.nodes} - {None}:
        sub = graph.subgraph([n for n in graph.nodes if colour_of(n) == colour])
        groups.extend(set(c) for c in nx.connected_components(sub))
    return groups
