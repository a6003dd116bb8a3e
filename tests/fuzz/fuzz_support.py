"""Shared ground for the fuzz tests: real notations of every game, preset and player count, and a
hypothesis strategy that mutates text the way a hostile or careless user would.

Example counts are kept moderate so the suite stays fast; ``CITYBUILD_FUZZ_SCALE=50 pytest
tests/fuzz`` multiplies them for a long hunt.
"""

from __future__ import annotations

import os
import random
from functools import cache
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from citybuild.core.game import Game, State
from citybuild.core.registry import load, spec

SCALE = int(os.environ.get("CITYBUILD_FUZZ_SCALE", "1"))


def fuzz_settings(examples: int) -> settings:
    """``examples`` fuzz cases (times ``CITYBUILD_FUZZ_SCALE``), without a deadline."""
    return settings(max_examples=examples * SCALE, deadline=None)


GAMES = ("manhattan", "skyline", "urbanization")
CONFIGS = tuple(
    (name, preset, players)
    for name in GAMES
    for preset in spec(name).presets
    for players in range(spec(name).min_players, spec(name).max_players + 1)
)
"""Every built-in game under every preset and player count."""


def config_id(config: tuple[str, str, int]) -> str:
    name, preset, players = config
    return f"{name}-{preset}-{players}p"


SEEDS = (0, 1)
STATES_PER_GAME = 12
MOVES_PER_STATE = 6


@cache
def game_of(config: tuple[str, str, int]) -> Game:
    name, preset, players = config
    return load(name, players=players, preset=preset)


@cache
def corpus(config: tuple[str, str, int]) -> tuple[tuple[State, ...], tuple[str, ...]]:
    """Positions spread over whole random games (openings, chance states, the end) and the
    notation of moves and chance outcomes available at them: the texts the fuzzers mutate."""
    game = game_of(config)
    states: list[State] = []
    moves: list[str] = []
    for seed in SEEDS:
        rng = random.Random(seed)
        line = [game.initial_state()]
        while not line[-1].is_over:
            line.append(line[-1].random_step(rng))
        step = max(1, len(line) // STATES_PER_GAME)
        states.extend(line[::step])
        states.append(line[-1])
    pick = random.Random(0)
    for state in states:
        if state.is_chance:
            moves.extend(str(state.random_move(pick)) for _ in range(MOVES_PER_STATE))
            continue
        for player in state.to_act:
            legal = state.legal_moves(player)
            moves.extend(str(legal[pick.randrange(len(legal))]) for _ in range(min(MOVES_PER_STATE, len(legal))))
    return tuple(states), tuple(dict.fromkeys(moves))


configs = st.sampled_from(CONFIGS)

# Pieces a mutation may insert: notation's own alphabet, numbers that are too big, negative or
# padded, digits and letters that only look like ASCII, unicode whitespace and control characters.
SNIPPETS = (
    *"0123456789",
    *"ABCDEFGHOPUXabcdox",
    *" =/.,:;[]-_#@?+*()'\"\\",
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x7f",
    "\u00a0",  # no-break space
    "\u2003",  # em space
    "\u3000",  # ideographic space
    "\u200b",  # zero-width space
    "\ufeff",  # byte order mark
    "\u0663",  # ARABIC-INDIC DIGIT THREE
    "\u00b2",  # SUPERSCRIPT TWO
    "\uff11",  # FULLWIDTH DIGIT ONE
    "\u212a",  # KELVIN SIGN (lower-cases to 'k')
    "\u017f",  # LATIN SMALL LETTER LONG S (upper-cases to 'S')
    "\u00df",  # sharp s (upper-cases to 'SS')
    "\ufb00",  # ff ligature
    "\U0001f600",
    "\udc80",  # a lone surrogate
    "1" * 5000,
    "9" * 31,
    "1" * 30,
    "0" * 3,
    "-1",
    "-0",
    "+1",
    "1e3",
    "0x10",
    "1_000",
    "NaN",
    "inf",
    "None",
)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after one to four edits: characters or snippets inserted, deleted or replaced,
    whitespace-separated fields swapped, duplicated or dropped, numbers swapped for others, or the
    text cut short."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("insert", "delete", "replace", "swap", "duplicate", "drop", "number", "truncate")))
        at = draw(st.integers(0, max(len(text), 1) * 4)) % (len(text) + 1)
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(SNIPPETS) | st.text(max_size=3)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif kind == "replace":
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at + 1 :]
        elif kind == "truncate":
            text = text[:at]
        elif kind == "number":
            digits = [i for i, ch in enumerate(text) if ch in "0123456789"]
            if digits:
                i = digits[at % len(digits)]
                end = i
                while end < len(text) and text[end] in "0123456789":
                    end += 1
                value = int(text[i:end]) if end - i < 10 else 0
                nudged = (str(value + 1), str(max(value - 1, 0)), str(value * 2))
                number = draw(st.sampled_from((*nudged, "1" * 5000, "9" * 40, "-3", "0", "00", "07", "99", "1" * 30)))
                text = text[:i] + number + text[end:]
        else:
            words = text.split(" ")
            i = at % len(words)
            j = draw(st.integers(0, len(words) - 1))
            if kind == "swap":
                words[i], words[j] = words[j], words[i]
            elif kind == "duplicate":
                words.insert(j, words[i])
            else:
                del words[i]
            text = " ".join(words)
    return text


def round_trip_move(game: Game, text: str) -> Any:
    """Parse ``text``; if it reads, its notation must read back as the same move."""
    move = game.parse_move(text)
    again = game.parse_move(str(move))
    assert again == move, (text, str(move), again)
    assert str(again) == str(move)
    return move


def round_trip_state(game: Game, text: str) -> State:
    """Parse ``text``; if it reads, its notation must read back as an equal position."""
    state = game.parse_state(text)
    again = game.parse_state(state.notation())
    assert again == state, (text, state.notation())
    assert again.notation() == state.notation()
    return state
