"""Random playouts side by side with another revision of citybuild, in the same run.

    python benchmarks/bench_against.py a6375da            # the figures in the notes
    python benchmarks/bench_against.py --quick            # CI's smoke run: this side's probes only
    python benchmarks/bench_against.py v0.3 --rows skyline:standard:2
    python benchmarks/bench_against.py a6375da --together --rounds 9   # both sides at once
    python benchmarks/bench_against.py 7762b9a --json     # JSON round trips instead of playouts
    python benchmarks/bench_against.py a6375da --callgrind --rows skyline:standard:2 manhattan:standard:4
    python benchmarks/bench_against.py 7762b9a --json --callgrind --games 20   # their instructions

The other revision is exported from this repository's history (``git archive``) and installed
into its own virtual environment under ``benchmarks/.revisions/<commit>/`` (kept for the next
run). This side is whatever this interpreter imports (``PYTHONPATH=src`` for a checkout that is
not installed). Each row then runs, alternately, in that environment and in this one (the interpreter
running this script), several rounds each, so that both sides see the same machine load; a
figure is the median games per second of ``state.playout(rng)`` over the rounds, from the same
seeds on both sides. Both revisions must offer ``citybuild.core.registry.load`` and
``State.playout``.

``--together`` runs the two sides at the same time instead, each on a core of its own (the cores
swap every round), so that a change in the machine's speed from one minute to the next touches
both alike; a figure is then the median of the rounds' ratios. It needs two cores and nothing else
running.

``--callgrind`` counts machine instructions instead of timing (valgrind's callgrind, which gives
the same count whatever else the machine runs): each side plays ``--games`` and then three
times as many random games from a fresh interpreter, and a game's cost is the difference
divided by the extra games, so start-up and imports cancel out.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".revisions"

ROWS = ("skyline:standard:2", "skyline:standard:4", "manhattan:standard:4", "manhattan:standard:2")
"""game:preset:players, the rows measured unless ``--rows`` names others."""
JSON_ROWS = ("skyline:standard:2", "manhattan:standard:4", "urbanization:standard:3")
"""The rows ``--json`` measures: round trips of a mid-game state and of its first player's view."""

PROBE = r"""
import json, random, sys, time
from citybuild.core.registry import load
name, preset, players, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
game = load(name, players=players, preset=preset)
game.initial_state().playout(random.Random(-1))  # warm caches and imports outside the clock
rng = random.Random(0)
played = steps = 0
start = time.process_time()
while True:
    steps += game.initial_state().playout(rng)[1]
    played += 1
    elapsed = time.process_time() - start
    if elapsed >= seconds and played >= 3:
        break
print(json.dumps({"games": played / elapsed, "steps": steps / elapsed}))
"""


MID_GAME = r"""
import json, random, sys, time
import citybuild as cb
name, preset, players = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = cb.load(name, players=players, preset=preset).initial_state()
_, length = start.playout(random.Random(7))
state, rng = start, random.Random(7)
for _ in range(length // 2):
    state = state.random_step(rng)
values = (state, state.view(0))
"""
"""What both JSON probes round-trip: a mid-game state of the row and its first player's view."""

JSON_PROBE = (
    MID_GAME
    + r"""
seconds = float(sys.argv[4])
for value in values:
    assert cb.from_json(cb.to_json(value)) == value
done = 0
begin = time.process_time()
while True:
    for value in values:
        cb.from_json(cb.to_json(value))
    done += 1
    elapsed = time.process_time() - begin
    if elapsed >= seconds and done >= 3:
        break
print(json.dumps({"games": done / elapsed, "steps": 2 * done / elapsed}))
"""
)


CALLGRIND_PROBE = r"""
import random, sys
from citybuild.core.registry import load
name, preset, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
game = load(name, players=players, preset=preset)
rng = random.Random(0)
for _ in range(games):
    game.initial_state().playout(rng)
"""

CALLGRIND_JSON_PROBE = (
    MID_GAME
    + r"""
for _ in range(int(sys.argv[4])):
    for value in values:
        cb.from_json(cb.to_json(value))
"""
)


