"""Towers: stacks of pieces, owned by whoever's piece is on top.

A tower is a tuple of pieces, bottom to top; the empty tuple is an empty lot. A piece is anything
with an ``owner`` and a ``size`` (the floors it adds): Manhattan's are ``Piece`` values (owned by a
player colour, 1 to 4 floors); a game whose pieces carry more, such as Urbanization's building tiles (a
tile colour and number, one storey each, owned by the player who placed it, or by nobody), writes
its own small NamedTuple with those two attributes, and every function here reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol, TypeVar

Own = TypeVar("Own")
Own_co = TypeVar("Own_co", covariant=True)


class Stackable(Protocol[Own_co]):
    """What the tower functions read from a piece: who owns it and how many floors it adds."""

    @property
    def owner(self) -> Own_co: ...

    @property
    def size(self) -> int: ...


class Piece(NamedTuple):
    """A player's piece: its owner (a player colour, 0-based) and its number of floors."""

    owner: int
    size: int

    @property
    def colour(self) -> int:
        """The owner, by the name of games whose players are colours (Manhattan's A to D)."""
        return self.owner


Tower = tuple[Piece, ...]
"""A stack of player pieces, bottom to top; the empty tuple is an empty lot."""


def height(tower: Sequence[Stackable[object]]) -> int:
    """Total floors of the stack."""
    return sum(p.size for p in tower)


def owner(tower: Sequence[Stackable[Own]]) -> Own | None:
    """The owner of the top piece, or None for an empty lot."""
    return tower[-1].owner if tower else None


def floors_by_owner(tower: Sequence[Stackable[Own]]) -> dict[Own, int]:
    """Floors per owner, wherever they sit in the stack, owners in order of their lowest piece."""
    out: dict[Own, int] = {}
    for p in tower:
        out[p.owner] = out.get(p.owner, 0) + p.size
    return out
