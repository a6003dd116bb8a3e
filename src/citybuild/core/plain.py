"""Notation derived from declared fields, for games whose moves and positions hold small values.

A move class mixing in ``Worded`` is written as its name in lower case and then its fields
(``Step(2)`` is ``step 2``); a position whose fields are integers, booleans, words or tuples of
integers is written as ``game/players`` and then ``field=value`` in declaration order
(``race/2 turn=0 pawns=3/1 rolling=0``). ``Game.parse_move``, ``Game.parse_state`` and
``State.notation`` fall back on these, so such a game writes no notation code: its fields are
declared once, and the text is read and written from that declaration.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs

from citybuild.core.errors import NotationError
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int
from citybuild.core.position import declared, resolved
from citybuild.core.text import plain

if TYPE_CHECKING:
    from citybuild.core.game import Game, State


class Worded:
    """Mixed into a frozen attrs move class: its notation is its name in lower case and its
    integer fields, read back by ``parse_worded``."""

    __slots__ = ()

    def __str__(self) -> str:
        values = (str(getattr(self, f.name)) for f in attrs.fields(cast(Any, type(self))))
        return " ".join((type(self).__name__.lower(), *values))


def parse_worded(text: Any, classes: Sequence[type]) -> Any:
    """A ``Worded`` move of one of ``classes`` from its text; ``NotationError`` says why not."""
    kind, words, where = move_words(text)
    known = {cls.__name__.lower(): cls for cls in classes if issubclass(cls, Worded)}
    cls = known.get(kind)
    if cls is None:
        raise NotationError(f"unknown move {excerpt(kind)}; moves are {', '.join(known)}", where)
    fields = attrs.fields(cast(Any, cls))
    if len(words) != len(fields):
        shown = " ".join((kind, *(f.name.upper() for f in fields)))
        raise NotationError(f"expected {shown!r}, got {excerpt(text)}", where)
    return cls(*(parse_int(word, f"{where} {field.name}") for word, field in zip(words, fields, strict=True)))


def position_text(state: State) -> str:
    """``game/players`` and then each declared field as ``name=value``, in declaration order."""
    fields = (f"{f.name}={plain(getattr(state, f.name))}" for f, _ in declared(type(state)))
    return " ".join((f"{state.game.name}/{state.game.players}", *fields))


def _read(text: str, kind: Any, where: str) -> Any:
    if kind is bool:
        if text not in ("0", "1"):
            raise NotationError(f"expected 0 or 1, got {excerpt(text)}", where)
        return text == "1"
    if kind is int:
        return parse_int(text, where)
    if kind is str:
        return text
    if typing.get_origin(kind) is tuple:
        item = typing.get_args(kind)[0]
        return () if text == "-" else tuple(_read(part, item, where) for part in text.split("/"))
    raise NotationError(f"{where} has no plain notation")


def parse_position(game: Game, cls: type[State], text: Any) -> State:
    """A position of ``cls`` from ``position_text``'s notation, checked with ``validate()``."""
    fields = declared(cls)
    given = parse_fields(text, f"{game.name}/{game.players}", [f.name for f, _ in fields])
    values = {}
    for field, _ in fields:
        if field.name in given:
            values[field.name] = _read(given[field.name], resolved(cls, field), field.name)
        elif field.default is attrs.NOTHING:
            raise NotationError(f"the position gives no {field.name}", field.name)
    state = cls(game=game, **values)  # type: ignore[call-arg]
    state.validate()
    return state
