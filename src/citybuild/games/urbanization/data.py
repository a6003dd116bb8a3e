"""The card and character data files, read and validated through cattrs (URB-CARD-1, URB-CHAR-1/2).

The bonuses of the 60 Building cards and the copies and starting items of the characters are
transcribed data, unchecked against the printed cards; they live in JSON files shipped with the
package so that a user with the printed cards corrects a file (``cards_data_path``,
``characters_data_path``), not the code. A file that cannot be read, or that breaks the shape the
rules need, is a ``RulesError`` saying which file and where (a JSON path such as
``$.cards[12].points``).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from typing import Any

import attrs
import cattrs
from cattrs.v import transform_error

from citybuild.core.errors import RulesError
from citybuild.core.rules import MAX_DATA_BYTES, read_data_text

COLOURS = ("red", "blue", "yellow")
"""Tile and card colours in the engine's order (red gives resources, blue tiles, yellow SP)."""
ACTIONS = ("exploit", "urbanize", "construct")
END_KINDS = ("tops", "height", "action", "colour", "flat")
MAX_NUMBER = 20


@attrs.frozen(kw_only=True)
class CardEntry:
    """One Building card: a permanent ``bonus`` (gains on each action of that kind) or an ``end``
    bonus (points at the end)."""

    card: str
    bonus: str | None = None
    resources: int = 0
    tiles: int = 0
    sp: int = 0
    end: str | None = None
    colour: str | None = None
    action: str | None = None
    min_height: int | None = None
    max_height: int | None = None
    points: int = 0


@attrs.frozen(kw_only=True)
class CardsFile:
    cards: tuple[CardEntry, ...]
    comment: str = ""


@attrs.frozen(kw_only=True)
class CharacterEntry:
    """One (colour, action) type of character: how many copies exist and its starting items."""

    colour: str
    action: str
    copies: int
    resources: int = 0
    sp: int = 0
    tiles: int = 0


@attrs.frozen(kw_only=True)
class CharactersFile:
    characters: tuple[CharacterEntry, ...]
    comment: str = ""


@attrs.frozen
class CardTable:
    """The Building cards compiled for the engine, indexed by card id (colour * 20 + number - 1).

    ``bonus[card]`` is (action index or -1, resources, tiles, SP); ``end[card]`` is
    (kind, colour index or action index or -1, min height, max height, points) or None."""

    bonus: tuple[tuple[int, int, int, int], ...]
    end: tuple[tuple[str, int, int, int, int] | None, ...]
    by_action: tuple[tuple[int, ...], ...]
    """Per action, the cards whose permanent bonus fires on it."""


@attrs.frozen
class CharacterTable:
    """Characters compiled for the engine, by type (colour * 3 + action)."""

    copies: tuple[int, ...]
    start: tuple[tuple[int, int, int], ...]
    """Per type, the starting (resources, SP, tiles)."""

    @property
    def total(self) -> int:
        return sum(self.copies)


_converter = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)


def _strict(kind: type, name: str) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise ValueError(f"expected {name}, got {json.dumps(value)}")
        return value

    return structure


_converter.register_structure_hook(int, _strict(int, "an integer"))
_converter.register_structure_hook(str, _strict(str, "a string"))


def bundled(name: str) -> str:
    """The path of a data file shipped with the package."""
    return str(resources.files("citybuild.games.urbanization") / "data" / name)


def _read(path: str, kind: type, option: str, text: str | None = None) -> Any:
    """The document of ``path``, or ``text`` when given (a data file's content held in the rules)."""
    if text is None:
        data = read_data_text(path, option).encode("utf-8")  # size-limited as it is read
    elif type(text) is not str:
        raise RulesError(f"{option}: expected the text of a JSON document, not {type(text).__name__}")
    else:
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_DATA_BYTES:
            raise RulesError(f"{option}: the text is larger than {MAX_DATA_BYTES:,} bytes, more than a data file holds")
    try:
        raw = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise RulesError(f"{option}: {path!r} is not JSON: {exc}") from exc
    try:
        return _converter.structure(raw, kind)
    except Exception as exc:
        messages = transform_error(exc, path="$") if isinstance(exc, cattrs.BaseValidationError) else [str(exc)]
        raise RulesError(f"{option}: {path!r} is malformed: " + "; ".join(messages)) from exc


def _problem(option: str, path: str, where: str, message: str) -> RulesError:
    return RulesError(f"{option}: {path!r} is malformed: {message} @ {where}")


def _stamp(path: str) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return (info.st_mtime_ns, info.st_size)


def load_cards(path: str | None, text: str | None = None) -> CardTable:
    """The card table of ``text`` (a data file's content), else of ``path`` (None: the bundled
    file); ``RulesError`` says where it is wrong."""
    if text is not None:
        return _load_cards("the cards_data text", (0, 0), text)
    real = bundled("cards.json") if path is None else path
    return _load_cards(real, _stamp(real), None)


def load_characters(path: str | None, text: str | None = None) -> CharacterTable:
    """The character table of ``text``, else of ``path`` (None: the bundled file)."""
    if text is not None:
        return _load_characters("the characters_data text", (0, 0), text)
    real = bundled("characters.json") if path is None else path
    return _load_characters(real, _stamp(real), None)


