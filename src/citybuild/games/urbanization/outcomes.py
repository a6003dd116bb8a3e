"""Urbanization's chance events (URB-RAND-1..5): the layout, the characters' deal, the first
player, and card and tile draws: each outcome with its exact probability, a draw with
``rng.random()`` only, and what an outcome does to the position."""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from citybuild.core.chance import shuffled
from citybuild.core.multiset import bounded_compositions
from citybuild.core.tuples import inserted, removed, replaced
from citybuild.games.urbanization.moves import Deal, DrawCard, DrawTile, FirstPlayer, Layout, draw_card, draw_tile
from citybuild.games.urbanization.position import CARD_PHASES, TILE_PHASES, Floor
from citybuild.games.urbanization.rounds import Rounds
from citybuild.games.urbanization.rules import HAND_SIZE, START_CELLS, START_TILES


def layouts() -> tuple[tuple[Layout, Fraction], ...]:
    """URB-RAND-1: every arrangement of the starting tiles, each 1/9!. The 362,880 outcomes are
    made with the cyclic garbage collector paused (it would otherwise rescan them many times)."""
    p = Fraction(1, math.factorial(len(START_TILES)))
    paused = gc.isenabled()
    gc.disable()
    try:
        return tuple((Layout(order), p) for order in permutations(START_TILES))
    finally:
        if paused:
            gc.enable()


def deal_probability(pool: Sequence[int], kinds: Sequence[int]) -> Fraction:
    """URB-RAND-4: prod_t C(c_t, k_t) / C(N, d) for the multiset ``kinds`` dealt from ``pool``."""
    counts = [0] * len(pool)
    for kind in kinds:
        counts[kind] += 1
    ways = 1
    for have, take in zip(pool, counts, strict=True):
        ways *= math.comb(have, take)
    return Fraction(ways, math.comb(sum(pool), len(kinds)))


DEAL_PHASES = frozenset(("layout", "characters", "first"))
"""The phases that are a chance event whatever is owed (URB-RAND-1, URB-RAND-4, URB-RAND-5)."""
DRAW_PHASES = CARD_PHASES | TILE_PHASES
"""The phases in which cards or tiles owed are drawn."""


class Outcomes(Rounds):
    """The pending chance event: its outcomes, a sample, and applying one."""

    @property
    def is_chance(self) -> bool:
        """Whether a chance event is pending: the setup's deals, or cards or tiles owed (URB-RAND-5)."""
        phase = self.phase
        if phase in DEAL_PHASES:
            return True
        return self.owed > 0 and not self.pending and phase in DRAW_PHASES

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        if not self.is_chance:
            return ()
        phase = self.phase
        if phase == "layout":
            return layouts()
        if phase == "first":
            n = self.game.players
            return tuple((FirstPlayer(s), Fraction(1, n)) for s in range(n))
        if phase == "characters":
            pool, dealt = self.pool, self.characters_dealt()
            out = []
            for counts in bounded_compositions(pool, dealt):
                kinds = tuple(k for k, c in enumerate(counts) for _ in range(c))
                out.append((Deal(kinds), deal_probability(pool, kinds)))
            return tuple(out)
        if phase in CARD_PHASES:
            p = Fraction(1, len(self.draw))
            return tuple((draw_card(c), p) for c in self.draw)
        stack = self.open_stack() or ()
        p = Fraction(1, len(stack))
        return tuple((draw_tile(t), p) for t in stack)

    def chance_outcomes_exist(self) -> bool:
        """Whether the pending chance event has an outcome (a hand-written position may lack one)."""
        phase = self.phase
        if phase == "characters":
            return sum(self.pool) >= self.characters_dealt()
        if phase in CARD_PHASES:
            return bool(self.draw)
        if phase in TILE_PHASES:
            return bool(self.open_stack())
        return True

    def is_outcome(self, outcome: Any) -> bool:
        kind = type(outcome)
        if kind is DrawCard:  # the common case first: a card of the pile, at a card draw
            card = outcome.card
            return self.phase in CARD_PHASES and self.is_chance and type(card) is int and card in self.draw
        if kind is DrawTile:  # and a tile of the open stack, at a tile draw
            tile = outcome.tile
            return (
                self.phase in TILE_PHASES and self.is_chance and type(tile) is int and tile in (self.open_stack() or ())
            )
        if not self.is_chance:
            return False
        phase = self.phase
        if phase == "layout":
            tiles = outcome.tiles if kind is Layout else None
            return (
                type(tiles) is tuple
                and len(tiles) == 9
                and all(type(t) is int for t in tiles)
                and tuple(sorted(tiles)) == START_TILES
            )
        if phase == "first":
            return kind is FirstPlayer and type(outcome.seat) is int and outcome.seat in range(self.game.players)
        if phase == "characters":
            kinds = outcome.kinds if kind is Deal else None
            if type(kinds) is not tuple or len(kinds) != self.characters_dealt() or list(kinds) != sorted(kinds):
                return False
            return all(type(k) is int and 0 <= k < 9 and kinds.count(k) <= self.pool[k] for k in kinds)
        if phase in CARD_PHASES:
            return kind is DrawCard and type(outcome.card) is int and outcome.card in self.draw
        return kind is DrawTile and type(outcome.tile) is int and outcome.tile in (self.open_stack() or ())

    def sample_outcome(self, rng: random.Random) -> Any:
        phase = self.phase
        if phase in CARD_PHASES:
            draw = self.draw
            return draw_card(draw[int(rng.random() * len(draw))])
        if phase in TILE_PHASES:
            stack = self.open_stack() or ()
            return draw_tile(stack[int(rng.random() * len(stack))])
        if phase == "layout":
            return Layout(tuple(shuffled(START_TILES, rng)))
        if phase == "first":
            return FirstPlayer(int(rng.random() * self.game.players))
        pool = list(self.pool)
        kinds = []
        for _ in range(self.characters_dealt()):
            pick = int(rng.random() * sum(pool))
            for kind, count in enumerate(pool):
                if pick < count:
                    pool[kind] -= 1
                    kinds.append(kind)
                    break
                pick -= count
        return Deal(tuple(sorted(kinds)))

    def apply_outcome(self, outcome: Any) -> None:
        kind = type(outcome)
        if kind is DrawCard:
            card = outcome.card
            self.draw = removed(self.draw, card)
            if self.phase == "discard":
                self.discard = inserted(self.discard, card)
            else:
                self.hands = replaced(self.hands, self.turn, inserted(self.hands[self.turn], card))
            self.owed -= 1
            self.settle()
        elif kind is DrawTile:
            self.draw_tile(outcome.tile)
        elif kind is Layout:
            self.cells = START_CELLS
            self.stacks = tuple((Floor(t),) for t in outcome.tiles)
            self.phase = "discard"
            self.owed = self.game.rules.initial_discard(self.game.players)
            self.settle()
        elif kind is Deal:
            self.deal_characters(outcome.kinds)
        elif kind is FirstPlayer:
            self.first = self.turn = outcome.seat
            self.phase = "deal"
            self.owed = HAND_SIZE
            self.settle()
        else:  # pragma: no cover - State.play checks outcomes first
            raise ValueError(f"{outcome!r} is not an Urbanization chance outcome")
