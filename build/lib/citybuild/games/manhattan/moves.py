"""Manhattan's moves and chance outcomes: small frozen values whose str is their notation."""

from __future__ import annotations

from typing import Any

import attrs

from citybuild.games.manhattan.rules import CITY_CODES, COLOUR_LETTERS


def _colour_text(colour: Any) -> str:
    if type(colour) is int and 0 <= colour < len(COLOUR_LETTERS):
        return COLOUR_LETTERS[colour]
    return f"colour{colour!r}:"


def _sizes_text(sizes: tuple[Any, ...]) -> str:
    return "".join(str(s) if type(s) is int else f"({s!r})" for s in sizes) or "-"


def _sort_key(value: Any) -> tuple[int, Any]:
    return (0, value) if type(value) is int else (1, repr(value))


def _canonical_picks(picks: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Colours ascending, sizes sorted: equal selections compare (and hash) equal. Values are
    kept as given (a float or a bool is refused by the rules check, not silently converted)."""
    pairs = ((c, tuple(sorted(s, key=_sort_key))) for c, s in picks)
    return tuple(sorted(pairs, key=lambda pair: _sort_key(pair[0])))


@attrs.frozen
class Select:
    """MAN-ROUND-1: the pieces chosen for this round, per colour: ``((colour, sizes), ...)``."""

    picks: tuple[tuple[int, tuple[int, ...]], ...] = attrs.field(converter=_canonical_picks)

    @classmethod
    def trusted(cls, picks: tuple[tuple[int, tuple[int, ...]], ...]) -> Select:
        """Build from picks already in canonical order (colours ascending, sizes sorted), skipping
        normalisation: legal-move generation makes thousands of these."""
        move = object.__new__(cls)
        object.__setattr__(move, "picks", picks)
        return move

    def sizes(self, colour: int) -> tuple[int, ...] | None:
        for c, sizes in self.picks:
            if c == colour:
                return sizes
        return None

    def __str__(self) -> str:
        return " ".join(["select", *(f"{_colour_text(c)}{_sizes_text(s)}" for c, s in self.picks)])


@attrs.frozen
class Build:
    """MAN-BUILD-2: play card ``card`` (lot index in the holder's frame), build ``colour``/``size`` in ``city``."""

    card: int
    city: int
    colour: int
    size: int

    def __str__(self) -> str:
        city = CITY_CODES[self.city] if 0 <= self.city < len(CITY_CODES) else f"city{self.city}"
        colour = _colour_text(self.colour)
        return f"build {self.card} {city} {colour}{self.size}"


@attrs.frozen
class Redraw:
    """MAN-BUILD-8: with no legal build, discard card ``card`` and draw one."""

    card: int

    def __str__(self) -> str:
        return f"redraw {self.card}"


@attrs.frozen
class Forfeit:
    """MAN-BUILD-8: after the redraws, send one unplaced selected piece to the box."""

    colour: int
    size: int

    def __str__(self) -> str:
        colour = _colour_text(self.colour)
        return f"forfeit {colour}{self.size}"


@attrs.frozen
class Pass:
    """MAN-BUILD-8 with ``no_legal_move="pass_keep_piece"``: pass, keeping the piece."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Draw:
    """Chance outcome (MAN-RAND-1): the card drawn is a ``card`` (lot index 0-8)."""

    card: int

    def __str__(self) -> str:
        return f"draw {self.card}"


Move = Select | Build | Redraw | Forfeit | Pass
MOVES: tuple[type, ...] = (Select, Build, Redraw, Forfeit, Pass)
OUTCOMES: tuple[type, ...] = (Draw,)
MOVE_TYPES: tuple[type, ...] = MOVES + OUTCOMES
