"""Fuzzing JSON documents of every type (rules, game, state, view, move, scores, verdict, record):
values of other types, huge integers, deep nesting, non-ASCII digits in integer keys, dropped and
added keys and items, truncated text. Whatever is wrong, ``from_json`` raises ``NotationError``
(never a TypeError, KeyError, OverflowError, RecursionError...), and whatever it reads is a value
its game accepts: it validates, writes and reads back the same, and its notation is short."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild import jsonvalues
from citybuild.core.registry import spec
from citybuild.games.manhattan.state import PHASES as MANHATTAN_PHASES
from citybuild.games.skyline.position import PHASES as SKYLINE_PHASES
from citybuild.games.urbanization.state import PHASES as URBANIZATION_PHASES
from citybuild.testing import play_random

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Options that put dict-valued, tuple-valued and literal options into the documents.
GAMES = [
    ("manhattan", 4, {}),
    ("manhattan", 2, {"pieces_per_round": {2: 3, 3: 4, 4: 5}, "selection": "simultaneous_hidden"}),
    ("manhattan", 3, {"rounds": "until_supply_empty", "no_legal_move": "pass_keep_piece"}),
    ("skyline", 2, {}),
    ("skyline", 3, {"finite_tile_supply": True, "faces": {"GF": "PPBBOO", "UF": "PPPBBO", "PH": "XXXBBO"}}),
    ("urbanization", 3, {}),
    ("urbanization", 5, {"character_mode": "random", "token_no_space": "any_cell_adjacent_to_city"}),
]


def _documents() -> dict[str, list[str]]:
    """Real documents of every type, from a few seeded games of each game and option mix."""
    docs: dict[str, list[str]] = {kind: [] for kind in cb.serialize.TYPES}
    for index, (name, players, options) in enumerate(GAMES):
        game = cb.load(name, players=players, **options)
        docs["rules"].append(cb.to_json(game.rules))
        docs["game"].append(cb.to_json(game))
        match = cb.Match(game, seed=index)
        for _ in range(40 + 25 * index):
            if match.is_over:
                break
            player = match.state.to_act[0] if match.state.to_act else None
            match.play(match.random_move(player), player)
        docs["record"].append(cb.to_json(match.record()))
        for steps in (0, 30, 90, 400):
            state = play_random(game.initial_state(), seed=index, steps=steps)
            docs["state"].append(cb.to_json(state))
            docs["view"].append(cb.to_json(state.view(steps % players)))
            docs["scores"].append(cb.to_json(state.scores()))
            mover = None if state.is_chance or not state.to_act else state.to_act[0]
            legal = state.legal_moves(mover)
            for move in legal[:2]:
                docs["move"].append(cb.to_json(move))
            if not state.is_over:
                docs["verdict"].append(cb.to_json(state.check(legal[0], (mover or 0) + 1)))
        ended = play_random(game.initial_state(), seed=index, steps=5000)
        docs["state"].append(cb.to_json(ended))
        docs["scores"].append(cb.to_json(ended.scores()))
    return docs


DOCUMENTS = _documents()
ALL = [(kind, text) for kind, texts in DOCUMENTS.items() for text in texts]


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.sampled_from([10**30, -(10**30), 2**63, 2**64 + 1, 10**4000]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.sampled_from(["٣", "1٣", "", "0", "01", "+1", "-0", " 1", "1e3", "GF", "P", "?", "standard", "ManhattanState"]),
    st.sampled_from(["x" * 5000, "9" * 4000, "\ud800"]),
    st.lists(st.integers(-2, 6), max_size=4),
    st.lists(st.lists(st.integers(0, 4), max_size=2), max_size=2),
    st.dictionaries(st.sampled_from(["a", "2", "٣", "player", "id"]), st.integers(0, 3), max_size=2),
    st.sampled_from([_deep(60), _deep(400)]),
)
ODD_KEYS = st.sampled_from(["٣", "٢", "02", "-1", "2.0", " 2", "2", "x", "", "game", "format", "ledger", "𝟚"])


@st.composite
def mutated(draw: st.DrawFn, text: str) -> Any:
    """``text``'s document with one to three changes somewhere in its tree."""
    doc = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        doc = _mutate_once(draw, doc)
    return doc


