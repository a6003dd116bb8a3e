"""JSON for everything: one cattrs converter for rules, games, states, views, moves, score sheets,
verdicts and game records, for every registered game with no game-specific code.

Every document is an object with a ``"format"`` version and a ``"type"`` tag. Anything that belongs
to a game names the game (``name``, ``preset``, ``players`` and the rule ``options`` that differ from
the preset), so ``from_json`` rebuilds it through the registry. Game classes are found by name among
the classes the game declares (its state and view classes and ``Game.move_types``); nothing is ever
imported from a name in the JSON.

Reading is strict: an int must be a JSON integer, a tuple a JSON array of the right length, no field
may be missing or extra. Anything wrong raises ``NotationError`` whose ``where`` is a JSON path
(``$.state.towers[3][0].size``) and nothing is created. A state that is readable but breaks an
invariant of its game (``State.validate``) is refused the same way: ``NotationError`` at ``$.state``,
with the ``InvalidStateError`` as its ``__cause__``; so is a view whose class has a ``validate()``
method (at ``$.view``), and a score sheet whose players, items or winners do not add up (at the
offending field). A document names only classes of its own type (a view document, the game's view
class), and text that is not readable JSON at all (an integer past Python's digit limit, nesting
deeper than the parser's recursion limit) is a ``NotationError`` at ``$`` too.
"""

from __future__ import annotations

import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, ClassValidationError
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


