"""Manhattan rule by rule (rules/manhattan.md §1-§8), on positions written in the notation or
reached by play."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from manhattan_support import (
    CITIES,
    COLOURS,
    NEED,
    ROT,
    build,
    build_pos,
    card_totals,
    floors,
    game,
    height,
    owner,
    pos,
    seat_position,
    spec_round_points,
    target_of,
    tower,
    violation_rules,
)

import citybuild as cb
from citybuild.games.manhattan import Build, Draw, Forfeit, Redraw, Select


def deal(state: Any, cards: list[int]) -> Any:
    for k in cards:
        state = state.play(Draw(k))
    return state


def rules_of(verdict: Any) -> tuple[str, ...]:
    return tuple(verdict.rules)


# --- §1 Components ----------------------------------------------------------------------------
def test_comp_1_six_cities_of_nine_lots() -> None:
    # MAN-COMP-1: cities 0-5 named Syd, Man, Fra, HK, SP, Cai; 54 lots in all.
    state = build_pos(hands="0123/4567/8012/3456", chosen="1/1/1/1")
    moves = state.legal_moves()
    assert {m.city for m in moves} == set(range(6))
    assert len({target_of(state, m) for m in moves}) == 4 * 6  # 4 distinct cards x 6 cities
    for index, code in enumerate(CITIES):
        assert state.game.parse_move(f"build 0 {code} A1") == Build(0, index, 0, 1)
    # Every one of the 54 lots can hold a tower, and each one scores (MAN-SCORE-4).
    lots = [f"{c}{lot}" for c in CITIES for lot in range(9)]
    pieces = ["A1"] * 11 + ["B1"] * 11 + ["C1"] * 11 + ["D1"] * 11 + ["A2"] * 6 + ["B2"] * 4
    full = pos(
        "manhattan/4 round=1 phase=select turn=0 towers="
        + ",".join(f"{lot}:{p}" for lot, p in zip(lots, pieces, strict=True))
        + " hands=0123/4567/8012/3456 chosen=_/_/_/_"
    )
    towers = [i for i in full.round_score().items if i.rule == "MAN-SCORE-4"]
    assert sum(i.points for i in towers) == 54


def test_comp_2_pieces_per_colour() -> None:
    # MAN-COMP-2: 24 pieces per colour, 11 of 1, 6 of 2, 4 of 3, 3 of 4 (47 floors).
    for players in (2, 3, 4):
        state = game(players).initial_state()
        colours = players * (2 if players == 2 else 1)
        assert state.supply == ((11, 6, 4, 3),) * colours
        assert sum(s * n for s, n in zip((1, 2, 3, 4), state.supply[0], strict=True)) == 47
    with pytest.raises(cb.InvalidStateError, match="size 4") as info:
        build_pos(towers="Syd0:A4,Syd1:A4,Syd2:A4,Syd3:A4")  # a fourth 4-floor piece of A
    assert info.value.rule == "MAN-COMP-2"


def test_comp_3_deck_of_45_cards_five_per_lot() -> None:
    # MAN-COMP-3: 45 cards, 5 per lot index; the first draw is uniform over k.
    state = game(4).initial_state()
    assert dict(state.chance_outcomes()) == {Draw(k): Fraction(1, 9) for k in range(9)}
    assert card_totals(state) == (45, 0, 0)
    with pytest.raises(cb.InvalidStateError, match="45") as info:
        pos("manhattan/4 round=1 phase=select turn=0 hands=0123/4567/8012/3456 draw=333333333 chosen=_/_/_/_")
    assert info.value.rule == "MAN-COMP-3"


def test_comp_4_hand_size_is_four() -> None:
    # MAN-COMP-4: the deal gives 4 cards, and each build-and-draw brings the hand back to 4.
    state = deal(game(3).initial_state(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2])
    assert [sum(h) for h in state.hands] == [4, 4, 4]
    for player, text in enumerate(("select A1111", "select B1111", "select C1111")):
        state = state.play(text, player)
    state = state.play("build 0 Syd A1")
    assert sum(state.hands[0]) == 3
    state = state.play(Draw(8))
    assert [sum(h) for h in state.hands] == [4, 4, 4]


# --- §2 Setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "colours"), [(2, 4), (3, 3), (4, 4)])
def test_setup_1_players_colours_supplies_scores(players: int, colours: int) -> None:
    # MAN-SETUP-1: 2-4 players, colours_per_player[n] colours each with 24 pieces, scores 0.
    g = cb.load("manhattan", players=players)
    assert g.players == players
    state = g.initial_state()
    assert len(state.supply) == colours
    assert all(sum(s) == 24 for s in state.supply)
    assert state.points == (0,) * players
    assert state.scores().totals == (0,) * players
    for bad in (1, 5):
        with pytest.raises(cb.RulesError, match=str(bad)):
            cb.load("manhattan", players=bad)


@pytest.mark.parametrize(
    ("players", "sides"),
    [(2, "SN"), (3, "SWN"), (4, "SWNE")],
)
def test_setup_2_default_sides_by_seat(players: int, sides: str) -> None:
    # MAN-SETUP-2: each seat reads cards from its own side; 2p S, N; 3p S, W, N; 4p S, W, N, E.
    for seat, side in enumerate(sides):
        for k in (0, 1, 5):
            state = seat_position(players, seat, str(k) * 4)
            assert target_of(state, f"build {k} Syd {COLOURS[seat]}1") == ("Syd", ROT[side][k])


def test_setup_2_two_colours_share_their_players_side() -> None:
    # MAN-SETUP-2 shared_side: in 2p, player 0 (S) reads cards from S for both A and C; player 1 (N) for B and D.
    for seat, colour, side in ((0, "A", "S"), (0, "C", "S"), (1, "B", "N"), (1, "D", "N")):
        state = seat_position(2, seat, "1111")
        assert target_of(state, f"build 1 Syd {colour}1") == ("Syd", ROT[side][1])


def test_setup_2_sides_option_reseats_players() -> None:
    # MAN-SETUP-2: sides by seat are a rules field; 2 players at W and E read cards from there.
    sides = {2: "WE", 3: "SWN", 4: "SWNE"}
    for seat, side in enumerate("WE"):
        state = seat_position(2, seat, "0000", sides=sides)
        assert target_of(state, f"build 0 Syd {COLOURS[seat]}1") == ("Syd", ROT[side][0])


def test_setup_3_seat_0_starts_round_1() -> None:
    # MAN-SETUP-3
    state = deal(game(4).initial_state(), [k % 9 for k in range(16)])
    assert state.phase == "select" and state.round == 1
    assert state.to_act == (0,)
    assert violation_rules(state, "select B111111", 1) == ["MAN-ROUND-2"]


def test_setup_4_deal_order_piles_and_probabilities() -> None:
    # MAN-SETUP-4 / MAN-RAND-1: seat 0 draws 4, then seat 1 ...; each draw is n_k / N of the pile.
    state = game(4).initial_state()
    assert state.is_chance and state.to_act == ()
    pile = [5] * 9
    cards = [0, 0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 1, 2, 4, 5, 6]  # exactly two 0-cards among the 16
    for i, k in enumerate(cards):
        total = sum(pile)
        assert dict(state.chance_outcomes()) == {Draw(j): Fraction(n, total) for j, n in enumerate(pile) if n}
        state = state.play(Draw(k))
        pile[k] -= 1
        assert [sum(h) for h in state.hands] == [min(4, max(0, i + 1 - 4 * p)) for p in range(4)]
    assert state.hands[0] == (2, 1, 1, 0, 0, 0, 0, 0, 0)
    assert card_totals(state) == (45 - 16, 0, 16)
    for p, text in enumerate(("select A111111", "select B111111", "select C111111", "select D111111")):
        state = state.play(text, p)
    state = state.play("build 1 Syd A1")
    # MAN-RAND-1's example: the first draw after the deal gives k=0 with probability 3/29.
    assert dict(state.chance_outcomes())[Draw(0)] == Fraction(3, 29)


@pytest.mark.parametrize("players", [2, 3])
def test_setup_4_draw_pile_after_deal(players: int) -> None:
    # MAN-SETUP-4
    state = deal(game(players).initial_state(), [k % 9 for k in range(4 * players)])
    assert card_totals(state) == (45 - 4 * players, 0, 4 * players)
    assert not state.is_chance


# --- §3 Rounds --------------------------------------------------------------------------------
def selecting(players: int = 4, **options: Any) -> Any:
    return deal(game(players, **options).initial_state(), [k % 9 for k in range(4 * players)])


def test_round_1_selection_in_seat_order_exact_count() -> None:
    state = selecting()
    assert len({len(m.picks[0][1]) for m in state.legal_moves()}) == 1
    assert all(len(m.picks[0][1]) == 6 for m in state.legal_moves())
    # multisets of 6 from 4 sizes (84), minus those with more than 3 fours (10) or more than 4 threes (4)
    assert len(state.legal_moves()) == 70
    assert violation_rules(state, "select A11111") == ["MAN-ROUND-1"]
    assert violation_rules(state, "select A2222") == ["MAN-ROUND-1"]  # wrong count
    assert "MAN-ROUND-1" in violation_rules(state, "select A444411")  # four 4s: only 3 in supply
    state = state.play("select A111234")
    assert state.chosen[0] == (3, 1, 1, 1)
    assert state.supply[0] == (8, 5, 3, 2)
    assert state.to_act == (1,)
    assert violation_rules(state, "build 0 Syd A1", 0) == ["MAN-ROUND-2"]
    # The selection is open: the next player sees it.
    assert state.view(1).chosen[0] == (3, 1, 1, 1)


def test_round_1_selection_takes_all_remaining_when_fewer_left() -> None:
    # A has only 3 pieces left in supply (the rest are in the box): the selection is those 3.
    state = pos(
        "manhattan/4 round=4 phase=select turn=3 hands=0123/4567/8012/3456 chosen=_/_/_/_ "
        "box=10.6.4.1/0.0.0.0/0.0.0.0/0.0.0.0"
    )
    assert state.supply[0] == (1, 0, 0, 2)
    state = state.play("select D111111")
    assert state.to_act == (0,)
    assert [str(m) for m in state.legal_moves()] == ["select A144"]
    assert violation_rules(state, "select A14") == ["MAN-ROUND-1"]


def test_round_1_only_selected_pieces_can_be_built() -> None:
    # MAN-ROUND-1
    state = build_pos(hands="0000/1111/2222/3333", chosen="11/1/1/1")
    assert {m.size for m in state.legal_moves()} == {1}
    assert violation_rules(state, "build 0 Syd A2") == ["MAN-BUILD-3"]


def test_round_2_turns_in_seat_order_and_skipping() -> None:
    # MAN-ROUND-2: turns go in seat order; a player with no unplaced selected piece is skipped.
    state = build_pos(hands="0000/1111/2222/3333", chosen="11/-/1/11")
    state = build(state, "build 0 Syd A1")
    assert state.to_act == (2,)  # B skipped
    state = build(state, "build 2 Syd C1")
    assert state.to_act == (3,)
    state = build(state, "build 3 Syd D1")
    assert state.to_act == (0,)
    state = build(state, "build 0 Man A1")
    assert state.to_act == (3,)  # B and C have nothing left
    state = build(state, "build 3 Man D1")
    assert state.phase == "select" and state.round == 2  # every selected piece placed: the round ends


def test_round_3_two_colours_either_colour_alternating_turns() -> None:
    # MAN-ROUND-3
    state = pos("manhattan/2 round=1 phase=build turn=0 hands=0000/1111 chosen=11/2/3/4 points=0/0")
    builds = {(m.colour, m.size) for m in state.legal_moves()}
    assert builds == {(0, 1), (2, 3)}  # A or C
    state = build(state, "build 0 Syd C3")
    assert state.to_act == (1,)
    assert {(m.colour, m.size) for m in state.legal_moves()} == {(1, 2), (3, 4)}
    state = build(state, "build 1 Syd D4")
    assert state.to_act == (0,)
    state = build(state, "build 0 Man A1")
    assert state.to_act == (1,)
    state = build(state, "build 1 Man B2")
    assert state.to_act == (0,)  # P1 is done; P0 still has A1
    state = build(state, "build 0 Fra A1")
    assert state.round == 2


def test_round_4_pieces_stay_and_board_is_scored() -> None:
    # MAN-ROUND-4
    state = build_pos(towers="Syd0:A1,Man3:B2", hands="0000/1111/2222/3333", chosen="1/-/-/-", extra="")
    after = build(state, "build 0 Fra A1")
    assert after.round == 2
    assert (tower(after, "Syd", 0), tower(after, "Man", 3), tower(after, "Fra", 0)) == ("A1", "B2", "A1")
    assert after.points == tuple(spec_round_points(after.towers, 4))


def test_round_5_start_player_rotates_and_hands_are_kept() -> None:
    # MAN-ROUND-5
    state = build_pos(hands="0000/1111/2222/3333", chosen="1/-/-/-")
    state = build(state, "build 0 Syd A1", draw=8)
    assert state.round == 2 and state.phase == "select"
    assert not state.is_chance  # no redeal
    assert state.to_act == (1,)  # round 2 starts with seat 1
    assert [sum(h) for h in state.hands] == [4, 4, 4, 4]
    assert state.hands[0] == (3, 0, 0, 0, 0, 0, 0, 0, 1)  # 000 kept plus the card drawn
    assert state.hands[1] == (0, 4, 0, 0, 0, 0, 0, 0, 0)
    for player in (1, 2, 3, 0):
        state = state.play(state.legal_moves()[0], player)
    assert state.phase == "build" and state.to_act == (1,)  # and builds first


@pytest.mark.parametrize(("round_no", "start"), [(1, 0), (2, 1), (3, 2), (4, 0), (5, 1), (6, 2)])
def test_round_5_start_player_of_round_r(round_no: int, start: int) -> None:
    # MAN-ROUND-5
    # The round-r start player is seat (r - 1) mod n (3 players, standard: 6 rounds).
    state = pos(f"manhattan/3 round={round_no} phase=select hands=0123/4567/8012 chosen=_/_/_")
    assert state.to_act == (start,)


def test_round_6_last_round_ends_the_game() -> None:
    # MAN-ROUND-6 / MAN-END-1: standard 4p has 4 rounds; all-pieces ends when every supply is empty.
    last = build_pos(hands="0000/1111/2222/3333", chosen="1/-/-/-", round_no=4, extra="")
    assert build(last, "build 0 Syd A1").is_over
    third = build_pos(hands="0000/1111/2222/3333", chosen="1/-/-/-", round_no=3)
    assert build(third, "build 0 Syd A1").round == 4
    box_all_but_chosen = "box=10.6.4.3/11.6.4.3/11.6.4.3/11.6.4.3"
    almost = build_pos(
        hands="0000/1111/2222/3333", chosen="1/-/-/-", round_no=4, preset="all-pieces", extra=box_all_but_chosen
    )
    assert build(almost, "build 0 Syd A1").is_over  # every supply is empty
    not_yet = build_pos(hands="0000/1111/2222/3333", chosen="1/-/-/-", round_no=3, preset="all-pieces")
    after = build(not_yet, "build 0 Syd A1")
    assert not after.is_over and after.round == 4


# --- §4 Cards ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_card_1_full_rotation_table(seat: int) -> None:
    # MAN-CARD-1: ROT[side][k] for every card; NEED[side] is its inverse.
    side = "SWNE"[seat]
    for k in range(9):
        state = seat_position(4, seat, str(k) * 4)
        assert target_of(state, f"build {k} Man {COLOURS[seat]}1") == ("Man", ROT[side][k])
    for lot in range(9):
        assert ROT[side][NEED[side][lot]] == lot


def test_card_1_quarter_turn_geometry() -> None:
    # MAN-CARD-1
    # One quarter-turn maps (r, c) -> (c, 2 - r); side q turns the card q times.
    def turn(k: int, q: int) -> int:
        r, c = divmod(k, 3)
        for _ in range(q):
            r, c = c, 2 - r
        return 3 * r + c

    for q, side in enumerate("SWNE"):
        assert tuple(turn(k, q) for k in range(9)) == ROT[side]


def test_card_2_fixed_orientation_reads_every_card_from_south() -> None:
    # MAN-CARD-2
    for seat in range(4):
        state = seat_position(4, seat, "0000", card_orientation="fixed")
        assert target_of(state, f"build 0 Syd {COLOURS[seat]}1") == ("Syd", 0)
        state = seat_position(4, seat, "1111", card_orientation="fixed")
        assert target_of(state, f"build 1 Syd {COLOURS[seat]}1") == ("Syd", 1)


LAST_CARD = (
    "manhattan/4 round=1 phase=build turn=0 hands=0123/4567/8012/3456 draw=000000001 discard=333333343 chosen=1/1/1/1"
)


def test_card_3_lazy_reshuffle_includes_card_just_played() -> None:
    # MAN-CARD-3
    state = pos(LAST_CARD)
    assert card_totals(state) == (1, 28, 16)
    state = state.play("build 0 Syd A1")
    assert state.chance_outcomes() == ((Draw(8), Fraction(1)),)
    state = state.play(Draw(8))
    assert card_totals(state) == (0, 29, 16)  # lazy: the discards wait for the next draw
    state = state.play("build 4 Syd B1")
    # The draw finds the pile empty: the 29 discards and B's 4-card (30) return, then one is drawn.
    expected = {0: 4, 1: 3, 2: 3, 3: 3, 4: 4, 5: 3, 6: 3, 7: 4, 8: 3}
    assert dict(state.chance_outcomes()) == {Draw(k): Fraction(n, 30) for k, n in expected.items()}
    state = state.play(Draw(7))
    assert card_totals(state) == (29, 0, 16)
    assert state.hands[1][7] == 2  # hands never return: B still holds its 7 and drew another


def test_card_3_eager_reshuffle_when_a_draw_empties_the_pile() -> None:
    # MAN-CARD-3
    state = pos(LAST_CARD, reshuffle="eager")
    state = build(state, "build 0 Syd A1", draw=8)
    assert card_totals(state) == (29, 0, 16)  # the discards, A's 0-card included, are back at once
    assert dict(state.chance_outcomes()) == {}
    assert state.draw == (4, 3, 3, 3, 3, 3, 3, 4, 3)
    state = build(state, "build 4 Syd B1", draw=0)
    assert card_totals(state) == (28, 1, 16)


# --- §5 Build legality ------------------------------------------------------------------------
def test_build_1_owner_is_top_height_is_sum_floors_per_colour() -> None:
    # MAN-BUILD-1: [A1, B3]: owner B (top), height 4; B's floors 1+1+1 in [B1, B1, B1, A3] count as 3.
    state = build_pos(towers="Syd0:A1B3,Man0:A1A1A1,Fra0:B4,HK0:B1B1B1A3", hands="0000/6666/1111/2222")
    assert owner(state, "Syd", 0) == "B" and height(state, "Syd", 0) == 4
    assert floors(state, "HK", 0) == {"B": 3, "A": 3}
    assert height(state, "HK", 0) == 6 and owner(state, "HK", 0) == "A"
    assert scored(state, "MAN-SCORE-2") == [(0, 3)]  # HK0 is the tallest: A on top
    # Height is the sum of sizes, not the number of pieces: [B4] (1 piece) beats [A1, A1, A1].
    assert scored(build_pos(towers="Man0:A1A1A1,Fra0:B4"), "MAN-SCORE-2") == [(1, 3)]
    assert state.round_score().totals == tuple(spec_round_points(state.towers, 4))
    b = build_pos(towers="HK0:B1B1B1A3", hands="0000/6666/1111/2222", chosen="1/1/1/1", turn=1)
    assert b.check("build 6 HK B1").ok  # 3 + 1 >= 3 (B's three 1-floor pieces count)


def test_build_2_card_in_hand_and_own_colour() -> None:
    state = build_pos(hands="0000/1111/2222/3333", chosen="1/1/1/1")
    verdict = state.check("build 5 Syd A1")
    assert rules_of(verdict) == ("MAN-BUILD-2",)
    assert "5" in verdict.violations[0].message
    assert rules_of(state.check("build 0 Syd B1")) == ("MAN-BUILD-2",)
    assert state.check("build 0 Syd A1").ok


def test_build_3_only_selected_unplaced_pieces_one_at_a_time() -> None:
    state = build_pos(hands="0000/1111/2222/3333", chosen="12/1/1/1")
    verdict = state.check("build 0 Syd A3")
    assert rules_of(verdict) == ("MAN-BUILD-3",)
    assert "3" in verdict.violations[0].message
    state = build(state, "build 0 Syd A1")
    state = build(build(build(state, "build 1 Syd B1"), "build 2 Syd C1"), "build 3 Syd D1")
    assert violation_rules(state, "build 0 Man A1") == ["MAN-BUILD-3"]  # the 1 is already placed
    assert [m.size for m in state.legal_moves()] == [2] * len(state.legal_moves())


def test_build_4_threshold_owner_compare() -> None:
    # MAN-BUILD-4
    state = build_pos(towers="Fra2:C2C1", hands="2222/1111/0000/3333", chosen="1234/1/1/1")
    assert {m.size for m in state.legal_moves() if m.city == 2} == {3, 4}  # 0 + s >= 3


def test_build_5_no_height_limit() -> None:
    # MAN-BUILD-5
    tall = "Syd4:A4A4A4A3A3A3A3A2A2A2A2A2A2"
    state = build_pos(towers=tall, hands="4444/0000/1111/2222", chosen="1/1/1/1")
    assert height(state, "Syd", 4) == 36
    state = build(state, "build 4 Syd A1")
    assert height(state, "Syd", 4) == 37 and owner(state, "Syd", 4) == "A"


def test_build_5_placing_makes_the_builder_owner() -> None:
    # MAN-BUILD-5
    state = build_pos(towers="Syd0:B1", hands="0000/1111/2222/3333", chosen="1/1/1/1")
    assert owner(build(state, "build 0 Syd A1"), "Syd", 0) == "A"


def test_build_6_invariant_rejected_in_hand_written_position() -> None:
    with pytest.raises(cb.InvalidStateError, match="Syd0") as info:
        build_pos(towers="Syd0:A4B1")
    assert info.value.rule == "MAN-BUILD-6"
    assert "B" in str(info.value) and "A" in str(info.value)


def test_build_6_safe_tower_gap_above_four() -> None:
    # MAN-BUILD-6
    state = build_pos(towers="SP4:A4A2", hands="1111/4444/2222/3333", chosen="1/1234/1/1", turn=1)
    assert [m for m in state.legal_moves() if m.city == 4] == []  # B needs 6 > 4
    edge = build_pos(towers="SP4:A4", hands="1111/4444/2222/3333", chosen="1/1234/1/1", turn=1)
    assert {m.size for m in edge.legal_moves() if m.city == 4} == {4}


def test_build_7_two_colours_per_colour_legality() -> None:
    text = "manhattan/2 round=1 phase=build turn=0 towers=Syd0:A3 hands=0000/1111 chosen=1/1/13/1 points=0/0"
    state = pos(text)
    assert state.check("build 0 Syd A1").ok  # own tower
    assert set(violation_rules(state, "build 0 Syd C1")) <= {"MAN-BUILD-4", "MAN-BUILD-7"}
    assert not state.check("build 0 Syd C1").ok
    assert state.check("build 0 Syd C3").ok  # 0 + 3 >= 3
    merged = pos(text, two_colour_legality="merged")
    assert merged.check("build 0 Syd C1").ok  # a tower of either colour is the player's own


def test_build_7_merged_compares_combined_floors() -> None:
    # MAN-BUILD-7
    text = "manhattan/2 round=1 phase=build turn=0 towers=Syd0:A2B3 hands=0000/1111 chosen=1/1/1/1 points=0/0"
    assert not pos(text).check("build 0 Syd C1").ok  # per colour: C has 0 + 1 < 3
    assert pos(text).check("build 0 Syd A1").ok  # A: 2 + 1 >= 3
    assert pos(text, two_colour_legality="merged").check("build 0 Syd C1").ok  # A2 + C1 = 3 >= 3


def test_build_8_no_pass_no_redraw_while_a_build_exists() -> None:
    state = build_pos(hands="0000/1111/2222/3333", chosen="1/1/1/1")
    assert violation_rules(state, "pass") == ["MAN-BUILD-8"]
    assert violation_rules(state, "redraw 0") == ["MAN-BUILD-8"]
    assert violation_rules(state, "forfeit A1") == ["MAN-BUILD-8"]
    assert not [m for m in state.legal_moves() if not isinstance(m, Build)]


def test_build_8_redraw_one_move_per_distinct_card() -> None:
    towers = ",".join([f"{c}4:B2" for c in CITIES] + [f"{c}0:C2" for c in CITIES])
    state = build_pos(towers=towers, hands="4440/1111/2222/3333", chosen="1/1/1/1")
    assert set(state.legal_moves()) == {Redraw(0), Redraw(4)}
    assert violation_rules(state, "redraw 7") == ["MAN-BUILD-8"]
    after = state.play("redraw 0")
    assert after.is_chance and sum(after.hands[0]) == 3 and after.discard[0] == 1


# --- §6 Scoring -------------------------------------------------------------------------------
def scored(state: Any, rule: str) -> list[tuple[int, int]]:
    return sorted((i.player, i.points) for i in state.round_score().items if i.rule == rule and i.points)


def test_score_1_only_owner_counts_and_per_colour() -> None:
    # MAN-SCORE-1
    state = build_pos(towers="Syd0:A1B3")
    assert scored(state, "MAN-SCORE-4") == [(1, 1)]
    # Two colours: Sydney A 1, C 1, B 1 is a three-way tie per colour (no majority), though P0 owns 2 towers.
    two = pos(
        "manhattan/2 round=1 phase=build turn=0 towers=Syd0:A1,Syd1:C1,Syd2:B1 hands=0000/1111 "
        "chosen=1/1/1/1 points=0/0"
    )
    assert scored(two, "MAN-SCORE-3") == []
    assert two.round_score().totals == (2, 1)  # a player's score is the sum of both colours


def test_score_1_two_colour_player_sums_colours() -> None:
    # MAN-SCORE-1
    two = pos(
        "manhattan/2 round=1 phase=build turn=0 towers=Syd0:A1,Man0:C4,Man1:C1,Fra0:B1 hands=0000/1111 "
        "chosen=1/1/1/1 points=0/0"
    )
    # P0: A tower 1 + Syd majority 2 + C towers 2 + Man majority 2 + tallest 3 = 10; P1: 1 + 2.
    assert two.round_score().totals == (10, 3)
    assert two.round_score().totals == tuple(spec_round_points(two.towers, 2))


def test_score_2_unique_tallest_and_empty_board() -> None:
    assert build_pos().round_score().totals == (0, 0, 0, 0)
    state = build_pos(towers="Syd0:A1,Man0:B2,Fra0:C3")
    assert scored(state, "MAN-SCORE-2") == [(2, 3)]


def test_score_3_city_majorities() -> None:
    state = build_pos(towers="Syd0:A1,Syd1:A1,Syd2:B2,Man0:B1,Man1:C1")
    assert scored(state, "MAN-SCORE-3") == [(0, 2)]  # Man is a 1-1 tie; other cities empty


def test_score_4_one_point_per_tower_owned() -> None:
    state = build_pos(towers="Syd0:A1,Man3:A1,Cai8:B1A1,HK4:A1B2")
    assert scored(state, "MAN-SCORE-4") == [(0, 3), (1, 1)]


def test_score_5_points_are_cumulative() -> None:
    # MAN-SCORE-5
    text = (
        "manhattan/4 round=2 phase=build turn=1 towers=Syd0:A1,Syd4:A4,Syd8:B1 hands=0000/4444/1111/2222 "
        "chosen=-/4/-/- points=10/20/5/0"
    )
    state = build(pos(text), "build 4 Syd B4")
    assert state.points == (11, 27, 5, 0)
    assert state.scores().totals == (11, 27, 5, 0)


# --- §7 End -----------------------------------------------------------------------------------
def test_end_1_game_over_after_last_scoring() -> None:
    state = build_pos(towers="Syd0:B1", hands="0000/1111/2222/3333", chosen="1/-/-/-", round_no=4, extra="")
    state = state.play("build 0 Syd A1")
    assert not state.is_over
    state = state.play(Draw(5))
    assert state.is_over and state.to_act == () and state.legal_moves() == ()
    assert state.points == (1 + 3 + 2, 0, 0, 0)  # A owns the only tower now
    assert sum(state.hands[0]) == 4  # the last draw is still made (MAN-CARD-3)
    assert violation_rules(state, "build 0 Man A1") == ["MAN-END-1"]


def test_end_2_most_points_wins() -> None:
    # MAN-END-2
    state = pos(
        "manhattan/4 round=4 phase=over towers=Syd0:B4 hands=0123/4567/8012/3456 chosen=_/_/_/_ points=30/40/39/12"
    )
    assert state.winners() == (1,)
    assert state.scores().tiebreak is None


def test_end_3_tallest_owned_with_either_colour() -> None:
    # MAN-END-3
    # 2 players tied; P0 owns the unique tallest tower with C although P1 holds more majorities.
    state = pos(
        "manhattan/2 round=4 phase=over towers=Syd0:C4C4,Man0:B1,Fra0:D1 hands=0123/4567 chosen=_/_/_/_ points=30/30"
    )
    assert state.winners() == (0,)
    assert state.scores().tiebreak == "unique_tallest_owner"


def test_end_3_majorities_summed_over_colours() -> None:
    # MAN-END-3
    state = pos(
        "manhattan/2 round=4 phase=over towers=Syd0:A2,Man0:C2,Fra0:B1 hands=0123/4567 chosen=_/_/_/_ points=30/30"
    )
    assert state.winners() == (0,)  # tallest shared (2, 2); majorities P0 2 (A + C), P1 1
    assert state.scores().tiebreak == "most_majorities"


# --- §8 Randomness ----------------------------------------------------------------------------
def test_rand_1_draw_probabilities_from_pile_counts() -> None:
    # MAN-RAND-1
    state = build_pos(hands="0000/1111/2222/3333", chosen="1/1/1/1").play("build 0 Syd A1")
    # Pile: 1 of 0-3 and 5 of 4-8 (29 cards); the 0-card just played is in the discards, not the pile.
    expected = {0: 1, 1: 1, 2: 1, 3: 1, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}
    assert dict(state.chance_outcomes()) == {Draw(k): Fraction(n, 29) for k, n in expected.items()}
    assert sum(p for _, p in state.chance_outcomes()) == 1


def test_rand_2_only_draws_are_chance_events() -> None:
    # MAN-RAND-2
    # Selection, seating and scoring are deterministic; the reshuffle is no separate chance event.
    state = selecting()
    for p in range(4):
        assert not state.is_chance
        state = state.play(state.legal_moves()[0], p)
    assert not state.is_chance and state.phase == "build"
    one = build_pos(hands="0000/1111/2222/3333", chosen="1/-/-/-").play("build 0 Syd A1")
    assert one.is_chance
    after = one.play(Draw(1))
    assert not after.is_chance and after.phase == "select"  # round scored, no chance event
    assert isinstance(after.legal_moves()[0], Select)
    state = pos(LAST_CARD).play("build 0 Syd A1").play(Draw(8)).play("build 4 Syd B1")
    assert state.is_chance and state.play(Draw(0)).to_act == (2,)  # one draw, then C's turn


def test_round_1_two_colour_selection_names_both_colours() -> None:
    # MAN-ROUND-1 / MAN-ROUND-3: a two-colour player selects exactly 4 sizes for each colour in one move.
    state = selecting(2)
    assert state.to_act == (0,)
    assert violation_rules(state, "select A1111") == ["MAN-ROUND-1"]
    assert violation_rules(state, "select A1111 C111") == ["MAN-ROUND-1"]
    assert violation_rules(state, "select B1111 D1111") == ["MAN-ROUND-1"]
    state = state.play("select A1234 C1111")
    assert (state.chosen[0], state.chosen[2]) == ((1, 1, 1, 1), (4, 0, 0, 0))
    assert state.to_act == (1,)


def test_build_8_forfeit_any_unplaced_piece_of_either_colour() -> None:
    # MAN-BUILD-8: the forfeited piece is one of the player's unplaced selected pieces, of their choice.
    towers = ",".join(f"{c}4:B2" for c in CITIES)
    text = f"manhattan/2 round=1 phase=build turn=0 towers={towers} hands=4444/0123 chosen=11/1/1/1 points=0/0"
    state = pos(text, redraw_limit=0)
    assert set(state.legal_moves()) == {Forfeit(0, 1), Forfeit(2, 1)}
    after = state.play("forfeit C1")
    assert after.box[2] == (1, 0, 0, 0) and after.chosen[2] == (0, 0, 0, 0) and after.chosen[0] == (2, 0, 0, 0)
    assert after.to_act == (1,)


def test_score_2_same_owner_option_is_per_colour() -> None:
    # MAN-SCORE-1 scores per colour, so "same owner" in nobody_unless_same_owner means the same colour:
    # two equal tallest towers of one player's two colours score nobody.
    text = "manhattan/2 round=1 phase=build turn=0 towers=Syd0:A3A3,Man0:C3C3 hands=0000/1111 chosen=1/1/1/1 points=0/0"
    state = pos(text, tallest_tie="nobody_unless_same_owner")
    assert scored(state, "MAN-SCORE-2") == []


def test_views_hide_other_hands() -> None:
    # MAN-COMP-3 / MAN-CARD-3: hands are private; a view shows only the sizes of other hands and of the pile.
    one = build_pos(hands="0000/1111/2222/3333", chosen="1/1/1/1")
    other = build_pos(hands="5555/1111/2222/3333", chosen="1/1/1/1")
    for viewer in (1, 2, 3):
        assert one.view(viewer) == other.view(viewer)
    assert one.view(0) != other.view(0)
    assert one.view(0).hands[0] == one.hands[0]
