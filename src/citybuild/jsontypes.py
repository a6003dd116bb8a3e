"""What a type annotation is, as the JSON readers and writers see it: scalars, tuples, named
tuples, unions, literals, dicts with integer keys, and attrs classes with their fields resolved."""

from __future__ import annotations

import functools
import sys
import types
import typing
from typing import Any, Literal, Union

import attrs

NONE = type(None)
_LITERAL: Any = Literal
SCALARS = (int, str, bool)


def is_namedtuple(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def is_union(cls: Any) -> bool:
    return typing.get_origin(cls) in (Union, types.UnionType)


def is_tuple(cls: Any) -> bool:
    return cls is tuple or typing.get_origin(cls) is tuple


def is_literal(cls: Any) -> bool:
    return typing.get_origin(cls) is _LITERAL


def is_int_key_dict(cls: Any) -> bool:
    args = typing.get_args(cls)
    return typing.get_origin(cls) is dict and len(args) == 2 and args[0] is int


_RESOLVED: dict[type, list[attrs.Attribute[Any]]] = {}


def fields(cls: type) -> list[attrs.Attribute[Any]]:
    """The attrs fields of ``cls``, their annotations resolved one by one, so that a field typed
    only for type checkers (``if TYPE_CHECKING``) costs only that field: it reads as ``Any``."""
    if cls not in _RESOLVED:
        out = []
        for field in attrs.fields(cls):
            annotation = field.type
            if isinstance(annotation, typing.ForwardRef):
                annotation = annotation.__forward_arg__
            if isinstance(annotation, str):
                try:  # in the module of the class that declares the field (a base class may)
                    annotation = eval(annotation, _namespace(cls, field.name))  # declared classes only
                except Exception:
                    annotation = Any
            out.append(field.evolve(type=Any if annotation is None else annotation))
        _RESOLVED[cls] = out
    return _RESOLVED[cls]


def _namespace(cls: type, name: str) -> dict[str, Any]:
    """The globals of the module whose class in ``cls``'s MRO declares the field ``name``."""
    for owner in cls.__mro__:
        if name in vars(owner).get("__annotations__", {}):
            module = sys.modules.get(owner.__module__)
            return dict(vars(module)) if module else {}
    return {}


@functools.lru_cache(maxsize=256)  # get_type_hints evaluates the annotations: once per class
def namedtuple_types(cls: Any) -> tuple[Any, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(hints.get(name, Any) for name in cls._fields)
