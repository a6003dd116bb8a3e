"""``citybuild show``: a position text, a JSON state or view, or a record at a move, drawn as SVG;
a record as an HTML replay; one-line errors for everything else."""

from __future__ import annotations

import base64
import gzip
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import citybuild as cb
from citybuild.cli import main

POSITION = "manhattan/2 round=1 phase=build turn=0 towers=Syd4:B1A3 hands=0034/1278 chosen=1124/1/1333/1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.fixture
def record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert main(["play", "manhattan", "--players", "2", "--seed", "4", "--quiet", "--record", str(path)]) == 0
    capsys.readouterr()
    return path


def test_show_position_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "p.svg"
    code, out, err = run(capsys, "show", POSITION, "-o", str(out_file))
    assert (code, out, err) == (0, f"wrote {out_file}\n", "")
    words = svg_texts(out_file)
    assert "Manhattan · round 1 of 4 · build · to act: P0" in words
    code, _, _ = run(capsys, "show", POSITION, "-o", str(out_file), "--player", "1", "--size", "400")
    assert code == 0 and ET.parse(out_file).getroot().get("width") == "400"
    assert "North: P1 B, P1 D" in svg_texts(out_file)  # P1's view, their side at the bottom (first side label)
    assert svg_texts(out_file).index("North: P1 B, P1 D") < svg_texts(out_file).index("South: P0 A, P0 C")


def test_show_position_file_and_json_state_and_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text_file = tmp_path / "pos.txt"
    text_file.write_text(POSITION + "\n")
    assert run(capsys, "show", str(text_file))[0] == 0
    assert (tmp_path / "pos.svg").exists()
    state = cb.load("manhattan", players=2).parse_state(POSITION)
    (tmp_path / "state.json").write_text(cb.to_json(state))
    (tmp_path / "view.json").write_text(cb.to_json(state.view(1)))
    assert run(capsys, "show", str(tmp_path / "state.json"))[0] == 0
    assert run(capsys, "show", str(tmp_path / "view.json"))[0] == 0
    assert (tmp_path / "state.svg").read_text() == state._repr_svg_()
    assert (tmp_path / "view.svg").read_text() == state.view(1)._repr_svg_()


def test_show_record_at_a_move(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = cb.replay(record.read_text())
    code, out, _ = run(capsys, "show", str(record), "--move", "40")
    at_40 = record.with_name("game-move40.svg")  # named after the move: the final picture is not overwritten
    assert code == 0 and out == f"wrote {at_40}\n"
    entry = match.history[39]
    marked: dict[str, object] = {}
    if entry.player is None:  # after a draw the last player move stays highlighted
        last = next(e for e in reversed(match.history[:39]) if e.player is not None)
        marked = {"marked_move": last.move, "marked_player": last.player}
    expected = cb.core.svg.picture(match.states[40], last_move=entry.move, last_player=entry.player, **marked)
    assert at_40.read_text() == expected
    code, _, err = run(capsys, "show", str(record), "--move", "999")
    assert code == 2 and "--move takes 0 to" in err
    assert run(capsys, "show", str(record), "--move", "0")[0] == 0
    assert run(capsys, "show", str(record))[0] == 0
    assert "game over" in " ".join(svg_texts(record.with_suffix(".svg")))


def test_show_html_is_self_contained(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(record), "--html")
    assert out == f"wrote {record.with_suffix('.html')}\n"
    assert code == 0
    page = record.with_suffix(".html").read_text()
    assert not re.search(r"(src|href)=\"(https?:)?//", page)  # nothing loaded from elsewhere
    packed = re.search(r'<script id="data" type="application/octet-stream">(.*?)</script>', page, re.S)
    assert packed
    data = json.loads(gzip.decompress(base64.b64decode(packed.group(1))))
    match = cb.replay(record.read_text())
    whole = data["stories"]["all"]
    assert len(whole["pictures"]) == len(match.states) == len(whole["moves"]) + 1
    assert whole["moves"][0] == ["chance", str(match.history[0].move)]
    assert whole["sheets"][whole["sheet"][-1]] == str(match.state.scores())
    again = record.with_name("again.html")
    assert run(capsys, "show", str(record), "--html", "-o", str(again))[0] == 0
    assert again.read_text() == page  # deterministic


def test_show_errors(tmp_path: Path, record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state_file = tmp_path / "state.json"
    state_file.write_text(cb.to_json(cb.load("skyline").initial_state()))
    position_svg = tmp_path / "position.svg"
    position_svg.write_text(POSITION)
    kept = record.read_text()
    cases = [
        (("show", "nonsense text"), "expected a JSON document or a position"),
        (("show", "chess/2 a=b"), "unknown game 'chess'"),
        (("show", str(state_file), "--html"), "--html needs a game record"),
        (("show", str(state_file), "--move", "3"), "--move needs a game record"),
        (("show", POSITION, "--player", "5"), "--player 5: seats are 0 to 1"),
        (("show", POSITION, "--size", "2"), "size=2"),
        (("show", "manhattan/2@P0 round=1"), "a view's notation cannot be read back"),
        (("show", POSITION, "-o", str(tmp_path / "no" / "dir.svg")), "cannot write"),
        (("show", str(record), "-o", str(record)), "is the file shown"),  # replaced the record by its picture
        (("show", str(record), "--html", "-o", str(record)), "is the file shown"),
        (("show", str(position_svg)), "is the file shown"),
        (
            ("show", POSITION, "-o", ""),
            "-o: the file name is empty",
        ),  # wrote ./position.svg  # a position in a .svg file: drawn over itself
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (argv, err)
    assert record.read_text() == kept and position_svg.read_text() == POSITION
