"""Shared helpers for the Skyline tests (tests/skyline): loading games, writing positions in the
notation of docs/games/skyline.md, and a reference reading of the rules (SKY-BUILD-3, SKY-RAND-2)
written from rules/skyline.md rather than from the engine."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import citybuild as cb
from citybuild.games.skyline import SkylineGame, SkylineState

DICE = {"GF": 25, "UF": 28, "PH": 7}  # SKY-COMP-2
FACE_TABLE = {  # SKY-COMP-4 / SKY-RAND-2, from the table of the reference
    "GF": {"P": Fraction(1, 2), "B": Fraction(1, 3), "O": Fraction(1, 6)},
    "UF": {"P": Fraction(1, 2), "B": Fraction(1, 3), "O": Fraction(1, 6)},
    "PH": {"X": Fraction(1, 2), "B": Fraction(1, 3), "O": Fraction(1, 6)},
}


def game(players: int = 2, preset: str = "standard", **overrides: Any) -> SkylineGame:
    loaded = cb.load("skyline", players=players, preset=preset, **overrides)
    assert isinstance(loaded, SkylineGame)
    return loaded


def pos(text: str, players: int = 2, preset: str = "standard", **overrides: Any) -> SkylineState:
    """A hand-written position; the header is added when missing."""
    if not text.startswith("skyline/"):
        text = f"skyline/{players} {text}"
    return game(players, preset, **overrides).parse_state(text)


def dice_in_play(state: SkylineState) -> Counter[str]:
    """Every die wherever it is, counted by type (independently of the engine's own counters)."""
    out: Counter[str] = Counter()
    for zone in (state.yard, state.district, state.rolling):
        for kind, n in zip(("GF", "UF", "PH"), zone, strict=True):
            out[kind] += n
    out.update(d[0] for d in state.active)
    for skyline in state.skylines:
        for b in skyline.buildings:
            out.update(getattr(b, "pieces", ()))
    return out


def expected_probability(dice: list[tuple[str, str]]) -> Fraction:
    """SKY-RAND-2 written out: per type, n! / prod k! * prod p^k."""
    total = Fraction(1)
    by_type = Counter(d[0] for d in dice)
    for kind, n in by_type.items():
        faces = Counter(d[1] for d in dice if d[0] == kind)
        total *= math.factorial(n)
        for face, k in faces.items():
            total = total / math.factorial(k) * FACE_TABLE[kind][face] ** k
    return total


def play_random(state: Any, rng: random.Random, steps: int | None = None) -> Any:
    """Random play with random_move (uniform legal move, outcomes with their probability)."""
    taken = 0
    while not state.is_over and (steps is None or taken < steps):
        state = state.play(state.random_move(rng))
        taken += 1
    return state