@lru_cache(maxsize=32)
def _load_cards(path: str, stamp: tuple[int, int], text: str | None) -> CardTable:
    option = "cards_data_path" if text is None else "cards_data"
    data: CardsFile = _read(path, CardsFile, option, text)
    bonus: list[tuple[int, int, int, int] | None] = [None] * 60
    end: list[tuple[str, int, int, int, int] | None] = [None] * 60
    seen: set[int] = set()
    for i, entry in enumerate(data.cards):
        where = f"$.cards[{i}]"
        card = _card_id(entry.card)
        if card is None:
            raise _problem(option, path, where + ".card", f"{entry.card!r} is not a card (R1..R20, B1..B20, Y1..Y20)")
        if card in seen:
            raise _problem(option, path, where + ".card", f"card {entry.card} is listed twice")
        seen.add(card)
        for field in ("resources", "tiles", "sp", "points"):
            if not 0 <= getattr(entry, field) <= 99:
                raise _problem(option, path, f"{where}.{field}", "must be an integer from 0 to 99")
        if (entry.bonus is None) == (entry.end is None):
            raise _problem(option, path, where, "a card has exactly one of 'bonus' (permanent) and 'end' (final)")
        if entry.bonus is not None:
            if entry.bonus not in ACTIONS:
                raise _problem(option, path, where + ".bonus", f"{entry.bonus!r} is not one of {', '.join(ACTIONS)}")
            if entry.end is None and (entry.colour or entry.action or entry.min_height or entry.max_height):
                raise _problem(option, path, where, "a permanent bonus takes only resources, tiles and sp")
            bonus[card] = (ACTIONS.index(entry.bonus), entry.resources, entry.tiles, entry.sp)
            continue
        kind = entry.end
        if kind not in END_KINDS:
            raise _problem(option, path, where + ".end", f"{kind!r} is not one of {', '.join(END_KINDS)}")
        if entry.resources or entry.tiles or entry.sp:
            raise _problem(option, path, where, "an end bonus gives points, not resources, tiles or sp")
        param = -1
        if kind in ("tops", "colour"):
            if entry.colour not in COLOURS:
                raise _problem(option, path, where + ".colour", f"must be one of {', '.join(COLOURS)}")
            param = COLOURS.index(entry.colour)
        elif entry.colour is not None:
            raise _problem(option, path, where + ".colour", f"an end bonus of kind {kind!r} takes no colour")
        if kind == "action":
            if entry.action not in ACTIONS:
                raise _problem(option, path, where + ".action", f"must be one of {', '.join(ACTIONS)}")
            param = ACTIONS.index(entry.action)
        elif entry.action is not None:
            raise _problem(option, path, where + ".action", f"an end bonus of kind {kind!r} takes no action")
        low, high = 0, 0
        if kind == "height":
            low = entry.min_height if entry.min_height is not None else 1
            high = entry.max_height if entry.max_height is not None else 0  # 0: no upper bound
            if low < 1 or (high and high < low):
                raise _problem(option, path, where, "heights: min_height >= 1 and max_height >= min_height (or absent)")
        elif entry.min_height is not None or entry.max_height is not None:
            raise _problem(option, path, where, f"an end bonus of kind {kind!r} takes no heights")
        end[card] = (kind, param, low, high, entry.points)
    missing = [_card_name(c) for c in range(60) if c not in seen]
    if missing:
        raise _problem(option, path, "$.cards", f"cards missing: {', '.join(missing[:10])}")
    bonuses = tuple(b if b is not None else (-1, 0, 0, 0) for b in bonus)
    by_action = tuple(tuple(c for c in range(60) if bonuses[c][0] == a) for a in range(3))
    return CardTable(bonuses, tuple(end), by_action)


@lru_cache(maxsize=32)
def _load_characters(path: str, stamp: tuple[int, int], text: str | None) -> CharacterTable:
    option = "characters_data_path" if text is None else "characters_data"
    data: CharactersFile = _read(path, CharactersFile, option, text)
    copies = [0] * 9
    start: list[tuple[int, int, int]] = [(0, 0, 0)] * 9
    seen: set[int] = set()
    for i, entry in enumerate(data.characters):
        where = f"$.characters[{i}]"
        if entry.colour not in COLOURS:
            raise _problem(option, path, where + ".colour", f"must be one of {', '.join(COLOURS)}")
        if entry.action not in ACTIONS:
            raise _problem(option, path, where + ".action", f"must be one of {', '.join(ACTIONS)}")
        kind = COLOURS.index(entry.colour) * 3 + ACTIONS.index(entry.action)
        if kind in seen:
            raise _problem(option, path, where, f"({entry.colour}, {entry.action}) is listed twice")
        seen.add(kind)
        if not 0 <= entry.copies <= 27:
            raise _problem(option, path, where + ".copies", "must be an integer from 0 to 27")
        for field in ("resources", "sp", "tiles"):
            if not 0 <= getattr(entry, field) <= 3:  # 3 characters x 3 tiles x 5 players fit the stack
                raise _problem(option, path, f"{where}.{field}", "must be an integer from 0 to 3")
        copies[kind] = entry.copies
        start[kind] = (entry.resources, entry.sp, entry.tiles)
    total = sum(copies)
    if total < 20:  # a five-player draft deals 4 each
        raise _problem(option, path, "$.characters", f"{total} characters in all; at least 20 are needed")
    return CharacterTable(tuple(copies), tuple(start))


def _card_id(name: Any) -> int | None:
    if not isinstance(name, str) or len(name) < 2 or name[0] not in "RBY" or not name[1:].isdigit():
        return None
    if name[1] == "0" or not 1 <= int(name[1:]) <= MAX_NUMBER:
        return None
    return "RBY".index(name[0]) * MAX_NUMBER + int(name[1:]) - 1


def _card_name(card: int) -> str:
    return f"{'RBY'[card // MAX_NUMBER]}{card % MAX_NUMBER + 1}"
