"""Regression tests for the independent review of Skyline: strict ints in moves and players, referee
invariants of impossible positions, the shape of ``short``, canonical numbers in the notation,
bounded table caches and natural range messages."""

from __future__ import annotations

import random
from typing import Any

import pytest
from skyline_support import pos

import citybuild as cb
from citybuild.games.skyline import Build, Demolish

GFO, UFO, PHX = ("GF", "O"), ("UF", "O"), ("PH", "X")


# --- 1. ints are ints ------------------------------------------------------------------------
# SKY-COMP-6: building ids are integers; a float or bool that compares equal to one is refused
@pytest.mark.parametrize(
    ("move", "shown"),
    [
        (Demolish(PHX, 1.0), "1.0 (float)"),  # type: ignore[arg-type]
        (Demolish(PHX, True), "True (bool)"),
        (Build(UFO, 1.0), "1.0 (float)"),  # type: ignore[arg-type]
        (Build(UFO, True), "True (bool)"),
        (Build(UFO, "1"), "'1' (str)"),  # type: ignore[arg-type]
    ],
)
def test_building_ids_must_be_ints(move: Any, shown: str) -> None:
    s = pos("phase=resolve active=UFO,PHX sky=1:O[GF.UF]/-")
    int_move = type(move)(move.die, 1)
    assert s.check(int_move).ok  # the same move with the int id is legal
    verdict = s.check(move)
    assert verdict.codes == ("bad-building-id",) and verdict.rules == ("SKY-COMP-6",)
    assert shown in str(verdict)
    before = s.notation()
    with pytest.raises(cb.IllegalMoveError, match="a building id is a whole number"):
        s.play(move)
    assert s.notation() == before
    assert pos("phase=resolve active=GFO sky=-/-").check(Build(GFO, None)).ok


# SKY-TURN-1: a player is an int seat; random_move, legal_moves and view refuse anything else
@pytest.mark.parametrize("player", [0.0, True, False, "0", 2, -1, None])
def test_players_must_be_int_seats(player: Any) -> None:
    s = pos("phase=resolve active=UFO,PHX sky=1:O[GF.UF]/-")
    rolling = pos("phase=roll roll=1.1.1 sky=-/-")
    if player is None:  # the default: whoever is to act
        assert s.random_move(random.Random(1)) in s.legal_moves()
        return
    for state in (s, rolling):
        with pytest.raises(cb.RulesError, match=f"no player {player!r}"):
            state.random_move(random.Random(1), player)
        with pytest.raises(cb.RulesError, match=f"no player {player!r}"):
            state.legal_moves(player)
        with pytest.raises(cb.RulesError, match=f"no player {player!r}"):
            state.view(player)
    assert s.random_move(random.Random(1), 0) in s.legal_moves(0)  # the int seat still works
    assert s.view(1).player == 1
