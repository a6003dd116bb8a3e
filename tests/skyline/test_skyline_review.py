"""Regression tests for the independent review of Skyline: strict ints in moves and players, referee
invariants of impossible positions, the shape of ``short``, canonical numbers in the notation,
bounded table caches and natural range messages."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from skyline_support import game, pos

import citybuild as cb
from citybuild.games.skyline import Build, Demolish
from citybuild.games.skyline import rolls as skyline_state

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
    assert verdict.codes == ("malformed-move",) and verdict.rules == ("SKY-COMP-6",)
    assert shown in str(verdict) and "must be int" in str(verdict)
    before = s.notation()
    with pytest.raises(cb.IllegalMoveError, match="must be int"):
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


# --- 2. referee invariants ------------------------------------------------------------------
# SKY-END-1/2: a game is over only after the last seat's turn of round `rounds`, or of the trigger's round
@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("phase=over round=1 turn=1 trigger=0 sky=-/-", "SKY-END-2", "round 1 of 9 without the end trigger"),
        ("phase=over round=8 turn=1 sky=-/-", "SKY-END-2", "round 8 of 9"),
        ("phase=over round=9 turn=0 sky=-/-", "SKY-END-1", "turn 0"),
        ("phase=over round=3 turn=0 trigger=1 district=0.0.0 sky=1:O6/-", "SKY-END-1", "last seat's turn"),
    ],
)
def test_game_over_only_at_the_end(text: str, rule: str, words: str) -> None:
    with pytest.raises(cb.InvalidStateError, match=words) as info:
        pos(text)
    assert info.value.rule == rule


def test_possible_game_ends_are_accepted() -> None:
    assert pos("phase=over round=9 turn=1 sky=-/-").is_over  # SKY-END-1
    assert pos("phase=over round=3 turn=1 trigger=1 district=0.0.0 sky=1:O6/-").is_over  # SKY-END-2
    assert pos("phase=over round=4 turn=2 sky=-/-/-", players=3, rounds=4).is_over  # option rounds
    assert pos("phase=over round=3 turn=1 trigger=1 sky=-/-").is_over  # the six-floor tile was demolished


# Invariants of field shapes: states built in code or read from JSON are checked like parsed ones
@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"round": True}, "SKY-TURN-1", "round must be an int"),
        ({"round": 1.0}, "SKY-TURN-1", "round must be an int"),
        ({"turn": 0.0}, "SKY-TURN-1", "turn must be an int"),
        ({"trigger": 0}, "SKY-END-2", "trigger must be True or False"),
        ({"yard": (22.0, 27, 6)}, "SKY-COMP-6", "yard must be 3 int counts"),
        ({"district": (1, 1)}, "SKY-COMP-6", "district must be 3 int counts"),
        ({"rolling": [0, 0, 0]}, "SKY-COMP-6", "rolling must be 3 int counts"),
        ({"phase": "resolve", "active": (("PH", "X"), ("GF", "O"))}, "SKY-TURN-8", "canonical order"),
        ({"phase": "resolve", "active": (("XX", "O"),)}, "SKY-TURN-8", "active must be dice"),
    ],
)
def test_field_shapes_are_validated(changes: dict[str, Any], rule: str, words: str) -> None:
    s = attrs.evolve(game().initial_state(), **changes)
    with pytest.raises(cb.InvalidStateError, match=words) as info:
        s.validate()
    assert info.value.rule == rule


# --- 3. short has one count per height --------------------------------------------------------
# SKY-COMP-5: `short` counts buildings without a tile per height 1-6
@pytest.mark.parametrize(
    ("short", "words"), [((0,) * 5, "6 int counts"), ((0,) * 7, "6 int counts"), ((0, -1, 0, 0, 0, 0), "negative")]
)
def test_short_has_six_non_negative_counts(short: tuple[int, ...], words: str) -> None:
    finite = game(finite_tile_supply=True)
    s = attrs.evolve(finite.initial_state(), short=short)
    with pytest.raises(cb.InvalidStateError, match=words) as info:
        s.validate()
    assert info.value.rule == "SKY-COMP-5"
    data = json.loads(cb.to_json(finite.initial_state()))
    data["state"]["short"] = list(short)
    with pytest.raises(cb.NotationError, match=words):
        cb.from_json(json.dumps(data))


def test_well_formed_short_still_reads() -> None:
    finite = game(finite_tile_supply=True, tile_counts={1: 8, 2: 0, 3: 6, 4: 18, 5: 4, 6: 4})
    s = finite.parse_state("skyline/2 district=0.0.0 short=0.1.0.0.0.0 sky=1:P2/-")
    assert s.short == (0, 1, 0, 0, 0, 0)
    assert cb.from_json(cb.to_json(s)) == s


# --- 4. canonical numbers in the notation ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("build UFB 02", "building id"),
        ("build UFB +1", "building id"),
        ("build UFB 00", "building id"),
        ("build UFB \u0663", r"word '\u0663'.*U\+0663.* not printable ASCII"),  # ARABIC-INDIC DIGIT THREE
        ("build UFB \uff11", r"word '\uff11'.*U\+FF11.* not printable ASCII"),  # FULLWIDTH DIGIT ONE
        ("demolish PHX 01", "building id"),
        ("demolish PHX 1.0", "building id"),
        ("demolish PHX -0", "building id"),
    ],
)
def test_move_numbers_are_canonical(text: str, where: str) -> None:
    with pytest.raises(cb.NotationError, match=where):
        game().parse_move(text)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("round=\u0663", r"word 'round=\u0663'.*U\+0663"),
        ("round=03", "round"),
        ("round=+3", "round"),
        ("turn=+0", "turn"),
        ("yard=022.27.6", "yard"),
        ("district=1.1.\u0661", r"word 'district=1.1.\u0661'.*U\+0661"),
        ("next=02/2", "next"),
        ("sky=01:O[GF]/1:B[GF]", "building id"),
        ("sky=\u0661:O[GF]/1:B[GF]", r"word 'sky=\u0661.*U\+0661"),
        ("sky=1:O03/1:B[GF]", "height"),
        ("sky=1:O\u0663/1:B[GF]", r"word 'sky=1:O\u0663.*U\+0663"),
        ("sky=1:O+3/1:B[GF]", "height"),
    ],
)
def test_position_numbers_are_canonical(text: str, where: str) -> None:
    with pytest.raises(cb.NotationError, match=where):
        game().parse_state(f"skyline/2 {text}")


def test_canonical_numbers_still_read() -> None:
    assert game().parse_move("build UFB 0") == Build(("UF", "B"), 0)
    assert game().parse_move("demolish PHX 10") == Demolish(PHX, 10)
    s = game().parse_state("skyline/2 round=3 turn=1 district=0.0.0 sky=10:O3/- next=11/1")
    assert s.round == 3 and s.skylines[0].buildings[0].id == 10


# --- 6. natural range messages -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("skyline/2 round=0", "0 is not between 1 and 99"),
        ("skyline/2 turn=2", "2 is not between 0 and 1"),
        ("skyline/2 yard=-1.27.6", "-1 is below the least allowed value 0"),
        ("skyline/2 next=0/1", "0 is below the least allowed value 1"),
    ],
)
def test_range_messages_read_naturally(text: str, words: str) -> None:
    with pytest.raises(cb.NotationError) as info:
        game().parse_state(text)
    assert words in str(info.value) and "None" not in str(info.value) and ".." not in str(info.value)
    with pytest.raises(cb.NotationError) as move_info:
        game().parse_move("demolish PHX -1")
    assert "None" not in str(move_info.value) and "-1 is below the least allowed value 0" in str(move_info.value)


# --- 5. bounded caches -----------------------------------------------------------------------------
# SKY-RAND-2: big roll tables and reroll lists are not kept (they once took over 800 MB)
def test_big_tables_are_not_kept() -> None:
    faces = game().rules.faces_key()
    for rolling in [(1, 0, 0), (3, 3, 1), (3, 3, 3), (0, 0, 7), (10, 10, 0)]:
        outcomes = skyline_state.roll_outcomes(rolling, faces)
        assert skyline_state.outcome_count(rolling, faces) == len(outcomes)
    big = [(4, 4, 4), (8, 8, 0), (5, 5, 2), (10, 10, 0)]
    for rolling in big:
        assert skyline_state.outcome_count(rolling, faces) > skyline_state.SMALL_TABLE
        first = pos(f"phase=roll roll={'.'.join(map(str, rolling))} sky=-/-").chance_outcomes()
        assert sum(p for _, p in first) == 1
    assert skyline_state._big_roll_outcomes.cache_info().currsize <= 1
    # asking twice about one big position is answered from the cache
    again = pos("phase=roll roll=10.10.0 sky=-/-").chance_outcomes()
    assert again is skyline_state.roll_outcomes((10, 10, 0), faces)
    for active in ["GFP,GFP,GFB,GFB,GFO,UFP,UFB,UFO,PHX,PHB,PHO", "GFP,GFP,GFB,GFB,GFO,UFP,UFP,UFB,UFO,PHX,PHB,PHO"]:
        s = pos(f"phase=continue active={active} sky=-/-")
        reroll_count = sum(type(m).__name__ == "Reroll" for m in s.legal_moves())
        assert reroll_count > skyline_state.SMALL_TABLE
        assert len(set(s.legal_moves())) == len(s.legal_moves())
    assert skyline_state._big_rerolls.cache_info().currsize <= 1
    small = skyline_state._small_roll_outcomes.cache_info(), skyline_state._small_rerolls.cache_info()
    assert all(info.maxsize is not None and info.maxsize <= 256 for info in small)