def _mutate_once(draw: st.DrawFn, doc: Any) -> Any:
    doc = copy.deepcopy(doc)
    parent: Any = None
    key: Any = None
    node = doc
    while isinstance(node, dict | list) and node and draw(st.integers(0, 5)) > 0:
        key = draw(st.sampled_from(sorted(node))) if isinstance(node, dict) else draw(st.integers(0, len(node) - 1))
        parent, node = node, node[key]
    op = draw(st.sampled_from(["replace", "replace", "nudge", "nudge", "drop", "add", "rekey", "duplicate", "wrap"]))
    if op == "nudge" and type(node) is int and parent is not None:  # a near miss: still a number
        parent[key] = node + draw(st.sampled_from([-2, -1, 1, 2]))
    elif op == "replace" or (parent is None and op != "add"):
        value = draw(ODD_VALUES)
        if parent is None:
            return value if draw(st.booleans()) else {"format": 1, "type": draw(st.sampled_from(cb.serialize.TYPES))}
        parent[key] = value
    elif op == "drop":
        del parent[key]
    elif op == "add":
        target = node if isinstance(node, dict | list) else parent
        if isinstance(target, dict):
            target[draw(ODD_KEYS)] = draw(ODD_VALUES)
        elif isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))), draw(ODD_VALUES))
    elif op == "rekey" and isinstance(parent, dict):
        parent[draw(ODD_KEYS)] = parent.pop(key)
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(node))
    elif op == "wrap" and parent is not None:
        parent[key] = [node]
    return doc


def read_or_refuse(text: str | bytes) -> Any:
    """``from_json`` may only read or raise ``NotationError``; what it reads must hold up."""
    try:
        value = cb.from_json(text)
    except cb.NotationError as exc:
        assert exc.where is None or exc.where.startswith("$"), exc.where
        assert len(str(exc)) < 2000, "an error message runs too long"
        return None
    check_read(value)
    return value


def check_read(value: Any) -> None:
    """A value from_json accepted: valid for its game, stable through JSON, with short notation."""
    again = cb.from_json(cb.to_json(value))
    assert again == value
    if isinstance(value, cb.State):
        value.validate()
        assert value.game.parse_state(value.notation()) == value
        value.scores()
        for player in range(value.game.players):
            view = value.view(player)
            check_view(view)
        if not value.is_over:
            value.legal_moves(None if value.is_chance or len(value.to_act) != 1 else value.to_act[0])
    elif isinstance(value, cb.ScoreSheet):
        assert len(value.totals) == value.players
        str(value.items)
    elif isinstance(value, cb.GameRecord):
        with contextlib.suppress(cb.IllegalMoveError, cb.NotationError):
            cb.replay(value)  # a record of moves that cannot be played is refused as such
    elif isinstance(value, cb.Verdict):
        str(value)
    elif not isinstance(value, cb.Game) and hasattr(value, "notation"):
        check_view(value)
    elif not isinstance(value, cb.Game) and attrs.has(type(value)):
        str(value)


def check_view(view: Any) -> None:
    """A view that reads is one its game's hook accepts, and its notation stays short."""
    name = next(name for name in cb.games() if spec(name).view is type(view))
    validate = spec(name).validate_view
    if validate is not None:
        validate(view)
    assert len(view.notation()) < 5000


@SETTINGS
@given(st.data())
def test_mutated_documents_are_read_or_refused_with_a_notation_error(data: st.DataObject) -> None:
    _, text = data.draw(st.sampled_from(ALL))
    doc = data.draw(mutated(text))
    read_or_refuse(json.dumps(doc))


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_document_type_survives_mutation(kind: str, data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(DOCUMENTS[kind]))
    read_or_refuse(json.dumps(data.draw(mutated(text))))


