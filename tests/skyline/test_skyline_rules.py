"""Rule by rule: every SKY-* rule of rules/skyline.md that §9 does not already pin down, and every option of §7."""

from __future__ import annotations

from fractions import Fraction

import pytest
from skyline_support import DICE, dice_in_play, game, pos

import citybuild as cb
from citybuild.games.skyline import Abandon, Build, Demolish, EndTurn, Reroll, Roll, TakeDistrict, TakeYard


# SKY-COMP-1
def test_two_to_four_players() -> None:
    assert cb.presets("skyline") == ("standard", "all-nine-rounds")
    for n in (2, 3, 4):
        assert game(n).players == n
    assert cb.load("skyline").players == 2


# SKY-COMP-2, SKY-COMP-3, SKY-COMP-6
def test_sixty_dice_in_zones_and_building_ids() -> None:
    s = game(3).initial_state()
    assert dice_in_play(s) == DICE
    s = pos("phase=resolve active=GFO,GFB sky=1:O[GF],2:B3/- next=5/1").play(Build(("GF", "O"), None))
    assert [b.id for b in s.skylines[0].buildings] == [1, 2, 5] and s.skylines[0].next_id == 6


# SKY-COMP-4
def test_face_table_option() -> None:
    table = game().rules.face_table()
    assert table["PH"] == {"B": pytest.approx(1 / 3), "O": pytest.approx(1 / 6), "X": pytest.approx(1 / 2)}
    odd = pos("phase=roll roll=1.0.0", faces={"GF": "OOOOOO", "UF": "PPPBBO", "PH": "XXXBBO"})
    assert [(str(o), p) for o, p in odd.chance_outcomes()] == [("roll GFO", 1)]


# SKY-COMP-5
def test_finite_tile_supply_shortage_and_return() -> None:
    counts = {1: 8, 2: 0, 3: 6, 4: 18, 5: 4, 6: 4}
    s = pos("phase=resolve active=UFP,UFB sky=1:P[GF]/-", finite_tile_supply=True, tile_counts=counts)
    done = s.play(Build(("UF", "P"), 1))
    assert done.short == (0, 1, 0, 0, 0, 0) and done.scores().total(0) == 4  # completes and scores anyway
    assert "short=0.1.0.0.0.0" in done.notation()
    back = done.play(Demolish(("UF", "B"), 1))
    assert back.short == (0,) * 6 and back.tile_supply()[1] == 0  # type: ignore[index]
    plenty = pos("phase=resolve active=UFP,UFB sky=1:P[GF]/-", finite_tile_supply=True)
    assert plenty.play(Build(("UF", "P"), 1)).tile_supply()[1] == 19  # type: ignore[index]
    assert pos("phase=resolve active=UFP sky=1:P[GF]/-").tile_supply() is None  # unlimited by default


# SKY-SETUP-2, SKY-TURN-1, SKY-END-1
def test_seat_order_same_start_player_and_nine_rounds() -> None:
    s = pos("round=1 turn=1 phase=continue active=GFP sky=-/-")
    s = s.play(EndTurn())
    assert (s.round, s.to_act) == (2, (0,))  # seat 0 starts every round
    last = pos("round=9 turn=1 phase=continue active=GFP sky=-/-").play(EndTurn())
    assert last.is_over and last.to_act == () and last.legal_moves() == ()
    assert pos("round=3 turn=1 phase=continue active=GFP sky=-/-", rounds=3).play(EndTurn()).is_over


# SKY-TURN-2
def test_yard_short_of_dice_and_district_refill_short() -> None:
    s = pos("yard=2.0.0 district=23.28.7 sky=-/-")
    assert s.legal_moves() == (TakeYard(("GF", "GF")), TakeDistrict())  # all of a yard of fewer than 3
    empty = pos("yard=0.0.0 district=25.28.7 sky=-/-")
    assert [str(m) for m in empty.legal_moves()] == ["take district"]
    assert empty.check(TakeYard(("GF", "UF", "PH"))).codes == ("yard-empty",)
    refilled = pos("yard=0.2.0 district=25.26.7 sky=-/-").play(TakeDistrict())
    assert refilled.district == (0, 1, 0) and refilled.yard == (0, 1, 0)  # no substitute for missing types
    assert refilled.rolling == (25, 26, 7)
    assert pos("district=0.0.0 sky=-/-").check(TakeDistrict()).codes == ("district-empty",)
    assert pos("district=0.0.0 sky=-/-").yard == (25, 28, 7)  # a hand-written yard defaults to the rest


# SKY-TURN-3, SKY-RAND-1
def test_taken_dice_are_rolled_as_one_chance_event() -> None:
    s = game().initial_state().play(TakeYard(("GF", "UF", "PH")))
    assert s.is_chance and s.to_act == () and s.legal_moves() == tuple(o for o, _ in s.chance_outcomes())
    after = s.play(Roll([("GF", "P"), ("UF", "B"), ("PH", "X")]))
    assert after.phase == "resolve" and len(after.active) == 3
    assert s.check(Roll([("GF", "P")])).codes == ("not-an-outcome",)


