"""The golden games (``make_golden.py``): the same seeds give the same games, move for move.

A change to the engines, the samplers or the playouts must leave every one of these unchanged, so
that a seed keeps its meaning across versions and saved records replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from make_golden import match_game, playout_game

import citybuild as cb

GOLDEN = [json.loads(line) for line in (Path(__file__).parent / "games.jsonl").read_text().splitlines()]


def _options(case: dict[str, Any]) -> dict[str, Any]:
    """The case's rule overrides; JSON turned the integer keys of per-player-count dicts into text."""
    return {
        name: {int(k): v for k, v in value.items()} if isinstance(value, dict) else value
        for name, value in case["options"].items()
    }


def _id(case: dict[str, Any]) -> str:
    options = ",".join(sorted(case["options"])) or case["preset"]
    return f"{case['game']}-{options}-{case['players']}p-seed{case['seed']}"


@pytest.mark.parametrize("case", GOLDEN, ids=_id)
def test_golden_game_is_unchanged(case: dict[str, Any]) -> None:
    game = cb.load(case["game"], players=case["players"], preset=case["preset"], **_options(case))
    assert match_game(game, case["seed"]) == case["match"]
    assert playout_game(game, case["seed"]) == case["playout"]


@pytest.mark.parametrize("case", GOLDEN[::7], ids=_id)
def test_golden_record_replays(case: dict[str, Any]) -> None:
    """A record written by an earlier version (its moves as notation) replays to the same end."""
    game = cb.load(case["game"], players=case["players"], preset=case["preset"], **_options(case))
    moves = []
    for entry in case["match"]["moves"].split(" | "):
        who, _, text = entry.partition(":")
        moves.append((None if who == "c" else int(who), text))
    record = cb.GameRecord(
        game=game.name,
        preset=game.preset,
        players=game.players,
        seed=case["seed"],
        moves=tuple(moves),
        options=_options(case),
    )
    assert cb.replay(record).state.notation() == case["match"]["final"]
