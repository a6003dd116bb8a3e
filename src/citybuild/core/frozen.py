"""A fast ``attrs.evolve`` for the frozen, slotted state classes of the games.

States are replaced on every move of every playout; ``attrs.evolve`` re-runs ``__init__`` with
its argument handling, which dominates a playout. This copies the slots directly. It skips
validators and converters, so use it only for values the engine itself has computed.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

_set = object.__setattr__


@cache
def _names(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))


def replace(obj: T, **changes: Any) -> T:
    """A copy of the frozen attrs instance ``obj`` with some fields changed."""
    cls: Any = type(obj)
    new: T = object.__new__(cls)
    for name in _names(cls):
        _set(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
