"""Fuzzing of ``citybuild arena`` and ``citybuild show`` command lines, in-process, with the
contract of ``test_fuzz_cli``: never a traceback; success exits 0 with nothing on stderr; a user
mistake exits 2 with one short error line. And fuzzing of the bot texts both commands read
(``citybuild.bots.from_text``): any text gives a bot or a ``RulesError``.

Games that are really played stay tiny (one or two games of one round, random, greedy or a
one-iteration ismcts), so that the fuzz stays fast."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from fuzz_support import SNIPPETS, fuzz_settings, mutated
from hypothesis import assume, event, given
from hypothesis import strategies as st
from test_fuzz_cli import (
    NESTED,
    Files,
    assert_clean,
    bad_game_names,
    bad_integers,
    bad_option_names,
    bad_option_values,
    bad_presets,
    mostly,
    real_options,
    run_cli,
)

import citybuild as cb
from citybuild.bots import GreedyBot, IsmctsBot, RandomBot, from_text, label
from citybuild.bots.levels import LevelBot
from citybuild.core.errors import RulesError
from citybuild.core.registry import spec
from citybuild.serialize import to_json

GAMES = ("manhattan", "skyline", "urbanization")
SHORT = {
    "manhattan": 'rounds={"2": 1, "3": 1, "4": 1}',
    "skyline": "rounds=1",
    "urbanization": "max_rounds=1",
}
"""One round of each game: the rule overrides that keep a played game short."""


# --- bot texts -------------------------------------------------------------------------------
BOT_FIELDS = sorted({f.name for cls in (IsmctsBot, GreedyBot) for f in attrs.fields(cls)})
BOT_VALUES = (
    *("0", "1", "2", "3", "-1", "1000", "0.5", "1e-320", "1e308", "0.001"),
    *("none", "None", "true", "false", "nan", "inf", "-inf", "1e999", "-0.0"),
    *("", "x", " 2 ", "\u0663", "1_0", "0x10", "1" * 400, "9" * 5000, "=", ":"),
)
bot_names = mostly(st.sampled_from(cb.bots.names()), st.sampled_from(("", "human", "Random", "ismcts ", "x", "_")))
bot_parts = mostly(
    st.one_of(
        st.sampled_from(BOT_VALUES),
        st.tuples(st.sampled_from(BOT_FIELDS), st.sampled_from(BOT_VALUES)).map("=".join),
    ),
    st.one_of(
        st.sampled_from(("foo=1", "=1", "label=x", "iterations", "max_moves", "__class__=1", "")),
        st.sampled_from(SNIPPETS),
    ),
)
built_bot_texts = st.builds(lambda name, parts: ":".join([name, *parts]), bot_names, st.lists(bot_parts, max_size=3))

counts = st.integers(1, 10**40).map(str)
ISMCTS_VALUES: dict[str, st.SearchStrategy[str]] = {
    "iterations": counts | st.just("none"),  # none: limited by time alone (refused without it)
    "time": st.floats(1e-300, 1e300).map(repr) | st.integers(1, 10**300).map(str),
    "exploration": st.floats(0, 1e300).map(repr) | st.just("0"),
    "rollout_depth": st.integers(0, 10**6).map(str) | st.sampled_from(("none", "None")),
    "rollout_sample": counts,
    "temperature": st.floats(1e-300, 1e300).map(repr),
    "prior_moves": st.integers(0, 10**6).map(str),
    "prior_weight": counts,
    "max_branching": counts,
}


@st.composite
def valid_bot_texts(draw: st.DrawFn) -> str:
    """Texts that name a bot and only options it has, with values it takes."""
    name = draw(st.sampled_from(("random", "greedy", "ismcts")))
    parts: list[str] = []
    if name == "greedy" and draw(st.booleans()):
        parts.append(f"max_moves={draw(counts)}")
    elif name == "ismcts":
        if draw(st.booleans()):
            parts.append(draw(counts))  # the bare main option
        for key in draw(st.lists(st.sampled_from(sorted(ISMCTS_VALUES)), max_size=3, unique=True)):
            parts.append(f"{key}={draw(ISMCTS_VALUES[key])}")
    padding = st.sampled_from(("", " ", "\t"))
    return draw(padding) + ":".join([name, *(draw(padding) + part for part in parts)]) + draw(padding)


MALFORMED_BOTS = (
    "ismcts:iterations=-1",
    "ismcts:foo=1",
    "greedy:3:4",
    "",
    " ",
    ":",
    "random:",
    "minimax",
    "ismcts:" + "1" * 5000,
    "ismcts:time=" + "9" * 400,
    "ismcts:exploration=" + "1" * 400,
    "ismcts:temperature=1e999",
    "ismcts:time=nan",
    "ismcts:iterations=none",
    "ismcts:iterations=none:time=-1",
    "greedy:max_moves=0",
    "greedy:max_moves=true",
    "\x00",
    "\udc80",
)
bot_texts = st.one_of(
    valid_bot_texts(),
    valid_bot_texts(),
    built_bot_texts,
    built_bot_texts.flatmap(mutated),
    st.sampled_from(MALFORMED_BOTS),
    st.text(max_size=20),
)


def read_bot(text: Any) -> Any:
    """The bot ``text`` reads as, or the ``RulesError`` it raises (any other exception fails)."""
    try:
        return from_text(text)
    except RulesError as exc:
        return exc


@fuzz_settings(400)
@given(text=bot_texts | st.one_of(st.none(), st.integers(), st.binary(max_size=8), st.lists(st.text(), max_size=2)))
def test_any_bot_text_gives_a_bot_or_a_rules_error(text: Any) -> None:
    outcome = read_bot(text)
    event("refused" if isinstance(outcome, RulesError) else type(outcome).__name__)
    if isinstance(outcome, RulesError):
        assert str(outcome)
    elif isinstance(outcome, LevelBot):  # a level reads back as itself and plays as one of the bots
        assert from_text(label(outcome)) == outcome
        assert isinstance(outcome.bot, RandomBot | GreedyBot | IsmctsBot)
    else:
        assert isinstance(outcome, RandomBot | GreedyBot | IsmctsBot)
        assert_label_reads_back(outcome)


def assert_label_reads_back(bot: Any) -> None:
    """A label is a short name for tables (``ismcts:1000``), not the whole bot: it names the kind
    and, for ismcts, its iterations (or its time when it has no iteration limit). So it must read
    as a bot of the same kind, never set an option the bot leaves at its default, and read back
    as the very same bot when the bot differs from its kind's defaults only in what it shows."""
    text = label(bot)
    again = from_text(text)
    assert type(again) is type(bot), (bot, text)
    default = type(bot)()
    for field in attrs.fields(type(bot)):
        if getattr(bot, field.name) == getattr(default, field.name):
            assert getattr(again, field.name) == getattr(default, field.name), (bot, text, field.name)
    shown = {"iterations", "time"} if isinstance(bot, IsmctsBot) else set()
    hidden = {f.name for f in attrs.fields(type(bot))} - shown
    if isinstance(bot, IsmctsBot) and bot.time is not None and bot.iterations is not None:
        hidden.add("time")  # 'ismcts:N' shows only the iteration limit
    if all(getattr(bot, name) == getattr(default, name) for name in hidden) and (
        not isinstance(bot, IsmctsBot) or bot.iterations is not None
    ):
        assert again == bot, (bot, text)


