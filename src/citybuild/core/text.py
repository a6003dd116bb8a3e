"""Words for people: a count with its noun in the right number, a noun with a or an, and small
values in plain notation.

Every user-visible sentence that counts something or names something with an article goes
through these helpers, so that no message reads "1 legal moves" or "a 8".
"""

from __future__ import annotations

import re

_VOWEL_SOUND = re.compile(r"(?i)(?:[aei]|o(?!ne\b|nce\b)|u(?!ni|se|su|ti|ro|ku)|hour|honest|heir)")
"""Words heard with a vowel first: a vowel letter (not the 'you' of 'unique', 'user', nor the
'w' of 'one') and the silent h of 'hour', 'honest', 'heir'."""
_LETTER_NAME = re.compile(r"[AEFHILMNORSX]")
"""A capital letter read by its name (a tile R7, card F): "an R7", "an F", "a B12"."""
_ELEVEN = re.compile(r"(?:11|18)(?:[0-9]{3})*(?![0-9])")
"""11 and 18, and their thousands (11,000; 18 million), are read "eleven", "eighteen"; 110 is not."""


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` followed by ``noun`` in the right number: ``plural(1, "move")`` is "1 move",
    ``plural(3, "move")`` "3 moves"; ``many`` gives an irregular plural (``"cities"``)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def article(word: str) -> str:
    """``word`` with a or an before it, by its sound: "a tower", "an exploit bonus", "an 8", "a 7",
    "an 11", "a 110", "a unique item", "an hour"."""
    text = str(word)
    digits = re.match(r"[0-9,]+", text)
    if digits:
        number = digits.group().replace(",", "")
        vowel = number.startswith("8") or bool(_ELEVEN.fullmatch(number))
    else:
        spelled = text[:1].isupper() and not text[1:2].islower()  # a letter read by its name
        vowel = bool((_LETTER_NAME if spelled else _VOWEL_SOUND).match(text))
    return f"{'an' if vowel else 'a'} {text}"


def plain(value: object) -> str:
    """A small value as plain notation: an integer as itself, a boolean as 1 or 0, a tuple as its
    items joined by ``/`` (``-`` when empty)."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, tuple):
        return "/".join(plain(v) for v in value) if value else "-"
    return str(value)
