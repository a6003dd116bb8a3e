"""The Skyline game object: rules + player count, the factory of states and parser of text."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from citybuild.core.game import Game
from citybuild.games.skyline import notation
from citybuild.games.skyline.building import Skyline
from citybuild.games.skyline.moves import MOVES, OUTCOMES, SLOT, Die
from citybuild.games.skyline.rules import DICE_TOTAL, START_COLOURS, TYPES, Rules
from citybuild.games.skyline.state import SkylineState


@attrs.frozen
class SkylineGame(Game):
    """Skyline for ``players`` players under ``rules`` (see rules/skyline.md)."""

    name: ClassVar[str] = "skyline"
    moves: ClassVar[tuple[type, ...]] = MOVES
    outcomes: ClassVar[tuple[type, ...]] = OUTCOMES
    rules: Rules
    die_faces: tuple[tuple[Die, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """Per die type (GF, UF, PH), the die shown by each of its six faces (SKY-COMP-4): computed
    once, read on every roll."""

    shown_dice: frozenset[Die] = attrs.field(init=False, eq=False, repr=False)
    """Every (type, face) a die can show under these rules (SKY-COMP-4)."""

    face_slots: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """Per die type, the slot (``moves.SLOT``) of the die each of its six faces shows."""

    shown_slots: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    """The slots of ``shown_dice``, in canonical order: where rolled dice can be."""

    offer_rules: tuple[int, bool, bool, bool] = attrs.field(init=False, eq=False, repr=False)
    """The options that shape what a skyline offers (``offers.offers``), as one hashable value."""

    def __attrs_post_init__(self) -> None:
        rules = self.rules
        faces = tuple(tuple((kind, face) for face in rules.faces[kind]) for kind in TYPES)
        shown = frozenset(die for row in faces for die in row)
        object.__setattr__(self, "die_faces", faces)
        object.__setattr__(self, "shown_dice", shown)
        object.__setattr__(self, "face_slots", tuple(tuple(SLOT[die] for die in row) for row in faces))
        object.__setattr__(self, "shown_slots", tuple(sorted(SLOT[die] for die in shown)))
        offer_rules = (
            rules.blue_min_height,
            rules.demolish_completed_allowed,
            rules.fallback_only,
            rules.reroll_all_remaining,
        )
        object.__setattr__(self, "offer_rules", offer_rules)

    def initial_state(self) -> SkylineState:
        """SKY-SETUP-1..4: one die of each type in the district, starting ground floors, round 1."""
        skylines = []
        for seat in range(self.players):
            skyline = Skyline()
            if seat < len(START_COLOURS):
                skyline = skyline.start(START_COLOURS[seat], "GF")
            skylines.append(skyline)
        started = min(self.players, len(START_COLOURS))
        yard = (DICE_TOTAL[0] - 1 - started, DICE_TOTAL[1] - 1, DICE_TOTAL[2] - 1)
        return SkylineState(
            game=self,
            round=1,
            turn=0,
            phase="take",
            yard=yard,
            district=(1, 1, 1),
            active=(),
            skylines=tuple(skylines),
        )

    def parse_move(self, text: str) -> Any:
        return notation.parse_move(text)

    def parse_state(self, text: str) -> SkylineState:
        return notation.parse_state(self, text)
