"""Invariants that tampered positions and views broke (found by transplanting fields between real
JSON positions and by nudging their numbers): each is refused with its rule, while every position
of a real game still passes (the property tests validate every step of random games)."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from urbanization_support import card, game, play, pos, random_until

import citybuild as cb
from citybuild.core.errors import InvalidStateError
from citybuild.games.urbanization import UrbanizationState
from citybuild.games.urbanization.rules import TOKEN_CELLS


def _refused(state: UrbanizationState, rule: str, **changes: Any) -> None:
    tampered = attrs.evolve(state, **changes)
    with pytest.raises(InvalidStateError, match=rule):
        tampered.validate()


def _at(phase: str, players: int = 3, seed: int = 0) -> UrbanizationState:
    state = random_until(game(players).initial_state(), phase, random.Random(seed))
    assert state.phase == phase
    state.validate()
    return state


def test_only_the_phases_that_draw_owe_a_draw() -> None:
    # URB-COMP-6, URB-SETUP-4, URB-SETUP-10, URB-SETUP-8
    _refused(_at("choose"), "URB-COMP-6", owed=2)
    discard = _at("discard")
    assert discard.owed + len(discard.discard) == 7
    _refused(discard, "URB-SETUP-4", owed=discard.owed + 1)
    _refused(_at("deal"), "URB-SETUP-10", owed=5)
    items = _at("items")
    _refused(items, "URB-SETUP-8", owed=items.owed + 10)


def test_a_new_hand_draws_back_to_four_and_is_asked_only_of_who_may_take_it() -> None:
    # URB-ROUND-1, URB-ROUND-2
    state = _at("newhand")
    assert state.owed == 0 and state.to_act == (state.turn,)
    _refused(state, "URB-ROUND-1", newhand=tuple(0 for _ in state.newhand))
    _refused(state, "URB-ROUND-1", owed=3)  # a full hand and 3 more to draw
    others = (state.turn + 1) % state.players
    emptied = tuple(() if p == others else h for p, h in enumerate(state.hands))
    _refused(state, "URB-ROUND-2", hands=emptied, draw=tuple(sorted(state.draw + state.hands[others])))


def test_phase_3_draws_one_card_each_in_turn_order() -> None:
    # URB-ROUND-7, URB-ROUND-2: players after the one drawing have not drawn yet
    state = _at("draw")
    assert state.owed == 1
    _refused(state, "URB-ROUND-7", owed=2)
    last = (state.first - 1) % state.players  # draws last, so holds at most 3 now
    if last != state.turn:
        full = tuple(sorted(state.hands[last] + state.draw[:1]))
        draw = state.draw[1:]
        _refused(
            state, "URB-ROUND-7", hands=tuple(full if p == last else h for p, h in enumerate(state.hands)), draw=draw
        )
    # a player who has drawn holds cards
    drawn = [
        p
        for p in range(state.players)
        if (p - state.first) % state.players < (state.turn - state.first) % state.players
    ]
    for p in drawn:
        _refused(state, "URB-ROUND-2", hands=tuple(() if q == p else h for q, h in enumerate(state.hands)),
                 draw=tuple(sorted(state.draw + state.hands[p])))  # fmt: skip


def test_before_the_layout_tokens_are_in_place_and_nothing_is_dealt() -> None:
    # URB-SETUP-2, URB-SETUP-4
    start = game(3).initial_state()
    assert start.phase == "layout" and start.tokens == TOKEN_CELLS
    moved = (*TOKEN_CELLS[:8], (-1, 0), *TOKEN_CELLS[9:])  # I on a cell the layout will fill
    _refused(start, "URB-SETUP-2", tokens=moved)
    letter = start.draw[-1]
    _refused(start, "URB-SETUP-4", draw=start.draw[:-1], discard=(letter,))


def test_a_token_waiting_to_move_stands_on_the_newest_building() -> None:
    # URB-URBANIZE-3
    state = pos("hands=D/E tiles=R5/- supply=3/0 reserve=22/25")
    state = play(state, (0, "select D R5"), (1, "select E"))
    assert state.pending == "token"
    assert state.tokens[3] == state.cells[-1]
    _refused(state, "URB-URBANIZE-3", tokens=(*state.tokens[:3], (9, 9), *state.tokens[4:]))


def test_a_tableau_holds_only_cards_of_tiles_built_over() -> None:
    # URB-CONSTRUCT-1: the card of the building built on goes to the tableau, its tile now covered
    with pytest.raises(InvalidStateError, match="URB-CONSTRUCT-1"):
        pos("hands=E/F tableau=R4/-")  # R4 is still in the stack: it could be built and its card dealt
    with pytest.raises(InvalidStateError, match="URB-CONSTRUCT-1"):
        pos("city=0,0:R4! hands=E/F tableau=R4/-")  # a new building's card joins the deck, not a tableau
    state = pos("city=0,0:R4.Y20 hands=E/Y20 tableau=R4/-")
    assert state.tableau[0] == (card("R4"),)


def test_starting_items_stop_when_the_stack_is_exhausted() -> None:
    # URB-GAIN-3: a shortfall is lost, during setup as during an action
    state = _at("items", players=2)
    left = 1
    tampered = attrs.evolve(state, draws_left=left)
    tampered.validate()
    rng = random.Random(1)
    while tampered.phase == "items":
        tampered = tampered.play(tampered.random_move(rng))
        tampered.validate()
    assert tampered.exhaustion == 1 and tampered.draws_left == 0
    assert tampered.phase == "first" and tampered.owed == 0


def test_views_read_from_json_are_held_to_the_invariants_of_positions() -> None:
    # URB-RAND-5, URB-COMP-6: a view is checked by drawing a position from it
    state = random_until(game(3).initial_state(), "choose", random.Random(4))
    chooser = state.to_act[0]
    state = state.play(state.legal_moves(chooser)[0], chooser)  # one secret selection made
    text = json.loads(cb.to_json(state.view(0)))
    assert cb.from_json(json.dumps(text)) == state.view(0)
    tampered = {
        "round": 10**30, "phase": "bogus", "turn": 7, "reserve": [10**6, 0, 0], "draws_left": -5,
        "pending": "fly", "to_act": [0, 0], "draw_size": text["view"]["draw_size"] + 1, "owed": 9,
        "hand_sizes": [5, *text["view"]["hand_sizes"][1:]], "second_size": 3,
    }  # fmt: skip
    for key, value in tampered.items():
        doc = json.loads(json.dumps(text))
        doc["view"][key] = value
        with pytest.raises(cb.NotationError, match=r"\$\.view"):
            cb.from_json(json.dumps(doc))
