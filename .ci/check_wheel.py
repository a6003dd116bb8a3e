"""CI: the installed wheel alone is a working library. Run with the wheel's own Python from a folder
outside the checkout, so that nothing of the source tree can be imported: it plays a game of each
title through the installed ``citybuild`` script, prints a rule, and finds the package data that a
wheel can silently leave out (the rules, Urbanization's data, the server's browser client)."""

from __future__ import annotations

import importlib.resources
import subprocess
import sys
from pathlib import Path

import citybuild

SCRIPT = Path(sys.executable).with_name("citybuild")


def run(*argv: str) -> str:
    done = subprocess.run([str(SCRIPT), *argv], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"citybuild {' '.join(argv)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def main() -> None:
    where = Path(citybuild.__file__).resolve()
    assert "site-packages" in where.parts, f"citybuild was imported from {where}, not from the wheel"
    for game in citybuild.games():
        out = run("play", game, "--players", "2", "--seed", "1", "--bots", "greedy")
        assert "winners:" in out, f"{game}: no winner printed:\n{out[-2000:]}"
        print(f"{game}: {out.strip().splitlines()[-1]}")
    rule = run("rules", "manhattan", "MAN-BUILD-4")
    assert "MAN-BUILD-4" in rule, rule
    print(f"rules: {rule.strip().splitlines()[0][:100]}")
    package = importlib.resources.files("citybuild")
    wanted = ["server/client/index.html", "server/client/client.js", "py.typed"]
    wanted += [f"rulebook/{game}.md" for game in citybuild.games()]
    wanted += ["games/urbanization/data/cards.json", "games/urbanization/data/characters.json"]
    absent = [name for name in wanted if not (package / name).is_file()]
    assert not absent, f"the wheel lacks {absent}"
    print(f"package data: {len(wanted)} files present")


if __name__ == "__main__":
    main()
