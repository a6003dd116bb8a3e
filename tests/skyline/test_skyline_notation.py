"""Notation of moves and positions, views, invalid positions and bad input (rules/skyline.md, DESIGN.md)."""

from __future__ import annotations

import pytest
from skyline_support import game, pos

import citybuild as cb
from citybuild.games.skyline import Abandon, Build, Demolish, EndTurn, Reroll, Roll, TakeDistrict, TakeYard


# SKY-TURN-8: every move kind, its text and its repr
@pytest.mark.parametrize(
    ("move", "text"),
    [
        (TakeYard(("PH", "GF", "GF")), "take yard GF,GF,PH"),
        (TakeDistrict(), "take district"),
        (Build(("GF", "O"), None), "build GFO new"),
        (Build(("UF", "B"), 3), "build UFB 3"),
        (Abandon(("PH", "X")), "abandon PHX"),
        (Demolish(("PH", "X"), 2), "demolish PHX 2"),
        (Reroll([("PH", "X"), ("UF", "B")]), "reroll UFB,PHX"),
        (Reroll([]), "reroll -"),
        (EndTurn(), "end"),
        (Roll([("PH", "X"), ("GF", "O")]), "roll GFO,PHX"),
    ],
)
def test_move_notation_round_trips(move: object, text: str) -> None:
    g = game()
    assert str(move) == text and g.parse_move(text) == move
    assert eval(repr(move)) == move  # repr is valid Python
    assert g.parse_move(text.lower()) == move


def test_setup_position_text() -> None:
    s = game(2).initial_state()
    text = (
        "skyline/2 round=1 turn=0 phase=take trigger=0 yard=22.27.6 district=1.1.1 active=- "
        "sky=1:O[GF]/1:B[GF] next=2/2"
    )
    assert s.notation() == text == str(s)
    assert game(2).parse_state(text) == s


def test_position_with_everything_round_trips() -> None:
    text = (
        "skyline/3 round=4 turn=2 phase=continue trigger=1 yard=20.24.5 district=2.1.1 active=GFP,UFB,PHX "
        "sky=1:O6,3:P[GF]/2:B[GF.UF.UF],4:P2/- next=4/5/2 short=0.1.0.0.0.0"
    )
    s = game(3, finite_tile_supply=True, tile_counts={1: 8, 2: 0, 3: 6, 4: 18, 5: 4, 6: 4}).parse_state(text)
    assert s.notation() == text and s.must_resolve is False
    rolling = (
        "skyline/2 round=1 turn=0 phase=roll trigger=0 yard=22.25.6 district=1.1.1 active=- roll=0.1.0 "
        "sky=1:O[GF.UF]/1:B[GF] next=2/2"
    )
    assert game().parse_state(rolling).notation() == rolling


# SKY-COMP-6: views hide nothing
def test_view_hides_nothing() -> None:
    s = pos("phase=continue active=GFP,UFB sky=1:O[GF.UF],2:B3/1:P[GF]")
    for player in (0, 1):
        view = s.view(player)
        assert view.player == player and view.to_act == (0,)
        assert view.notation() == s.notation().replace("skyline/2", f"skyline/2@P{player}")
        assert game().parse_state(view.notation().replace(f"@P{player}", "")) == s
    with pytest.raises(cb.RulesError, match="player 2"):
        s.view(2)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "empty"),
        ("dance", "unknown move 'dance'"),
        ("take yard GF,ZZ,PH", "unknown die type 'ZZ'"),
        ("take", "take yard"),
        ("build GFQ new", "'GFQ'"),
        ("build GFO", "build <die> new"),
        ("build GFO x", "expected an integer"),
        ("demolish PHX", "demolish <die> <building id>"),
        ("abandon", "abandon <die>"),
        ("end now", "'end' takes nothing"),
        ("reroll GFO PHX", "separated by commas"),
    ],
)
def test_bad_move_text(text: str, where: str) -> None:
    with pytest.raises(cb.NotationError, match=where):
        game().parse_move(text)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "empty"),
        ("skyline/3 round=1", "header"),
        ("skyline/2 colour=red", "unknown field"),
        ("skyline/2 round=1 round=2", "given twice"),
        ("skyline/2 round=x", "round"),
        ("skyline/2 phase=dance", "unknown phase"),
        ("skyline/2 yard=1.2", "GF.UF.PH"),
        ("skyline/2 sky=1:O[GF]", "sky"),
        ("skyline/2 sky=1:Q[GF]/-", "unknown colour"),
        ("skyline/2 sky=1:O[GF],1:B3/-", "used twice"),
        ("skyline/2 sky=1:O[GF.ZZ]/-", "unknown floor"),
        ("skyline/2 sky=O3/-", "expected <id>"),
        ("skyline/2 active=GFQ", "active"),
        ("skyline/2 trigger=2", "trigger"),
    ],
)
def test_bad_position_text(text: str, where: str) -> None:
    with pytest.raises(cb.NotationError, match=where):
        game().parse_state(text)


