"""Where the components are: every tile, card, resource and character is somewhere exactly once
(URB-COMP-1, URB-COMP-2, URB-COMP-4, URB-CHAR-1), and which cards are in play (URB-COMP-7). Each
count is stated here once: the invariants check a position against it, and the notation fills a
field that a text leaves out with it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from citybuild.games.urbanization.moves import Select
from citybuild.games.urbanization.position import Building
from citybuild.games.urbanization.rules import CARDS, START_TILES, TILES


def resources_in_city(stacks: Iterable[Building], player: int) -> int:
    """URB-COMP-7: ``player``'s resources on buildings, as many as each owned building is tall."""
    return sum(len(s) for s in stacks if s[-1].owner == player)


def reserve_left(resources: int, supply: int, boxed: int, in_city: int) -> int:
    """URB-COMP-4: a player's resources not in supply, the box or the city are in their reserve."""
    return resources - supply - boxed - in_city


def characters_in_box(copies: Sequence[int], held: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """URB-CHAR-1: the copies of each character type that no tableau or draft hand in ``held`` holds."""
    box = list(copies)
    for kinds in held:
        for kind in kinds:
            box[kind] -= 1
    return tuple(box)


def tiles_out_of_stacks(
    phase: str, stacks: Iterable[Building], tiles: Iterable[Sequence[int]], selections: Iterable[Select | None]
) -> Counter[int]:
    """URB-COMP-1, URB-SETUP-1: how often each tile stands outside the two stacks: in the city,
    behind the screens, selected, or (before the layout) set aside for the starting city."""
    where: Counter[int] = Counter()
    for stack in stacks:
        where.update(f.tile for f in stack)
    for held in tiles:
        where.update(held)
    where.update(s.tile for s in selections if s is not None and s.tile is not None)
    if phase == "layout":
        where.update(START_TILES)
    return where


def cards_in_play(phase: str, stacks: Sequence[Building], sites: Sequence[int]) -> set[int]:
    """URB-COMP-7, URB-SETUP-4: the cards in hands, selections and the piles: the 12 letters and the
    Building cards of the top tiles of buildings that are not Construction Sites (before the
    layout, the cards of the 9 starting tiles)."""
    if phase == "layout":
        building_cards = set(START_TILES)
    else:
        building_cards = {s[-1].tile for i, s in enumerate(stacks) if i not in sites}
    return building_cards | set(range(TILES, CARDS))


def draws_allowed(stack: Sequence[int], removed_tiles: int) -> int:
    """URB-SETUP-3: the draws the original stack allows, the removed tiles (2-3 players) never drawn."""
    return max(len(stack) - removed_tiles, 0)
