"""Manhattan's rules as data: the options of rules/manhattan.md §9 and the three presets (§0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import attrs

from citybuild.core.board import Board
from citybuild.core.errors import RulesError
from citybuild.core.rules import (
    ONLY_WITH,
    RulesBase,
    allowing,
    fail,
    frozen_dict,
    int_between,
    one_of,
    per_player_count,
)

PLAYER_COUNTS = (2, 3, 4)
CITY_NAMES = ("Sydney", "Manhattan", "Frankfurt", "Hong Kong", "Sao Paulo", "Cairo")  # MAN-COMP-1
CITY_CODES = ("Syd", "Man", "Fra", "HK", "SP", "Cai")
BOARD = Board.blocks(len(CITY_NAMES), 3)
"""MAN-COMP-1: six cities of 3x3 lots; lot k of city c is index c * 9 + k (the towers' order)."""
CITIES = BOARD.regions
"""The lots of each city: the board's regions (its connected components), city by city."""
LOT_NAMES = tuple(f"{CITY_CODES[BOARD.region_of[i]]}{CITIES[BOARD.region_of[i]].index(i)}" for i in range(len(BOARD)))
"""Each lot's name in the notation: city code and lot number (``Syd4``)."""
SIZES = (1, 2, 3, 4)
PIECES_PER_SIZE = (11, 6, 4, 3)  # MAN-COMP-2: 24 pieces, 47 floors per colour
CARDS_PER_LOT = 5  # MAN-COMP-3: 45 cards
DECK_SIZE = 9 * CARDS_PER_LOT
HAND_SIZE = 4  # MAN-COMP-4
SIDE_LETTERS = "SWNE"
COLOUR_LETTERS = "ABCD"


def rotate_quarter(index: int, quarters: int, size: int = 3) -> int:
    """The cell a card cell lands on after ``quarters`` clockwise quarter-turns: (r, c) -> (c, size-1-r),
    cells numbered row by row in a ``size`` x ``size`` square."""
    row, col = divmod(index, size)
    for _ in range(quarters % 4):
        row, col = col, size - 1 - row
    return size * row + col


# MAN-CARD-1: the board lot a card cell names for a holder at each side.
# A player at side q reads the card turned q quarter-turns clockwise (the table of MAN-CARD-1;
# tests compare it with the table printed in the rules reference).
ROT = tuple(tuple(rotate_quarter(k, side) for k in range(9)) for side in range(4))
NEED = tuple(tuple(row.index(lot) for lot in range(9)) for row in ROT)

DEFAULT_POINTS = {"tallest": 3, "majority": 2, "tower": 1}
DEFAULT_TIEBREAK = ("unique_tallest_owner", "most_majorities", "shared")
TIEBREAK_STEPS = ("unique_tallest_owner", "most_majorities", "shared")


@allowing('"until_supply_empty", or a dict with keys [2, 3, 4] and integer values from 1 to 24')
def _rounds(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value == "until_supply_empty":
        return
    per_player_count(PLAYER_COUNTS, 1, 24)(_, attribute, value)


@allowing("a dict {2: 'SN', 3: 'SWN', 4: 'SWNE'}-like: n distinct letters of SWNE per player count")
def _sides(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = "a dict {2: 'SN', 3: 'SWN', 4: 'SWNE'}-like: n distinct letters of SWNE per player count"
    if not isinstance(value, dict) or sorted(value) != list(PLAYER_COUNTS):
        raise fail(attribute, value, allowed)
    for n, sides in value.items():
        if not isinstance(sides, str) or len(sides) != n or len(set(sides)) != n or set(sides) - set(SIDE_LETTERS):
            raise fail(attribute, value, allowed)


@allowing("a dict with integer values for the keys tallest, majority, tower")
def _points(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = "a dict with integer keys tallest, majority, tower"
    if not isinstance(value, dict) or set(value) != set(DEFAULT_POINTS):
        raise fail(attribute, value, allowed)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value.values()):
        raise fail(attribute, value, allowed)


@allowing("a tuple (or list) of steps from 'unique_tallest_owner', 'most_majorities', 'shared'")
def _tiebreak(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, tuple) or any(step not in TIEBREAK_STEPS for step in value):
        raise fail(attribute, value, f"a tuple of steps from {TIEBREAK_STEPS}")


def _list_to_tuple(value: Any) -> Any:
    """JSON has no tuples: accept a list where a tuple is expected."""
    return tuple(value) if isinstance(value, list) else value


MEANINGS: dict[str, str] = {
    "colours_per_player": "Colours each player plays, by player count (MAN-SETUP-1; 4 colours in all).",
    "pieces_per_round": "Pieces each colour selects per round, by player count (MAN-ROUND-1).",
    "rounds": "Rounds played, by player count, or until every supply is empty (MAN-ROUND-6).",
    "takeover_compare": "A takeover must reach the owner's floors, the most floors of another colour, or the "
    "floors of any one other colour (MAN-BUILD-4).",
    "two_colour_split": "A two-colour player selects pieces_per_round of each colour, or twice as many split "
    "freely (MAN-ROUND-1).",
    "sides": "The side of the table of each seat, by player count (MAN-SETUP-2).",
    "two_colour_seating": "A second colour reads cards from its player's side, or from the side one quarter "
    "clockwise (MAN-SETUP-2).",
    "two_colour_legality": "A player's two colours take over separately, or as one (MAN-BUILD-7).",
    "card_orientation": "Cards are read from the holder's side, or all as if from the South (MAN-CARD-1/2).",
    "selection": "Players select pieces openly in turn, or all at once unseen (MAN-ROUND-1).",
    "reshuffle": "Discards return to the draw pile when a draw finds it empty, or as soon as it empties (MAN-CARD-3).",
    "tallest_tie": "Tied tallest towers score for nobody, or for their owner if one owns them all (MAN-SCORE-2).",
    "points": "Points for the tallest tower, a city majority and each tower owned (MAN-SCORE-2..4).",
    "no_legal_move": "With no legal build: redraw then forfeit a piece, forfeit at once, or pass keeping it "
    "(MAN-BUILD-8).",
    "redraw_limit": "Redraws allowed before a forfeit (MAN-BUILD-8).",
    "final_tiebreak": "The tie-break steps after points, in order (MAN-END-3).",
}
"""What each option means (``citybuild rules`` prints it beside the values the option allows)."""


@attrs.frozen(kw_only=True)
class Rules(RulesBase):
    """Every option of Manhattan (rules/manhattan.md §9); defaults are the ``standard`` preset."""

    meanings: ClassVar[Mapping[str, str]] = MEANINGS

    colours_per_player: dict[int, int] = attrs.field(
        converter=frozen_dict, factory=lambda: {2: 2, 3: 1, 4: 1}, validator=per_player_count(PLAYER_COUNTS, 1, 2)
    )
    pieces_per_round: dict[int, int] = attrs.field(
        converter=frozen_dict, factory=lambda: {2: 4, 3: 4, 4: 6}, validator=per_player_count(PLAYER_COUNTS, 1, 24)
    )
    rounds: dict[int, int] | Literal["until_supply_empty"] = attrs.field(
        converter=frozen_dict, factory=lambda: {2: 4, 3: 6, 4: 4}, validator=_rounds
    )
    takeover_compare: Literal["owner", "max_other", "any_colour"] = attrs.field(
        default="owner", validator=one_of("owner", "max_other", "any_colour")
    )
    two_colour_split: Literal["per_colour", "free"] = attrs.field(
        default="per_colour", validator=one_of("per_colour", "free")
    )
    sides: dict[int, str] = attrs.field(
        converter=frozen_dict, factory=lambda: {2: "SN", 3: "SWN", 4: "SWNE"}, validator=_sides
    )
    two_colour_seating: Literal["shared_side", "own_side"] = attrs.field(
        default="shared_side", validator=one_of("shared_side", "own_side")
    )
    two_colour_legality: Literal["per_colour", "merged"] = attrs.field(
        default="per_colour", validator=one_of("per_colour", "merged")
    )
    card_orientation: Literal["by_seat", "fixed"] = attrs.field(default="by_seat", validator=one_of("by_seat", "fixed"))
    selection: Literal["sequential_open", "simultaneous_hidden"] = attrs.field(
        default="sequential_open", validator=one_of("sequential_open", "simultaneous_hidden")
    )
    reshuffle: Literal["lazy", "eager"] = attrs.field(default="lazy", validator=one_of("lazy", "eager"))
    tallest_tie: Literal["nobody", "nobody_unless_same_owner"] = attrs.field(
        default="nobody", validator=one_of("nobody", "nobody_unless_same_owner")
    )
    points: dict[str, int] = attrs.field(converter=frozen_dict, factory=lambda: dict(DEFAULT_POINTS), validator=_points)
    no_legal_move: Literal["redraw_then_forfeit", "forfeit", "pass_keep_piece"] = attrs.field(
        default="redraw_then_forfeit", validator=one_of("redraw_then_forfeit", "forfeit", "pass_keep_piece")
    )
    redraw_limit: int = attrs.field(
        default=4, validator=int_between(0, 45), metadata={ONLY_WITH: {"no_legal_move": ("redraw_then_forfeit",)}}
    )
    final_tiebreak: tuple[str, ...] = attrs.field(
        default=DEFAULT_TIEBREAK, converter=_list_to_tuple, validator=_tiebreak
    )

    def __attrs_post_init__(self) -> None:
        for n in PLAYER_COUNTS:
            if n * self.colours_per_player[n] > len(COLOUR_LETTERS):
                raise RulesError(
                    f"option colours_per_player={self.colours_per_player!r} needs {n * self.colours_per_player[n]} "
                    f"colours for {n} players; there are only 4 (MAN-SETUP-1)"
                )
            if self.two_colour_seating == "own_side" and self.colours_per_player[n] == 2:
                sides = self.sides[n]
                used = [SIDE_LETTERS.index(s) for s in sides] + [(SIDE_LETTERS.index(s) + 1) % 4 for s in sides]
                if len(set(used)) != len(used):
                    raise RulesError(
                        f"option two_colour_seating='own_side' with sides {sides!r} for {n} players puts two colours "
                        "on one side; each second colour sits one side clockwise of its player"
                    )

    # --- derived values for one player count ---------------------------------------------
    def colour_count(self, players: int) -> int:
        return players * self.colours_per_player[players]

    def colours_of(self, player: int, players: int) -> tuple[int, ...]:
        """Colours of a player: player p owns p, and p + n with two colours each."""
        return tuple(player + i * players for i in range(self.colours_per_player[players]))

    def player_of(self, colour: int, players: int) -> int:
        return colour % players

    def side_of_colour(self, colour: int, players: int) -> int:
        """The side (0=S, 1=W, 2=N, 3=E) from which this colour reads its cards (MAN-SETUP-2)."""
        seat_side = SIDE_LETTERS.index(self.sides[players][colour % players])
        if colour >= players and self.two_colour_seating == "own_side":
            return (seat_side + 1) % 4
        return seat_side

    def total_rounds(self, players: int) -> int:
        """Rounds played (MAN-ROUND-6); for ``until_supply_empty``, 24 / pieces per round, rounded up."""
        if self.rounds == "until_supply_empty":
            per_round = self.pieces_per_round[players]
            return -(-sum(PIECES_PER_SIZE) // per_round)
        return self.rounds[players]


STANDARD = Rules()
PRESETS: dict[str, Rules] = {
    "standard": STANDARD,
    "four-rounds": Rules(rounds={2: 4, 3: 4, 4: 4}),
    "all-pieces": Rules(
        colours_per_player={2: 1, 3: 1, 4: 1}, rounds="until_supply_empty", takeover_compare="max_other"
    ),
}
