"""Regression tests for bad input found in review: values of the wrong type, non-canonical text,
impossible positions and tampered ledgers or views. Each gets a typed citybuild error."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.core.scoresheet import ScoreItem
from citybuild.games.manhattan import Build, Draw, Forfeit, ManhattanState, Redraw, Select

GAME = cb.load("manhattan", players=4)
BUILDING = GAME.parse_state(
    "manhattan/4 round=1 phase=build turn=0 towers=Syd4:B3 hands=4444/0000/1111/2222 chosen=1234/1/1/1"
)


def finished(game: cb.Game = GAME, seed: int = 1) -> Any:
    return game.initial_state().playout(random.Random(seed))[0]


@pytest.mark.parametrize(
    "move",
    [
        Build(4, 0, 0, 1.0),  # type: ignore[arg-type]
        Build(4, 0, 0.0, 3),  # type: ignore[arg-type]
        Build(4, 0, "A", 3),  # type: ignore[arg-type]
        Build(4.0, 0, 0, 3),  # type: ignore[arg-type]
        Build(4, True, 0, 3),  # type: ignore[arg-type]
        Build(4, 0, False, 3),  # type: ignore[arg-type]
        Redraw(4.0),  # type: ignore[arg-type]
        Forfeit(0, 1.0),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_moves_with_values_that_are_not_ints_are_refused(move: Any) -> None:
    # MAN-BUILD-2, MAN-COMP-2: a float or a bool that compares equal to an int is still no card/colour/size
    verdict = BUILDING.check(move)
    assert not verdict.ok and verdict.violations[0].message
    with pytest.raises(cb.IllegalMoveError) as caught:
        BUILDING.play(move)
    assert caught.value.verdict == verdict
    assert str(move)  # the error message can always show the move


def test_selections_and_draws_with_values_that_are_not_ints_are_refused() -> None:
    # MAN-ROUND-1, MAN-RAND-1
    state = GAME.parse_state("manhattan/4 round=1 phase=select turn=0 hands=0123/4567/0123/4567")
    assert state.check(Select(((0, (1, 1, 1, 1, 2, 2)),))).ok
    assert not state.check(Select(((0, (1.0, 1, 1, 1, 2, 2)),))).ok  # type: ignore[arg-type]
    assert not state.check(Select(((0.0, (1, 1, 1, 1, 2, 2)),))).ok  # type: ignore[arg-type]
    assert not state.check(Select(((True, (1, 1, 1, 1, 2, 2)),))).ok  # type: ignore[arg-type]
    deal = GAME.initial_state()
    verdict = deal.check(Draw(4.0))  # type: ignore[arg-type]
    assert verdict.codes == ("malformed-move",) and verdict.rules == ("MAN-RAND-1",)
    assert "Draw.card must be int, not 4.0" in verdict.violations[0].message
    assert not deal.check(Draw(True)).ok  # type: ignore[arg-type]


@pytest.mark.parametrize("player", [0.0, True, "0", None, 4, -1])
def test_a_player_that_is_not_a_seat_is_a_rules_error(player: Any) -> None:
    if player is not None:
        with pytest.raises(cb.RulesError, match="no player"):
            BUILDING.legal_moves(player)
        with pytest.raises(cb.RulesError, match="no player"):
            BUILDING.random_move(random.Random(0), player)
    with pytest.raises(cb.RulesError, match="no player"):
        BUILDING.view(player)


def test_random_move_after_the_end_says_the_game_is_over() -> None:
    # MAN-END-1
    with pytest.raises(cb.IllegalMoveError, match="the game is over"):
        finished().random_move(random.Random(0))


@pytest.mark.parametrize(
    "text", ["build +4 Syd A3", "build ٤ Syd A3", "build 04 Syd A3", "build 4 Syd A03", "redraw 4.0", "draw -0"]
)
def test_move_text_must_be_canonical(text: str) -> None:
    with pytest.raises(cb.NotationError):
        GAME.parse_move(text)


def test_position_numbers_must_be_canonical() -> None:
    for bad in ("round=٣", "round=+1", "turn=01", "points=0/0/0/+1"):
        with pytest.raises(cb.NotationError):
            GAME.parse_state(f"manhattan/4 phase=select {bad} hands=0123/4567/0123/4567")


def test_the_empty_selection_round_trips_and_is_refused() -> None:
    empty = Select(())
    assert GAME.parse_move(str(empty)) == empty
    assert not GAME.parse_state("manhattan/4 phase=select hands=0123/4567/0123/4567").check(empty).ok


def test_negative_point_values_round_trip_through_notation() -> None:
    # MAN-SCORE-5 with a points option that takes points away
    game = cb.load("manhattan", players=2, points={"tallest": -3, "majority": -2, "tower": -1})
    end = finished(game)
    assert min(end.points) < 0
    assert game.parse_state(end.notation()) == end


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ("round=1 phase=over", "MAN-END-1"),
        ("round=2 phase=redraw turn=0 chosen=1/1/1/1", "MAN-BUILD-8"),
        ("round=1 phase=build turn=0 chosen=1/1/1/1 passes=3", "MAN-BUILD-8"),
    ],
)
def test_impossible_phases_are_invalid_states(fields: str, rule: str) -> None:
    hands = "hands=0123/4567/0123/4567" if "redraw" not in fields else "hands=012/4567/0123/4567"
    with pytest.raises(cb.InvalidStateError) as caught:
        GAME.parse_state(f"manhattan/4 {fields} {hands}")
    assert caught.value.rule == rule


def test_a_negative_card_count_is_reported_with_its_breakdown() -> None:
    # MAN-COMP-3: eight 0-cards in hands leave the draw pile at -3
    with pytest.raises(cb.InvalidStateError, match="draw pile -3") as caught:
        cb.load("manhattan", players=2).parse_state("manhattan/2 phase=build hands=0000/0000 chosen=1/1/1/1")
    assert caught.value.rule == "MAN-COMP-3"


def test_a_tampered_ledger_is_an_invalid_state() -> None:
    # MAN-SCORE-5: the itemised ledger must name real players and add up to the points
    end = finished()
    end.validate()
    first = end.ledger[0]
    for item in (attrs.evolve(first, player=7), attrs.evolve(first, points=first.points + 1000)):
        tampered = attrs.evolve(end, ledger=(item, *end.ledger[1:]))
        with pytest.raises(cb.InvalidStateError) as caught:
            tampered.validate()
        assert caught.value.rule == "MAN-SCORE-5"
    carried = attrs.evolve(end, ledger=(ScoreItem(0, "carried", 1),))
    with pytest.raises(cb.InvalidStateError):
        carried.validate()


def test_hidden_variants_differ_only_in_what_the_viewer_cannot_see() -> None:
    # DESIGN principle 6, as used by citybuild.testing.check_game
    state = GAME.initial_state()
    rng = random.Random(5)
    for _ in range(60):
        state = state.random_step(rng)
    for viewer in range(4):
        variants = state.hidden_variants(viewer)
        assert len(variants) == 3
        for variant in variants:
            assert isinstance(variant, ManhattanState) and variant != state
            variant.validate()
            assert variant.view(viewer) == state.view(viewer)
            assert variant.hands[viewer] == state.hands[viewer]


def test_a_view_validates_and_refuses_a_shown_foreign_hand() -> None:
    view = BUILDING.view(1)
    view.validate()
    with pytest.raises(cb.InvalidStateError):
        attrs.evolve(view, hands=(BUILDING.hands[0], *view.hands[1:])).validate()
    with pytest.raises(cb.InvalidStateError):
        attrs.evolve(view, hand_sizes=(4, 4, 4)).validate()


def test_a_view_refuses_impossible_pieces_and_counts() -> None:
    from citybuild.core.tower import Piece

    view = BUILDING.view(1)
    for bad in (
        attrs.evolve(view, towers=((Piece(9, 1),), *view.towers[1:])),
        attrs.evolve(view, chosen=((1, 2), *view.chosen[1:])),
        attrs.evolve(view, supply=((11, 6, 4), *view.supply[1:])),
    ):
        with pytest.raises(cb.InvalidStateError):
            bad.validate()
