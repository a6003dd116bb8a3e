"""Bots that play every game from views: ``random``, ``greedy`` and ``ismcts``.

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
from citybuild.bots.randombot import RandomBot

register("random", RandomBot)
register("greedy", GreedyBot)
register("ismcts", IsmctsBot, positional="iterations")

__all__ = [
    "ArenaResult",
    "Bot",
    "GameResult",
    "GreedyBot",
    "IsmctsBot",
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
