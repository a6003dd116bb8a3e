"""The worked examples of rules/manhattan.md §11, one test per example or sub-case."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from manhattan_support import (
    CITIES,
    COLOURS,
    ROT,
    build,
    build_pos,
    card_totals,
    floors,
    game,
    height,
    owner,
    pieces_on_board,
    play_game,
    pos,
    seat_position,
    spec_winners,
    target_of,
    tower,
    violation_rules,
)

from citybuild.core.chance import sample
from citybuild.games.manhattan import Build, Draw, Forfeit, Redraw

SIDE_OF_SEAT_4P = "SWNE"  # A=S, B=W, C=N, D=E


def lot_read(seat: int, k: int) -> int:
    """The Sydney lot that the 4-player seat's colour builds on with card k (played, not computed)."""
    state = seat_position(4, seat, str(k) * 4)
    city, lot = target_of(state, f"build {k} Syd {COLOURS[seat]}1")
    assert city == "Syd"
    return lot


# --- Example 1: rotation (MAN-CARD-1) ------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "lots"),
    [(0, (0, 2, 8, 6)), (1, (1, 5, 7, 3)), (4, (4, 4, 4, 4)), (8, (8, 6, 0, 2))],
)
def test_example_1_rotation_card_to_lot(k: int, lots: tuple[int, int, int, int]) -> None:
    # MAN-CARD-1: k=0 -> S 0, W 2, N 8, E 6; k=1 -> S 1, W 5, N 7, E 3; k=4 -> 4; k=8 -> S 8, W 6, N 0, E 2.
    assert tuple(lot_read(seat, k) for seat in range(4)) == lots


def test_example_1_rotation_cards_needed_for_lot_0() -> None:
    # MAN-CARD-1 (NEED table): to build on lot 0, S needs k=0, W k=6, N k=8, E k=2.
    for seat, k in enumerate((0, 6, 8, 2)):
        assert lot_read(seat, k) == 0
    # ...and no other card reaches lot 0 for that seat.
    for seat, k in enumerate((0, 6, 8, 2)):
        for other in range(9):
            if other != k:
                assert ROT[SIDE_OF_SEAT_4P[seat]][other] != 0
                assert lot_read(seat, other) != 0


def test_example_1_west_player_with_zero_cards_targets_lot_2_only() -> None:
    # MAN-CARD-1: B (W) holding only k=0 cards on an empty board: targets exactly (city, 2) for 6 cities.
    state = seat_position(4, 1, "0000")
    moves = state.legal_moves()
    assert moves and all(isinstance(m, Build) and m.card == 0 and m.colour == 1 for m in moves)
    targets = {target_of(state, m) for m in moves}
    assert targets == {(city, 2) for city in CITIES}
    assert not any(lot == 0 for _, lot in targets)


# --- Example 2: empty lot, takeover threshold (MAN-BUILD-2/4/5) --------------------------------
def test_example_2_empty_lot_twelve_legal_moves() -> None:
    state = build_pos(hands="3333/0000/1111/2222", chosen="14/1/1/1")
    moves = state.legal_moves()
    assert len(moves) == 12
    assert len(set(moves)) == 12
    assert {(m.card, m.colour) for m in moves} == {(3, 0)}
    assert {m.size for m in moves} == {1, 4}
    assert {target_of(state, m) for m in moves} == {(city, 3) for city in CITIES}  # MAN-BUILD-2: lot ROT[S][3]


def test_example_2_takeover_threshold() -> None:
    state = build_pos(towers="Syd4:B3", hands="4444/0000/1111/2222", chosen="1234/1/1/1")
    for size, legal in ((1, False), (2, False), (3, True), (4, True)):
        verdict = state.check(f"build 4 Syd A{size}")
        assert verdict.ok is legal, (size, verdict)
        if not legal:
            assert verdict.rules == ("MAN-BUILD-4",)
    legal_sizes = {m.size for m in state.legal_moves() if m.city == 0}
    assert legal_sizes == {3, 4}
    after = build(state, "build 4 Syd A3")
    assert tower(after, "Syd", 4) == "B3A3"  # MAN-BUILD-5: the piece goes on top, A owns it
    assert owner(after, "Syd", 4) == "A"
    assert height(after, "Syd", 4) == 6
    assert floors(after, "Syd", 4) == {"A": 3, "B": 3}


