"""Engine decisions where rules/manhattan.md is silent (each is listed on the docs page)."""

from __future__ import annotations

import citybuild as cb

# MAN-BUILD-8 with no_legal_move="pass_keep_piece": when everyone still holding pieces has passed
# in a row, the round ends and the unplaced pieces go to the box (so the game always ends).


def stuck_position(game: cb.Game) -> cb.State:
    # Both players hold only 4-cards, every lot 4 is a 5-floor B tower, and each has a 1 left:
    # player 1 (N) holds only 0-cards, which name lot 8, where every tower is a 5-floor A tower.
    # A (player 0) and D (player 1) can build nowhere.
    return game.parse_state(
        "manhattan/2 round=1 phase=build turn=0 "
        "towers=Syd4:B4B1,Man4:B4B1,Fra4:B4B1,HK4:B3B2,SP4:B3B2,Cai4:B3B2,"
        "Syd8:A4A1,Man8:A4A1,Fra8:A4A1,HK8:A3A2,SP8:A3A2,Cai8:A3A2 "
        "hands=4444/0000 chosen=1/-/-/1"
    )


def test_pass_keep_piece_round_ends_when_everyone_passes_in_a_row() -> None:
    # MAN-BUILD-8
    game = cb.load("manhattan", players=2, no_legal_move="pass_keep_piece")
    state = stuck_position(game)
    assert state.legal_moves() == (game.parse_move("pass"),)
    after_one = state.play("pass")
    assert after_one.turn == 1 and after_one.passes == 1 and after_one.round == 1
    after_both = after_one.play("pass")
    assert after_both.round == 2 and after_both.phase == "select"
    assert after_both.chosen == (None, None, None, None)
    assert after_both.supply == state.supply
    assert after_both.box[0] == (1, 0, 0, 0) and after_both.box[3] == (1, 0, 0, 0)  # A's and D's 1s
    after_both.validate()


def test_forfeit_policy_forfeits_at_once() -> None:
    # MAN-BUILD-8 with no_legal_move="forfeit"
    game = cb.load("manhattan", players=2, no_legal_move="forfeit")
    state = stuck_position(game)
    assert state.legal_moves() == (game.parse_move("forfeit A1"),)
    after = state.play("forfeit A1")
    assert after.box[0] == (1, 0, 0, 0) and after.turn == 1
    assert sum(after.hands[0]) == 4  # no draw after a forfeit


def test_second_colour_reads_cards_one_side_clockwise_with_own_side_seating() -> None:
    # MAN-SETUP-2, MAN-CARD-1: player 0 sits S, so C reads from W; player 1 sits N, so D reads from E
    game = cb.load("manhattan", players=2, two_colour_seating="own_side")
    state = game.parse_state("manhattan/2 round=1 phase=build turn=0 hands=0000/1111 chosen=1/1/1/1")
    lots = {(m.colour, m.city * 9 + state.target_lot(m.card, m.colour)) for m in state.legal_moves()}
    assert {lot % 9 for colour, lot in lots if colour == 0} == {0}  # A at S: k=0 -> lot 0
    assert {lot % 9 for colour, lot in lots if colour == 2} == {2}  # C at W: k=0 -> lot 2
    other = state.play("build 0 Syd A1").play("draw 5")
    lots = {(m.colour, state.target_lot(m.card, m.colour)) for m in other.legal_moves()}
    assert {lot for colour, lot in lots if colour == 1} == {7}  # B at N: k=1 -> lot 7
    assert {lot for colour, lot in lots if colour == 3} == {3}  # D at E: k=1 -> lot 3


def test_own_side_seating_that_would_share_a_side_is_refused() -> None:
    import pytest

    with pytest.raises(cb.RulesError, match="two colours on one side"):
        cb.load("manhattan", players=2, two_colour_seating="own_side", sides={2: "SW", 3: "SWN", 4: "SWNE"})


def test_validate_refuses_out_of_range_fields_with_invalid_state_error() -> None:
    # MAN-COMP-2, MAN-COMP-3: a position built in code (or from tampered JSON) with impossible values
    import attrs
    import pytest

    from citybuild.core.tower import Piece

    state = cb.load("manhattan", players=2).initial_state()
    for bad in (
        attrs.evolve(state, towers=((Piece(0, 9),), *state.towers[1:])),
        attrs.evolve(state, towers=((Piece(7, 1),), *state.towers[1:])),
        attrs.evolve(state, draw=(5,) * 8),
        attrs.evolve(state, hands=((0,) * 9,)),
        attrs.evolve(state, supply=((11, 6, 4, -1),) * 4),
        attrs.evolve(state, turn=5),
    ):
        with pytest.raises(cb.InvalidStateError):
            bad.validate()
