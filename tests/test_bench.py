"""The benchmarks: the API loop plays complete games, the timing helper counts
what it plays, and ``citybuild bench --api`` prints its columns with or without OpenSpiel."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import citybuild as cb
from citybuild import bench
from citybuild.cli import main
from citybuild.core.registry import load

COLUMNS = ("api steps/s", "api games/s", "playout steps/s", "playout games/s", "games/run")


@pytest.mark.parametrize(("name", "players"), [("manhattan", 4), ("skyline", 2)])
def test_api_loop_plays_complete_reproducible_games(name: str, players: int) -> None:
    # Manhattan 4p selects simultaneously: the loop names the player it draws, or play() would refuse.
    state = load(name, players=players).initial_state()
    final, steps = bench.api_game(state, random.Random(1))
    assert final.is_over and final.winners and steps > 0
    again, again_steps = bench.api_game(state, random.Random(1))
    assert (again.notation(), again_steps) == (final.notation(), steps)
    other, _ = bench.api_game(state, random.Random(2))
    assert other.notation() != final.notation()


def test_median_rates_plays_the_same_games_in_every_run() -> None:
    seen: list[float] = []

    def play(rng: random.Random) -> int:
        seen.append(rng.random())
        return 10

    rates = bench.median_rates(play, games=3, runs=2, seed=4)
    assert len(seen) == 6 and len(set(seen)) == 3 and seen[:3] == seen[3:]  # every run plays the same games
    assert rates.games_per_run == 3 and rates.runs == 2
    assert rates.steps_per_second == pytest.approx(10 * rates.games_per_second)
    with pytest.raises(ValueError, match="at least 1"):
        bench.median_rates(play, games=0, runs=1)


def test_bench_api_without_openspiel(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails as if not installed
    code = main(["bench", "manhattan", "--api", "--players", "2", "--games", "1", "--runs", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("game "))
    assert all(column in header for column in COLUMNS)
    row = next(line for line in lines if line.startswith("manhattan "))
    assert "standard" in row and " 2p " in row and row.endswith("1/1")
    assert "not measured" in out and "pip install open_spiel" in out and "target" not in out


class FakeSpielState:
    """An OpenSpiel-like state: a fair coin (chance node), then two moves of two actions each."""

    def __init__(self) -> None:
        self.history: list[int] = []

    def is_terminal(self) -> bool:
        return len(self.history) == 3

    def is_chance_node(self) -> bool:
        return not self.history

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def apply_action(self, action: int) -> None:
        assert action in (0, 1)
        self.history.append(action)


class FakeSpielGame:
    def new_initial_state(self) -> FakeSpielState:
        return FakeSpielState()


def test_openspiel_loop_and_anchor_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(0)
    coins = set()
    for _ in range(40):
        state = FakeSpielState()
        assert bench.openspiel_game(state, rng) == 3
        coins.add(state.history[0])
    assert coins == {0, 1}

    def fake_load(name: str = bench.ANCHOR) -> Any:
        return FakeSpielGame()

    monkeypatch.setattr(bench, "load_openspiel", fake_load)
    report = bench.api_report("skyline", [2], games=1, runs=1, anchor_seconds=0.01)
    assert "openspiel    python_tic_tac_toe 2p" in report
    ratio = next(line for line in report.splitlines() if line.startswith("skyline standard 2p: api "))
    assert ratio.endswith("x OpenSpiel python_tic_tac_toe steps/s (target: 2.0x)")
    assert "not measured" not in report


def test_bench_bots_extends_a_pairing_with_the_longer_arenas_games(tmp_path: Any) -> None:
    """``bench_bots.py --extend`` plays games n.. of a saved pairing and merges them: the same
    figures as one arena of the longer length."""
    import importlib.util
    import json
    from pathlib import Path

    from citybuild.bots import arena

    path = Path(__file__).parent.parent / "benchmarks" / "bench_bots.py"
    loaded = importlib.util.spec_from_file_location("bench_bots", path)
    assert loaded is not None and loaded.loader is not None
    bench_bots = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(bench_bots)
    saved = tmp_path / "bots.json"
    rows = bench_bots.strength(("skyline",), 3, 1, "ismcts:2", 11)
    greedy_random = [r for r in rows if r["bots"] == "greedy,random"]
    saved.write_text(json.dumps({"strength": greedy_random}))
    assert bench_bots.main(["--json", str(saved), "--extend", "skyline", "greedy,random", "7"]) == 0
    row = json.loads(saved.read_text())["strength"][0]
    whole = arena("skyline", ["greedy", "random"], 7, seed=11).standings()
    assert row["games"] == 7 and row["win_rate"] == pytest.approx(whole[0].win_rate)
    assert (row["low"], row["high"]) == pytest.approx((whole[0].low, whole[0].high))
    assert row["mean_score"] == pytest.approx(whole[0].mean_score)
    again = bench_bots.strength(("skyline",), 3, 1, "ismcts:2", 11, done=(row,))
    assert next(r for r in again if r["bots"] == "greedy,random") is row  # an extended pairing is not replayed


def test_bench_bots_levels_plays_each_level_against_the_one_below(tmp_path: Any) -> None:
    """``bench_bots.py --levels`` pairs each level with the one below at 2 players, saves each
    pairing with what its levels are, and a resumed run keeps only pairings of the levels as they
    are now."""
    import importlib.util
    import json
    from pathlib import Path

    from citybuild.bots import LEVELS

    path = Path(__file__).parent.parent / "benchmarks" / "bench_bots.py"
    loaded = importlib.util.spec_from_file_location("bench_bots", path)
    assert loaded is not None and loaded.loader is not None
    bench_bots = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(bench_bots)
    assert bench_bots.level_pairings(("skyline",)) == [
        ("skyline", ["normal", "easy"], ">= 65%"),
        ("skyline", ["hard", "normal"], ">= 65%"),
    ]
    saved = tmp_path / "levels.json"
    assert bench_bots.main(["--levels", "--quick", "--only", "skyline", "--json", str(saved)]) == 0
    figures = json.loads(saved.read_text())
    (row,) = figures["strength"]
    assert figures["levels"] == LEVELS and row["bots"] == "normal,easy" and row["games"] == 2
    assert row["definitions"] == {"normal": LEVELS["normal"], "easy": LEVELS["easy"]}
    row["played"]["0"][1] = 12345  # a kept game is not played again ...
    saved.write_text(json.dumps(figures))
    assert bench_bots.main(["--levels", "--quick", "--resume", "--only", "skyline", "--json", str(saved)]) == 0
    assert json.loads(saved.read_text())["strength"][0]["played"]["0"][1] == 12345
    row["settings"]["easy"]["bot"]["epsilon"] = 0.5  # ... unless its level was something else then
    saved.write_text(json.dumps(figures))
    assert bench_bots.main(["--levels", "--quick", "--resume", "--only", "skyline", "--json", str(saved)]) == 0
    again = json.loads(saved.read_text())["strength"][0]
    assert again["played"]["0"][1] != 12345 and again["definitions"]["easy"] == LEVELS["easy"]


def _bench_bots() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "benchmarks" / "bench_bots.py"
    loaded = importlib.util.spec_from_file_location("bench_bots", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


def test_bench_bots_resumes_a_pairing_from_its_last_finished_game() -> None:
    """Every finished game is saved at once: a run stopped after some games goes on with only the
    missing ones (whatever their order), and its figures equal one whole arena's."""
    import json

    from citybuild.bots import arena

    bench_bots = _bench_bots()
    plan = [("skyline", ["greedy", "random"], ">= 70%")]
    seen: list[list[dict[str, Any]]] = []

    def save(rows: list[dict[str, Any]]) -> None:
        seen.append(json.loads(json.dumps(rows)))

    bench_bots.strength(("skyline",), 5, 1, "", 3, save, plan=plan)
    assert [len(rows[0]["played"]) for rows in seen] == [0, 1, 2, 3, 4, 5]  # saved after every game
    stopped = seen[3][0]  # as if stopped after three games; and a hole: game 1 lost
    del stopped["played"]["1"]
    played: list[int] = []
    rows = bench_bots.strength(
        ("skyline",), 5, 1, "", 3, lambda rows: played.append(len(rows[0]["played"])), done=(stopped,), plan=plan
    )
    assert played == [2, 3, 4, 5]  # only games 1, 3 and 4 were played
    whole = arena("skyline", ["greedy", "random"], 5, seed=3).standings()[0]
    assert rows[0]["games"] == 5 and rows[0]["win_rate"] == pytest.approx(whole.win_rate)
    assert rows[0]["mean_score"] == pytest.approx(whole.mean_score)
    changed = json.loads(json.dumps(stopped))
    changed["settings"]["greedy"]["epsilon"] = 0.5  # played by another greedy: not reused
    played.clear()
    bench_bots.strength(("skyline",), 5, 1, "", 3, lambda rows: played.append(len(rows[0]["played"])), (changed,), plan)
    assert played == [0, 1, 2, 3, 4, 5]


