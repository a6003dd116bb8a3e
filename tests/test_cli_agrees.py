"""The command line agrees with itself: arena reads --bots as play does, help says what each
command does and which presets each game has, show counts moves as Python does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.cli import main
from citybuild.core.errors import NotationError
from citybuild.replay_page import replay_html
from citybuild.show import at_move, step_index
from extras_support import importorskip_extra


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert main(["play", "skyline", "--players", "2", "--seed", "3", "--quiet", "--record", str(path)]) == 0
    capsys.readouterr()
    return path


def test_arena_with_one_bot_seats_it_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "arena.json"
    code, out, err = run(
        capsys, "arena", "skyline", "--bots", "random", "--games", "2", "--seed", "1", "--json", str(table)
    )
    assert code == 0 and err == ""
    data = json.loads(table.read_text())
    assert data["players"] == cb.load("skyline").players  # the game's default, as 'play' takes it
    assert data["bots"] == ["random"] * data["players"]
    code, _, err = run(
        capsys, "arena", "skyline", "--bots", "random", "--players", "3", "--games", "1", "--json", str(table)
    )
    assert code == 0 and json.loads(table.read_text())["bots"] == ["random"] * 3
    code, out, err = run(capsys, "arena", "skyline", "--bots", "random,random", "--players", "3", "--games", "1")
    assert code == 2 and out == "" and "one bot for every seat or one per seat (3), not 2" in err


def test_help_names_each_games_presets_and_describes_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "arena", "check", "rules", "show", "bench", "serve", "study", "tune"):
        assert main([command, "--help"]) == 0
        text = capsys.readouterr().out
        usage, _, rest = text.partition("\n\n")
        assert not rest.startswith(("positional arguments", "options")), f"{command} has no description"
        assert "{all-nine-rounds" not in usage  # no list mixing every game's presets
    main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "manhattan: standard, four-rounds, all-pieces; skyline: standard, all-nine-rounds" in text


@pytest.mark.parametrize(
    "command", [["play", "skyline"], ["arena", "skyline", "--bots", "random"], ["bench", "skyline"]]
)
def test_an_unknown_preset_is_refused_before_anything_is_printed(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *command, "--preset", "four-rounds")
    assert (code, out) == (2, "")
    assert err == "citybuild: error: unknown preset 'four-rounds' for skyline; presets are: standard, all-nine-rounds\n"


def test_show_counts_moves_from_the_end_and_names_the_file_after_the_move(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    steps = len(cb.from_json(record.read_text()).moves)
    assert run(capsys, "show", str(record))[1] == f"wrote {record.with_suffix('.svg')}\n"
    final = record.with_suffix(".svg").read_text()
    assert run(capsys, "show", str(record), "--move", "-1")[1] == f"wrote {record.parent / f'game-move{steps}.svg'}\n"
    assert (record.parent / f"game-move{steps}.svg").read_text() == final
    assert run(capsys, "show", str(record), "--move", "4")[1] == f"wrote {record.parent / 'game-move4.svg'}\n"
    assert record.with_suffix(".svg").read_text() == final, "the final picture is not overwritten"
    code, _, _ = run(capsys, "show", str(record), "--move", str(-steps - 1))
    assert code == 0 and (record.parent / "game-move0.svg").exists()
    for bad in (steps + 1, -steps - 2):
        code, out, err = run(capsys, "show", str(record), "--move", str(bad))
        assert (code, out) == (2, "")
        assert f"--move takes 0 to {steps}, or -1 (the end) to {-steps - 1}, not {bad}" in err


def test_show_html_opens_at_the_move_asked(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "show", str(record), "--html", "--move", "-3")[0] == 0
    page = record.with_suffix(".html").read_text()
    steps = len(cb.from_json(record.read_text()).moves)
    assert f'value="{steps - 2}"' in page and f": {steps - 2};" in page
    assert f'value="{steps}"' in replay_html(cb.from_json(record.read_text()))  # by default: the end


def test_show_refuses_options_it_cannot_apply(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = cb.load("manhattan", players=2).initial_state().notation()
    code, out, err = run(capsys, "show", position, "--option", "dice=5")  # a Skyline option
    assert (code, out) == (2, "") and "unknown option 'dice'" in err
    code, out, err = run(capsys, "show", str(record), "--option", "rounds=3")
    assert (code, out) == (2, "") and "a JSON document names its own rules" in err


@given(st.one_of(st.text(max_size=3), st.floats(), st.booleans(), st.lists(st.integers(), max_size=2)))
def test_at_move_refuses_what_is_not_an_int_with_a_typed_error(move: object) -> None:
    with pytest.raises(NotationError, match="a move number is an int"):
        step_index(move, 10)


def test_at_move_reads_negative_moves_as_python_does(record: Path) -> None:
    game_record = cb.from_json(record.read_text())
    steps = len(game_record.moves)
    assert at_move(game_record, -1).title == at_move(game_record, None).title == at_move(game_record, steps).title
    assert at_move(game_record, -steps - 1).title.endswith(f"after move 0 of {steps}")
    for bad in ("3", 1.5, True):
        with pytest.raises(NotationError):
            at_move(game_record, bad)  # type: ignore[arg-type]
    assert [step_index(m, 3) for m in (-4, -1, 0, 3)] == [0, 3, 0, 3]


def test_user_errors_under_python_m_are_one_line(tmp_path: Path) -> None:
    importorskip_extra("study")  # the error is raised inside the study command, which needs its extra first
    argv = [sys.executable, "-m", "citybuild.cli", "study", "urbanization", "--games", "1", "--option", "players=3"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("citybuild: error: --option players: unknown option 'players'")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 100) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
OPTIONS = [(game, info.name, info.allowed) for game in cb.games() for info in cb.load(game).rules.describe()]


@given(st.sampled_from(OPTIONS), JSON)
def test_an_option_of_the_wrong_type_is_told_what_it_takes(option: tuple[str, str, str], value: object) -> None:
    from citybuild.serialize import structure_options

    game, name, allowed = option
    try:
        structure_options(game, "standard", {name: value}, "--option")
    except NotationError as exc:
        message = str(exc).split(": ", 1)[1]
        assert message.startswith("expected one of") or message.endswith(f"; {name} takes {allowed}")


def test_the_command_line_says_what_an_option_takes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "manhattan", "--option", "rounds=3")
    assert (code, out) == (2, "")
    assert 'rounds takes "until_supply_empty", or a dict with keys [2, 3, 4] and integer values from 1 to 24' in err
    code, out, err = run(capsys, "play", "skyline", "--option", "rounds=x")
    assert (code, out) == (2, "") and "rounds takes an integer from 1 to 99" in err
