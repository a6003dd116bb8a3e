"""Fuzzing of the command line, run in-process: random argument lists built from the real commands
and options with mutated values, bad files for ``check``, and garbage typed at ``play --human``.

The contract: never a traceback; success exits 0 with nothing on stderr; a user mistake exits 2
with one short ``citybuild: error:`` line (argparse's own mistakes: its usage, then one line)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import warnings
from typing import Any
from unittest import mock

import pytest
from fuzz_support import CONFIGS, SNIPPETS, corpus, fuzz_settings, game_of, mutated
from hypothesis import assume, event, given
from hypothesis import strategies as st

from citybuild.cli import MESSAGE_LIMIT, main
from citybuild.core.registry import spec
from citybuild.match import Match
from citybuild.terminal.human import command_of

FUZZ = fuzz_settings(200)


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``citybuild argv`` in-process with ``stdin`` as its input: exit status, stdout, stderr.

    The output streams encode as a UTF-8 terminal's do: stdout strictly, stderr with backslashes
    for what cannot be encoded. (A ``StringIO`` takes anything, so it would hide a file name
    holding a lone surrogate, as Python decodes non-UTF-8 bytes of the command line, printed to
    stdout: a traceback at a real terminal.) Warnings that Python shows by default are added to
    stderr, where it would print them."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.object(sys, "stdin", io.StringIO(stdin)),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")  # the warnings Python shows by default, every time
        for hidden in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", hidden)
        code = main(argv)
    shown = "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in caught)
    return code, _written(out), _written(err) + shown


def _written(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode("utf-8")


def assert_clean(code: int, out: str, err: str) -> None:
    """Exit 0 and a quiet stderr, or exit 2 and one short error line; never a traceback."""
    assert "Traceback" not in out + err
    if code == 0:
        assert err == ""
        return
    assert code == 2, (code, err)
    lines = err.splitlines()
    assert lines and len(lines[-1]) <= MESSAGE_LIMIT + 80, err[:300]
    if lines[0].startswith("citybuild: error: "):
        assert len(lines) == 1, err[:300]
    else:  # argparse: usage lines, then its one error line
        assert lines[0].startswith("usage: citybuild"), err[:300]
        assert re.match(r"citybuild( \w+)?: error: ", lines[-1]), err[:300]


# --- argument values -------------------------------------------------------------------------
OPTION_NAMES = sorted({name for game in ("manhattan", "skyline") for name in spec(game).presets["standard"].options()})
REAL_VALUES = sorted(
    {
        json.dumps(value if not isinstance(value, tuple) else list(value))
        for game in ("manhattan", "skyline")
        for rules in spec(game).presets.values()
        for value in rules.options().values()
    }
)
NESTED = [
    opener * depth + closer * depth
    for depth in (3, 9, 500, 5000, 200_000)
    for opener, closer in (("[", "]"), ('{"2":', "}"))
    if opener == "[" or depth < 5000
]
NESTED += ['{"2": ' + "[" * 990 + "]" * 990 + "}", "[" * 5000]


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` three times in four, else ``bad``: each argument is usually valid, so that whole
    command lines often are, and a mistake is usually the only one."""
    return st.integers(0, 3).flatmap(lambda i: bad if i == 0 else good)


bad_integers = st.sampled_from(
    ("0", "1", "-1", "99", "1" * 5000, "9" * 101, "+3", "\u0663", "", "x", "2.5", " 2", "1e3", "1_0")
) | st.integers(-(10**30), 10**30).map(str)
bad_game_names = st.sampled_from(("", "chess", "MANHATTAN", "skyline\u00a0", "\x00", "\udc80", "--", "1" * 5000))
bad_presets = st.sampled_from(("", "STANDARD", "four-rounds", "all-nine-rounds", "\x00", "x" * 5000))
bad_option_values = st.one_of(
    st.sampled_from(REAL_VALUES),
    st.sampled_from(REAL_VALUES).flatmap(mutated),
    st.sampled_from(NESTED),
    st.sampled_from(("NaN", "Infinity", "-Infinity", "1e999", "-1", "true", "null", '"', "", "{", "1" * 5000)),
    st.sampled_from(SNIPPETS),
)
bad_option_names = st.sampled_from(OPTION_NAMES) | st.sampled_from(("", "x", "\x00", "rounds "))


def real_options(game: str) -> list[tuple[str, str]]:
    """Every option value of every preset of ``game``, as ``--option`` would spell it."""
    return sorted(
        {
            (name, json.dumps(value if not isinstance(value, tuple) else list(value)))
            for rules in spec(game).presets.values()
            for name, value in rules.options().items()
        }
    )


