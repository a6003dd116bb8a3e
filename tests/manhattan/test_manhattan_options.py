"""The presets of rules/manhattan.md §0 and every option of §9: each changes behaviour as described."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from manhattan_support import (
    CITIES,
    ROT,
    build_pos,
    city_lot,
    game,
    play_game,
    pos,
    seat_position,
    target_of,
    violation_rules,
)

import citybuild as cb
from citybuild.core.tower import Piece
from citybuild.games.manhattan import Draw, Forfeit, Pass, Redraw

DEFAULTS: dict[str, Any] = {  # §9
    "colours_per_player": {2: 2, 3: 1, 4: 1},
    "pieces_per_round": {2: 4, 3: 4, 4: 6},
    "rounds": {2: 4, 3: 6, 4: 4},
    "takeover_compare": "owner",
    "two_colour_split": "per_colour",
    "sides": {2: "SN", 3: "SWN", 4: "SWNE"},
    "two_colour_seating": "shared_side",
    "two_colour_legality": "per_colour",
    "card_orientation": "by_seat",
    "selection": "sequential_open",
    "reshuffle": "lazy",
    "tallest_tie": "nobody",
    "points": {"tallest": 3, "majority": 2, "tower": 1},
    "no_legal_move": "redraw_then_forfeit",
    "redraw_limit": 4,
    "final_tiebreak": ("unique_tallest_owner", "most_majorities", "shared"),
}
PRESET_FIELDS: dict[str, dict[str, Any]] = {  # §0
    "standard": {},
    "four-rounds": {"rounds": {2: 4, 3: 4, 4: 4}},
    "all-pieces": {
        "colours_per_player": {2: 1, 3: 1, 4: 1},
        "rounds": "until_supply_empty",
        "takeover_compare": "max_other",
    },
}


# --- §0 presets -------------------------------------------------------------------------------
def test_exactly_three_presets() -> None:
    assert cb.presets("manhattan") == ("standard", "four-rounds", "all-pieces")


@pytest.mark.parametrize("preset", ["standard", "four-rounds", "all-pieces"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_preset_fields_and_defaults(preset: str, players: int) -> None:
    g = cb.load("manhattan", players=players, preset=preset)
    assert g.preset == preset and g.players == players
    assert g.rules.options() == {**DEFAULTS, **PRESET_FIELDS[preset]}


def test_overrides_make_variants() -> None:
    g = cb.load("manhattan", players=3, preset="four-rounds", tallest_tie="nobody_unless_same_owner")
    assert g.rules.options() == {**DEFAULTS, "rounds": {2: 4, 3: 4, 4: 4}, "tallest_tie": "nobody_unless_same_owner"}


# --- colours_per_player, pieces_per_round, rounds ---------------------------------------------
def test_colours_per_player_one_colour_for_two_players() -> None:
    log = play_game(game(2, colours_per_player={2: 1, 3: 1, 4: 1}), seed=3)
    assert len(log.final.supply) == 2
    assert all(len(log.turns_in(r)) == 8 for r in range(1, 5))  # 4 pieces x 2 players
    assert [sum(s) for s in log.final.supply] == [8, 8]


def test_pieces_per_round_and_rounds_options() -> None:
    g = game(4, pieces_per_round={2: 4, 3: 4, 4: 3}, rounds={2: 4, 3: 6, 4: 2})
    log = play_game(g, seed=3)
    assert log.rounds == 2
    assert all(len(log.turns_in(r)) == 12 for r in (1, 2))
    assert [sum(s) for s in log.final.supply] == [18] * 4


def test_until_supply_empty_with_uneven_division() -> None:
    # 24 pieces, 5 per round: the last (fifth) round selects the 4 pieces left (MAN-ROUND-1/6).
    g = game(3, "all-pieces", pieces_per_round={2: 4, 3: 5, 4: 6})
    log = play_game(g, seed=3)
    assert log.rounds == 5
    assert [len(log.turns_in(r)) for r in range(1, 6)] == [15, 15, 15, 15, 12]
    assert [sum(s) for s in log.final.supply] == [0, 0, 0]


# --- takeover_compare (MAN-BUILD-4/6) ---------------------------------------------------------
def test_takeover_compare_agrees_on_positions_satisfying_the_invariant() -> None:
    towers = "Syd4:B2C3A3"  # A 3 >= C 3 >= B 2
    for compare in ("owner", "max_other"):
        state = build_pos(
            towers=towers, hands="0000/1111/2222/4444", chosen="1/1/1/1234", turn=3, takeover_compare=compare
        )
        assert {m.size for m in state.legal_moves() if m.city == 0} == {3, 4}


def test_takeover_compare_differs_only_on_invariant_breaking_towers() -> None:
    # Such a tower cannot be written in the notation (MAN-BUILD-6), so it is put in directly:
    # [C4, B1] is owned by B with 1 floor while C has 4.
    with pytest.raises(cb.InvalidStateError):
        build_pos(towers="Syd4:C4B1")
    results = {}
    for compare in ("owner", "max_other"):
        state = build_pos(hands="4444/0000/1111/2222", chosen="1234/1/1/1", takeover_compare=compare)
        towers = list(state.towers)
        towers[city_lot("Syd", 4)] = (Piece(2, 4), Piece(1, 1))
        state = attrs.evolve(state, towers=tuple(towers))
        results[compare] = {s for s in (1, 2, 3, 4) if state.check(f"build 4 Syd A{s}").ok}
    assert results == {"owner": {1, 2, 3, 4}, "max_other": {4}}


# --- two_colour_seating (MAN-SETUP-2) ----------------------------------------------------------
def test_two_colour_seating_own_side() -> None:
    shared = {
        c: target_of(seat_position(2, seat, "0000"), f"build 0 Syd {c}1")[1]
        for seat, c in ((0, "A"), (0, "C"), (1, "B"), (1, "D"))
    }
    assert shared == {"A": 0, "C": 0, "B": 8, "D": 8}
    own = {
        c: target_of(seat_position(2, seat, "0000", two_colour_seating="own_side"), f"build 0 Syd {c}1")[1]
        for seat, c in ((0, "A"), (0, "C"), (1, "B"), (1, "D"))
    }
    assert own["A"] == 0 and own["B"] == 8  # the players' first colours keep the players' sides
    assert {own["C"], own["D"]} == {ROT["W"][0], ROT["E"][0]}  # the second colours sit at the free sides
    for k in range(9):  # and read every card from there
        lots = {
            c: target_of(seat_position(2, seat, str(k) * 4, two_colour_seating="own_side"), f"build {k} Syd {c}1")[1]
            for seat, c in ((0, "C"), (1, "D"))
        }
        assert {(lots["C"], lots["D"])} <= {(ROT["W"][k], ROT["E"][k]), (ROT["E"][k], ROT["W"][k])}


# --- card_orientation (MAN-CARD-2) -------------------------------------------------------------
def test_card_orientation_fixed_in_two_player_game() -> None:
    state = seat_position(2, 1, "2222", card_orientation="fixed")
    assert target_of(state, "build 2 Syd B1") == ("Syd", 2)
    assert target_of(seat_position(2, 1, "2222"), "build 2 Syd B1") == ("Syd", ROT["N"][2])


# --- selection (MAN-ROUND-1) -------------------------------------------------------------------
def hidden_selection() -> Any:
    state = game(4, selection="simultaneous_hidden").initial_state()
    for k in range(16):
        state = state.play(Draw(k % 9))
    return state


def test_simultaneous_hidden_selection_everyone_acts() -> None:
    state = hidden_selection()
    assert state.to_act == (0, 1, 2, 3)
    assert "MAN-ROUND-2" in violation_rules(state, "select A111111")  # several act: the player must be named
    state = state.play("select C111122", 2)
    assert state.to_act == (0, 1, 3)
    assert violation_rules(state, "select C111111", 2) == ["MAN-ROUND-2"]  # already chosen
    state = state.play("select D111111", 3).play("select B111111", 1)
    assert state.to_act == (0,) and state.phase == "select"
    state = state.play("select A111111", 0)
    assert state.phase == "build" and state.to_act == (0,)  # building starts with the start player


def test_simultaneous_hidden_views_hide_other_choices() -> None:
    state = hidden_selection()
    one = state.play("select C111122", 2)
    other = state.play("select C123444", 2)
    assert one.chosen[2] != other.chosen[2]
    for viewer in (0, 1, 3):
        assert one.view(viewer) == other.view(viewer)  # nothing of C's choice shows
        assert one.view(viewer).notation() == other.view(viewer).notation()
    assert one.view(2) != other.view(2)
    assert one.view(2).chosen[2] == one.chosen[2]  # C sees its own choice
    done = one.play("select A111111", 0).play("select B111111", 1).play("select D111111", 3)
    assert done.view(0).chosen[2] == one.chosen[2]  # revealed once everyone has chosen


def test_sequential_open_selection_is_visible() -> None:
    state = game(4).initial_state()
    for k in range(16):
        state = state.play(Draw(k % 9))
    assert state.to_act == (0,)
    state = state.play("select A111122")
    assert state.view(1).chosen[0] == state.chosen[0]
    assert state.view(3).chosen[0] == state.chosen[0]


# --- tallest_tie and points (MAN-SCORE-2..4) -------------------------------------------------
def tallest(state: Any) -> list[tuple[int, int]]:
    return sorted((i.player, i.points) for i in state.round_score().items if i.rule == "MAN-SCORE-2" and i.points)


def test_tallest_tie_same_owner_option_needs_one_owner() -> None:
    option = {"tallest_tie": "nobody_unless_same_owner"}
    assert tallest(build_pos(towers="Syd0:A3A3,Man0:B4B2", **option)) == []
    assert tallest(build_pos(towers="Syd0:A3A3,Man0:A4A2,Fra0:A4", **option)) == [(0, 3)]
    assert tallest(build_pos(towers="Syd0:A3A3,Man0:A4A2,Fra0:A4")) == []


def test_points_option_changes_values() -> None:
    towers = "Syd0:A4,Man0:B1"
    assert build_pos(towers=towers).round_score().totals == (3 + 2 + 1, 2 + 1, 0, 0)
    custom = build_pos(towers=towers, points={"tallest": 5, "majority": 4, "tower": 2})
    assert custom.round_score().totals == (5 + 4 + 2, 4 + 2, 0, 0)


# --- no_legal_move and redraw_limit (MAN-BUILD-8) ----------------------------------------------
BLOCKED = ",".join([f"{c}4:B2" for c in CITIES] + [f"{c}0:C2" for c in CITIES])


def stuck(**options: Any) -> Any:
    return build_pos(towers=BLOCKED, hands="4444/1111/2222/3333", chosen="1/1/1/1", **options)


def test_no_legal_move_forfeit_at_once() -> None:
    state = stuck(no_legal_move="forfeit")
    assert state.legal_moves() == (Forfeit(0, 1),)
    assert violation_rules(state, "redraw 4") == ["MAN-BUILD-8"]
    after = state.play("forfeit A1")
    assert after.box[0] == (1, 0, 0, 0) and after.to_act == (1,) and not after.is_chance


def test_no_legal_move_pass_keep_piece() -> None:
    state = stuck(no_legal_move="pass_keep_piece")
    assert state.legal_moves() == (Pass(),)
    assert violation_rules(state, "forfeit A1") == ["MAN-BUILD-8"]
    assert violation_rules(state, "redraw 4") == ["MAN-BUILD-8"]
    after = state.play("pass")
    assert after.to_act == (1,) and not after.is_chance
    assert after.chosen[0] == (1, 0, 0, 0)  # A keeps the piece
    assert after.box[0] == (0, 0, 0, 0)
    assert after.hands[0] == state.hands[0]


@pytest.mark.parametrize("limit", [0, 1, 2])
def test_redraw_limit(limit: int) -> None:
    state = stuck(redraw_limit=limit)
    for _ in range(limit):
        assert all(isinstance(m, Redraw) for m in state.legal_moves())
        state = state.play(state.legal_moves()[0]).play(Draw(0))
    assert state.legal_moves() == (Forfeit(0, 1),)


# --- final_tiebreak (MAN-END-3) ---------------------------------------------------------------
def final(towers: str, **options: Any) -> Any:
    return pos(
        f"manhattan/4 round=4 phase=over turn=0 towers={towers} hands=0123/4567/8012/3456 "
        "chosen=_/_/_/_ points=52/52/40/38",
        **options,
    )


EXAMPLE_11A = "Syd0:B4B4,Man0:A1,Fra0:A1,HK0:A1"  # B owns the unique tallest; A has 3 majorities, B 1


def test_final_tiebreak_order_is_an_option() -> None:
    assert final(EXAMPLE_11A).winners() == (1,)
    reordered = final(EXAMPLE_11A, final_tiebreak=("most_majorities", "unique_tallest_owner", "shared"))
    assert reordered.winners() == (0,)
    assert reordered.scores().tiebreak == "most_majorities"
    shared = final(EXAMPLE_11A, final_tiebreak=("shared",))
    assert shared.winners() == (0, 1)
    assert shared.scores().tiebreak == "shared"
