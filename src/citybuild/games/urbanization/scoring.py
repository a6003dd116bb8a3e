"""Urbanization's final scoring (URB-SCORE-1..5): SP, the "=" cards, unused New Hand tokens and
districts. Districts are the core's connected same-colour groups of at least 2 buildings on the
city's networkx graph; each is ranked with the core ``rank`` and its tie-break keys.

``district_items`` works on any city (cells and stacks), so a test can score a hand-written city.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

import attrs

from citybuild.core.board import Board
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.scoring import SHARED, rank, same_colour_groups
from citybuild.core.text import article
from citybuild.core.tower import height, owner
from citybuild.games.urbanization.data import ACTIONS, COLOURS, CardTable
from citybuild.games.urbanization.position import Building, Cell
from citybuild.games.urbanization.rules import NEW_HAND_SP, NUMBERS, tile_name

if TYPE_CHECKING:
    from citybuild.games.urbanization.state import UrbanizationState

TALLEST = "tallest building"
NUMBER = "highest number"


@attrs.frozen
class District:
    """A scored district: its colour, cells, each player's resources and the ranking."""

    colour: str
    cells: tuple[Cell, ...]
    resources: dict[int, int]
    order: tuple[int, ...]
    """Ranked players, best first (only those with resources there)."""
    splits: tuple[str | None, ...]
    """For each ranked player after the first, the key that put them below the one before."""

    @property
    def total(self) -> int:
        return sum(self.resources.values())

    def points(self, place: int) -> int:
        """URB-SCORE-4: what the ranked player at ``place`` (0 first) gains: 1st the district's
        total, 2nd their own resources, the others 0; a player alone gains both."""
        mine = self.resources[self.order[place]]
        if place == 0:
            return self.total + (mine if len(self.order) == 1 else 0)
        return mine if place == 1 else 0


def new_hand_points(tokens: int) -> int:
    """URB-SCORE-1: 2 SP per unused New Hand token."""
    return NEW_HAND_SP * tokens


