"""Records: what a match writes down, to replay and verify a game.

A ``GameRecord`` holds the game, preset, rule overrides, players, seed, every move and chance
outcome as notation text with who made it, and the final result. It is plain data, apart from the
``Match`` that writes it (``citybuild.match``) and the JSON that stores it (``citybuild.serialize``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from citybuild.core.game import Game
from citybuild.core.registry import load


@attrs.frozen
class RecordEntry:
    """A step of a record: who (a seat, or None for chance) and the move's notation text."""

    player: int | None
    move: str


@attrs.frozen
class FinalScore:
    """The result a record states: totals per player, the winners and the tie-break step used."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: str | None = None


def _entries(moves: Any) -> Any:
    """``GameRecord.moves`` as a tuple of ``RecordEntry``; ``(player, text)`` pairs are accepted.
    Anything else is kept as it is, for ``replay`` to refuse with its index."""
    if isinstance(moves, str) or not isinstance(moves, Iterable):
        return moves
    return tuple(
        RecordEntry(*entry) if isinstance(entry, tuple | list) and len(entry) == 2 else entry for entry in moves
    )


@attrs.frozen
class GameRecord:
    """Everything needed to replay and verify a game; ``citybuild.to_json`` writes it as versioned JSON.

    ``options`` holds only the rule options that differ from the preset; ``result`` is None while
    the game is not over. ``moves`` may be given as ``(player, text)`` pairs; they become
    ``RecordEntry`` values.
    """

    game: str
    """The game's registered name."""
    preset: str
    players: int
    seed: int
    """The seed the match was played with."""
    moves: tuple[RecordEntry, ...] = attrs.field(default=(), converter=_entries)
    """Every player move and chance outcome in order, as notation with its seat (None for chance)."""
    options: dict[str, Any] = attrs.field(factory=dict)
    """The rule options that differ from the preset."""
    result: FinalScore | None = None
    """The final score, checked on replay; None while the game is not over."""

    def load(self) -> Game:
        """The game this record was played under."""
        return load(self.game, players=self.players, preset=self.preset, **self.options)


def rule_overrides(game: Game) -> dict[str, Any]:
    """The options of ``game.rules`` that differ from its preset (what ``cb.load`` needs as keywords),
    a data file's text in place of its path (``held_options``), so a record reads no other file."""
    base = game.spec.presets[game.preset].options()
    return {name: value for name, value in game.rules.held_options().items() if base.get(name) != value}
