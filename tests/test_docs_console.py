"""Every console transcript in docs/ and README.md is run and compared with what it shows, like the
Python examples: in a ```console block, a line ``$ citybuild ...`` is a command and the lines up to
the next ``$`` are its output (stdout and stderr as a terminal shows them). A line ``...`` stands
for any number of lines, ``...`` inside a line for any text. A line ``P0> text`` in the output of a
``--human`` game is the prompt with what was typed: ``text`` is fed to the game as input. The
commands of one page run in order, in one fresh directory, so a file one writes another can read.
A block right after a line ``<!-- requires: study -->`` needs those extras of citybuild: where one is
missing, its commands are not run, and once the rest of the page has passed the page's test skips,
naming the extra. Blocks of other kinds (```sh, ```text) are not transcripts and are not run."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from citybuild.cli import main
from extras_support import missing, reason

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
CONSOLE = re.compile(r"(?:^<!-- requires: ([\w, -]+) -->\n)?^```console[^\n]*\n(.*?)^```", re.S | re.M)
PROMPT = re.compile(r"^(P\d+> )(.*)$")


def transcripts(text: str) -> Iterator[tuple[str, list[str], tuple[str, ...]]]:
    """(command, expected output lines, extras it needs) for every ``$`` command of every console block."""
    for requires, block in CONSOLE.findall(text):
        extras = tuple(requires.replace(",", " ").split())
        command: str | None = None
        lines: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    yield command, lines, extras
                command, lines = line[2:], []
            elif command is not None:
                lines.append(line)
        if command is not None:
            yield command, lines, extras


def run(command: str, inputs: list[str]) -> list[str]:
    argv = shlex.split(command)
    assert argv[0] == "citybuild", f"a documented console command runs citybuild: {command!r}"
    screen = io.StringIO()
    answers = iter(inputs)

    def typed(prompt: str = "") -> str:
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        screen.write(f"{prompt}{answer}\n")  # a terminal echoes what is typed
        return answer

    with (
        contextlib.redirect_stdout(screen),
        contextlib.redirect_stderr(screen),
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setattr("builtins.input", typed)
        main(argv[1:])
    return screen.getvalue().splitlines()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected``, where a line ``...`` is any lines and ``...`` in a line
    any text (matched by backtracking over the lines)."""

    def line_fits(pattern: str, line: str) -> bool:
        regex = ".*?".join(re.escape(part) for part in pattern.split("..."))
        return re.fullmatch(regex, line.rstrip()) is not None

    memo: dict[tuple[int, int], bool] = {}

    def fit(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(expected):
                memo[i, j] = j == len(actual)
            elif expected[i].strip() == "...":
                memo[i, j] = any(fit(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                memo[i, j] = j < len(actual) and line_fits(expected[i], actual[j]) and fit(i + 1, j + 1)
        return memo[i, j]

    return fit(0, 0)


PAGES_WITH_TRANSCRIPTS = [page for page in PAGES if list(transcripts(page.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", PAGES_WITH_TRANSCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_console_transcripts(page: Path, tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    not_run: set[str] = set()
    try:
        for command, expected, extras in transcripts(page.read_text(encoding="utf-8")):
            absent = [extra for extra in extras if missing(extra)]
            if absent:
                not_run.update(absent)
                continue
            inputs = [m.group(2) for m in map(PROMPT.match, expected) if m]
            actual = run(command, inputs)
            shown = "\n".join(actual)
            assert matches(expected, actual), (
                f"$ {command}\n--- the docs show:\n" + "\n".join(expected) + (f"\n--- it prints:\n{shown}")
            )
    finally:
        os.chdir(here)
    if not_run:
        pytest.skip("; ".join(f"some of its transcripts need {reason(extra)}" for extra in sorted(not_run)))


def test_the_command_line_page_has_transcripts() -> None:
    page = ROOT / "docs" / "guide" / "command-line.md"
    commands = [command.split()[1] for command, _, _ in transcripts(page.read_text(encoding="utf-8"))]
    assert {"play", "check", "rules", "show"} <= set(commands)


def test_matching() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a ... z"], ["a to z"]) and not matches(["a ... z"], ["a to y"])
    assert not matches(["a"], ["a", "b"]) and matches(["...", "b"], ["a", "b"])


def test_a_block_can_name_the_extras_it_needs() -> None:
    page = "```console\n$ citybuild a\nx\n```\n<!-- requires: study, server -->\n```console\n$ citybuild b\n```\n"
    assert list(transcripts(page)) == [("citybuild a", ["x"], ()), ("citybuild b", [], ("study", "server"))]