# --- the converter -----------------------------------------------------------------------
def _is_namedtuple(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _is_union(cls: Any) -> bool:
    return typing.get_origin(cls) in (Union, types.UnionType)


def _is_int_key_dict(cls: Any) -> bool:
    args = typing.get_args(cls)
    return typing.get_origin(cls) is dict and len(args) == 2 and args[0] is int


def _is_tuple(cls: Any) -> bool:
    return cls is tuple or typing.get_origin(cls) is tuple


_LITERAL: Any = Literal
_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """The type of each attrs field (or NamedTuple field) of ``cls``, resolved one by one so that an
    annotation that only exists for type checkers (``if TYPE_CHECKING``) costs only that field;
    such a field is read as ``Any``."""
    if cls in _FIELD_TYPES:
        return _FIELD_TYPES[cls]
    module = vars(sys.modules[cls.__module__]) if cls.__module__ in sys.modules else {}
    if _is_namedtuple(cls):
        raw: dict[str, Any] = dict(getattr(cls, "__annotations__", {}))
    else:
        raw = {f.name: f.type for f in attrs.fields(cls)}
    out: dict[str, Any] = {}
    for name, annotation in raw.items():
        if isinstance(annotation, typing.ForwardRef):
            annotation = annotation.__forward_arg__
        if isinstance(annotation, str):
            try:
                annotation = eval(annotation, dict(module))  # annotations of our own classes only
            except Exception:
                annotation = Any
        out[name] = Any if annotation is None else annotation
    _FIELD_TYPES[cls] = out
    return out


def _strict(kind: type, check: Callable[[Any], bool], name: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if not check(value):
            raise ValueError(f"expected {name}, got {json.dumps(value) if _jsonable(value) else repr(value)}")
        return kind(value)

    return structure


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
    conv.register_structure_hook(
        int, _strict(int, lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer")
    )
    conv.register_structure_hook(bool, _strict(bool, lambda v: isinstance(v, bool), "true or false"))
    conv.register_structure_hook(str, _strict(str, lambda v: isinstance(v, str), "a string"))
    conv.register_structure_hook(
        float, _strict(float, lambda v: isinstance(v, int | float) and not isinstance(v, bool), "a number")
    )

    def structure_union(value: Any, cls: Any) -> Any:
        arms = typing.get_args(cls)
        if value is None and type(None) in arms:
            return None
        for arm in arms:
            if arm is type(None):
                continue
            try:
                return conv.structure(value, arm)
            except Exception:  # try the next arm; the union as a whole fails below
                continue
        shown = " | ".join(_type_name(a) for a in arms)
        raise ValueError(f"expected {shown}, got {json.dumps(value) if _jsonable(value) else repr(value)}")

    conv.register_structure_hook_func(_is_union, structure_union)

    def structure_literal(value: Any, cls: Any) -> Any:
        allowed = typing.get_args(cls)
        for choice in allowed:
            if value == choice and type(value) is type(choice):
                return choice
        raise ValueError(f"expected one of {', '.join(json.dumps(a) for a in allowed)}, got {json.dumps(value)}")

    conv.register_structure_hook_func(lambda cls: typing.get_origin(cls) is _LITERAL, structure_literal)

    def structure_tuple(value: Any, cls: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise ValueError(f"expected an array, got {json.dumps(value) if _jsonable(value) else repr(value)}")
        args = typing.get_args(cls)
        if args and args[-1] is not Ellipsis and len(value) != len(args):
            raise ValueError(f"expected an array of {len(args)} items, got {len(value)}")
        return conv._structure_tuple(value, cls)

    conv.register_structure_hook_func(_is_tuple, structure_tuple)

    def structure_int_key_dict(value: Any, cls: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("expected an object")
        value_type = typing.get_args(cls)[1]
        out: dict[int, Any] = {}
        for key, item in value.items():
            if isinstance(key, str) and re.fullmatch(r"-?\d+", key):
                number = int(key)
            elif isinstance(key, int) and not isinstance(key, bool):
                number = key
            else:
                raise ValueError(f"expected integer keys, got {key!r}")
            out[number] = _at_key(conv, item, value_type, key, cls)
        return out

    conv.register_structure_hook_func(_is_int_key_dict, structure_int_key_dict)

    def structure_namedtuple(value: Any, cls: Any) -> Any:
        names = cls._fields
        if not isinstance(value, list | tuple) or len(value) != len(names):
            raise ValueError(f"expected an array of {len(names)} items ({', '.join(names)})")
        hints = field_types(cls)
        return cls(*(_at_attribute(conv, v, hints[n], n, cls) for n, v in zip(names, value, strict=True)))

    conv.register_structure_hook_func(_is_namedtuple, structure_namedtuple)
    conv.register_unstructure_hook_func(_is_namedtuple, lambda obj: [conv.unstructure(v) for v in obj])

    def structure_attrs(value: Any, cls: Any) -> Any:
        return cls(**structure_fields(conv, value, cls))

    conv.register_structure_hook_func(attrs.has, structure_attrs)
    conv.register_unstructure_hook_func(
        attrs.has,
        lambda obj: {f.name: conv.unstructure(getattr(obj, f.name)) for f in attrs.fields(type(obj)) if f.init},
    )
    conv.register_unstructure_hook(tuple, lambda obj: [conv.unstructure(v) for v in obj])
    return conv


def _type_name(cls: Any) -> str:
    if cls is type(None):
        return "null"
    return getattr(cls, "__name__", None) or repr(cls)


def _at_attribute(conv: cattrs.Converter, value: Any, cls: Any, name: str, owner: type) -> Any:
    try:
        return conv.structure(value, cls)
    except Exception as exc:
        raise ClassValidationError(
            f"While structuring {owner.__name__}",
            [_noted(exc, AttributeValidationNote(f"Structuring {owner.__name__} @ attribute {name}", name, cls))],
            owner,
        ) from None


def _at_key(conv: cattrs.Converter, value: Any, cls: Any, key: Any, owner: Any) -> Any:
    from cattrs.errors import IterableValidationError, IterableValidationNote

    try:
        return conv.structure(value, cls)
    except Exception as exc:
        raise IterableValidationError(
            "While structuring a mapping", [_noted(exc, IterableValidationNote(f"key {key}", key, cls))], dict
        ) from None


def _noted(exc: Exception, note: str) -> Exception:
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
    return exc


def structure_fields(conv: cattrs.Converter, value: Any, cls: type, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The keyword arguments of an attrs class from a JSON object: every init field, typed, with
    unknown and missing fields refused. Errors carry cattrs notes so the path survives."""
    if not isinstance(value, dict):
        raise ValueError(f"expected an object for {cls.__name__}")
    fields = [f for f in attrs.fields(cls) if f.init and f.name not in skip]
    names = {f.name for f in fields}
    errors: list[Exception] = []
    extra = sorted(set(value) - names)
    if extra:
        errors.append(ValueError(f"unknown field {extra[0]!r} for {cls.__name__}"))
    hints = field_types(cls)
    out: dict[str, Any] = {}
    for f in fields:
        note = AttributeValidationNote(f"Structuring {cls.__name__} @ attribute {f.name}", f.name, hints[f.name])
        if f.name not in value:
            if f.default is attrs.NOTHING:
                errors.append(_noted(ValueError("required field missing"), note))
            continue
        try:
            out[f.name] = conv.structure(value[f.name], hints[f.name])
        except Exception as exc:
            errors.append(_noted(exc, note))
    if errors:
        raise ClassValidationError(f"While structuring {cls.__name__}", errors, cls)
    return out


converter = _make_converter()
"""The one converter; every game's classes go through its generic hooks."""


# --- errors with JSON paths ----------------------------------------------------------------
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


def _fields(value: Any, cls: type, path: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    try:
        return structure_fields(converter, value, cls, skip)
    except Exception as exc:
        raise _notation_error(exc, path) from None


# --- games and rules -------------------------------------------------------------------------
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
    if not isinstance(options, dict):
        raise NotationError("expected an object of rule options", path)
    rules_cls = type(game_spec.presets[preset])
    hints = field_types(rules_cls)
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in hints:
            raise NotationError(f"unknown option {name!r}; options are: {', '.join(hints)}", f"{path}.{name}")
        out[name] = _structure(value, hints[name], f"{path}.{name}")
    return out


def _spec_at(name: Any, path: str) -> GameSpec:
    if not isinstance(name, str):
        raise NotationError("expected a game name", path)
    try:
        return spec(name)
    except RulesError as exc:
        raise NotationError(str(exc), path) from None


def _load(name: Any, preset: Any, players: Any, options: Any, path: str) -> Game:
    game_spec = _spec_at(name, f"{path}.name" if path != "$" else "$.game")
    if not isinstance(preset, str) or preset not in game_spec.presets:
        raise NotationError(
            f"unknown preset {preset!r} for {game_spec.name}; presets are: {', '.join(game_spec.presets)}",
            f"{path}.preset",
        )
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise NotationError(f"expected an integer player count, got {players!r}", f"{path}.players")
    typed = structure_options(game_spec.name, preset, options, f"{path}.options")
    try:
        return game_spec.load(players, preset, **typed)
    except RulesError as exc:
        match = re.search(r"option (\w+)=", str(exc))
        where = f"{path}.options.{match.group(1)}" if match else f"{path}.players" if "players" in str(exc) else path
        raise NotationError(str(exc), where) from None


def _game_json(game: Game) -> dict[str, Any]:
    return {
        "name": game.name,
        "preset": game.preset,
        "players": game.players,
        "options": _options_json(rule_overrides(game)),
    }


def _game_from(value: Any, path: str) -> Game:
    if not isinstance(value, dict):
        raise NotationError("expected an object naming the game (name, preset, players, options)", path)
    extra = sorted(set(value) - {"name", "preset", "players", "options"})
    if extra:
        raise NotationError(f"unknown field {extra[0]!r}", f"{path}.{extra[0]}")
    for key in ("name", "preset", "players"):
        if key not in value:
            raise NotationError("required field missing", f"{path}.{key}")
    return _load(value["name"], value["preset"], value["players"], value.get("options", {}), path)


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
    if not isinstance(name, str) or name not in classes:
        others = [k for k in _KINDS if k != kind and isinstance(name, str) and name in _classes_of(game_spec)[k]]
        what = f"a {others[0]} class, not a {kind} class," if others else f"not a {kind} class"
        raise NotationError(f"{name!r} is {what} of {game_spec.name}; expected one of {', '.join(classes)}", path)
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


# --- to_json ---------------------------------------------------------------------------------
def to_data(obj: Any) -> dict[str, Any]:
    """The JSON-ready dict that ``to_json`` writes (for embedding in a larger document)."""
    head: dict[str, Any] = {"format": FORMAT}
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
    if isinstance(obj, State):
        return {**head, "type": "state", "game": _game_json(obj.game), "class": type(obj).__name__, "state": _body(obj)}
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
        return {**head, "type": kind, "game": owner.name, "class": type(obj).__name__, kind: _body(obj)}
    raise TypeError(
        f"to_json takes a Rules, Game, State, view, move, ScoreSheet, Verdict or GameRecord, not {type(obj).__name__}"
    )


def _body(obj: Any) -> dict[str, Any]:
    return {
        f.name: converter.unstructure(getattr(obj, f.name))
        for f in attrs.fields(type(obj))
        if f.init and f.name != "game"
    }


def to_json(obj: Any, *, indent: int | None = None) -> str:
    """``obj`` as versioned JSON text (see the module docstring for the format)."""
    return json.dumps(to_data(obj), indent=indent)


# --- from_json -------------------------------------------------------------------------------
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


def from_data(data: Any) -> Any:
    """Like ``from_json`` for an already parsed document."""
    if not isinstance(data, dict):
        raise NotationError("expected a JSON object with 'format' and 'type'", "$")
    if "format" not in data:
        raise NotationError("required field missing", "$.format")
    version = data["format"]
    if type(version) is not int or version != FORMAT:  # 1.0 and true are not the integer 1
        raise NotationError(f"format {version!r} is not supported; this citybuild reads format {FORMAT}", "$.format")
    kind = data.get("type")
    if kind not in TYPES:
        raise NotationError(f"unknown type {kind!r}; types are: {', '.join(TYPES)}", "$.type")
    wanted = {
        "rules": {"game", "preset", "options"},
        "game": {"game"},
        "state": {"game", "class", "state"},
        "view": {"game", "class", "view"},
        "move": {"game", "class", "move"},
        "scores": {"scores"},
        "verdict": {"verdict"},
        "record": {"game", "preset", "players", "options", "seed", "moves", "result"},
    }[kind]
    keys = set(data) - {"format", "type"}
    if keys - wanted:
        extra = sorted(keys - wanted)[0]
        raise NotationError(f"unknown field {extra!r} in a {kind} document", f"$.{extra}")
    optional = {"options", "result"}
    missing = sorted(wanted - keys - optional)
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
    if not (isinstance(cls, type) and issubclass(cls, State)):
        raise NotationError(f"{cls.__name__} is not a state class", "$.class")
    kwargs = _fields(data["state"], cls, "$.state", skip=("game",))
    try:
        state = cls(game=game, **kwargs)  # type: ignore[call-arg]
        state.validate()
    except InvalidStateError as exc:
        raise NotationError(f"not a possible position: {exc}", "$.state") from exc
    except Exception as exc:  # a game's checks tripping over tampered values still means "refused"
        raise NotationError(f"not a possible position: {exc!r}", "$.state") from exc
    return state


def _read_view(data: dict[str, Any]) -> Any:
    """A view, checked by the game's declared ``validate_view`` hook when it has one (a game's way
    to refuse views no real position could give: ``NotationError`` at ``$.view``, cause chained)."""
    view = _read_value(data, "view")
    validate = _spec_at(data["game"], "$.game").validate_view
    if validate is not None:
        try:
            validate(view)
        except InvalidStateError as exc:
            raise NotationError(f"not a possible view: {exc}", "$.view") from exc
        except Exception as exc:  # a game's checks tripping over tampered values still means "refused"
            raise NotationError(f"not a possible view: {exc!r}", "$.view") from exc
    return view


def _read_move(data: dict[str, Any]) -> Any:
    return _read_value(data, "move")


def _read_value(data: dict[str, Any], kind: str) -> Any:
    cls = _class_of(_spec_at(data["game"], "$.game"), data["class"], kind, "$.class")
    return _build(cls, _fields(data[kind], cls, f"$.{kind}"), f"$.{kind}")


def _build(cls: type, kwargs: dict[str, Any], path: str) -> Any:
    try:
        return cls(**kwargs)
    except CitybuildError as exc:
        raise NotationError(str(exc), path) from exc
    except (TypeError, ValueError) as exc:
        raise NotationError(f"cannot build {cls.__name__}: {exc}", path) from exc


def _read_scores(data: dict[str, Any]) -> ScoreSheet:
    sheet: ScoreSheet = _build(ScoreSheet, _fields(data["scores"], ScoreSheet, "$.scores"), "$.scores")
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
    return _build(Verdict, _fields(data["verdict"], Verdict, "$.verdict"), "$.verdict")  # type: ignore[no-any-return]


def _read_record(data: dict[str, Any]) -> GameRecord:
    game = _load(data["game"], data["preset"], data["players"], data.get("options", {}), "$")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NotationError(f"expected an integer seed, got {json.dumps(seed)}", "$.seed")
    moves = data["moves"]
    if not isinstance(moves, list):
        raise NotationError("expected an array of moves", "$.moves")
    entries = []
    for i, entry in enumerate(moves):
        path = f"$.moves[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"player", "move"}:
            raise NotationError('expected {"player": <seat or null for chance>, "move": "<notation>"}', path)
        player, move = entry["player"], entry["move"]
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise NotationError(f"expected a seat number or null, got {json.dumps(player)}", f"{path}.player")
        if player is not None and not 0 <= player < game.players:
            raise NotationError(f"there is no player {player} in a {game.players}-player game", f"{path}.player")
        if not isinstance(move, str):
            raise NotationError(f"expected move notation text, got {json.dumps(move)}", f"{path}.move")
        try:
            game.parse_move(move)
        except NotationError as exc:
            raise NotationError(str(exc), f"{path}.move") from None
        entries.append(RecordEntry(player, move))
    result = data.get("result")
    final = None if result is None else _build(FinalScore, _fields(result, FinalScore, "$.result"), "$.result")
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
