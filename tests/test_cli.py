"""The citybuild command: play, check, rules, bench, and one-line errors with status 2."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

import citybuild as cb
from citybuild.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_and_check_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "manhattan", "--players", "2", "--seed", "4", "--record", str(path))
    assert code == 0 and err == ""
    assert "seed 4" in out and "  P0     select" in out and "  chance to P0: draw" in out
    assert "final score:" in out and "winners:" in out and "totals: P0" in out
    data = json.loads(path.read_text())
    assert data["type"] == "record" and data["seed"] == 4 and data["result"]
    code, out, err = run(capsys, "check", str(path))
    assert code == 0 and out.startswith("ok:") and "verified" in out


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "play", "manhattan", "--players", "3", "--seed", "9")
    second = run(capsys, "play", "manhattan", "--players", "3", "--seed", "9")
    assert first == second


def test_play_with_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.json"
    code, _, _ = run(
        capsys,
        *("play", "manhattan", "--players", "2", "--seed", "1", "--quiet", "--record", str(path)),
        *("--option", 'rounds={"2": 1, "3": 1, "4": 1}', "--option", "takeover_compare=max_other"),
    )
    assert code == 0
    data = json.loads(path.read_text())
    assert data["options"] == {"rounds": {"2": 1, "3": 1, "4": 1}, "takeover_compare": "max_other"}


def test_check_reports_the_first_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    run(capsys, "play", "manhattan", "--players", "2", "--seed", "4", "--record", str(path), "--quiet")
    data = json.loads(path.read_text())
    index = next(i for i, m in enumerate(data["moves"]) if m["move"].startswith("build"))
    data["moves"][index]["move"] = "pass"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "check", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"move {index} (P" in err and "MAN-BUILD-8" in err


def test_check_unfinished_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    run(capsys, "play", "manhattan", "--players", "2", "--seed", "4", "--record", str(path), "--quiet")
    data = json.loads(path.read_text())
    data["moves"] = data["moves"][:30]
    data["result"] = None
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and "not over" in out and "to act: P" in out


def test_human_seat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["?", "moves", "select Z1", "build 0 Syd A1", "SELECT a1111 c1111", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "manhattan", "--players", "2", "--seed", "2", "--human", "0")
    assert code == 0
    assert "your side: South: P0 A, P0 C (at the bottom)" in out  # the board, drawn from P0's side
    assert "P1 North: 0 points · 4 cards" in out  # P1's hand stays hidden
    assert "legal moves:" in out and "cannot read that move" in out and "moves [text]" in out
    assert "refused: illegal:" in out and "MAN-ROUND-1" in out
    assert "  P0     select A1111 C1111" in out and out.rstrip().endswith("quit.")  # any case is read
    chance = [line for line in out.splitlines() if line.startswith("  chance")]
    assert len(chance) == 4 and all(
        line.startswith(("  chance you draw a ", "  chance you draw an ")) for line in chance
    )  # only P0's own


def test_human_end_of_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def eof(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    code, out, _ = run(capsys, "play", "manhattan", "--players", "2", "--seed", "2", "--human", "1")
    assert code == 0 and "quit." in out


def test_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "manhattan", "--preset", "all-pieces")
    assert code == 0
    assert "presets: standard, four-rounds, all-pieces" in out
    assert "rounds = 'until_supply_empty'   (differs from 'standard')" in out
    assert "redraw_limit = 4" in out


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "manhattan", "--players", "2", "--games", "2", "--runs", "1")
    assert code == 0 and "games/s" in out and "2p" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "manhattan", "--preset", "quick"], "unknown preset 'quick'"),
        (["play", "manhattan", "--players", "7"], "2 to 4 players"),
        (["play", "manhattan", "--option", "redraw_limit=99"], "redraw_limit=99"),
        (["play", "manhattan", "--option", "colour=red"], "unknown option 'colour'"),
        (["play", "manhattan", "--option", "redraw_limit"], "NAME=VALUE"),
        (["play", "manhattan", "--option", "redraw_limit=two"], "--option redraw_limit"),
        (["play", "manhattan", "--human", "4"], "seats are 0 to 3"),
        (["play", "manhattan", "--record", "/no/such/dir/x.json", "--quiet"], "cannot write"),
        (["play", "manhattan", "--record", "/", "--seed", "1"], "cannot write '/': it is a directory"),
        (["rules", "chess"], "unknown game"),
        (["rules", "manhattan", "--preset", "x"], "unknown preset"),
        (["bench", "manhattan", "--players", "9"], "2 to 4 players"),
        (["bench", "manhattan", "--games", "0"], "at least 1"),
        (["check", "/no/such/file.json"], "no such file"),
    ],
)
def test_user_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", "refused before anything is played"
    assert err.startswith("citybuild: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": 1, "type": "record"}', "required field missing"),
        ('{"format": 0, "type": "record"}', "format 0 is not supported"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_check_bad_files(
    tmp_path: Path, content: str | bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and message in err and err.count("\n") == 1


def test_check_a_state_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import citybuild as cb

    path = tmp_path / "state.json"
    path.write_text(cb.to_json(cb.load("manhattan").initial_state()))
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and "not a game record" in err


def test_argparse_errors_return_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "manhattan", "--seed", "abc"]) == 2
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0 and capsys.readouterr().out == f"citybuild {cb.__version__}\n"
    for command in ("play", "check", "rules", "show", "bench", "arena"):
        assert main([command, "--help"]) == 0
        text = capsys.readouterr().out
        arguments = text.split("positional arguments:")[1]
        entries = re.findall(r"^  (\S.*?)(?:\n(?=  \S)|\Z)", arguments, re.M | re.S)
        assert entries and all(len(entry.split("  ")) > 1 or "\n" in entry for entry in entries), command
        games_listed = "{manhattan,skyline,urbanization}" in text and "the game" in arguments
        assert games_listed == (command in ("play", "rules", "bench", "arena")), command
        if command != "check":
            assert "four-rounds" in text and "all-nine-rounds" in text


def test_every_argument_of_every_command_is_explained() -> None:
    from citybuild.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) >= {"play", "arena", "check", "rules", "show", "bench", "study", "tune", "serve"}
    for name, command in commands.choices.items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and len(action.help) > 10, (name, action.dest)
        game = next((a for a in command._actions if a.dest == "game"), None)
        if game is not None:
            assert all(g in (game.help or "") + str(game.metavar) for g in cb.games()), name


def test_rules_explain_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    for game in cb.games():
        code, out, _ = run(capsys, "rules", game)
        assert code == 0
        names = list(cb.load(game).rules.options())
        for name in names:
            block = out.split(f"\n  {name} = ")[1].split("\n")
            assert block[1].startswith("      ") and len(block[1].strip()) > 10, name  # what it means
            assert block[2].startswith("      allowed: ") and "rules reference" not in block[2], name
    code, out, _ = run(capsys, "rules", "manhattan")
    assert "  takeover_compare = 'owner'\n" in out and "allowed: one of 'owner', 'max_other', 'any_colour'" in out


def test_a_partial_dict_option_is_merged_with_the_preset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.json"
    argv = ["play", "manhattan", "--players", "2", "--seed", "1", "--quiet", "--record", str(path)]
    code, _, err = run(capsys, *argv, "--option", 'rounds={"2": 1}')
    assert code == 0 and err == ""
    data = json.loads(path.read_text())
    assert data["options"] == {"rounds": {"2": 1, "3": 6, "4": 4}}
    assert cb.replay(path.read_text()).state.round == 1
    code, _, err = run(capsys, *argv, "--option", 'rounds={"5": 1}')
    assert code == 2 and "rounds" in err  # a key the option does not have is still refused


def test_output_is_line_buffered_when_piped() -> None:
    import subprocess
    import sys

    script = "import sys; from citybuild.cli import main; main(['rules', 'skyline']); print(sys.stdout.line_buffering)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.rstrip().endswith("True")


def test_serve_without_the_server_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    for name in [n for n in sys.modules if n == "citybuild.server" or n.startswith("citybuild.server.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if it were not installed
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith('citybuild: error: citybuild serve needs the server extra: pip install ".[server]"')
    assert err.count("\n") == 1


def test_serve_checks_its_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == "citybuild: error: --port 70000: ports are 0 to 65535\n"


def test_a_file_name_in_bytes_that_are_not_utf8_is_printed_not_a_traceback(tmp_path: Path) -> None:
    """At a UTF-8 terminal (stdout encoded strictly), 'record saved to <name>' raised
    UnicodeEncodeError for a name whose bytes are not UTF-8 (Python reads them as surrogates)."""
    import os
    import subprocess
    import sys

    name = os.fsencode(tmp_path) + b"/\xff.json"
    argv = [sys.executable, "-m", "citybuild.cli", "play", "skyline", "--seed", "1", "--quiet", "--record", name]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-300:]
    assert done.stdout.endswith(b"record saved to " + os.fsencode(tmp_path) + b"/\\udcff.json\n")
    assert (tmp_path / os.fsdecode(b"\xff.json")).is_file()