# SKY-TURN-4, SKY-TURN-5
def test_reroll_keeps_other_faces_and_all_remaining_option() -> None:
    s = pos("phase=continue active=GFP,UFB,PHX sky=1:O[GF]/-")
    r = s.play(Reroll([("UF", "B")]))
    assert r.active == (("GF", "P"), ("PH", "X")) and r.rolling == (0, 1, 0)
    assert s.check(Reroll([("UF", "O")])).codes == ("die-not-active",)
    strict = pos("phase=continue active=GFP,UFB,PHX sky=1:O[GF]/-", reroll_all_remaining=True)
    assert strict.check(Reroll([("UF", "B")])).codes == ("reroll-all",)
    assert [m for m in strict.legal_moves() if isinstance(m, Reroll)] == [Reroll(strict.active)]


# SKY-TURN-6, SKY-TURN-7
def test_end_turn_to_yard_and_automatic_end() -> None:
    s = pos("phase=continue active=GFP,PHX district=1.1.1 sky=-/-")
    ended = s.play(EndTurn())
    assert ended.to_act == (1,) and ended.yard == (s.yard[0] + 1, s.yard[1], s.yard[2] + 1)
    last = pos("phase=resolve active=PHX sky=-/-").play(Abandon(("PH", "X")))
    assert last.phase == "take" and last.to_act == (1,)


# SKY-TURN-8
def test_interchangeable_dice_give_one_move() -> None:
    s = pos("phase=continue active=GFP,GFP,GFP sky=-/-")
    moves = s.legal_moves()
    assert len(moves) == len(set(moves))
    assert [str(m) for m in moves] == [
        "build GFP new",
        "abandon GFP",
        "reroll GFP,GFP,GFP",
        "reroll GFP,GFP",
        "reroll GFP",
        "end",
    ]


# SKY-TURN-9
def test_a_legal_move_always_exists_and_ph_dice_are_free_at_turn_start() -> None:
    import random

    from skyline_support import play_random

    rng = random.Random(9)
    for _ in range(3):
        s = game(4).initial_state()
        while not s.is_over:
            if s.phase == "take":
                assert s.legal_moves()
                assert s.yard[2] + s.district[2] == 7
            s = play_random(s, rng, steps=1)


# SKY-BUILD-1, SKY-BUILD-6
def test_ground_floors_always_start_new_buildings_without_limit() -> None:
    s = pos("phase=resolve active=GFB,GFB,GFB sky=1:B[GF]/-")
    for _ in range(3):
        assert s.check(Build(("GF", "B"), None)).ok
        assert s.check(Build(("GF", "B"), 1)).codes == ("ground-floor-on-building",)
        s = s.play(Build(("GF", "B"), None))
    assert [b.id for b in s.skylines[0].buildings] == [1, 2, 3, 4]


# SKY-BUILD-2, SKY-BUILD-3
def test_player_chooses_among_qualifying_buildings_and_blue_min_height() -> None:
    s = pos("phase=resolve active=UFO sky=1:O[GF],2:O[GF.UF],3:B[GF]/-")
    assert {m.target for m in s.legal_moves() if isinstance(m, Build)} == {1, 2}
    b3 = pos("phase=resolve active=PHB sky=1:B[GF],2:B[GF.UF]/-", blue_min_height=3)
    assert b3.check(Build(("PH", "B"), 1)).codes == ("bad-height",)
    assert b3.play(Build(("PH", "B"), 2)).skylines[0].get(2).height == 3  # type: ignore[union-attr]
    orange6 = pos("phase=resolve active=PHO,UFO sky=1:O[GF.UF.UF.UF.UF]/-")
    assert orange6.check(Build(("UF", "O"), 1)).codes == ("bad-height",)
    assert orange6.play(Build(("PH", "O"), 1)).skylines[0].points == 36


# SKY-BUILD-4
def test_no_building_on_another_players_skyline_or_unknown_ids() -> None:
    s = pos("phase=resolve active=UFB sky=-/1:B[GF]")
    assert s.check(Build(("UF", "B"), 1)).codes == ("no-such-building",)
    assert s.check(Build(("UF", "B"), 1), player=1).codes == ("not-to-act",)


# SKY-BUILD-5, SKY-END-2
def test_completion_returns_all_dice_and_six_floors_set_the_trigger() -> None:
    s = pos("turn=0 phase=resolve active=PHO,GFO sky=1:O[GF.UF.UF.UF.UF]/-")
    done = s.play(Build(("PH", "O"), 1))
    assert done.trigger and done.yard == (s.yard[0] + 1, s.yard[1] + 4, s.yard[2] + 1)
    assert done.active == (("GF", "O"),)  # the completed building's dice are not active
    after = done.play(EndTurn())
    assert after.to_act == (1,)  # every player after the trigger still plays
    over = after.play(TakeYard(("GF", "GF", "GF"))).play(Roll([("GF", "P")] * 3)).play(Abandon(("GF", "P")))
    assert over.play(EndTurn()).is_over


