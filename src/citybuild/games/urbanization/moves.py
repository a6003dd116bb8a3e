"""Urbanization's moves and chance outcomes: small frozen values whose ``str`` is their notation.

Cards are numbered 0-71 (a Building card has the number of its tile, colour * 20 + number - 1;
Urbanization card A-L is 60-71), tiles 0-59, character types 0-8 (colour * 3 + action).
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from citybuild.games.urbanization.rules import TILES, card_name, character_name, tile_name


# --- decisions -----------------------------------------------------------------------------
@attrs.frozen
class Pick:
    """URB-SETUP-7: keep one character of the draft hand (a simultaneous secret choice)."""

    kind: int

    def __str__(self) -> str:
        return f"pick {character_name(self.kind)}"


@attrs.frozen
class NewHand:
    """URB-ROUND-1: spend a New Hand token (discard the hand, draw 4)."""

    def __str__(self) -> str:
        return "newhand"


@attrs.frozen
class Keep:
    """URB-ROUND-1: keep the hand (spend no New Hand token now)."""

    def __str__(self) -> str:
        return "keep"


@attrs.frozen
class Select:
    """URB-ROUND-2: the secret choice of a card and, optionally, a tile of the supply.

    A card alone is an Exploit; an Urbanization card with a tile an Urbanize; a Building card with
    a tile a Construct."""

    card: int
    tile: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return f"select {card_name(self.card)}"
        return f"select {card_name(self.card)} {tile_name(self.tile)}"


@attrs.frozen
class Take:
    """URB-EXPLOIT-1: an Urbanization card played alone gives a resource or a tile, chosen when it
    resolves."""

    item: str  # "resource" or "tile"

    def __str__(self) -> str:
        return f"take {self.item}"


@attrs.frozen
class Token:
    """URB-URBANIZE-3: where the Urbanization token goes, chosen when the Urbanize resolves."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"token {self.x},{self.y}"


@attrs.frozen
class Give:
    """URB-END-1: give one tile of the supply to the second stack (1 SP)."""

    tile: int

    def __str__(self) -> str:
        return f"give {tile_name(self.tile)}"


@attrs.frozen
class Done:
    """URB-END-1: give no more tiles."""

    def __str__(self) -> str:
        return "done"


# --- chance outcomes -----------------------------------------------------------------------
@attrs.frozen
class Layout:
    """URB-RAND-1: the nine starting tiles in the cells of the 3x3 square, row by row from the top left."""

    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return "layout " + " ".join(tile_name(t) for t in self.tiles)


@attrs.frozen
class DrawCard:
    """URB-RAND-3: the card drawn from the draw pile."""

    card: int

    def __str__(self) -> str:
        return f"card {card_name(self.card)}"


@attrs.frozen
class DrawTile:
    """URB-RAND-2: the tile drawn from the current stack."""

    tile: int

    def __str__(self) -> str:
        return f"tile {tile_name(self.tile)}"


@attrs.frozen
class Deal:
    """URB-RAND-4: the character types dealt to a player, as a sorted multiset."""

    kinds: tuple[int, ...]

    def __str__(self) -> str:
        return "characters " + " ".join(character_name(k) for k in self.kinds)


@attrs.frozen
class FirstPlayer:
    """URB-RAND-5: the seat that takes the First Player card."""

    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


MOVES: tuple[type, ...] = (Pick, NewHand, Keep, Select, Take, Token, Give, Done)
OUTCOMES: tuple[type, ...] = (Layout, DrawCard, DrawTile, Deal, FirstPlayer)
MOVE_TYPES = MOVES + OUTCOMES

KEEP = Keep()
NEW_HAND = NewHand()
DONE = Done()
TAKE_RESOURCE = Take("resource")
TAKE_TILE = Take("tile")


# Move values made once and shared (they are frozen): legal-move lists and random draws make many.
@lru_cache(maxsize=128, typed=True)
def card_selections(card: int) -> tuple[Select, ...]:
    """Every ``Select`` of ``card``: with tile t at index t, alone at index ``TILES`` (made once per
    card: a choice phase lists a dozen selections per player)."""
    return (*(Select(card, t) for t in range(TILES)), Select(card))


draw_card = lru_cache(maxsize=256, typed=True)(DrawCard)
"""``DrawCard(card)``, cached: a random draw at every card drawn."""
draw_tile = lru_cache(maxsize=256, typed=True)(DrawTile)
"""``DrawTile(tile)``, cached: a random draw at every tile drawn."""
token = lru_cache(maxsize=4096, typed=True)(Token)
"""``Token(x, y)``, cached: an Urbanize lists its token's destinations."""
give = lru_cache(maxsize=256, typed=True)(Give)
"""``Give(tile)``, cached: the contribution step lists a supply's tiles."""
pick = lru_cache(maxsize=64, typed=True)(Pick)
"""``Pick(kind)``, cached: the draft lists a hand's characters."""
