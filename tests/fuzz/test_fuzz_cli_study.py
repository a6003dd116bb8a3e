"""Fuzzing of ``citybuild study`` command lines, in-process, with the contract of
``test_fuzz_cli``: never a traceback; success exits 0 with nothing on stderr; a user mistake exits
2 with one short error line.

Studies stay tiny: one or two games per cell, ``--jobs 1`` when valid (the games are played in
this process), one-round games for single-game studies, random players only when several games
(at full length) are studied, results in a fresh folder under the test's temporary directory,
and reports (a second each, for the plots) only now and then. ``--dask`` is left out: an
unreachable scheduler takes 20 seconds to give up."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

import pytest
from fuzz_support import fuzz_settings, mutated
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
    real_options,
    run_cli,
)
from test_fuzz_cli_more import GAMES, MALFORMED_BOTS, PLAYED_BOTS, SHORT, bot_texts, cheap, clean_or_mostly

from citybuild.core.registry import spec
from extras_support import importorskip_extra

importorskip_extra("study")

small_bad = st.sampled_from(("0", "-1", "x", "", " 1", "1.0", "1" * 5000, "\u0661", "1_0"))


@st.composite
def study_argv(draw: st.DrawFn, files: Files) -> list[str]:
    base: Path = files["base"]
    pick = clean_or_mostly(draw)
    several = draw(st.integers(0, 4)) == 0
    names = draw(st.lists(st.sampled_from(GAMES), min_size=2, max_size=3, unique=True)) if several else []
    game = draw(st.sampled_from(GAMES))
    argv = ["study", *(names or [draw(pick(st.just(game), bad_game_names | st.just("all")))])]
    presets = sorted(spec(game).presets)
    if draw(st.integers(0, 2)) == 0:
        listed = st.lists(st.sampled_from(presets), min_size=1, max_size=2, unique=True).map(",".join)
        argv += ["--presets", draw(pick(listed, bad_presets | st.sampled_from(("standard,", ",", "all,x"))))]
    if draw(st.integers(0, 3)) == 0:
        options = st.sampled_from(real_options(game)).map(lambda pair: json.dumps({pair[0]: json.loads(pair[1])}))
        good = st.sampled_from(presets) | st.tuples(st.sampled_from(presets), options).map(":".join)
        bad = st.one_of(
            bad_presets,
            st.sampled_from((":{}", "standard:{", "standard:[]", 'standard:{"x": 1}', "standard:null", ":")),
            st.sampled_from(NESTED).map(lambda text: "standard:" + text),
            good.flatmap(mutated),
        )
        argv += ["--variant", draw(pick(good, bad))]
    if not names:
        pairs = pick(st.sampled_from(real_options(game)), st.tuples(bad_option_names, bad_option_values))
        for name, value in draw(st.lists(pairs, max_size=2)):
            argv += ["--option", f"{name}={value}"]
        argv += ["--option", SHORT[game]]  # last, so that it wins: every game played is one round
    if draw(st.booleans()):
        counts = st.lists(st.integers(spec(game).min_players, spec(game).max_players), min_size=1, max_size=2)
        good_counts = counts.map(lambda ns: ",".join(map(str, ns))) | st.just("all")
        argv += ["--players", draw(pick(good_counts, bad_integers | st.sampled_from((",,", "2,,3", "2,99", "2, 3"))))]
    played = st.just("random") if names else st.sampled_from(PLAYED_BOTS)
    lineup = st.lists(played, min_size=1, max_size=3).map(",".join)
    for _ in range(draw(st.integers(0, 2))):
        argv += ["--bots", draw(pick(lineup, st.sampled_from(MALFORMED_BOTS) | bot_texts))]
    argv += ["--games", draw(pick(st.sampled_from(("1", "2")), small_bad))]
    argv += ["--jobs", draw(pick(st.just("1"), small_bad))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--seed", draw(pick(st.integers(0, 10**6).map(str), bad_integers))]
    if draw(st.integers(0, 3)) == 0:
        argv += ["--chunk", draw(pick(st.sampled_from(("1", "2", "1000")), small_bad))]
    if draw(st.booleans()):
        fresh = st.builds(lambda: tempfile.mkdtemp(dir=base))
        argv += ["--out", draw(pick(fresh, st.sampled_from(sorted(files["paths"].values()))))]
    if draw(st.integers(0, 9)) == 0:
        good_report = st.sampled_from(("r.md", "r.html")).map(lambda name: str(base / name))
        argv += ["--report", draw(pick(good_report, st.sampled_from((*files["paths"].values(), "r.txt", "r"))))]
    if draw(st.integers(0, 4)) == 0:
        argv += ["--title", draw(st.text(max_size=20) | st.sampled_from(("[/b]", "<script>", "\udcff", "x" * 5000)))]
    return argv + (["--quiet"] if draw(st.booleans()) else [])


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    """The paths the fuzzer writes results and reports to, or points at."""
    base = tmp_path_factory.mktemp("cli_study")
    (base / "a file").write_text("not a folder")
    (base / "[").mkdir()
    paths = {
        "a file": str(base / "a file"),
        "missing dir": str(base / "no" / "such" / "dir"),
        "directory": str(base),
        "nul": str(base / "a\x00b"),
        "empty": "",
        "not utf-8": str(base / "\udcff\udcfe.md"),
        "markup": str(base / "[" / "b].md"),
    }
    return Files(paths=paths, base=base)


@fuzz_settings(60)
@given(data=st.data())
def test_fuzzed_study_command_lines_never_print_a_traceback(files: Files, data: st.DataObject) -> None:
    argv = data.draw(study_argv(files))
    lineups = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--bots"]
    assume(all(cheap(text.strip()) for lineup in lineups for text in lineup.split(",")))
    with contextlib.chdir(files["base"]):  # a relative report is written here
        code, out, err = run_cli(argv)
    event(f"study exits {code}")
    event(f"study: {err.splitlines()[-1].removeprefix('citybuild: error: ')[:25]!r}" if code else "study played")
    if code == 0 and "--quiet" not in argv:  # the progress bar is drawn on stderr, by design (stdout can be piped)
        assert all(line.startswith("games ") for line in err.splitlines()), err[:300]
        err = ""
    assert_clean(code, out, err)
    if code == 0 and "--quiet" not in argv:
        assert out.startswith("study: ")
