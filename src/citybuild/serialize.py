"""JSON for everything: one cattrs converter for rules, games, states, views, moves, score sheets,
verdicts and game records, for every registered game with no game-specific code.

Every document is an object with a ``"format"`` version and a ``"type"`` tag. Anything that belongs
to a game names the game (``name``, ``preset``, ``players`` and the rule ``options`` that differ from
the preset), so ``from_json`` rebuilds it through the registry. Classes are found by name among
those the game's ``GameSpec`` declares (its state and view classes, moves and chance outcomes);
nothing is ever imported from a name in the JSON, and no game is created to find them.

Reading is strict: an int must be a JSON integer (not a bool or a float), a tuple a JSON array of
the right length, no field may be missing or extra, integer keys are written in ASCII digits.
Anything wrong raises ``NotationError`` whose ``where`` is a JSON path
(``$.state.towers[3][0].size``) and nothing is created. A state that is readable but breaks an
invariant of its game (``State.validate``) is refused the same way: ``NotationError`` at
``$.state``, with the ``InvalidStateError`` as its ``__cause__``; so is a view the game's
``validate_view`` hook refuses (at ``$.view``), and a score sheet whose players, items or winners
do not add up (at the offending field). A document names only classes of its own type, and text
that is not readable JSON at all (an integer past Python's digit limit, nesting deeper than the
parser's recursion limit) is a ``NotationError`` at ``$`` too.

cattrs generates the hooks of attrs classes (fields, missing and extra keys, paths). What it
cannot do is here: strict scalars, arrays of an exact length, integer-keyed objects, unions told
apart by their JSON kind, annotations only a type checker can resolve, and speed: values made only
of ints, strings, tuples and named tuples (a board, hands, counts) are checked and converted by one
compiled expression per type, falling back to the element-by-element hooks only to say what is
wrong.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.fns import identity
from cattrs.gen import (
    make_dict_structure_fn_from_attrs,
    make_dict_unstructure_fn_from_attrs,
    override,
)
from cattrs.v import format_exception, transform_error

from citybuild.core.errors import CitybuildError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec, spec, specs
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Verdict
from citybuild.match import FinalScore, GameRecord, RecordEntry, rule_overrides

FORMAT = 1
"""Version of the JSON format written by ``to_json``; ``from_json`` reads exactly this version."""

TYPES = ("rules", "game", "state", "view", "move", "scores", "verdict", "record")
"""The ``"type"`` tags of the documents ``to_json`` writes."""

_NONE = type(None)
_LITERAL: Any = Literal


# --- types -----------------------------------------------------------------------------------
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


def _fields(cls: type) -> list[attrs.Attribute[Any]]:
    """The attrs fields of ``cls`` with their annotations resolved one by one, so that a field
    typed only for type checkers (``if TYPE_CHECKING``) costs only that field: it reads as ``Any``."""
    if cls not in _RESOLVED:
        module = dict(vars(sys.modules[cls.__module__])) if cls.__module__ in sys.modules else {}
        out = []
        for field in attrs.fields(cls):
            annotation = field.type
            if isinstance(annotation, typing.ForwardRef):
                annotation = annotation.__forward_arg__
            if isinstance(annotation, str):
                try:
                    annotation = eval(annotation, module)  # annotations of declared classes only
                except Exception:
                    annotation = Any
            out.append(field.evolve(type=Any if annotation is None else annotation))
        _RESOLVED[cls] = out
    return _RESOLVED[cls]


def _namedtuple_types(cls: Any) -> list[Any]:
    hints = typing.get_type_hints(cls)
    return [hints.get(name, Any) for name in cls._fields]


# --- messages ----------------------------------------------------------------------------------
def _show(value: Any) -> str:
    """``value`` for an error message, short whatever it is (a tampered document may hold a
    megabyte string or an array nested a thousand deep)."""
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(cls: Any) -> str:
    if cls is _NONE:
        return "null"
    if _is_tuple(cls) or _is_namedtuple(cls):
        return "an array"
    if attrs.has(cls) or _is_int_key_dict(cls) or typing.get_origin(cls) is dict:
        return "an object"
    return {int: "an integer", str: "a string", bool: "true or false", float: "a number"}.get(cls, repr(cls))


def _noted(exc: Exception, note: Any) -> Exception:
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
    return exc


# --- the converter -----------------------------------------------------------------------------
converter = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
"""The one converter; every game's classes go through its hooks."""

_SCALARS: dict[Any, tuple[Callable[[Any], bool], str]] = {
    int: (lambda v: type(v) is int, "an integer"),
    bool: (lambda v: type(v) is bool, "true or false"),
    str: (lambda v: type(v) is str, "a string"),
    float: (lambda v: type(v) in (int, float), "a number"),
}


