"""The fields of a Manhattan position, declared once: the engine's attributes and the state's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.position import COUNTS, by_rule, hidden, owned
from citybuild.core.scoresheet import ScoreItem
from citybuild.core.tower import Tower

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame

Counts = tuple[int, ...]
Piles = tuple[Counts, ...]
SECRET = "?"
"""What a view shows for a selection kept secret (``selection="simultaneous_hidden"``)."""


def selections_shown(position: Any) -> bool:
    """MAN-ROUND-1 under ``selection="simultaneous_hidden"``: the selections are shown to all once
    everyone has chosen (always, with open selection)."""
    return bool(position.phase != "select" or position.game.rules.selection != "simultaneous_hidden")


def shown_selections(position: Any, player: int) -> tuple[Piles, tuple[Counts | str | None, ...]]:
    """MAN-ROUND-1 under ``selection="simultaneous_hidden"``: until everyone has chosen, ``player``
    sees another colour's selection as ``SECRET`` and its pieces still in its supply."""
    supply, chosen = position.supply, position.chosen
    rules = position.game.rules
    if selections_shown(position):
        return supply, chosen
    mine = rules.colours_of(player, position.game.players)
    shown_supply, shown_chosen = list(supply), list(chosen)
    for colour, counts in enumerate(chosen):
        if colour not in mine and counts is not None:
            shown_supply[colour] = tuple(a + b for a, b in zip(supply[colour], counts, strict=True))
            shown_chosen[colour] = SECRET
    return tuple(shown_supply), tuple(shown_chosen)


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
    hands: tuple[Counts, ...] = attrs.field(metadata=owned(items=COUNTS, size="hand_sizes", pool="draw"))
    draw: Counts = attrs.field(metadata=hidden(items=COUNTS, size="draw_size"))
    """The draw pile shows only its size: its make-up would reveal the hidden hands."""
    discard: Counts
    supply: tuple[Counts, ...] = attrs.field(metadata=by_rule(lambda s, p: shown_selections(s, p)[:1], supply=Piles))
    chosen: tuple[Counts | None, ...] = attrs.field(
        metadata=by_rule(lambda s, p: shown_selections(s, p)[1:], chosen=tuple[Counts | str | None, ...])
    )
    box: tuple[Counts, ...]
    points: tuple[int, ...]
    redraws: int = 0
    passes: int = 0
    ledger: tuple[ScoreItem, ...] = attrs.field(default=(), eq=False, repr=False, metadata=hidden())
    """The itemised history of points, bookkeeping behind ``points`` (which views show)."""
