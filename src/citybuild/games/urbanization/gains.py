"""Items gained (URB-GAIN-1..4) and the bonuses that give them: the tableau's Building cards
(URB-CARD-1) and the characters (URB-CHAR-1), each firing on its action."""

from __future__ import annotations

from collections.abc import Iterable

from citybuild.core.tuples import bumped
from citybuild.games.urbanization.data import CardTable
from citybuild.games.urbanization.parts import EnginePart

EXPLOIT, URBANIZE, CONSTRUCT = 0, 1, 2
"""The actions, as numbered on cards and characters."""
RESOURCE, TILE, SP = 0, 1, 2
"""The items, as numbered by colour (URB-COMP-1: red, blue, yellow)."""


def bonus_items(cards: CardTable, tableau: Iterable[int], chars: Iterable[int], action: int) -> list[int]:
    """The items (resources, tiles, SP) that every bonus of ``action`` gives once: each tableau card
    whose bonus fires on it (URB-EXPLOIT-3, URB-URBANIZE-5, URB-CONSTRUCT-1.7), and each character
    of that action, one item of its colour (URB-CHAR-1)."""
    gains = [0, 0, 0]
    bonus = cards.bonus
    for card in tableau:
        fires, res, tiles, sp = bonus[card]
        if fires == action:
            gains[0] += res
            gains[1] += tiles
            gains[2] += sp
    for kind in chars:
        if kind % 3 == action:
            gains[kind // 3] += 1
    return gains


def resources_gained(reserve: int, count: int) -> int:
    """URB-GAIN-2: resources come from the reserve, so a gain is capped by what is left there."""
    return min(count, reserve)


class Gains(EnginePart):
    """Gaining items, and firing the bonuses of an action."""

    def gain(self, player: int, item: int, count: int) -> None:
        """URB-GAIN-1..3: resources from the reserve (capped), tiles owed (drawn next), SP."""
        if item == RESOURCE:
            take = resources_gained(self.reserve[player], count)
            if take:
                self.reserve = bumped(self.reserve, player, -take)
                self.supply = bumped(self.supply, player, take)
        elif item == TILE:
            self.owed += count
        elif count:
            self.sp = bumped(self.sp, player, count)

    def fire(self, player: int, action: int) -> None:
        """Every bonus of ``action`` in ``player``'s tableau and characters, once."""
        gains = bonus_items(self.game.cards, self.tableau[player], self.chars[player], action)
        for item in (RESOURCE, TILE, SP):
            if gains[item]:
                self.gain(player, item, gains[item])
