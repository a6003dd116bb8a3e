"""One set of invariants for both readers of a position: any state that ``from_json`` accepts,
``parse_state(state.notation())`` accepts too, and gives the same state back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fuzz_support import CONFIGS, config_id, corpus, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.errors import InvalidStateError, NotationError

INTS = st.sampled_from([-(10**6), -1000000, -1, 0, 1, 2, 5, 9, 60, 72, 99, 1000, 10**4 + 1, 2**40])


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value that holds an int, and every list (where an int may be added)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, bool):
        return out
    if isinstance(value, int):
        return [path]
    if isinstance(value, list):
        out.append((*path, "append"))
        for i, item in enumerate(value):
            out.extend(_paths(item, (*path, i)))
    elif isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*path, key)))
    return out


def _tamper(data: Any, path: tuple[Any, ...], number: int) -> None:
    *head, last = path
    for key in head:
        data = data[key]
    if last == "append":
        data.append(data[-1] if data and number == 5 else number)  # sometimes a repeated item
    else:
        data[last] = number


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@fuzz_settings(150)
@given(data=st.data())
def test_what_from_json_accepts_the_notation_reader_accepts(config: tuple[str, str, int], data: st.DataObject) -> None:
    states, _ = corpus(config)
    state = data.draw(st.sampled_from(states))
    document = json.loads(cb.to_json(state))
    path = data.draw(st.sampled_from(_paths(document["state"])))
    _tamper(document["state"], path, data.draw(INTS))
    try:
        read = cb.from_json(json.dumps(document))
    except NotationError:
        return  # refused: nothing to compare
    text = read.notation()
    try:
        again = read.game.parse_state(text)
    except (NotationError, InvalidStateError) as exc:
        pytest.fail(f"from_json accepts {path} but its notation is refused: {exc}")
    assert again == read, path


def _urbanization_document(players: int = 2) -> tuple[dict[str, Any], dict[str, Any]]:
    """A position of a real game after its setup, as a state document and P0's view document."""
    match = cb.Match(cb.load("urbanization", players=players), seed=1)
    while match.state.is_chance or not match.state.to_act:
        match.play(match.random_move())
    return json.loads(cb.to_json(match.state)), json.loads(cb.to_json(match.state.view(0)))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("passed", [[-1], []]),
        ("passed", [[1000], []]),
        ("passed", [[5, 5], []]),
        ("sp", [2**40, 0]),
        ("round", -1),
        ("used", [-1000000, 0]),
    ],
)
def test_urbanization_json_is_read_as_strictly_as_notation(field: str, value: Any) -> None:
    document, _ = _urbanization_document()
    document["state"][field] = value
    with pytest.raises(NotationError, match=r"not a possible position: .*\(URB-"):
        cb.from_json(json.dumps(document))


def test_a_view_with_an_impossible_card_is_refused_not_an_index_error() -> None:
    _, document = _urbanization_document()
    document["view"]["passed"] = [2**40]
    with pytest.raises(NotationError, match="passed holds 1099511627776"):
        cb.from_json(json.dumps(document))
