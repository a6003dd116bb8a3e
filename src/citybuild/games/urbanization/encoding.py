"""Urbanization views as numbers (observation tensors), read from the view alone.

The city, on the 15 x 15 cells from (-7, -7) to (7, 7) around the starting square (cells beyond
are left out; random games stay well inside), row by row: per cell 13 numbers: a building, its
height, its top tile's colour (3, one-hot) and number, its owner (5, one-hot), a Construction Site,
an Urbanization token. Then the viewer (5, one-hot), the round, the phase (13, one-hot), the seat
whose turn it is, the actor, the first player (5 each, one-hot), the seats to act (5), the pending
choice (3, one-hot: none, take, token), the draws owed; per seat (5): reserve, supply, boxed
resources, New Hand tokens, New Hands used this round, hand size, has chosen, tiles given, and its
tableau (72 counts by card); the viewer's SP, tiles (60, multi-hot), hand (72, multi-hot) and
selection (card 72 and tile 60, one-hot); per seat its characters (9 counts, where shown); the
viewer's draft hand (9 counts) and the cards it passed (72); the discard pile (72); the sizes of
the draw pile and the second stack, the draws left, the exhaustion, and the two end flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.encoding import Encoder
from citybuild.games.urbanization.position import PENDING, PHASES
from citybuild.games.urbanization.rules import CARDS, NUMBERS, TILES

REACH = 7
SIDE = 2 * REACH + 1
CELL = 13
SEATS = 5
SEAT = 8 + CARDS
CITY = SIDE * SIDE * CELL
HEAD = SEATS + 1 + len(PHASES) + 4 * SEATS + len(PENDING) + 1
MINE = 1 + TILES + CARDS + CARDS + TILES
SIZE = CITY + HEAD + SEATS * SEAT + MINE + SEATS * 9 + 9 + CARDS + CARDS + 6


class UrbanizationEncoder(Encoder):
    """An Urbanization view as ``SIZE`` numbers."""

    @property
    def size(self) -> int:
        return SIZE

    def encode(self, view: Any) -> Sequence[float]:
        out = [0.0] * SIZE
        _city(out, view)
        _head(out, CITY, view)
        _seats(out, CITY + HEAD, view)
        _own(out, CITY + HEAD + SEATS * SEAT, view)
        _piles(out, CITY + HEAD + SEATS * SEAT + MINE, view)
        return out


def _city(out: list[float], view: Any) -> None:
    """Per cell of the grid around the start: a building's height, top tile and owner, whether
    it is a site, and a token on it."""
    for i, (cell, stack) in enumerate(zip(view.cells, view.stacks, strict=True)):
        x, y = cell[0] + REACH, cell[1] + REACH
        if not (0 <= x < SIDE and 0 <= y < SIDE):
            continue
        at = (y * SIDE + x) * CELL
        top = stack[-1]
        out[at] = 1.0
        out[at + 1] = len(stack)
        out[at + 2 + top.tile // NUMBERS] = 1.0
        out[at + 5] = top.tile % NUMBERS + 1
        if top.owner is not None:
            out[at + 6 + top.owner] = 1.0
        out[at + 11] = float(i in view.sites)
    for cell in view.tokens:
        if cell is not None and -REACH <= cell[0] <= REACH and -REACH <= cell[1] <= REACH:
            out[((cell[1] + REACH) * SIDE + cell[0] + REACH) * CELL + 12] = 1.0


def _head(out: list[float], at: int, view: Any) -> None:
    """Whose view it is, the round, the phase, the seats to act and the pending decision."""
    out[at + view.player] = 1.0
    out[at + SEATS] = view.round
    at += SEATS + 1
    out[at + PHASES.index(view.phase)] = 1.0
    at += len(PHASES)
    for offset, seat in enumerate((view.turn, view.actor, view.first)):
        if 0 <= seat < SEATS:
            out[at + offset * SEATS + seat] = 1.0
    for p in view.to_act:
        out[at + 3 * SEATS + p] = 1.0
    at += 4 * SEATS
    out[at + PENDING.index(view.pending)] = 1.0
    out[at + len(PENDING)] = view.owed


def _seats(out: list[float], at: int, view: Any) -> None:
    """What everyone sees of each player: counts of items and cards, and the tableau."""
    for p in range(view.players):
        base = at + p * SEAT
        out[base : base + 8] = (
            view.reserve[p],
            view.supply[p],
            view.boxed[p],
            view.newhand[p],
            view.used[p],
            view.hand_sizes[p],
            float(view.chosen[p]),
            view.given[p],
        )
        for card in view.tableau[p]:
            out[base + 8 + card] += 1.0


def _own(out: list[float], at: int, view: Any) -> None:
    """What only the viewer sees: their SP, tiles, hand and selection."""
    me = view.player
    out[at] = view.sp[me] or 0
    for tile in view.tiles[me] or ():
        out[at + 1 + tile] = 1.0
    for card in view.hands[me] or ():
        out[at + 1 + TILES + card] = 1.0
    if view.selection is not None:
        out[at + 1 + TILES + CARDS + view.selection.card] = 1.0
        if view.selection.tile is not None:
            out[at + 1 + TILES + 2 * CARDS + view.selection.tile] = 1.0


def _piles(out: list[float], at: int, view: Any) -> None:
    """Characters, the draft, the cards passed and discarded, and the sizes of the hidden piles."""
    for p, kinds in enumerate(view.chars):
        for kind in kinds or ():
            out[at + 9 * p + kind] += 1.0
    at += SEATS * 9
    for kind in view.draft:
        out[at + kind] += 1.0
    at += 9
    for card in view.passed:
        out[at + card] += 1.0
    at += CARDS
    for card in view.discard:
        out[at + card] += 1.0
    at += CARDS
    out[at : at + 6] = (
        view.draw_size,
        view.second_size,
        view.draws_left,
        view.exhaustion,
        float(view.contribute_due),
        float(view.ending),
    )
