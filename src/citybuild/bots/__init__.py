"""Bots that play every game from views: ``random``, ``greedy`` and ``ismcts``, and the levels
``easy``, ``normal`` and ``hard`` made of them for people.

A bot receives a player's view and a ``random.Random``; it never sees a ``State``, so it cannot
cheat, and the same view with the same seed gives the same choice. ``arena`` plays bots against
each other with seats rotated; ``play_game`` plays one game.

Examples:
    >>> import citybuild as cb
    >>> bot = cb.bots.load("ismcts", iterations=200)
    >>> bot.choose(view, rng)  # doctest: +SKIP
"""

from citybuild.bots.arena import ArenaResult, GameResult, Standing, arena, bot_rng, play_game, step
from citybuild.bots.base import Bot, from_text, label, load, names, register
from citybuild.bots.greedy import GreedyBot
from citybuild.bots.ismcts import IsmctsBot
from citybuild.bots.levels import LABELS, LEVELS, LevelBot
from citybuild.bots.levels import factory as _level
from citybuild.bots.randombot import RandomBot

register("random", RandomBot)
register("greedy", GreedyBot)
register("ismcts", IsmctsBot, positional="iterations")
for _name in LEVELS:
    register(_name, _level(_name))

__all__ = [
    "LABELS",
    "LEVELS",
    "ArenaResult",
    "Bot",
    "GameResult",
    "GreedyBot",
    "IsmctsBot",
    "LevelBot",
    "RandomBot",
    "Standing",
    "arena",
    "bot_rng",
    "from_text",
    "label",
    "load",
    "names",
    "play_game",
    "register",
    "step",
]