def _scalar_hook(kind: type) -> Callable[[Any, Any], Any]:
    check, name = _SCALARS[kind]

    def structure(value: Any, _: Any) -> Any:
        if not check(value):
            raise ValueError(f"expected {name}, got {_show(value)}")
        return kind(value) if kind is float else value

    return structure


for _kind in _SCALARS:
    converter.register_structure_hook(_kind, _scalar_hook(_kind))


def _structure_literal(value: Any, cls: Any) -> Any:
    for choice in typing.get_args(cls):
        if type(value) is type(choice) and value == choice:
            return choice
    raise ValueError(f"expected one of {', '.join(json.dumps(c) for c in typing.get_args(cls))}, got {_show(value)}")


def _structure_tuple(value: Any, cls: Any) -> Any:
    """An array, element by element, each error noted with its index (the slow, explaining path)."""
    if type(value) is not list:
        raise ValueError(f"expected an array, got {_show(value)}")
    args = typing.get_args(cls)
    if not args:
        return tuple(value)
    fixed = args[-1] is not Ellipsis
    if fixed and len(value) != len(args):
        raise ValueError(f"expected an array of {len(args)} items, got {len(value)}")
    out, errors = [], []
    for index, item in enumerate(value):
        kind = args[index] if fixed else args[0]
        try:
            out.append(converter.structure(item, kind))
        except Exception as exc:
            errors.append(_noted(exc, IterableValidationNote(f"index {index}", index, kind)))
    if errors:
        raise IterableValidationError(f"While structuring {cls!r}", errors, cls)
    return tuple(out)


def _structure_namedtuple(value: Any, cls: Any) -> Any:
    names = cls._fields
    if type(value) is not list or len(value) != len(names):
        raise ValueError(f"expected an array of {len(names)} items ({', '.join(names)}), got {_show(value)}")
    out, errors = [], []
    for name, kind, item in zip(names, _namedtuple_types(cls), value, strict=True):
        try:
            out.append(converter.structure(item, kind))
        except Exception as exc:
            errors.append(_noted(exc, AttributeValidationNote(f"attribute {name}", name, kind)))
    if errors:
        raise ClassValidationError(f"While structuring {cls.__name__}", errors, cls)
    return cls(*out)


_INTEGER_KEY = re.compile(r"0|-?[1-9][0-9]{0,29}")


def _structure_int_key_dict(value: Any, cls: Any) -> Any:
    """An object with integer keys, written in ASCII digits (JSON keys are strings)."""
    if type(value) is not dict:
        raise ValueError(f"expected an object, got {_show(value)}")
    kind = typing.get_args(cls)[1]
    out: dict[int, Any] = {}
    errors = []
    for key, item in value.items():
        try:
            if type(key) is int:
                number = key
            elif type(key) is str and _INTEGER_KEY.fullmatch(key):
                number = int(key)
            else:
                raise ValueError(f"expected an integer key in ASCII digits, got {_show(key)}")
            out[number] = converter.structure(item, kind)
        except Exception as exc:
            errors.append(_noted(exc, IterableValidationNote(f"key {key}", key, kind)))
    if errors:
        raise IterableValidationError(f"While structuring {cls!r}", errors, cls)
    return out


def _fits(kind: Any, value: Any) -> bool:
    """Whether ``value`` is of the JSON kind that ``kind`` is written as (unions choose by it)."""
    if kind is _NONE:
        return value is None
    if kind in _SCALARS:
        return type(value) is kind or (kind is float and type(value) is int)
    if _is_literal(kind):
        return any(type(value) is type(c) for c in typing.get_args(kind))
    if _is_tuple(kind) or _is_namedtuple(kind):
        return type(value) is list
    if attrs.has(kind):
        names = {f.name for f in _fields(kind) if f.init}
        required = {f.name for f in _fields(kind) if f.init and f.default is attrs.NOTHING}
        return type(value) is dict and required <= value.keys() <= names
    if typing.get_origin(kind) is dict:
        return type(value) is dict
    return True


def _structure_union(value: Any, cls: Any) -> Any:
    """The first arm of the JSON kind of ``value`` that reads it; the last such arm's error says why not."""
    if value is None and _NONE in typing.get_args(cls):
        return None
    arms = [arm for arm in typing.get_args(cls) if _fits(arm, value)]
    for arm in arms[:-1]:
        try:
            return converter.structure(value, arm)
        except Exception:  # the next arm may read it
            continue
    if arms:
        return converter.structure(value, arms[-1])
    shown = " or ".join(_type_name(arm) for arm in typing.get_args(cls))
    raise ValueError(f"expected {shown}, got {_show(value)}")


converter.register_structure_hook_func(_is_int_key_dict, _structure_int_key_dict)


