"""Difficulty levels for people: ``easy``, ``normal`` and ``hard``, each a fixed bot.

A player cannot judge ``ismcts:1000`` or ``greedy:epsilon=0.2``; a level names a strength instead.
Each level is fixed by counts and shares, never by a time budget, so it plays alike on every
machine and a seed replays its games. The arena calibrated them (``benchmarks/bench_bots.py
--levels``): each beats the one below in most 2-player games of every title.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from citybuild.bots.base import Bot, from_text

LEVELS: dict[str, str] = {
    "easy": "greedy:epsilon=0.8",
    "normal": "greedy:epsilon=0.2",
    "hard": "ismcts:1000",
}
"""Each level and the bot it is, as a bot text, weakest first."""

LABELS: dict[str, str] = {
    "easy": "easy: a beginner, often careless",
    "normal": "normal: sound, now and then careless",
    "hard": "hard: thinks ahead (about a second a move)",
}
"""Each level in plain words, for menus."""


@attrs.frozen
class LevelBot:
    """A level: plays exactly as its bot, under the level's name."""

    level: str
    bot: Bot = attrs.field(repr=False)

    @property
    def label(self) -> str:
        return self.level

    def choose(self, view: Any, rng: random.Random) -> Any:
        return self.bot.choose(view, rng)


def level(name: str) -> LevelBot:
    """The bot of level ``name`` (one of ``LEVELS``)."""
    return LevelBot(name, from_text(LEVELS[name]))


def factory(name: str) -> Any:
    """What ``register`` takes for level ``name``: a bot maker with no options."""

    def make() -> LevelBot:
        return level(name)

    make.__name__ = make.__qualname__ = name
    return make
