"""The fields of a Manhattan position, declared once: the engine's attributes and the state's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from citybuild.core.scoresheet import ScoreItem
from citybuild.core.tower import Tower

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame

Counts = tuple[int, ...]


@attrs.define(slots=False, eq=False, repr=False)
class ManhattanPosition:
    """The fields of a Manhattan position: an engine's attributes, a state's fields.

    Cards are counts per lot index k (MAN-COMP-3), pieces counts per size 1-4, towers 54 stacks
    (city * 9 + lot). ``turn`` is the player to act (or, at a chance state, the player who is
    drawing). ``ledger`` is the itemised history of points; it is not part of a state's equality
    (a position written in notation carries earlier points as one item per player)."""

    game: ManhattanGame
    round: int
    phase: str
    turn: int
    towers: tuple[Tower, ...]
    hands: tuple[Counts, ...]
    draw: Counts
    discard: Counts
    supply: tuple[Counts, ...]
    chosen: tuple[Counts | None, ...]
    box: tuple[Counts, ...]
    points: tuple[int, ...]
    redraws: int = 0
    passes: int = 0
    ledger: tuple[ScoreItem, ...] = attrs.field(default=(), eq=False, repr=False)
