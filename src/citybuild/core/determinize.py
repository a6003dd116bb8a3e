"""Positions from views (DESIGN principle 9): a player decides from their view alone.

``determinize(game, view, rng)`` fills in what the player cannot see, uniformly among the
possibilities consistent with the view, through the game's ``GameSpec.determinize`` hook; a game
without hidden information declares no hook, and its view, which holds every field of the
position, is turned back into that position. Bots search from such positions, so they never need
(and never get) the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.errors import RulesError

if TYPE_CHECKING:
    from citybuild.core.game import Game, State

Determinizer = Callable[[Any, random.Random], "State"]

LEGAL_MOVES_SEED = 0
"""The seed of the determinisation that lists a view's legal moves (any consistent position
gives the same list: a player's legal moves depend only on what that player can see)."""


def has_hidden_information(game: Game) -> bool:
    """Whether the game declares a ``determinize`` hook (views hide something from someone)."""
    return game.spec.determinize is not None


def determinizer(game: Game) -> Determinizer:
    """``determinize`` for one game, with its hook looked up once (for loops that call it often)."""
    hook: Determinizer | None = game.spec.determinize
    if hook is None:
        return rebuild
    return hook


def determinize(game: Game, view: Any, rng: random.Random) -> State:
    """A full position consistent with ``view``: what the viewer cannot see is drawn uniformly
    among the possibilities consistent with everything the view shows (DESIGN principle 9).
    The result's ``view(view.player)`` equals ``view``."""
    if getattr(view, "game", None) != game:
        raise RulesError(f"this view belongs to {getattr(view, 'game', None)!r}, not to {game!r}")
    player = getattr(view, "player", None)
    if type(player) is not int or not 0 <= player < game.players:
        raise RulesError(
            f"this view belongs to player {player!r}, who has no seat in a {game.players}-player game of {game.name}"
        )
    if not isinstance(rng, random.Random):
        raise RulesError(f"determinize draws with a random.Random, not {rng!r}")
    return determinizer(game)(view, rng)


@lru_cache(maxsize=64)
def _state_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.init and f.name != "game")


def rebuild(view: Any, rng: random.Random) -> State:
    """The position behind a view that hides nothing: the state class built from the view's fields
    (``determinize`` of a game without the hook; it draws nothing from ``rng``)."""
    game = view.game
    cls: Any = game.spec.state
    missing = [name for name in _state_fields(cls) if not hasattr(view, name)]
    if missing:
        raise RulesError(
            f"{game.name} declares no determinize hook, but its view lacks the position's {', '.join(missing)}"
        )
    state: State = cls(game=game, **{name: getattr(view, name) for name in _state_fields(cls)})
    return state
