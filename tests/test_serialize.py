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


def view_doc(state: cb.State | None = None, player: int = 0) -> dict[str, Any]:
    return json.loads(cb.to_json((state or mid_game()).view(player)))  # type: ignore[no-any-return]


def test_a_document_may_only_name_classes_of_its_own_type() -> None:
    state = mid_game()
    body = state_doc()["state"]
    disguised = {"format": 1, "type": "view", "game": "manhattan", "class": "ManhattanState", "view": body}
    disguised["view"]["game"] = {"anything": 1}
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(disguised))
    assert err.value.where == "$.class" and "a state class, not a view class" in str(err.value)
    view = view_doc(state)
    doc = state_doc()
    doc["class"] = view["class"]  # a state document naming the view class
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == "$.class" and "a view class, not a state class" in str(err.value)
    move = json.loads(cb.to_json(state.legal_moves()[0]))
    for kind, name in (("move", view["class"]), ("move", "ManhattanState"), ("view", move["class"])):
        tampered = {**(move if kind == "move" else view), "class": name}
        with pytest.raises(cb.NotationError) as err:
            cb.from_json(json.dumps(tampered))
        assert err.value.where == "$.class", (kind, name)
    assert cb.from_json(json.dumps(view)) == state.view(0)  # the right class still reads


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.update(players=0), "$.scores.players"),
        (lambda d: d.update(players=-3), "$.scores.players"),
        (lambda d: d.update(players=10**30), "$.scores.players"),
        (lambda d: (d["items"][0].update(player=2), d.update(players=1)), "$.scores.items[0].player"),
        (lambda d: d["items"][0].update(player=10**30), "$.scores.items[0].player"),
        (lambda d: d["items"][1].update(player=-1), "$.scores.items[1].player"),
        (lambda d: d["items"][0].update(points=1.5), "$.scores.items[0].points"),
        (lambda d: d["items"][0].update(points="3"), "$.scores.items[0].points"),
        (lambda d: d.update(winners=[3]), "$.scores.winners[0]"),
        (lambda d: d.update(winners=[0, -1]), "$.scores.winners[1]"),
        (lambda d: d.update(winners=[1, 1]), "$.scores.winners[1]"),
    ],
)
def test_tampered_scores_json(edit: Any, where: str) -> None:
    sheet = mid_game(steps=200).scores()
    assert len(sheet.items) >= 2
    doc = json.loads(cb.to_json(sheet))
    edit(doc["scores"])
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == where, str(err.value)


def test_a_ledger_that_breaks_its_invariants_is_refused() -> None:
    state = mid_game(steps=200)
    for field, value in (("player", 7), ("player", -1), ("points", 1000)):
        doc = json.loads(cb.to_json(state))
        doc["state"]["ledger"][0][field] = value
        with pytest.raises(cb.NotationError) as err:
            cb.from_json(json.dumps(doc))
        assert err.value.where == "$.state", (field, value)
        assert isinstance(err.value.__cause__, cb.InvalidStateError)


def _other_hand(d: dict[str, Any]) -> None:
    d["hands"][1] = [5, 0, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize(
    "edit",
    [
        _other_hand,
        lambda d: d["hands"][0].__setitem__(0, 10**30),
        lambda d: d["hands"].pop(),
        lambda d: d["points"].append(0),
        lambda d: d.update(player=5),
    ],
)
def test_impossible_views_are_refused(edit: Any) -> None:
    doc = view_doc()
    edit(doc["view"])
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where == "$.view", str(err.value)
    assert isinstance(err.value.__cause__, cb.InvalidStateError)


@pytest.mark.parametrize(
    "text",
    [
        '{"format": ' + "1" * 5000 + "}",  # beyond Python's int-digit limit
        '{"format": 1, "type": "game", "game": {"name": "manhattan", "players": ' + "2" * 5000 + "}}",
        "[" * 100_000,
        '{"a": ' * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"format": NaN}',
        '{"format": Infinity}',
        '{"format": 1.0, "type": "game", "game": {"name": "manhattan", "preset": "standard", "players": 2}}',
        '{"format": true, "type": "game", "game": {"name": "manhattan", "preset": "standard", "players": 2}}',
        '\ufeff{"format": 1}',
        '{"format": 1, "type": ["state"]}',
        '{"format": 1, "type": {"state": 1}}',
    ],
)
def test_unreadable_documents_are_notation_errors(text: str) -> None:
    with pytest.raises(cb.NotationError):
        cb.from_json(text)


def test_deeply_nested_values_inside_a_document() -> None:
    doc = state_doc()
    nested: list[Any] = []
    for _ in range(500):
        nested = [nested]
    doc["state"]["towers"][first_tower(doc)] = nested
    doc["state"]["hands"][0] = nested
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where is not None and err.value.where.startswith("$.state.")


def test_a_huge_player_number_in_a_score_sheet_is_not_quoted_whole() -> None:
    """A 4000-digit player count was quoted digit by digit in the error message (found by the JSON fuzz)."""
    for field, value in (("players", "1" * 4000), ("winners", f"[{'1' * 4000}]")):
        scores = {"players": 2, "items": [], "winners": [], "tiebreak": None} | {field: None}
        text = json.dumps({"format": 1, "type": "scores", "scores": scores}).replace("null", value, 1)
        with pytest.raises(cb.NotationError, match="score sheet") as caught:
            cb.from_json(text)
        assert len(str(caught.value)) < 300
