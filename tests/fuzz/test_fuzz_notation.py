"""Fuzzing of move and position notation: mutated real notations either read back exactly or raise
``NotationError`` / ``InvalidStateError``, never another exception, and enormous text fails fast."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from fuzz_support import (
    CONFIGS,
    config_id,
    configs,
    corpus,
    fuzz_settings,
    game_of,
    mutated,
    round_trip_move,
    round_trip_state,
)
from hypothesis import given
from hypothesis import strategies as st

from citybuild.core.errors import InvalidStateError, NotationError

FUZZ = fuzz_settings(250)


@st.composite
def move_texts(draw: st.DrawFn) -> tuple[tuple[str, str, int], str]:
    config = draw(configs)
    return config, draw(mutated(draw(st.sampled_from(corpus(config)[1]))))


@st.composite
def state_texts(draw: st.DrawFn) -> tuple[tuple[str, str, int], str]:
    config = draw(configs)
    state = draw(st.sampled_from(corpus(config)[0]))
    return config, draw(mutated(state.notation()))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_real_notations_round_trip(config: Any) -> None:
    """The unmutated corpus reads back exactly (so the fuzzers start from valid text)."""
    game = game_of(config)
    states, moves = corpus(config)
    for text in moves:
        assert str(round_trip_move(game, text)) == text
    for state in states:
        assert round_trip_state(game, state.notation()) == state


@FUZZ
@given(move_texts())
def test_mutated_moves_read_back_or_raise_notation_error(case: tuple[Any, str]) -> None:
    config, text = case
    game = game_of(config)
    with contextlib.suppress(NotationError):
        round_trip_move(game, text)


@FUZZ
@given(state_texts())
def test_mutated_positions_read_back_or_raise_typed_errors(case: tuple[Any, str]) -> None:
    config, text = case
    game = game_of(config)
    try:
        state = round_trip_state(game, text)
    except (NotationError, InvalidStateError):
        return
    # A position that reads is one the engine can work with.
    for player in state.to_act:
        state.legal_moves(player)
    state.scores()


@fuzz_settings(150)
@given(configs, st.text(max_size=60))
def test_arbitrary_text_reads_back_or_raises_typed_errors(config: Any, text: str) -> None:
    game = game_of(config)
    with contextlib.suppress(NotationError):
        round_trip_move(game, text)
    header = f"{config[0]}/{config[2]} "
    with contextlib.suppress(NotationError, InvalidStateError):
        round_trip_state(game, header + text)


def test_known_hole_huge_piece_size_is_a_notation_error() -> None:
    """Python refuses int() of more than 4300 digits with a plain ValueError; notation must not."""
    game = game_of(("manhattan", "standard", 2))
    with pytest.raises(NotationError, match="the limit is 1000"):
        game.parse_move("build 1 Syd A" + "1" * 5000)
    with pytest.raises(NotationError, match=r"size.*at most 30 digits"):
        game.parse_move("build 1 Syd A" + "1" * 500)
    with pytest.raises(NotationError, match=r"round.*at most 30 digits"):
        game.parse_state("manhattan/2 round=" + "1" * 5000)


@pytest.mark.parametrize(
    "config", [("manhattan", "standard", 2), ("skyline", "standard", 2), ("urbanization", "standard", 2)], ids=config_id
)
@pytest.mark.parametrize("char", ["\u0663", "\u00b2", "\uff11", "\u212a", "\u00a0", "\x00", "\x1c", "\udc80"])
def test_non_ascii_look_alikes_are_refused(config: Any, char: str) -> None:
    """Notation is ASCII: a digit, letter or space that only looks like one is refused, with its code."""
    game = game_of(config)
    move = str(corpus(config)[1][0])
    for text in (char + move, move + char, move.replace(" ", char, 1)):
        with pytest.raises(NotationError, match=f"U\\+{ord(char):04X}"):
            game.parse_move(text)
    with pytest.raises(NotationError, match=f"U\\+{ord(char):04X}"):
        game.parse_state(corpus(config)[0][0].notation() + char)


MEGABYTES = 3_000_000


def _enormous(config: tuple[str, str, int]) -> list[str]:
    """Megabytes of text shaped like each part of the notation (a valid prefix, then more)."""
    name, _, players = config
    header = f"{name}/{players}"
    texts = ["x" * MEGABYTES, " " * MEGABYTES, "1" * MEGABYTES, "build 1 Syd A" + "1" * MEGABYTES]
    texts += [f"{header} round=" + "1" * MEGABYTES, header + " round=1" * (MEGABYTES // 8)]
    if name == "manhattan":
        texts += ["select " + "A1" * (MEGABYTES // 2), "select " + " A1" * (MEGABYTES // 3)]
        texts += [f"{header} towers=" + ",".join(f"Syd{i % 9}:A1" for i in range(MEGABYTES // 8))]
        texts += [f"{header} towers=Syd1:" + "A1" * (MEGABYTES // 2), f"{header} hands=" + "0" * MEGABYTES]
    elif name == "urbanization":
        texts += ["select R1 " + "R2" * (MEGABYTES // 2), "token " + "1" * MEGABYTES + ",0", "give " + "Y" * MEGABYTES]
        texts += [f"{header} city=" + ";".join(f"{i},0:R1" for i in range(MEGABYTES // 8))]
        texts += [f"{header} city=0,0:" + ".".join(["R1"] * (MEGABYTES // 3)), f"{header} hands=" + "A." * MEGABYTES]
        texts += [f"{header} tokens=" + "A:0,0;" * (MEGABYTES // 6), f"{header} sp=" + "1" * MEGABYTES + "/0"]
    else:
        texts += ["reroll " + ",".join(["GFO"] * (MEGABYTES // 4)), "take yard " + ",".join(["GF"] * (MEGABYTES // 3))]
        texts += [f"{header} sky=" + ",".join(f"{i}:O3" for i in range(1, MEGABYTES // 8))]
        texts += [f"{header} sky=1:O[" + ".".join(["UF"] * (MEGABYTES // 3)) + "]"]
    return texts


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[1] == "standard" and c[2] == 2], ids=config_id)
def test_enormous_text_fails_fast(config: Any) -> None:
    game = game_of(config)
    for text in _enormous(config):
        for parse in (game.parse_move, game.parse_state):
            start = time.process_time()
            with pytest.raises(NotationError) as info:
                parse(text)
            assert time.process_time() - start < 0.2, (parse.__name__, text[:40])
            assert len(str(info.value)) < 500, "the message quotes a short excerpt, not the whole text"
