"""Playing a chunk: each game is the engine's playout from the row's seed, and its row says what
the final score sheet says."""

from __future__ import annotations

import random

import pytest

import citybuild as cb
from citybuild.study import Chunk, game_seed, plan, play_chunk, play_random
from citybuild.study.play import FIXED_COLUMNS, category_column


@pytest.mark.parametrize("name", ["manhattan", "skyline", "urbanization"])
def test_random_play_is_the_engines_playout_from_the_seed(name: str) -> None:
    state = cb.load(name).initial_state()
    for seed in (1, 2):
        played = play_random(state, seed)
        final, steps = state.playout(random.Random(seed))
        assert played.final.notation() == final.notation() and played.steps == steps
        assert 0 < played.moves < played.steps  # chance steps (draws, rolls) are steps, not moves


@pytest.mark.parametrize("name", ["manhattan", "skyline", "urbanization"])
def test_rows_say_what_the_final_score_sheet_says(name: str) -> None:
    grid = plan(name, presets="all", players="all", games=3, seed=9)
    for chunk in grid.chunks(size=3):
        result = play_chunk(chunk)
        columns = result.columns
        n = chunk.cell.players
        assert list(columns)[: len(FIXED_COLUMNS)] == list(FIXED_COLUMNS)
        assert all(len(values) == 3 for values in columns.values())
        for row in range(3):
            seed = columns["seed"][row]
            assert seed == game_seed(9, chunk.cell.key, row) and columns["index"][row] == row
            final = play_random(chunk.cell.load().initial_state(), seed).final
            sheet = final.scores()
            assert [columns[f"p{p}_score"][row] for p in range(n)] == list(sheet.totals)
            assert tuple(columns["winners"][row]) == sheet.winners and columns["tiebreak"][row] == sheet.tiebreak
            for p in range(n):
                for category, points in sheet.by_category(p).items():
                    assert columns[category_column(p, category)][row] == points
                categories = [c for c in columns if c.startswith(f"p{p}_cat_")]
                assert sum(columns[c][row] for c in categories) == sheet.totals[p]
            assert columns["rounds"][row] == final.round  # type: ignore[attr-defined]
            assert columns["cell"][row] == chunk.cell.key and columns["players"][row] == n


def test_a_chunk_is_the_same_games_however_the_cell_is_cut() -> None:
    grid = plan("skyline", players=3, games=6, seed=2)
    cell = grid.cells[0]
    whole = play_chunk(Chunk(cell, 2, 0, 6)).columns
    parts = [play_chunk(Chunk(cell, 2, a, b)).columns for a, b in ((0, 1), (1, 4), (4, 6))]
    for name in ("seed", "moves", "steps", "winners", "p0_score", "p2_score"):
        assert whole[name] == [v for part in parts for v in part[name]]


def test_a_lineup_of_bots_plays_the_bots_game_from_the_seed() -> None:
    grid = plan("skyline", players=3, bots=["greedy,random"], games=2, seed=6)
    cell = grid.cells[0]
    assert cell.bots == ("greedy", "random", "random") and not cell.all_random
    columns = play_chunk(grid.chunks(size=2)[0]).columns
    assert columns["p0_bot"] == ["greedy", "greedy"] and columns["p2_bot"] == ["random", "random"]
    for row, seed in enumerate(columns["seed"]):
        match = cb.bots.play_game(cell.load(), ["greedy", "random", "random"], seed)  # as `citybuild play --bots`
        assert [columns[f"p{p}_score"][row] for p in range(3)] == list(match.state.scores().totals)
        assert columns["moves"][row] == sum(1 for e in match.history if e.player is not None)
        assert columns["steps"][row] == len(match.history)
