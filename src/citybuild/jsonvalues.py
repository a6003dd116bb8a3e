"""Typed values from JSON values and back: one strict cattrs converter for every game's classes.

cattrs generates the hooks of attrs classes (fields, missing and extra keys, error paths). What
it cannot do is here, and nothing more:

- strictness: an int is a JSON integer (not a bool or a float), a string a string, a tuple an
  array of the right length, integer keys are written in ASCII digits, a union's arm is chosen
  by the value's JSON kind;
- annotations that only a type checker resolves (``if TYPE_CHECKING``) read as ``Any``, and a
  state's ``game`` is passed in rather than read;
- speed: each class or tuple type is read by one compiled function of nested expressions that
  check kinds and build the value in a single pass; only when it refuses a value do the
  element-by-element hooks run, to say where and why (as a cattrs error tree whose path
  ``error_at`` turns into ``NotationError.where``, e.g. ``$.state.towers[3][0].size``).

Writing needs no hook of ours beyond cattrs' generated ones: ints, strings, tuples and named
tuples are handed to ``json`` as they are.
"""

from __future__ import annotations

import functools
import json
import re
import typing
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, ClassValidationError, IterableValidationError, IterableValidationNote
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn_from_attrs, make_dict_unstructure_fn_from_attrs, override
from cattrs.v import format_exception, transform_error

from citybuild.core.errors import NotationError
from citybuild.core.text import plural
from citybuild.jsoncompiler import Compiler
from citybuild.jsontypes import (
    NONE,
    SCALARS,
    fields,
    is_int_key_dict,
    is_literal,
    is_namedtuple,
    is_tuple,
    is_union,
    namedtuple_types,
)


def show(value: Any) -> str:
    """``value`` for an error message, short whatever it is (a tampered document may hold a
    megabyte string or an array nested a thousand deep)."""
    if isinstance(value, list):
        return f"an array of {plural(len(value), 'item')}"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def brief(text: str) -> str:
    """An error message cut to a readable length (a document's integers may have thousands of
    digits and its strings any length; the message need only say which and why)."""
    return text if len(text) <= 400 else f"{text[:200]} ... {text[-150:]}"


def _noted(exc: Exception, note: Any) -> Exception:
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
    return exc


# --- the explaining hooks: element by element, errors noted with where they are -------------------
converter = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
"""The one converter; every game's classes go through its hooks."""

_KIND_NAMES = {int: "an integer", bool: "true or false", str: "a string", float: "a number"}


def _scalar_hook(kind: type) -> Callable[[Any, Any], Any]:
    allowed = (int, float) if kind is float else (kind,)

    def structure(value: Any, _: Any) -> Any:
        if type(value) not in allowed:
            raise ValueError(f"expected {_KIND_NAMES[kind]}, got {show(value)}")
        return kind(value)

    return structure


def _structure_literal(value: Any, cls: Any) -> Any:
    for choice in typing.get_args(cls):
        if type(value) is type(choice) and value == choice:
            return choice
    raise ValueError(f"expected one of {', '.join(json.dumps(c) for c in typing.get_args(cls))}, got {show(value)}")


def _items(cls: Any, pairs: Any, note: Callable[[Any, Any], Any]) -> list[Any]:
    """Each (key, kind, value) read, every error noted with its key; raise them all together."""
    out, errors = [], []
    for key, kind, value in pairs:
        try:
            out.append(converter.structure(value, kind))
        except Exception as exc:
            errors.append(_noted(exc, note(key, kind)))
    if errors:
        group = ClassValidationError if is_namedtuple(cls) else IterableValidationError
        raise group(f"While structuring {cls!r}", errors, cls)
    return out


def _structure_tuple(value: Any, cls: Any) -> Any:
    if type(value) is not list:
        raise ValueError(f"expected an array, got {show(value)}")
    args = typing.get_args(cls) or (Any, ...)
    if args[-1] is not Ellipsis and len(value) != len(args):
        raise ValueError(f"expected an array of {plural(len(args), 'item')}, got {len(value)}")
    kinds = [args[0]] * len(value) if args[-1] is Ellipsis else args
    index = lambda i, kind: IterableValidationNote(f"index {i}", i, kind)  # noqa: E731
    return tuple(_items(cls, zip(range(len(value)), kinds, value, strict=True), index))


