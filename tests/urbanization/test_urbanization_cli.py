"""Urbanization through the shell, with no special case for it: the command line, Match, records,
replay, and hot-seat play where secret choices stay secret."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import citybuild as cb
from citybuild.cli import main
from citybuild.testing import check_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_play_three_players_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run(capsys, "play", "urbanization", "--players", "3", "--seed", "1", "--record", str(path))
    assert code == 0 and "chance layout" in out and "final score:" in out and "winners: P" in out
    assert "[URB-SCORE-4]" in out or "[URB-SCORE-1]" in out
    code, out = run(capsys, "check", str(path))
    assert code == 0 and "the game is over and the stated result is verified" in out
    record = cb.from_json(path.read_text())
    assert cb.replay(record).state.is_over


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "rules", "urbanization")
    assert code == 0 and "2 to 5 players" in out and "token_no_space = 'remove'" in out


def test_match_record_and_replay_round_trip() -> None:
    match = cb.Match(cb.load("urbanization", players=4), seed=3)
    while not match.state.is_over:
        player = match.state.to_act[int(match.random() * len(match.state.to_act))]
        match.play(match.random_move(player), player)
    record = cb.from_json(cb.to_json(match.record()))
    assert cb.replay(record).state == match.state
    match.undo()
    assert not match.state.is_over


def test_hot_seat_keeps_secret_choices_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # URB-ROUND-2, URB-SETUP-7: picks and selections are hidden; the screen is handed over
    seen: list[str] = []

    def answer(prompt: str = "") -> str:
        printed = capsys.readouterr().out
        seen.extend((printed, prompt))
        if len(seen) > 80:
            return "quit"
        if prompt.startswith("pass the screen"):
            return ""
        listing = re.split(r"legal moves?:", printed)
        if len(listing) > 1:
            return listing[1].splitlines()[1].strip()
        return "moves"

    monkeypatch.setattr("builtins.input", answer)
    code = main(["play", "urbanization", "--players", "2", "--seed", "4", "--human", "0", "--human", "1"])
    seen.append(capsys.readouterr().out)
    text = "".join(seen)
    assert code == 0
    assert "pass the screen to P1" in text and "pass the screen to P0" in text
    assert "P0     pick (hidden)" in text and "P1     pick (hidden)" in text
    assert "P0     select (hidden)" in text and "P1     select (hidden)" in text
    chance = [line.split(None, 1)[1] for line in text.splitlines() if line.startswith("  chance ")]
    assert chance and "you get" not in text  # only what both players at the screen may see
    assert all(("laid out" in c) or ("discard pile" in c) or ("first player" in c) for c in chance)
    # every board shown lists only its own player's hand
    boards = text.split("; you are P")[1:]
    assert boards
    for chunk in boards:
        seat = int(chunk[0])
        for p in range(2):
            line = next(row for row in chunk.splitlines() if row.startswith(f"P{p}"))
            assert (" hand " in line) == (p == seat) and ("(you)" in line) == (p == seat)


def test_a_view_is_drawn_for_a_person() -> None:
    state = cb.load("urbanization", players=2).parse_state(
        "urbanization/2 hands=D.E/F tiles=R5/- supply=1/0 reserve=24/25"
    )
    text = str(state.view(0))
    assert "  1   (L)   | B1 h1  | Y1 h1  | R1 h1  |  (D)   " in text  # the canonical city, y growing upwards
    assert "P0 (you): resources: 1 in supply, 24 in reserve, SP 0, tiles R5, hand D E" in text
    assert "P1: resources: 0 in supply, 25 in reserve, 1 cards" in text
    assert "F" not in text.split("P1:")[1].split("\n")[0]
    grid = [line for line in text.splitlines() if "|" in line]
    assert len({len(line) for line in grid}) == 1  # every cell as wide, whatever it holds
    assert "'site' for a Construction Site" in text  # the legend
    assert text.splitlines()[-1] == state.view(0).notation()


def test_conformance_beyond_the_smallest_player_count() -> None:
    """check_game("urbanization") at 3 and 5 players (tests/test_testing_kit.py runs 2 players; the
    property tests play 2 to 5). Each run lists the 9! layouts a few times, so two suffice here."""
    report = check_game("urbanization", players=(3, 5), seeds=(1,), every=25, legal_sample=4)
    assert report.configurations == ("urbanization/standard/3p", "urbanization/standard/5p")
    assert report.games_played == 2 and report.illegal_checked > 0


def test_record_json_names_the_game(tmp_path: Path) -> None:
    match = cb.Match(cb.load("urbanization", players=2), seed=1)
    for _ in range(30):
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    data = json.loads(cb.to_json(match.record()))
    assert data["game"] == "urbanization" and len(data["moves"]) >= 30