# --- Example 3: own lower floors count (MAN-BUILD-4) -------------------------------------------
def test_example_3_own_lower_floors_count() -> None:
    # A=S needs k=0 for lot 0; B=W needs k=6; C and D build elsewhere.
    state = build_pos(hands="0000/6666/1111/2222", chosen="112/3/1/1")
    state = build(state, "build 0 HK A1")
    assert tower(state, "HK", 0) == "A1"
    assert state.check("build 6 HK B3").ok  # 3 >= 1
    state = build(state, "build 6 HK B3")
    assert owner(state, "HK", 0) == "B"
    state = build(state, "build 1 Syd C1")
    state = build(state, "build 2 Syd D1")
    assert state.to_act == (0,)
    assert violation_rules(state, "build 0 HK A1") == ["MAN-BUILD-4"]  # 1 + 1 = 2 < 3
    assert state.check("build 0 HK A2").ok  # 1 + 2 = 3 >= 3
    state = build(state, "build 0 HK A2")
    assert tower(state, "HK", 0) == "A1B3A2"
    assert owner(state, "HK", 0) == "A"
    assert height(state, "HK", 0) == 6


# --- Example 4: own tower, non-owner with floors, safe tower (MAN-BUILD-4/6) -------------------
def test_example_4_takeover_at_equal_floors_then_non_owner_adds() -> None:
    # Round 2 starts with B (MAN-ROUND-5). Lot 8: A(S) k=8, B(W) k=2, C(N) k=0, D(E) k=6.
    state = build_pos(hands="8888/2222/0000/6666", chosen="4/41/3/1", turn=1, round_no=2)
    state = build(state, "build 2 Cai B4")
    state = build(state, "build 0 Syd C3")
    state = build(state, "build 6 Man D1")
    assert state.to_act == (0,)
    assert state.check("build 8 Cai A4").ok  # 4 >= 4
    state = build(state, "build 8 Cai A4")
    assert tower(state, "Cai", 8) == "B4A4"
    assert owner(state, "Cai", 8) == "A"
    # (b) B adds 1 instead: 4 + 1 = 5 >= 4, B owns.
    assert state.to_act == (1,)
    assert state.check("build 2 Cai B1").ok
    state = build(state, "build 2 Cai B1")
    assert owner(state, "Cai", 8) == "B"
    assert floors(state, "Cai", 8) == {"B": 5, "A": 4}


def test_example_4a_owner_adds_to_own_tower() -> None:
    state = build_pos(towers="Cai8:B4A4", hands="8888/2222/0000/6666", chosen="1/1/1/1")
    assert state.check("build 8 Cai A1").ok
    assert tower(build(state, "build 8 Cai A1"), "Cai", 8) == "B4A4A1"


def test_example_4c_third_colour_needs_four() -> None:
    state = build_pos(towers="Cai8:B4A4", hands="8888/2222/0000/6666", chosen="1/1/34/1", turn=2)
    assert violation_rules(state, "build 0 Cai C3") == ["MAN-BUILD-4"]
    assert state.check("build 0 Cai C4").ok
    assert {m.size for m in state.legal_moves() if m.city == CITIES.index("Cai") and m.card == 0} == {4}


@pytest.mark.parametrize(("seat", "card"), [(1, 8), (2, 2), (3, 0)])  # cards naming lot 6 for W, N, E
def test_example_4_safe_tower_needs_five(seat: int, card: int) -> None:
    # Man L6 = [A4, A1]: A has 5; a colour with 0 floors there needs 5, so no size is legal.
    hands = ["1111", "3333", "5555", "7777"]
    hands[seat] = str(card) * 4
    chosen = ["1", "1", "1", "1"]
    chosen[seat] = "1234"
    state = build_pos(towers="Man6:A4A1", hands="/".join(hands), chosen="/".join(chosen), turn=seat)
    letter = COLOURS[seat]
    for size in (1, 2, 3, 4):
        assert violation_rules(state, f"build {card} Man {letter}{size}") == ["MAN-BUILD-4"]
    assert not [m for m in state.legal_moves() if m.city == CITIES.index("Man")]
    assert len(state.legal_moves()) == 5 * 4  # the other five cities, lot 6, every size


