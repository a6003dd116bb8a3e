"""The Manhattan game object: rules + player count, the factory of states and parser of text."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from citybuild.core.game import Game
from citybuild.games.manhattan import notation
from citybuild.games.manhattan.moves import MOVE_TYPES
from citybuild.games.manhattan.rules import CARDS_PER_LOT, PIECES_PER_SIZE, Rules
from citybuild.games.manhattan.state import ManhattanState


@attrs.frozen
class ManhattanGame(Game):
    """Manhattan for ``players`` players under ``rules`` (see rules/manhattan.md)."""

    name: ClassVar[str] = "manhattan"
    move_types: ClassVar[tuple[type, ...]] = MOVE_TYPES
    rules: Rules

    @property
    def colours(self) -> int:
        return self.rules.colour_count(self.players)

    def initial_state(self) -> ManhattanState:
        """MAN-SETUP: empty board, full supplies, no cards dealt yet (the deal is chance draws)."""
        colours = self.colours
        return ManhattanState(
            game=self,
            round=1,
            phase="deal",
            turn=0,
            towers=((),) * 54,
            hands=((0,) * 9,) * self.players,
            draw=(CARDS_PER_LOT,) * 9,
            discard=(0,) * 9,
            supply=(PIECES_PER_SIZE,) * colours,
            chosen=(None,) * colours,
            box=((0, 0, 0, 0),) * colours,
            points=(0,) * self.players,
        )

    def parse_move(self, text: str) -> Any:
        return notation.parse_move(text, self.colours)

    def parse_state(self, text: str) -> ManhattanState:
        return notation.parse_state(self, text)
