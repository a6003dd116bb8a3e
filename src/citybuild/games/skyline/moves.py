"""Skyline's moves and chance outcomes: small frozen values whose str is their notation.

A die is named by ``(type, face)``, e.g. ``("GF", "O")``, never by its position (SKY-TURN-8), so
interchangeable dice give one move. Multisets of dice or types are kept in canonical order
(types GF, UF, PH; faces P, B, O, X), which makes equal multisets equal values.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import attrs

from citybuild.games.skyline.rules import FACES, TYPES

Die = tuple[str, str]
T = TypeVar("T", "Reroll", "Roll")

_TYPE_RANK = {t: i for i, t in enumerate(TYPES)}
_DIE_KEY = {(t, f): (i * len(FACES) + j, "") for i, t in enumerate(TYPES) for j, f in enumerate(FACES)}


SLOT_DICE: tuple[Die, ...] = tuple(itertools.product(TYPES, FACES))
"""Every die (type, face) in canonical order; a die's index here is its slot."""
SLOT = {die: slot for slot, die in enumerate(SLOT_DICE)}
TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
SLOT_TYPE = tuple(TYPE_INDEX[kind] for kind, _ in SLOT_DICE)
"""Per slot, the index of its die type in ``TYPES``."""


def sorted_dice(dice: Sequence[Die]) -> tuple[Die, ...]:
    """Valid dice in canonical order."""
    return tuple(sorted(dice, key=SLOT.__getitem__))


def die_rank(die: Any) -> tuple[int, str]:
    """Sort key of a die: type, then face; unknown names sort last (so bad input can still be shown)."""
    return _DIE_KEY.get(die) or (99, repr(die))


_DIE_TEXT = {die: die[0] + die[1] for die in _DIE_KEY}


def die_text(die: Any) -> str:
    """``GFO`` for a ground floor showing orange; anything malformed is shown as its repr."""
    text = _DIE_TEXT.get(die) if isinstance(die, tuple) else None
    if text is not None:
        return text
    if isinstance(die, tuple) and len(die) == 2 and all(isinstance(p, str) for p in die):
        return f"{die[0]}{die[1]}"
    return repr(die)


def dice_text(dice: Iterable[Any]) -> str:
    return ",".join(die_text(d) for d in dice) or "-"


def _die(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _dice(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(sorted((_die(d) for d in value), key=die_rank))


def _types(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(value, key=lambda t: (_TYPE_RANK.get(t, 9), t)))


@attrs.frozen
class TakeYard:
    """SKY-TURN-2: take ``yard_take`` dice from the yard, named as a multiset of die types."""

    types: tuple[str, ...] = attrs.field(converter=_types)

    def __str__(self) -> str:
        return "take yard " + (",".join(self.types) or "-")


@attrs.frozen
class TakeDistrict:
    """SKY-TURN-2: take every die in the abandoned district (which is then refilled)."""

    def __str__(self) -> str:
        return "take district"


@attrs.frozen
class Build:
    """SKY-BUILD-1/2: build ``die``; ``target`` is None for a new building (ground floors) or the
    id of one of the player's own unfinished buildings."""

    die: Die = attrs.field(converter=_die)
    target: int | None = None

    def __str__(self) -> str:
        return f"build {die_text(self.die)} {'new' if self.target is None else self.target}"


@attrs.frozen
class Abandon:
    """SKY-ABANDON-1: move one active die to the district."""

    die: Die = attrs.field(converter=_die)

    def __str__(self) -> str:
        return f"abandon {die_text(self.die)}"


@attrs.frozen
class Demolish:
    """SKY-DEMOLISH-1: spend one active die to remove one of the player's own buildings."""

    die: Die = attrs.field(converter=_die)
    building: int

    def __str__(self) -> str:
        return f"demolish {die_text(self.die)} {self.building}"


@attrs.frozen
class Reroll:
    """SKY-TURN-5: roll again a non-empty multiset of the active dice."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice)

    def __str__(self) -> str:
        return f"reroll {dice_text(self.dice)}"

    def __repr__(self) -> str:  # hand-written: there may be many thousands of these
        return f"Reroll(dice={self.dice!r})"


@attrs.frozen
class EndTurn:
    """SKY-TURN-6: return the remaining active dice to the yard and end the turn."""

    def __str__(self) -> str:
        return "end"


@attrs.frozen
class Roll:
    """Chance outcome (SKY-RAND-2): the faces shown by the dice just rolled, as a multiset."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice)

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"

    def __repr__(self) -> str:  # hand-written: there may be many thousands of these
        return f"Roll(dice={self.dice!r})"


def canonical(cls: type[T], dice: tuple[Die, ...]) -> T:
    """A ``Reroll`` or ``Roll`` from dice already in canonical order, skipping the converter
    (the engine builds many of these; it must only pass sorted, valid dice)."""
    value = object.__new__(cls)
    object.__setattr__(value, "dice", dice)
    return value


Move = TakeYard | TakeDistrict | Build | Abandon | Demolish | Reroll | EndTurn
MOVES: tuple[type, ...] = (TakeYard, TakeDistrict, Build, Abandon, Demolish, Reroll, EndTurn)
OUTCOMES: tuple[type, ...] = (Roll,)
MOVE_TYPES: tuple[type, ...] = MOVES + OUTCOMES