# --- compiled fast paths --------------------------------------------------------------------------
class _Miss(Exception):
    """The fast path does not read this value: the explaining hooks will say why (or read it)."""


def _miss() -> Any:
    raise _Miss


_SCALAR_TYPES = (int, str, bool)


def _explaining_hook(cls: Any) -> Callable[[Any, Any], Any]:
    """The element-by-element hook of a type, whose errors carry the path (never a compiled one)."""
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
    return converter.get_structure_hook(cls)


class _Compiler:
    """Python source that reads a JSON value into ``cls`` in one pass: each attrs class, tuple or
    union becomes a function of nested expressions that check JSON kinds and build the value,
    calling ``_miss()`` (or failing) at the first thing that does not fit. Anything it has no
    expression for is read by the type's explaining hook."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {"_miss": _miss, "_tnew": tuple.__new__}
        self.functions: dict[Any, str] = {}
        self.source: list[str] = []
        self.depth = 0

    def name(self, value: Any) -> str:
        key = f"_c{len(self.env)}"
        self.env[key] = value
        return key

    def function(self, cls: Any, skip: tuple[str, ...] = ()) -> str:
        """The name of the compiled function ``f(v, *skip)`` that reads ``cls``; the fields in
        ``skip`` are passed in, not read."""
        key = (cls, skip)
        if key not in self.functions:
            name = self.functions[key] = f"_f{len(self.functions)}"
            if attrs.has(cls):
                fields = [f for f in _fields(cls) if f.init]
                keys = self.name(frozenset(f.name for f in fields if f.name not in skip))
                lines = [f"def {name}(v{''.join(f', {n}' for n in skip)}):"]
                lines.append(f"    if type(v) is not dict or v.keys() != {keys}:\n        _miss()")
                args = []
                for i, f in enumerate(fields):
                    if f.name in skip:
                        value = f.name
                    else:
                        value = f"_a{i}"
                        lines.append(f"    {value} = v[{f.name!r}]")
                        value = self.expr(f.type, value)
                    args.append(f"{f.alias}={value}" if f.kw_only else value)
                lines.append(f"    return {self.name(cls)}({', '.join(args)})")
                self.source.append("\n".join(lines) + "\n")
            else:
                self.source.append(f"def {name}(v):\n    return {self.inline(cls, 'v')}\n")
        return self.functions[key]

    def expr(self, cls: Any, v: str) -> str:
        """An expression reading ``v`` (any expression) as ``cls``."""
        if cls in _SCALAR_TYPES:
            return f"({v} if type({v}) is {cls.__name__} else _miss())"
        if cls is _NONE:
            return f"({v} if {v} is None else _miss())"
        if _is_literal(cls) and all(type(c) is str for c in typing.get_args(cls)):
            return f"({v} if type({v}) is str and {v} in {self.name(frozenset(typing.get_args(cls)))} else _miss())"
        if attrs.has(cls) or ((_is_tuple(cls) or _is_namedtuple(cls) or _is_union(cls)) and not v.isidentifier()):
            return f"{self.function(cls)}({v})"
        if _is_tuple(cls) or _is_namedtuple(cls) or _is_union(cls):
            return self.inline(cls, v)
        return f"{self.name(_explaining_hook(cls))}({v}, {self.name(cls)})"

    def inline(self, cls: Any, v: str) -> str:
        """The expression for a tuple, named tuple or union read from the plain name ``v``."""
        if _is_namedtuple(cls):
            kinds = _namedtuple_types(cls)
            if all(k in _SCALAR_TYPES for k in kinds):
                checks = "".join(f" and type({v}[{i}]) is {k.__name__}" for i, k in enumerate(kinds))
                made = f"_tnew({self.name(cls)}, {v})"
                return f"({made} if type({v}) is list and len({v}) == {len(kinds)}{checks} else _miss())"
            parts = ", ".join(self.expr(k, f"{v}[{i}]") for i, k in enumerate(kinds))
            return f"({self.name(cls)}({parts}) if type({v}) is list and len({v}) == {len(kinds)} else _miss())"
        if _is_tuple(cls):
            args = typing.get_args(cls)
            if not args:
                return f"(tuple({v}) if type({v}) is list else _miss())"
            if args[-1] is not Ellipsis:
                parts = "".join(f"{self.expr(k, f'{v}[{i}]')}, " for i, k in enumerate(args))
                return f"(({parts}) if type({v}) is list and len({v}) == {len(args)} else _miss())"
            if args[0] in _SCALAR_TYPES:
                only = self.name(frozenset({args[0]}))
                return f"(tuple({v}) if type({v}) is list and {only}.issuperset(map(type, {v})) else _miss())"
            inner = typing.get_args(args[0]) if _is_tuple(args[0]) else ()
            if len(inner) == 2 and inner[1] is Ellipsis and inner[0] not in _SCALAR_TYPES:
                return f"{self.nested(args[0], inner[0])}({v})"
            self.depth += 1
            item = f"_e{self.depth}"
            made = f"tuple([{self.expr(args[0], item)} for {item} in {v}])"
            return f"(({made} if {v} else ()) if type({v}) is list else _miss())"
        arms = [arm for arm in typing.get_args(cls) if arm is not _NONE]
        tests: list[str] = []
        for arm in arms:
            if arm in _SCALAR_TYPES:
                tests.append(f"type({v}) is {arm.__name__}")
            elif _is_literal(arm):
                values = {type(c) for c in typing.get_args(arm)}
                tests.append(f"type({v}) is {values.pop().__name__}" if len(values) == 1 else "?")
            elif _is_tuple(arm) or _is_namedtuple(arm):
                tests.append(f"type({v}) is list")
            elif attrs.has(arm):
                keys = self.name(frozenset(f.name for f in _fields(arm) if f.init))
                tests.append(f"type({v}) is dict and {v}.keys() == {keys}")
            else:
                tests.append("?")
        if "?" in tests or len(set(tests)) != len(tests):  # arms the JSON kind does not tell apart
            return f"{self.name(_structure_union)}({v}, {self.name(cls)})"
        out = "_miss()"
        for test, arm in reversed(list(zip(tests, arms, strict=True))):
            out = f"({self.expr(arm, v)} if {test} else {out})"
        return f"(None if {v} is None else {out})" if _NONE in typing.get_args(cls) else out

    def nested(self, row: Any, item: Any) -> str:
        """A function reading an array of arrays (rows of ``item``, e.g. a board of towers) with
        plain loops: a comprehension per row would cost a frame each."""
        key = ("nested", row)
        if key not in self.functions:
            name = self.functions[key] = f"_f{len(self.functions)}"
            self.depth += 1
            element = self.expr(item, f"_i{self.depth}")
            self.source.append(
                f"def {name}(v):\n"
                "    if type(v) is not list:\n        _miss()\n"
                "    out = []\n"
                "    for _o in v:\n"
                "        if type(_o) is not list:\n            _miss()\n"
                "        if _o:\n"
                "            _t = []\n"
                f"            for _i{self.depth} in _o:\n"
                f"                _t.append({element})\n"
                "            out.append(tuple(_t))\n"
                "        else:\n"
                "            out.append(())\n"
                "    return tuple(out)\n"
            )
        return self.functions[key]

    def build(self, cls: Any, skip: tuple[str, ...] = ()) -> Callable[..., Any]:
        entry = self.function(cls, skip)
        exec(compile("\n".join(self.source), f"<citybuild.serialize {cls!r}>", "exec"), self.env)
        return self.env[entry]  # type: ignore[no-any-return]


def _fast_hook(cls: Any) -> Callable[[Any, Any], Any]:
    """The hook of a tuple, named tuple, union, literal or attrs class: the compiled reader, and
    when it refuses the value, the explaining hook (which raises with the path, or reads it)."""
    fast = _Compiler().build(cls)
    slow = _explaining_hook(cls)

    def structure(value: Any, _: Any = None) -> Any:
        try:
            return fast(value)
        except Exception:  # the explaining hook says what is wrong
            return slow(value, cls)

    return structure


def _generated_hook(cls: type, **overrides: Any) -> Callable[[Any, Any], Any]:
    """cattrs' generated hook of an attrs class (fields, missing and extra keys, paths), for JSON
    objects only."""
    generated: Callable[[Any], Any] = make_dict_structure_fn_from_attrs(_fields(cls), cls, converter, **overrides)
    name = cls.__name__

    def structure(value: Any, _: Any = None) -> Any:
        if type(value) is not dict:
            raise ValueError(f"expected an object for {name}, got {_show(value)}")
        return generated(value)

    return structure


def _is_compound(cls: Any) -> bool:
    return _is_tuple(cls) or _is_namedtuple(cls) or _is_union(cls) or _is_literal(cls) or attrs.has(cls)


converter.register_structure_hook_factory(_is_compound, _fast_hook)


# --- writing: cattrs' generated hooks, plain values as they are -----------------------------------
def _attrs_unstructure(cls: type, **overrides: Any) -> Callable[[Any], Any]:
    return make_dict_unstructure_fn_from_attrs(_fields(cls), cls, converter, **overrides)


def _is_plain_value(cls: Any) -> bool:
    """Values ``json.dumps`` writes as they are: scalars, and tuples, named tuples and unions of them."""
    if cls in (*_SCALAR_TYPES, float, _NONE) or _is_literal(cls):
        return True
    if _is_namedtuple(cls):
        return all(_is_plain_value(k) for k in _namedtuple_types(cls))
    if _is_tuple(cls) or _is_union(cls):
        args = [a for a in typing.get_args(cls) if a is not Ellipsis]
        return bool(args) and all(_is_plain_value(a) for a in args)
    return False


converter.register_unstructure_hook_factory(attrs.has, lambda cls: _attrs_unstructure(cls))
converter.register_unstructure_hook_func(_is_plain_value, identity)

_BODIES: dict[type, tuple[Callable[[Any, Game], Any], Callable[[Any], Any]]] = {}


def _body(cls: type) -> tuple[Callable[[Any, Game], Any], Callable[[Any], Any]]:
    """(read, write) of a state class's body: every field but ``game``, which the document names
    apart and the reader passes in."""
    if cls not in _BODIES:
        fast = _Compiler().build(cls, ("game",))
        slow = _generated_hook(cls, game=override(struct_hook=lambda value, _: value))

        def read(value: Any, game: Game) -> Any:
            try:
                return fast(value, game)
            except Exception:  # the explaining hook says what is wrong
                if type(value) is dict and "game" in value:
                    raise ValueError("unknown field 'game': the game is named at $.game") from None
                return slow({**value, "game": game} if type(value) is dict else value, cls)

        _BODIES[cls] = (read, _attrs_unstructure(cls, game=override(omit=True)))
    return _BODIES[cls]


# --- errors with JSON paths ----------------------------------------------------------------------
def _describe(exc: BaseException, cls: Any) -> str:
    if isinstance(exc, ValueError | TypeError) and str(exc) and not isinstance(exc, ClassValidationError):
        return str(exc)
    return format_exception(exc, cls)


def _notation_error(exc: Exception, path: str) -> NotationError:
    """The first problem of a cattrs error tree as a ``NotationError`` whose ``where`` is the path."""
    messages = transform_error(exc, path, format_exception=_describe)
    first = messages[0] if messages else str(exc)
    message, _, where = first.rpartition(" @ ")
    return NotationError(message or first, where or path)


def _structure(value: Any, cls: Any, path: str) -> Any:
    try:
        return converter.structure(value, cls)
    except NotationError:
        raise
    except Exception as exc:
        raise _notation_error(exc, path) from None


# --- games and rules -----------------------------------------------------------------------------
def _closest_preset(game_spec: GameSpec, rules: Any) -> str:
    def distance(name: str) -> int:
        preset = game_spec.presets[name].options()
        return sum(1 for k, v in rules.options().items() if preset.get(k) != v)

    return min(game_spec.presets, key=distance)


def _options_json(options: Mapping[str, Any]) -> dict[str, Any]:
    return {name: converter.unstructure(value) for name, value in options.items()}


def structure_options(game_name: str, preset: str, options: Any, path: str = "$.options") -> dict[str, Any]:
    """Rule options read from JSON values (``{"redraw_limit": 2}``), typed by the game's Rules class.

    Used by records and by ``citybuild play --option``. Raises ``NotationError`` at the option's path.
    """
    game_spec = _spec_at(game_name, "$.game")
    if preset not in game_spec.presets:
        raise NotationError(f"unknown preset {preset!r} for {game_name}; presets are: {', '.join(game_spec.presets)}")
    if type(options) is not dict:
        raise NotationError("expected an object of rule options", path)
    hints = {f.name: f.type for f in _fields(type(game_spec.presets[preset]))}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in hints:
            shown = name if type(name) is str and len(name) <= 40 else _show(name)
            raise NotationError(f"unknown option {shown!r}; options are: {', '.join(hints)}", f"{path}.{shown}")
        out[name] = _structure(value, hints[name], f"{path}.{name}")
    return out


def _spec_at(name: Any, path: str) -> GameSpec:
    if type(name) is not str:
        raise NotationError(f"expected a game name, got {_show(name)}", path)
    try:
        return spec(name)
    except RulesError as exc:
        raise NotationError(str(exc), path) from None


_GAMES: dict[tuple[str, str, int | None], tuple[GameSpec, Game]] = {}


def _load(name: Any, preset: Any, players: Any, options: Any, path: str) -> Game:
    game_spec = _spec_at(name, f"{path}.name" if path != "$" else "$.game")
    if type(preset) is not str or preset not in game_spec.presets:
        raise NotationError(
            f"unknown preset {_show(preset)} for {game_spec.name}; presets are: {', '.join(game_spec.presets)}",
            f"{path}.preset",
        )
    if players is not None and type(players) is not int:
        raise NotationError(f"expected an integer player count, got {_show(players)}", f"{path}.players")
    typed = structure_options(game_spec.name, preset, options, f"{path}.options") if options != {} else {}
    # Games are frozen values: documents naming the same preset and player count share one (a
    # dict lookup instead of building the game's tables again), while their spec stays registered.
    key = (game_spec.name, preset, players)
    cached = None if typed else _GAMES.get(key)
    if cached is not None and cached[0] is game_spec:
        return cached[1]
    try:
        game = game_spec.load(players, preset, **typed)
    except RulesError as exc:
        match = re.search(r"option (\w+)=", str(exc))
        where = f"{path}.options.{match.group(1)}" if match else f"{path}.players" if "players" in str(exc) else path
        raise NotationError(str(exc), where) from None
    if not typed:
        if len(_GAMES) > 256:
            _GAMES.clear()
        _GAMES[key] = (game_spec, game)
    return game


_GAME_JSON: dict[int, tuple[Game, dict[str, Any]]] = {}


def _game_json(game: Game) -> dict[str, Any]:
    cached = _GAME_JSON.get(id(game))
    if cached is None or cached[0] is not game:
        data = {
            "name": game.name,
            "preset": game.preset,
            "players": game.players,
            "options": _options_json(rule_overrides(game)),
        }
        if len(_GAME_JSON) > 256:
            _GAME_JSON.clear()
        cached = _GAME_JSON[id(game)] = (game, data)
    data = cached[1]
    return {**data, "options": copy.deepcopy(data["options"])} if data["options"] else {**data, "options": {}}


def _game_from(value: Any, path: str) -> Game:
    if type(value) is not dict:
        raise NotationError("expected an object naming the game (name, preset, players, options)", path)
    extra = sorted(str(k) for k in set(value) - {"name", "preset", "players", "options"})
    if extra:
        raise NotationError(f"unknown field {_show(extra[0])}", f"{path}.{extra[0][:40]}")
    for key in ("name", "preset", "players"):
        if key not in value:
            raise NotationError("required field missing", f"{path}.{key}")
    return _load(value["name"], value["preset"], value["players"], value.get("options", {}), path)


# --- the classes a game declares -----------------------------------------------------------------
_KINDS = ("state", "view", "move")
_CLASSES: dict[int, tuple[GameSpec, dict[str, dict[str, type]]]] = {}


def _classes_of(game_spec: GameSpec) -> dict[str, dict[str, type]]:
    """The classes a game's JSON may name, by document type, as its ``GameSpec`` declares them:
    ``"state"`` its state class, ``"view"`` its view class, ``"move"`` its moves and chance
    outcomes; ``json_types`` adds state subclasses as states and other classes as views. A
    document may only name a class of its own type."""
    cached = _CLASSES.get(id(game_spec))
    if cached is None or cached[0] is not game_spec:
        extra = game_spec.json_types
        found: dict[str, list[type]] = {
            "state": [game_spec.state, *(c for c in extra if issubclass(c, State))],
            "view": [game_spec.view, *(c for c in extra if not issubclass(c, State))],
            "move": [*game_spec.moves, *game_spec.outcomes],
        }
        cached = (game_spec, {kind: {cls.__name__: cls for cls in found[kind]} for kind in _KINDS})
        _CLASSES[id(game_spec)] = cached
    return cached[1]


def _class_of(game_spec: GameSpec, name: Any, kind: str, path: str) -> type:
    classes = _classes_of(game_spec)[kind]
    if type(name) is not str or name not in classes:
        others = [k for k in _KINDS if k != kind and type(name) is str and name in _classes_of(game_spec)[k]]
        what = f"a {others[0]} class, not a {kind} class," if others else f"not a {kind} class"
        raise NotationError(f"{_show(name)} is {what} of {game_spec.name}; expected one of {', '.join(classes)}", path)
    return classes[name]


def _owner_of(obj: Any) -> tuple[GameSpec, str]:
    """The spec of the game that declares ``obj``'s class as a move or view class, and which."""
    for candidate in specs().values():
        classes = _classes_of(candidate)
        for kind in ("move", "view"):
            if classes[kind].get(type(obj).__name__) is type(obj):
                return candidate, kind
    raise TypeError(f"{type(obj).__name__} is not a Rules, state, view or move class of any registered game")


