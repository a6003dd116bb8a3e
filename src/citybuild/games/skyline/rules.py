"""Skyline's rules as data: the options of rules/skyline.md §7 and the two presets (§0)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from citybuild.core.rules import ONLY_WITH, RulesBase, allowing, boolean, fail, frozen_dict, int_between

PLAYER_COUNTS = (2, 3, 4)  # SKY-COMP-1
TYPES = ("GF", "UF", "PH")  # SKY-COMP-2: ground floor, upper floor, penthouse
DICE_TOTAL = (25, 28, 7)  # SKY-COMP-2: 60 dice
FACES = "PBOX"  # SKY-COMP-3: purple, blue, orange, blank
COLOURS = "PBO"
COLOUR_NAMES = {"P": "purple", "B": "blue", "O": "orange"}
TYPE_NAMES = {"GF": "ground floor", "UF": "upper floor", "PH": "penthouse"}
START_COLOURS = ("O", "B", "P")  # SKY-SETUP-3: seats 0, 1, 2; seat 3 starts with nothing
MAX_HEIGHT = 6  # SKY-COMP-5

DEFAULT_FACES = {"GF": "PPPBBO", "UF": "PPPBBO", "PH": "XXXBBO"}  # SKY-COMP-4
DEFAULT_TILE_COUNTS = {1: 8, 2: 20, 3: 6, 4: 18, 5: 4, 6: 4}  # SKY-COMP-5


@allowing("a dict {'GF': ..., 'UF': ..., 'PH': ...} of six-letter strings over P, B, O, X")
def _faces(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = "a dict {'GF': ..., 'UF': ..., 'PH': ...} of six-letter strings over P, B, O, X"
    if not isinstance(value, dict) or sorted(value) != sorted(TYPES):
        raise fail(attribute, value, allowed)
    for text in value.values():
        if not isinstance(text, str) or len(text) != 6 or set(text) - set(FACES):
            raise fail(attribute, value, allowed)


@allowing("a dict with keys 1 to 6 and integer values from 0 to 60")
def _tile_counts(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = "a dict with keys 1 to 6 and integer values from 0 to 60"
    if not isinstance(value, dict) or sorted(value) != list(range(1, MAX_HEIGHT + 1)):
        raise fail(attribute, value, allowed)
    for v in value.values():
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 60:
            raise fail(attribute, value, allowed)


MEANINGS: dict[str, str] = {
    "rounds": "The last round (SKY-END-1).",
    "six_floor_ends_game": "A completed six-floor building ends the game at the end of the round (SKY-END-2/3).",
    "end_trigger_latches": "The end trigger stays set if that building is later demolished (SKY-END-2).",
    "faces": "The six faces of each die type: P purple, B blue, O orange, X blank (SKY-COMP-4).",
    "finite_tile_supply": "Track the supply of building tiles (SKY-COMP-5).",
    "tile_counts": "Tiles of each height 1-6 when the supply is finite (SKY-COMP-5).",
    "yard_take": "Dice taken by 'take yard' (SKY-TURN-2).",
    "reroll_all_remaining": "A reroll must name every remaining active die (SKY-TURN-5).",
    "demolish_completed_allowed": "Completed buildings may be demolished (SKY-DEMOLISH-1).",
    "fallback_only": "Abandon and Demolish only while no Build is legal (SKY-DEMOLISH-3).",
    "blue_min_height": "The smallest height at which a blue building completes (SKY-BUILD-3).",
    "tiebreak_counts_converted_lowrise": "Lone purple ground floors count as completed buildings in the "
    "tie-break (SKY-SCORE-4).",
}
"""What each option means (``citybuild rules`` prints it beside the values the option allows)."""


@attrs.frozen(kw_only=True)
class Rules(RulesBase):
    """Every option of Skyline (rules/skyline.md §7); defaults are the ``standard`` preset."""

    meanings: ClassVar[Mapping[str, str]] = MEANINGS

    rounds: int = attrs.field(default=9, validator=int_between(1, 99))
    six_floor_ends_game: bool = attrs.field(default=True, validator=boolean)
    end_trigger_latches: bool = attrs.field(
        default=True, validator=boolean, metadata={ONLY_WITH: {"six_floor_ends_game": (True,)}}
    )
    faces: dict[str, str] = attrs.field(converter=frozen_dict, factory=lambda: dict(DEFAULT_FACES), validator=_faces)
    finite_tile_supply: bool = attrs.field(default=False, validator=boolean)
    tile_counts: dict[int, int] = attrs.field(
        converter=frozen_dict,
        factory=lambda: dict(DEFAULT_TILE_COUNTS),
        validator=_tile_counts,
        metadata={ONLY_WITH: {"finite_tile_supply": (True,)}},
    )
    yard_take: int = attrs.field(default=3, validator=int_between(1, 60))
    reroll_all_remaining: bool = attrs.field(default=False, validator=boolean)
    demolish_completed_allowed: bool = attrs.field(default=True, validator=boolean)
    fallback_only: bool = attrs.field(default=False, validator=boolean)
    blue_min_height: int = attrs.field(default=2, validator=int_between(2, 4))
    tiebreak_counts_converted_lowrise: bool = attrs.field(default=False, validator=boolean)

    # --- derived values --------------------------------------------------------------------
    def face_table(self) -> dict[str, dict[str, Fraction]]:
        """SKY-RAND-2: per die type, each face's probability (occurrences / 6), in P B O X order."""
        return {t: {f: Fraction(self.faces[t].count(f), 6) for f in FACES if f in self.faces[t]} for t in TYPES}

    def faces_key(self) -> tuple[str, str, str]:
        """The faces as a hashable value, for caches."""
        return (self.faces["GF"], self.faces["UF"], self.faces["PH"])


STANDARD = Rules()
PRESETS: dict[str, Rules] = {
    "standard": STANDARD,
    "all-nine-rounds": Rules(six_floor_ends_game=False),
}