# SKY-END-2
def test_trigger_latches_or_not() -> None:
    text = "phase=resolve active=UFP,GFP trigger=1 sky=1:O6/-"
    assert pos(text).play(Demolish(("UF", "P"), 1)).trigger
    assert not pos(text, end_trigger_latches=False).play(Demolish(("UF", "P"), 1)).trigger


# SKY-END-3
def test_all_nine_rounds_has_no_trigger() -> None:
    s = pos("phase=resolve active=PHO,GFO sky=1:O[GF.UF.UF.UF.UF]/-", preset="all-nine-rounds")
    done = s.play(Build(("PH", "O"), 1))
    assert not done.trigger and "trigger=0" in done.notation()
    assert (
        not pos("round=9 turn=1 phase=continue active=GFP sky=1:O6/-", preset="all-nine-rounds").play(EndTurn()).trigger
    )


# SKY-END-4, SKY-SCORE-1, SKY-SCORE-2, SKY-SCORE-3
def test_final_scoring_item_by_item() -> None:
    s = pos("round=9 turn=1 phase=continue active=GFP sky=1:O5,2:P[GF],3:B[GF.UF],4:O[GF.UF.UF]/1:B3")
    assert s.scores().totals == (25, 9)  # before the end: completed buildings only
    over = s.play(EndTurn())
    sheet = over.scores()
    assert sheet.totals == (26, 9) and sheet.winners == (0,) and sheet.tiebreak is None
    rows = [(i.player, i.category, i.points, i.rule) for i in sheet.items]
    assert rows == [
        (0, "building", 25, "SKY-SCORE-3"),
        (0, "low-rise", 1, "SKY-SCORE-1"),
        (0, "unfinished", 0, "SKY-SCORE-2"),
        (0, "unfinished", 0, "SKY-SCORE-2"),
        (1, "building", 9, "SKY-SCORE-3"),
    ]
    assert "1:O5" in sheet.items[0].detail and "2:P[GF]" in sheet.items[1].detail


# SKY-SCORE-4
def test_final_scores_of_a_running_game_include_the_tie_break() -> None:
    s = pos("phase=take sky=1:P2,2:B2/1:O[GF]")
    assert s.winners() == () and s.final_scores().winners == (0,)


# SKY-DEMOLISH-1, SKY-DEMOLISH-2
def test_demolish_unfinished_with_any_die_and_any_target() -> None:
    s = pos("phase=resolve active=GFO sky=1:O[GF.UF.UF],2:B3/-")
    moves = {str(m) for m in s.legal_moves() if isinstance(m, Demolish)}
    assert moves == {"demolish GFO 1", "demolish GFO 2"}
    after = s.play(Demolish(("GF", "O"), 1))
    assert after.yard == (s.yard[0] + 2, s.yard[1] + 2, s.yard[2]) and after.skylines[0].next_id == 3
    assert s.check(Demolish(("GF", "O"), 7)).codes == ("no-such-building",)


# SKY-DEMOLISH-3, SKY-ABANDON-1
def test_fallback_only_option() -> None:
    s = pos("phase=resolve active=GFO,PHX sky=1:O[GF]/-", fallback_only=True)
    assert s.check(Abandon(("PH", "X"))).codes == ("fallback-only",)
    assert s.check(Demolish(("PH", "X"), 1)).rules == ("SKY-DEMOLISH-3",)
    only_blank = pos("phase=resolve active=PHX sky=1:O[GF]/-", fallback_only=True)
    assert {str(m) for m in only_blank.legal_moves()} == {"abandon PHX", "demolish PHX 1"}
    free = pos("phase=resolve active=GFO,PHX sky=1:O[GF]/-")
    assert free.check(Abandon(("GF", "O"))).ok  # SKY-ABANDON-1: even a buildable die


# SKY-RAND-2
def test_roll_of_three_blank_penthouse_example() -> None:
    s = pos("phase=roll roll=0.0.3 sky=-/-")
    probs = {str(o): p for o, p in s.chance_outcomes()}
    assert probs["roll PHO,PHX,PHX"] == Fraction(1, 8)  # 3 x (1/2)^2 x 1/6
    assert len(probs) == 10 and sum(probs.values()) == 1


# §7: every option is validated and named in the error
@pytest.mark.parametrize(
    ("option", "bad"),
    [
        ("rounds", 0),
        ("six_floor_ends_game", "yes"),
        ("end_trigger_latches", 1),
        ("faces", {"GF": "PPPBB"}),
        ("finite_tile_supply", None),
        ("tile_counts", {1: 8}),
        ("yard_take", 0),
        ("reroll_all_remaining", "no"),
        ("demolish_completed_allowed", 0),
        ("fallback_only", []),
        ("blue_min_height", 5),
        ("tiebreak_counts_converted_lowrise", "x"),
    ],
)
def test_bad_option_values_raise_rules_error_naming_the_field(option: str, bad: object) -> None:
    with pytest.raises(cb.RulesError, match=option):
        cb.load("skyline", **{option: bad})


def test_yard_take_option() -> None:
    s = pos("yard=22.27.6 district=1.1.1 sky=1:O[GF]/1:B[GF]", yard_take=2)
    assert all(len(m.types) == 2 for m in s.legal_moves() if isinstance(m, TakeYard))
