"""Records: what a match writes, what replay accepts, and every way a record can be wrong."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.record import FinalScore, RecordEntry


@pytest.fixture(scope="module")
def finished() -> cb.Match:
    m = cb.Match(cb.load("manhattan", players=2, redraw_limit=3), seed=21)
    while not m.is_over:
        m.play(m.random_move())
    return m


def doc(match: cb.Match) -> dict[str, Any]:
    return json.loads(cb.to_json(match.record()))  # type: ignore[no-any-return]


def test_record_fields(finished: cb.Match) -> None:
    record = finished.record()
    assert (record.game, record.preset, record.players, record.seed) == ("manhattan", "standard", 2, 21)
    assert record.options == {"redraw_limit": 3}  # only what differs from the preset
    assert len(record.moves) == len(finished.history)
    assert record.moves[0] == RecordEntry(None, str(finished.history[0].move))
    assert record.result == FinalScore(
        finished.state.scores().totals, finished.state.winners(), finished.state.scores().tiebreak
    )
    assert record.load() == finished.game


def test_json_shape(finished: cb.Match) -> None:
    data = doc(finished)
    assert data["format"] == 1 and data["type"] == "record"
    assert data["options"] == {"redraw_limit": 3}
    assert data["moves"][8] == {"player": 0, "move": str(finished.history[8].move)}
    assert set(data["result"]) == {"totals", "winners", "tiebreak"}


def test_replay_rebuilds_exactly(finished: cb.Match) -> None:
    for source in (finished.record(), cb.to_json(finished.record())):
        again = cb.replay(source)
        assert again.state == finished.state
        assert again.history == finished.history
        assert again.state.scores() == finished.state.scores()  # the itemised ledger too


def test_replay_uses_no_generator(finished: cb.Match) -> None:
    """Outcomes come from the record: a record under another seed still replays the same game."""
    other = attrs.evolve(finished.record(), seed=999)
    assert cb.replay(other).state == finished.state


def test_unfinished_record_replays(finished: cb.Match) -> None:
    record = finished.record()
    partial = attrs.evolve(record, moves=record.moves[:50], result=None)
    again = cb.replay(partial)
    assert again.state == finished.states[50] and not again.is_over


def test_truncated_record_with_result_is_refused(finished: cb.Match) -> None:
    record = finished.record()
    with pytest.raises(cb.NotationError, match="not over") as err:
        cb.replay(attrs.evolve(record, moves=record.moves[:-5]))
    assert err.value.where == "$.result"


@pytest.mark.parametrize("field", ["totals", "winners", "tiebreak"])
def test_wrong_result_is_refused(finished: cb.Match, field: str) -> None:
    result = finished.record().result
    assert result is not None
    wrong = {"totals": (result.totals[0] + 1, result.totals[1]), "winners": (5,), "tiebreak": "coin toss"}[field]
    record = attrs.evolve(finished.record(), result=attrs.evolve(result, **{field: wrong}))
    with pytest.raises(cb.NotationError) as err:
        cb.replay(record)
    assert err.value.where == f"$.result.{field}"


def test_illegal_move_names_index_move_and_verdict(finished: cb.Match) -> None:
    record = finished.record()
    index = next(i for i, e in enumerate(record.moves) if e.move.startswith("build"))
    moves = list(record.moves)
    moves[index] = RecordEntry(moves[index].player, "pass")
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(attrs.evolve(record, moves=tuple(moves)))
    assert err.value.index == index
    assert str(err.value.move) == "pass"
    assert err.value.verdict.codes == ("must-build",)
    assert f"move {index} " in str(err.value)


def test_removed_move_is_refused(finished: cb.Match) -> None:
    record = finished.record()
    moves = record.moves[:8] + record.moves[9:]  # drop P0's first selection
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(attrs.evolve(record, moves=moves))
    assert err.value.index == 8


def test_wrong_player_and_chance_entries(finished: cb.Match) -> None:
    record = finished.record()
    moves = list(record.moves)
    moves[8] = RecordEntry(1, moves[8].move)  # P1 plays P0's move
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(attrs.evolve(record, moves=tuple(moves)))
    assert err.value.index == 8 and err.value.verdict.codes == ("not-to-act",)
    moves = list(record.moves)
    moves[8] = RecordEntry(None, "draw 1")  # a draw where P0 must select
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(attrs.evolve(record, moves=tuple(moves)))
    assert err.value.verdict.codes == ("not-chance",)
    moves = list(record.moves)
    moves[0] = RecordEntry(0, moves[0].move)  # a player at a chance state
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(attrs.evolve(record, moves=tuple(moves)))
    assert err.value.index == 0 and err.value.verdict.codes == ("chance-state",)


def test_moves_after_the_end_are_refused(finished: cb.Match) -> None:
    record = finished.record()
    longer = attrs.evolve(record, moves=(*record.moves, RecordEntry(0, "pass")))
    with pytest.raises(cb.IllegalMoveError) as err:
        cb.replay(longer)
    assert err.value.index == len(record.moves) and err.value.verdict.codes == ("game-over",)


def test_unreadable_move_in_a_record_object(finished: cb.Match) -> None:
    record = finished.record()
    moves = (*record.moves[:3], RecordEntry(None, "draw nine"), *record.moves[4:])
    with pytest.raises(cb.NotationError) as err:
        cb.replay(attrs.evolve(record, moves=moves))
    assert err.value.where == "$.moves[3].move"


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.update(format=2), "$.format"),
        (lambda d: d.pop("format"), "$.format"),
        (lambda d: d.update(type="recording"), "$.type"),
        (lambda d: d.update(game="chess"), "$.game"),
        (lambda d: d.update(preset="quick"), "$.preset"),
        (lambda d: d.update(players=9), "$.players"),
        (lambda d: d.update(seed="7"), "$.seed"),
        (lambda d: d.update(options={"redraw_limit": 99}), "$.options.redraw_limit"),
        (lambda d: d.update(options={"nope": 1}), "$.options.nope"),
        (lambda d: d["moves"].__setitem__(12, {"player": 0}), "$.moves[12]"),
        (lambda d: d["moves"][12].update(move=12), "$.moves[12].move"),
        (lambda d: d["moves"][12].update(move="build"), "$.moves[12].move"),
        (lambda d: d["moves"][12].update(player="P0"), "$.moves[12].player"),
        (lambda d: d["moves"][12].update(player=7), "$.moves[12].player"),
        (lambda d: d.update(moves="all of them"), "$.moves"),
        (lambda d: d["result"].update(totals=[1, "x"]), "$.result.totals[1]"),
        (lambda d: d["result"].pop("winners"), "$.result.winners"),
        (lambda d: d.update(extra=1), "$.extra"),
    ],
)
def test_tampered_record_json(finished: cb.Match, edit: Any, where: str) -> None:
    data = doc(finished)
    edit(data)
    with pytest.raises(cb.NotationError) as err:
        cb.from_json(json.dumps(data))
    assert err.value.where == where, str(err.value)


@pytest.mark.parametrize("text", ["", "{", "null", "[1, 2]", '"record"', "{} trailing", "\x00"])
def test_garbage_is_a_notation_error(text: str) -> None:
    with pytest.raises(cb.NotationError) as err:
        cb.replay(text)
    assert err.value.where == "$"


def test_replay_refuses_other_documents(finished: cb.Match) -> None:
    with pytest.raises(cb.NotationError, match="expected a game record"):
        cb.replay(cb.to_json(finished.state))


def skyline_record(*moves: Any) -> cb.GameRecord:
    return cb.GameRecord(game="skyline", preset="standard", players=2, seed=1, moves=moves)


@pytest.mark.parametrize(
    ("moves", "where"),
    [
        ((("0", "take district"),), "$.moves[0].player"),  # the reviewer's record: a pair with a text seat
        (((True, "take district"),), "$.moves[0].player"),
        (((2, "take district"),), "$.moves[0].player"),
        (((-1, "take district"),), "$.moves[0].player"),
        (((0, 42),), "$.moves[0].move"),
        (((0, None),), "$.moves[0].move"),
        (((0, "take district"), ("roll",)), "$.moves[1]"),
        (((0, "take district"), "roll GF:B"), "$.moves[1]"),
        (((0, "take district"), None), "$.moves[1]"),
        (((0, "take district"), {"player": None, "move": "x"}), "$.moves[1]"),
    ],
)
def test_malformed_record_entries_are_notation_errors(moves: tuple[Any, ...], where: str) -> None:
    with pytest.raises(cb.NotationError) as err:
        cb.replay(skyline_record(*moves))
    assert err.value.where == where, str(err.value)


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"moves": "take district"}, "$.moves"),
        ({"moves": None}, "$.moves"),
        ({"options": ["redraw_limit"]}, "$.options"),
        ({"options": {1: 2}}, "$.options"),
        ({"result": "P0 won"}, "$.result"),
        ({"game": ["skyline"]}, "$.game"),
        ({"preset": ["standard"]}, "$.game"),
        ({"players": "2"}, "$.game"),
        ({"seed": "1"}, "$.seed"),
    ],
)
def test_malformed_record_fields_are_notation_errors(changes: dict[str, Any], where: str) -> None:
    record = attrs.evolve(skyline_record((0, "take district")), **changes)
    with pytest.raises(cb.NotationError) as err:
        cb.replay(record)
    assert err.value.where == where, str(err.value)


def test_record_moves_may_be_player_text_pairs() -> None:
    m = cb.Match(cb.load("skyline", players=2), seed=3)
    for _ in range(6):
        m.play(m.random_move())
    pairs = tuple((e.player, str(e.move)) for e in m.history)
    record = cb.GameRecord(game="skyline", preset="standard", players=2, seed=3, moves=pairs)
    assert record.moves == m.record().moves and all(isinstance(e, RecordEntry) for e in record.moves)
    assert cb.GameRecord("skyline", "standard", 2, 3, moves=[list(p) for p in pairs]).moves == record.moves
    assert cb.replay(record).state == m.state


@pytest.mark.parametrize("name", ["manhattan", "skyline"])
def test_a_record_ending_after_a_player_move_replays_to_a_decision(name: str) -> None:
    """A match whose generator served only chance: the replay resolves the pending chance with the
    same generator, so it draws what the original drew."""
    m = cb.Match(cb.load(name, players=2), seed=17)
    chooser = random.Random(5)  # the players' choices do not touch the match's generator
    while not m.is_over and len(m.history) < 40:
        moves = m.state.legal_moves()
        m.play(moves[int(chooser.random() * len(moves))])
    record = m.record()
    pairs = zip(record.moves, record.moves[1:], strict=False)
    cut = max(i for i, (e, after) in enumerate(pairs) if e.player is not None and after.player is None)
    partial = attrs.evolve(record, moves=record.moves[: cut + 1])
    assert m.states[cut + 1].is_chance  # the record ends where chance is pending
    again = cb.replay(partial)
    assert not again.state.is_chance and not again.is_over
    assert len(again.history) > cut + 1  # the pending chance was resolved and recorded by the match
    assert again.history == m.history[: len(again.history)]  # with the draws of the original generator
    assert again.state == m.states[len(again.history)]
    assert cb.replay(partial).history == again.history  # and deterministically


def test_manual_record_ending_at_chance_is_resolved_on_replay() -> None:
    m = cb.Match(cb.load("manhattan", players=2), seed=2, auto_chance=False)
    assert m.state.is_chance
    record = m.record()  # nothing played yet: the opening deal is pending
    again = cb.replay(record)
    assert not again.state.is_chance and len(again.history) == 8  # the deal, drawn by the replay
    assert again.history == cb.Match(cb.load("manhattan", players=2), seed=2).history
