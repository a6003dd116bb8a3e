"""Candidate moves for negative tests: well-formed moves that may or may not be legal here.

Generic over games: candidates are legal moves seen in other positions of the same game, and
legal moves of this position with one integer field nudged. A candidate is well-formed when its
notation reads back to itself, so every candidate is something a user could actually type.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from citybuild.core.game import Game, State


def well_formed(game: Game, move: Any) -> bool:
    """Whether ``move``'s notation reads back to the same move in ``game``."""
    try:
        return bool(game.parse_move(str(move)) == move)
    except Exception:  # unreadable notation (or a game whose str trips on odd values): not well-formed
        return False


def mutations(move: Any) -> list[Any]:
    """Copies of an attrs move with one integer field changed by -1, +1 or +2."""
    if not attrs.has(type(move)):
        return []
    out: list[Any] = []
    for field in attrs.fields(type(move)):
        if not field.init:
            continue
        value = getattr(move, field.name)
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        for delta in (-1, 1, 2):
            try:
                out.append(attrs.evolve(move, **{field.name: value + delta}))
            except Exception:  # a converter or validator refused the value: no candidate
                continue
    return out


@functools.lru_cache(maxsize=32)
def seen_moves(game: Game, playouts: int = 2, seed: int = 0) -> dict[str, Any]:
    """Legal moves and chance outcomes met along a few random games, by repr (remembered for the
    last few games: the kit asks for every position it checks)."""
    rng = random.Random(seed)
    seen: dict[str, Any] = {}
    for _ in range(playouts):
        state = game.initial_state()
        steps = 0
        while not state.is_over and steps < 5000:
            if state.is_chance:  # a few sampled outcomes: a big dice roll has too many to list
                outcomes = [state.random_move(rng) for _ in range(4)]
                for outcome in outcomes:
                    seen.setdefault(repr(outcome), outcome)
                state = state.play(outcomes[0])
            else:
                player = state.to_act[int(rng.random() * len(state.to_act))]
                moves = state.legal_moves(player)
                for move in moves[:: max(1, len(moves) // 8)]:
                    seen.setdefault(repr(move), move)
                state = state.play(moves[int(rng.random() * len(moves))], player)
            steps += 1
    return seen


def illegal_candidates(
    state: State,
    player: int | None = None,
    extra: Iterable[Any] = (),
    limit: int | None = None,
    rng: random.Random | None = None,
    pool: dict[str, Any] | None = None,
) -> list[Any]:
    """Well-formed moves that are not among ``state.legal_moves(player)``, so the rules must refuse
    them (``player`` defaults to the sole player to act, or nobody at a chance state). They come from
    moves seen elsewhere in the game (or ``pool``, by repr) and from nudged legal moves. With
    ``limit``, stop after that many, taking candidates in an order drawn from ``rng``."""
    game = state.game
    legal = state.legal_moves(player)
    try:
        legal_set: set[Any] = set(legal)
    except TypeError:  # unhashable moves: compare by repr
        legal_set = {repr(m) for m in legal}
        hashable = False
    else:
        hashable = True
    found: dict[str, Any] = dict(seen_moves(game) if pool is None else pool)
    found.update((repr(m), m) for m in extra)
    for move in _pick(legal, 12, rng):
        found.update((repr(m), m) for m in mutations(move))
    order = [m for key, m in found.items() if (m if hashable else key) not in legal_set]
    if rng is not None:
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with random() only
            j = int(rng.random() * (i + 1))
            order[i], order[j] = order[j], order[i]
    if limit is not None:
        order = order[: 4 * limit]  # enough tries to find ``limit`` refusals, without checking the whole pool
    return [m for m in order if well_formed(game, m)][:limit]


def _pick(items: Sequence[Any], k: int, rng: random.Random | None) -> tuple[Any, ...]:
    if len(items) <= k:
        return tuple(items)
    if rng is None:
        step = len(items) / k
        return tuple(items[int(i * step)] for i in range(k))
    return tuple(items[int(rng.random() * len(items))] for _ in range(k))
