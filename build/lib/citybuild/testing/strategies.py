"""Hypothesis strategies over every registered game: games, reachable states, legal and illegal moves."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from citybuild.core.game import Game, State
from citybuild.core.registry import games as game_names
from citybuild.core.registry import load, spec
from citybuild.testing.candidates import illegal_candidates


@st.composite
def games(draw: st.DrawFn, names: tuple[str, ...] | None = None) -> Game:
    """A loaded game: any registered game (or one of ``names``), any preset, any player count.

    Games are looked up when drawing, so a game registered at run time is included."""
    name = draw(st.sampled_from(names or game_names()))
    game_spec = spec(name)
    preset = draw(st.sampled_from(tuple(game_spec.presets)))
    players = draw(st.integers(game_spec.min_players, game_spec.max_players))
    return load(name, players=players, preset=preset)


def play_random(state: State, seed: int, steps: int) -> State:
    """``state`` after up to ``steps`` random legal moves and sampled chance outcomes (seeded), each
    step by ``State.random_step``: the game's own sampler, which need not list every move or outcome."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.random_step(rng)
    return state


@st.composite
def states(draw: st.DrawFn, game: Game | str | None = None, max_steps: int = 400) -> State:
    """A position reached by random legal play from a drawn seed, after a drawn number of steps
    (shrinking towards the opening). ``game`` may be a Game, a name, or None for any game."""
    if game is None:
        game = draw(games())
    elif isinstance(game, str):
        game = load(game)
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(0, max_steps))
    return play_random(game.initial_state(), seed, steps)


def _actor(state: State, player: int | None) -> int | None:
    if player is None and not state.is_chance and state.to_act:
        return state.to_act[0]
    return player


def _outcomes(state: State) -> st.SearchStrategy[Any]:
    """An outcome of the pending chance event, drawn with its probability by ``state.random_move``
    from a drawn seed (a big dice roll has too many outcomes to list)."""
    return st.integers(0, 2**32 - 1).map(lambda seed: state.random_move(random.Random(seed)))


def legal_moves(state: State, player: int | None = None) -> st.SearchStrategy[Any]:
    """One of the legal moves of ``player`` (default: the first player to act; at a chance
    state, an outcome). Nothing can be drawn at the end of a game."""
    if state.is_chance and player is None:
        return _outcomes(state)
    moves = state.legal_moves(_actor(state, player))
    return st.sampled_from(moves) if moves else st.nothing()


def illegal_moves(state: State, player: int | None = None) -> st.SearchStrategy[Any]:
    """A well-formed move that the rules refuse for ``player`` here (default: the first player to
    act): legal moves of other positions of the game, and legal moves with one number nudged."""
    candidates = illegal_candidates(state, _actor(state, player), limit=40, rng=random.Random(0))
    return st.sampled_from(candidates) if candidates else st.nothing()


@st.composite
def plays(draw: st.DrawFn, state: State) -> tuple[int | None, Any]:
    """A legal ``(player, move)`` pair; the player is None at a chance state."""
    if state.is_chance:
        return None, draw(_outcomes(state))
    if not state.to_act:
        return draw(st.nothing())
    player = draw(st.sampled_from(state.to_act))
    return player, draw(st.sampled_from(state.legal_moves(player)))