# Impossible positions: InvalidStateError naming the invariant
@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("yard=25.28.7 district=1.0.0 sky=-/-", "SKY-COMP-2", "26 GF dice"),
        ("yard=25.29.0 district=0.0.7 sky=-/-", "SKY-COMP-2", "29 UF dice"),
        ("yard=25.28.8 district=0.0.0 sky=-/-", "SKY-COMP-2", "more than the 7"),
        ("district=0.0.0 sky=1:B5/-", "SKY-BUILD-3", "height 2 to 4, not 5"),
        ("district=0.0.0 sky=1:P3/-", "SKY-BUILD-3", "not 3"),
        ("district=0.0.0 sky=1:O[GF.PH.UF]/-", "SKY-BUILD-5", "penthouse under another floor"),
        ("district=0.0.0 sky=1:O[GF.UF.PH]/-", "SKY-BUILD-5", "completes a building"),
        ("district=0.0.0 sky=1:P[GF.UF]/-", "SKY-BUILD-5", "die sits on a completed building"),
        ("district=0.0.0 sky=1:B[GF.UF.UF.UF]/-", "SKY-BUILD-5", "at most 3"),
        ("district=0.0.0 sky=1:O[UF]/-", "SKY-BUILD-1", "ground floor"),
        ("district=0.0.0 sky=1:O[GF]/- next=1/1", "SKY-COMP-6", "next id"),
        ("phase=resolve sky=-/-", "SKY-TURN-7", "needs active dice"),
        ("phase=take active=GFP sky=-/-", "SKY-TURN-6", "no dice are active"),
        ("phase=roll sky=-/-", "SKY-TURN-3", "dice to roll"),
        ("phase=resolve active=GFX sky=-/-", "SKY-COMP-4", "not one of its faces"),
        ("district=0.0.0 sky=1:O6/-", "SKY-END-2", "trigger is not set"),
        ("round=10 sky=-/-", "SKY-END-1", "round 10"),
        ("district=0.0.0 short=0.1.0.0.0.0 sky=1:P2/-", "SKY-COMP-5", "finite_tile_supply"),
    ],
)
def test_impossible_positions(text: str, rule: str, words: str) -> None:
    with pytest.raises(cb.InvalidStateError, match=words) as info:
        pos(text)
    assert info.value.rule == rule


def test_trigger_without_six_floor_option() -> None:
    with pytest.raises(cb.InvalidStateError, match="six_floor_ends_game") as info:
        pos("round=2 turn=1 trigger=1 district=0.0.0 sky=1:O6/-", preset="all-nine-rounds")
    assert info.value.rule == "SKY-END-3"


# SKY-COMP-1 and the registry
@pytest.mark.parametrize("players", [1, 5, 0, True])
def test_unsupported_player_counts(players: int) -> None:
    with pytest.raises(cb.RulesError, match="2 to 4 players"):
        cb.load("skyline", players=players)


def test_unknown_preset_and_option() -> None:
    with pytest.raises(cb.RulesError, match="'solo'"):
        cb.load("skyline", preset="solo")
    with pytest.raises(cb.RulesError, match="'dice'"):
        cb.load("skyline", dice=60)


# Refused plays: typed error naming the value and rule, nothing changes
@pytest.mark.parametrize(
    ("text", "move", "player", "code", "rule"),
    [
        ("phase=take sky=1:O[GF]/-", Build(("GF", "O"), None), None, "wrong-phase", "SKY-TURN-2"),
        ("phase=take sky=1:O[GF]/-", EndTurn(), None, "wrong-phase", "SKY-TURN-2"),
        ("phase=take sky=1:O[GF]/-", TakeDistrict(), 1, "not-to-act", "SKY-TURN-1"),
        ("phase=continue active=GFP sky=1:O[GF]/-", TakeYard(("GF", "GF", "GF")), None, "wrong-phase", "SKY-TURN-2"),
        ("phase=resolve active=GFP sky=1:O[GF]/-", Abandon(("UF", "O")), None, "die-not-active", "SKY-TURN-8"),
        ("phase=resolve active=UFO sky=1:O[GF]/-", Build(("UF", "O"), 9), None, "no-such-building", "SKY-BUILD-2"),
        (
            "phase=resolve active=UFO sky=1:O[GF]/-",
            Demolish(("UF", "O"), 9),
            None,
            "no-such-building",
            "SKY-DEMOLISH-1",
        ),
        ("phase=resolve active=UFO sky=1:O[GF]/-", "roll UFO", None, "not-a-decision", "SKY-RAND-1"),
    ],
)
def test_refused_plays(text: str, move: object, player: int | None, code: str, rule: str) -> None:
    s = pos(text)
    before = s.notation()
    verdict = s.check(move, player)
    assert verdict.codes == (code,) and verdict.rules == (rule,)
    with pytest.raises(cb.IllegalMoveError) as info:
        s.play(move, player)
    assert info.value.verdict == verdict and s.notation() == before
    assert str(move) in str(info.value)


def test_refusal_messages_name_the_value() -> None:
    s = pos("phase=resolve active=GFP,UFB sky=1:O[GF],2:O3/-")
    assert "UFO is not among the active dice (GFP,UFB)" in str(s.check(Abandon(("UF", "O"))))
    assert "no building 9 (buildings: 1, 2)" in str(s.check(Demolish(("GF", "P"), 9)))
    assert "building 2 is completed (height 3)" in str(s.check(Build(("UF", "B"), 2)))
    assert "blue but building 1 is orange" in str(s.check(Build(("UF", "B"), 1)))
    assert "not a Skyline move" in str(s.check(42))
    roll = pos("phase=roll roll=1.0.0 sky=-/-")
    assert "1 GF" in str(roll.check(Roll([("UF", "P")]))) and not roll.check(Roll([("GF", "P")]), player=0).ok