@st.composite
def play_argv(draw: st.DrawFn, paths: dict[str, str]) -> list[str]:
    game = draw(st.sampled_from(("manhattan", "skyline")))
    players = st.integers(spec(game).min_players, spec(game).max_players).map(str)
    argv = ["play", draw(mostly(st.just(game), bad_game_names))]
    if draw(st.booleans()):
        argv += ["--players", draw(mostly(players, bad_integers))]
    if draw(st.booleans()):
        argv += ["--preset", draw(mostly(st.sampled_from(sorted(spec(game).presets)), bad_presets))]
    argv += ["--seed", draw(mostly(st.integers(0, 10**6).map(str), bad_integers))]
    pairs = mostly(st.sampled_from(real_options(game)), st.tuples(bad_option_names, bad_option_values))
    for name, value in draw(st.lists(pairs, max_size=2)):
        argv += ["--option", f"{name}={value}" if draw(st.integers(0, 9)) else name]
    if draw(st.integers(0, 4)) == 0:
        argv += ["--human", draw(mostly(st.just("0"), bad_integers))]  # stdin is empty: the human quits at once
    if draw(st.booleans()):
        argv += ["--record", draw(mostly(st.just(paths["record"]), st.sampled_from(sorted(paths.values()))))]
    return argv + (["--quiet"] if draw(st.booleans()) else [])


game_names = mostly(st.sampled_from(("manhattan", "skyline")), bad_game_names)


@st.composite
def rules_argv(draw: st.DrawFn) -> list[str]:
    argv = ["rules", draw(game_names)]
    return argv + (["--preset", draw(mostly(st.just("standard"), bad_presets))] if draw(st.booleans()) else [])


@st.composite
def bench_argv(draw: st.DrawFn) -> list[str]:
    # Only small or invalid sizes: a valid '--games 1000000' is a long benchmark, not a mistake.
    small = mostly(st.just("1"), st.sampled_from(("0", "-1", "x", "1" * 5000, "\u0661", "")))
    argv = ["bench", draw(game_names), "--games", draw(small), "--runs", draw(small)]
    players = st.lists(mostly(st.just("2"), bad_integers), min_size=1, max_size=2)
    return [*argv, "--players", *draw(players)] if draw(st.booleans()) else argv


# --- files for check and --record ------------------------------------------------------------
class Files(dict[str, Any]):
    """The fixture's files (with a short repr: hypothesis prints it with every failing example)."""

    def __repr__(self) -> str:
        return "<files>"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    """Real records of both games, and the paths the fuzzers write to or point at."""
    base = tmp_path_factory.mktemp("cli")
    records = {}
    for game, seed in (("manhattan", 4), ("skyline", 3)):
        path = base / f"{game}.json"
        assert run_cli(["play", game, "--players", "2", "--seed", str(seed), "--quiet", "--record", str(path)])[0] == 0
        records[game] = path.read_text()
    paths = {
        "record": str(base / "out.json"),
        "missing dir": str(base / "no" / "such" / "dir.json"),
        "directory": str(base),
        "nul": str(base / "a\x00b.json"),
        "empty": "",
        "surrogate": str(base / "\udc80.json"),
    }
    return Files(records=records, paths=paths, fuzzed=base / "fuzzed.json", base=base)


@st.composite
def check_content(draw: st.DrawFn, records: dict[str, str]) -> str | bytes:
    text = draw(st.sampled_from(sorted(records.values())))
    kind = draw(st.sampled_from(("text", "move", "bytes", "json", "nested")))
    if kind == "text":
        return draw(mutated(text))
    if kind == "move":
        data = json.loads(text)
        entry = data["moves"][draw(st.integers(0, len(data["moves"]) - 1))]
        entry["move"] = draw(mutated(entry["move"]))
        return json.dumps(data)
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return draw(
            st.sampled_from(("[]", "{}", "1", '"x"', "null", '{"format": 1}', '{"format": 1, "type": "state"}'))
        )
    return draw(st.sampled_from(NESTED))


