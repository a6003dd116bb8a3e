"""Scoring hooks shared by the games: who has the most, rankings with tie-break keys, connected
same-colour groups, squares of heights."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs
import networkx as nx

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

K = TypeVar("K", bound=Hashable)
R = TypeVar("R", bound="SupportsRichComparison")

SHARED = "shared"
"""``Ranking.tiebreak`` when the leaders are still tied after every key."""


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


def count(keys: Iterable[K]) -> dict[K, int]:
    """How many times each key occurs, in order of first occurrence."""
    out: dict[K, int] = {}
    for key in keys:
        out[key] = out.get(key, 0) + 1
    return out


@attrs.frozen
class Ranking(Generic[R]):
    """Who has the most, best first: tiers of contenders equal on the score and on every tie-break
    key (each tier sorted), and the key that put each tier below the one before it."""

    tiers: tuple[tuple[R, ...], ...]
    splits: tuple[str | None, ...]
    """For each tier after the first, the name of the key that separated it from the tier above;
    None when the score itself did."""
    decided: tuple[tuple[R, int], ...] = ()
    """When a tie-break key decided first place: each contender tied on the score with the
    leaders, and their value of that key (the counts that decided), best first."""

    @property
    def leaders(self) -> tuple[R, ...]:
        """The first tier: the winner, or everyone still tied for first; () when nobody was ranked."""
        return self.tiers[0] if self.tiers else ()

    @property
    def tiebreak(self) -> str | None:
        """What decided first place: None when the score alone did (or nobody else was ranked),
        the name of the deciding key, or ``SHARED`` when the leaders are still tied."""
        if len(self.leaders) > 1:
            return SHARED
        return self.splits[0] if self.splits else None


def rank(scores: Mapping[R, int], tiebreaks: Sequence[tuple[str, Mapping[R, int]]] = ()) -> Ranking[R]:
    """Rank the contenders of ``scores``, highest score first; equal scores are ordered by each
    named tie-break key in turn (highest first), and contenders equal on all of them share a tier.

    Every contender of ``scores`` is ranked (leave out those who may not be); each tie-break
    mapping must give a value for each of them. The result does not depend on the order of the
    mappings' items.
    """
    names = [name for name, _ in tiebreaks]
    keys = {c: (value, *(key[c] for _, key in tiebreaks)) for c, value in scores.items()}
    ordered = sorted(sorted(keys), key=keys.__getitem__, reverse=True)  # stable: ties stay sorted
    tiers: list[tuple[R, ...]] = []
    splits: list[str | None] = []
    for contender in ordered:
        if tiers and keys[tiers[-1][0]] == keys[contender]:
            tiers[-1] = (*tiers[-1], contender)
            continue
        if tiers:
            above, here = keys[tiers[-1][0]], keys[contender]
            step = next(i for i in range(len(here)) if above[i] != here[i])
            splits.append(None if step == 0 else names[step - 1])
        tiers.append((contender,))
    decided: tuple[tuple[R, int], ...] = ()
    if splits and splits[0] is not None:
        step = names.index(splits[0]) + 1
        decided = tuple((c, keys[c][step]) for c in ordered if keys[c][0] == keys[ordered[0]][0])
    return Ranking(tuple(tiers), tuple(splits), decided)


def squares_of_heights(heights: Iterable[int]) -> int:
    """Sum of height squared: a building of height h scores h*h."""
    return sum(h * h for h in heights)


def same_colour_groups(
    graph: nx.Graph, colour_of: Callable[[R], Hashable | None], min_size: int = 1
) -> tuple[tuple[R, ...], ...]:
    """The connected groups of nodes sharing a colour, with at least ``min_size`` nodes (a district
    of Urbanization has 2 or more buildings); nodes whose colour is None belong to none. Each group
    is sorted, groups in order of their smallest node."""
    colours = {node: colour_of(node) for node in graph.nodes}
    same = nx.subgraph_view(
        graph,
        filter_node=lambda n: colours[n] is not None,
        filter_edge=lambda u, v: colours[u] == colours[v],
    )
    groups = (tuple(sorted(group)) for group in nx.connected_components(same))
    return tuple(sorted(group for group in groups if len(group) >= min_size))
