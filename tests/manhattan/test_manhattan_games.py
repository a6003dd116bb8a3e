"""Whole games under every preset and player count (rules/manhattan.md §0), played with a seeded
random.Random and citybuild.core.chance.sample, checked at every step against an independent
reading of the reference: legality, the owner invariant, card conservation, scoring, winners."""

from __future__ import annotations

from typing import Any

import pytest
from manhattan_support import (
    card_totals,
    game,
    pieces_on_board,
    play_game,
    spec_legal_builds,
    spec_round_points,
    spec_winners,
)

from citybuild.games.manhattan import Build, Forfeit, Redraw

# preset, players, rounds, turns per round, colours, pieces per colour never selected
PRESET_TABLE = [
    ("standard", 2, 4, 16, 4, 8),
    ("standard", 3, 6, 12, 3, 0),
    ("standard", 4, 4, 24, 4, 0),
    ("four-rounds", 2, 4, 16, 4, 8),
    ("four-rounds", 3, 4, 12, 3, 8),
    ("four-rounds", 4, 4, 24, 4, 0),
    ("all-pieces", 2, 6, 8, 2, 0),
    ("all-pieces", 3, 6, 12, 3, 0),
    ("all-pieces", 4, 4, 24, 4, 0),
]


class Referee:
    """Checks every state of a game against the reference."""

    def __init__(self) -> None:
        self.previous: Any = None
        self.build_states = 0
        self.stuck_states = 0

    def __call__(self, state: Any) -> None:
        state.validate()  # positions reached by legal play pass every invariant
        assert sum(card_totals(state)) == 45  # MAN-CARD-3
        # MAN-BUILD-6: the owner has at least as many floors as any colour (MAN-BUILD-7 "merged":
        # a player's colours count as one, so the invariant holds per player).
        n = state.players
        merged = state.rules.two_colour_legality == "merged"
        for t in state.towers:
            if t:
                fl: dict[int, int] = {}
                for p in t:
                    unit = p.colour % n if merged else p.colour
                    fl[unit] = fl.get(unit, 0) + p.size
                assert fl[t[-1].colour % n if merged else t[-1].colour] == max(fl.values())
        if state.is_chance and state.phase != "deal":
            # MAN-RAND-1 / MAN-ROUND-5: draws follow a build or a redraw of the same round; no redeal.
            prev = self.previous
            assert prev is not None and prev.phase == "build" and prev.round == state.round
        if state.phase == "build" and not state.is_chance:
            self.build_states += 1
            moves = state.legal_moves()
            expected = spec_legal_builds(state)
            # MAN-BUILD-6: "owner" and "max_other" agree on every position reached by legal play.
            other = "max_other" if state.rules.takeover_compare == "owner" else "owner"
            assert expected == spec_legal_builds(state, other)
            builds = {(m.card, m.city, m.colour, m.size) for m in moves if isinstance(m, Build)}
            assert builds == expected
            if not expected:  # MAN-BUILD-8
                self.stuck_states += 1
                player = state.to_act[0]
                if state.redraws < state.rules.redraw_limit:
                    assert set(moves) == {Redraw(k) for k in range(9) if state.hands[player][k]}
                else:
                    assert moves and all(isinstance(m, Forfeit) for m in moves)
        self.previous = state


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize(("preset", "players", "rounds", "turns", "colours", "left"), PRESET_TABLE)
def test_preset_whole_game(
    preset: str, players: int, rounds: int, turns: int, colours: int, left: int, seed: int
) -> None:
    referee = Referee()
    log = play_game(game(players, preset), seed, on_state=referee)
    final = log.final
    assert final.is_over
    # MAN-ROUND-6 / MAN-END-1: the number of rounds, and MAN-ROUND-2/3 the turns in each.
    assert log.rounds == rounds
    for r in range(1, rounds + 1):
        assert len(log.turns_in(r)) == turns
        assert [len(log.turns_in(r, p)) for p in range(players)] == [turns // players] * players
        assert log.select_order[r] == [(r - 1 + i) % players for i in range(players)]  # MAN-ROUND-1/5
        assert log.first_builder[r] == (r - 1) % players
    # MAN-SETUP-1 / MAN-ROUND-6: pieces never selected are never placed.
    assert len(final.supply) == colours
    assert [sum(s) for s in final.supply] == [left] * colours
    for c in range(colours):
        assert pieces_on_board(final, c) + sum(final.box[c]) == 24 - left
    # MAN-CARD-3: the last draw is made, so every hand holds 4.
    assert [sum(h) for h in final.hands] == [4] * players
    # MAN-SCORE-1..5: each round scores the board as it stands at its end; totals are cumulative.
    assert sorted(log.round_points) == list(range(1, rounds + 1))
    for r, board in log.round_boards.items():
        assert list(log.round_points[r]) == spec_round_points(board, players)
    assert [sum(log.round_points[r][p] for r in log.round_points) for p in range(players)] == list(final.points)
    assert final.scores().totals == final.points
    # MAN-END-2/3
    assert final.winners() == spec_winners(final.points, final.towers, players)
    assert referee.build_states >= rounds * turns


@pytest.mark.parametrize(
    "options",
    [
        {"reshuffle": "eager"},
        {"card_orientation": "fixed"},
        {"two_colour_legality": "merged"},
        {"no_legal_move": "forfeit"},
        {"redraw_limit": 1},
        {"selection": "simultaneous_hidden"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
@pytest.mark.parametrize("players", [2, 4])
def test_option_whole_game(options: dict[str, Any], players: int) -> None:
    referee = Referee()
    log = play_game(game(players, **options), 5, on_state=referee)
    assert log.final.is_over and log.rounds == 4
    assert log.final.winners() == spec_winners(log.final.points, log.final.towers, players)
    for r, board in log.round_boards.items():
        assert list(log.round_points[r]) == spec_round_points(board, players)
