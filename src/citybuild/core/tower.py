"""Towers: stacks of pieces, owned by whoever's piece is on top."""

from typing import NamedTuple


class Piece(NamedTuple):
    """One building piece: its owner's colour (0-based) and its number of floors."""

    colour: int
    size: int


Tower = tuple[Piece, ...]
"""A stack of pieces, bottom to top; the empty tuple is an empty lot."""


def height(tower: Tower) -> int:
    """Total floors of the stack."""
    return sum(p.size for p in tower)


def owner(tower: Tower) -> int | None:
    """The colour of the top piece, or None for an empty lot."""
    return tower[-1].colour if tower else None


def floors(tower: Tower, colour: int) -> int:
    """Floors of one colour, wherever they sit in the stack."""
    return sum(p.size for p in tower if p.colour == colour)


def floors_by_colour(tower: Tower) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in tower:
        out[p.colour] = out.get(p.colour, 0) + p.size
    return out


def stack(tower: Tower, piece: Piece) -> Tower:
    """The tower with one more piece on top (a new tuple; the old one is unchanged)."""
    return (*tower, piece)
