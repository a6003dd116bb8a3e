"""The fields of a Skyline position, declared once: what a frozen state holds and an engine is
built from (the later position-with-visibility declaration annotates them here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from citybuild.games.skyline.building import Skyline
from citybuild.games.skyline.moves import Die
from citybuild.games.skyline.rules import MAX_HEIGHT

if TYPE_CHECKING:
    from citybuild.games.skyline.game import SkylineGame

Counts = tuple[int, int, int]
"""Dice counted per type, in the order GF, UF, PH."""
ZERO: Counts = (0, 0, 0)
PHASES = ("take", "roll", "resolve", "continue", "over")
"""take: the turn opens with a take; roll: dice are being rolled (chance); resolve: at least one
die must be resolved; continue: resolve more, reroll or end the turn; over: the game has ended."""


@attrs.define(slots=False, eq=False, repr=False)
class SkylinePosition:
    """The fields of a Skyline position: an engine's attributes, a state's fields.

    ``turn`` is the seat whose turn it is (also during its rolls). ``rolling`` counts the dice per
    type being rolled (only in phase ``roll``). ``short`` counts, per height 1-6, completed
    buildings that stand without a tile because the finite supply ran out (SKY-COMP-5).
    """

    game: SkylineGame
    round: int
    turn: int
    phase: str
    yard: Counts
    district: Counts
    active: tuple[Die, ...]
    skylines: tuple[Skyline, ...]
    rolling: Counts = ZERO
    trigger: bool = False
    short: tuple[int, ...] = (0,) * MAX_HEIGHT
