"""Urbanization rules one by one (rules/urbanization.md), beyond the worked examples: components,
setup and its chance events, the round, actions and bonuses, the end, scoring."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import networkx as nx
import pytest
from urbanization_support import card, cards, game, kind, owner_at, play, pos, random_until, stack_names, tile, tiles

import citybuild as cb
from citybuild.core import tower
from citybuild.core.board import Board
from citybuild.core.errors import InvalidStateError
from citybuild.games.urbanization.construction import construction_cost, construction_costs
from citybuild.games.urbanization.moves import Deal, DrawTile, FirstPlayer, Layout, Pick, Select
from citybuild.games.urbanization.outcomes import deal_probability
from citybuild.games.urbanization.rules import START_TILES


# --- components ---------------------------------------------------------------------------------
def test_tiles_cards_and_resources_of_a_fresh_game() -> None:
    # URB-COMP-1, URB-COMP-2, URB-COMP-4
    state = game(4).initial_state()
    assert len(state.stack) + len(START_TILES) == 60
    assert len(state.draw) == 21 and sum(1 for c in state.draw if c >= 60) == 12
    assert state.reserve == (18,) * 4 and state.newhand == (2,) * 4
    assert sum(state.pool) == 27


def test_city_is_a_core_board_of_core_towers() -> None:
    # URB-COMP-3: buildings are core towers of floors owned by the top; the city a networkx graph
    state = pos("phase=over city=0,0:B2.B7+P1x2;1,0:B3;5,5:R4")
    board = state.board
    assert isinstance(board, Board) and isinstance(board.graph, nx.Graph)
    assert nx.number_connected_components(board.graph) == 2
    building = state.building_at((0, 0))
    assert building is not None
    assert tower.height(building) == 2 and tower.owner(building) == 1
    assert tower.owner(state.building_at((1, 0)) or ()) is None
    assert tower.floors_by_owner(building) == {None: 1, 1: 1}


def test_position_holds_everything_and_text_round_trips() -> None:
    # URB-COMP-5, URB-COMP-6: a position reached in play reads back from its text exactly
    rng = random.Random(5)
    state = random_until(game(3).initial_state(), "resolve", rng)
    again = state.game.parse_state(state.notation())
    assert again == state and again.notation() == state.notation()


def test_invariants_refuse_impossible_positions() -> None:
    # URB-COMP-7: named invariant and rule
    with pytest.raises(InvalidStateError, match="URB-COMP-7"):
        pos("city=0,0:B2.B7+P1x3 hands=E/F")  # 2 tiles tall, 3 resources
    with pytest.raises(InvalidStateError, match="URB-COMP-7"):
        pos("phase=over city=0,0:B2 hands=B3/-")  # B3 is no building's top
    with pytest.raises(InvalidStateError, match="URB-COMP-4"):
        pos("hands=E/F supply=3/0 reserve=25/25")
    with pytest.raises(InvalidStateError, match="URB-COMP-1"):
        pos("hands=E/F tiles=R4/R4")


def test_urbanization_cards_never_enter_a_tableau() -> None:
    # URB-CARD-3
    with pytest.raises(InvalidStateError, match="URB-CARD-3"):
        pos("hands=E/F tableau=A/-")


# --- setup and its chance events ---------------------------------------------------------------
def test_layout_is_uniform_over_every_arrangement() -> None:
    # URB-RAND-1, URB-SETUP-1: listing stays exact; sampling never lists
    state = game(2).initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == math.factorial(9) and {p for _, p in outcomes} == {Fraction(1, 362880)}
    drawn = state.random_move(random.Random(1))
    assert isinstance(drawn, Layout) and sorted(drawn.tiles) == list(START_TILES)
    assert state.check(drawn).ok and not state.check(Layout((*START_TILES[:8], 30))).ok


def test_initial_discard_and_tile_cut_for_small_games() -> None:
    # URB-SETUP-3, URB-SETUP-4, URB-RAND-2: 2-3 players stop after 45 draws of the 51 tiles
    state = game(2).initial_state().play(Layout(START_TILES))
    assert state.phase == "discard" and state.owed == 7 and state.draws_left == 45
    assert game(5).initial_state().draws_left == 51
    custom = game(3, small_game_removed_tiles=0, small_game_initial_discard=3).initial_state().play(Layout(START_TILES))
    assert custom.draws_left == 51 and custom.owed == 3


def test_character_deal_probability_and_draft() -> None:
    # URB-RAND-4, URB-SETUP-7
    rng = random.Random(2)
    state = random_until(game(3).initial_state(), "characters", rng)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    four_different = sum(p for o, p in outcomes if len(set(o.kinds)) == 4)
    assert four_different == Fraction(189, 325)
    assert deal_probability((3,) * 9, (0, 0, 1, 2)) == Fraction(3 * 3 * 3, math.comb(27, 4))
    for seat in range(3):
        state = state.play(Deal((seat, seat + 3, seat + 3, 8)))
    assert state.phase == "draft" and state.to_act == (0, 1, 2)  # all pick at once
    state = state.play(Pick(0), 0)
    assert state.to_act == (1, 2)
    assert state.view(1).chars[0] is None and state.view(1).draft == (1, 4, 4, 8)  # picks are hidden
    assert not state.check(Pick(0), 1).ok
    state = play(state, (1, "pick BU"), (2, "pick RC"))
    assert state.draft[1] == (3, 3, 8)  # P0's rest passed left to P1
    for _ in range(2):
        for seat in range(3):
            state = state.play(Pick(state.draft[seat][0]), seat)
    assert state.phase == "items" and all(len(c) == 3 for c in state.chars)
    assert sum(state.pool) == 27 - 9  # the last cards went to the box


def test_random_character_mode_deals_three() -> None:
    # URB-SETUP-7: "random" deals 3 each, no draft
    state = random_until(game(2, character_mode="random").initial_state(), "characters", random.Random(0))
    assert all(len(o.kinds) == 3 for o, _ in state.chance_outcomes()[:5])
    state = state.play(Deal((0, 1, 2))).play(Deal((3, 4, 5)))
    assert state.phase == "items" and state.chars == ((0, 1, 2), (3, 4, 5))


def test_starting_items_follow_the_character_table() -> None:
    # URB-SETUP-8, URB-CHAR-2: yellow Exploit 2 resources 2 SP 1 tile; blue Construct 1 resource;
    # red Construct 1 tile
    state = random_until(game(2, character_mode="random").initial_state(), "characters", random.Random(0))
    state = state.play(Deal(tuple(sorted((kind("YE"), kind("BC"), kind("RC")))))).play(Deal((kind("BE"),) * 3))
    assert state.phase == "items" and state.turn == 0 and state.owed == 2
    assert state.supply[0] == 3 and state.sp[0] == 2
    state = state.play(DrawTile(state.stack[0]))
    state = state.play(DrawTile(state.stack[0]))
    assert state.phase == "first" and state.supply[1] == 6 and state.sp[1] == 3
    assert len(state.tiles[0]) == 2 and state.draws_left == 43


def test_first_player_is_uniform_and_deals_from_them() -> None:
    # URB-SETUP-9, URB-SETUP-10, URB-RAND-5
    state = random_until(game(4).initial_state(), "first", random.Random(0))
    assert state.chance_outcomes() == tuple((FirstPlayer(s), Fraction(1, 4)) for s in range(4))
    state = state.play(FirstPlayer(2))
    assert state.first == 2 and state.phase == "deal" and state.turn == 2


# --- the round ------------------------------------------------------------------------------------
def test_secret_choice_is_simultaneous_and_hidden() -> None:
    # URB-ROUND-2, URB-ROUND-3
    state = pos("hands=E.F/G.H tiles=R5/B9 supply=2/2 reserve=23/23")
    assert state.to_act == (0, 1)
    assert len(state.legal_moves(0)) == 4  # E, F alone; E + R5, F + R5
    one = state.play("select E R5", 0)
    assert one.to_act == (1,) and one.tiles[0] == ()  # the selected tile leaves the supply
    seen = one.view(1)
    assert seen.chosen == (True, False) and seen.selection is None and seen.hands[0] is None
    assert one.view(0).selection == Select(card("E"), tile("R5"))
    both_orders = [play(state, (0, "select E R5"), (1, "select G")), play(state, (1, "select G"), (0, "select E R5"))]
    assert both_orders[0] == both_orders[1]  # the order of commits changes nothing


def test_resolution_in_turn_order_reads_the_city_then() -> None:
    # URB-ROUND-4: P1 (first) urbanizes at D; P0 then urbanizes at E and utilizes P1's new building
    state = pos("first=1 hands=E/D tiles=Y7/R5 supply=1/1 reserve=24/24")
    state = play(state, (0, "select E Y7"), (1, "select D R5"))
    assert state.pending == "token" and state.turn == 1
    state = state.play("token 3,1")
    assert state.turn == 0 and stack_names(state, (2, 0)) == ["Y7"]
    # P0 utilized (2,1)=R5 (height 1, +1 resource) and (1,0)=B3 (+1 tile owed)
    assert state.supply[0] == 1 and state.owed == 1


def test_urbanize_bonuses_fire_once() -> None:
    # URB-URBANIZE-5: red #2 and a red Urbanize character each +1 resource
    state = pos(
        "city=0,0:Y9;30,30:R2.Y20 hands=A/E tableau=R2/- chars=RU/- tiles=B5/- supply=1/0 reserve=24/25 tokens=A:0,1"
    )
    state = play(state, (0, "select A B5"), (1, "select E"))
    assert stack_names(state, (0, 1)) == ["B5"] and state.sp[0] == 1  # utilized Y9
    assert state.supply[0] == 2  # 1 - 1 + 2 bonuses


def test_illegal_selection_falls_back_to_exploit() -> None:
    # URB-CONSTRUCT-3: a hand-written selection that cannot resolve: the tile returns, the card exploits
    state = pos("first=1 city=0,0:B2.B7 hands=E/- sel=-/B7+B12 supply=0/0 reserve=25/25", players=2)
    state = state.play("select E", 0)
    assert state.tiles[1] == (tile("B12"),) and card("B7") in state.discard
    assert state.turn == 1 and state.owed == 2 and state.is_chance  # blue, height 2: 2 tiles


def test_gains_and_costs() -> None:
    # URB-GAIN-1, URB-GAIN-4: SP unlimited; a cost is paid in full or the selection is refused
    state = pos("city=0,0:Y20.Y19.Y18.Y17.Y16.Y15.Y14.Y13.Y12.Y11.Y10.Y9.Y8.Y7.Y6.Y5.Y4 hands=Y4/E sp=10000/0")
    after = play(state, (0, "select Y4"), (1, "select E"))
    assert after.sp[0] == 10017
    short = pos("city=0,0:R9 hands=R9/E tiles=R4/- supply=5/0 sp=4/0 reserve=20/25")
    verdict = short.check("select R9 R4", 0)
    assert verdict.codes == ("cannot-pay-sp",) and verdict.rules == ("URB-CONSTRUCT-2",)


def test_construction_cost_is_one_rule_for_generation_refusal_and_payment() -> None:
    # URB-CONSTRUCT-2: height + 1 resources, 1 more for another colour, the number difference in SP
    assert construction_cost(2, tile("R9"), tile("R9")) == (3, 0)
    assert construction_cost(2, tile("R9"), tile("B12")) == (4, 0)
    assert construction_costs(0, tile("R9"), (tile("R4"), tile("Y9"))) == [(1, 5), (2, 0)]
    # the moves listed, the refusal and the payment all follow it: P0 can pay for R12, not B3
    state = pos("city=0,0:R2.R9+P0x2 hands=R9/E tiles=B3.R12/- supply=1/0 sp=0/0 reserve=22/25")
    assert Select(card("R9"), tile("R12")) in state.legal_moves(0)
    assert Select(card("R9"), tile("B3")) not in state.legal_moves(0)
    assert state.check("select R9 B3", 0).codes == ("cannot-afford", "cannot-pay-sp")
    after = play(state, (0, "select R9 R12"), (1, "select E"))
    assert after.supply[0] == 0 and after.sp[0] == 0 and after.building_at((0, 0))[-1].owner == 0


def test_max_rounds_ends_the_game() -> None:
    # URB-RAND-6
    state = pos("round=1 hands=E/F", max_rounds=1)
    state = play(state, (0, "select E"), (1, "select F"), "take resource", "take resource")
    assert state.is_over and state.winners()


# --- scoring ----------------------------------------------------------------------------------------
def test_final_score_adds_sp_cards_tokens_and_districts() -> None:
    # URB-SCORE-1, URB-CARD-1, URB-CARD-2
    text = (
        "phase=over city=0,0:R2+P0x1;1,0:R3.R12+P0x2;5,5:Y4.Y8.Y13+P0x3;30,30:R10.R14.R15.R16.R19.R20.Y20 "
        "sp=7/0 newhand=1/2 "
        "tableau=R3.R10.R14.R15.R16.R19.R20/- chars=RE.BE.YC/- reserve=19/25"
    )
    sheet = pos(text).scores()
    by = sheet.by_category(0)
    assert by["SP"] == 7 and by["new hand"] == 2
    # R10: 2 red tops; R14: 2 of height 1-2; R15: 1 of height 3+; R16: Exploit bonuses R3? no (construct),
    # characters RE, BE -> 2 x 2; R19: red cards R3 R10 R14 R15 R16 R19 R20 + RE -> 8 x 2; R20: 9
    assert [i.points for i in sheet.of(0, "cards")] == [2, 2, 3, 4, 16, 9]
    assert by["district"] == 3 + 3  # red district of 3 resources, alone
    assert sheet.total(0) == 7 + 36 + 2 + 6 and sheet.total(1) == 4
    assert not sheet.winners or sheet.winners == (0,)


def test_card_options() -> None:
    # URB-CARD-2: count_characters_in_card_bonus, card10_13_unit
    text = "phase=over city=0,0:R2+P0x1;1,0:R3+P1x1;30,30:R10.R16.Y20 tableau=R10.R16/- chars=RE/- reserve=24/24"
    assert [i.points for i in pos(text).scores().of(0, "cards")] == [1, 2]
    no_chars = pos(text, count_characters_in_card_bonus=False).scores().of(0, "cards")
    assert [i.points for i in no_chars] == [1, 0]
    any_building = pos(text, card10_13_unit="any_building").scores().of(0, "cards")
    assert [i.points for i in any_building] == [2, 2]


def test_tie_is_shared() -> None:
    # URB-SCORE-5
    state = pos("phase=over hands=-/- sp=5/5")
    assert state.winners() == (0, 1) and state.scores().tiebreak == "shared"


def test_scores_every_district_separately() -> None:
    # URB-SCORE-2: two districts of one colour score apart
    state = pos("phase=over city=0,0:Y4+P0x1;0,1:Y5+P0x1;5,5:Y6+P1x1;5,6:Y7+P1x1")
    items = state.scores().of(category="district")
    assert sorted((i.player, i.points) for i in items) == [(0, 4), (1, 4)]


def test_every_rules_option_is_validated() -> None:
    bad = {
        "small_game_removed_tiles": 99,
        "small_game_initial_discard": -1,
        "character_mode": "auction",
        "new_hand_per_round": "1",
        "new_card_insertion": "top",
        "token_move_keeps_alphabetical_order": 1,
        "token_no_space": "anywhere",
        "utilize_triggers_exploit_bonus": None,
        "colour_penalty_to": "bank",
        "new_card_bonus_same_action": "yes",
        "illegal_action_fallback": "skip",
        "end_timing": "never",
        "end_trigger_latches": 0,
        "count_characters_in_card_bonus": "no",
        "max_rounds": 0,
        "card10_13_unit": "floor",
        "cards_data_path": 7,
        "characters_data_path": "/nonexistent/characters.json",
    }
    for option, value in bad.items():
        with pytest.raises(cb.RulesError, match=option):
            cb.load("urbanization", players=3, **{option: value})
    with pytest.raises(cb.RulesError, match="2 to 5 players"):
        cb.load("urbanization", players=6)


def test_conservation_along_a_random_game() -> None:
    # URB-COMP-1, URB-COMP-2, URB-COMP-4 along one game (the property tests cover many)
    rng = random.Random(11)
    state = game(3).initial_state()
    while not state.is_over:
        state = state.random_step(rng)
        if state.round:
            located = Counter([f.tile for s in state.stacks for f in s])
            located.update(t for ts in state.tiles for t in ts)
            located.update(state.stack)
            located.update(state.second)
            located.update(s.tile for s in state.selections if s and s.tile is not None)
            assert sorted(located) == list(range(60)) and max(located.values()) == 1
            in_city = [state.resources_in_city(p) for p in range(3)]
            assert all(state.reserve[p] + state.supply[p] + state.boxed[p] + in_city[p] == 20 for p in range(3))
    assert cards("A") and tiles("R1") and owner_at  # the helpers stay importable


def test_characters_are_not_held_before_they_are_dealt() -> None:
    # URB-SETUP-7: found by the JSON fuzzer (a tampered position that read, then could not be played)
    import attrs as _attrs

    state = cb.load("urbanization", players=3).initial_state()
    state = state.play(state.random_move(random.Random(0)))  # the layout: now the initial discard
    assert state.phase == "discard"
    state.validate()
    dealt = ((1, 5, 5), (0, 1, 8), (0, 2, 7))
    pool = list(state.pool)
    for kinds in dealt:
        for kind_ in kinds:
            pool[kind_] -= 1
    tampered = _attrs.evolve(state, chars=dealt, pool=tuple(pool))
    with pytest.raises(cb.InvalidStateError, match="dealt after the initial discard"):
        tampered.validate()


def test_hands_during_the_deal_are_what_the_deal_in_turn_order_gives() -> None:
    # URB-SETUP-10, URB-ROUND-7: found by the JSON fuzzer (a tampered deal gave a later player no
    # card, and the choice of round 1 then had a player with nothing to choose)
    import attrs as _attrs

    state = random_until(game(4).initial_state(), "first", random.Random(0)).play(FirstPlayer(2))
    state = state.play(state.chance_outcomes()[0][0])  # P2 has its first card, 3 owed
    state.validate()
    assert state.turn == 2 and len(state.hands[2]) == 1 and state.owed == 3
    moved = _attrs.evolve(state, hands=((state.hands[2][0],), (), (), ()))  # P0, after P2, holds it
    with pytest.raises(cb.InvalidStateError, match=r"P2 holds 0 cards where the deal in turn order gives 1") as refused:
        moved.validate()
    assert "URB-SETUP-10" in str(refused.value)
    full = state.hands[2] + tuple(state.draw[:4])
    too_many = _attrs.evolve(state, hands=((), (), full, ()), draw=state.draw[4:], owed=1)
    with pytest.raises(cb.InvalidStateError, match="no hand holds more than 4 cards"):
        too_many.validate()