def _structure_namedtuple(value: Any, cls: Any) -> Any:
    names = cls._fields
    if type(value) is not list or len(value) != len(names):
        raise ValueError(f"expected an array of {plural(len(names), 'item')} ({', '.join(names)}), got {show(value)}")
    attribute = lambda name, kind: AttributeValidationNote(f"attribute {name}", name, kind)  # noqa: E731
    return cls(*_items(cls, zip(names, namedtuple_types(cls), value, strict=True), attribute))


_INTEGER_KEY = re.compile(r"0|-?[1-9][0-9]{0,29}")


def _structure_int_key_dict(value: Any, cls: Any) -> Any:
    """An object with integer keys (JSON keys are strings: ``"2"``, never ``"٢"`` or ``"02"``)."""
    if type(value) is not dict:
        raise ValueError(f"expected an object, got {show(value)}")
    kind = typing.get_args(cls)[1]
    keys = []
    for key in value:
        if type(key) is int or (type(key) is str and _INTEGER_KEY.fullmatch(key)):
            keys.append(int(key))
        else:
            problem = ValueError(f"expected an integer key written in ASCII digits, got {show(key)}")
            raise IterableValidationError("While structuring keys", [_noted(problem, _key(key, int))], cls)
    return dict(zip(keys, _items(cls, ((key, kind, value[key]) for key in value), _key), strict=True))


def _key(key: Any, kind: Any) -> IterableValidationNote:
    return IterableValidationNote(f"key {key}", key, kind)


converter.register_structure_hook(int, _scalar_hook(int))
converter.register_structure_hook(bool, _scalar_hook(bool))
converter.register_structure_hook(str, _scalar_hook(str))
converter.register_structure_hook(float, _scalar_hook(float))


@functools.lru_cache(maxsize=256)
def _fitter(kind: Any) -> Callable[[Any], bool]:
    """Whether a value is of the JSON kind ``kind`` is written as (which picks a union's arm), once per kind."""
    if attrs.has(kind):
        known = {f.name for f in fields(kind) if f.init}
        required = {f.name for f in fields(kind) if f.init and f.default is attrs.NOTHING}
        return lambda value: type(value) is dict and required <= value.keys() <= known
    if kind is NONE or kind in _KIND_NAMES or is_literal(kind):  # a float may be written as an int
        allowed = {float, int} if kind is float else {type(c) for c in typing.get_args(kind)} or {kind}
    elif is_tuple(kind) or is_namedtuple(kind) or typing.get_origin(kind) is dict:
        allowed = {dict} if typing.get_origin(kind) is dict else {list}
    else:
        return lambda value: True
    return lambda value: type(value) in allowed


def _structure_union(value: Any, cls: Any) -> Any:
    """The first arm of the value's JSON kind that reads it; the last such arm says why not."""
    arms = [arm for arm in typing.get_args(cls) if _fitter(arm)(value)]
    for arm in arms[:-1]:
        try:
            return converter.structure(value, arm)
        except Exception:  # the next arm may read it
            continue
    if arms:
        return None if arms[-1] is NONE else converter.structure(value, arms[-1])
    kinds = {"null" if a is NONE else _KIND_NAMES.get(a, "an array or object") for a in typing.get_args(cls)}
    raise ValueError(f"expected {' or '.join(sorted(kinds))}, got {show(value)}")


def _generated_hook(cls: type, **overrides: Any) -> Callable[[Any, Any], Any]:
    """cattrs' generated hook of an attrs class, for JSON objects only."""
    generated: Callable[[Any], Any] = make_dict_structure_fn_from_attrs(fields(cls), cls, converter, **overrides)

    def structure(value: Any, _: Any = None) -> Any:
        if type(value) is not dict:
            raise ValueError(f"expected an object for {cls.__name__}, got {show(value)}")
        return generated(value)

    return structure


def _explaining_hook(cls: Any) -> Callable[[Any, Any], Any]:
    if is_namedtuple(cls):
        return _structure_namedtuple
    if is_tuple(cls):
        return _structure_tuple
    if is_union(cls):
        return _structure_union
    if is_literal(cls):
        return _structure_literal
    if attrs.has(cls):
        return _generated_hook(cls)
    if is_int_key_dict(cls):
        return _structure_int_key_dict
    return converter.get_structure_hook(cls)


