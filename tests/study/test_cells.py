"""The study grid: cells from games, rule sets, player counts and lineups; seeds; chunks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core.errors import RulesError
from citybuild.study import Variant, game_seed, plan
from citybuild.study.cells import MAX_CHUNK, gaps


def test_grid_crosses_games_rule_sets_player_counts_and_lineups() -> None:
    grid = plan(
        ["manhattan", "skyline"],
        presets="all",
        players="all",
        bots=["random"],
        games=10,
        seed=5,
    )
    expected = sum(len(cb.presets(g)) * 3 for g in ("manhattan", "skyline"))  # both take 2-4 players
    assert len(grid.cells) == expected and grid.total == 10 * expected
    assert {c.game for c in grid.cells} == {"manhattan", "skyline"}
    assert grid.cells[0].key == "manhattan/standard/2p/random"
    assert all(c.bots == ("random",) * c.players for c in grid.cells)


def test_all_games_and_default_player_counts() -> None:
    grid = plan("all", games=1)
    assert tuple(c.game for c in grid.cells) == cb.games()
    spec = cb.core.registry.spec("skyline")
    assert next(c for c in grid.cells if c.game == "skyline").players == spec.default_players


def test_the_same_rules_asked_two_ways_make_one_cell() -> None:
    # four-rounds is standard with rounds=4 at every count: the overrides say what differs from the preset.
    four = {"rounds": {2: 4, 3: 4, 4: 4}}
    grid = plan("manhattan", presets=[], variants=[Variant("standard", four), "standard", Variant("standard")], games=1)
    assert [c.key for c in grid.cells] == [
        'manhattan/standard{"rounds":{"2":4,"3":4,"4":4}}/4p/random',
        "manhattan/standard/4p/random",
    ]
    assert grid.cells[0].load().rules == cb.load("manhattan", preset="four-rounds").rules
    assert grid.cells[0].variant == 'standard {"rounds":{"2":4,"3":4,"4":4}}'


def test_lineups_fill_the_table_with_their_last_bot() -> None:
    grid = plan("manhattan", players=[2, 3], bots=["random", ["random", "random"]], games=1)
    assert [c.bots for c in grid.cells] == [("random",) * 2, ("random",) * 3]  # the two lineups are one lineup


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "manhattan", "presets": "nine-rounds"}, "unknown preset 'nine-rounds'"),
        ({"game": "manhattan", "players": 5}, "manhattan takes 2 to 4 players, not 5"),
        ({"game": "manhattan", "players": "many"}, "players must be a count"),
        ({"game": "manhattan", "options": {"redraw_limit": -1}}, "redraw_limit"),
        ({"game": "manhattan", "options": {"no_such": 1}}, "unknown option 'no_such'"),
        ({"game": "manhattan", "bots": "random,random,random,random,random"}, "names 5 bots for a 4-player game"),
        ({"game": "manhattan", "bots": "wizard"}, "unknown bot 'wizard'"),
        ({"game": "manhattan", "bots": ""}, "expected a bot"),
        ({"game": "manhattan", "games": 0}, "games per cell must be a positive integer"),
        ({"game": "manhattan", "seed": 1.5}, "a study seed must be an int"),
        ({"game": "manhattan", "presets": []}, "at least one preset or variant"),
        ({"game": []}, "at least one game"),
    ],
)
def test_bad_grids_are_refused_before_any_game(kwargs: dict[str, object], message: str) -> None:
    game = kwargs.pop("game")
    with pytest.raises(RulesError, match=message):
        plan(game, **kwargs)  # type: ignore[arg-type]


def test_seeds_are_fixed_63_bit_and_differ_by_study_cell_and_index() -> None:
    key = "manhattan/standard/4p/random"
    seeds = {game_seed(s, k, i) for s in (0, 1) for k in (key, key + "x") for i in range(50)}
    assert len(seeds) == 200 and all(0 <= s < 2**63 for s in seeds)
    assert game_seed(5, key, 3) == 6587190852389149534  # the same on every machine and Python: never change it


@given(
    games=st.integers(1, 300),
    done=st.lists(st.tuples(st.integers(0, 300), st.integers(1, 60)), max_size=6),
    size=st.one_of(st.none(), st.integers(1, 50)),
    workers=st.integers(1, 8),
)
def test_chunks_cover_exactly_the_games_not_done(
    games: int, done: list[tuple[int, int]], size: int | None, workers: int
) -> None:
    grid = plan("manhattan", presets="all", players=[2], games=games, seed=1)
    ranges = [(a, a + n) for a, n in done]
    finished = {i for a, b in ranges for i in range(a, b)}
    chunks = grid.chunks({grid.cells[0].key: ranges}, workers, size)
    for cell in grid.cells:
        played = [i for c in chunks if c.cell == cell for i in range(c.start, c.stop)]
        skip = finished if cell == grid.cells[0] else set()
        assert sorted(played) == [i for i in range(games) if i not in skip]  # each once, none done again
    assert all(0 < len(c) <= (size or MAX_CHUNK) for c in chunks)


def test_gaps() -> None:
    assert gaps(10, []) == [(0, 10)]
    assert gaps(10, [(2, 4), (3, 6), (8, 20)]) == [(0, 2), (6, 8)]
    assert gaps(5, [(0, 5)]) == []
