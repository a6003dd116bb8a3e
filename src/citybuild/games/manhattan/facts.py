"""What follows from a Manhattan position's fields and its game, written once for the engine and
the frozen state alike (both inherit it beside the fields of ``ManhattanPosition``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame
    from citybuild.games.manhattan.rules import Rules

Counts = tuple[int, ...]


class PositionFacts:
    """Derived facts, read off ``game``, ``round`` and ``chosen``; they change nothing."""

    __slots__ = ()

    game: ManhattanGame
    round: int
    chosen: tuple[Counts | None, ...]

    if TYPE_CHECKING:  # the core's rules and players, typed for this game
        rules: Rules
        players: int

    @property
    def per_round(self) -> int:
        """MAN-ROUND-1: how many pieces each colour selects per round (at most)."""
        return self.game.rules.pieces_per_round[self.game.players]

    @property
    def start_player(self) -> int:
        """MAN-ROUND-5: the round-r start player is seat (r - 1) mod n."""
        return (self.round - 1) % self.game.players

    def colours(self, player: int) -> tuple[int, ...]:
        """MAN-SETUP-1: the colours ``player`` plays."""
        return self.game.colour_table[player]

    def unplaced(self, player: int) -> int:
        """How many selected pieces ``player`` has not built yet this round (MAN-ROUND-2)."""
        chosen = self.chosen
        total = 0
        for colour in self.game.colour_table[player]:
            counts = chosen[colour]
            if counts:
                total += sum(counts)
        return total

    def target_lot(self, card: int, colour: int) -> int:
        """The lot (0-8) a card names for this colour's holder (MAN-CARD-1/2)."""
        return self.game.lot_table[colour][card]
