"""The 12 worked examples of rules/urbanization.md §15, one test per example or sub-case.

P, Q, R of the examples are seats 0, 1, 2 (P1..P5 of examples 11 and 12c are seats 0..4)."""

from __future__ import annotations

import random

import pytest
from urbanization_support import card, cards, game, owner_at, play, pos, stack_names, tile, tiles

from citybuild.games.urbanization.moves import Select, Take, Token
from citybuild.games.urbanization.rules import START_CELLS, TOKEN_CELLS
from citybuild.games.urbanization.scoring import district_items, districts


# --- 1. Setup ---------------------------------------------------------------------------------
def _setup(players: int, seed: int) -> list:
    """Random setup, returning the positions it passes through."""
    rng = random.Random(seed)
    state = game(players).initial_state()
    line = [state]
    while state.round == 0:
        state = state.random_step(rng)
        line.append(state)
    return line


@pytest.mark.parametrize("seed", [0, 1])
def test_example_1_setup_three_players(seed: int) -> None:
    # URB-SETUP-1..6, URB-SETUP-11
    line = _setup(3, seed)
    after_layout = line[1]
    assert after_layout.cells == START_CELLS  # URB-SETUP-1
    assert sorted(len(s) for s in after_layout.stacks) == [1] * 9
    assert all(s[-1].owner is None for s in after_layout.stacks)
    assert {s[0].tile % 20 + 1 for s in after_layout.stacks} == {1, 2, 3}
    assert after_layout.tokens == TOKEN_CELLS  # URB-SETUP-2
    assert after_layout.draws_left == 45  # URB-SETUP-3: 51 - 6
    items = next(s for s in line if s.phase == "items")
    assert items.draws_left == 45  # 45 drawable tiles before starting items
    dealt = line[-1]  # the first position of round 1
    assert len(dealt.discard) == 7  # URB-SETUP-4
    assert [len(h) for h in dealt.hands] == [4, 4, 4]  # URB-SETUP-10
    assert len(dealt.draw) == 2  # 21 - 7 - 12
    assert all(t == 20 for t in (r + s for r, s in zip(dealt.reserve, dealt.supply, strict=True)))  # URB-SETUP-6
    assert dealt.newhand == (2, 2, 2)
    in_play = {c for h in dealt.hands for c in h} | set(dealt.draw) | set(dealt.discard)
    reserve = [c for c in range(60) if c not in in_play]  # URB-SETUP-5: the building-card reserve
    assert [sum(1 for c in reserve if c // 20 == colour) for colour in range(3)] == [17, 17, 17]
    assert all(c % 20 + 1 >= 4 for c in reserve)


def test_example_1_setup_four_players() -> None:
    # URB-SETUP-11
    line = _setup(4, 3)
    assert line[1].draws_left == 51
    dealt = line[-1]
    assert dealt.discard == () and len(dealt.draw) == 5
    assert all(r + s == 18 for r, s in zip(dealt.reserve, dealt.supply, strict=True))


# --- 2. Exploit a red building ----------------------------------------------------------------
EX2 = "city=1,1:R1.Y5.R7+P1x3 hands=R7/E supply=2/0 reserve=10/22 boxed=13/0"


def test_example_2_exploit_red_building() -> None:
    # URB-EXPLOIT-2, URB-EXPLOIT-4, URB-GAIN-2
    state = pos(EX2)
    city = (state.cells, state.stacks)
    after = play(state, (0, "select R7"), (1, "select E"))
    assert (after.supply[0], after.reserve[0]) == (5, 7)
    assert (after.supply[1], after.reserve[1], after.sp[1]) == (0, 22, 0)  # the owner receives nothing
    assert (after.cells, after.stacks) == city
    assert card("R7") in after.discard


def test_example_2_variant_reserve_caps_the_gain() -> None:
    # URB-GAIN-2: the gain is capped by the reserve, the excess lost
    after = play(
        pos(EX2.replace("reserve=10/22 boxed=13/0", "reserve=2/22 boxed=21/0")), (0, "select R7"), (1, "select E")
    )
    assert (after.supply[0], after.reserve[0]) == (4, 0)


# --- 3. Exploit a letter, with bonuses ---------------------------------------------------------
def test_example_3_exploit_letter_with_bonuses() -> None:
    # URB-EXPLOIT-1, URB-EXPLOIT-3, URB-CHAR-1, URB-CARD-1
    state = pos("city=0,0:B9;30,30:R4.R2.Y20 hands=E/B9 tableau=R4.R2/- chars=BE/- supply=0/0 reserve=5/25 boxed=20/0")
    state = play(state, (0, "select E"), (1, "select B9"))
    assert state.pending == "take" and state.to_act == (0,)  # decided now, at resolution
    assert state.legal_moves() == (Take("resource"), Take("tile"))
    state = state.play("take resource")
    assert state.is_chance and state.owed == 1  # the blue character's tile
    assert state.supply[0] == 2 and state.reserve[0] == 3  # +1 (E) +1 (#4); red #2 (Urbanize) does not fire
    drawn = state.play(state.chance_outcomes()[0][0])
    assert len(drawn.tiles[0]) == 1
    assert drawn.tokens[4] == TOKEN_CELLS[4]  # token E stays
    assert card("E") in drawn.discard


# --- 4. Urbanize ------------------------------------------------------------------------------------
def test_example_4_urbanize() -> None:
    # URB-URBANIZE-1..6 on the canonical test city (URB-SETUP-1)
    state = pos("hands=D/E tiles=R5/- supply=3/0 reserve=22/25")
    assert Select(card("D"), tile("R5")) in state.legal_moves(0)
    state = play(state, (0, "select D R5"), (1, "select E"))
    assert stack_names(state, (2, 1)) == ["R5"] and owner_at(state, (2, 1)) == 0  # URB-URBANIZE-2
    assert state.sites == (state.cells.index((2, 1)),)  # a Construction Site: R5's card is pending
    assert state.supply[0] == 3  # 3 - 1 placed + 1 from utilizing R1 (height 1)
    assert state.pending == "token"
    assert set(state.legal_moves()) == {Token(3, 1), Token(2, 2)}  # URB-URBANIZE-3
    assert not state.check("token 2,0").ok  # token E is there
    assert not state.check("token 1,1").ok  # a building
    state = state.play("token 3,1")
    assert state.tokens[3] == (3, 1)
    assert card("D") in state.discard and card("R5") not in state.draw  # URB-URBANIZE-6


# --- 5. No empty neighbour ----------------------------------------------------------------------------
def test_example_5_token_leaves_the_game() -> None:
    # URB-URBANIZE-3, URB-URBANIZE-4, URB-EXPLOIT-1
    text = "city=0,1:Y1;0,3:R10+P1x1 hands=B.C/E.F tiles=Y4/- supply=1/0 reserve=24/24"
    state = play(pos(text), (0, "select B Y4"), (1, "select E"))
    assert stack_names(state, (0, 2)) == ["Y4"] and owner_at(state, (0, 2)) == 0
    assert state.tokens[1] is None  # all four neighbours occupied: B leaves the game
    assert state.sp[0] == 1 and state.supply[0] == 1  # Y1 +1 SP, R10 +1 resource
    with_tile = pos("city=0,1:Y1;0,3:R10+P1x1;0,2:Y4+P0x1 hands=B.C/E.F tiles=Y6/- supply=1/0 reserve=23/24 tokens=B:-")
    assert with_tile.check(Select(card("B")), 0).ok  # B alone stays legal
    verdict = with_tile.check(Select(card("B"), tile("Y6")), 0)
    assert verdict.codes == ("token-gone",) and verdict.rules == ("URB-URBANIZE-1",)


# --- 6. Construct on an opponent ---------------------------------------------------------------------
def test_example_6_construct_on_opponent() -> None:
    # URB-CONSTRUCT-1, URB-CONSTRUCT-2
    text = "city=0,0:B2.B7+P1x2;30,30:R3.Y20 hands=B7/E supply=5/0 sp=3/10 tiles=B12/- tableau=R3/- reserve=20/23"
    state = play(pos(text), (0, "select B7 B12"), (1, "select E"))
    assert (state.supply[1], state.sp[1]) == (2, 12)  # refund, 1 SP per resource
    assert stack_names(state, (0, 0)) == ["B2", "B7", "B12"] and owner_at(state, (0, 0)) == 0
    assert state.supply[0] == 3 and state.sp[0] == 3  # 5 - 3 + 1 (#3); no penalties
    assert card("B7") in state.tableau[0]
    assert 0 in state.sites and card("B12") not in state.draw  # B12 pending


# --- 7. Own building; unowned building ---------------------------------------------------------------
def test_example_7a_construct_on_own_building() -> None:
    # URB-CONSTRUCT-2, URB-CONSTRUCT-4: the refund counts toward the cost
    state = pos("city=-1,-1:R3.R8+P0x2 hands=R8/E supply=1/0 tiles=R15/- reserve=22/25")
    assert state.check("select R8 R15", 0).ok
    state = play(state, (0, "select R8 R15"), (1, "select E"))
    assert state.supply[0] == 0 and state.sp[0] == 0  # refund 2 -> 3, place 3 -> 0, no SP for own
    assert stack_names(state, (-1, -1)) == ["R3", "R8", "R15"] and card("R8") in state.tableau[0]


def test_example_7b_construct_on_unowned_building() -> None:
    # URB-CONSTRUCT-1 step 4, URB-CONSTRUCT-4
    state = pos("city=0,1:Y1 hands=Y1/E supply=3/0 tiles=B5/- reserve=22/25")
    state = play(state, (0, "select Y1 B5"), (1, "select E"))
    assert state.supply[0] == 0 and state.reserve[0] == 23  # colour penalty to the reserve, 2 placed
    assert state.sp[0] == 0  # no number penalty (5 > 1)
    assert card("Y1") in state.tableau[0] and state.game.cards.bonus[card("Y1")] == (0, 0, 0, 1)


# --- 8-10. Districts --------------------------------------------------------------------------------
def _points(text: str, players: int = 3) -> dict[int, int]:
    state = pos("phase=over " + text, players=players)
    out: dict[int, int] = {}
    for item in district_items(state.cells, state.stacks):
        out[item.player] = out.get(item.player, 0) + item.points
    return out


def test_example_8_district_three_players() -> None:
    # URB-SCORE-2, URB-SCORE-3, URB-SCORE-4
    text = "city=0,0:B2.B7.B12+P0x3;1,0:B3.B9+P1x2;2,0:B14+P2x1;0,1:Y1"
    state = pos("phase=over " + text, players=3)
    found = districts(state.cells, state.stacks)
    assert len(found) == 1 and found[0].total == 6 and found[0].order == (0, 1, 2)
    assert _points(text) == {0: 6, 1: 2, 2: 0}


def test_example_9a_tie_broken_by_tallest_building() -> None:
    # URB-SCORE-3, URB-SCORE-4
    text = "city=0,0:Y5.Y10+P0x2;1,0:Y4+P1x1;1,1:Y6+P1x1"
    assert _points(text, 2) == {0: 4, 1: 2}
    state = pos("phase=over " + text)
    assert districts(state.cells, state.stacks)[0].splits == ("tallest building",)


def test_example_9b_tie_broken_by_number() -> None:
    # URB-SCORE-3, URB-SCORE-4
    text = "city=0,0:Y5.Y10+P0x2;1,0:Y3.Y11+P1x2"
    assert _points(text, 2) == {1: 4, 0: 2}


def test_example_10_alone_and_non_districts() -> None:
    # URB-SCORE-2, URB-SCORE-4
    assert _points("city=0,0:R2.R8+P0x2;0,1:R11+P0x1", 2) == {0: 6}  # alone: 3 + 3
    assert _points("city=0,0:R5+P0x1;1,1:R6+P1x1", 2) == {}  # diagonal only
    assert _points("city=0,0:R1.B7+P0x2;1,0:R5+P1x1", 2) == {}  # tops blue and red
    assert _points("city=0,0:R1;1,0:R5+P1x1", 2) == {1: 2}  # the unowned building counts for shape


# --- 11. Round transition -----------------------------------------------------------------------------
EX11 = (
    "phase=resolve first=0 turn=2 actor=2 pending=take "
    "city=-1,1:B1;0,1:Y1;1,1:R1;-1,0:Y2;0,0:B2.B12+P1x2!;1,0:B3;-1,-1:R3;0,-1:Y3;1,-1:R2;2,1:R5+P0x1! "
    "tokens=D:3,1 hands=A.B.C/D.E.F/G.H.I draw=J supply=0/0/0 reserve=19/18/20"
)


def test_example_11_round_transition() -> None:
    # URB-ROUND-1, URB-ROUND-3, URB-ROUND-5, URB-ROUND-6, URB-ROUND-7, URB-ROUND-8, URB-RAND-3
    state = pos(EX11, players=3)
    assert state.discard  # the discards are not empty
    state = state.play("take resource")
    assert state.hands == (cards("G", "H", "I"), cards("A", "B", "C"), cards("D", "E", "F"))  # URB-ROUND-5
    assert state.first == 1
    assert state.passed[0] == cards("A", "B", "C")
    assert state.draw == cards("J", "B12", "R5") and state.sites == ()  # URB-ROUND-6
    assert state.phase == "draw" and state.turn == 1 and state.is_chance  # URB-ROUND-7
    discards = state.discard
    for seat in (1, 2, 0):
        assert state.turn == seat
        state = state.play(state.chance_outcomes()[0][0])
    assert state.draw == () and state.discard == discards  # no reshuffle
    assert [len(h) for h in state.hands] == [4, 4, 4]
    assert state.phase == "newhand" and state.round == 2 and state.to_act == (1,)
    state = state.play("keep", 1)
    assert state.to_act == (2,)
    hand = state.hands[2]
    state = state.play("newhand", 2)  # URB-ROUND-1
    assert set(hand) <= set(state.draw)  # URB-ROUND-8: the discard pile (with the hand) became the draw pile
    assert state.discard == () and state.newhand[2] == 1 and state.hands[2] == ()
    for _ in range(4):
        state = state.play(state.chance_outcomes()[0][0])
    assert len(state.hands[2]) == 4 and state.phase == "newhand" and state.to_act == (0,)


def test_example_11_variant_reshuffle_before_the_first_draw() -> None:
    # URB-ROUND-8
    text = (
        EX11.replace("draw=J", "draw=-")
        .replace(";0,0:B2.B12+P1x2!", ";0,0:B2.B12+P1x2")
        .replace(";2,1:R5+P0x1!", ";2,1:R5+P0x1")
    )
    state = pos(text, players=3)
    discards = state.discard
    state = state.play("take resource")
    assert state.phase == "draw" and state.discard == () and state.draw == discards


# --- 12. Exhaustion and end -----------------------------------------------------------------------------
def test_example_12a_first_exhaustion_and_contribution() -> None:
    # URB-GAIN-3, URB-END-1
    text = "city=0,0:R4.R5.B6;5,5:R20 hands=B6/E tiles=-/Y7.Y8 left=1 supply=0/0 reserve=25/25"
    state = play(pos(text), (0, "select B6"), (1, "select E"))
    assert state.is_chance and state.owed == 3
    drawn = state.chance_outcomes()[0][0]
    state = state.play(drawn)
    assert state.tiles[0] == (drawn.tile,) and state.exhaustion == 1  # 1 tile, 2 lost
    assert state.phase == "contribute" and state.to_act == (0,)
    state = state.play("done", 0)  # P gives 0
    assert state.to_act == (1,)
    state = play(state, (1, "give Y7"), (1, "give Y8"))  # Q gives 2, and has none left
    assert state.sp[1] == 2 and state.second == tiles("Y7", "Y8") and state.given == (0, 2)
    assert state.phase == "resolve" and state.turn == 1 and state.pending == "take"  # Q resolves now


def test_example_12b_second_exhaustion_ends_after_the_round() -> None:
    # URB-END-2, URB-END-5
    text = "first=1 city=0,0:B6;5,5:R20 hands=E/B6 exhaustion=1 left=0 second=Y7 given=0/2 supply=0/0 reserve=25/25"
    state = play(pos(text), (0, "select E"), (1, "select B6"))
    state = state.play("tile Y7")  # Q takes the last tile of the second stack
    assert state.exhaustion == 2 and state.ending and not state.is_over
    assert state.to_act == (0,) and state.pending == "take"  # P still resolves
    hands = state.hands
    state = state.play("take resource")
    assert state.is_over and state.hands == hands  # phase 3 skipped
    assert state.winners()


def test_example_12c_all_resources_in_the_city() -> None:
    # URB-END-3, URB-END-4
    text = (
        "city=-1,1:B1;0,1:Y1;1,1:R1;-1,0:Y2;0,0:B2;1,0:B3;-1,-1:R3;0,-1:Y3;1,-1:R2;"
        "5,0:R10.R11.R12.R13.R14+P2x5;6,0:B10.B11.B12.B13.B14+P2x5;7,0:Y10.Y11.Y12.Y13+P2x4 "
        "hands=R1/R2/B2/R3/Y13 tiles=-/-/B15/-/Y15 supply=0/0/2/0/5 reserve=16/16/0/16/11"
    )
    state = pos(text, players=5)
    state = play(state, *((seat, f"select {c}") for seat, c in enumerate(("R1", "R2", "B2 B15", "R3", "Y13 Y15"))))
    assert state.ending and state.is_over  # P3 (seat 2) placed their last resources; P4, P5 acted
    assert stack_names(state, (7, 0))[-1] == "Y15" and state.supply[2] == 4  # the refund does not cancel it
