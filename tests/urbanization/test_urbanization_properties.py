"""Properties of Urbanization over random games (hypothesis): games end with winners, pieces are
conserved, ``legal_moves`` and ``check`` agree, text and JSON round-trip, views do not leak, chance
is exact. Example counts are moderate so the suite stays fast."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from urbanization_support import game

import citybuild as cb
from citybuild.games.urbanization import UrbanizationState
from citybuild.games.urbanization.moves import Give, Keep, NewHand, Pick, Select, Take, Token
from citybuild.testing.candidates import illegal_candidates

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "character_mode": st.sampled_from(["draft", "random"]),
        "new_card_insertion": st.sampled_from(["shuffle_into_draw", "discard"]),
        "token_move_keeps_alphabetical_order": st.booleans(),
        "token_no_space": st.sampled_from(["remove", "any_cell_adjacent_to_city"]),
        "utilize_triggers_exploit_bonus": st.booleans(),
        "colour_penalty_to": st.sampled_from(["reserve", "box"]),
        "new_card_bonus_same_action": st.booleans(),
        "end_timing": st.sampled_from(["end_of_round", "immediate"]),
        "end_trigger_latches": st.booleans(),
        "new_hand_per_round": st.integers(0, 2),
        "small_game_removed_tiles": st.integers(0, 24),
        "small_game_initial_discard": st.integers(0, 9),
    },
)


@cache
def _line(players: int, seed: int, options: tuple[tuple[str, object], ...] = ()) -> tuple[UrbanizationState, ...]:
    rng = random.Random(seed)
    state = game(players, **dict(options)).initial_state()
    line = [state]
    while not state.is_over:
        state = state.random_step(rng)
        line.append(state)
    return tuple(line)


def _conserved(state: UrbanizationState) -> None:
    # URB-COMP-1, URB-COMP-2, URB-COMP-4
    tiles = Counter(f.tile for s in state.stacks for f in s)
    tiles.update(t for ts in state.tiles for t in ts)
    tiles.update(state.stack)
    tiles.update(state.second)
    tiles.update(s.tile for s in state.selections if s is not None and s.tile is not None)
    if state.phase == "layout":
        tiles.update(t for t in range(60) if t % 20 < 3)
    assert sorted(tiles.elements()) == list(range(60))
    cards = Counter(c for h in state.hands for c in h)
    cards.update(state.draw)
    cards.update(state.discard)
    cards.update(c for t in state.tableau for c in t)
    cards.update(s.card for s in state.selections if s is not None)
    reserve = [c for c in range(60) if c not in cards]
    assert max(cards.values()) == 1 and len(cards) + len(reserve) == 72
    total = state.game.resources
    for p in range(state.players):
        city = sum(len(s) for s in state.stacks if s[-1].owner == p)
        assert state.reserve[p] + state.supply[p] + state.boxed[p] + city == total


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), OPTIONS)
def test_random_games_end_with_winners_and_conserve_everything(players: int, seed: int, options: dict) -> None:
    # URB-END-2, URB-END-3, URB-SCORE-5, URB-RAND-6
    line = _line(players, seed, tuple(sorted(options.items())))
    final = line[-1]
    assert final.is_over and final.winners()
    assert set(final.winners()) <= set(range(players))
    for state in line[:: max(1, len(line) // 25)]:
        _conserved(state)
        state.validate()


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 400))
def test_legal_moves_and_check_agree(players: int, seed: int, at: int) -> None:
    line = _line(players, seed)
    state = line[at % len(line)]
    assume(not state.is_over and not state.is_chance)
    rng = random.Random(seed)
    for player in state.to_act:
        legal = state.legal_moves(player)
        assert legal and all(state.check(m, player).ok for m in legal)
        for move in illegal_candidates(state, player, limit=12, rng=rng):
            verdict = state.check(move, player)
            assert not verdict.ok and move not in legal
            assert all(v.rule.startswith("URB-") for v in verdict.violations)
        # A family of near-misses: every card and tile of the game in a selection, every decision.
        extra = [Select(c, t) for c in range(0, 72, 5) for t in (None, *range(0, 60, 9))]
        extra += [Take("resource"), Keep(), NewHand(), Give(3), Pick(4), Token(0, 0), Token(3, 1)]
        for move in extra:
            assert state.check(move, player).ok == (move in legal)


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 400))
def test_notation_and_json_round_trip(players: int, seed: int, at: int) -> None:
    line = _line(players, seed)
    state = line[at % len(line)]
    assert state.game.parse_state(state.notation()) == state
    assert cb.from_json(cb.to_json(state)) == state
    for p in range(players):
        view = state.view(p)
        assert cb.from_json(cb.to_json(view)) == view
    if not state.is_chance:
        for p in state.to_act:
            for move in state.legal_moves(p):
                assert state.game.parse_move(str(move)) == move
                assert cb.from_json(cb.to_json(move)) == move


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 400))
def test_views_do_not_leak(players: int, seed: int, at: int) -> None:
    # URB-RAND-5: states that differ only in what a player cannot see give equal views
    line = _line(players, seed)
    state = line[at % len(line)]
    for p in range(players):
        view = state.view(p)
        variants = state.hidden_variants(p)
        for variant in variants:
            assert variant != state
            assert variant.view(p) == view
        for q in range(players):
            if q != p:
                assert view.hands[q] is None and view.tiles[q] is None
                # SP stay behind the screens until the final score lifts them (URB-SCORE-1)
                assert view.sp[q] == (state.sp[q] if state.is_over else None)
        text = view.notation()
        assert "draw=" + str(len(state.draw)) in text


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 400))
def test_chance_is_exact(players: int, seed: int, at: int) -> None:
    # URB-RAND-2, URB-RAND-3, URB-RAND-4, URB-RAND-5
    line = _line(players, seed)
    state = line[at % len(line)]
    assume(state.is_chance and state.phase != "layout")
    outcomes = state.chance_outcomes()
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert len({o for o, _ in outcomes}) == len(outcomes)
    drawn = state.random_move(random.Random(seed))
    assert any(drawn == o for o, _ in outcomes)


def test_sampling_matches_the_listed_probabilities() -> None:
    # URB-RAND-4: the character deal sampled one card at a time has the multiset law
    state = _line(3, 4)[0]
    while state.phase != "characters":
        state = state.random_step(random.Random(0))
    exact = dict(state.chance_outcomes())
    rng = random.Random(9)
    counts = Counter(state.random_move(rng) for _ in range(4000))
    top = max(exact, key=exact.__getitem__)
    assert abs(counts[top] / 4000 - float(exact[top])) < 0.02
    assert math.isclose(sum(float(p) for p in exact.values()), 1.0)


@SETTINGS
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 4))
def test_determinized_positions_give_the_same_view(players: int, seed: int, at: int, seat: int) -> None:
    # DESIGN principle 9: a position drawn from a view gives that view back and the same legal moves
    from citybuild.games.urbanization.determinize import determinize

    line = _line(players, seed, (("character_mode", "draft"),))
    state = line[at % len(line)]
    player = seat % players
    view = state.view(player)
    filled = determinize(state.game, view, random.Random(seed))
    filled.validate()
    assert filled.view(player) == view
    if player in state.to_act:
        assert tuple(filled.legal_moves(player)) == tuple(state.legal_moves(player))