def test_example_4_safe_tower_owner_may_still_add() -> None:
    state = build_pos(hands="6666/1111/2222/3333", chosen="41/1/1/1", round_no=1)
    state = build(state, "build 6 Man A4")
    state = build(state, "build 1 Syd B1")
    state = build(state, "build 2 Syd C1")
    state = build(state, "build 3 Syd D1")
    assert state.check("build 6 Man A1").ok  # own tower
    state = build(state, "build 6 Man A1")
    assert tower(state, "Man", 6) == "A4A1"
    assert floors(state, "Man", 6) == {"A": 5}


# --- Example 5: one piece per turn (MAN-BUILD-3) ----------------------------------------------
def test_example_5_one_piece_per_turn() -> None:
    state = build_pos(towers="SP5:B2", hands="5555/0000/1111/2222", chosen="111112/1/1/1")
    assert violation_rules(state, "build 5 SP A1") == ["MAN-BUILD-4"]
    assert state.check("build 5 SP A2").ok
    on_sp5 = [m for m in state.legal_moves() if target_of(state, m) == ("SP", 5)]
    assert on_sp5 == [Build(5, CITIES.index("SP"), 0, 2)]  # no "1+1" move exists
    after = build(state, "build 5 SP A2")
    assert tower(after, "SP", 5) == "B2A2"  # exactly one piece placed
    assert after.chosen[0] == (5, 0, 0, 0)
    assert after.to_act == (1,)  # the turn is over


# --- Example 6: ties (MAN-SCORE-2/3) -----------------------------------------------------------
def items(state: Any, rule: str) -> list[tuple[int, int]]:
    return sorted((i.player, i.points) for i in state.round_score().items if i.rule == rule and i.points)


def test_example_6a_tallest_shared_by_two_owners_scores_nobody() -> None:
    state = build_pos(towers="Syd0:A3A3,Man0:B3B3")
    assert items(state, "MAN-SCORE-2") == []
    assert state.round_score().totals == (3, 3, 0, 0)  # tower 1 + majority 2 each


def test_example_6b_tallest_shared_by_one_owner() -> None:
    towers = "Syd0:A3A3,Man0:A4A2"
    assert items(build_pos(towers=towers), "MAN-SCORE-2") == []
    lenient = build_pos(towers=towers, tallest_tie="nobody_unless_same_owner")
    assert items(lenient, "MAN-SCORE-2") == [(0, 3)]


def test_example_6c_tied_majority_scores_nobody() -> None:
    state = build_pos(towers="Syd0:A1,Syd1:A1,Syd2:B1,Syd3:B1,Syd4:C1")
    assert items(state, "MAN-SCORE-3") == []


def test_example_6d_single_tower_city_majority() -> None:
    state = build_pos(towers="Cai0:D1")
    assert items(state, "MAN-SCORE-3") == [(3, 2)]


def test_example_6e_relative_majority() -> None:
    state = build_pos(towers="Syd0:A1,Syd1:A1,Syd2:A1,Syd3:B1,Syd4:C1")
    assert items(state, "MAN-SCORE-3") == [(0, 2)]


# --- Example 7: scoring uses the end-of-round state (MAN-SCORE-1..4) ---------------------------
def test_example_7_scoring_uses_end_of_round_state() -> None:
    state = build_pos(towers="Syd0:A1,Syd4:A4,Syd8:B1", hands="0000/4444/1111/2222", chosen="-/4/-/-", turn=1)
    mid_round = state.round_score().totals
    assert mid_round == (2 + 2 + 3, 1, 0, 0)  # what Sydney would score now: not what counts
    state = build(state, "build 4 Syd B4")
    assert tower(state, "Syd", 4) == "A4B4"
    assert height(state, "Syd", 4) == 8
    assert state.round == 2 and state.phase == "select"  # round 1 was scored
    assert state.points == (1, 2 + 2 + 3, 0, 0)  # A: L0 only. B: 2 towers, Sydney majority, tallest
    sheet = state.scores()
    assert sorted((i.rule, i.points) for i in sheet.of(player=1) if i.points) == [
        ("MAN-SCORE-2", 3),
        ("MAN-SCORE-3", 2),
        ("MAN-SCORE-4", 2),
    ]
    assert [(i.rule, i.points) for i in sheet.of(player=0) if i.points] == [("MAN-SCORE-4", 1)]


