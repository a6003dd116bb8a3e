"""A user's mistake with a path is one line and status 2, never a traceback, and a study checks
everything before it prints its header."""

from __future__ import annotations

from pathlib import Path

import pytest

from citybuild.cli import main
from extras_support import importorskip_extra

LONG = "a" * 300  # longer than any file system's name limit (255 bytes)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "skyline", "--quiet", "--record", "{tmp}/" + LONG],
        ["arena", "skyline", "--bots", "random", "--games", "1", "--json", "{tmp}/" + LONG],
        ["study", "skyline", "--games", "1", "--report", "{tmp}/" + LONG + ".md"],
        ["study", "skyline", "--games", "1", "--out", "{tmp}/" + LONG],
        ["study", "skyline", "--games", "1", "--out", "{tmp}/" + LONG + "/deeper"],
        ["show", "{tmp}/" + LONG],
        ["check", "{tmp}/" + LONG],
        ["study", "skyline", "--games", "1", "--out", "/proc"],
    ],
)
def test_a_path_the_file_system_refuses_is_one_line(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), "refused before a header or a game is printed"
    assert err.startswith("citybuild: error: ") and err.count("\n") == 1


def test_study_checks_the_folders_seed_before_its_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    importorskip_extra("study")
    folder = str(tmp_path / "results")
    assert main(["study", "skyline", "--games", "1", "--jobs", "1", "--out", folder, "--quiet"]) == 0
    capsys.readouterr()
    code = main(["study", "skyline", "--games", "1", "--jobs", "1", "--out", folder, "--seed", "5"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "holds a study with seed 0, not 5" in err


def test_study_without_its_extra_says_so_before_its_header(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the package were not installed
    monkeypatch.delitem(sys.modules, "pyarrow.parquet", raising=False)
    code = main(["study", "skyline", "--games", "1", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "part of the study extra" in err and err.count("\n") == 1