def instructions(
    python: Path | str, row: str, games: int, env: dict[str, str] | None = None, probe: str = CALLGRIND_PROBE
) -> int:
    """Machine instructions callgrind counts for one interpreter running ``probe`` ``games`` times on ``row``."""
    name, preset, players = row.split(":")
    run_env = dict(os.environ if env is None else env, PYTHONHASHSEED="0")  # the same hashes each run
    if run_env.get("PYTHONPATH"):  # it runs from /, so a relative PYTHONPATH=src is made absolute
        paths = run_env["PYTHONPATH"].split(os.pathsep)
        run_env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(python), "-c", probe]
    done = subprocess.run(
        [*command, name, preset, players, str(games)],
        cwd="/",
        env=run_env,
        check=True,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output: {done.stderr[-500:]}")
    return int(found.group(1))


def per_game(
    python: Path | str, row: str, games: int, env: dict[str, str] | None = None, probe: str = CALLGRIND_PROBE
) -> float:
    """Instructions a game (or round trip): the count for ``3 * games`` less that for ``games``, per extra one."""
    more, fewer = instructions(python, row, 3 * games, env, probe), instructions(python, row, games, env, probe)
    return (more - fewer) / (2 * games)


def install(revision: str) -> Path:
    """The interpreter of a virtual environment holding ``revision`` (built once, then reused)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()
    home = CACHE / commit
    python = home / "venv" / "bin" / "python"
    if python.exists():
        return python
    source = home / "source"
    source.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", commit], cwd=REPO, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    venv.create(home / "venv", with_pip=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(source)], check=True)
    return python


def start(
    python: Path | str, row: str, seconds: float, env: dict[str, str] | None, probe: str, core: int | None = None
) -> subprocess.Popen[str]:
    """One run of ``probe`` on ``row``, started (on ``core`` alone when one is named)."""
    name, preset, players = row.split(":")
    return subprocess.Popen(
        [str(python), "-c", probe, name, preset, players, str(seconds)],
        cwd="/",  # so that neither side imports a checkout's source by accident
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=None if core is None else lambda: os.sched_setaffinity(0, {core}),
    )


def result_of(run: subprocess.Popen[str]) -> dict[str, float]:
    """What a started run printed, once it has finished."""
    out, _ = run.communicate()
    if run.returncode:
        raise subprocess.CalledProcessError(run.returncode, run.args)
    result: dict[str, float] = json.loads(out)
    return result


def measure(
    python: Path | str, row: str, seconds: float, env: dict[str, str] | None = None, probe: str = PROBE
) -> dict[str, float]:
    return result_of(start(python, row, seconds, env, probe))


def together(old: Path, row: str, seconds: float, env: dict[str, str], probe: str, swap: bool) -> tuple[float, float]:
    """Both sides at once, each on a core of its own (``swap`` exchanges the cores): (old, this)."""
    cores = sorted(os.sched_getaffinity(0))[:2]
    if len(cores) < 2:
        raise SystemExit("--together needs two cores")
    first, second = reversed(cores) if swap else cores
    runs = start(old, row, seconds, env, probe, first), start(sys.executable, row, seconds, None, probe, second)
    return result_of(runs[0])["games"], result_of(runs[1])["games"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", nargs="?", help="a commit, tag or branch of this repository")
    parser.add_argument("--rows", nargs="+", default=list(ROWS), metavar="GAME:PRESET:PLAYERS")
    parser.add_argument("--rounds", type=int, default=5, help="runs per side and row (median)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per run")
    parser.add_argument("--quick", action="store_true", help="one short round per side")
    parser.add_argument("--json", action="store_true", help="JSON round trips of a mid-game state and view")
    parser.add_argument("--together", action="store_true", help="both sides at once, a core each")
    parser.add_argument("--callgrind", action="store_true", help="instructions a game under valgrind's callgrind")
    parser.add_argument("--games", type=int, default=50, help="with --callgrind: games of the shorter run")
    args = parser.parse_args(argv)
    rounds, seconds = (1, 0.3) if args.quick else (args.rounds, args.seconds)
    rows = list(JSON_ROWS) if args.json and args.rows == list(ROWS) else args.rows
    probe, what = (JSON_PROBE, "JSON round trips/s (state and view)") if args.json else (PROBE, "playout games/s")
    if args.revision is None:
        if not args.quick:
            parser.error("name the revision to compare with (a smoke run, --quick, may leave it out)")
        for row in rows:  # the smoke run of CI: each probe runs on this side, with no install
            print(
                f"{what}, this checkout only: {row} {measure(sys.executable, row, seconds, probe=probe)['games']:.1f}"
            )
        return 0
    old = install(args.revision)
    alone = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the old side sees only its own install
    if args.callgrind:
        counted = CALLGRIND_JSON_PROBE if args.json else CALLGRIND_PROBE
        unit = "round trip of a state and a view" if args.json else "game"
        print(f"callgrind instructions a {unit} (of {args.games} to {3 * args.games}): this checkout against")
        print(f"{args.revision}; ratio above 1 means this checkout is cheaper")
        print(f"{'row':<26} {args.revision:>12} {'this':>12} {'ratio':>7}")
        for row in rows:
            b = per_game(old, row, args.games, alone, counted)
            a = per_game(sys.executable, row, args.games, probe=counted)
            print(f"{row:<26} {b:12.0f} {a:12.0f} {b / a:6.2f}x", flush=True)
        return 0
    how = "runs at once, a core each; ratio: the median round's" if args.together else "alternating runs"
    print(f"{what}: this checkout against {args.revision} (median of {rounds} {how})")
    print(f"{'row':<26} {args.revision:>12} {'this':>12} {'ratio':>7}  {'lowest - highest round':>22}")
    for row in rows:
        before: list[float] = []
        after: list[float] = []
        for i in range(rounds):
            if args.together:
                b, a = together(old, row, seconds, alone, probe, swap=i % 2 == 1)
            else:
                b = measure(old, row, seconds, env=alone, probe=probe)["games"]
                a = measure(sys.executable, row, seconds, probe=probe)["games"]
            before.append(b)
            after.append(a)
        ratios = [a / b for b, a in zip(before, after, strict=True)]
        b, a = statistics.median(before), statistics.median(after)
        ratio = statistics.median(ratios) if args.together else a / b
        spread = f"{min(ratios):.2f}x - {max(ratios):.2f}x"
        print(f"{row:<26} {b:12.1f} {a:12.1f} {ratio:6.2f}x  {spread:>22}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
