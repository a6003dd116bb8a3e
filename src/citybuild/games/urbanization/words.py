"""The words of Urbanization's notation: cards (``R7``, ``E``), tiles, characters (``BE``) and
cells (``-1,2``), lists of them, and the moves written with them (documented in
docs/games/urbanization.md). Positions are written with these words in ``notation``."""

from __future__ import annotations

import re
from typing import Any

from citybuild.core.errors import NotationError
from citybuild.core.notation import excerpt, move_words, parse_int
from citybuild.games.urbanization.moves import (
    DONE,
    KEEP,
    NEW_HAND,
    Deal,
    DrawCard,
    DrawTile,
    FirstPlayer,
    Give,
    Layout,
    Pick,
    Select,
    Take,
    Token,
)
from citybuild.games.urbanization.position import Cell
from citybuild.games.urbanization.rules import ACTION_LETTERS, COLOUR_LETTERS, LETTERS, NUMBERS, TILES

_TILE = re.compile(r"([RBY])([1-9][0-9]?)")
_CELL = re.compile(r"(0|-?[1-9][0-9]{0,5}),(0|-?[1-9][0-9]{0,5})")


def read_tile(text: str, where: str) -> int:
    match = _TILE.fullmatch(text)
    if not match or not 1 <= int(match.group(2)) <= NUMBERS:
        raise NotationError(
            f"expected a tile such as R7 (colour R, B or Y and a number 1-20), got {excerpt(text)}", where
        )
    return COLOUR_LETTERS.index(match.group(1)) * NUMBERS + int(match.group(2)) - 1


def read_card(text: str, where: str) -> int:
    if len(text) == 1 and text in LETTERS:
        return TILES + LETTERS.index(text)
    match = _TILE.fullmatch(text)
    if not match or not 1 <= int(match.group(2)) <= NUMBERS:
        raise NotationError(f"expected a card: a letter A-L or a Building card such as R7, got {excerpt(text)}", where)
    return read_tile(text, where)


def read_kind(text: str, where: str) -> int:
    if len(text) != 2 or text[0] not in COLOUR_LETTERS or text[1] not in ACTION_LETTERS:
        raise NotationError(
            f"expected a character: colour R/B/Y and action E/U/C (e.g. BE), got {excerpt(text)}", where
        )
    return COLOUR_LETTERS.index(text[0]) * 3 + ACTION_LETTERS.index(text[1])


def read_cell(text: str, where: str) -> Cell:
    match = _CELL.fullmatch(text)
    if not match:
        raise NotationError(f"expected a cell x,y (e.g. 2,-1), got {excerpt(text)}", where)
    return (int(match.group(1)), int(match.group(2)))


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def list_text(items: Any, name: Any) -> str:
    return ".".join(name(i) for i in items) or "-"


def read_list(text: str, reader: Any, where: str, sort: bool = True) -> tuple[int, ...]:
    if text == "-":
        return ()
    items = [reader(part, where) for part in text.split(".")]
    if sort:
        if len(set(items)) != len(items) and reader is not read_kind:
            raise NotationError(f"an item is listed twice in {excerpt(text)}", where)
        items.sort()
    return tuple(items)


# --- moves ---------------------------------------------------------------------------------------
def parse_move(text: str) -> Any:
    """A move or chance outcome from its text, e.g. ``select D R5`` or ``tile B12``."""
    kind, args, where = move_words(text)
    simple = {"newhand": NEW_HAND, "keep": KEEP, "done": DONE}
    if kind in simple:
        if args:
            raise NotationError(f"'{kind}' takes nothing after it", where)
        return simple[kind]
    if kind == "select":
        if len(args) not in (1, 2):
            raise NotationError("expected 'select <card>' or 'select <card> <tile>' (e.g. 'select D R5')", where)
        card = read_card(args[0], where)
        return Select(card, read_tile(args[1], where) if len(args) == 2 else None)
    if kind == "take":
        if len(args) != 1 or args[0] not in ("resource", "tile"):
            raise NotationError("expected 'take resource' or 'take tile'", where)
        return Take(args[0])
    if kind == "token":
        if len(args) != 1:
            raise NotationError("expected 'token x,y' (e.g. 'token 3,1')", where)
        return Token(*read_cell(args[0], where))
    if kind in ("give", "tile"):
        if len(args) != 1:
            raise NotationError(f"expected '{kind} <tile>' (e.g. '{kind} R5')", where)
        tile = read_tile(args[0], where)
        return Give(tile) if kind == "give" else DrawTile(tile)
    if kind == "pick":
        if len(args) != 1:
            raise NotationError("expected 'pick <character>' (e.g. 'pick BE')", where)
        return Pick(read_kind(args[0], where))
    if kind == "card":
        if len(args) != 1:
            raise NotationError("expected 'card <card>' (e.g. 'card R7' or 'card E')", where)
        return DrawCard(read_card(args[0], where))
    if kind == "layout":
        if len(args) != 9:
            raise NotationError("expected 'layout' and the 9 starting tiles, row by row from the top left", where)
        return Layout(tuple(read_tile(a, where) for a in args))
    if kind == "characters":
        if not args:
            raise NotationError("expected 'characters' and the types dealt (e.g. 'characters BE RC RC YU')", where)
        return Deal(tuple(sorted(read_kind(a, where) for a in args)))
    if kind == "first":
        if len(args) != 1:
            raise NotationError("expected 'first <seat>'", where)
        return FirstPlayer(parse_int(args[0], where, 0, 4))
    moves = "pick, newhand, keep, select, take, token, give, done, layout, card, tile, characters, first"
    raise NotationError(f"unknown move {excerpt(text.split()[0])}; moves are {moves}", where)


# --- positions -----------------------------------------------------------------------------------
