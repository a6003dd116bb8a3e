"""Bad input: every refusal is a typed error naming the offending value; a refused play changes
nothing; hand-written positions that break an invariant are rejected, saying which."""

from __future__ import annotations

from typing import Any

import pytest
from manhattan_support import build_pos, game, pos, unchanged_after_refusal

import citybuild as cb
from citybuild.games.manhattan import Build, Draw

HANDS = "0000/1111/2222/3333"


def message_of(exc: cb.NotationError) -> str:
    """The reason, without the ``where:`` prefix (which repeats the whole input)."""
    text = str(exc)
    return text[len(exc.where) + 2 :] if exc.where else text


def selecting() -> Any:
    state = game(4).initial_state()
    for k in range(16):
        state = state.play(Draw(k % 9))
    return state


# --- refused moves: IllegalMoveError carrying a verdict that names the rule --------------------
@pytest.mark.parametrize(
    ("move", "player", "rule", "named"),
    [
        ("build 1 Syd B1", 1, "MAN-ROUND-2", "P1"),  # wrong player
        ("build 5 Syd A1", None, "MAN-BUILD-2", "5"),  # card not in hand
        ("build 0 Syd B1", None, "MAN-BUILD-2", "B"),  # not the player's colour
        ("build 0 Syd A3", None, "MAN-BUILD-3", "3"),  # piece not chosen
        ("build 0 Syd A1", 7, "MAN-ROUND-2", "7"),  # no such player
        ("redraw 0", None, "MAN-BUILD-8", "P0"),  # a legal build exists
        ("select A111111", None, "MAN-ROUND-1", "select"),  # selecting while building
    ],
)
def test_refused_build_phase_moves(move: str, player: int | None, rule: str, named: str) -> None:
    state = build_pos(towers="Man2:B1", hands=HANDS, chosen="12/1/1/1")
    verdict = state.check(move, player)
    assert not verdict.ok
    assert [v.rule for v in verdict.violations] == [rule]
    message = verdict.violations[0].message
    # The colour may be named by its letter or by its index ("colour 1").
    assert named in message or (named == "B" and "colour 1" in message)
    exc = unchanged_after_refusal(state, move, player)
    assert isinstance(exc, ValueError)
    assert exc.verdict == verdict
    assert message in str(exc)


def test_building_during_selection_is_refused() -> None:
    state = selecting()
    verdict = state.check("build 0 Syd A1")
    assert [v.rule for v in verdict.violations] == ["MAN-ROUND-1"]
    assert "build 0 Syd A1" in verdict.violations[0].message
    assert "select" in verdict.violations[0].message
    unchanged_after_refusal(state, "build 0 Syd A1")


def test_takeover_refusal_names_tower_and_floors() -> None:
    state = build_pos(towers="Syd4:B3", hands="4444/0000/1111/2222", chosen="1/1/1/1")
    verdict = state.check("build 4 Syd A1")
    assert verdict.rules == ("MAN-BUILD-4",)
    assert "Syd4" in verdict.violations[0].message
    assert "3" in verdict.violations[0].message
    unchanged_after_refusal(state, "build 4 Syd A1")


def test_bad_build_values_in_move_objects() -> None:
    state = build_pos(hands=HANDS, chosen="1/1/1/1")
    verdict = state.check(Build(0, 7, 0, 1))  # there is no city 7
    assert "MAN-COMP-1" in verdict.rules
    assert "7" in " ".join(v.message for v in verdict.violations)
    unchanged_after_refusal(state, Build(0, 7, 0, 1))


def test_refusals_at_chance_and_after_the_end() -> None:
    text = (
        "manhattan/4 round=1 phase=build turn=0 hands=0123/4567/8012/3456 draw=000000001 discard=333333343 "
        "chosen=1/1/1/1"
    )
    drawing = pos(text).play("build 0 Syd A1")
    assert drawing.is_chance and drawing.to_act == ()
    assert not drawing.check("build 4 Syd B1", 1).ok  # nobody acts at a chance state
    verdict = drawing.check(Draw(0))  # the pile holds a single 8-card
    assert not verdict.ok and "draw 0" in verdict.violations[0].message
    unchanged_after_refusal(drawing, Draw(0))
    assert drawing.play(Draw(8)).hands[0][8] == 1
    over = pos("manhattan/4 round=4 phase=over hands=0123/4567/8012/3456 chosen=_/_/_/_ points=1/2/3/4")
    verdict = over.check("build 0 Syd A1", 0)
    assert verdict.rules == ("MAN-END-1",)
    unchanged_after_refusal(over, "build 0 Syd A1", 0)


# --- unreadable moves: NotationError naming the offending part -------------------------------
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "empty"),
        ("build 0 Syd", "build"),
        ("build x Syd A1", "'x'"),
        ("build 9 Syd A1", "9"),
        ("build 0 Xyz A1", "'Xyz'"),
        ("build 0 Syd A5", "5"),
        ("build 0 Syd E1", "'E'"),
        ("fly 1", "'fly'"),
        ("select A1x", "'1x'"),
        ("redraw", "redraw"),
        ("forfeit 1A", "'1A'"),
        ("pass now", "pass"),
    ],
)
def test_malformed_move_text(text: str, named: str) -> None:
    state = build_pos(hands=HANDS, chosen="1/1/1/1")
    with pytest.raises(cb.NotationError) as info:
        state.game.parse_move(text)
    assert isinstance(info.value, ValueError)
    assert named in message_of(info.value)
    with pytest.raises(cb.NotationError):
        state.check(text)
    before = state.notation()
    with pytest.raises(cb.NotationError):
        state.play(text)
    assert state.notation() == before


