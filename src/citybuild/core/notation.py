"""Reading text notation: the helpers every game's parser shares, each failure a
``NotationError`` that says where and why."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from citybuild.core.errors import NotationError

_INTEGER = re.compile(r"0|-?[1-9][0-9]*")


def parse_int(text: str, where: str, low: int | None = None, high: int | None = None) -> int:
    """An integer from notation, with a ``NotationError`` that says where and why.

    Only the canonical form is read (ASCII digits, no '+', no leading zeros), so that a
    position or move has exactly one spelling and its text round-trips."""
    if not isinstance(text, str) or not _INTEGER.fullmatch(text) or len(text) > 30:
        raise NotationError(f"expected an integer written plainly (e.g. 0, 12, -3), got {text!r}", where)
    value = int(text)
    if low is not None and high is not None and not low <= value <= high:
        raise NotationError(f"{value} is not between {low} and {high}", where)
    if low is not None and value < low:
        raise NotationError(f"{value} is below the least allowed value {low}", where)
    if high is not None and value > high:
        raise NotationError(f"{value} is above the greatest allowed value {high}", where)
    return value


def move_words(text: Any) -> tuple[str, list[str], str]:
    """A move's text as (kind in lower case, the other words, a ``where`` for errors)."""
    if not isinstance(text, str):
        raise NotationError(f"expected move text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty move text")
    return words[0].lower(), words[1:], f"move {text!r}"


def parse_fields(text: Any, header: str, keys: Sequence[str]) -> dict[str, str]:
    """The ``key=value`` fields of a one-line position after its ``header`` word (e.g.
    ``manhattan/4``), each key known and given once; ``NotationError`` says what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"expected position text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty position text")
    if words[0] != header:
        raise NotationError(f"expected header {header!r} (game/players), got {words[0]!r}", "header")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in keys:
            raise NotationError(f"unknown field {word!r}; fields are {', '.join(keys)}", word)
        if key in fields:
            raise NotationError(f"field {key!r} is given twice", key)
        fields[key] = value
    return fields


def split_fields(text: str, count: int, where: str, sep: str = "/") -> list[str]:
    """Exactly ``count`` entries separated by ``sep`` (one per player or colour in a position)."""
    parts = text.split(sep)
    if len(parts) != count:
        raise NotationError(f"expected {count} entries separated by {sep!r}, got {len(parts)}: {text!r}", where)
    return parts
