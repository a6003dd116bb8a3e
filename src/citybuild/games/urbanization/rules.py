"""Urbanization's rules as data: the options of rules/urbanization.md §13, the preset (§0), and the
fixed facts of the components (§1, §2) with the names the notation uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from citybuild.core.errors import RulesError
from citybuild.core.rules import READS_FILE, RulesBase, allowing, boolean, fail, int_between, one_of
from citybuild.games.urbanization.data import load_cards, load_characters

PLAYER_COUNTS = (2, 3, 4, 5)
COLOUR_LETTERS = "RBY"  # URB-COMP-1: red -> resources, blue -> tiles, yellow -> SP
ACTION_LETTERS = "EUC"  # exploit, urbanize, construct
NUMBERS = 20
TILES = 60  # URB-COMP-1
LETTERS = "ABCDEFGHIJKL"  # URB-COMP-2
CARDS = TILES + len(LETTERS)  # 72: card t < 60 is the Building card of tile t; 60 + i is letter i
RESOURCES = {2: 25, 3: 20, 4: 18, 5: 16}  # URB-COMP-4, URB-SETUP-6
NEW_HAND_TOKENS = 2  # URB-SETUP-6
HAND_SIZE = 4
NEW_HAND_SP = 2  # URB-SCORE-1

START_CELLS = ((-1, 1), (0, 1), (1, 1), (-1, 0), (0, 0), (1, 0), (-1, -1), (0, -1), (1, -1))
"""URB-SETUP-1: the 3x3 starting square, row by row from the top left (the order of a layout)."""
START_TILES = tuple(c * NUMBERS + n for c in range(3) for n in range(3))
"""URB-SETUP-1: the tiles numbered 1-3 of each colour."""
TOKEN_CELLS = (
    (-1, 2), (0, 2), (1, 2), (2, 1), (2, 0), (2, -1), (1, -2), (0, -2), (-1, -2), (-2, -1), (-2, 0), (-2, 1),
)  # fmt: skip
"""URB-SETUP-2: tokens A-L clockwise from above the top-left tile."""
CANONICAL_CITY = ("B1", "Y1", "R1", "Y2", "B2", "B3", "R3", "Y3", "R2")
"""URB-SETUP-1: the canonical test city, in START_CELLS order."""


def tile_name(tile: int) -> str:
    """``R7`` for the red tile numbered 7 (tile id = colour * 20 + number - 1); ``?<value>`` for a
    value that is no tile (in the text of a malformed move)."""
    if type(tile) is not int or not 0 <= tile < TILES:
        return f"?{tile!r}"
    return f"{COLOUR_LETTERS[tile // NUMBERS]}{tile % NUMBERS + 1}"


def card_name(card: int) -> str:
    """A Building card is named by its tile (``R7``), an Urbanization card by its letter (``D``)."""
    if type(card) is int and TILES <= card < CARDS:
        return LETTERS[card - TILES]
    return tile_name(card)


def character_name(kind: int) -> str:
    """A character type (colour * 3 + action) as colour and action letters: ``BE`` is a blue Exploit."""
    if type(kind) is not int or not 0 <= kind < 9:
        return f"?{kind!r}"
    return COLOUR_LETTERS[kind // 3] + ACTION_LETTERS[kind % 3]


def colour(tile: int) -> int:
    return tile // NUMBERS


def number(tile: int) -> int:
    return tile % NUMBERS + 1


def _data_path(loader: Any) -> Any:
    @allowing("None (the bundled file) or the path of a JSON file")
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is not None and not isinstance(value, str):
            raise fail(attribute, value, "None (the bundled file) or the path of a JSON file")
        loader(value)  # raises RulesError saying where the file is wrong

    return check


def _data_text(loader: Any) -> Any:
    @allowing("None or the text of a JSON data file")
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is not None and not isinstance(value, str):
            raise fail(attribute, value, "None or the text of a JSON data file")
        if value is not None:
            loader(None, value)  # raises RulesError saying where the text is wrong

    return check


MEANINGS: dict[str, str] = {
    "small_game_removed_tiles": "With 2-3 players the original stack is exhausted after 51 minus this many "
    "draws (URB-SETUP-3).",
    "small_game_initial_discard": "Cards dealt face up to the discard pile at setup with 2-3 players (URB-SETUP-4).",
    "character_mode": "Draft the characters (4 dealt, keep 1, pass the rest), or deal 3 each (URB-SETUP-7).",
    "characters_data_path": "The characters data file (URB-CHAR-1/2); None for the bundled one.",
    "cards_data_path": "The Building cards data file (URB-CARD-1); None for the bundled one.",
    "characters_data": "The text of a characters data file, as records carry it (instead of a path).",
    "cards_data": "The text of a Building cards data file, as records carry it (instead of a path).",
    "new_hand_per_round": "New Hand tokens a player may spend per round (URB-ROUND-1).",
    "new_card_insertion": "Where new Building cards go in phase 3 (URB-ROUND-6).",
    "token_move_keeps_alphabetical_order": "Tokens keep the cyclic order A to L around the city (URB-URBANIZE-3).",
    "token_no_space": "A token with no empty neighbour leaves the game, or goes to any empty cell next to the "
    "city (URB-URBANIZE-3).",
    "utilize_triggers_exploit_bonus": "Utilizing fires the Exploit bonuses once per utilized building "
    "(URB-URBANIZE-4).",
    "colour_penalty_to": "Where the colour penalty resource goes (URB-CONSTRUCT-1 step 4).",
    "new_card_bonus_same_action": "The played card's own Construct bonus fires in that action "
    "(URB-CONSTRUCT-1 step 7).",
    "illegal_action_fallback": "A selection illegal at resolution is played as an Exploit (URB-CONSTRUCT-3).",
    "end_timing": "Finish the round after the end is triggered, or stop at once (URB-END-5).",
    "end_trigger_latches": "The end trigger stays set even if a refund undoes it (URB-END-4).",
    "count_characters_in_card_bonus": "Cards 16-19 count characters (URB-CARD-2).",
    "max_rounds": "The game ends after this round if nothing else ended it (URB-RAND-6).",
    "card10_13_unit": "What cards 10-13 count: owned buildings or any building (URB-CARD-2).",
}
"""What each option means (``citybuild rules`` prints it beside the values the option allows)."""


@attrs.frozen(kw_only=True)
class Rules(RulesBase):
    """Every option of Urbanization (rules/urbanization.md §13); defaults are the ``standard`` preset."""

    meanings: ClassVar[Mapping[str, str]] = MEANINGS

    small_game_removed_tiles: int = attrs.field(default=6, validator=int_between(0, 24))
    small_game_initial_discard: int = attrs.field(default=7, validator=int_between(0, 9))
    character_mode: str = attrs.field(default="draft", validator=one_of("draft", "random"))
    characters_data_path: str | None = attrs.field(
        default=None, validator=_data_path(load_characters), metadata={READS_FILE: "characters_data"}
    )
    cards_data_path: str | None = attrs.field(
        default=None, validator=_data_path(load_cards), metadata={READS_FILE: "cards_data"}
    )
    characters_data: str | None = attrs.field(default=None, validator=_data_text(load_characters))
    cards_data: str | None = attrs.field(default=None, validator=_data_text(load_cards))
    new_hand_per_round: int = attrs.field(default=1, validator=int_between(0, 2))
    new_card_insertion: str = attrs.field(default="shuffle_into_draw", validator=one_of("shuffle_into_draw", "discard"))
    token_move_keeps_alphabetical_order: bool = attrs.field(default=False, validator=boolean)
    token_no_space: str = attrs.field(default="remove", validator=one_of("remove", "any_cell_adjacent_to_city"))
    utilize_triggers_exploit_bonus: bool = attrs.field(default=False, validator=boolean)
    colour_penalty_to: str = attrs.field(default="reserve", validator=one_of("reserve", "box"))
    new_card_bonus_same_action: bool = attrs.field(default=False, validator=boolean)
    illegal_action_fallback: str = attrs.field(default="exploit", validator=one_of("exploit"))
    end_timing: str = attrs.field(default="end_of_round", validator=one_of("end_of_round", "immediate"))
    end_trigger_latches: bool = attrs.field(default=True, validator=boolean)
    count_characters_in_card_bonus: bool = attrs.field(default=True, validator=boolean)
    max_rounds: int = attrs.field(default=60, validator=int_between(1, 999))
    card10_13_unit: str = attrs.field(default="owned_building", validator=one_of("owned_building", "any_building"))

    def removed_tiles(self, players: int) -> int:
        """URB-SETUP-3: tiles of the original stack never drawn (2-3 players only)."""
        return self.small_game_removed_tiles if players <= 3 else 0

    def initial_discard(self, players: int) -> int:
        """URB-SETUP-4: cards dealt face up to the discard pile before the game (2-3 players only)."""
        return self.small_game_initial_discard if players <= 3 else 0

    def check_players(self, players: int) -> None:
        if players not in PLAYER_COUNTS:
            raise RulesError(f"urbanization takes 2 to 5 players, not {players!r}")


STANDARD = Rules()
PRESETS: dict[str, Rules] = {"standard": STANDARD}
