"""Every option of rules/urbanization.md §13 changes what it says, on hand-written positions; the data
files are read through cattrs and a malformed one is refused saying where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from urbanization_support import card, play, pos

import citybuild as cb
from citybuild.games.urbanization.data import bundled
from citybuild.games.urbanization.moves import Token

EX11 = (
    "phase=resolve first=0 turn=2 actor=2 pending=take "
    "city=-1,1:B1;0,1:Y1;1,1:R1;-1,0:Y2;0,0:B2.B12+P1x2!;1,0:B3;-1,-1:R3;0,-1:Y3;1,-1:R2;2,1:R5+P0x1! "
    "tokens=D:3,1 hands=A.B.C/D.E.F/G.H.I draw=J supply=0/0/0 reserve=19/18/20"
)


def test_new_cards_can_go_to_the_discard_pile() -> None:
    # URB-ROUND-6: new_card_insertion="discard"
    state = pos(EX11, players=3, new_card_insertion="discard").play("take resource")
    assert card("B12") in state.discard and card("R5") in state.discard and state.draw == (card("J"),)


def test_tokens_may_keep_their_alphabetical_order() -> None:
    # URB-URBANIZE-3: token_move_keeps_alphabetical_order
    text = "hands=D/F tiles=R5/- supply=1/0 reserve=24/25 tokens=C:2,2;E:3,0"
    free = play(pos(text), (0, "select D R5"), (1, "select F"))
    assert set(free.legal_moves()) == {Token(3, 1), Token(2, 0)}
    ordered = play(pos(text, token_move_keeps_alphabetical_order=True), (0, "select D R5"), (1, "select F"))
    assert ordered.tokens[3] == (3, 1)  # (2,0) would put D after E clockwise: only (3,1) is left


def test_a_token_with_no_space_may_go_next_to_the_city() -> None:
    # URB-URBANIZE-3: token_no_space="any_cell_adjacent_to_city"
    text = "city=0,1:Y1;0,3:R10+P1x1 hands=B.C/E.F tiles=Y4/- supply=1/0 reserve=24/24"
    state = play(pos(text, token_no_space="any_cell_adjacent_to_city"), (0, "select B Y4"), (1, "select E"))
    assert state.pending == "token"
    choices = state.legal_moves()
    assert Token(1, 1) in choices and Token(0, 4) in choices and Token(-1, 2) not in choices  # A is there
    assert state.play("token 0,4").tokens[1] == (0, 4)


def test_utilizing_may_fire_exploit_bonuses() -> None:
    # URB-URBANIZE-4: utilize_triggers_exploit_bonus
    city = "-1,1:B1;0,1:Y1;1,1:R1;-1,0:Y2;0,0:B2;1,0:B3;-1,-1:R3;0,-1:Y3;1,-1:R2"  # the canonical city
    text = f"city={city};30,30:R4.Y20 hands=D/E tiles=R5/- tableau=R4/- supply=3/0 reserve=22/25"
    plain = play(pos(text), (0, "select D R5"), (1, "select E"))
    broad = play(pos(text, utilize_triggers_exploit_bonus=True), (0, "select D R5"), (1, "select E"))
    assert (plain.supply[0], broad.supply[0]) == (3, 4)  # R4's Exploit bonus once per utilized building


def test_colour_penalty_may_go_to_the_box() -> None:
    # URB-CONSTRUCT-1 step 4: colour_penalty_to="box"
    text = "city=0,1:Y1 hands=Y1/E supply=3/0 tiles=B5/- reserve=22/25"
    state = play(pos(text, colour_penalty_to="box"), (0, "select Y1 B5"), (1, "select E"))
    assert state.reserve[0] == 22 and state.boxed[0] == 1 and state.supply[0] == 0


def test_the_new_card_may_give_its_bonus_at_once() -> None:
    # URB-CONSTRUCT-1 step 7: new_card_bonus_same_action
    text = "city=0,0:R3 hands=R3/E supply=2/0 tiles=R9/- reserve=23/25"
    later = play(pos(text), (0, "select R3 R9"), (1, "select E"))
    now = play(pos(text, new_card_bonus_same_action=True), (0, "select R3 R9"), (1, "select E"))
    assert (later.supply[0], now.supply[0]) == (0, 1)


def test_the_game_may_end_immediately() -> None:
    # URB-END-5: end_timing="immediate"
    text = "first=1 city=0,0:B6;5,5:R20 hands=E/B6 exhaustion=1 left=0 second=Y7 given=0/2 supply=0/0 reserve=25/25"
    state = play(pos(text, end_timing="immediate"), (0, "select E"), (1, "select B6"))
    state = state.play("tile Y7")
    assert state.is_over and state.winners()


def test_a_trigger_may_be_undone_when_it_does_not_latch() -> None:
    # URB-END-4: end_trigger_latches=False
    text = (
        "city=-1,1:B1;0,1:Y1;1,1:R1;-1,0:Y2;0,0:B2;1,0:B3;-1,-1:R3;0,-1:Y3;1,-1:R2;"
        "5,0:R10.R11.R12.R13.R14+P2x5;6,0:B10.B11.B12.B13.B14+P2x5;7,0:Y10.Y11.Y12.Y13+P2x4 "
        "hands=R1/R2/B2/R3/Y13 tiles=-/-/B15/-/Y15 supply=0/0/2/0/5 reserve=16/16/0/16/11"
    )
    moves = [(seat, f"select {c}") for seat, c in enumerate(("R1", "R2", "B2 B15", "R3", "Y13 Y15"))]
    state = play(pos(text, players=5, end_trigger_latches=False), *moves)
    assert not state.ending and not state.is_over and state.phase in ("draw", "newhand")


def test_new_hand_tokens_per_round() -> None:
    # URB-ROUND-1: new_hand_per_round
    text = "phase=newhand hands=A.B.C.D/E.F.G.H"
    two = pos(text, new_hand_per_round=2).play("newhand")
    for _ in range(4):
        two = two.play(two.chance_outcomes()[0][0])
    assert two.to_act == (0,) and two.check("newhand").ok  # a second token this round
    none = pos(text.replace("phase=newhand", "phase=choose"), new_hand_per_round=0)
    assert not none.check("newhand", 0).ok


def test_corrected_data_files_are_read(tmp_path: Path) -> None:
    # URB-CARD-1, URB-CHAR-1: a user's corrected file replaces the bundled one
    data = json.loads(Path(bundled("cards.json")).read_text())
    data["cards"][14] = {"card": "R15", "end": "height", "min_height": 3, "max_height": 3, "points": 3}
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    game = cb.load("urbanization", players=2, cards_data_path=str(path))
    assert game.cards.end[card("R15")] == ("height", -1, 3, 3, 3)
    chars = json.loads(Path(bundled("characters.json")).read_text())
    chars["characters"][0]["copies"] = 12
    other = tmp_path / "characters.json"
    other.write_text(json.dumps(chars))
    assert cb.load("urbanization", players=2, characters_data_path=str(other)).characters.copies[0] == 12


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["cards"][3].update(points="two"), "$.cards[3].points"),
        (lambda d: d["cards"][10].update(colour="green"), "$.cards[10].colour"),
        (lambda d: d["cards"].pop(), "$.cards"),
        (lambda d: d["cards"][0].update(extra=1), "$.cards[0]"),
        (lambda d: d["cards"][0].update(card="R0"), "$.cards[0].card"),
    ],
)
def test_malformed_data_files_say_where(tmp_path: Path, change: object, where: str) -> None:
    data = json.loads(Path(bundled("cards.json")).read_text())
    change(data)  # type: ignore[operator]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    with pytest.raises(cb.RulesError, match="cards_data_path") as caught:
        cb.load("urbanization", players=2, cards_data_path=str(path))
    assert where in str(caught.value)


@pytest.mark.parametrize("option", ["cards_data_path", "characters_data_path"])
def test_a_data_file_is_read_with_a_size_limit(option: str) -> None:  # URB-CARD-1 URB-CHAR-1
    """``/dev/zero`` never ends: it is refused with a typed error instead of filling the memory."""
    with pytest.raises(cb.RulesError, match="larger than"):
        cb.load("urbanization", players=3, **{option: "/dev/zero"})


def _corrected_cards(tmp_path: Path) -> Path:
    data = json.loads(Path(bundled("cards.json")).read_text())
    data["cards"][14] = {"card": "R15", "end": "height", "min_height": 3, "max_height": 3, "points": 3}
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    return path


def test_a_record_carries_its_data_file_and_reads_no_other_file(tmp_path: Path) -> None:  # URB-CARD-1
    """A game played with a corrected file is recorded with the file's text, not its path: the
    record replays the same game after the file is gone, on any machine."""
    path = _corrected_cards(tmp_path)
    match = cb.Match(cb.load("urbanization", players=2, cards_data_path=str(path)), seed=3)
    for _ in range(40):
        match.play(match.random_move(match.state.to_act[0] if match.state.to_act else None),
                   match.state.to_act[0] if match.state.to_act else None)  # fmt: skip
    text = cb.to_json(match.record())
    state_text = cb.to_json(match.state)
    path.unlink()
    assert str(path) not in text and str(path) not in state_text
    replayed = cb.replay(cb.from_json(text))
    assert replayed.state == match.state
    assert replayed.state.game.cards.end[card("R15")] == ("height", -1, 3, 3, 3)
    assert cb.from_json(state_text) == match.state


@pytest.mark.parametrize("option", ["cards_data_path", "characters_data_path"])
@pytest.mark.parametrize("path", ["/etc/passwd", "/dev/zero", "/nonexistent"])
def test_a_document_that_names_a_file_is_refused_before_reading_it(option: str, path: str) -> None:
    record = json.loads(cb.to_json(cb.Match(cb.load("urbanization", players=2), seed=1).record()))
    record["options"] = {option: path}
    with pytest.raises(cb.NotationError, match=f"option {option} names a file") as caught:
        cb.from_json(json.dumps(record))
    assert caught.value.where is not None and option in caught.value.where


def test_the_data_text_option_is_checked_as_a_file_is() -> None:  # URB-CARD-1
    with pytest.raises(cb.RulesError, match="cards_data"):
        cb.load("urbanization", players=2, cards_data='{"cards": []}')
    with pytest.raises(cb.RulesError, match="cards_data"):
        cb.load("urbanization", players=2, cards_data=7)  # type: ignore[arg-type]
