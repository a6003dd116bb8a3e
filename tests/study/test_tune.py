"""A tune end to end: rounds within the budget, a recommended variant with its options, a run
stopped and run again that plays only what is missing and names the same variant, the same
answer on processes and on Dask, the report, and ``citybuild tune`` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

import citybuild as cb
from citybuild.cli import main
from citybuild.core.errors import RulesError
from citybuild.study import read, tune
from citybuild.study.tuning import DROPPED, KEPT, RECOMMENDED, REFERENCE, Tuning
from extras_support import importorskip_extra

importorskip_extra("study")

SPACE = {"yard_take": range(1, 9)}
ARGS = {"players": 2, "bots": "random", "budget": 400, "first": 20, "seed": 3, "jobs": 1}


class Counter:
    """A ``Progress`` that counts the games played, and can stop the tune after some."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.games = 0
        self.stop_after = stop_after

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, games: int, seconds: float) -> None:
        self.games += games
        if self.stop_after is not None and self.games >= self.stop_after:
            raise KeyboardInterrupt

    def stop(self) -> None:
        pass


def answer(result: Tuning) -> list[tuple[object, ...]]:
    return [(e.candidate, e.games, e.status, e.reason, e.objectives) for e in result.entries]


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> tuple[Tuning, Path]:
    out = tmp_path_factory.mktemp("tune")
    return tune("skyline", SPACE, out=out, **ARGS), out  # type: ignore[arg-type]


def test_a_tune_races_within_its_budget_and_names_one_variant(full: tuple[Tuning, Path]) -> None:
    result, out = full
    assert result.games <= 400 and sum(r.played for r in result.rounds) == result.games
    statuses = [e.status for e in result.entries]
    assert statuses.count(RECOMMENDED) == 1 and REFERENCE not in statuses  # the preset's 3 is in the range
    assert {e.candidate[0][1] for e in result.entries if e.added == 0} == {1, 3, 5, 6, 8}
    assert all(e.games == result.rounds[-1].games for e in result.entries if e.status in (KEPT, RECOMMENDED))
    for e in result.entries:
        if e.status == DROPPED:
            assert "worse by" in e.reason and e.games < result.rounds[-1].games
    best = result.recommended
    assert result.recommended.objectives.score.value == min(
        e.objectives.score.value for e in result.entries if e.status != DROPPED
    )
    assert result.baseline.candidate == (("yard_take", 3),)
    assert best in result.front or any(e.objectives.score.value <= best.objectives.score.value for e in result.front)
    table = read(out)
    assert table.num_rows == result.games  # every game the tune counts is in the folder, once
    value = best.candidate[0][1]
    if value != 3:
        assert result.option_lines() == [f"--option yard_take={value}"]
        assert result.rules().yard_take == value
        assert eval(result.rules_text(), {"citybuild": cb}) == result.rules()
    else:
        assert result.option_lines() == [] and result.rules() == cb.load("skyline").rules


def test_a_stopped_tune_run_again_plays_only_what_is_missing_and_names_the_same(
    full: tuple[Tuning, Path], tmp_path: Path
) -> None:
    result, _ = full
    with pytest.raises(KeyboardInterrupt):
        tune("skyline", SPACE, out=tmp_path, progress=Counter(stop_after=150), **ARGS)  # type: ignore[arg-type]
    stored = read(tmp_path).num_rows
    assert 0 < stored < result.games
    counter = Counter()
    again = tune("skyline", SPACE, out=tmp_path, progress=counter, **ARGS)  # type: ignore[arg-type]
    assert counter.games == result.games - stored
    assert answer(again) == answer(result) and again.stopped == result.stopped
    counter = Counter()
    assert answer(tune("skyline", SPACE, out=tmp_path, progress=counter, **ARGS)) == answer(result)  # type: ignore[arg-type]
    assert counter.games == 0


def test_processes_and_dask_name_the_same_variant(full: tuple[Tuning, Path]) -> None:
    result, _ = full
    on_processes = tune("skyline", SPACE, **{**ARGS, "jobs": 2})  # type: ignore[arg-type]
    on_dask = tune("skyline", SPACE, dask="local", **{**ARGS, "jobs": 2})  # type: ignore[arg-type]
    assert answer(on_processes) == answer(result) == answer(on_dask)


