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
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, Union

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, ClassValidationError, IterableValidationError, IterableValidationNote
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn_from_attrs, make_dict_unstructure_fn_from_attrs, override
from cattrs.v import format_exception, transform_error

from citybuild.core.errors import NotationError
from citybuild.core.text import plural

_NONE = type(None)
_LITERAL: Any = Literal
_SCALARS = (int, str, bool)


def _is_namedtuple(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _is_union(cls: Any) -> bool:
    return typing.get_origin(cls) in (Union, types.UnionType)


def _is_tuple(cls: Any) -> bool:
    return cls is tuple or typing.get_origin(cls) is tuple


def _is_literal(cls: Any) -> bool:
    return typing.get_origin(cls) is _LITERAL


def _is_int_key_dict(cls: Any) -> bool:
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
def _namedtuple_types(cls: Any) -> tuple[Any, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(hints.get(name, Any) for name in cls._fields)


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
        group = ClassValidationError if _is_namedtuple(cls) else IterableValidationError
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
    return cls(*_items(cls, zip(names, _namedtuple_types(cls), value, strict=True), attribute))


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
    if kind is _NONE or kind in _KIND_NAMES or _is_literal(kind):  # a float may be written as an int
        allowed = {float, int} if kind is float else {type(c) for c in typing.get_args(kind)} or {kind}
    elif _is_tuple(kind) or _is_namedtuple(kind) or typing.get_origin(kind) is dict:
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
        return None if arms[-1] is _NONE else converter.structure(value, arms[-1])
    kinds = {"null" if a is _NONE else _KIND_NAMES.get(a, "an array or object") for a in typing.get_args(cls)}
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
    if _is_namedtuple(cls):
        return _structure_namedtuple
    if _is_tuple(cls):
        return _structure_tuple
    if _is_union(cls):
        return _structure_union
    if _is_literal(cls):
        return _structure_literal
    if attrs.has(cls):
        return _generated_hook(cls)
    if _is_int_key_dict(cls):
        return _structure_int_key_dict
    return converter.get_structure_hook(cls)


# --- the compiled readers -----------------------------------------------------------------------
FAST = True
"""Whether the compiled readers run (tests turn them off to check that they agree with the
explaining hooks)."""


class _Miss(Exception):
    """The compiled reader does not read this value; the explaining hooks say why (or read it)."""


def _miss() -> Any:
    raise _Miss


class _Compiler:
    """Python source reading a JSON value into a type in one pass: each attrs class and tuple type
    becomes nested expressions that check JSON kinds and build the value, calling ``_miss()`` at
    the first thing that does not fit. A type it has no expression for (a dict, a union of
    objects) is read by its explaining hook."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {"_miss": _miss, "_tnew": tuple.__new__}
        self.functions: dict[Any, str] = {}
        self.source: list[str] = []
        self.locals = 0

    def name(self, value: Any) -> str:
        self.env[f"_c{len(self.env)}"] = value
        return f"_c{len(self.env) - 1}"

    def local(self) -> str:
        self.locals += 1
        return f"_e{self.locals}"

    def returning(self, name: str, cls: Any) -> list[str]:
        return [f"def {name}(v):", f"    return {self.expr(cls, 'v')}"]

    def define(self, key: Any, lines: Callable[[str], list[str]]) -> str:
        if key not in self.functions:
            name = self.functions[key] = f"_f{len(self.functions)}"
            self.source.append("\n".join(lines(name)) + "\n")
        return self.functions[key]

    def attrs_function(self, cls: Any, passed: tuple[str, ...] = ()) -> str:
        """``f(v, *passed)``: an attrs class from a JSON object with exactly its fields; the
        fields named in ``passed`` are arguments, not read."""

        def lines(name: str) -> list[str]:
            known = [f for f in fields(cls) if f.init]
            keys = self.name(frozenset(f.name for f in known if f.name not in passed))
            params = "".join(f", {p}" for p in passed)
            out = [f"def {name}(v{params}):", f"    if type(v) is not dict or v.keys() != {keys}:", "        _miss()"]
            args = []
            for i, f in enumerate(known):
                value = f.name if f.name in passed else f"_a{i}"
                if f.name not in passed:
                    out.append(f"    {value} = v[{f.name!r}]")
                    value = self.expr(f.type, value)
                args.append(f"{f.alias}={value}" if f.kw_only else value)
            return [*out, f"    return {self.name(cls)}({', '.join(args)})"]

        return self.define((cls, passed), lines)

    def expr(self, cls: Any, v: str) -> str:
        """An expression reading ``v`` (a local name, or an index into one) as ``cls``."""
        if cls in _SCALARS:
            return f"({v} if type({v}) is {cls.__name__} else _miss())"
        if _is_literal(cls) and all(type(c) is str for c in typing.get_args(cls)):
            return f"({v} if type({v}) is str and {v} in {self.name(frozenset(typing.get_args(cls)))} else _miss())"
        if attrs.has(cls):
            return f"{self.attrs_function(cls)}({v})"
        args = typing.get_args(cls)
        if _is_union(cls) and len(args) == 2 and _NONE in args:
            return f"(None if {v} is None else {self.expr(args[0] if args[1] is _NONE else args[1], v)})"
        if _is_union(cls):
            return f"{self.define(('union', cls), lambda name: self.union_function(name, cls))}({v})"
        if not _is_namedtuple(cls) and not (_is_tuple(cls) and args):
            return f"{self.name(_explaining_hook(cls))}({v}, {self.name(cls)})"
        if not v.isidentifier():  # an index expression is not repeated inside another: use a function
            return f"{self.define(cls, lambda name: self.returning(name, cls))}({v})"
        if _is_namedtuple(cls):
            kinds = _namedtuple_types(cls)
            if not all(k in _SCALARS for k in kinds):  # read as the tuple of its field types
                return f"_tnew({self.name(cls)}, {self.expr(tuple[kinds], v)})"  # type: ignore[valid-type]
            checks = "".join(f" and type({v}[{i}]) is {k.__name__}" for i, k in enumerate(kinds))
            made = f"_tnew({self.name(cls)}, {v})"
            return f"({made} if type({v}) is list and len({v}) == {len(kinds)}{checks} else _miss())"
        if args[-1] is not Ellipsis:
            parts = "".join(f"{self.expr(k, f'{v}[{i}]')}, " for i, k in enumerate(args))
            return f"(({parts}) if type({v}) is list and len({v}) == {len(args)} else _miss())"
        item = args[0]
        if item in _SCALARS:
            only = self.name(frozenset({item}))
            return f"(tuple({v}) if type({v}) is list and {only}.issuperset(map(type, {v})) else _miss())"
        if _is_tuple(item) and typing.get_args(item)[-1:] == (Ellipsis,):
            return f"{self.rows(item)}({v})"
        each = self.local()
        made = f"tuple([{self.expr(item, each)} for {each} in {v}])"
        return f"(({made} if {v} else ()) if type({v}) is list else _miss())"

    def union_function(self, name: str, cls: Any) -> list[str]:
        """``f(v)``: the first arm ``v`` fits (``_fitter``), as the explaining hook chooses it."""
        arms = [(self.name(_fitter(a)), "None" if a is _NONE else self.expr(a, "v")) for a in typing.get_args(cls)]
        return [f"def {name}(v):", *(f"    if {fits}(v):\n        return {made}" for fits, made in arms), "    _miss()"]

    def rows(self, row: Any) -> str:
        """An array of arrays read with loops (a comprehension costs a frame a row): rows of numbers
        checked and copied in C, an empty lot (the commonest row of towers) with no list to fill."""
        item = typing.get_args(row)[0]

        def lines(name: str) -> list[str]:
            if item in _SCALARS:  # a row of numbers: the one C-level check ``expr`` makes of it
                read = f"        out.append({self.expr(row, 'row')})"
            else:
                each = self.local()
                read = (
                    "        if type(row) is not list:\n            _miss()\n"
                    "        if not row:\n            out.append(())\n            continue\n"
                    f"        items = []\n        for {each} in row:\n"
                    f"            items.append({self.expr(item, each)})\n"
                    "        out.append(tuple(items))"
                )
            head = f"def {name}(v):\n    if type(v) is not list:\n        _miss()\n    out = []\n    for row in v:"
            return [head, read, "    return tuple(out)"]

        return self.define(("rows", row), lines)

    def build(self, cls: Any, passed: tuple[str, ...] = ()) -> Callable[..., Any]:
        if attrs.has(cls):
            entry = self.attrs_function(cls, passed)
        else:
            entry = self.define("entry", lambda name: self.returning(name, cls))
        exec(compile("\n".join(self.source), f"<citybuild.jsonvalues {cls!r}>", "exec"), self.env)
        return self.env[entry]  # type: ignore[no-any-return]


def _hook(cls: Any) -> Callable[[Any, Any], Any]:
    """The compiled reader, and when it refuses a value the explaining hook (which raises with
    the path, or reads what the compiled reader does not know)."""
    fast = _Compiler().build(cls)
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
    return _is_tuple(cls) or _is_namedtuple(cls) or _is_union(cls) or _is_literal(cls) or attrs.has(cls)


converter.register_structure_hook_factory(_is_int_key_dict, lambda cls: _structure_int_key_dict)
converter.register_structure_hook_factory(_is_compound, _hook)


# --- writing -------------------------------------------------------------------------------------
def _is_plain(cls: Any) -> bool:
    """Types ``json`` writes as they are: scalars, and tuples, named tuples and unions of them."""
    if cls in (*_SCALARS, float, _NONE) or _is_literal(cls):
        return True
    if _is_namedtuple(cls):
        return all(_is_plain(k) for k in _namedtuple_types(cls))
    args = [a for a in typing.get_args(cls) if a is not Ellipsis]
    return (_is_tuple(cls) or _is_union(cls)) and bool(args) and all(_is_plain(a) for a in args)


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
        fast = _Compiler().build(cls, ("game",))
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