# --- unreadable positions --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "empty"),
        ("manhattan/5 round=1", "manhattan/5"),
        ("skyline/4 round=1", "skyline/4"),
        ("manhattan/4 colour=red", "colour=red"),
        ("manhattan/4 hands=0129/4567/8012/3456", "0129"),
        ("manhattan/4 hands=0123/4567", "0123/4567"),
        ("manhattan/4 round=x", "'x'"),
        ("manhattan/4 phase=dance", "dance"),
        ("manhattan/4 towers=Xyz0:A1", "Xyz"),
        ("manhattan/4 towers=Syd9:A1", "Syd9:A1"),
        ("manhattan/4 round=1 round=2", "round"),
        ("manhattan/4 towers=Syd0:A1,Syd0:B2", "Syd0"),
    ],
)
def test_malformed_position_text(text: str, named: str) -> None:
    with pytest.raises(cb.NotationError) as info:
        game(4).parse_state(text)
    assert named in str(info.value)


# --- invariants of hand-written positions: InvalidStateError saying which -------------------
@pytest.mark.parametrize(
    ("text", "rule", "named"),
    [
        # the owner has fewer floors than another colour
        ("manhattan/4 phase=select towers=Syd0:A4B1 hands=0123/4567/8012/3456", "MAN-BUILD-6", "Syd0"),
        ("manhattan/4 phase=select towers=Man3:A2B1C1 hands=0123/4567/8012/3456", "MAN-BUILD-6", "Man3"),
        # more pieces of a size than a colour owns (12 of size 1)
        (
            "manhattan/4 phase=select towers="
            + ",".join(f"Syd{i}:C1" for i in range(9))
            + ",Man0:C1,Man1:C1,Man2:C1 hands=0123/4567/8012/3456",
            "MAN-COMP-2",
            "size 1",
        ),
        ("manhattan/4 phase=build hands=0123/4567/8012/3456 chosen=1/1/2222222/1", "MAN-COMP-2", "size 2"),
        # a card count that is not 45
        ("manhattan/4 phase=select hands=0123/4567/8012/3456 draw=555555555", "MAN-COMP-3", "45"),
        ("manhattan/4 phase=select hands=0000/0000/1111/2222", "MAN-COMP-3", "lot 0"),
        # hands hold 4 cards
        ("manhattan/4 phase=select hands=01234/5678/0123/4567", "MAN-COMP-4", "5"),
        # past the last round
        ("manhattan/4 round=5 phase=select turn=0 hands=0123/4567/8012/3456", "MAN-ROUND-6", "5"),
    ],
)
def test_invalid_positions(text: str, rule: str, named: str) -> None:
    with pytest.raises(cb.InvalidStateError) as info:
        game(4).parse_state(text)
    assert isinstance(info.value, ValueError)
    assert info.value.rule == rule
    assert named in str(info.value)


def test_positions_reached_by_play_validate() -> None:
    state = build_pos(towers="Syd0:B2", hands=HANDS, chosen="2/1/1/1")
    state = state.play("build 0 Syd A2").play(Draw(8))
    state.validate()
    assert game(4).parse_state(state.notation()) == state  # and the notation round-trips


# --- bad setup: RulesError naming the value --------------------------------------------------
@pytest.mark.parametrize(("players", "named"), [(1, "1"), (5, "5"), (0, "0"), ("4", "'4'")])
def test_player_count_outside_2_to_4(players: Any, named: str) -> None:
    with pytest.raises(cb.RulesError) as info:
        cb.load("manhattan", players=players)
    assert named in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_preset_and_option() -> None:
    with pytest.raises(cb.RulesError, match="six-rounds"):
        cb.load("manhattan", players=4, preset="six-rounds")
    with pytest.raises(cb.RulesError, match="colour_count"):
        cb.load("manhattan", players=4, colour_count=3)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("takeover_compare", "bigger"),
        ("takeover_compare", "any_color"),
        ("two_colour_split", "any"),
        ("two_colour_split", 8),
        ("two_colour_seating", "lap"),
        ("two_colour_legality", "joint"),
        ("card_orientation", "random"),
        ("selection", "secret"),
        ("reshuffle", "never"),
        ("tallest_tie", "everyone"),
        ("no_legal_move", "cry"),
        ("redraw_limit", -1),
        ("points", {"tallest": 3}),
        ("final_tiebreak", ("coin_flip",)),
        ("sides", {2: "SS", 3: "SWN", 4: "SWNE"}),
        ("rounds", {2: 0, 3: 6, 4: 4}),
        ("rounds", "forever"),
        ("colours_per_player", {2: 3, 3: 1, 4: 1}),
        ("pieces_per_round", {2: 4, 3: 4}),
    ],
)
def test_bad_option_values(option: str, value: Any) -> None:
    with pytest.raises(cb.RulesError) as info:
        cb.load("manhattan", players=4, **{option: value})
    assert option in str(info.value)
    assert repr(value) in str(info.value)
