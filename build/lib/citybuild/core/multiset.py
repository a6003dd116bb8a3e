"""Multisets of interchangeable items, as count vectors.

Games that name pieces by kind rather than by position (dice by type and face, cubes by colour)
enumerate choices as multisets so that interchangeable pieces never give duplicate moves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def bounded_compositions(limits: Sequence[int], total: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every count vector ``c`` with ``0 <= c[i] <= limits[i]``, summing to ``total`` if given.

    Vectors come in lexicographic order of ``c`` read from the first position, largest first,
    so the output is deterministic. With ``total=None`` every vector is produced, the zero one
    included.
    """
    if not limits:
        if not total:
            yield ()
        return
    remaining = sum(limits[1:])
    first = limits[0]
    for c in range(first, -1, -1):
        if total is not None and not 0 <= total - c <= remaining:
            continue
        rest_total = None if total is None else total - c
        for rest in bounded_compositions(limits[1:], rest_total):
            yield (c, *rest)
