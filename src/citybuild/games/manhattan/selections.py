"""Selections (MAN-ROUND-1): the multisets of piece sizes a player may select for a round, how
many pieces a selection takes, and a uniform random selection drawn without listing them all.
The engine, the refusals and the decision steps read the counts from here."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from citybuild.core.multiset import bounded_compositions
from citybuild.games.manhattan.moves import Select
from citybuild.games.manhattan.rules import Rules

Counts = tuple[int, ...]
Multisets = tuple[tuple[int, ...], ...]


def pieces_to_take(per_round: int, *supplies: Counts) -> int:
    """MAN-ROUND-1: how many pieces a selection takes from these supplies together: ``per_round``
    from each, or every piece they hold if fewer. One colour's supply gives that colour's count;
    the two supplies of a player whose colours split freely give the count of both together."""
    return min(per_round * len(supplies), sum(map(sum, supplies)))


def splits_freely(rules: Rules, colours: Sequence[int]) -> bool:
    """MAN-ROUND-1: whether a player's colours select together, split any way between them
    (``two_colour_split="free"``, which only a two-colour player has), not each its own count."""
    return rules.two_colour_split == "free" and len(colours) == 2


@lru_cache(maxsize=4096)
def multisets(supply: Counts, count: int) -> Multisets:
    """Every sorted multiset of exactly ``count`` sizes that the supply can give, fewest 1s first,
    then fewest 2s, then fewest 3s (the reverse of ``bounded_compositions``' order: seeds depend on it)."""
    vectors = tuple(bounded_compositions(supply, count))
    return tuple((1,) * n1 + (2,) * n2 + (3,) * n3 + (4,) * n4 for n1, n2, n3, n4 in reversed(vectors))


@lru_cache(maxsize=4096)
def selectable_multisets(supply: Counts, per_round: int) -> Multisets:
    """Every sorted multiset of sizes one colour may select from its supply (MAN-ROUND-1)."""
    return multisets(supply, pieces_to_take(per_round, supply))


@lru_cache(maxsize=4096)
def free_splits(first: Counts, second: Counts, per_round: int) -> tuple[tuple[Multisets, Multisets], ...]:
    """MAN-ROUND-1 ``two_colour_split="free"``: the selections of a two-colour player as blocks,
    one per split, fewest pieces of the first colour first: (first colour's multisets, second
    colour's multisets). The player takes 2 x ``per_round`` pieces in all, or every piece left if
    fewer, and each colour gives at most what its supply holds."""
    left_first, left_second = sum(first), sum(second)
    wanted = pieces_to_take(per_round, first, second)
    return tuple(
        (multisets(first, n), multisets(second, wanted - n))
        for n in range(max(0, wanted - left_second), min(wanted, left_first) + 1)
    )


@lru_cache(maxsize=4096)
def all_selections(supplies: tuple[tuple[int, Counts], ...], per_round: int, free: bool) -> tuple[Select, ...]:
    """Every Select of a player whose colours have these supplies (MAN-ROUND-1), in canonical
    order; ``free``: the colours split freely (``splits_freely``). Cached: supplies recur."""
    if free:
        (a, supply_a), (b, supply_b) = supplies
        return tuple(
            Select.trusted(((a, x), (b, y)))
            for firsts, seconds in free_splits(supply_a, supply_b, per_round)
            for x in firsts
            for y in seconds
        )
    per_colour = [[(colour, sizes) for sizes in selectable_multisets(supply, per_round)] for colour, supply in supplies]
    if len(per_colour) == 1:
        return tuple(Select.trusted((pick,)) for pick in per_colour[0])
    return tuple(Select.trusted((a, b)) for a in per_colour[0] for b in per_colour[1])


@lru_cache(maxsize=4096)
def selection_set(supplies: tuple[tuple[int, Counts], ...], per_round: int, free: bool) -> frozenset[Select]:
    """``all_selections`` as a set: whether a selection is among them is then one hash, not a
    comparison with each (a round's first selections number in the dozens)."""
    return frozenset(all_selections(supplies, per_round, free))


def random_selection(
    rng: random.Random, supplies: tuple[tuple[int, Counts], ...], per_round: int, free: bool
) -> Select:
    """``all_selections(supplies, per_round, free)[int(rng.random() * count)]`` for free splits, read
    off the blocks of ``free_splits``; otherwise each colour's multiset drawn uniformly in turn
    (one ``rng.random()`` per colour). Neither lists every selection."""
    if not free:
        picks = []
        for colour, supply in supplies:
            options = selectable_multisets(supply, per_round)
            picks.append((colour, options[int(rng.random() * len(options))]))
        return Select.trusted(tuple(picks))
    (first, supply_first), (second, supply_second) = supplies
    blocks = free_splits(supply_first, supply_second, per_round)
    index = int(rng.random() * sum(len(a) * len(b) for a, b in blocks))
    for firsts, seconds in blocks:
        size = len(firsts) * len(seconds)
        if index < size:
            i, j = divmod(index, len(seconds))
            return Select.trusted(((first, firsts[i]), (second, seconds[j])))
        index -= size
    raise AssertionError("index past the last selection")  # pragma: no cover
