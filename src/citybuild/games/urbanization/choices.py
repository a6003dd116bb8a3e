"""Urbanization's moves as a newcomer clicks them (``GameSpec.choices``): a card's selection on
what the card names in the city (a building by its top tile, or a lettered token), a token's
destination on its cell, the rest (draft, new hand, take, give) in words.

The parts are the picture's ``data-part`` attributes (``urbanization.picture``): ``building R7``,
``token C`` and ``cell -2,1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.choices import Choice
from citybuild.games.urbanization.moves import Done, Give, Keep, NewHand, Pick, Select, Take, Token
from citybuild.games.urbanization.rules import LETTERS, TILES, card_name, character_name, tile_name

COLOUR_WORDS = {"R": "red", "B": "blue", "Y": "yellow"}
ACTION_WORDS = {"E": "Exploit", "U": "Urbanize", "C": "Construct"}
GAIN_WORDS = {"R": "resource", "B": "tile", "Y": "SP"}
"""What a character of each colour gives each time its action is taken (URB-CHAR-1)."""


def card_part(card: int) -> str:
    """The picture part a card names: ``building R7`` (a Building card) or ``token C`` (a letter)."""
    return f"token {LETTERS[card - TILES]}" if card >= TILES else f"building {tile_name(card)}"


def cell_part(x: int, y: int) -> str:
    """The picture part of a cell of the city's grid: ``cell -2,1``."""
    return f"cell {x},{y}"


def _select_words(move: Select) -> str:
    card = card_name(move.card)
    if move.tile is None:
        gain = "a resource or a tile" if move.card >= TILES else "items of the building's colour"
        return f"Exploit: play card {card} alone (gain {gain})"
    tile = tile_name(move.tile)
    if move.card >= TILES:
        return f"Urbanize: build tile {tile} on token {card}'s square"
    return f"Construct: put tile {tile} on top of building {card}"


def choice(view: Any, move: Any) -> Choice:
    """The part and words of one legal move of the view's player."""
    if isinstance(move, Select):
        return Choice(card_part(move.card), (_select_words(move),))
    if isinstance(move, Token):
        return Choice(cell_part(move.x, move.y), (f"Move the token to the square {move.x},{move.y}",))
    if isinstance(move, Pick):
        name = character_name(move.kind)
        action, gain = ACTION_WORDS[name[1]], GAIN_WORDS[name[0]]
        words = f"{COLOUR_WORDS[name[0]]} {action} character ({name})"
        step = f"Keep the {words}: +1 {gain} each time you {action}"
        return Choice(None, ("Keep one character of the hand passed to you", step), told=f"Keeps the {words}")
    if isinstance(move, NewHand):
        words = "Throw away my hand and draw 4 new cards (spends a New Hand token)"
        return Choice(None, (words,), told="New hand: 4 new cards for a New Hand token")
    if isinstance(move, Keep):
        return Choice(None, ("Keep my hand",), told="Keeps the hand")
    if isinstance(move, Take):
        return Choice(None, (f"Take a {move.item}",))
    if isinstance(move, Give):
        return Choice(None, ("Give a tile to the second stack (1 SP each)", f"Give tile {tile_name(move.tile)}"))
    if isinstance(move, Done):
        return Choice(None, ("Give no more tiles",))
    return Choice(None, (str(move),))


def choices(view: Any, moves: Sequence[Any]) -> list[Choice]:
    """``choice`` of each move."""
    return [choice(view, move) for move in moves]
