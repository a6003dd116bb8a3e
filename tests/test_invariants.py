"""Invariants that positions and views from outside (notation, JSON, code) must keep: the holes of
issue 7 (positions no game can reach, views with any counts) are refused with an
``InvalidStateError`` naming the invariant's rule, and as a ``NotationError`` at ``$.state`` or
``$.view`` when they come as JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.games.skyline.building import Skyline


def played(name: str, players: int, steps: int, seed: int = 3, **options: Any) -> Any:
    state = cb.load(name, players=players, **options).initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        state = state.random_step(rng)
    return state


def refused(state: Any, rule: str) -> None:
    """``state`` breaks the invariant ``rule``: through validate, parse_state and from_json."""
    with pytest.raises(cb.InvalidStateError) as caught:
        state.validate()
    assert caught.value.rule == rule, str(caught.value)
    with pytest.raises(cb.InvalidStateError) as caught:
        state.game.parse_state(state.notation())
    assert caught.value.rule == rule, str(caught.value)
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(cb.to_json(state))
    assert err.value.where == "$.state" and isinstance(err.value.__cause__, cb.InvalidStateError)
    assert rule in str(err.value)


def first(name: str, players: int, wanted: Any, **options: Any) -> Any:
    """The first position of a seeded random game for which ``wanted(state)`` holds."""
    state = cb.load(name, players=players, **options).initial_state()
    rng = random.Random(11)
    while not wanted(state):
        state = state.random_step(rng)
    return state


# --- Manhattan ----------------------------------------------------------------------------------
def test_a_chance_state_with_an_empty_draw_pile_is_refused() -> None:
    # MAN-CARD-3: the discards return before a draw, so no chance state has an empty pile
    state = first("manhattan", 2, lambda s: s.phase == "draw")
    state.validate()
    emptied = attrs.evolve(
        state, draw=(0,) * 9, discard=tuple(a + b for a, b in zip(state.draw, state.discard, strict=True))
    )
    refused(emptied, "MAN-CARD-3")


def test_hidden_selection_with_everyone_chosen_is_refused() -> None:
    # MAN-ROUND-1: the last selection starts the building, so phase select always has a chooser
    game = cb.load("manhattan", players=3, selection="simultaneous_hidden")
    text = "manhattan/3 phase=select turn=0 hands=0123/4567/8012 chosen=1/1/1"
    with pytest.raises(cb.InvalidStateError) as caught:
        game.parse_state(text)
    assert caught.value.rule == "MAN-ROUND-1" and "every player has selected" in str(caught.value)
    nearly = game.parse_state("manhattan/3 phase=select turn=0 hands=0123/4567/8012 chosen=1/_/1")
    assert nearly.to_act == (1,)
    refused(attrs.evolve(nearly, chosen=((1, 0, 0, 0),) * 3, supply=((10, 6, 4, 3),) * 3), "MAN-ROUND-1")


def test_hidden_selection_keeps_the_turn_with_the_start_player() -> None:
    # MAN-ROUND-5: under hidden selection nobody passes the turn on; it stays with the start player
    game = cb.load("manhattan", players=3, selection="simultaneous_hidden")
    with pytest.raises(cb.InvalidStateError) as caught:
        game.parse_state("manhattan/3 round=2 phase=select turn=0 hands=0123/4567/8012")
    assert caught.value.rule == "MAN-ROUND-5"
    assert game.parse_state("manhattan/3 round=2 phase=select turn=1 hands=0123/4567/8012").to_act == (0, 1, 2)


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ("round=25 phase=select", "MAN-ROUND-6"),
        ("round=2 phase=deal turn=0", "MAN-SETUP-4"),
        ("phase=select redraws=1", "MAN-BUILD-8"),
    ],
)
def test_impossible_counters_are_refused(fields: str, rule: str) -> None:
    game = cb.load("manhattan", players=4, rounds="until_supply_empty")
    with pytest.raises(cb.InvalidStateError) as caught:
        game.parse_state(f"manhattan/4 {fields} hands=0123/4567/8012/3456")
    assert caught.value.rule == rule, str(caught.value)


def test_passes_are_counted_only_while_pieces_are_built() -> None:
    game = cb.load("manhattan", players=4, no_legal_move="pass_keep_piece")
    assert game.parse_state("manhattan/4 phase=build chosen=12/1/1/1 passes=1 hands=0123/4567/8012/3456").passes == 1
    with pytest.raises(cb.InvalidStateError) as caught:
        game.parse_state("manhattan/4 phase=select passes=1 hands=0123/4567/8012/3456")
    assert caught.value.rule == "MAN-BUILD-8"


def test_play_from_a_written_position_with_points_stays_valid() -> None:
    # MAN-SCORE-5: a position written in notation carries its points without score items; the
    # rounds played from it add items, and every position reached validates and reads back
    game = cb.load("manhattan", players=4)
    state = game.parse_state("manhattan/4 round=2 phase=select turn=1 hands=0123/4567/8012/3456 points=5/0/3/0")
    rng = random.Random(1)
    while state.round == 2:
        state = state.random_step(rng)
    assert state.ledger and sum(item.points for item in state.ledger) < sum(state.points)
    state.validate()
    assert cb.from_json(cb.to_json(state)) == state
    assert state.scores().totals == state.points  # the carried points are an item of the sheet


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("manhattan/4 round=1 phase=select hands=0123/4567/8012/3456 points=0/1/0/0", "MAN-SCORE-1"),
        ("manhattan/4 round=2 phase=select turn=1 hands=0123/4567/8012/3456 points=0/99/0/0", "MAN-SCORE-5"),
        ("manhattan/4 round=3 phase=select turn=2 hands=0123/4567/8012/3456 points=0/-1/0/0", "MAN-SCORE-5"),
    ],
)
def test_points_the_rounds_so_far_cannot_give_are_refused(text: str, rule: str) -> None:
    with pytest.raises(cb.InvalidStateError) as caught:
        cb.load("manhattan", players=4).parse_state(text)
    assert caught.value.rule == rule, str(caught.value)


def test_ledger_items_are_items_a_round_gives() -> None:
    state = played("manhattan", 4, 200)
    assert state.ledger
    item = state.ledger[0]
    for bad in (
        attrs.evolve(item, category="bonus"),
        attrs.evolve(item, rule="MAN-SCORE-9"),
        attrs.evolve(item, points=item.points + 1),
    ):
        with pytest.raises(cb.InvalidStateError) as caught:
            attrs.evolve(state, ledger=(bad, *state.ledger[1:])).validate()
        assert caught.value.rule == "MAN-SCORE-5"


def manhattan_view(**options: Any) -> Any:
    return played("manhattan", 4, 70, **options).view(1)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"round": 10**30}, "MAN-ROUND-6"),
        ({"round": 0}, "MAN-ROUND-2"),
        ({"phase": "lunch"}, "MAN-ROUND-1"),
        ({"turn": 4}, "MAN-ROUND-2"),
        ({"player": -1}, "MAN-SETUP-1"),
        ({"hand_sizes": (4, 4, 4, 10**9)}, "MAN-COMP-4"),
        ({"draw_size": 10**30}, "MAN-COMP-3"),
        ({"redraws": 46}, "MAN-BUILD-8"),
        ({"to_act": (9,)}, "MAN-ROUND-2"),
        ({"points": (0, 0, 0, True)}, "MAN-SCORE-5"),
        ({"supply": ((11, 6, 4, 3),) * 3}, "MAN-SETUP-1"),
        ({"discard": (5,) * 9}, "MAN-COMP-3"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_manhattan_views_with_impossible_values_are_refused(change: dict[str, Any], rule: str) -> None:
    view = manhattan_view()
    view.validate()
    bad = attrs.evolve(view, **change)
    with pytest.raises(cb.InvalidStateError) as caught:
        bad.validate()
    assert caught.value.rule == rule, str(caught.value)


def test_a_manhattan_view_from_json_cannot_blow_up_its_notation() -> None:
    """A refused view is never built, so its notation can neither overflow nor run to megabytes."""
    view = manhattan_view()
    for field, value in (("hand_sizes", [4, 4, 4, 10**30]), ("hand_sizes", [4, 4, 4, 10**7]), ("round", 10**40)):
        doc = json.loads(cb.to_json(view))
        doc["view"][field] = value
        with pytest.raises(cb.NotationError) as err:
            cb.from_json(json.dumps(doc))
        assert err.value.where == "$.view"


def test_views_of_every_option_validate() -> None:
    for options in ({}, {"selection": "simultaneous_hidden"}, {"two_colour_legality": "merged"}):
        for players in (2, 3, 4):
            state = cb.load("manhattan", players=players, **options).initial_state()
            rng = random.Random(players)
            while not state.is_over:
                for p in range(players):
                    state.view(p).validate()
                state = state.random_step(rng)


# --- Skyline ------------------------------------------------------------------------------------
def test_a_skyline_next_id_of_zero_is_refused() -> None:
    state = cb.load("skyline", players=2).initial_state()
    doc = json.loads(cb.to_json(state))
    doc["state"]["skylines"][1]["next_id"] = 0
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == "$.state" and "SKY-COMP-6" in str(err.value)
    bad = attrs.evolve(state, skylines=(state.skylines[0], Skyline(state.skylines[1].buildings, 0)))
    with pytest.raises(cb.InvalidStateError) as caught:
        bad.validate()
    assert caught.value.rule == "SKY-COMP-6"
    with pytest.raises(cb.InvalidStateError):
        bad.view(0).validate()


def test_a_skyline_next_id_beyond_what_the_rounds_allow_is_refused() -> None:
    state = played("skyline", 2, 30)
    huge = attrs.evolve(state.skylines[0], next_id=10**40)
    with pytest.raises(cb.InvalidStateError) as caught:
        attrs.evolve(state, skylines=(huge, state.skylines[1])).validate()
    assert caught.value.rule == "SKY-COMP-6"


def test_a_skyline_view_names_who_acts() -> None:
    view = first("skyline", 3, lambda s: s.phase == "continue").view(0)
    view.validate()
    for to_act in ((), (9,), (view.turn, view.turn)):
        with pytest.raises(cb.InvalidStateError):
            attrs.evolve(view, to_act=to_act).validate()
