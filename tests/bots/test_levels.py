"""The levels ``easy``, ``normal`` and ``hard``: loaded by name wherever a bot is named (Python,
bot texts, ``play``, ``arena``), each exactly its bot under the level's name, reproducible from a
seed, and refused with ``RulesError`` when misnamed or given options. How strong each is, is the
benchmark's business (``bench_bots.py --levels``), not a test's."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.bots import LABELS, LEVELS, GreedyBot, IsmctsBot, LevelBot, RandomBot, from_text, play_game
from citybuild.cli import main

GAMES = ("manhattan", "skyline", "urbanization")


def test_the_levels_are_named_weakest_first_and_each_is_a_bot_text() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard"] == list(LABELS)
    assert set(cb.bots.names()) >= set(LEVELS)
    assert cb.bots.load("easy") == LevelBot("easy", GreedyBot(epsilon=0.8))
    assert cb.bots.load("normal") == LevelBot("normal", GreedyBot(epsilon=0.2))
    assert cb.bots.load("hard") == LevelBot("hard", IsmctsBot(iterations=1000))
    for name, text in LEVELS.items():
        bot = from_text(name)
        assert bot == cb.bots.load(name) and bot.label == name and bot.bot == from_text(text)  # type: ignore[attr-defined]
        assert getattr(bot.bot, "time", None) is None  # type: ignore[attr-defined]  # counts, not a clock


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cb.bots.load("expert"), "unknown bot 'expert'"),
        (lambda: cb.bots.load("Hard"), "unknown bot 'Hard'"),
        (lambda: from_text("medium"), "unknown bot 'medium'"),
        (lambda: cb.bots.load("easy", epsilon=0.1), "bot 'easy': easy\\(\\) got an unexpected keyword"),
        (lambda: from_text("hard:3000"), "takes no bare value"),
        (lambda: from_text("normal:epsilon=0"), "unexpected keyword"),
        (lambda: from_text("greedy:epsilon=1.5"), "from 0 to 1"),
        (lambda: from_text("greedy:epsilon=true"), "from 0 to 1"),
    ],
)
def test_a_misnamed_level_or_a_level_with_options_is_refused(call: object, message: str) -> None:
    with pytest.raises(cb.RulesError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("name", GAMES)
def test_a_game_between_levels_replays_from_its_seed(name: str) -> None:
    game = cb.load(name, players=2)
    first = play_game(game, ["normal", "easy"], seed=4)
    again = play_game(game, ["normal", "easy"], seed=4)
    assert [str(e.move) for e in first.history] == [str(e.move) for e in again.history]
    assert first.state.is_over and first.state.scores().totals == again.state.scores().totals


def test_hard_decides_exactly_as_its_search() -> None:
    state = cb.Match(cb.load("skyline", players=2), seed=3).state
    player = state.to_act[0]
    view = state.view(player)
    assert cb.bots.load("hard").choose(view, random.Random(9)) == IsmctsBot(iterations=1000).choose(
        view, random.Random(9)
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(GAMES), epsilon=st.sampled_from([0.0, 0.2, 0.8, 1.0]))
def test_a_careless_greedy_bot_plays_a_legal_move_chosen_by_its_generator(seed: int, name: str, epsilon: float) -> None:
    match = cb.Match(cb.load(name, players=2), seed=seed % 1000)
    state = match.state
    player = state.to_act[0]
    view = state.view(player)
    bot = GreedyBot(epsilon=epsilon)
    move = bot.choose(view, random.Random(seed))
    assert move in state.legal_moves(player) and move == bot.choose(view, random.Random(seed))
    if epsilon == 1.0:  # always careless: one draw decides, then a move drawn as the random bot draws it
        rng = random.Random(seed)
        rng.random()
        assert move == RandomBot().choose(view, rng)


def test_the_command_line_seats_levels(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "skyline", "--players", "2", "--seed", "12", "--bots", "normal,easy"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "" and "seats: P0 normal, P1 easy" in out
    match = play_game(cb.load("skyline", players=2), ["normal", "easy"], seed=12)
    assert "totals: " + ", ".join(f"P{p} {t}" for p, t in enumerate(match.state.scores().totals)) in out
    code = main(["arena", "urbanization", "--bots", "easy,normal", "--games", "2", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "" and "easy" in out and "normal" in out and "win rate" in out
    code = main(["play", "skyline", "--players", "2", "--bots", "expert"])
    _, err = capsys.readouterr()
    assert code == 2 and "unknown bot 'expert'" in err and err.count("\n") == 1
