"""Skyline's moves as short sequences of decisions, over 96 fixed action ids (stable across
versions: ``tests/test_numbering.py`` pins them).

========  ===========================  ==============================================
ids       meaning                      used by
========  ===========================  ==============================================
0-11      die (type, face)             4 x type + face: GF, UF, PH; faces P B O X
12        new building                 ``Build(die, None)``: die, new
13-27     building slot 0-14           the player's building at that position (id order)
28        more buildings               the next 15 positions (slots count from there)
29        abandon                      ``Abandon(die)``: die, abandon
30        demolish                     ``Demolish(die, b)``: die, demolish, slot
31        reroll                       ``Reroll(dice)``: reroll, then per distinct active
                                       die (canonical order) how many to roll again
32        end turn                     ``EndTurn()``
33        take from the yard           ``TakeYard(types)``: take, then counts GF, UF, PH
34        take the district            ``TakeDistrict()``
35-95     count n (0-60)               counts of a take or of a reroll
========  ===========================  ==============================================

A building is named by its position among the player's buildings (in id order), 15 to a page:
position p is ``more`` p // 15 times, then slot p % 15, so a skyline of any size stays reachable
with the same ids (in ordinary play a skyline holds fewer than 15 buildings: one decision).

Chance: a roll is drawn die by die, ground floors first, then upper floors, then penthouses (as
many of each as ``rolling`` says); chance id 0-3 is the face shown (P B O X) with its probability
on that die type. The dice shown, as a multiset, make the ``Roll``; a roll of n dice takes n steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from citybuild.core.actions import Decisions, Steps
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.games.skyline.engine import SkylineEngine
from citybuild.games.skyline.moves import (
    SLOT,
    SLOT_DICE,
    Abandon,
    Build,
    Demolish,
    EndTurn,
    Reroll,
    Roll,
    TakeDistrict,
    TakeYard,
    canonical,
    sorted_dice,
)
from citybuild.games.skyline.offers import take_size
from citybuild.games.skyline.rules import FACES, TYPES

DIE, NEW, BUILDING, MORE, ABANDON, DEMOLISH, REROLL, END, TAKE_YARD, TAKE_DISTRICT, COUNT = (
    0,
    12,
    13,
    28,
    29,
    30,
    31,
    32,
    33,
    34,
    35,
)
PAGE = MORE - BUILDING
"""Building slots per page (15)."""
MAX_COUNT = 60
"""Counts run 0-60: no take or reroll holds more than the 60 dice of the game (SKY-COMP-2)."""

NAMES: tuple[str, ...] = (
    *(f"die {t}{f}" for t, f in SLOT_DICE),
    "new building",
    *(f"building slot {i}" for i in range(PAGE)),
    "more buildings",
    "abandon",
    "demolish",
    "reroll",
    "end turn",
    "take from the yard",
    "take the district",
    *(f"count {n}" for n in range(MAX_COUNT + 1)),
)
CHANCE_NAMES: tuple[str, ...] = tuple(f"face {f}" for f in FACES)


def _position_steps(position: int) -> Steps:
    return (MORE,) * (position // PAGE) + (BUILDING + position % PAGE,)


def _pages(chosen: Steps) -> int:
    return sum(1 for a in chosen if a == MORE)


def _slot_options(positions: list[int], page: int) -> Steps:
    """The slots of ``positions`` on ``page``, and ``more`` if some lie beyond it."""
    low, high = page * PAGE, (page + 1) * PAGE
    out = sorted({BUILDING + p - low for p in positions if low <= p < high})
    if any(p >= high for p in positions):
        out.append(MORE)
    return tuple(out)


def _position(chosen: Steps) -> int:
    """The building position named by the slot steps at the end of ``chosen``."""
    return _pages(chosen) * PAGE + chosen[-1] - BUILDING


class SkylineDecisions(Decisions):
    """Dice first, then what to do with them; takes and rerolls as counts; rolls die by die."""

    names = NAMES
    chance_names = CHANCE_NAMES
    max_steps = 13

    def longest_game(self) -> int:
        """Per turn: a take (4 steps) and its roll (at most 60 dice, a step each), then per die
        resolved (at most 60: every resolution uses one up) its decisions and at most one reroll
        (13 steps and its roll), and the end of the turn."""
        rules, n = self.game.rules, self.game.players
        pages = 60 // PAGE + 1
        per_turn = 4 + 60 + 60 * (3 + pages + 13 + 60) + 1
        return int(rules.rounds * n * per_turn)

    @staticmethod
    def _engine(engine: Engine) -> SkylineEngine:
        assert isinstance(engine, SkylineEngine)
        return engine

    @staticmethod
    def _positions(engine: SkylineEngine, player: int) -> dict[int | None, int]:
        return {b.id: i for i, b in enumerate(engine.skylines[player].buildings)}

    # --- the numbering ---------------------------------------------------------------------
    def steps(self, engine: Engine, player: int, move: Any) -> Steps:
        e = self._engine(engine)
        kind = type(move)
        if kind is TakeYard:
            return (TAKE_YARD, *(COUNT + move.types.count(t) for t in TYPES))
        if kind is TakeDistrict:
            return (TAKE_DISTRICT,)
        if kind is EndTurn:
            return (END,)
        if kind is Reroll:
            if e.game.rules.reroll_all_remaining:
                return (REROLL,)
            kinds = tuple(dict.fromkeys(e.active))
            return (REROLL, *(COUNT + move.dice.count(die) for die in kinds))
        if kind is Build:
            if move.target is None:
                return (SLOT[move.die], NEW)
            return (SLOT[move.die], *_position_steps(self._positions(e, player)[move.target]))
        if kind is Abandon:
            return (SLOT[move.die], ABANDON)
        if kind is Demolish:
            return (SLOT[move.die], DEMOLISH, *_position_steps(self._positions(e, player)[move.building]))
        raise RulesError(f"{move!r} is not a Skyline move")

    def outcome_steps(self, engine: Engine, outcome: Any) -> Steps:
        # Canonical dice order is types GF UF PH, faces P B O X: the die-by-die order of the roll.
        return tuple(FACES.index(face) for _, face in outcome.dice)

    # --- options ---------------------------------------------------------------------------
    def options(self, engine: Engine, player: int, chosen: Steps) -> Steps:
        e = self._engine(engine)
        phase = e.phase
        if phase == "take":
            return self._take_options(e, chosen)
        if phase != "resolve" and phase != "continue":
            return ()
        shape = e.shape(player)  # its targets are building positions, as the numbering's are
        targets, abandons, razable = shape.targets, shape.abandons, shape.razable
        if not chosen:
            dice = [slot for slot in shape.kinds if targets[slot] or slot in abandons]
            extra = (REROLL, END) if phase == "continue" else ()
            return (*sorted(dice), *extra)
        first = chosen[0]
        if first == END:
            return ()
        if first == REROLL:
            return self._reroll_options(e, shape.limits, chosen)
        if len(chosen) == 1:
            out = []
            row = targets[first]
            if None in row:
                out.append(NEW)
            out.extend(_slot_options([t for t in row if t is not None], 0))
            if first in abandons:
                out.append(ABANDON)
                if razable:
                    out.append(DEMOLISH)
            return tuple(sorted(out))
        last = chosen[-1]
        if last != MORE and last != DEMOLISH:
            return ()  # new, abandon, or a slot: the move is complete
        page = _pages(chosen)
        if chosen[1] == DEMOLISH:
            return _slot_options(list(razable), page)
        return _slot_options([t for t in targets[first] if t is not None], page)

    def _take_options(self, e: SkylineEngine, chosen: Steps) -> Steps:
        if not chosen:
            return (TAKE_YARD,) * any(e.yard) + (TAKE_DISTRICT,) * any(e.district)
        if chosen[0] == TAKE_DISTRICT or len(chosen) == 4:
            return ()
        yard = e.yard
        size = take_size(yard, e.game.rules.yard_take)
        which = len(chosen) - 1
        taken = sum(a - COUNT for a in chosen[1:])
        later = sum(yard[which + 1 :])
        low, high = max(0, size - taken - later), min(yard[which], size - taken)
        return tuple(COUNT + n for n in range(low, high + 1))

    def _reroll_options(self, e: SkylineEngine, limits: Sequence[int], chosen: Steps) -> Steps:
        """SKY-TURN-5: how many of each distinct active die to roll again, at least one in all."""
        if e.game.rules.reroll_all_remaining:
            return ()
        which = len(chosen) - 1
        if which == len(limits):
            return ()
        low = 1 if which == len(limits) - 1 and all(a == COUNT for a in chosen[1:]) else 0
        return tuple(COUNT + n for n in range(low, limits[which] + 1))

    # --- the completed move ----------------------------------------------------------------
    def move(self, engine: Engine, player: int, chosen: Steps) -> Any:
        e = self._engine(engine)
        first = chosen[0]
        if first == TAKE_YARD:
            return TakeYard(tuple(t for t, a in zip(TYPES, chosen[1:], strict=True) for _ in range(a - COUNT)))
        if first == TAKE_DISTRICT:
            return TakeDistrict()
        if first == END:
            return EndTurn()
        if first == REROLL:
            if e.game.rules.reroll_all_remaining:
                return canonical(Reroll, e.active)
            kinds = tuple(dict.fromkeys(e.active))
            return canonical(
                Reroll, tuple(die for die, a in zip(kinds, chosen[1:], strict=True) for _ in range(a - COUNT))
            )
        die = SLOT_DICE[first]
        second = chosen[1]
        if second == NEW:
            return Build(die, None)
        if second == ABANDON:
            return Abandon(die)
        building = e.skylines[player].buildings[_position(chosen)].id
        if second == DEMOLISH:
            return Demolish(die, building)
        return Build(die, building)

    # --- chance: die by die ----------------------------------------------------------------
    def _die_types(self, e: SkylineEngine) -> list[str]:
        return [t for t, n in zip(TYPES, e.rolling, strict=True) for _ in range(n)]

    def chance_options(self, engine: Engine, chosen: Steps) -> tuple[tuple[int, Fraction], ...]:
        e = self._engine(engine)
        if e.phase != "roll":
            return ()
        types = self._die_types(e)
        if len(chosen) >= len(types):
            return ()
        faces = e.game.rules.faces[types[len(chosen)]]
        return tuple((i, Fraction(faces.count(f), 6)) for i, f in enumerate(FACES) if f in faces)

    def outcome(self, engine: Engine, chosen: Steps) -> Roll:
        e = self._engine(engine)
        dice = zip(self._die_types(e), (FACES[a] for a in chosen), strict=True)
        return canonical(Roll, sorted_dice(list(dice)))