# --- the compiled readers -----------------------------------------------------------------------
FAST = True
"""Whether the compiled readers run (tests turn them off to check that they agree with the
explaining hooks)."""


def _hook(cls: Any) -> Callable[[Any, Any], Any]:
    """The compiled reader, and when it refuses a value the explaining hook (which raises with
    the path, or reads what the compiled reader does not know)."""
    fast = Compiler(_explaining_hook, _fitter).build(cls)
    slow = _explaining_hook(cls)

    def structure(value: Any, _: Any = None) -> Any:
        if FAST:
            try:
                return fast(value)
            except Exception:  # the explaining hook says what is wrong
                pass
        return slow(value, cls)

    return structure


def _is_compound(cls: Any) -> bool:
    return is_tuple(cls) or is_namedtuple(cls) or is_union(cls) or is_literal(cls) or attrs.has(cls)


converter.register_structure_hook_factory(is_int_key_dict, lambda cls: _structure_int_key_dict)
converter.register_structure_hook_factory(_is_compound, _hook)


# --- writing -------------------------------------------------------------------------------------
def _is_plain(cls: Any) -> bool:
    """Types ``json`` writes as they are: scalars, and tuples, named tuples and unions of them."""
    if cls in (*SCALARS, float, NONE) or is_literal(cls):
        return True
    if is_namedtuple(cls):
        return all(_is_plain(k) for k in namedtuple_types(cls))
    args = [a for a in typing.get_args(cls) if a is not Ellipsis]
    return (is_tuple(cls) or is_union(cls)) and bool(args) and all(_is_plain(a) for a in args)


converter.register_unstructure_hook_factory(
    attrs.has, lambda cls: make_dict_unstructure_fn_from_attrs(fields(cls), cls, converter)
)
converter.register_unstructure_hook_func(_is_plain, identity)


# --- errors and state bodies ---------------------------------------------------------------------
def _describe(exc: BaseException, cls: Any) -> str:
    if isinstance(exc, ValueError | TypeError) and str(exc) and not isinstance(exc, ClassValidationError):
        return str(exc)
    return format_exception(exc, cls)


def error_at(exc: Exception, path: str) -> NotationError:
    """The first problem of a cattrs error tree as a ``NotationError`` whose ``where`` is its path."""
    messages = transform_error(exc, path, format_exception=_describe)
    first = messages[0] if messages else str(exc)
    message, _, where = first.rpartition(" @ ")
    return NotationError(brief(message or first), where or path)


def structure(value: Any, cls: Any, path: str) -> Any:
    """``value`` read as ``cls``; anything wrong is a ``NotationError`` at its path under ``path``."""
    try:
        return converter.structure(value, cls)
    except NotationError:
        raise
    except Exception as exc:
        raise error_at(exc, path) from None


_BODIES: dict[type, tuple[Callable[[Any, Any], Any], Callable[[Any], Any]]] = {}
_OMITTED = override(omit=True)  # a state body leaves out its game, which the document names apart


def body(cls: type) -> tuple[Callable[[Any, Any], Any], Callable[[Any], Any]]:
    """``(read, write)`` for a state class: ``read(value, game)`` builds it from a JSON object of
    every field but ``game`` (which a document names apart), ``write(state)`` gives that object."""
    if cls not in _BODIES:
        fast = Compiler(_explaining_hook, _fitter).build(cls, ("game",))
        slow = _generated_hook(cls, game=override(struct_hook=lambda value, _: value))

        def read(value: Any, game: Any) -> Any:
            if FAST:
                try:
                    return fast(value, game)
                except Exception:  # the explaining hook says what is wrong
                    pass
            if type(value) is dict and "game" in value:
                raise ValueError("unknown field 'game': the game is named apart")
            return slow({**value, "game": game} if type(value) is dict else value, cls)

        _BODIES[cls] = (read, make_dict_unstructure_fn_from_attrs(fields(cls), cls, converter, game=_OMITTED))
    return _BODIES[cls]
