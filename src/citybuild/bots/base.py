"""What every bot is, and how bots are found by name.

A bot is any object with ``choose(view, rng) -> move``: it receives a player's view (never a
``State``, so it cannot see what the player cannot) and a ``random.Random``, its only source of
randomness, so that a seed makes its choices reproducible. Bots are loaded by name with options
(``load("ismcts", iterations=1000)``) or from a short text (``from_text("ismcts:1000")``) as the
command line and the arena write them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from citybuild.core.errors import RulesError
from citybuild.core.game import State
from citybuild.core.view import View


@runtime_checkable
class Bot(Protocol):
    """A player that decides from views."""

    def choose(self, view: Any, rng: random.Random) -> Any:
        """A legal move for ``view.player``, who must be to act in the position behind ``view``."""
        ...


BotFactory = Callable[..., Bot]

_FACTORIES: dict[str, tuple[BotFactory, str | None]] = {}


def register(name: str, factory: BotFactory, positional: str | None = None) -> None:
    """Make ``factory(**options)`` loadable as ``name``; ``positional`` names the option a bare
    number sets in a bot's text (``ismcts:1000`` sets ``iterations``)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise RulesError(f"a bot name must be a word, not {name!r}")
    _FACTORIES[name] = (factory, positional)


def names() -> tuple[str, ...]:
    """The names ``load`` knows, sorted."""
    return tuple(sorted(_FACTORIES))


def load(name: str, **options: Any) -> Bot:
    """A bot by name, with its options: ``load("random")``, ``load("ismcts", iterations=200)``."""
    if not isinstance(name, str) or name not in _FACTORIES:
        raise RulesError(f"unknown bot {name!r}; bots are: {', '.join(names())}")
    factory, _ = _FACTORIES[name]
    try:
        return factory(**options)
    except TypeError as exc:
        raise RulesError(f"bot {name!r}: {exc}") from None


def from_text(text: str) -> Bot:
    """A bot from its short text: a name, then options after colons, each ``key=value`` or, for
    the bot's main option, a bare number: ``random``, ``greedy``, ``ismcts:1000``,
    ``ismcts:iterations=500:rollout_depth=4``, ``ismcts:time=0.5``."""
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"expected a bot such as 'random', 'greedy' or 'ismcts:1000', not {text!r}")
    name, *parts = text.strip().split(":")
    if name not in _FACTORIES:
        raise RulesError(f"unknown bot {name!r} in {text!r}; bots are: {', '.join(names())}")
    positional = _FACTORIES[name][1]
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            if positional is None:
                raise RulesError(f"bot {name!r} takes no bare value ({part!r} in {text!r}); write key=value")
            key, value = positional, part
        options[key.strip()] = _value(value.strip(), text)
    return load(name, **options)


def _value(text: str, where: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text in ("none", "None"):
        return None
    if text in ("true", "false"):
        return text == "true"
    raise RulesError(f"option value {text!r} in {where!r} is not a number, true, false or none")


def label(bot: Any) -> str:
    """A short name for a bot in tables: its ``label`` attribute, or its class name."""
    text = getattr(bot, "label", None)
    return text if isinstance(text, str) else type(bot).__name__


def require_moves(view: Any) -> Sequence[Any]:
    """The viewer's legal moves; ``RulesError`` when given a state rather than a view, or when the
    viewer is not to act."""
    if isinstance(view, State):
        raise RulesError("bots decide from a player's view, never from a state: pass state.view(player)")
    if not isinstance(view, View):
        raise RulesError(f"bots decide from a player's view (state.view(player)), not from {type(view).__name__}")
    moves = view.legal_moves()
    if not len(moves):
        raise RulesError(f"P{view.player} has no move to choose in this position (not to act, or the game is over)")
    return moves


def check_rng(rng: Any) -> random.Random:
    if not isinstance(rng, random.Random):
        raise RulesError(f"a bot needs a random.Random as its source of randomness, not {rng!r}")
    return rng
