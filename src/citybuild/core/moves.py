"""Well-formed moves: a move is one of its game's move classes, each field of its declared type.

A move object can be made by hand with anything in its fields (``Build(1, "Syd", 0, 1)``,
``Build(1, 1.5, 0, 1)``). The rules only ever see well-formed moves: ``State.check`` refuses any
other with a verdict that says which field is wrong, before a game's explainer reads it. Types
are strict, as in the notation: a bool or a float is not an int even where it compares equal.
"""

from __future__ import annotations

import types
import typing
from functools import lru_cache
from typing import Any, Literal, Union, cast

import attrs

_MAX_SHOWN = 60


@lru_cache(maxsize=256)
def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints.get(f.name, Any)) for f in attrs.fields(cls))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "..."


def _fits(value: Any, kind: Any, depth: int = 0) -> bool:
    """Whether ``value`` is of the type ``kind`` (the annotation kinds moves use)."""
    if depth > 8:
        return False
    if kind is Any:
        return True
    if kind is None or kind is type(None):
        return value is None
    if kind is int:
        return type(value) is int
    if kind is str or kind is bool:
        return type(value) is kind
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (Union, types.UnionType):
        return any(_fits(value, arm, depth + 1) for arm in args)
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin is tuple:
        if type(value) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0], depth + 1) for item in value)
        return len(value) == len(args) and all(_fits(v, a, depth + 1) for v, a in zip(value, args, strict=True))
    if isinstance(kind, type):
        return isinstance(value, kind)
    return True


def malformed(move: Any, move_types: tuple[type, ...], game: str = "this game") -> tuple[str, str] | None:
    """Why ``move`` is not a well-formed move of ``game`` with these move classes, as (the field
    at fault, or "" for the move itself; a message); None if it is well-formed."""
    kind = type(move)
    if kind not in move_types:
        names = ", ".join(t.__name__ for t in move_types)
        return "", f"{_shown(move)} is not a {game} move (its moves are {names})"
    for name, annotation in _field_types(cast(type, kind)):
        value = getattr(move, name)
        if not _fits(value, annotation):
            wanted = getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
            return name, f"{kind.__name__}.{name} must be {wanted}, not {_shown(value)} ({type(value).__name__})"
    return None
