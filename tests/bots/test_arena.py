"""The arena and the command line around the bots: seats rotated, games reproducible from their
seeds, the table, JSON, `citybuild play --bots`, `hint` and `citybuild arena`."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

import citybuild as cb
from citybuild.bots import arena, bot_rng, play_game
from citybuild.bots.arena import seating, wilson
from citybuild.cli import main

QUICK = "ismcts:6:rollout_depth=1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_seats_rotate_and_every_game_replays_from_its_seed() -> None:
    result = arena("skyline", ["greedy", "random", QUICK], games=4, seed=30)
    assert [r.seed for r in result.results] == [30, 31, 32, 33]
    assert [r.seats for r in result.results] == [
        ("greedy", "random", QUICK),
        (QUICK, "greedy", "random"),
        ("random", QUICK, "greedy"),
        ("greedy", "random", QUICK),
    ]
    game = cb.load("skyline", players=3)
    for r in result.results:
        match = play_game(game, r.seats, seed=r.seed)
        assert match.state.scores().totals == r.totals and match.state.winners() == r.winners
    standings = {s.bot: s for s in result.standings()}
    assert {s.games for s in standings.values()} == {4}
    assert sum(s.wins for s in standings.values()) == pytest.approx(4)
    assert standings["greedy"].mean_score > standings["random"].mean_score


def test_parallel_games_are_the_same_games() -> None:
    one = arena("manhattan", ["greedy", "random"], games=3, seed=5, rounds={2: 1, 3: 1, 4: 1})
    two = arena("manhattan", ["greedy", "random"], games=3, seed=5, jobs=2, rounds={2: 1, 3: 1, 4: 1})
    assert one.results == two.results and one.options == {"rounds": {2: 1, 3: 1, 4: 1}}
    assert "greedy" in one.table() and "95% interval" in str(one)
    data = json.loads(json.dumps(one.to_data()))
    assert data["standings"][0]["bot"] == "greedy" and len(data["games"]) == 3


def test_an_arena_continued_from_a_start_index_plays_the_longer_arenas_games() -> None:
    whole = arena("skyline", ["greedy", "random", "random"], games=5, seed=9, rounds=1)
    head = arena("skyline", ["greedy", "random", "random"], games=2, seed=9, rounds=1)
    tail = arena("skyline", ["greedy", "random", "random"], games=3, seed=9, rounds=1, start=2, jobs=2)
    assert head.results + tail.results == whole.results
    assert [r.seats for r in tail.results] == [whole.results[i].seats for i in (2, 3, 4)]  # seats keep rotating
    with pytest.raises(cb.RulesError, match="start must be"):
        arena("skyline", ["greedy", "random"], games=1, start=-1)


def test_an_arena_plays_exactly_the_games_it_is_told_with_their_seeds_and_seats() -> None:
    """``indices`` plays those games of the arena, each as the whole arena plays it: what a
    stopped run resumes with when the games it finished are not a prefix."""
    whole = arena("skyline", ["greedy", "random"], games=5, seed=4, rounds=1)
    some = arena("skyline", ["greedy", "random"], seed=4, rounds=1, indices=[4, 1, 4], jobs=2)
    assert some.results == (whole.results[1], whole.results[4])
    for bad in ([], [-1], [True], [1.0], "12", 3):
        with pytest.raises(cb.RulesError):
            arena("skyline", ["greedy", "random"], seed=4, indices=bad)  # type: ignore[arg-type]


def test_more_jobs_than_games_start_no_more_processes_than_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """'--jobs 99 --games 1' forked 99 processes (and a 30-digit --jobs raised an OverflowError)."""
    import citybuild.workers as module  # where the arena's processes are started

    started: list[int] = []
    real = module.ProcessPoolExecutor

    def pool(max_workers: int, **options: Any) -> object:
        started.append(max_workers)
        return real(max_workers=max_workers, **options)

    monkeypatch.setattr(module, "ProcessPoolExecutor", pool)
    alone = arena("skyline", ["greedy", "random"], games=1, seed=2, jobs=10**30, rounds=1)
    assert started == [] and alone.results == arena("skyline", ["greedy", "random"], games=1, seed=2, rounds=1).results
    two = arena("skyline", ["greedy", "random"], games=2, seed=2, jobs=99, rounds=1)
    assert started == [2] and len(two.results) == 2


def test_arena_refuses_what_it_cannot_play() -> None:
    with pytest.raises(cb.RulesError, match="one per seat"):
        arena(cb.load("skyline", players=3), ["greedy", "random"], games=1)
    with pytest.raises(cb.RulesError, match="unknown bot"):
        arena("skyline", ["greedy", "wizard"], games=1)
    with pytest.raises(cb.RulesError, match="games must be"):
        arena("skyline", ["greedy", "random"], games=0)
    with pytest.raises(cb.RulesError, match="choose"):
        arena("skyline", ["greedy", object()], games=1)  # type: ignore[list-item]


def test_helpers() -> None:
    assert seating(("a", "b", "c"), 1) == (2, 0, 1)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert bot_rng(3, 1).random() == bot_rng(3, 1).random() != bot_rng(3, 2).random()


def test_play_with_bots_is_the_arena_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "skyline", "--players", "2", "--seed", "12", "--bots", "greedy,random")
    assert code == 0 and err == ""
    assert "seats: P0 greedy, P1 random" in out and "final score:" in out
    match = play_game(cb.load("skyline", players=2), ["greedy", "random"], seed=12)
    totals = ", ".join(f"P{p} {t}" for p, t in enumerate(match.state.scores().totals))
    assert f"totals: {totals}" in out
    assert sum(1 for line in out.splitlines() if line.startswith("  P")) == sum(
        1 for e in match.history if e.player is not None
    )


def test_play_bot_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in [
        (("--bots", "greedy,random,random"), "one bot for every seat or one per seat"),
        (("--bots", "sage"), "unknown bot 'sage'"),
        (("--human", "0", "--bots", "greedy,random"), "which --human gives to you"),
        (("--bots", "ismcts:0"), "at least 1"),
    ]:
        code, _, err = run(capsys, "play", "skyline", "--players", "2", *argv)
        assert code == 2 and err.count("\n") == 1 and message in err, err


def test_hint_and_bots_in_a_human_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["hint", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    monkeypatch.setattr("citybuild.terminal.human.HINT_ITERATIONS", 20)
    code, out, _ = run(capsys, "play", "skyline", "--players", "2", "--seed", "3", "--bots", "human,greedy")
    assert code == 0 and "seats: P0 you, P1 greedy" in out
    hint = next(line for line in out.splitlines() if line.startswith("hint: "))
    state = cb.Match(cb.load("skyline", players=2), seed=3).state
    assert cb.load("skyline", players=2).parse_move(hint.split("   ")[0].removeprefix("hint: ")) in (
        state.legal_moves(0)
    )
    assert out.rstrip().endswith("quit.")


def test_bots_answer_after_a_human_in_manhattan(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots of the other seats play their turns between the human's (the human quits at
    their second decision)."""
    answers = iter(["select A1111", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    code, out, _ = run(capsys, "play", "manhattan", "--players", "3", "--seed", "2", "--human", "0", "--bots", "greedy")
    assert code == 0 and "P1     select" in out and "P2     select" in out


def test_arena_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    code, out, err = run(
        capsys, "arena", "skyline", "--bots", f"greedy,{QUICK}", "--games", "2", "--seed", "8", "--json", str(path)
    )
    assert code == 0, err
    assert "seed 8" in out and "greedy" in out and "win rate" in out and "citybuild play skyline" in out
    data = json.loads(path.read_text())
    assert [g["seed"] for g in data["games"]] == [8, 9] and data["bots"] == ["greedy", QUICK]
    for argv, message in [
        (("--bots", "greedy,random", "--players", "3"), "one bot for every seat or one per seat"),
        (("--bots", "greedy,nobody"), "unknown bot"),
        (("--bots", "greedy,random", "--games", "0"), "at least 1"),
        (("--bots", "greedy,random", "--players", "0"), "2 to 4 players, not 0"),  # was the default
        (("--bots", "greedy,random", "--games", "\u0661"), "at most 100 ASCII digits"),  # was 1 game
        (("--bots", "greedy,random", "--jobs", "1_0"), "at most 100 ASCII digits"),  # was 10 jobs
        (("--bots", "greedy,random", "--seed", "1" * 5000), "at most 100 ASCII digits"),
    ]:
        code, _, err = run(capsys, "arena", "skyline", *argv)
        assert code == 2 and message in err, err


def test_arena_json_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path that cannot be written is one error line before any game is played (a NUL byte in it
    printed a traceback after the games, and '--json ""' wrote nothing without a word); a path
    that looks like rich markup is written and named as it is (it raised MarkupError)."""
    argv = ("arena", "skyline", "--bots", "random,random", "--games", "1", "--seed", "1", "--option", "rounds=1")
    for path, message in [
        (str(tmp_path / "a\x00b.json"), "cannot write"),
        (str(tmp_path / "no" / "t.json"), "there is no directory"),
        (str(tmp_path), "it is a directory"),
        ("", "the file name is empty"),
    ]:
        code, out, err = run(capsys, *argv, "--json", path)
        assert code == 2 and out == "" and err.startswith("citybuild: error: cannot write") and message in err, err
        assert err.count("\n") == 1
    (tmp_path / "[").mkdir()
    for name in ("[/b].json", "[bold]x.json"):
        code, out, err = run(capsys, *argv, "--json", str(tmp_path / name))
        assert code == 0 and err == "" and f"written to {tmp_path / name}" in out
        assert json.loads((tmp_path / name).read_text())["seed"] == 1


@pytest.mark.parametrize(
    "options",
    [
        ("rounds=1",),
        ('rounds={"3": 1}', "takeover_compare=any_colour", 'final_tiebreak=["shared"]'),
        ("max_rounds=1", "character_mode=random"),
    ],
)
def test_the_printed_replay_command_replays_game_0(
    options: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command printed to replay game 0 plays that game, rule overrides included (they were
    left out, so it played another game)."""
    game = {"rounds=1": "skyline", "max_rounds=1": "urbanization"}.get(options[0], "manhattan")
    argv = ["arena", game, "--bots", "greedy,random,random", "--games", "1", "--seed", "4"]
    argv += ["--json", str(tmp_path / "arena.json"), *(arg for option in options for arg in ("--option", option))]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    command = shlex.split(out.split("replay a game: ")[1].split("   (game 0")[0])
    assert command[:2] == ["citybuild", "play"] and command.count("--option") == len(options)
    code, replayed, err = run(capsys, *command[1:], "--quiet")
    assert code == 0, err
    totals = json.loads((tmp_path / "arena.json").read_text())["games"][0]["totals"]
    assert "totals: " + ", ".join(f"P{p} {t}" for p, t in enumerate(totals)) in replayed


def test_a_shared_win_counts_as_a_share() -> None:
    result = arena("skyline", ["random", "random"], games=2, seed=1)  # random Skyline games often end 0-0
    standing = result.standings()[0]
    assert standing.games == 4 and standing.wins == pytest.approx(2.0)
    assert all(r.winners for r in result.results)
