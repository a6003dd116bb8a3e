"""What an Urbanization position is worth to each player, for bots that look ahead.

The score if the game ended now (URB-SCORE-1: SP, the "=" cards, 2 per unused New Hand token,
districts), plus what the position promises:

- items not yet spent: resources in supply and tiles behind the screen (and tiles owed, about to
  be drawn), which become buildings, district shares and card bonuses (``RESOURCE_VALUE``,
  ``TILE_VALUE``);
- resources already in the city but in no district yet (``IN_CITY``), which a neighbour of the
  same colour can turn into district points;
- the permanent bonuses of the tableau (``BONUS_CARD``), which pay on every later action;
- a committed selection not yet resolved (URB-ROUND-2..4), valued by what resolving it would
  bring: the items an Exploit gains (URB-EXPLOIT-1/2), the neighbours an Urbanize utilizes and the
  building it adds (URB-URBANIZE-2/4), the building a Construct takes over and the card it adds to
  the tableau, less its costs (URB-CONSTRUCT-1), with the tableau's bonuses for that action. A
  selected tile has left the supply, so without this a committed choice would look like a loss.

At the end, the final score.
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from citybuild.core.engine import Engine
from citybuild.core.tower import owner
from citybuild.games.urbanization.city import neighbours
from citybuild.games.urbanization.engine import UrbanizationEngine
from citybuild.games.urbanization.gains import CONSTRUCT, EXPLOIT, RESOURCE, URBANIZE, bonus_items, resources_gained
from citybuild.games.urbanization.moves import Select
from citybuild.games.urbanization.position import TILE_PHASES, Building, Cell
from citybuild.games.urbanization.rules import NUMBERS, TILES
from citybuild.games.urbanization.scoring import card_counts, districts, new_hand_points
from citybuild.games.urbanization.state import UrbanizationState, city_board

RESOURCE_VALUE = 0.3
"""A resource in supply, in SP (valued low, a greedy player hoards instead of building)."""
TILE_VALUE = 0.5
"""A tile behind the screen, in SP."""
IN_CITY = 0.3
"""A resource on a building that is in no district yet, in SP."""
BONUS_CARD = 2.0
"""A tableau card with a permanent bonus, in SP (it pays again on later actions)."""
ITEM = (RESOURCE_VALUE, TILE_VALUE, 1.0)
"""The value of one item gained, by kind (resource, tile, SP)."""


@lru_cache(maxsize=4096)
def city_points(cells: tuple[Cell, ...], stacks: tuple[Building, ...], players: int) -> tuple[tuple[int, ...], ...]:
    """Per player, the district points (URB-SCORE-2..4) and the resources on buildings in no
    district (cached: a search meets the same city again and again)."""
    points = [0] * players
    found = districts(cells, stacks, city_board(cells))
    for district in found:
        for place, player in enumerate(district.order):
            points[player] += district.points(place)
    scored = [0] * players
    loose = [0] * players
    in_district = {cell for district in found for cell in district.cells}
    for cell, stack in zip(cells, stacks, strict=True):
        who = owner(stack)
        if who is not None:
            (scored if cell in in_district else loose)[who] += len(stack)
    return tuple(points), tuple(loose)


def _bonus(engine: UrbanizationEngine, player: int, action: int) -> float:
    """The value of the items every bonus of ``action`` in the tableau gives once (URB-CHAR-1,
    URB-CARD-1)."""
    gains = bonus_items(engine.game.cards, engine.tableau[player], engine.chars[player], action)
    return sum(count * value for count, value in zip(gains, ITEM, strict=True))


def _gain(engine: UrbanizationEngine, player: int, item: int, count: int) -> float:
    if item == RESOURCE:
        count = resources_gained(engine.reserve[player], count)
    return count * ITEM[item]


def selection_value(engine: UrbanizationEngine, player: int, selection: Select) -> float:
    """What resolving ``player``'s committed selection would bring, less what it costs beyond the
    tile already taken from the supply (see the module docstring)."""
    card, tile = selection.card, selection.tile
    cells, stacks = engine.cells, engine.stacks
    if tile is not None and not engine.can_select(player, card, tile):
        tile = None  # URB-CONSTRUCT-3: the tile comes back and the card is an Exploit
        value = TILE_VALUE
    else:
        value = 0.0
    if tile is None:  # Exploit
        if card >= TILES:
            value += max(_gain(engine, player, RESOURCE, 1), TILE_VALUE)
        else:
            i = engine.building_of(card)
            if i >= 0:
                value += _gain(engine, player, card // NUMBERS, len(stacks[i]))
        return value + _bonus(engine, player, EXPLOIT)
    if card >= TILES:  # Urbanize: a new building with one resource, and its neighbours utilized
        cell = engine.tokens[card - TILES]
        assert cell is not None
        near = list(neighbours(cells, stacks, cell))
        for stack in near:
            value += _gain(engine, player, stack[-1].tile // NUMBERS, len(stack))
        joins = any(stack[-1].tile // NUMBERS == tile // NUMBERS for stack in near)
        value += (1.0 if joins else IN_CITY) + TILE_VALUE * 0.5 - RESOURCE_VALUE
        return value + _bonus(engine, player, URBANIZE)
    cost = engine.select_cost(player, card, tile)  # Construct
    assert cost is not None
    need, _, sp_penalty = cost
    height = len(stacks[engine.building_of(card)])
    value += (height + 1) * (1.0 - RESOURCE_VALUE) - sp_penalty - (need - height - 1) * RESOURCE_VALUE
    value += BONUS_CARD if engine.game.cards.bonus[card][0] >= 0 else 2.0  # the card joins the tableau
    return value + _bonus(engine, player, CONSTRUCT)


def evaluate(engine: Engine) -> tuple[float, ...]:
    """Per player: the score if the game ended now, plus what the position promises."""
    position = cast(UrbanizationEngine, engine)
    players = position.game.players
    state = cast(UrbanizationState, position)  # card_counts reads only fields an engine has too
    totals = [float(position.sp[p] + new_hand_points(position.newhand[p])) for p in range(players)]
    for counted in card_counts(state, position.game.cards):
        totals[counted.player] += counted.units * counted.points
    if position.cells:
        districts, loose = city_points(position.cells, position.stacks, players)
        for p in range(players):
            totals[p] += districts[p]
    else:
        loose = (0,) * players
    if position.phase == "over":
        return tuple(totals)
    if position.owed and position.phase in TILE_PHASES and position.open_stack():
        totals[position.turn] += min(position.owed, len(position.open_stack() or ())) * TILE_VALUE  # tiles owed
    bonus = position.game.cards.bonus
    for p in range(players):
        totals[p] += position.supply[p] * RESOURCE_VALUE + len(position.tiles[p]) * TILE_VALUE + loose[p] * IN_CITY
        totals[p] += BONUS_CARD * sum(1 for card in position.tableau[p] if bonus[card][0] >= 0)
        selection = position.selections[p]
        if selection is not None:
            totals[p] += selection_value(position, p, selection)
    return tuple(totals)