def _rules_spec(obj: Any) -> GameSpec | None:
    for candidate in specs().values():
        if any(type(preset) is type(obj) for preset in candidate.presets.values()):
            return candidate
    return None


# --- to_json -------------------------------------------------------------------------------------
def to_data(obj: Any) -> dict[str, Any]:
    """The JSON-ready dict that ``to_json`` writes (for embedding in a larger document)."""
    head: dict[str, Any] = {"format": FORMAT}
    if isinstance(obj, State):
        body = _body(type(obj))[1](obj)
        return {**head, "type": "state", "game": _game_json(obj.game), "class": type(obj).__name__, "state": body}
    if isinstance(obj, GameRecord):
        return {
            **head,
            "type": "record",
            "game": obj.game,
            "preset": obj.preset,
            "players": obj.players,
            "options": _options_json(obj.options),
            "seed": obj.seed,
            "moves": [{"player": e.player, "move": e.move} for e in obj.moves],
            "result": converter.unstructure(obj.result),
        }
    if isinstance(obj, Game):
        return {**head, "type": "game", "game": _game_json(obj)}
    if isinstance(obj, ScoreSheet):
        return {**head, "type": "scores", "scores": converter.unstructure(obj)}
    if isinstance(obj, Verdict):
        return {**head, "type": "verdict", "verdict": converter.unstructure(obj)}
    game_spec = _rules_spec(obj) if attrs.has(type(obj)) else None
    if game_spec is not None:
        preset = _closest_preset(game_spec, obj)
        base = game_spec.presets[preset].options()
        diff = {k: v for k, v in obj.options().items() if base[k] != v}
        return {**head, "type": "rules", "game": game_spec.name, "preset": preset, "options": _options_json(diff)}
    if attrs.has(type(obj)):
        owner, kind = _owner_of(obj)
        body = converter.unstructure(obj, type(obj))
        return {**head, "type": kind, "game": owner.name, "class": type(obj).__name__, kind: body}
    raise TypeError(
        f"to_json takes a Rules, Game, State, view, move, ScoreSheet, Verdict or GameRecord, not {type(obj).__name__}"
    )


