"""Construct (URB-CONSTRUCT-1..3): a tile placed on the building a Building card designates, its
cost, and the eight steps that take the building over."""

from __future__ import annotations

from collections.abc import Sequence

from citybuild.core.tuples import bumped, inserted, replaced
from citybuild.games.urbanization.city import City
from citybuild.games.urbanization.gains import CONSTRUCT, Gains
from citybuild.games.urbanization.position import Building, Floor
from citybuild.games.urbanization.rules import NUMBERS, TILES


def construction_costs(height: int, card: int, tiles: Sequence[int]) -> list[tuple[int, int]]:
    """URB-CONSTRUCT-2: for each of ``tiles``, the (resources, SP) that building it on the
    ``height``-tall building of ``card`` costs: one resource per floor of the new building, one
    more for a tile of another colour, and the number difference in SP when the tile's number is
    lower. (All tiles at once: legal-move generation asks for every tile of a supply.)"""
    colour, number = card // NUMBERS, card % NUMBERS
    floors = height + 1
    return [(floors + (t // NUMBERS != colour), number - t % NUMBERS if t % NUMBERS < number else 0) for t in tiles]


def construction_cost(height: int, card: int, tile: int) -> tuple[int, int]:
    """URB-CONSTRUCT-2: the (resources, SP) that one tile costs (``construction_costs``)."""
    return construction_costs(height, card, (tile,))[0]


def resources_for(stack: Building, player: int, supply: int) -> int:
    """URB-CONSTRUCT-2: the resources ``player`` can pay with: the supply, plus their own resources
    on the building (refunded first, URB-CONSTRUCT-1 step 1)."""
    return supply + (len(stack) if stack[-1].owner == player else 0)


class Construction(Gains, City):
    """What a Construct may cost, and the Construct itself."""

    def select_cost(self, player: int, card: int, tile: int) -> tuple[int, int, int] | None:
        """URB-CONSTRUCT-2: for Building card ``card`` and ``tile``, the (resources needed, resources
        available, SP needed), or None if the card designates no building."""
        i = self.building_of(card)
        if i < 0:
            return None
        stack = self.stacks[i]
        need, sp = construction_cost(len(stack), card, tile)
        return need, resources_for(stack, player, self.supply[player]), sp

    def can_select(self, player: int, card: int, tile: int | None) -> bool:
        """URB-ROUND-2, URB-URBANIZE-1, URB-CONSTRUCT-2: the selection is legal (its card and tile
        already taken from the hand and the supply, or not)."""
        if tile is None:
            return True
        if card >= TILES:
            return self.tokens[card - TILES] is not None and self.supply[player] >= 1
        cost = self.select_cost(player, card, tile)
        return cost is not None and cost[1] >= cost[0] and self.sp[player] >= cost[2]

    def construct(self, p: int, card: int, tile: int) -> None:
        """URB-CONSTRUCT-1 steps 1-8."""
        i = self.building_of(card)
        stack = self.stacks[i]
        height = len(stack)
        owner = stack[-1].owner
        if owner is not None:  # 1. refund
            self.supply = bumped(self.supply, owner, height)
            if owner != p:
                self.sp = bumped(self.sp, owner, height)
        self.stacks = replaced(self.stacks, i, (*stack[:-1], Floor(card), Floor(tile, p)))  # 2.
        need, sp = construction_cost(height, card, tile)
        if sp:  # 3.
            self.sp = bumped(self.sp, p, -sp)
        self.supply = bumped(self.supply, p, -need)  # 4. and 5.
        if need > height + 1:  # 4. the colour's resource
            if self.game.rules.colour_penalty_to == "reserve":
                self.reserve = bumped(self.reserve, p, 1)
            else:
                self.boxed = bumped(self.boxed, p, 1)
        if i not in self.sites:  # 6.
            self.sites = inserted(self.sites, i)
        if self.game.rules.new_card_bonus_same_action:
            self.tableau = replaced(self.tableau, p, inserted(self.tableau[p], card))
            self.fire(p, CONSTRUCT)
        else:
            self.fire(p, CONSTRUCT)  # 7.
            self.tableau = replaced(self.tableau, p, inserted(self.tableau[p], card))  # 8.
        self.continue_action()
