"""Reading text notation: the helpers every game's parser shares.

Text comes from users, records and terminals, so it is read defensively: only short ASCII text is
looked at (megabytes of input or look-alike characters such as '٣' or the Kelvin sign fail at
once), numbers have one spelling, and every failure is a ``NotationError`` that says where and
why, quoting only a short excerpt of the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from citybuild.core.errors import NotationError

MAX_MOVE_TEXT = 1_000
"""The longest move text read (the longest real move is a few hundred characters)."""
MAX_POSITION_TEXT = 100_000
"""The longest position text read (real positions are a few thousand characters at most)."""
MAX_DIGITS = 30
"""The most digits a number in notation may have (Python's own limit, 4300, raises ValueError)."""

_INTEGER = re.compile(r"0|-?[1-9][0-9]*")
_NOT_TEXT = re.compile(r"[^\t\n\r\x20-\x7e]")
"""Anything but printable ASCII and ordinary whitespace."""


def excerpt(text: str, limit: int = 60) -> str:
    """``repr(text)``, cut to about ``limit`` characters, for quoting input in error messages."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def check_text(text: Any, what: str, limit: int) -> str:
    """``text`` if it is a string of at most ``limit`` printable ASCII characters and whitespace;
    otherwise a ``NotationError`` saying what is wrong (before anything reads the text)."""
    if not isinstance(text, str):
        raise NotationError(f"expected {what} text, got {type(text).__name__}")
    if len(text) > limit:
        raise NotationError(f"{what} text is {len(text)} characters long; the limit is {limit}: {excerpt(text)}")
    bad = _NOT_TEXT.search(text)
    if bad:
        char = bad.group()
        raise NotationError(
            f"{char!r} (U+{ord(char):04X}) is not printable ASCII; notation is ASCII text",
            f"{what} word {excerpt(_word_at(text, bad.start()))}",
        )
    return text


def _word_at(text: str, index: int) -> str:
    """The run of text between ASCII whitespace around ``index``."""
    start = max(text.rfind(space, 0, index) for space in " \t\n\r") + 1
    ends = [end for end in (text.find(space, index) for space in " \t\n\r") if end != -1]
    return text[start : min(ends, default=len(text))]


def parse_int(text: str, where: str, low: int | None = None, high: int | None = None) -> int:
    """An integer from notation, with a ``NotationError`` that says where and why.

    Only the canonical form is read (ASCII digits, no '+', no leading zeros, at most
    ``MAX_DIGITS`` digits), so that a position or move has exactly one spelling and its text
    round-trips."""
    if not isinstance(text, str) or len(text) > MAX_DIGITS + 1 or not _INTEGER.fullmatch(text):
        shown = excerpt(text) if isinstance(text, str) else type(text).__name__
        raise NotationError(f"expected an integer of at most {MAX_DIGITS} digits (e.g. 0, 12, -3), got {shown}", where)
    value = int(text)
    if low is not None and high is not None and not low <= value <= high:
        raise NotationError(f"{value} is not between {low} and {high}", where)
    if low is not None and value < low:
        raise NotationError(f"{value} is below the least allowed value {low}", where)
    if high is not None and value > high:
        raise NotationError(f"{value} is above the greatest allowed value {high}", where)
    return value


def move_words(text: Any, limit: int = MAX_MOVE_TEXT) -> tuple[str, list[str], str]:
    """A move's text as (kind in lower case, the other words, a ``where`` for errors)."""
    words = check_text(text, "move", limit).split()
    if not words:
        raise NotationError("empty move text")
    return words[0].lower(), words[1:], f"move {excerpt(text)}"


def parse_fields(text: Any, header: str, keys: Sequence[str], limit: int = MAX_POSITION_TEXT) -> dict[str, str]:
    """The ``key=value`` fields of a one-line position after its ``header`` word (e.g.
    ``manhattan/4``), each key known and given once; ``NotationError`` says what is wrong."""
    words = check_text(text, "position", limit).split()
    if not words:
        raise NotationError("empty position text")
    if words[0] != header:
        raise NotationError(f"expected header {header!r} (game/players), got {excerpt(words[0])}", "header")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in keys:
            raise NotationError(f"unknown field {excerpt(word)}; fields are {', '.join(keys)}", word[:40])
        if key in fields:
            raise NotationError(f"field {key!r} is given twice", key)
        fields[key] = value
    return fields


def split_fields(text: str, count: int, where: str, sep: str = "/") -> list[str]:
    """Exactly ``count`` entries separated by ``sep`` (one per player or colour in a position)."""
    parts = text.split(sep)
    if len(parts) != count:
        raise NotationError(f"expected {count} entries separated by {sep!r}, got {len(parts)}: {excerpt(text)}", where)
    return parts