_ENCODER = json.JSONEncoder(check_circular=False)  # to_data builds trees: no cycle to look for


def to_json(obj: Any, *, indent: int | None = None) -> str:
    """``obj`` as versioned JSON text (see the module docstring for the format)."""
    data = to_data(obj)
    return _ENCODER.encode(data) if indent is None else json.dumps(data, indent=indent)


# --- from_json -----------------------------------------------------------------------------------
def from_json(text: str | bytes) -> Any:
    """Whatever ``to_json`` wrote, rebuilt; raises ``NotationError`` with a JSON path for anything
    malformed, of another format version, or tampered into an impossible position."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NotationError(f"JSON must be UTF-8 text ({exc.reason} at byte {exc.start})", "$") from None
    if not isinstance(text, str):
        raise NotationError(f"expected JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", "$") from None
    except RecursionError:
        raise NotationError("not JSON: nested too deeply", "$") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit for str -> int
        raise NotationError(f"not readable JSON: {exc}", "$") from None
    return from_data(data)


_WANTED = {
    "rules": {"game", "preset", "options"},
    "game": {"game"},
    "state": {"game", "class", "state"},
    "view": {"game", "class", "view"},
    "move": {"game", "class", "move"},
    "scores": {"scores"},
    "verdict": {"verdict"},
    "record": {"game", "preset", "players", "options", "seed", "moves", "result"},
}
_OPTIONAL = {"options", "result"}


def from_data(data: Any) -> Any:
    """Like ``from_json`` for an already parsed document."""
    if type(data) is not dict:
        raise NotationError("expected a JSON object with 'format' and 'type'", "$")
    if "format" not in data:
        raise NotationError("required field missing", "$.format")
    version = data["format"]
    if type(version) is not int or version != FORMAT:  # 1.0 and true are not the integer 1
        raise NotationError(
            f"format {_show(version)} is not supported; this citybuild reads format {FORMAT}", "$.format"
        )
    kind = data.get("type")
    if type(kind) is not str or kind not in TYPES:
        raise NotationError(f"unknown type {_show(kind)}; types are: {', '.join(TYPES)}", "$.type")
    wanted = _WANTED[kind]
    keys = set(data) - {"format", "type"}
    if keys - wanted:
        extra = sorted(str(k) for k in keys - wanted)[0]
        raise NotationError(f"unknown field {_show(extra)} in a {kind} document", f"$.{extra[:40]}")
    missing = sorted(wanted - keys - _OPTIONAL)
    if missing:
        raise NotationError("required field missing", f"$.{missing[0]}")
    return _READERS[kind](data)


def _read_rules(data: dict[str, Any]) -> Any:
    return _load(data["game"], data["preset"], None, data.get("options", {}), "$").rules


def _read_game(data: dict[str, Any]) -> Game:
    return _game_from(data["game"], "$.game")


def _read_state(data: dict[str, Any]) -> State:
    game = _game_from(data["game"], "$.game")
    cls = _class_of(spec(game.name), data["class"], "state", "$.class")
    try:
        state: State = _body(cls)[0](data["state"], game)
    except Exception as exc:
        raise _notation_error(exc, "$.state") from None
    _checked(state.validate, "position", "$.state")
    return state


def _checked(check: Callable[[], None], what: str, path: str) -> None:
    """Run a game's invariant check on what was read; any refusal is a ``NotationError`` at ``path``."""
    try:
        check()
    except InvalidStateError as exc:
        raise NotationError(f"not a possible {what}: {exc}", path) from exc
    except Exception as exc:  # a game's checks tripping over tampered values still means "refused"
        raise NotationError(f"not a possible {what}: {exc!r}", path) from exc