@pytest.mark.parametrize(
    "text",
    ["random", "greedy", " greedy ", "ismcts:7", "ismcts:0007", "ismcts:iterations=7", "ismcts:\u0663"],
)
def test_labels_of_plain_bot_texts_read_back_as_the_same_bot(text: str) -> None:
    bot = from_text(text)
    assert from_text(label(bot)) == bot


def clean_or_mostly(draw: st.DrawFn) -> Any:
    """``mostly`` two times in three; otherwise a chooser of valid arguments only, so that whole
    command lines that should succeed are common enough to check that they do."""
    if draw(st.integers(0, 2)):
        return mostly
    return lambda good, bad: good


# --- arena -----------------------------------------------------------------------------------
def cheap(text: str) -> bool:
    """Whether a bot read from ``text`` (or refused) costs little: random, greedy, or ismcts with
    at most 2 iterations a decision."""
    bot = read_bot(text)
    return not isinstance(bot, IsmctsBot) or (bot.iterations is not None and bot.iterations <= 2)


PLAYED_BOTS = ("random", "greedy", "ismcts:1", "greedy:max_moves=3", "ismcts:iterations=2:rollout_depth=none")
arena_bot = mostly(st.sampled_from(PLAYED_BOTS), st.sampled_from(MALFORMED_BOTS) | bot_texts)