# --- Example 9: reshuffle, 4 players (MAN-CARD-3) ----------------------------------------------
def play_turns(seed: int, turns: int, **options: Any) -> dict[str, Any]:
    """Play a 4-player game from the deal for ``turns`` turns; record the piles around each turn."""
    rng = random.Random(seed)
    state = game(4, **options).initial_state()
    while state.is_chance:
        state = state.play(sample(state.chance_outcomes(), rng))
    out: dict[str, Any] = {"after deal": card_totals(state)}
    done = 0
    while done < turns:
        if state.phase == "select":
            state = state.play(rng.choice(state.legal_moves()))
            continue
        moves = state.legal_moves()
        assert all(isinstance(m, Build) for m in moves), "this seed needs a redraw; pick another seed"
        last_discards = state.discard
        state = state.play(rng.choice(moves))
        done += 1
        out[f"outcomes {done}"] = dict(state.chance_outcomes())
        out[f"discards before {done}"] = last_discards
        state = state.play(sample(state.chance_outcomes(), rng))
        out[f"after {done}"] = card_totals(state)
        assert sum(card_totals(state)) == 45
    return out


def test_example_9_reshuffle_lazy() -> None:
    log = play_turns(11, 31)
    assert log["after deal"] == (29, 0, 16)
    assert log["after 29"] == (0, 29, 16)
    # Turn 30: the draw finds the pile empty; all 30 discards, including the card just played, return.
    before = log["discards before 30"]
    outcomes = log["outcomes 30"]
    assert sum(before) == 29
    returned = {o.card: p * 30 for o, p in outcomes.items()}
    assert sum(returned.values()) == 30
    diff = {k: returned.get(k, 0) - before[k] for k in range(9)}
    assert sorted(diff.values()) == [0] * 8 + [1]  # the 29 old discards plus the card of turn 30
    assert log["after 30"] == (29, 0, 16)
    for turn in range(1, 32):
        assert sum(log[f"after {turn}"]) == 45


def test_example_9_reshuffle_eager() -> None:
    log = play_turns(11, 30, reshuffle="eager")
    assert log["after deal"] == (29, 0, 16)
    assert log["after 28"] == (1, 28, 16)
    assert log["after 29"] == (29, 0, 16)  # the draw that emptied the pile brought the discards back
    assert log["after 30"] == (28, 1, 16)


# --- Example 10: no legal move (MAN-BUILD-8, MAN-RAND-1) ---------------------------------------
BLOCKED = ",".join([f"{c}4:B2" for c in CITIES] + [f"{c}0:C2" for c in CITIES])


def blocked_position(**options: Any) -> Any:
    # Lot 4 is [B2] in all six cities; lot 0 is [C2] everywhere too, so that a drawn 0-card keeps A stuck.
    return build_pos(towers=BLOCKED, hands="4444/1111/2222/3333", chosen="1/1/1/1", **options)


def test_example_10_only_redraw_when_no_legal_build() -> None:
    state = blocked_position()
    assert state.legal_moves() == (Redraw(4),)
    assert violation_rules(state, "build 4 Syd A1") == ["MAN-BUILD-4"]
    assert violation_rules(state, "pass") == ["MAN-BUILD-8"]
    assert violation_rules(state, "forfeit A1") == ["MAN-BUILD-8"]
    drawing = state.play("redraw 4")
    assert drawing.is_chance
    # MAN-RAND-1: the draw pile (29 cards: 5 of 0, 1 each of 1-4, 5 each of 5-8) gives k with n_k / N.
    expected = {0: 5, 1: 1, 2: 1, 3: 1, 4: 1, 5: 5, 6: 5, 7: 5, 8: 5}
    assert dict(drawing.chance_outcomes()) == {Draw(k): Fraction(n, 29) for k, n in expected.items()}


def test_example_10_must_build_when_redraw_gives_a_build() -> None:
    state = blocked_position().play("redraw 4").play(Draw(1))
    assert state.to_act == (0,)  # still A's turn
    moves = state.legal_moves()
    assert moves and all(isinstance(m, Build) and m.card == 1 for m in moves)
    assert violation_rules(state, "redraw 4") == ["MAN-BUILD-8"]
    state = build(state, "build 1 Syd A1")
    assert tower(state, "Syd", 1) == "A1"
    assert state.to_act == (1,)