def test_the_preset_outside_the_space_is_played_as_a_reference_only() -> None:
    result = tune("skyline", {"yard_take": [4, 5]}, **{**ARGS, "budget": 120})  # type: ignore[arg-type]
    reference = [e for e in result.entries if e.status == REFERENCE]
    assert [e.candidate for e in reference] == [(("yard_take", 3),)] and result.baseline is reference[0]
    assert result.recommended.candidate in ((("yard_take", 4),), (("yard_take", 5),))
    assert reference[0] not in result.front


def test_bad_arguments_fail_before_any_game() -> None:
    for kwargs, message in (
        ({"budget": 0}, "budget must be a positive integer"),
        ({"first": True}, "first must be a positive integer"),
        ({"seed": 1.5}, "seed must be an integer"),
        ({"precision": -1}, "precision"),
        ({"jobs": 0}, "jobs must be a positive integer"),
        ({"weights": {"speed": 1}}, "unknown objective"),
        ({"players": 9}, "2 to 4 players"),
        ({"bots": "nobot"}, "nobot"),
    ):
        with pytest.raises(RulesError, match=message):
            tune("skyline", {"yard_take": [2, 3]}, **{**ARGS, **kwargs})  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="yard_take"):
        tune("skyline", {"yard_take": range(0, 3)}, **ARGS)  # type: ignore[arg-type]


def test_the_report_names_the_variant_the_front_and_every_candidate(full: tuple[Tuning, Path], tmp_path: Path) -> None:
    from citybuild.study.tune_report import write

    result, _ = full
    written = write(result, tmp_path / "t.md", note="Made by a test.")
    text = (tmp_path / "t.md").read_text()
    assert text.startswith("# Tune report\n\nMade by a test. skyline standard, 2 players, bots random, seed 3")
    for heading in ("## Recommended variant", "## The Pareto front", "## Plots", "## Every candidate"):
        assert heading in text
    assert {p.name for p in written[1:]} == {"t-effect-yard_take.png", "t-front.png", "t-games.png"}
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in written[1:])
    for e in result.entries:
        assert e.reason in text
    write(result, tmp_path / "t.html")
    page = (tmp_path / "t.html").read_text()
    assert page.count("<img") == 3 and "combined score" in page
    if result.option_lines():
        assert "<pre><code>--option yard_take=" in page
    with pytest.raises(RulesError, match=r"a report is \.html or \.md"):
        write(result, tmp_path / "t.txt")


def test_citybuild_tune_prints_the_answer_and_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        *("tune", "skyline", "--players", "2", "--bots", "random", "--vary", "yard_take=2..4"),
        *("--vary", "tile_counts.4=12..24", "--budget", "150", "--first", "10", "--seed", "4", "--jobs", "1"),
        *("--weight", "moves=0", "--out", str(tmp_path / "r"), "--report", str(tmp_path / "r.html")),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "not searched: tile_counts.4 (no effect in standard: finite_tile_supply is False)"
    assert lines[1].startswith("tune: 3 candidates, ") and lines[2].startswith("recommended: yard_take=")
    assert (
        "Made by citybuild tune skyline --preset standard --players 2 --bots random"
        in (tmp_path / "r.html").read_text()
    )
    result = tune(
        "skyline",
        {"yard_take": range(2, 5)},
        players=2,
        bots="random",
        budget=150,
        first=10,
        seed=4,
        weights={"moves": 0},
        out=tmp_path / "r",
        jobs=1,
    )
    assert lines[3] == (" ".join(result.option_lines()) or "the preset as it is")
    # --quiet: the options alone; the folder's seed is used when none is given
    assert main([*argv[:14], "--jobs", "1", "--weight", "moves=0", "--out", str(tmp_path / "r"), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines() == lines[3:4]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--vary", "yard_take"], "--vary expects NAME=V1,V2"),
        (["--vary", "nope=1,2"], "unknown option 'nope'"),
        (["--vary", "yard_take=1,2", "--weight", "moves"], "--weight expects NAME=NUMBER"),
        (["--vary", "yard_take=1,2", "--report", "x.txt"], "a report is .html or .md"),
        (["--vary", "yard_take=1,2", "--out", ""], "--out: the folder name is empty"),
    ],
)
def test_citybuild_tune_refuses_bad_arguments_in_one_line(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tune", "skyline", "--bots", "random", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
