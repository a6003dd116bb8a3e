"""The strict converter on the kinds of classes a plugin game may declare: defaults, keyword-only
and private fields, literals, optional and union fields, named tuples, integer-keyed dicts,
nested classes. The compiled readers and the explaining hooks read the same values and refuse the
same documents at the same place."""

from __future__ import annotations

import json
from typing import Any, Literal, NamedTuple

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citybuild import jsonvalues
from citybuild.core.errors import NotationError
from citybuild.jsoncompiler import Interned


class Cell(NamedTuple):
    row: int
    col: int


class Floor(NamedTuple):
    tile: int
    owner: int | None = None


@attrs.frozen
class Token:
    owner: int
    label: str = ""


@attrs.frozen
class Marker:
    owner: int
    hidden: bool


@attrs.frozen
class Board:
    size: Literal["small", "large"]
    cells: tuple[Cell, ...]
    stacks: tuple[tuple[Token, ...], ...]
    scores: dict[int, int]
    last: Token | None
    slot: Token | Marker
    mixed: tuple[int | str, ...]
    pair: tuple[int, tuple[str, ...]]
    floors: tuple[Floor, ...]
    _secret: int = attrs.field(default=0, alias="secret")
    note: str = attrs.field(default="", kw_only=True)


GOOD: dict[str, Any] = {
    "size": "small",
    "cells": [[0, 1], [2, 3]],
    "stacks": [[], [{"owner": 1, "label": "a"}], [{"owner": 0, "label": ""}, {"owner": 2, "label": "b"}]],
    "scores": {"0": 3, "1": -2},
    "last": None,
    "slot": {"owner": 1, "hidden": True},
    "mixed": [1, "x", 2],
    "pair": [5, ["p", "q"]],
    "floors": [[3, None], [4, 1]],
    "_secret": 7,
    "note": "n",
}
EXPECTED = Board(
    "small",
    (Cell(0, 1), Cell(2, 3)),
    ((), (Token(1, "a"),), (Token(0, ""), Token(2, "b"))),
    {0: 3, 1: -2},
    None,
    Marker(1, True),
    (1, "x", 2),
    (5, ("p", "q")),
    (Floor(3), Floor(4, 1)),
    secret=7,
    note="n",
)


def read(value: Any) -> Any:
    return jsonvalues.structure(value, Board, "$")


def both(value: Any) -> tuple[Any, Any]:
    """(compiled, explaining) outcome: the value read, or where it was refused."""
    out = []
    for fast in (True, False):
        jsonvalues.FAST = fast
        try:
            out.append(read(value))
        except NotationError as exc:
            out.append(exc.where)
        finally:
            jsonvalues.FAST = True
    return out[0], out[1]


def test_a_full_document_reads_and_writes_back() -> None:
    assert read(GOOD) == EXPECTED
    assert both(GOOD) == (EXPECTED, EXPECTED)
    written = jsonvalues.converter.unstructure(EXPECTED)
    assert written["_secret"] == 7 and read(json.loads(json.dumps(written))) == EXPECTED


def test_defaults_may_be_left_out() -> None:
    partial = {k: v for k, v in GOOD.items() if k not in ("_secret", "note")}
    assert both(partial) == (attrs.evolve(EXPECTED, secret=0, note=""),) * 2


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"size": "medium"}, "$.size"),
        ({"size": 1}, "$.size"),
        ({"cells": [[0, 1], [2, True]]}, "$.cells[1].col"),
        ({"cells": [[0, 1], [2, 3, 4]]}, "$.cells[1]"),
        ({"cells": [[0, 1.0]]}, "$.cells[0].col"),
        ({"cells": "01"}, "$.cells"),
        ({"stacks": [[], [{"owner": "1", "label": "a"}]]}, "$.stacks[1][0].owner"),
        ({"stacks": [[], [{"owner": 1, "label": "a", "extra": 0}]]}, "$.stacks[1][0]"),
        ({"scores": {"٣": 1}}, "$.scores['٣']"),
        ({"scores": {"01": 1}}, "$.scores['01']"),
        ({"scores": {"1": None}}, "$.scores['1']"),
        ({"scores": [1]}, "$.scores"),
        ({"slot": {"hidden": True}}, "$.slot"),
        ({"slot": {"owner": 1, "hidden": 1}}, "$.slot.hidden"),
        ({"slot": [1]}, "$.slot"),
        ({"mixed": [1, None]}, "$.mixed[1]"),
        ({"mixed": [1, 2.5]}, "$.mixed[1]"),
        ({"pair": [5, ["p", 1]]}, "$.pair[1][1]"),
        ({"pair": [5]}, "$.pair"),
        ({"floors": [[3, None], [4, True]]}, "$.floors[1].owner"),
        ({"floors": [[3]]}, "$.floors[0]"),
        ({"floors": [[None, 1]]}, "$.floors[0].tile"),
        ({"_secret": 10**40 + 0.5}, "$._secret"),
    ],
)
def test_wrong_values_are_refused_at_their_path_by_both_readers(change: dict[str, Any], where: str) -> None:
    fast, slow = both({**GOOD, **change})
    assert fast == slow == where


def test_missing_and_unknown_fields() -> None:
    assert both({k: v for k, v in GOOD.items() if k != "cells"}) == ("$.cells",) * 2
    assert both({**GOOD, "colour": 1}) == ("$",) * 2
    assert both([GOOD]) == ("$",) * 2


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1.5, "x", "", "small", "large", "٣", "0"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["owner", "label", "0", "x"]), inner),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(GOOD)), JSONISH)
def test_both_readers_agree_on_any_value_of_any_field(field: str, value: Any) -> None:
    fast, slow = both({**GOOD, field: value})
    assert fast == slow


def test_named_tuples_are_made_once_and_the_table_of_them_is_bounded() -> None:
    """The compiled reader builds each named tuple of scalars once and looks it up after that:
    the value is of its class and equal to one built by hand; the table stops growing at its
    limit, and lookups past it still give the right values."""
    first, again = read(GOOD).cells, read(GOOD).cells
    assert first == (Cell(0, 1), Cell(2, 3)) and all(type(cell) is Cell for cell in first)
    assert all(a is b for a, b in zip(first, again, strict=True))
    table = Interned(Cell)
    made = [table[(row, 0)] for row in range(Interned.LIMIT + 50)]
    assert made == [Cell(row, 0) for row in range(Interned.LIMIT + 50)] and all(type(c) is Cell for c in made)
    assert len(table) == Interned.LIMIT and table[(3, 0)] is made[3]


def test_an_interned_integer_does_not_let_a_bool_through() -> None:
    """true == 1 in Python, so (true, 1) would find the entry of (1, 1): the reader checks the
    kinds first, and both readers refuse it at the same place."""
    assert read({**GOOD, "cells": [[1, 1]]}).cells == (Cell(1, 1),)
    assert both({**GOOD, "cells": [[True, 1]]}) == ("$.cells[0].row", "$.cells[0].row")
