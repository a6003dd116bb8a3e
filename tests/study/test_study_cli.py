"""``citybuild study``: a grid from the command line, a results folder that resumes, reports, and
one-line errors with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citybuild.cli import main
from citybuild.study import plan, read, run
from extras_support import importorskip_extra

importorskip_extra("study")

def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_study_writes_results_and_reports_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results"
    argv = (
        *("study", "manhattan", "--presets", "standard,four-rounds", "--players", "2,3", "--games", "8"),
        *("--seed", "5", "--jobs", "2", "--chunk", "3", "--out", str(out)),
        *("--report", str(tmp_path / "r.html"), "--report", str(tmp_path / "r.md")),
    )
    code, text, err = cli(capsys, *argv)
    assert code == 0, err
    assert text.startswith("study: 4 cells x 8 games = 32 games, seed 5, 2 local processes")
    assert "manhattan/four-rounds/3p/random" in text and "P0 wins" in text and "P2 wins" in text
    assert f"wrote {tmp_path / 'r.html'}" in text and (tmp_path / "r-win-rates.png").exists()
    made = "Made by citybuild study manhattan --presets standard,four-rounds --players 2,3 --bots random --games 8"
    assert made in (tmp_path / "r.html").read_text() and made in (tmp_path / "r.md").read_text()
    table = read(out)
    expected = plan("manhattan", presets=["standard", "four-rounds"], players=[2, 3], games=8, seed=5)
    assert table.equals(run(expected, jobs=1))
    manifest = json.loads((out / "study.json").read_text())
    assert manifest["seed"] == 5 and sorted(manifest["cells"].values()) == sorted(c.key for c in expected.cells)
    # run again with no seed: the folder's seed, nothing played again, the same summary
    code, again, _ = cli(capsys, *argv[:10], "--jobs", "1", "--out", str(out))
    assert code == 0 and "seed 5" in again.splitlines()[0] and again.splitlines()[1:] == text.splitlines()[1:6]


def test_variants_options_lineups_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = cli(
        capsys,
        *("study", "manhattan", "--variant", 'standard:{"rounds": {"2": 2, "3": 2, "4": 2}}', "--variant", "standard"),
        *("--option", "takeover_compare=max_other", "--players", "2", "--games", "3", "--jobs", "1"),
        *("--bots", "random,random", "--out", str(tmp_path)),
    )
    assert code == 0, err
    keys = sorted(set(read(tmp_path).column("cell").to_pylist()))
    assert keys == [
        'manhattan/standard{"rounds":{"2":2,"3":2,"4":2},"takeover_compare":"max_other"}/2p/random',
        'manhattan/standard{"takeover_compare":"max_other"}/2p/random',
    ]
    assert set(read(tmp_path).column("rounds").to_pylist()) == {2, 4}  # 2 players play 4 rounds by default
    code, text, err = cli(capsys, "study", "skyline", "--games", "2", "--jobs", "1", "--quiet")
    assert (code, text, err) == (0, "", "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("study", "chess"), "unknown game 'chess'"),
        (("study", "manhattan", "--presets", "nine-rounds"), "unknown preset 'nine-rounds'"),
        (("study", "manhattan", "--presets", "standard,"), "expected a comma-separated list"),
        (("study", "manhattan", "--players", "9"), "manhattan takes 2 to 4 players, not 9"),
        (("study", "manhattan", "--players", "two"), "--players: expected an integer"),
        (("study", "manhattan", "--bots", "wizard"), "unknown bot 'wizard'"),
        (("study", "manhattan", "--option", "redraw_limit=lots"), "--option redraw_limit"),
        (("study", "manhattan", "--variant", "standard:{oops"), "not a JSON object"),
        (("study", "manhattan", "--variant", 'standard:{"nope": 1}'), "unknown option 'nope'"),
        (("study", "manhattan", "--games", "0"), "games per cell must be a positive integer"),
        # with --option, these came out as "--option : standard, all-nine-rounds" or "--option $.game: ..."
        (("study", "skyline", "--presets", "four-rounds", "--option", "rounds=1"), "unknown preset 'four-rounds'"),
        (("study", "skyline", "--variant", "bogus", "--option", "rounds=1"), "unknown preset 'bogus' for skyline"),
        (("study", "chess", "--option", "rounds=1"), "unknown game 'chess'"),
        (("study", "skyline", "--games", "1", "--out", ""), "--out: the folder name is empty"),  # wrote into ./
        (("study", "manhattan", "--jobs", "0"), "jobs must be a positive integer"),
        (("study", "manhattan", "--games", "1", "--report", "r.txt", "--quiet"), r"a report is .html or .md"),
    ],
)
def test_mistakes_are_one_line_errors(
    argv: tuple[str, ...],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, *argv, *(("--jobs", "1") if "--jobs" not in argv else ()))
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_a_folder_of_another_seed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ("study", "skyline", "--games", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path))
    assert cli(capsys, *base, "--seed", "1")[0] == 0
    code, _, err = cli(capsys, *base, "--seed", "2")
    assert code == 2 and "holds a study with seed 1, not 2" in err


@pytest.mark.parametrize(
    ("report", "message"),
    [("r.txt", "a report is .html or .md"), ("no/such/r.md", "there is no directory"), (".", "a report is")],
)
def test_a_report_that_cannot_be_written_is_refused_before_any_game(
    report: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report's path was checked only after every game was played."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "results"
    argv = ("study", "skyline", "--games", "1", "--jobs", "1", "--out", str(out), "--report", report)
    code, text, err = cli(capsys, *argv)
    assert code == 2 and text == "" and message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_a_report_where_nobody_scored_prints_no_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One round of Skyline in which nobody scores: the categories plot had no legend entries and
    matplotlib printed a UserWarning on stderr."""
    import warnings

    monkeypatch.chdir(tmp_path)
    argv = ("study", "skyline", "--option", "rounds=1", "--games", "1", "--seed", "1", "--jobs", "1", "--quiet")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        code, text, err = cli(capsys, *argv, "--report", "r.md")
    assert (code, text, err) == (0, "", "")
    assert (tmp_path / "r-categories.png").exists()


def test_a_results_folder_named_in_bytes_that_are_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pyarrow refused the folder's name (UnicodeEncodeError: Python reads such bytes as lone
    surrogates); a NUL byte in the name raised ValueError."""
    import os

    folder = tmp_path / os.fsdecode(b"\xff\xfe")
    argv = ("study", "skyline", "--option", "rounds=1", "--jobs", "1", "--quiet", "--out")
    assert cli(capsys, *argv, str(folder), "--games", "2") == (0, "", "")
    assert cli(capsys, *argv, str(folder), "--games", "3") == (0, "", "")  # resumed: two read, one played
    assert read(folder).num_rows == 3
    code, _, err = cli(capsys, *argv, str(tmp_path / "a\x00b"), "--games", "1")
    assert code == 2 and "cannot make the results folder" in err