def test_bench_bots_settings_are_the_bots_as_they_play_that_game() -> None:
    """A search's reward scale is the game's unless set: the saved settings spell it out per game,
    so a game that changes its scale never resumes games played at the old one."""
    bench_bots = _bench_bots()
    for name in ("skyline", "manhattan"):
        saved = bench_bots.settings(["hard", "ismcts:1000"], name)
        scale = cb.load(name).spec.margin_scale
        assert saved["hard"]["bot"]["temperature"] == saved["ismcts:1000"]["temperature"] == scale
    assert bench_bots.settings(["ismcts:temperature=5"], "skyline")["ismcts:temperature=5"]["temperature"] == 5


def test_bench_bots_chunks_take_turns_and_targets_need_the_whole_interval() -> None:
    """With ``chunk`` the pairings take turns; a ``>=`` target also needs the interval above 1/n."""
    bench_bots = _bench_bots()
    plan = [("skyline", ["greedy", "random"], ">= 70%"), ("skyline", ["random", "greedy"], ">= 70%")]
    order: list[tuple[int, int]] = []
    rows = bench_bots.strength(
        ("skyline",), 4, 1, "", 5, lambda rows: order.append(tuple(len(r["played"]) for r in rows)), plan=plan, chunk=2
    )
    assert order == [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 2), (4, 2), (4, 3), (4, 4)]
    assert "not yet known (4 of 10 games)" in bench_bots.tables([{"games": 10, "strength": rows}])  # a run under way
    assert "not yet known" not in bench_bots.tables([{"games": 4, "strength": rows}])
    assert bench_bots._met(0.75, 0.55, ">= 70%", 2) == "yes"
    assert bench_bots._met(0.75, 0.45, ">= 70%", 2) == "no"
    assert bench_bots._met(0.65, 0.60, ">= 70%", 2) == "no"
    five = bench_bots.search_pairings(("urbanization",), "ismcts:9")[-1]
    assert five == ("urbanization", ["ismcts:9"] + ["greedy"] * 4, ">= 28%")
    pilot = bench_bots.search_pairings(("skyline", "manhattan"), "ismcts:9", (2,))  # one row a game
    assert pilot == [("skyline", ["ismcts:9", "greedy"], ">= 70%"), ("manhattan", ["ismcts:9", "greedy"], ">= 70%")]
    assert bench_bots.search_pairings(("skyline",), "ismcts:9", (5,)) == []  # Skyline seats at most 4


def test_bench_bots_players_goes_with_search(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        _bench_bots().main(["--players", "2"])
    assert refused.value.code == 2 and "--players goes with --search" in capsys.readouterr().err
