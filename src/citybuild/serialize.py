"""JSON for everything: versioned documents for rules, games, states, views, moves, score sheets,
verdicts and game records, for every registered game with no game-specific code.

Every document is an object with a ``"format"`` version and a ``"type"`` tag. Anything that belongs
to a game names the game (``name``, ``preset``, ``players`` and the rule ``options`` that differ from
the preset), so ``from_json`` rebuilds it through the registry. Classes are found by name among
those the game's ``GameSpec`` declares (its state and view classes, moves and chance outcomes);
nothing is ever imported from a name in the JSON, and no game is created to find them.

Reading is strict (see ``citybuild.jsonvalues``): an int must be a JSON integer, a tuple a JSON
array of the right length, no field may be missing or extra. Anything wrong raises
``NotationError`` whose ``where`` is a JSON path (``$.state.towers[3][0].size``) and nothing is
created. A state that is readable but breaks an invariant of its game (``State.validate``) is
refused the same way: ``NotationError`` at ``$.state``, with the ``InvalidStateError`` as its
``__cause__``; so is a view the game's ``validate_view`` hook refuses (at ``$.view``), and a score
sheet whose players, items or winners do not add up (at the offending field). A document names
only classes of its own type, and text that is not readable JSON at all (an integer past
Python's digit limit, nesting deeper than the parser's recursion limit) is a ``NotationError`` at
``$`` too.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from citybuild.core.errors import CitybuildError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import GameSpec, spec, specs
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Verdict
from citybuild.jsontypes import fields
from citybuild.jsonvalues import body, brief, converter, error_at, show, structure
from citybuild.record import FinalScore, GameRecord, RecordEntry, rule_overrides

FORMAT = 1
"""Version of the JSON format written by ``to_json``; ``from_json`` reads exactly this version."""

TYPES = ("rules", "game", "state", "view", "move", "scores", "verdict", "record")
"""The ``"type"`` tags of the documents ``to_json`` writes."""


# --- games and rules -----------------------------------------------------------------------------
def _closest_preset(game_spec: GameSpec, rules: Any) -> str:
    def distance(name: str) -> int:
        preset = game_spec.presets[name].options()
        return sum(1 for k, v in rules.options().items() if preset.get(k) != v)

    return min(game_spec.presets, key=distance)


def _options_json(options: Mapping[str, Any]) -> dict[str, Any]:
    return {name: converter.unstructure(value) for name, value in options.items()}


def structure_options(
    game_name: str, preset: str, options: Any, path: str = "$.options", files: bool = True
) -> dict[str, Any]:
    """Rule options read from JSON values (``{"redraw_limit": 2}``), typed by the game's Rules class.

    Used by records and by ``citybuild play --option``. Raises ``NotationError`` at the option's path.
    With ``files`` False (a document, which carries a data file's text instead), an option that
    names a file is refused, so that reading a document reads no other file.
    """
    game_spec = _spec_at(game_name, "$.game")
    if type(preset) is not str or preset not in game_spec.presets:
        presets = ", ".join(game_spec.presets)
        raise NotationError(f"unknown preset {show(preset)} for {game_name}; presets are: {presets}")
    if type(options) is not dict:
        raise NotationError("expected an object of rule options", path)
    hints = {f.name: f.type for f in fields(type(game_spec.presets[preset]))}
    if not files:
        for name in game_spec.presets[preset].file_options():
            if options.get(name) is not None:
                raise NotationError(
                    f"option {name} names a file, and rules read from JSON open no file; "
                    "give the file's text instead (a record written by citybuild does)",
                    f"{path}.{name}",
                )
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in hints:
            shown = name if type(name) is str and len(name) <= 40 else show(name)
            raise NotationError(f"unknown option {shown!r}; options are: {', '.join(hints)}", f"{path}.{shown}")
        try:
            out[name] = structure(value, hints[name], f"{path}.{name}")
        except NotationError as exc:  # say what the option takes, as 'citybuild rules GAME' does
            allowed = _allowed(game_spec.presets[preset], name)
            message = str(exc).removeprefix(f"{exc.where}: ") if exc.where else str(exc)
            if message.startswith("expected one of"):  # the values allowed are named already
                raise
            raise NotationError(f"{message}; {name} takes {allowed}", exc.where) from None
    return out


def _allowed(rules: Any, name: str) -> str:
    """The values an option allows, in words (``Rules.describe``)."""
    return str(next(info.allowed for info in rules.describe() if info.name == name))


def _spec_at(name: Any, path: str) -> GameSpec:
    if type(name) is not str:
        raise NotationError(f"expected a game name, got {show(name)}", path)
    try:
        return spec(name)
    except RulesError as exc:
        raise NotationError(brief(str(exc)), path) from None


def _load(name: Any, preset: Any, players: Any, options: Any, path: str) -> Game:
    game_spec = _spec_at(name, f"{path}.name" if path != "$" else "$.game")
    if type(preset) is not str or preset not in game_spec.presets:
        raise NotationError(
            f"unknown preset {show(preset)} for {game_spec.name}; presets are: {', '.join(game_spec.presets)}",
            f"{path}.preset",
        )
    if players is not None and type(players) is not int:
        raise NotationError(f"expected an integer player count, got {show(players)}", f"{path}.players")
    typed = structure_options(game_spec.name, preset, options, f"{path}.options", files=False) if options != {} else {}
    try:
        return game_spec.load(players, preset, **typed) if typed else _preset_game(game_spec, preset, players)
    except RulesError as exc:
        match = re.search(r"option (\w+)=", str(exc))
        where = f"{path}.options.{match.group(1)}" if match else f"{path}.players" if "players" in str(exc) else path
        raise NotationError(brief(str(exc)), where) from None


@functools.lru_cache(maxsize=256)
def _preset_game(game_spec: GameSpec, preset: str, players: int | None) -> Game:
    """Games are frozen values: documents naming the same spec, preset and player count share one
    (a lookup instead of building the game's tables again)."""
    return game_spec.load(players, preset)


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


_GAME_FIELDS = frozenset({"name", "preset", "players", "options"})


def _game_from(value: Any, path: str) -> Game:
    if type(value) is not dict:
        raise NotationError("expected an object naming the game (name, preset, players, options)", path)
    extra = [] if value.keys() <= _GAME_FIELDS else sorted(str(k) for k in set(value) - _GAME_FIELDS)
    if extra:
        raise NotationError(f"unknown field {show(extra[0])}", f"{path}.{extra[0][:40]}")
    for key in ("name", "preset", "players"):
        if key not in value:
            raise NotationError("required field missing", f"{path}.{key}")
    return _load(value["name"], value["preset"], value["players"], value.get("options", {}), path)


# --- the classes a game declares -----------------------------------------------------------------
_KINDS = ("state", "view", "move")


@functools.lru_cache(maxsize=64)
def _classes_of(game_spec: GameSpec) -> dict[str, dict[str, type]]:
    """The classes a game's JSON may name, by document type, as its ``GameSpec`` declares them:
    ``"state"`` its state class, ``"view"`` its view class, ``"move"`` its moves and chance
    outcomes; ``json_types`` adds state subclasses as states and other classes as views. A
    document may only name a class of its own type."""
    extra = game_spec.json_types
    found: dict[str, list[type]] = {
        "state": [game_spec.state, *(c for c in extra if issubclass(c, State))],
        "view": [game_spec.view, *(c for c in extra if not issubclass(c, State))],
        "move": [*game_spec.moves, *game_spec.outcomes],
    }
    return {kind: {cls.__name__: cls for cls in found[kind]} for kind in _KINDS}


def _class_of(game_spec: GameSpec, name: Any, kind: str, path: str) -> type:
    classes = _classes_of(game_spec)[kind]
    if type(name) is not str or name not in classes:
        others = [k for k in _KINDS if k != kind and type(name) is str and name in _classes_of(game_spec)[k]]
        what = f"a {others[0]} class, not a {kind} class," if others else f"not a {kind} class"
        raise NotationError(f"{show(name)} is {what} of {game_spec.name}; expected one of {', '.join(classes)}", path)
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
        written = body(type(obj))[1](obj)
        return {**head, "type": "state", "game": _game_json(obj.game), "class": type(obj).__name__, "state": written}
    game = getattr(obj, "game", None)
    if isinstance(game, Game) and _classes_of(game.spec)["view"].get(type(obj).__name__) is type(obj):
        # the view's own game says what it is, registered or not; it names its whole game, as a state does
        written = body(type(obj))[1](obj)
        return {**head, "type": "view", "game": _game_json(game), "class": type(obj).__name__, "view": written}
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
        game = game if kind == "view" else None
        if isinstance(game, Game):  # a view names its whole game, as a state does, and keeps it
            written = body(type(obj))[1](obj)
            return {**head, "type": kind, "game": _game_json(game), "class": type(obj).__name__, kind: written}
        return {**head, "type": kind, "game": owner.name, "class": type(obj).__name__, kind: converter.unstructure(obj)}
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
    """Whatever ``to_json`` wrote, rebuilt as the same value.

    Raises ``NotationError`` with a JSON path (its ``where``) for anything malformed, of another
    format version, or tampered into an impossible position."""
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
_EVERY_FIELD = {kind: frozenset({"format", "type", *fields}) for kind, fields in _WANTED.items()}


def from_data(data: Any) -> Any:
    """Like ``from_json`` for an already parsed document."""
    if type(data) is not dict:
        raise NotationError("expected a JSON object with 'format' and 'type'", "$")
    if "format" not in data:
        raise NotationError("required field missing", "$.format")
    version = data["format"]
    if type(version) is not int or version != FORMAT:  # 1.0 and true are not the integer 1
        raise NotationError(
            f"format {show(version)} is not supported; this citybuild reads format {FORMAT}", "$.format"
        )
    kind = data.get("type")
    if type(kind) is not str or kind not in TYPES:
        raise NotationError(f"unknown type {show(kind)}; types are: {', '.join(TYPES)}", "$.type")
    if data.keys() == _EVERY_FIELD[kind]:  # the usual document: no field missing, none unknown
        return _READERS[kind](data)
    wanted = _WANTED[kind]
    keys = set(data) - {"format", "type"}
    if keys - wanted:
        extra = sorted(str(k) for k in keys - wanted)[0]
        raise NotationError(f"unknown field {show(extra)} in a {kind} document", f"$.{extra[:40]}")
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
    cls = _class_of(game.spec, data["class"], "state", "$.class")
    try:
        state: State = body(cls)[0](data["state"], game)
    except Exception as exc:
        raise error_at(exc, "$.state") from None
    _checked(state.validate, "position", "$.state")
    return state


def _checked(check: Callable[[], None], what: str, path: str) -> None:
    """Run a game's invariant check on what was read; any refusal is a ``NotationError`` at ``path``."""
    try:
        check()
    except Exception as exc:  # a game's checks tripping over tampered values still means "refused"
        reason = str(exc) if isinstance(exc, InvalidStateError) else repr(exc)
        raise NotationError(f"not a possible {what}: {brief(reason)}", path) from exc


def _read_view(data: dict[str, Any]) -> Any:
    """A view, checked by the game's declared ``validate_view`` hook when it has one (a game's way
    to refuse views no real position could give: ``NotationError`` at ``$.view``, cause chained).
    A view document names its whole game, as a state document does (a bare game name is read too,
    giving a view that knows no game)."""
    if type(data["game"]) is dict:  # the whole game, which the view keeps (to list its legal moves)
        game = _game_from(data["game"], "$.game")
        game_spec = game.spec
        cls = _class_of(game_spec, data["class"], "view", "$.class")
        try:
            view = body(cls)[0](data["view"], game)
        except Exception as exc:
            raise error_at(exc, "$.view") from None
    else:
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
        raise NotationError(brief(str(exc)), path) from exc
    except Exception as exc:
        raise error_at(exc, path) from None


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
            f"a score sheet is for 1 to {most} players (the most a registered game seats), not {show(sheet.players)}",
            f"{path}.players",
        )
    for i, item in enumerate(sheet.items):
        if not 0 <= item.player < sheet.players:
            raise NotationError(
                f"there is no player {show(item.player)} in a {sheet.players}-player score sheet",
                f"{path}.items[{i}].player",
            )
    for i, winner in enumerate(sheet.winners):
        if not 0 <= winner < sheet.players:
            raise NotationError(
                f"there is no player {show(winner)} in a {sheet.players}-player score sheet", f"{path}.winners[{i}]"
            )
        if winner in sheet.winners[:i]:
            raise NotationError(f"P{winner} is named twice among the winners", f"{path}.winners[{i}]")


def _read_verdict(data: dict[str, Any]) -> Verdict:
    return _built(Verdict, data["verdict"], "$.verdict")  # type: ignore[no-any-return]


def _read_record(data: dict[str, Any]) -> GameRecord:
    game = _load(data["game"], data["preset"], data["players"], data.get("options", {}), "$")
    seed = data["seed"]
    if type(seed) is not int:
        raise NotationError(f"expected an integer seed, got {show(seed)}", "$.seed")
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
            raise NotationError(f"expected a seat number or null, got {show(player)}", f"{path}.player")
        if player is not None and not 0 <= player < game.players:
            raise NotationError(f"there is no player {player} in a {game.players}-player game", f"{path}.player")
        if type(move) is not str:
            raise NotationError(f"expected move notation text, got {show(move)}", f"{path}.move")
        try:
            game.parse_move(move)
        except NotationError as exc:
            raise NotationError(brief(str(exc)), f"{path}.move") from None
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