@SETTINGS
@given(st.data())
def test_truncated_and_garbled_text_is_refused(data: st.DataObject) -> None:
    _, text = data.draw(st.sampled_from(ALL))
    cut = data.draw(st.integers(0, len(text) - 1))
    assert read_or_refuse(text[:cut]) is None
    spot = data.draw(st.integers(0, len(text) - 1))
    garbled = text[:spot] + data.draw(st.sampled_from(["\x00", "٣", "]", "{", '"', "\\", "1e999", "NaN"])) + text[spot:]
    read_or_refuse(garbled)
    read_or_refuse(garbled.encode("utf-8", "surrogatepass")[: data.draw(st.integers(0, len(text)))])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_compiled_readers_agree_with_the_explaining_hooks(data: st.DataObject) -> None:
    """The one-pass readers are only a fast path: with them off, every document reads the same
    value or fails at the same place."""
    _, text = data.draw(st.sampled_from(ALL))
    doc = json.dumps(data.draw(mutated(text)))

    def outcome() -> Any:
        try:
            return ("read", cb.from_json(doc))
        except cb.NotationError as exc:
            return ("refused", exc.where)

    fast = outcome()
    try:
        jsonvalues.FAST = False
        slow = outcome()
    finally:
        jsonvalues.FAST = True
    assert fast == slow


@pytest.mark.parametrize("key", ["٣", "٢", "𝟚", "02", "+2", " 2", "2 ", "-0", "1" * 40])
def test_option_dicts_refuse_keys_that_are_not_plain_ascii_integers(key: str) -> None:
    doc = json.loads(DOCUMENTS["rules"][1])
    assert "pieces_per_round" in doc["options"]
    doc["options"]["pieces_per_round"] = {key: 3, "3": 4, "4": 5}
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(doc))
    assert err.value.where is not None and err.value.where.startswith("$.options.pieces_per_round")
    record = json.loads(DOCUMENTS["record"][1])
    record["options"]["pieces_per_round"] = {key: 3, "3": 4, "4": 5}
    with pytest.raises(cb.NotationError):
        cb.from_json(json.dumps(record))


def _node_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON tree (the first six items of each array)."""
    items = node.items() if isinstance(node, dict) else enumerate(node[:6]) if isinstance(node, list) else ()
    return [path, *(p for key, value in items for p in _node_paths(value, (*path, key)))]


def test_a_seeded_sweep_of_every_document_and_every_field() -> None:
    """Every leaf of every pool document replaced by each odd value once (seeded, no hypothesis):
    a broad, deterministic sweep the random tests sample from."""
    rng = random.Random(7)
    odd = [None, True, -1, 10**30, 1.5, "٣", "", [], {}, [[]], _deep(50)]
    for _, text in ALL[:: max(1, len(ALL) // 12)]:
        doc = json.loads(text)
        paths = _node_paths(doc)
        for path in rng.sample(paths, min(len(paths), 60)):
            if not path:
                continue
            tampered = copy.deepcopy(doc)
            node = tampered
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = rng.choice(odd)
            read_or_refuse(json.dumps(tampered))


# --- near misses: positions changed by a little, the kind of tampering invariants must catch -------
def _int_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if type(node) is int:
        return [path]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    return [p for key, value in items for p in _int_paths(value, (*path, key))]


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        node = node[step]
    return node


PHASES = {"manhattan": MANHATTAN_PHASES, "skyline": SKYLINE_PHASES, "urbanization": URBANIZATION_PHASES}


_STATES_OF: dict[str, list[Any]] = {}
"""The pool's state bodies per game (its JSON, keys sorted): donors of transplanted fields."""
for _text in DOCUMENTS["state"]:
    _doc = json.loads(_text)
    _STATES_OF.setdefault(json.dumps(_doc["game"], sort_keys=True), []).append(_doc["state"])


