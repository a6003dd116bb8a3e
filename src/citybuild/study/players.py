"""The players of a study, named by bot texts: ``random``, ``greedy``, ``ismcts:200``.

``random`` is uniform random play, which a study runs as the engine's own fast ``playout`` when
every seat of a game is random. Any other text is a bot of ``citybuild.bots`` (``from_text``), when
this citybuild has that package; without it, ``random`` is the only player.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from citybuild.core.errors import RulesError

RANDOM = "random"


def is_random(text: str) -> bool:
    return text == RANDOM


def bots_module() -> ModuleType | None:
    """``citybuild.bots``, or None when this citybuild has no bots."""
    try:
        return importlib.import_module("citybuild.bots")
    except ModuleNotFoundError:
        return None


def check_bot(text: str) -> None:
    """Refuse, with ``RulesError``, a bot text that names no bot (before any game is played)."""
    if is_random(text):
        return
    bots = bots_module()
    if bots is None:
        raise RulesError(f"unknown bot {text!r}: this citybuild has no citybuild.bots, so 'random' is the only player")
    bots.from_text(text)


def make_bot(text: str) -> Any:
    """The bot a text names (``citybuild.bots.from_text``)."""
    bots = bots_module()
    if bots is None:
        raise RulesError(f"unknown bot {text!r}: this citybuild has no citybuild.bots")
    return bots.from_text(text)