@FUZZ
@given(data=st.data())
def test_fuzzed_command_lines_never_print_a_traceback(files: Files, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(("play", "play", "play", "play", "check", "check", "rules", "bench")))
    if kind == "play":
        argv = data.draw(play_argv(files["paths"]))
    elif kind == "rules":
        argv = data.draw(rules_argv())
    elif kind == "bench":
        argv = data.draw(bench_argv())
    else:
        target = data.draw(st.sampled_from(("fuzzed", "fuzzed", "fuzzed", *sorted(files["paths"]))))
        if target == "fuzzed":
            content = data.draw(check_content(files["records"]))
            path = files["fuzzed"]
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
            argv = ["check", str(path)]
        else:
            argv = ["check", files["paths"][target]]
    code, out, err = run_cli(argv)
    event(f"{kind} exits {code}")
    assert_clean(code, out, err)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "manhattan", "--option", "redraw_limit=" + "1" * 5000], "--option redraw_limit: the value is"),
        (["play", "manhattan", "--option", "points=" + "[" * 100_000 + "]" * 100_000], "--option points: the value"),
        (["play", "manhattan", "--option", "points=" + "[" * 900 + "]" * 900], "nested more than 8 levels"),
        (["play", "manhattan", "--option", "points=" + "[" * 5000], "--option points: the value"),
        (["play", "manhattan", "--seed", "1" * 5000], "at most 100 ASCII digits"),
        (["play", "manhattan", "--players", "\u0663"], "at most 100 ASCII digits"),
        (["play", "manhattan", "--record", "a\x00b"], "cannot write 'a\\x00b'"),
        (["check", "a\x00b"], "cannot read 'a\\x00b'"),
        (["check", ""], "no file named"),
        (["play", "\x1b[2J" + "x" * 5000], "unknown game '\\x1b[2Jxxx"),
    ],
)
def test_known_holes_are_one_line_errors(argv: list[str], message: str) -> None:
    code, out, err = run_cli(argv)
    assert_clean(code, out, err)
    assert code == 2 and message in err
    assert "\x1b" not in err and "\x00" not in err


# --- play --human ----------------------------------------------------------------------------
LINE_SPECIALS = (
    "?",
    "",
    "   ",
    "\t",
    "\u00a0",
    "\x00",
    "\u0663",
    "build 1 Syd A" + "1" * 5000,
    "x" * 200_000,
    "select",
    "take yard",
    "roll GFO",
    "draw 1",
    "pass",
    "end",
)


def first_decision(config: tuple[str, str, int], seat: int, seed: int) -> list[str]:
    """Some legal moves of ``seat`` at its first decision in ``citybuild play --seed seed`` (the same
    loop as the command's, so the same generator calls), so that typed lines are sometimes played."""
    match = Match(game_of(config), seed=seed)
    while not match.state.is_over:
        state = match.state
        for player in sorted(state.to_act, key=lambda p: p != seat):
            if match.state is not state:
                break
            if player == seat:
                moves = state.legal_moves(seat)
                return [str(move) for move in moves[:: max(1, len(moves) // 8)]]
            match.play(match.random_move(player), player)
    return []


@st.composite
def human_session(draw: st.DrawFn) -> tuple[tuple[str, str, int], int, int, list[str]]:
    config = draw(st.sampled_from(CONFIGS))
    seat = draw(st.integers(0, config[2] - 1))
    seed = draw(st.integers(0, 1000))
    moves = corpus(config)[1]
    line = st.one_of(
        st.sampled_from(moves),
        st.sampled_from(moves).flatmap(mutated),
        st.sampled_from(first_decision(config, seat, seed) or ["?"]),
        st.sampled_from(LINE_SPECIALS),
        st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\n"), max_size=30),
    )
    lines = draw(st.lists(line.map(lambda text: text.replace("\n", " ")), max_size=12))
    for text in lines:
        assume(command_of(text) not in ("quit", "undo"))
    return config, seat, seed, lines


@fuzz_settings(150)
@given(session=human_session())
def test_human_input_is_refused_line_by_line_and_eof_ends_cleanly(
    files: Files, session: tuple[Any, int, int, list[str]]
) -> None:
    (game, preset, players), seat, seed, lines = session
    record = files["base"] / "human.json"
    argv = ["play", game, "--preset", preset, "--players", str(players), "--seed", str(seed)]
    code, out, err = run_cli([*argv, "--human", str(seat), "--record", str(record)], "".join(f"{t}\n" for t in lines))
    assert_clean(code, out, err)
    assert code == 0
    ended_by_eof = f"P{seat}> quit.\n" in out
    assert ended_by_eof or "final score:" in out
    prompts = out.count(f"P{seat}> ")
    consumed = lines[: prompts - 1] if ended_by_eof else lines[:prompts]
    assert len(consumed) == prompts - ended_by_eof, "every line is read, in order, until the end"
    asked = [text for text in consumed if text.strip() and command_of(text) is None]
    refusals = len(re.findall(rf"P{seat}> (?:cannot read that move: |refused: )", out))
    accepted = sum(1 for entry in json.loads(record.read_text())["moves"] if entry["player"] == seat)
    event(f"{'some' if accepted else 'no'} moves accepted, {'some' if refusals else 'no'} refused")
    assert refusals + accepted == len(asked), "each move typed is played or answered with one refusal"


def test_human_input_that_is_not_utf8_is_one_error_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"?\n\xff\xfe garbage\n"), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), mock.patch.object(sys, "stdin", stdin):
        code = main(["play", "manhattan", "--seed", "1", "--human", "0"])
    assert code == 2 and err.getvalue() == "citybuild: error: standard input is not UTF-8 text\n"
