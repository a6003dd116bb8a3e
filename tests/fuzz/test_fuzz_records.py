"""Fuzzing of game records: records of real games whose move texts, players and entries are
mutated either replay as written or raise ``NotationError`` / ``IllegalMoveError``, directly and
through their JSON text."""

from __future__ import annotations

from functools import cache
from typing import Any

import attrs
from fuzz_support import CONFIGS, SNIPPETS, configs, corpus, fuzz_settings, game_of, mutated
from hypothesis import event, given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.errors import IllegalMoveError, NotationError
from citybuild.match import Match
from citybuild.record import GameRecord, RecordEntry


@cache
def records(config: tuple[str, str, int]) -> tuple[GameRecord, ...]:
    """Records of two random games played to the end."""
    out = []
    for seed in (0, 1):
        match = Match(game_of(config), seed=seed)
        while not match.is_over:
            match.play(match.random_move(match.state.to_act[0]), match.state.to_act[0])
        out.append(match.record())
    return tuple(out)


@st.composite
def fuzzed_records(draw: st.DrawFn) -> GameRecord:
    config = draw(configs)
    record = draw(st.sampled_from(records(config)))
    moves = list(record.moves)
    others = corpus(config)[1]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(moves) - 1))
        entry = moves[i]
        kind = draw(st.sampled_from(("text", "text", "other", "snippet", "player", "drop", "duplicate", "swap")))
        if kind == "text":
            moves[i] = RecordEntry(entry.player, draw(mutated(entry.move)))
        elif kind == "other":
            moves[i] = RecordEntry(entry.player, draw(st.sampled_from(others)))
        elif kind == "snippet":
            moves[i] = RecordEntry(entry.player, draw(st.sampled_from(SNIPPETS) | st.text(max_size=20)))
        elif kind == "player":
            player = draw(st.sampled_from((None, 0, 1, config[2] - 1, config[2], -1)))
            moves[i] = RecordEntry(player, entry.move)
        elif kind == "drop":
            del moves[i]
        elif kind == "duplicate":
            moves.insert(i, entry)
        else:
            j = draw(st.integers(0, len(moves) - 1))
            moves[i], moves[j] = moves[j], moves[i]
    result = record.result if draw(st.booleans()) else None
    return attrs.evolve(record, moves=tuple(moves), result=result)


def replays_as_written(record: GameRecord | str) -> Match | None:
    """``cb.replay(record)``, or None when it is refused with a typed error."""
    try:
        return cb.replay(record)
    except (NotationError, IllegalMoveError) as exc:
        event(type(exc).__name__)
        return None


@fuzz_settings(200)
@given(fuzzed_records())
def test_fuzzed_records_replay_or_raise_typed_errors(record: GameRecord) -> None:
    match = replays_as_written(record)
    if match is not None:
        event("replayed")
        game = match.game
        for entry, step in zip(record.moves, match.history, strict=False):
            assert step.player == entry.player
            assert step.move == game.parse_move(entry.move)
    assert (replays_as_written(cb.to_json(record)) is None) == (match is None)


def test_every_game_has_records() -> None:
    for config in CONFIGS:
        assert all(record.result is not None for record in records(config))
        assert all(cb.replay(record).is_over for record in records(config))


def test_known_hole_huge_number_in_a_record() -> None:
    """A record whose move text holds 5000 digits is a NotationError at the move's path."""
    record: Any = records(("manhattan", "standard", 2))[0]
    index = next(i for i, e in enumerate(record.moves) if e.move.startswith("build"))
    moves = list(record.moves)
    moves[index] = RecordEntry(moves[index].player, "build 1 Syd A" + "1" * 5000)
    try:
        cb.replay(attrs.evolve(record, moves=tuple(moves)))
    except NotationError as exc:
        assert exc.where == f"$.moves[{index}].move"
    else:
        raise AssertionError("replayed")