def districts(cells: Sequence[Cell], stacks: Sequence[Building], board: Board | None = None) -> tuple[District, ...]:
    """URB-SCORE-2/3: every district (a maximal orthogonally connected group of at least 2
    buildings whose top tiles share a colour) with its ranking."""
    board = board if board is not None else Board(tuple(cells))
    out = []
    groups: tuple[tuple[int, ...], ...] = same_colour_groups(
        board.graph, lambda i: stacks[i][-1].tile // NUMBERS, min_size=2
    )
    for group in groups:
        resources: dict[int, int] = {}
        tallest: dict[int, int] = {}
        best: dict[int, tuple[int, int]] = {}
        for i in group:
            stack = stacks[i]
            who = owner(stack)
            if who is None:
                continue
            tall = height(stack)
            resources[who] = resources.get(who, 0) + tall  # URB-COMP-7: resources = height
            tallest[who] = max(tallest.get(who, 0), tall)
            best[who] = max(best.get(who, (0, 0)), (tall, stack[-1].tile % NUMBERS + 1))
        ranking = rank(
            resources,
            ((TALLEST, tallest), (NUMBER, {p: number for p, (_, number) in best.items()})),
        )
        order = tuple(p for tier in ranking.tiers for p in tier)
        splits = tuple(split for tier, split in zip(ranking.tiers[1:], ranking.splits, strict=True) for _ in tier)
        colour = COLOURS[stacks[group[0]][-1].tile // NUMBERS]
        out.append(District(colour, tuple(board.cells[i] for i in group), resources, order, splits))
    return tuple(out)


def district_items(cells: Sequence[Cell], stacks: Sequence[Building], board: Board | None = None) -> list[ScoreItem]:
    """URB-SCORE-4 (``District.points``), one item per ranked player and district."""
    items = []
    for district in districts(cells, stacks, board):
        where = f"{district.colour} district {' '.join(f'{x},{y}' for x, y in district.cells)}"
        total = district.total
        alone = len(district.order) == 1
        for place, player in enumerate(district.order):
            mine = district.resources[player]
            points = district.points(place)
            split = district.splits[place] if place < len(district.splits) else None
            how = f" (ahead of the next on the {split})" if split is not None else ""
            role = "alone" if alone else f"{place + 1}{('st', 'nd', 'rd')[place] if place < 3 else 'th'}"
            detail = f"{where}: {role} with {mine} of {total} resources{how}"
            items.append(ScoreItem(player, "district", points, detail, "URB-SCORE-4"))
    return items


class CardCount(NamedTuple):
    """One "=" card of a tableau as scored: its player, the card, the units it counts and the
    points a unit."""

    player: int
    card: int
    units: int
    points: int


def card_counts(state: UrbanizationState, cards: CardTable) -> Iterator[CardCount]:
    """URB-CARD-1/2: what each "=" card of each tableau counts. Bots call it at every leaf of
    their search, so it words nothing and reads each building's top, owner and height once."""
    rules = state.rules
    city: tuple[tuple[int, int | None, int], ...] | None = None
    for p in range(state.players):
        tableau = state.tableau[p]
        chars = state.chars[p] if rules.count_characters_in_card_bonus else ()
        for card in tableau:
            end = cards.end[card]
            if end is None:
                continue
            kind, param, low, high, points = end
            if kind in ("tops", "height") and city is None:
                city = tuple((s[-1].tile // NUMBERS, owner(s), height(s)) for s in state.stacks)
            if kind == "tops":
                assert city is not None
                anyone = rules.card10_13_unit == "any_building"
                count = sum(1 for top, who, _ in city if top == param and (anyone or who == p))
            elif kind == "height":
                assert city is not None
                count = sum(1 for _, who, floors in city if who == p and low <= floors and (not high or floors <= high))
            elif kind == "action":
                count = sum(1 for c in tableau if cards.bonus[c][0] == param) + sum(1 for k in chars if k % 3 == param)
            elif kind == "colour":
                count = sum(1 for c in tableau if c // NUMBERS == param) + sum(1 for k in chars if k // 3 == param)
            else:
                count = 1
            yield CardCount(p, card, count, points)


def _counted(state: UrbanizationState, cards: CardTable, card: int) -> str:
    """What an "=" card counts, in words."""
    end = cards.end[card]
    assert end is not None
    kind, param, low, high, _ = end
    if kind == "tops":
        mine = "" if state.rules.card10_13_unit == "any_building" else "owned "
        return f"{mine}buildings topped {COLOURS[param]}"
    if kind == "height":
        return f"owned buildings of height {low}{'-' + str(high) if high else '+'}"
    if kind == "action":
        return f"tableau cards with {article(ACTIONS[param])} bonus"
    if kind == "colour":
        return f"{COLOURS[param]} tableau cards"
    return "flat"


def card_items(state: UrbanizationState, cards: CardTable) -> list[ScoreItem]:
    """URB-CARD-1/2: the "=" cards of each tableau, itemised."""
    return [
        ScoreItem(
            c.player,
            "cards",
            c.units * c.points,
            f"{tile_name(c.card)}: {c.units} x {c.points} ({_counted(state, cards, c.card)})",
            "URB-CARD-1",
        )
        for c in card_counts(state, cards)
    ]


def score_sheet(state: UrbanizationState, final: bool) -> ScoreSheet:
    """URB-SCORE-1: SP + "=" cards + 2 per unused New Hand token + districts; winners (URB-SCORE-5)
    when ``final``."""
    n = state.players
    items = [ScoreItem(p, "SP", state.sp[p], "success points gained", "URB-SCORE-1") for p in range(n)]
    items += card_items(state, state.game.cards)
    items += [
        ScoreItem(
            p,
            "new hand",
            new_hand_points(state.newhand[p]),
            f"{state.newhand[p]} unused New Hand tokens",
            "URB-SCORE-1",
        )
        for p in range(n)
    ]
    if state.cells:
        items += district_items(state.cells, state.stacks, state.board)
    sheet = ScoreSheet(n, tuple(items))
    if not final:
        return sheet
    totals = sheet.totals
    leaders = tuple(p for p, t in enumerate(totals) if t == max(totals))
    return attrs.evolve(sheet, winners=leaders, tiebreak=SHARED if len(leaders) > 1 else None)