def test_example_10_forfeit_after_four_redraws() -> None:
    state = blocked_position()
    for i in range(4):
        assert not any(isinstance(m, Build) for m in state.legal_moves())
        card = 4 if i == 0 else 0
        state = state.play(f"redraw {card}").play(Draw(0))
    assert state.legal_moves() == (Forfeit(0, 1),)
    assert violation_rules(state, "redraw 4") == ["MAN-BUILD-8"]
    hand_before = state.hands[0]
    after = state.play("forfeit A1")
    assert not after.is_chance  # no further draw
    assert after.hands[0] == hand_before
    assert after.box[0] == (1, 0, 0, 0)  # the piece goes to the box
    assert after.chosen[0] == (0, 0, 0, 0)
    assert not any(p.colour == 0 for t in after.towers for p in t)
    assert after.to_act == (1,)  # the turn ended


# --- Example 11: final tie-break (MAN-END-3) --------------------------------------------------
def final(towers: str) -> Any:
    return pos(
        f"manhattan/4 round=4 phase=over turn=0 towers={towers} hands=0123/4567/8012/3456 "
        "chosen=_/_/_/_ points=52/52/40/38"
    )


@pytest.mark.parametrize(
    ("case", "towers", "winners", "step"),
    [
        ("a", "Syd0:B4B4,Man0:A1,Fra0:A1,HK0:A1", (1,), "unique_tallest_owner"),
        ("b", "Syd0:B4,Man0:A4,Fra0:A1,HK0:A1,SP0:B1", (0,), "most_majorities"),
        ("c", "Cai0:C4,Syd0:A1,Man0:A1,Fra0:B1,HK0:B1", (0, 1), "shared"),
    ],
)
def test_example_11_final_tiebreak(case: str, towers: str, winners: tuple[int, ...], step: str) -> None:
    state = final(towers)
    assert state.is_over
    assert state.winners() == winners
    sheet = state.scores()
    assert sheet.winners == winners
    assert sheet.tiebreak == step
    assert sheet.totals == (52, 52, 40, 38)
    assert spec_winners(state.points, state.towers, 4) == winners


# --- Example 8: turns, rounds, start player (MAN-ROUND-2/3/5/6) --------------------------------
def test_example_8_standard_4_players() -> None:
    log = play_game(game(4), seed=8)
    assert log.rounds == 4
    for r in range(1, 5):
        assert log.select_order[r][0] == (r - 1) % 4  # round r starts with seat (r - 1) mod 4
        assert log.first_builder[r] == (r - 1) % 4
        assert len(log.turns_in(r)) == 24
        assert [len(log.turns_in(r, p)) for p in range(4)] == [6, 6, 6, 6]
    assert log.final.supply == ((0, 0, 0, 0),) * 4  # every supply is empty


def test_example_8_standard_3_players() -> None:
    log = play_game(game(3), seed=8)
    assert log.rounds == 6
    assert [log.select_order[r][0] for r in range(1, 7)] == [0, 1, 2, 0, 1, 2]  # A, B, C, A, B, C
    assert [log.first_builder[r] for r in range(1, 7)] == [0, 1, 2, 0, 1, 2]
    assert all(len(log.turns_in(r)) == 12 for r in range(1, 7))
    assert [pieces_on_board(log.final, c) for c in range(3)] == [24, 24, 24]


def test_example_8_four_rounds_3_players() -> None:
    log = play_game(game(3, "four-rounds"), seed=8)
    assert log.rounds == 4
    assert all(len(log.turns_in(r)) == 12 for r in range(1, 5))
    assert [sum(s) for s in log.final.supply] == [8, 8, 8]  # 8 pieces never selected
    assert [pieces_on_board(log.final, c) for c in range(3)] == [16, 16, 16]


def test_example_8_standard_2_players() -> None:
    log = play_game(game(2), seed=8)
    assert log.rounds == 4
    for r in range(1, 5):
        turns = log.turns_in(r)
        assert len(turns) == 16
        assert [t.player for t in turns] == [(r - 1 + i) % 2 for i in range(16)]  # turns alternate
        assert Counter(t.move.colour for t in turns) == {0: 4, 1: 4, 2: 4, 3: 4}  # 4 per colour per round
    assert [sum(s) for s in log.final.supply] == [8, 8, 8, 8]


def test_example_8_all_pieces_2_players() -> None:
    log = play_game(game(2, "all-pieces"), seed=8)
    assert log.rounds == 6
    assert all(len(log.turns_in(r)) == 8 for r in range(1, 7))
    assert [pieces_on_board(log.final, c) for c in range(2)] == [24, 24]