def _read_view(data: dict[str, Any]) -> Any:
    """A view, checked by the game's declared ``validate_view`` hook when it has one (a game's way
    to refuse views no real position could give: ``NotationError`` at ``$.view``, cause chained)."""
    game_spec = _spec_at(data["game"], "$.game")
    view = _read_value(game_spec, data, "view")
    validate = game_spec.validate_view
    if validate is not None:
        _checked(lambda: validate(view), "view", "$.view")
    return view


def _read_move(data: dict[str, Any]) -> Any:
    return _read_value(_spec_at(data["game"], "$.game"), data, "move")


def _read_value(game_spec: GameSpec, data: dict[str, Any], kind: str) -> Any:
    cls = _class_of(game_spec, data["class"], kind, "$.class")
    return _built(cls, data[kind], f"$.{kind}")


def _built(cls: type, value: Any, path: str) -> Any:
    try:
        return converter.structure(value, cls)
    except CitybuildError as exc:
        raise NotationError(str(exc), path) from exc
    except Exception as exc:
        raise _notation_error(exc, path) from None


def _read_scores(data: dict[str, Any]) -> ScoreSheet:
    sheet: ScoreSheet = _built(ScoreSheet, data["scores"], "$.scores")
    _check_sheet(sheet, "$.scores")
    return sheet


