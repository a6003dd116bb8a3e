"""JSON through one converter: round trips for every registered game, and strict reading."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.serialize import FORMAT
from citybuild.testing import play_random, states

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mid_game(name: str = "manhattan", players: int = 3, steps: int = 60, **options: Any) -> cb.State:
    return play_random(cb.load(name, players=players, **options).initial_state(), seed=5, steps=steps)


@SETTINGS
@given(st.data())
def test_states_round_trip_for_every_game(data: st.DataObject) -> None:
    state = data.draw(states(max_steps=150))
    text = cb.to_json(state)
    again = cb.from_json(text)
    assert again == state
    assert cb.to_json(again) == text  # fields outside equality (a ledger) survive too
    head = json.loads(text)
    assert head["format"] == FORMAT and head["type"] == "state"
    assert head["game"]["name"] == state.game.name and head["game"]["players"] == state.game.players


@SETTINGS
@given(st.data())
def test_views_moves_and_scores_round_trip_for_every_game(data: st.DataObject) -> None:
    state = data.draw(states(max_steps=150))
    for player in range(state.game.players):
        view = state.view(player)
        assert cb.from_json(cb.to_json(view)) == view
    for move in state.legal_moves(state.to_act[0] if state.to_act else None)[:20]:
        assert cb.from_json(cb.to_json(move)) == move
    assert cb.from_json(cb.to_json(state.scores())) == state.scores()


def test_ledger_survives() -> None:
    state = mid_game(steps=200)
    assert state.ledger  # type: ignore[attr-defined]
    assert cb.from_json(cb.to_json(state)).ledger == state.ledger  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", cb.games())
def test_rules_and_games_round_trip(name: str) -> None:
    for preset in cb.presets(name):
        game = cb.load(name, preset=preset)
        assert cb.from_json(cb.to_json(game.rules)) == game.rules
        assert cb.from_json(cb.to_json(game)) == game


def test_rules_json_names_only_overrides() -> None:
    rules = cb.load("manhattan", preset="four-rounds", redraw_limit=1).rules
    data = json.loads(cb.to_json(rules))
    assert data["game"] == "manhattan" and data["preset"] == "four-rounds"  # the closest preset
    assert data["options"] == {"redraw_limit": 1}
    assert cb.from_json(cb.to_json(rules)) == rules


def test_int_keys_and_tuples_come_back_typed() -> None:
    rules = cb.load("manhattan", pieces_per_round={2: 3, 3: 4, 4: 5}, final_tiebreak=("shared",)).rules
    again = cb.from_json(cb.to_json(rules))
    assert again.pieces_per_round == {2: 3, 3: 4, 4: 5}
    assert again.final_tiebreak == ("shared",)


def test_verdict_round_trip() -> None:
    verdict = mid_game().check("pass")
    assert not verdict.ok
    assert cb.from_json(cb.to_json(verdict)) == verdict


def test_bytes_and_indent() -> None:
    state = mid_game()
    assert cb.from_json(cb.to_json(state, indent=2).encode()) == state
    with pytest.raises(cb.NotationError):
        cb.from_json(b"\xff\xfe")


def test_unsupported_objects() -> None:
    with pytest.raises(TypeError):
        cb.to_json(object())
    with pytest.raises(TypeError):
        cb.to_json(cb.ScoreItem(0, "x", 1))
    with pytest.raises(cb.NotationError):
        cb.from_json(42)  # type: ignore[arg-type]


def state_doc() -> dict[str, Any]:
    return json.loads(cb.to_json(mid_game()))  # type: ignore[no-any-return]


def first_tower(doc: dict[str, Any]) -> int:
    return next(i for i, t in enumerate(doc["state"]["towers"]) if t)


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d["state"].update(round="2"), "$.state.round"),
        (lambda d: d["state"].update(round=2.0), "$.state.round"),
        (lambda d: d["state"].update(phase=3), "$.state.phase"),
        (lambda d: d["state"].pop("hands"), "$.state.hands"),
        (lambda d: d["state"].update(secret=1), "$.state"),
        (lambda d: d["state"]["hands"].__setitem__(1, "0123"), "$.state.hands[1]"),
        (lambda d: d["state"]["hands"][1].__setitem__(4, True), "$.state.hands[1][4]"),
        (lambda d: d["state"]["chosen"].__setitem__(0, "1124"), "$.state.chosen[0]"),
        (lambda d: d["state"]["ledger"][0].update(points="3"), "$.state.ledger[0].points"),
        (lambda d: d["state"]["towers"][first_tower(d)].__setitem__(0, [0]), None),
        (lambda d: d["state"]["towers"][first_tower(d)][0].__setitem__(1, "big"), None),
        (lambda d: d["game"].update(players="3"), "$.game.players"),
        (lambda d: d["game"].update(players=7), "$.game.players"),
        (lambda d: d["game"].update(name="chess"), "$.game.name"),
        (lambda d: d["game"].update(preset=None), "$.game.preset"),
        (lambda d: d["game"].update(options={"selection": "secret"}), "$.game.options.selection"),
        (lambda d: d.update({"class": "os.system"}), "$.class"),
        (lambda d: d.update({"class": "Build"}), "$.class"),
        (lambda d: d.update(type="states"), "$.type"),
        (lambda d: d.pop("state"), "$.state"),
    ],
)
def test_tampered_state_json(edit: Any, where: str | None) -> None:
    doc = state_doc()
    edit(doc)
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    if where is None:  # inside a tower: the exact index depends on the position
        assert err.value.where is not None and err.value.where.startswith("$.state.towers[")
    else:
        assert err.value.where == where, str(err.value)


def test_impossible_position_is_refused_with_the_invariant_as_cause() -> None:
    doc = state_doc()
    doc["state"]["draw"][0] += 1  # one card too many
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == "$.state"
    assert isinstance(err.value.__cause__, cb.InvalidStateError)
    assert "MAN-COMP-3" in str(err.value)


def test_tampered_move_and_view_json() -> None:
    state = mid_game()
    move = state.legal_moves()[0]
    doc = json.loads(cb.to_json(move))
    assert doc["type"] == "move" and doc["game"] == "manhattan"
    doc["move"]["card"] = "3"
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == "$.move.card"
    view = json.loads(cb.to_json(state.view(0)))
    assert view["type"] == "view"
    view["view"]["player"] = None
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(view))
    assert err.value.where == "$.view.player"
    view["class"] = "Build"
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(view))
    assert err.value.where == "$.class"
