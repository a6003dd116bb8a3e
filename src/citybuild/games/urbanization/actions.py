"""Urbanization's moves as short sequences of decisions, over 163 fixed action ids (stable across
versions: ``tests/test_numbering.py`` pins them).

========  ===========================  ==============================================
ids       meaning                      used by
========  ===========================  ==============================================
0-71      card c (R1..Y20, then A-L)   a selection's first decision
72-131    tile t (R1..Y20)             a selection's tile; ``Give(t)`` alone
132       no tile                      a selection of a card alone (an Exploit)
133-141   character k (RE..YC)         ``Pick(k)``
142       new hand                     ``NewHand()``
143       keep the hand                ``Keep()``
144       take a resource              ``Take("resource")``
145       take a tile                  ``Take("tile")``
146-160   destination slot 0-14        ``Token(x, y)``: the cell at that position of the
                                       destinations (URB-URBANIZE-3, in the engine's order)
161       more destinations            the next 15 positions
162       done                         ``Done()``
========  ===========================  ==============================================

A selection is card then tile (or no tile): 2 decisions; everything else is one (a token far
down a long list of destinations takes a ``more`` per 15). Simultaneous secret choices are made
one player after another by the adapters, each from its own view.

Chance steps (146 ids): card c (0-71) for a card drawn, tile t (72-131) for a tile drawn,
character k (132-140), seat s (141-145) for the first player. The starting layout is drawn tile by
tile, cell by cell (9 steps, each remaining starting tile equally likely); the characters dealt to
a player one by one from the box (each type with probability its count / the box's size); the
dealt characters, as a multiset, make the ``Deal``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from citybuild.core.actions import Decisions, Steps
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.games.urbanization import moves
from citybuild.games.urbanization.engine import UrbanizationEngine
from citybuild.games.urbanization.position import CARD_PHASES, TILE_PHASES
from citybuild.games.urbanization.rules import CARDS, START_TILES, TILES, card_name, character_name, tile_name

CARD, TILE, NO_TILE, CHARACTER, NEWHAND, KEEP_HAND, TAKE_RES, TAKE_TIL, DESTINATION, MORE, FINISHED = (
    0,
    72,
    132,
    133,
    142,
    143,
    144,
    145,
    146,
    161,
    162,
)
PAGE = MORE - DESTINATION
CHANCE_CARD, CHANCE_TILE, CHANCE_CHARACTER, CHANCE_SEAT = 0, 72, 132, 141
MAX_SEATS = 5

NAMES: tuple[str, ...] = (
    *(f"card {card_name(c)}" for c in range(CARDS)),
    *(f"tile {tile_name(t)}" for t in range(TILES)),
    "no tile",
    *(f"character {character_name(k)}" for k in range(9)),
    "new hand",
    "keep the hand",
    "take a resource",
    "take a tile",
    *(f"destination slot {i}" for i in range(PAGE)),
    "more destinations",
    "done",
)
CHANCE_NAMES: tuple[str, ...] = (
    *(f"draw card {card_name(c)}" for c in range(CARDS)),
    *(f"draw tile {tile_name(t)}" for t in range(TILES)),
    *(f"deal character {character_name(k)}" for k in range(9)),
    *(f"first player {s}" for s in range(MAX_SEATS)),
)


class UrbanizationDecisions(Decisions):
    """Cards then tiles; one decision for the rest; chance drawn item by item."""

    names = NAMES
    chance_names = CHANCE_NAMES
    max_steps = 2

    @staticmethod
    def _engine(engine: Engine) -> UrbanizationEngine:
        assert isinstance(engine, UrbanizationEngine)
        return engine

    def longest_game(self) -> int:
        """Every card and tile of the game drawn and played a few times over: a generous bound."""
        return 20_000 * self.game.players

    # --- the numbering ---------------------------------------------------------------------
    def steps(self, engine: Engine, player: int, move: Any) -> Steps:
        kind = type(move)
        if kind is moves.Select:
            return (CARD + move.card, NO_TILE if move.tile is None else TILE + move.tile)
        if kind is moves.Give:
            return (TILE + move.tile,)
        if kind is moves.Pick:
            return (CHARACTER + move.kind,)
        if kind is moves.NewHand:
            return (NEWHAND,)
        if kind is moves.Keep:
            return (KEEP_HAND,)
        if kind is moves.Take:
            return (TAKE_RES if move.item == "resource" else TAKE_TIL,)
        if kind is moves.Done:
            return (FINISHED,)
        if kind is moves.Token:
            position = self._engine(engine).destinations().index((move.x, move.y))
            return (MORE,) * (position // PAGE) + (DESTINATION + position % PAGE,)
        raise RulesError(f"{move!r} is not an Urbanization move")

    def options(self, engine: Engine, player: int, chosen: Steps) -> Steps:
        e = self._engine(engine)
        if e.phase == "choose" and chosen:
            if len(chosen) > 1:
                return ()
            card = chosen[0] - CARD
            out = [NO_TILE]
            out.extend(TILE + t for t in sorted(set(e.tiles[player])) if e.can_select(player, card, t))
            return tuple(sorted(out))
        if e.phase == "resolve" and e.pending == "token":
            if chosen and chosen[-1] != MORE:
                return ()
            page = len(chosen)
            count = len(e.destinations())
            low, high = page * PAGE, min(count, (page + 1) * PAGE)
            return (*(DESTINATION + i - low for i in range(low, high)), *((MORE,) if count > high else ()))
        if chosen:
            return ()
        return tuple(sorted({self.steps(e, player, move)[0] for move in e.legal_moves(player)}))

    def move(self, engine: Engine, player: int, chosen: Steps) -> Any:
        e = self._engine(engine)
        first = chosen[0]
        if first < TILE:
            second = chosen[1]
            return moves.Select(first - CARD, None if second == NO_TILE else second - TILE)
        if first < NO_TILE:
            return moves.Give(first - TILE)
        if first < NEWHAND:
            return moves.Pick(first - CHARACTER)
        if first >= DESTINATION and first <= MORE:
            x, y = e.destinations()[len(chosen[:-1]) * PAGE + chosen[-1] - DESTINATION]
            return moves.Token(x, y)
        return {
            NEWHAND: moves.NEW_HAND,
            KEEP_HAND: moves.KEEP,
            TAKE_RES: moves.TAKE_RESOURCE,
            TAKE_TIL: moves.TAKE_TILE,
            FINISHED: moves.DONE,
        }[first]

    # --- chance ----------------------------------------------------------------------------
    def outcome_steps(self, engine: Engine, outcome: Any) -> Steps:
        kind = type(outcome)
        if kind is moves.DrawCard:
            return (CHANCE_CARD + outcome.card,)
        if kind is moves.DrawTile:
            return (CHANCE_TILE + outcome.tile,)
        if kind is moves.Layout:
            return tuple(CHANCE_TILE + t for t in outcome.tiles)
        if kind is moves.Deal:
            return tuple(CHANCE_CHARACTER + k for k in outcome.kinds)
        return (CHANCE_SEAT + outcome.seat,)

    def chance_options(self, engine: Engine, chosen: Steps) -> tuple[tuple[int, Fraction], ...]:
        e = self._engine(engine)
        if not e.is_chance:
            return ()
        phase = e.phase
        if phase == "layout":
            if len(chosen) == len(START_TILES):
                return ()
            left = sorted(set(START_TILES) - {a - CHANCE_TILE for a in chosen})
            return tuple((CHANCE_TILE + t, Fraction(1, len(left))) for t in left)
        if chosen and phase != "characters":
            return ()
        if phase == "first":
            return tuple((CHANCE_SEAT + s, Fraction(1, e.players)) for s in range(e.players))
        if phase == "characters":
            if len(chosen) == e.characters_dealt():
                return ()
            pool = list(e.pool)
            for a in chosen:
                pool[a - CHANCE_CHARACTER] -= 1
            total = sum(pool)
            return tuple((CHANCE_CHARACTER + k, Fraction(n, total)) for k, n in enumerate(pool) if n)
        items, base = (e.draw, CHANCE_CARD) if phase in CARD_PHASES else (e.open_stack() or (), CHANCE_TILE)
        assert phase in CARD_PHASES or phase in TILE_PHASES
        return tuple((base + i, Fraction(items.count(i), len(items))) for i in sorted(set(items)))

    def outcome(self, engine: Engine, chosen: Steps) -> Any:
        e = self._engine(engine)
        phase = e.phase
        if phase == "layout":
            return moves.Layout(tuple(a - CHANCE_TILE for a in chosen))
        if phase == "first":
            return moves.FirstPlayer(chosen[0] - CHANCE_SEAT)
        if phase == "characters":
            return moves.Deal(tuple(sorted(a - CHANCE_CHARACTER for a in chosen)))
        if phase in CARD_PHASES:
            return moves.DrawCard(chosen[0] - CHANCE_CARD)
        return moves.DrawTile(chosen[0] - CHANCE_TILE)