def _check_sheet(sheet: ScoreSheet, path: str) -> None:
    """A sheet's numbers must make sense before anything sums them: a player count some registered
    game seats, items and winners naming those players, winners named once."""
    most = max((s.max_players for s in specs().values()), default=1)
    if not 1 <= sheet.players <= most:
        raise NotationError(
            f"a score sheet is for 1 to {most} players (the most a registered game seats), not {sheet.players}",
            f"{path}.players",
        )
    for i, item in enumerate(sheet.items):
        if not 0 <= item.player < sheet.players:
            raise NotationError(
                f"there is no player {item.player} in a {sheet.players}-player score sheet", f"{path}.items[{i}].player"
            )
    for i, winner in enumerate(sheet.winners):
        if not 0 <= winner < sheet.players:
            raise NotationError(
                f"there is no player {winner} in a {sheet.players}-player score sheet", f"{path}.winners[{i}]"
            )
        if winner in sheet.winners[:i]:
            raise NotationError(f"P{winner} is named twice among the winners", f"{path}.winners[{i}]")


def _read_verdict(data: dict[str, Any]) -> Verdict:
    return _built(Verdict, data["verdict"], "$.verdict")  # type: ignore[no-any-return]


def _read_record(data: dict[str, Any]) -> GameRecord:
    game = _load(data["game"], data["preset"], data["players"], data.get("options", {}), "$")
    seed = data["seed"]
    if type(seed) is not int:
        raise NotationError(f"expected an integer seed, got {_show(seed)}", "$.seed")
    moves = data["moves"]
    if type(moves) is not list:
        raise NotationError("expected an array of moves", "$.moves")
    entries = []
    for i, entry in enumerate(moves):
        path = f"$.moves[{i}]"
        if type(entry) is not dict or set(entry) != {"player", "move"}:
            raise NotationError('expected {"player": <seat or null for chance>, "move": "<notation>"}', path)
        player, move = entry["player"], entry["move"]
        if player is not None and type(player) is not int:
            raise NotationError(f"expected a seat number or null, got {_show(player)}", f"{path}.player")
        if player is not None and not 0 <= player < game.players:
            raise NotationError(f"there is no player {player} in a {game.players}-player game", f"{path}.player")
        if type(move) is not str:
            raise NotationError(f"expected move notation text, got {_show(move)}", f"{path}.move")
        try:
            game.parse_move(move)
        except NotationError as exc:
            raise NotationError(str(exc), f"{path}.move") from None
        entries.append(RecordEntry(player, move))
    result = data.get("result")
    final = None if result is None else _built(FinalScore, result, "$.result")
    return GameRecord(
        game=game.name,
        preset=game.preset,
        players=game.players,
        options=rule_overrides(game),
        seed=seed,
        moves=tuple(entries),
        result=final,
    )


_READERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "rules": _read_rules,
    "game": _read_game,
    "state": _read_state,
    "view": _read_view,
    "move": _read_move,
    "scores": _read_scores,
    "verdict": _read_verdict,
    "record": _read_record,
}
