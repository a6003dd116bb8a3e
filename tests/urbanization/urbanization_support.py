"""Shared helpers for the Urbanization tests (tests/urbanization): loading games, writing positions
in the notation of docs/games/urbanization.md, naming tiles and cards, and driving chance events."""

from __future__ import annotations

import random
from typing import Any

import citybuild as cb
from citybuild.games.urbanization import UrbanizationGame, UrbanizationState
from citybuild.games.urbanization.words import read_card, read_kind, read_tile


def game(players: int = 3, preset: str = "standard", **overrides: Any) -> UrbanizationGame:
    loaded = cb.load("urbanization", players=players, preset=preset, **overrides)
    assert isinstance(loaded, UrbanizationGame)
    return loaded


def pos(text: str, players: int = 2, **overrides: Any) -> UrbanizationState:
    """A hand-written position; the header is added when missing."""
    if not text.startswith("urbanization/"):
        text = f"urbanization/{players} {text}"
    return game(players, **overrides).parse_state(text)


def tile(name: str) -> int:
    return read_tile(name, "test")


def card(name: str) -> int:
    return read_card(name, "test")


def kind(name: str) -> int:
    return read_kind(name, "test")


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


def tiles(*names: str) -> tuple[int, ...]:
    return tuple(sorted(tile(n) for n in names))


def stack_names(state: UrbanizationState, cell: tuple[int, int]) -> list[str]:
    """The tiles of the building on ``cell``, bottom to top, by name."""
    from citybuild.games.urbanization.rules import tile_name

    building = state.building_at(cell)
    assert building is not None, f"no building on {cell}"
    return [tile_name(f.tile) for f in building]


def owner_at(state: UrbanizationState, cell: tuple[int, int]) -> int | None:
    building = state.building_at(cell)
    assert building is not None
    return building[-1].owner


def play(state: UrbanizationState, *moves: str | tuple[int, str]) -> UrbanizationState:
    """Play moves given as text (the only player to act, or chance) or as (player, text)."""
    for move in moves:
        state = state.play(move[1], move[0]) if isinstance(move, tuple) else state.play(move)
    return state


def through_chance(state: UrbanizationState, rng: random.Random) -> UrbanizationState:
    """Resolve chance events with ``rng`` until a player must decide or the game ends."""
    while state.is_chance:
        state = state.play(state.random_move(rng))
    return state


def random_until(state: UrbanizationState, phase: str, rng: random.Random, limit: int = 5000) -> UrbanizationState:
    """Random play until the game reaches ``phase`` (or ends)."""
    for _ in range(limit):
        if state.phase == phase or state.is_over:
            return state
        state = state.random_step(rng)
    raise AssertionError(f"phase {phase} not reached")
