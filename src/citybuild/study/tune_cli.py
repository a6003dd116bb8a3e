"""``citybuild tune``: the command line of a tune.

    citybuild tune skyline --players 2 --bots greedy --vary yard_take=1..6 --vary blue_min_height=2,3,4 \\
        --budget 2000 --seed 1 --out tune/ --report tune.html

``citybuild.cli`` adds this subcommand with ``add_parser`` and runs it with ``command``; the
tune's machinery (and the study extra) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from citybuild.core.errors import RulesError
from citybuild.core.registry import games as registered_games

HELP = "search rule options for the fairest, most decisive variant, dropping the clearly worse as games come in"


def add_parser(sub: Any, integer: Callable[[str], int]) -> argparse.ArgumentParser:
    """Add ``tune`` to the ``citybuild`` command's subparsers (``integer`` reads integer arguments)."""
    tune = sub.add_parser(
        "tune",
        help=HELP,
        description=f"{HELP[0].upper()}{HELP[1:]}. Every game is reproducible from the seed, its variant and its "
        "index; a tune stopped and run again with the same --out plays only the games missing and names the same "
        "variant.",
    )
    tune.add_argument("game", metavar="GAME", help=f"the game to tune ({', '.join(registered_games())})")
    tune.add_argument("--preset", default="standard", help="the rules the options are varied from (default: standard)")
    tune.add_argument("--players", type=integer, metavar="N", help="the player count (default: the game's)")
    tune.add_argument(
        "--bots",
        default="greedy",
        metavar="LINEUP",
        help="one bot for every seat (greedy, random, ismcts:200) or one per seat, comma-separated (default: greedy)",
    )
    tune.add_argument(
        "--vary",
        action="append",
        default=[],
        required=True,
        metavar="NAME=VALUES",
        help="an option to search: NAME=V1,V2,... (choices) or NAME=LO..HI (integers, refined around the best); "
        "a dict option by key, e.g. tile_counts.4=12..24; repeat for several",
    )
    tune.add_argument("--budget", type=integer, default=2000, metavar="GAMES", help="the most games to play (2000)")
    tune.add_argument("--first", type=integer, default=20, metavar="N", help="games per candidate in round 1 (20)")
    tune.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="NAME=W",
        help="a weight of the combined score: fairness, shared, moves, rounds or margin (defaults: fairness 1, "
        "shared 1, moves 0.1, margin 0.1)",
    )
    tune.add_argument("--seed", type=integer, metavar="N", help="the tune's seed (default: the --out folder's, else 0)")
    tune.add_argument(
        "--jobs", type=integer, metavar="N", help="local processes, or Dask local workers (default: one per core)"
    )
    tune.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler, or 'local' for a local cluster")
    tune.add_argument("--out", metavar="DIR", help="results folder (a study's Parquet); resumes the tune it holds")
    tune.add_argument(
        "--report", action="append", default=[], metavar="FILE", help="write a report: FILE.html or FILE.md"
    )
    tune.add_argument("--title", default="Tune report", help="the report's title")
    tune.add_argument("--quiet", action="store_true", help="print only the recommended options")
    return tune  # type: ignore[no-any-return]


def weights(pairs: list[str]) -> dict[str, float]:
    """``NAME=W`` pairs as the score's weights (checked by ``check_weights``)."""
    out: dict[str, float] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        try:
            value = float(text)
        except ValueError:
            value = None
        if not eq or not name or value is None:
            raise RulesError(f"--weight expects NAME=NUMBER, got {pair!r}")
        out[name] = value
    return out


def command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``citybuild tune`` with parsed arguments; return the exit status."""
    from citybuild.study.cli import check_reports
    from citybuild.study.extra import need
    from citybuild.study.search import search
    from citybuild.study.space import parse_vary, space
    from citybuild.study.store import read_manifest
    from citybuild.study.tune_report import write
    from citybuild.userfiles import is_dir

    stream = out or sys.stdout
    if args.out == "":
        raise RulesError("--out: the folder name is empty")
    for module in ("pyarrow.parquet", "matplotlib", *(("distributed",) if args.dask else ())):
        need(module)
    seed = args.seed
    if seed is None:
        manifest = read_manifest(Path(args.out)) if args.out and is_dir(args.out) else None
        seed = manifest["seed"] if manifest is not None else 0
    dimensions = [parse_vary(text) for text in args.vary]
    check_reports(args.report)
    if not args.quiet:  # before the games: the options it will not search
        for name, why in space(args.game, args.preset, dimensions).inert.items():
            print(f"not searched: {name} ({why})", file=stream)
    result = search(
        args.game,
        dimensions,
        preset=args.preset,
        players=args.players,
        bots=args.bots,
        budget=args.budget,
        first=args.first,
        seed=seed,
        weights=weights(args.weight),
        out=args.out,
        jobs=args.jobs,
        dask=args.dask,
        progress=None if args.quiet else _bar(),
    )
    best = result.recommended
    if not args.quiet:
        print(
            f"tune: {len(result.entries)} candidates, {result.games:,} games in {len(result.rounds)} rounds; "
            f"{result.stopped}",
            file=stream,
        )
        o = best.objectives
        print(
            f"recommended: {best.label} ({best.games:,} games): score {o.score.value:.3f} "
            f"({o.score.low:.3f} to {o.score.high:.3f}), largest seat gap {100 * o.fairness.value:.1f}% "
            f"({100 * o.fairness.low:.1f} to {100 * o.fairness.high:.1f}), shared wins {100 * o.shared.value:.1f}%, "
            f"{o.moves.value:.1f} moves",
            file=stream,
        )
    lines = result.option_lines()
    print(" ".join(lines) if lines else "the preset as it is", file=stream)
    note = f"Made by {command_line(args, seed)} (the same games with any --jobs or --dask)."
    for path in args.report:
        for written in write(result, path, title=args.title, note=note):
            if not args.quiet:
                print(f"wrote {written}", file=stream)
    return 0


def _bar() -> Any:
    """A progress bar on stderr, drawn afresh for each round's games."""
    from citybuild.study.progress import Bar

    return Bar(description="round")


def command_line(args: argparse.Namespace, seed: int) -> str:
    """The command that plays this tune's games again."""
    parts = ["citybuild", "tune", args.game, "--preset", args.preset]
    if args.players is not None:
        parts += ["--players", str(args.players)]
    parts += ["--bots", args.bots, *(item for text in args.vary for item in ("--vary", text))]
    parts += [item for text in args.weight for item in ("--weight", text)]
    parts += ["--budget", str(args.budget), "--first", str(args.first), "--seed", str(seed)]
    return shlex.join(parts)
