"""The human game at the terminal: boards drawn for every game, the card-to-lot mapping of the
human's side, announced chance the human may see (and nothing else), paged and filtered move
lists, undo, case-insensitive moves, one clear line per refusal, colour only on a terminal."""

from __future__ import annotations

import io
import random
import re

import pytest

import citybuild as cb
from citybuild.cli import main
from citybuild.core.registry import spec
from citybuild.terminal import HumanSeat, colour_wanted

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: list[str], *argv: str) -> str:
    lines = iter(answers)

    def answer(prompt: str = "") -> str:
        print(prompt, end="")  # as input() does on a terminal
        return next(lines, "quit")

    monkeypatch.setattr("builtins.input", answer)
    assert main(["play", *argv]) == 0
    return capsys.readouterr().out


def test_manhattan_board_from_the_north(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = play(monkeypatch, capsys, ["board", "quit"], "manhattan", "--players", "2", "--seed", "3", "--human", "1")
    assert "your side: North: P1 B, P1 D (at the bottom)" in out
    assert "your cards (B, D) name board lots: 0->8 1->7 2->6 3->5 4->4 5->3 6->2 7->1 8->0" in out  # MAN-CARD-1
    first_row = next(line for line in out.splitlines() if line.startswith("  | ("))
    assert first_row.startswith("  | (8)  | (7)  | (6)  |")  # the far row, seen from North, is lots 8 7 6
    chance = [line for line in out.splitlines() if line.startswith("  chance")]
    assert chance and all(
        line.startswith(("  chance you draw a ", "  chance you draw an ")) for line in chance
    )  # P0's draws unseen
    assert out.count("round 1 of 4 · phase select") == 2  # the board, and again on 'board'
    assert not ESCAPE.search(out)  # piped output has no colour


def test_skyline_rolls_are_announced_and_moves_are_read_in_any_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = play(
        monkeypatch, capsys, ["TAKE DISTRICT", "quit"], "skyline", "--players", "2", "--seed", "1", "--human", "0"
    )
    assert "  P0     take district" in out
    assert re.search(r"  chance P0 rolls (GF|UF|PH)", out)
    assert "active dice:" in out and "P1: 0 points" in out


def test_moves_are_filtered_and_paged(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = ["moves", "more", "moves a1111 C2", "moves nothing-like-this", "more", "quit"]
    out = play(monkeypatch, capsys, answers, "manhattan", "--players", "2", "--seed", "3", "--human", "0")
    assert "1156 legal moves:" in out and "... 1136 more: type 'more'" in out and "... 1116 more" in out
    assert "10 legal moves containing 'a1111 C2':" in out
    listed = re.findall(r"^  (select A1111 C2\d+)$", out, re.M)
    assert len(listed) == 10
    assert "none of the 1156 legal moves contains 'nothing-like-this'" in out
    assert "no more moves to list" not in out.split("nothing-like-this")[0]


def test_a_huge_move_list_says_it_was_cut(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Skyline offers hundreds of thousands of rerolls at once: the list stops at SEARCH_LIMIT, and says so
    monkeypatch.setattr("citybuild.terminal.human.SEARCH_LIMIT", 100)
    out = play(
        monkeypatch,
        capsys,
        ["moves", "moves a1111 C2", "quit"],
        "manhattan",
        "--players",
        "2",
        "--seed",
        "3",
        "--human",
        "0",
    )
    assert "more than 100 legal moves (of 1156); the first 100:" in out and "... 80 more: type 'more'" in out
    assert "10 legal moves containing 'a1111 C2':" in out  # under the limit: counted exactly


def test_undo_never_takes_back_a_roll_the_human_has_seen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the match would roll the same dice again: undoing the take would be a peek at chance
    answers = ["TAKE DISTRICT", "undo", "quit"]
    out = play(monkeypatch, capsys, answers, "skyline", "--players", "2", "--seed", "1", "--human", "0")
    roll = re.search(r"^  chance (P0 rolls .*)$", out, re.M)
    assert roll is not None
    assert f"cannot undo what chance has shown you since your move: {roll.group(1)}" in out
    assert "undone:" not in out


def test_undo_goes_back_to_the_humans_decision(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = ["undo", "select A1111 C1111", "undo", "select A1111 C1112", "quit"]
    out = play(monkeypatch, capsys, answers, "manhattan", "--players", "2", "--seed", "3", "--human", "0")
    assert "nothing to undo: you have not moved yet" in out
    assert "undone: your move select A1111 C1111 and 1 move of others after it" in out
    assert "  P0     select A1111 C1112" in out


def test_every_refusal_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = ["build 9 Syd A1", "dance", "select A1", "hint", "quit"]
    out = play(monkeypatch, capsys, answers, "manhattan", "--players", "2", "--seed", "3", "--human", "0")
    replies = [line for line in out.splitlines() if line.startswith("P0> ")]
    assert replies[0].startswith("P0> cannot read that move: ") and "between 0 and 8" in replies[0]
    assert replies[1].startswith("P0> cannot read that move: ") and "unknown move 'dance'" in replies[1]
    assert replies[2].startswith("P0> refused: illegal: ") and "[MAN-ROUND-1]" in replies[2]
    assert replies[3].startswith("P0> hint: ")


@pytest.mark.parametrize("game", ["manhattan", "skyline", "urbanization"])
def test_boards_show_only_what_the_view_holds(game: str) -> None:
    game_spec = spec(game)
    assert game_spec.board_text is not None
    rng = random.Random(8)
    loaded = cb.load(game, players=3)
    state = loaded.initial_state()
    for _ in range(120):
        if state.is_over:
            break
        who = None if state.is_chance else state.to_act[0]
        state = state.play(state.random_move(rng, who), who)
    for player in range(3):
        plain = game_spec.board_text(state.view(player), loaded, False)
        assert not ESCAPE.search(plain)
        coloured = game_spec.board_text(state.view(player), loaded, True)
        assert ESCAPE.sub("", coloured) == plain
        if game_spec.hidden_variants is not None:
            for variant in game_spec.hidden_variants(state, player):
                assert game_spec.board_text(variant.view(player), loaded, False) == plain


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour_wanted(Tty()) and not colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Tty())
    match = cb.Match(cb.load("manhattan", players=2), seed=1)
    seat = HumanSeat(match, Tty(), colour=True, read=lambda prompt: "quit")
    assert ESCAPE.search(seat.board(0))


def test_hint_asks_a_bot_from_the_view_only() -> None:
    match = cb.Match(cb.load("manhattan", players=2), seed=3)
    seen: list[object] = []

    def bot(view: object, rng: random.Random) -> object:
        seen.append(view)
        return match.state.legal_moves(0)[0]

    out = io.StringIO()
    answers = iter(["hint", "quit"])
    HumanSeat(match, out, colour=False, hint=bot, read=lambda prompt: next(answers)).turn(0)
    assert seen == [match.state.view(0)]  # a view, never the state
    assert f"hint: {match.state.legal_moves(0)[0]}   (a bot's choice from your view only)" in out.getvalue()


@pytest.mark.parametrize("game", ["manhattan", "skyline", "urbanization"])
def test_help_explains_the_moves_of_the_position_and_hint_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    out = play(monkeypatch, capsys, ["help", "hint", "quit"], game, "--players", "2", "--seed", "3", "--human", "0")
    assert "the moves you can make now, one example of each kind:" in out
    kinds = out.split("one example of each kind:\n", 1)[1].split("P0>", 1)[0].splitlines()
    assert kinds and all(re.match(r"  \S.* {2,}[A-Z]{3}-[A-Z]+-\d", line) for line in kinds), kinds  # the rule ID
    hint = next(line for line in out.splitlines() if "hint: " in line)
    assert "(a bot's choice from your view only: " in hint and "%" in hint


def test_manhattan_cells_show_the_floors_per_colour_a_takeover_must_beat() -> None:  # MAN-BUILD-4
    from citybuild.games.manhattan.takeover import floors_of
    from citybuild.games.manhattan.terminal import board_text

    game = cb.load("manhattan", players=3)
    state = game.initial_state()
    rng = random.Random(2)
    for _ in range(120):
        state = state.random_step(rng)
    text = board_text(state.view(0), game, False)
    letters = "ABCD"
    for tower in state.towers:
        if tower:
            floors = floors_of([(piece.owner, piece.size) for piece in tower])
            cell = "".join(f"{letters[c]}{n}" for c, n in sorted(floors.items()))
            assert f"|{cell.center(6)}|" in text or len(cell) > 6
