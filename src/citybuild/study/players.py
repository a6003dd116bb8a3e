"""The players of a study, named by bot texts: ``random``, ``greedy``, ``ismcts:200``.

Every text is a bot of ``citybuild.bots`` (``from_text``). ``random`` is uniform random play, which
a study runs as the engine's own fast ``playout`` when every seat of a game is random (the same
distribution as the ``random`` bot, drawn without making a view at each decision).
"""

from __future__ import annotations

from citybuild.bots import Bot, from_text

RANDOM = "random"


def is_random(text: str) -> bool:
    return text == RANDOM


def check_bot(text: str) -> None:
    """Refuse, with ``RulesError``, a bot text that names no bot (before any game is played)."""
    from_text(text)


def make_bot(text: str) -> Bot:
    """The bot a text names."""
    return from_text(text)
