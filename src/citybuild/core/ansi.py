"""Colour for boards drawn at a terminal: ANSI escape codes, only when asked for (a game's
``board_text(view, colour)`` hook gets ``colour=False`` when output is piped, ``NO_COLOR`` is set
or the terminal is dumb, and then draws plain text that reads the same)."""

from __future__ import annotations

CODES = {
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "grey": "90",
    "bold": "1",
    "dim": "2",
}
PLAYER_STYLES = ("red", "blue", "yellow", "green", "magenta")
"""Seat (or colour) 0, 1, 2, ... at the terminal, matching the pictures' player colours."""


def paint(text: str, style: str, colour: bool) -> str:
    """``text`` in ``style`` (a name of ``CODES``, or several joined by '+') when ``colour``."""
    if not colour or not text:
        return text
    codes = ";".join(CODES[name] for name in style.split("+"))
    return f"\033[{codes}m{text}\033[0m"


def player_style(index: int) -> str:
    return PLAYER_STYLES[index % len(PLAYER_STYLES)]