@st.composite
def arena_argv(draw: st.DrawFn, paths: dict[str, str]) -> list[str]:
    pick = clean_or_mostly(draw)
    game = draw(st.sampled_from(GAMES))
    players = draw(st.integers(spec(game).min_players, spec(game).max_players))
    bots = draw(st.lists(arena_bot, min_size=1, max_size=3))
    bots = [*bots, *bots[:1] * players][:players]
    if draw(st.integers(0, 9)) == 0 and pick is mostly:
        bots = draw(st.lists(arena_bot, min_size=0, max_size=6))  # a wrong number of bots
    separator = draw(pick(st.just(","), st.sampled_from((", ", ",,", ";", " ", ":"))))
    argv = ["arena", draw(pick(st.just(game), bad_game_names)), "--bots", separator.join(bots)]
    if draw(st.booleans()):
        argv += ["--players", draw(pick(st.just(str(len(bots))), bad_integers))]
    if draw(st.integers(0, 3)) == 0:
        argv += ["--preset", draw(pick(st.sampled_from(sorted(spec(game).presets)), bad_presets))]
    pairs = pick(st.sampled_from(real_options(game)), st.tuples(bad_option_names, bad_option_values))
    for name, value in draw(st.lists(pairs, max_size=2)):
        argv += ["--option", f"{name}={value}" if draw(st.integers(0, 9)) else name]
    argv += ["--option", SHORT[game]]  # last, so that it wins: every game played is one round
    # Only small or invalid counts: a valid '--games 100000' is a long run, not a mistake.
    small_bad = st.sampled_from(("0", "-1", "-0", "x", "", " 1", "1.0", "1" * 5000, "9" * 101, "\u0661", "1_0"))
    argv += ["--games", draw(pick(st.sampled_from(("1", "2")), small_bad))]
    if draw(st.booleans()):
        jobs = st.sampled_from(("1", "1", "1", "1", "1", "1", "1", "2"))
        argv += ["--jobs", draw(pick(jobs, small_bad | st.sampled_from(("99", str(10**30)))))]
    if draw(st.integers(0, 4)):
        argv += ["--seed", draw(pick(st.integers(0, 10**6).map(str), bad_integers))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--json", draw(pick(st.just(paths["record"]), st.sampled_from(sorted(paths.values()))))]
    return argv


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    """Short records, JSON states and views and position texts of every game, and the paths the
    fuzzers write to or point at."""
    base = tmp_path_factory.mktemp("cli_more")
    sources: dict[str, str] = {}  # a name: the text of a file
    positions: list[str] = []
    for game, players in (("manhattan", 2), ("skyline", 2), ("urbanization", 3)):
        path = base / f"{game}-record.json"
        argv = ["play", game, "--players", str(players), "--seed", "5", "--option", SHORT[game]]
        assert run_cli([*argv, "--quiet", "--record", str(path)])[0] == 0
        sources[path.name] = path.read_text()
        loaded = cb.load(game, players=players)
        state, rng = loaded.initial_state(), random.Random(3)
        for _ in range(25):
            state = state.random_step(rng) if not state.is_over else state
        sources[f"{game}-state.json"] = to_json(state)
        sources[f"{game}-view.json"] = to_json(state.view(1))
        sources[f"{game}-position.txt"] = state.notation()
        positions.append(state.notation())
    for name, text in sources.items():
        (base / name).write_text(text, encoding="utf-8")
    paths = {
        "record": str(base / "out.json"),
        "missing dir": str(base / "no" / "such" / "dir.json"),
        "directory": str(base),
        "nul": str(base / "a\x00b.json"),
        "empty": "",
        "surrogate": str(base / "\udc80.json"),
        "not utf-8": str(base / "\udcff\udcfe.json"),
        "markup": str(base / "[" / "b].json"),  # '[/b]' is a closing tag to rich
    }
    (base / "[").mkdir()
    return Files(sources=sources, positions=positions, paths=paths, base=base)


@fuzz_settings(200)
@given(data=st.data())
def test_fuzzed_arena_command_lines_never_print_a_traceback(files: Files, data: st.DataObject) -> None:
    argv = data.draw(arena_argv(files["paths"]))
    assume(all(cheap(text.strip()) for text in argv[argv.index("--bots") + 1].split(",")))
    written = Path(files["paths"]["record"])
    written.unlink(missing_ok=True)
    code, out, err = run_cli(argv)
    event(f"arena exits {code}")
    event(f"arena: {err.splitlines()[-1].removeprefix('citybuild: error: ')[:25]!r}" if code else "arena played")
    assert_clean(code, out, err)
    if code == 0:
        assert "replay a game: citybuild play " in out
        if "--json" in argv and argv[argv.index("--json") + 1] == str(written):
            data_written = json.loads(written.read_text())
            assert len(data_written["games"]) == int(argv[argv.index("--games") + 1])


@st.composite
def play_bots_argv(draw: st.DrawFn) -> list[str]:
    """``play`` with ``--bots`` (one text for every seat, or one per seat, 'human' among them) and
    ``--human`` seats; a human's input is empty, so they quit at their first turn."""
    pick = clean_or_mostly(draw)
    game = draw(st.sampled_from(GAMES))
    players = draw(st.integers(spec(game).min_players, spec(game).max_players))
    seat_bot = pick(st.sampled_from((*PLAYED_BOTS, "human")), st.sampled_from(MALFORMED_BOTS) | bot_texts)
    count = draw(pick(st.sampled_from((1, players)), st.integers(0, 6)))
    argv = ["play", game, "--players", str(players), "--seed", draw(st.integers(0, 10**6).map(str))]
    argv += ["--option", SHORT[game], "--bots", ",".join(draw(st.lists(seat_bot, min_size=count, max_size=count)))]
    for seat in draw(st.lists(pick(st.integers(0, players - 1), st.integers(-2, 6)), max_size=2)):
        argv += ["--human", str(seat)]
    return argv + (["--quiet"] if draw(st.booleans()) else [])


@fuzz_settings(100)
@given(argv=play_bots_argv())
def test_fuzzed_play_with_bots_never_prints_a_traceback(argv: list[str]) -> None:
    assume(all(cheap(text.strip()) for text in argv[argv.index("--bots") + 1].split(",")))
    code, out, err = run_cli(argv)
    event(f"play --bots exits {code}")
    assert_clean(code, out, err)
    if code == 0:
        assert "final score:" in out or "quit." in out


# --- show ------------------------------------------------------------------------------------
BAD_SOURCES = ("", " ", "{", "[]", "null", "x" * 5000, "chess/2 a=b", "manhattan/2@P0 round=1", "manhattan/99 x")


@st.composite
def show_argv(draw: st.DrawFn, files: Files) -> list[str]:
    base: Path = files["base"]
    sources: dict[str, str] = files["sources"]
    pick = clean_or_mostly(draw)
    kinds = ("file", "file", "fuzzed", "fuzzed", "text", "text", "path") if pick is mostly else ("file", "text")
    kind = draw(st.sampled_from(kinds))
    if kind == "file":
        source = str(base / draw(st.sampled_from(sorted(sources))))
    elif kind == "fuzzed":
        content = draw(
            st.one_of(
                st.sampled_from(sorted(sources.values())).flatmap(mutated),
                st.sampled_from(sorted(sources.values())).map(lambda t: t.replace("\n", "")).flatmap(mutated),
                st.binary(max_size=100),
                st.sampled_from(NESTED),
            )
        )
        path = base / draw(st.sampled_from(("fuzzed.json", "fuzzed.txt", "fuzzed")))
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        source = str(path)
    elif kind == "text":
        positions = st.sampled_from(files["positions"])
        source = draw(pick(positions, positions.flatmap(mutated) | st.sampled_from(BAD_SOURCES)))
    else:
        source = draw(st.sampled_from(sorted(files["paths"].values())))
    argv = ["show", source]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--move", draw(pick(st.integers(-1, 60).map(str), bad_integers))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--player", draw(pick(st.integers(0, 3).map(str), bad_integers))]
    if draw(st.integers(0, 3)) == 0:
        argv.append("--html")
    if draw(st.booleans()):
        target = pick(
            st.sampled_from(("out.svg", "out.html")).map(lambda name: str(base / name)),
            st.sampled_from(sorted(files["paths"].values())),
        )
        argv += [draw(st.sampled_from(("-o", "--output"))), draw(target)]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--size", draw(pick(st.sampled_from(("16", "200", "10000")), bad_integers | st.just("15")))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--orientation", draw(pick(st.integers(0, 4).map(str), bad_integers))]
    if draw(st.integers(0, 3)) == 0:
        argv.append("--no-coordinates")
    if draw(st.integers(0, 3)) == 0:
        presets = sorted({p for game in GAMES for p in spec(game).presets})
        argv += ["--preset", draw(pick(st.sampled_from(presets), bad_presets))]
    named = [game for game in GAMES if source.startswith(game) or Path(source).name.startswith(game)]
    game = named[0] if named else draw(st.sampled_from(GAMES))
    pairs = pick(st.sampled_from(real_options(game)), st.tuples(bad_option_names, bad_option_values))
    for name, value in draw(st.lists(pairs, max_size=2)):
        argv += ["--option", f"{name}={value}"]
    return argv


@fuzz_settings(250)
@given(data=st.data())
def test_fuzzed_show_command_lines_never_print_a_traceback(files: Files, data: st.DataObject) -> None:
    argv = data.draw(show_argv(files))
    outputs = [files["base"] / name for name in ("out.svg", "out.html")]
    for path in outputs:
        path.unlink(missing_ok=True)
    with contextlib.chdir(files["base"]):  # a position text is drawn to ./position.svg by default
        code, out, err = run_cli(argv)
    event(f"show exits {code}")
    event(f"show: {err.removeprefix('citybuild: error: ')[:25]!r}" if code else f"show wrote {out.strip()[-5:]}")
    assert_clean(code, out, err)
    if code == 0:
        assert out.startswith("wrote ") and out.count("\n") == 1, out[:300]
        for path in outputs:
            if str(path) in argv:
                head = "<!DOCTYPE html>" if "--html" in argv else "<svg "
                assert path.read_text(encoding="utf-8").startswith(head)
