"""Decisions from views (DESIGN principle 9): determinisation, a view's legal moves, evaluation.

A player decides from their view alone. ``determinize(game, view, rng)`` fills in what the player
cannot see, uniformly among the possibilities consistent with the view, through the game's
``GameSpec.determinize`` hook; a game without hidden information declares no hook, and its view,
which holds every field of the position, is turned back into that position. Bots search from
such positions, so they never need (and never get) the real one.

``evaluate`` answers, per player, the points a position is worth: points so far plus what the
position promises, through the game's ``GameSpec.evaluate`` hook (the points so far when a game
declares none). It reads an engine, not a frozen state, so that search can call it at every leaf.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError

if TYPE_CHECKING:
    from citybuild.core.game import Game, State

Determinizer = Callable[[Any, random.Random], "State"]
Evaluator = Callable[[Engine], Sequence[float]]

LEGAL_MOVES_SEED = 0
"""The seed of the determinisation that lists a view's legal moves (any consistent position
gives the same list: a player's legal moves depend only on what that player can see)."""


class View:
    """What a game's view classes inherit: ``legal_moves()`` from the view alone.

    A view class is a frozen attrs class with a ``player`` field (who looks) and a ``game`` field
    (the game whose rules the view is read under); the position behind it is whatever the game's
    ``determinize`` hook makes of it."""

    __slots__ = ()

    player: int
    game: Any

    def legal_moves(self) -> Sequence[Any]:
        """The viewer's legal moves, equal to ``state.legal_moves(player)`` on the real position
        (none when the viewer is not to act)."""
        game = self.game
        if game is None:
            raise RulesError(
                f"this {type(self).__name__} names no game (it was built by hand or read from an old "
                "document), so its rules are unknown; build views with state.view(player)"
            )
        state = determinize(game, self, random.Random(LEGAL_MOVES_SEED))
        return state.legal_moves(self.player)


def _hook(game: Game, name: str) -> Any:
    from citybuild.core.registry import spec

    return getattr(spec(game.name), name)


def has_hidden_information(game: Game) -> bool:
    """Whether the game declares a ``determinize`` hook (views hide something from someone)."""
    return _hook(game, "determinize") is not None


def determinizer(game: Game) -> Determinizer:
    """``determinize`` for one game, with its hook looked up once (for loops that call it often)."""
    hook: Determinizer | None = _hook(game, "determinize")
    if hook is None:
        return _rebuild
    return hook


def determinize(game: Game, view: Any, rng: random.Random) -> State:
    """A full position consistent with ``view``: what the viewer cannot see is drawn uniformly
    among the possibilities consistent with everything the view shows (DESIGN principle 9).
    The result's ``view(view.player)`` equals ``view``."""
    if getattr(view, "game", None) != game:
        raise RulesError(f"this view belongs to {getattr(view, 'game', None)!r}, not to {game!r}")
    return determinizer(game)(view, rng)


@cache
def _state_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.init and f.name != "game")


def _rebuild(view: Any, rng: random.Random) -> State:
    """The position behind a view that hides nothing: the state class built from the view's fields."""
    game = view.game
    cls: Any = _hook(game, "state")  # the state class the game's spec declares
    missing = [name for name in _state_fields(cls) if not hasattr(view, name)]
    if missing:
        raise RulesError(
            f"{game.name} declares no determinize hook, but its view lacks the position's {', '.join(missing)}"
        )
    state: State = cls(game=game, **{name: getattr(view, name) for name in _state_fields(cls)})
    return state


def evaluator(game: Game) -> Evaluator:
    """The game's ``evaluate`` hook, or the points so far when it declares none."""
    hook: Evaluator | None = _hook(game, "evaluate")
    return hook if hook is not None else points_so_far


def points_so_far(engine: Engine) -> tuple[float, ...]:
    """Each player's points in the position (what ``State.scores()`` totals)."""
    return tuple(float(t) for t in engine.copy().freeze().scores().totals)
