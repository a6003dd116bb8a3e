"""The Manhattan game object: rules + player count, the factory of states and parser of text."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from citybuild.core.game import Game
from citybuild.games.manhattan import notation
from citybuild.games.manhattan.moves import MOVES, OUTCOMES
from citybuild.games.manhattan.rules import CARDS_PER_LOT, PIECES_PER_SIZE, ROT, Rules
from citybuild.games.manhattan.state import ManhattanState


@attrs.frozen
class ManhattanGame(Game):
    """Manhattan for ``players`` players under ``rules`` (see rules/manhattan.md)."""

    name: ClassVar[str] = "manhattan"
    moves: ClassVar[tuple[type, ...]] = MOVES
    outcomes: ClassVar[tuple[type, ...]] = OUTCOMES
    rules: Rules
    colour_table: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """Per player, their colours (MAN-SETUP-1): computed once, read on every move."""
    lot_table: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """Per colour, the board lot each card index names for that colour's side (MAN-CARD-1/2)."""

    def __attrs_post_init__(self) -> None:
        rules, n = self.rules, self.players
        colours = tuple(rules.colours_of(p, n) for p in range(n))
        lots = tuple(
            tuple(range(9)) if rules.card_orientation == "fixed" else ROT[rules.side_of_colour(c, n)]
            for c in range(rules.colour_count(n))
        )
        object.__setattr__(self, "colour_table", colours)
        object.__setattr__(self, "lot_table", lots)

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