@st.composite
def near_miss(draw: st.DrawFn) -> str:
    """A real position with one to three small changes: a unit moved between two counts (so
    totals still add up), another phase or turn, a piece moved to another lot, a building
    recoloured, completed or renumbered, a selection made or unmade, a field taken from another
    position of the same game."""
    doc = json.loads(draw(st.sampled_from(DOCUMENTS["state"])))
    name, body = doc["game"]["name"], doc["state"]
    for _ in range(draw(st.integers(1, 3))):
        paths = _int_paths(body)
        change = draw(st.sampled_from(["move unit", "move unit", "phase", "turn", "board", "select", "transplant"]))
        kin = _STATES_OF[json.dumps(doc["game"], sort_keys=True)]
        if change == "transplant" and len(kin) > 1:  # a field of another position of the same game
            donor = draw(st.sampled_from(kin))
            field = draw(st.sampled_from(sorted(body)))
            body[field] = copy.deepcopy(donor[field])  # the pool is shared: later changes must not reach it
        elif change == "move unit" and len(paths) > 1:
            a, b = draw(st.sampled_from(paths)), draw(st.sampled_from(paths))
            _at(body, a)[a[-1]] += 1
            _at(body, b)[b[-1]] -= 1
        elif change == "phase":
            body["phase"] = draw(st.sampled_from(PHASES[name]))
        elif change == "turn":
            body["turn"] = draw(st.integers(0, doc["game"]["players"] - 1))
        elif change == "board" and name == "manhattan" and any(body["towers"]):
            lots = [i for i, t in enumerate(body["towers"]) if t]
            source = body["towers"][draw(st.sampled_from(lots))]
            target = body["towers"][draw(st.integers(0, 53))]
            target.insert(draw(st.integers(0, len(target))), source.pop(draw(st.integers(0, len(source) - 1))))
        elif change == "board" and name == "skyline":
            skyline = body["skylines"][draw(st.integers(0, len(body["skylines"]) - 1))]
            if skyline["buildings"] and draw(st.booleans()):
                index = draw(st.integers(0, len(skyline["buildings"]) - 1))
                building = skyline["buildings"][index]
                building["colour"] = draw(st.sampled_from("PBO"))
                if "pieces" in building and draw(st.booleans()):
                    skyline["buildings"][index] = {"id": building["id"], "colour": building["colour"], "height": 3}
            else:
                skyline["next_id"] += draw(st.sampled_from([-2, -1, 1, 4]))
        elif change == "select" and name == "manhattan":
            colour = draw(st.integers(0, len(body["chosen"]) - 1))
            body["chosen"][colour] = None if body["chosen"][colour] is not None else [0, 0, 0, 0]
    return json.dumps(doc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_miss(), st.integers(0, 2**16))
def test_near_miss_positions_that_read_are_positions_play_can_continue(text: str, seed: int) -> None:
    """A tampered position either is refused or is one the rules can play on to the end, every
    position on the way valid (so no invariant is missing that play relies on)."""
    state = read_or_refuse(text)
    if state is None:
        return
    _plays_to_the_end(state, random.Random(seed))


def _plays_to_the_end(state: Any, rng: random.Random) -> None:
    """Random play from ``state`` reaches the end, every position on the way valid."""
    for _ in range(5000):
        if state.is_over:
            break
        state = state.random_step(rng)
        state.validate()
    assert state.is_over


def _positions_along(name: str, players: int, seeds: range) -> list[dict[str, Any]]:
    game = cb.load(name, players=players)
    return [
        json.loads(cb.to_json(play_random(game.initial_state(), seed=seed, steps=steps)))
        for seed in seeds
        for steps in (0, 5, 20, 40, 60, 90, 130, 200, 300, 450, 700)
    ]


@pytest.mark.parametrize(
    ("name", "players"), [("manhattan", 3), ("skyline", 2), ("urbanization", 2), ("urbanization", 4)]
)
def test_a_seeded_sweep_of_fields_transplanted_between_positions(name: str, players: int) -> None:
    """Fields of one real position put into another of the same game (each alone possible, together
    perhaps not), or a number nudged: the position is refused, or random play goes on from it to
    the end with every position valid. This sweep found Urbanization's missing phase invariants."""
    pool = _positions_along(name, players, range(4))
    rng = random.Random(2024)
    for attempt in range(300):
        doc, donor = rng.sample(pool, 2)
        doc = copy.deepcopy(doc)
        body = doc["state"]
        if attempt % 2:
            fields = [k for k in body if body[k] != donor["state"][k]]
            for field in rng.sample(fields, min(len(fields), rng.choice((1, 2)))):
                body[field] = donor["state"][field]
        else:
            path = rng.choice(_int_paths(body))
            _at(body, path)[path[-1]] = max(0, _at(body, path)[path[-1]] + rng.choice((-2, -1, 1, 2)))
        state = read_or_refuse(json.dumps(doc))
        if state is None:
            continue
        _plays_to_the_end(state, random.Random(attempt))
