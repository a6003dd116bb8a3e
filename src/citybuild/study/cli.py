"""``citybuild study``: the command line of variant studies.

    citybuild study manhattan --presets standard,four-rounds,all-pieces --players 3,4 --bots random \\
        --games 10000 --seed 5 --jobs 2 --out results/ --report report.html

``citybuild.cli`` adds this subcommand with ``add_parser`` and runs it with ``command``; this
module imports the study's machinery (and the extra's packages) only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from citybuild.core.errors import NotationError, RulesError
from citybuild.core.registry import games as registered_games
from citybuild.core.text import plural
from citybuild.study.cells import ALL, Cell, Plan, Variant, plan

if TYPE_CHECKING:
    import pyarrow as pa

HELP = "play many games of each rule set, player count and lineup of bots; a table and a report"


def add_parser(sub: Any, integer: Callable[[str], int]) -> argparse.ArgumentParser:
    """Add ``study`` to the ``citybuild`` command's subparsers (``integer`` reads integer arguments)."""
    study = sub.add_parser(
        "study",
        help=HELP,
        description=f"{HELP[0].upper()}{HELP[1:]}. Every game is reproducible from the study seed, its cell and "
        "its index; a study stopped and run again with the same --out plays only the games missing.",
    )
    names = registered_games()
    study.add_argument(
        "game", nargs="+", metavar="GAME", help=f"the games to study ({', '.join(names)}), or 'all' for every one"
    )
    study.add_argument("--presets", metavar="LIST", help="presets, comma-separated, or 'all' (default: standard)")
    study.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="PRESET:JSON",
        help='a further rule set: a preset and rule overrides, e.g. standard:{"rounds":"until_supply_empty"}',
    )
    study.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="override a rule option in every cell"
    )
    study.add_argument(
        "--players", metavar="LIST", help="player counts, comma-separated, or 'all' (default: each game's)"
    )
    study.add_argument(
        "--bots",
        action="append",
        metavar="LINEUP",
        help="a lineup: one bot for every seat (a level: easy, normal, hard; or random, greedy, ismcts:200) "
        "or one per seat, comma-separated, "
        "the last filling the remaining seats; repeat for several lineups (default: random)",
    )
    study.add_argument("--games", type=integer, default=1000, metavar="N", help="games per cell (default: 1000)")
    study.add_argument("--seed", type=integer, metavar="N", help="the study seed (default: the --out folder's, else 0)")
    study.add_argument(
        "--jobs", type=integer, metavar="N", help="local processes, or Dask local workers (default: one per core)"
    )
    study.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler, or 'local' for a local cluster")
    study.add_argument(
        "--chunk", type=integer, metavar="N", help="games per chunk sent to a worker (default: sized to the workers)"
    )
    study.add_argument("--out", metavar="DIR", help="results folder (Parquet); resumes the study it holds")
    study.add_argument(
        "--report", action="append", default=[], metavar="FILE", help="write a report: FILE.html or FILE.md"
    )
    study.add_argument("--title", default="Study report", help="the report's title")
    study.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    return study  # type: ignore[no-any-return]


def command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``citybuild study`` with parsed arguments; return the exit status."""
    from citybuild.study.extra import need
    from citybuild.study.report import write
    from citybuild.study.runner import default_jobs, run
    from citybuild.study.store import Store, read_manifest
    from citybuild.userfiles import is_dir

    stream = out or sys.stdout
    if args.out == "":  # an unset shell variable, most likely: the results would land in the current folder
        raise RulesError("--out: the folder name is empty")
    for module in ("pyarrow.parquet", *(("distributed",) if args.dask else ())):
        need(module)  # the extra, checked before the header (a missing package is one line, not a traceback)
    seed = args.seed
    if seed is None:
        manifest = read_manifest(Path(args.out)) if args.out and is_dir(args.out) else None
        seed = manifest["seed"] if manifest is not None else 0
    grid = build_plan(args, seed)
    check_reports(args.report)
    if args.out is not None:
        Store(args.out, seed).record(grid)  # the folder made and its seed checked before anything is printed
    jobs = args.jobs or default_jobs()
    where = f"Dask {args.dask}" if args.dask else f"{jobs} local process{'es' if jobs > 1 else ''}"
    if not args.quiet:
        print(
            f"study: {plural(len(grid.cells), 'cell')} x {grid.games:,} {'game' if grid.games == 1 else 'games'} = "
            f"{grid.total:,} {'game' if grid.total == 1 else 'games'}, seed {seed}, {where}"
            + (f", results in {args.out}" if args.out else ""),
            file=stream,
        )
    bar = None
    if not args.quiet:
        from citybuild.study.progress import Bar

        bar = Bar()
    table = run(grid, out=args.out, jobs=args.jobs, dask=args.dask, chunk=args.chunk, progress=bar)
    if not args.quiet:
        print(summary(table), file=stream)
    note = f"Made by {command_line(args, seed)} (the same results with any --jobs, --dask or --chunk)."
    for path in args.report:
        for written in write(table, path, title=args.title, note=note):
            if not args.quiet:
                print(f"wrote {written}", file=stream)
    return 0


def check_reports(paths: list[str]) -> None:
    """Refuse a report that cannot be written before the games are played, not after them: a
    format other than HTML or Markdown, a directory, a folder that does not exist."""
    from citybuild.study.report import check_path
    from citybuild.userfiles import writable

    for path in paths:
        check_path(path)
        writable(path)


def command_line(args: argparse.Namespace, seed: int) -> str:
    """The command that plays this study's games again (how it ran does not change them)."""
    parts = ["citybuild", "study", *args.game]
    for flag, value in (("--presets", args.presets), ("--players", args.players)):
        if value is not None:
            parts += [flag, value]
    parts += [item for text in args.variant for item in ("--variant", text)]
    parts += [item for text in args.option for item in ("--option", text)]
    parts += [item for text in args.bots or ["random"] for item in ("--bots", text)]
    parts += ["--games", str(args.games), "--seed", str(seed)]
    return shlex.join(parts)


def build_plan(args: argparse.Namespace, seed: int) -> Plan:
    """The study's grid from the command's arguments (options read as ``citybuild play`` reads
    them, typed by each game's rules)."""
    from citybuild.cli.options import rule_options
    from citybuild.userfiles import UserError

    names = registered_games() if ALL in args.game else tuple(dict.fromkeys(args.game))
    presets: Sequence[str] = _list(args.presets) if args.presets else (() if args.variant else ("standard",))
    players = None if args.players is None else ALL if args.players == ALL else _counts(args.players)
    cells: list[Cell] = []
    for name in names:
        base = presets[0] if presets and presets[0] != ALL else "standard"
        options = rule_options(name, base, args.option) if args.option else {}
        variants = [_variant(name, text, args.option) for text in args.variant]
        try:
            grid = plan(
                name,
                presets=presets,
                variants=variants,
                options=options,
                players=players,
                bots=args.bots or ["random"],
                games=args.games,
                seed=seed,
            )
        except NotationError as exc:
            raise UserError(str(exc)) from None
        cells.extend(grid.cells)
    return Plan(tuple(dict.fromkeys(cells)), args.games, seed)


def _list(text: str) -> list[str]:
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise RulesError(f"expected a comma-separated list, got {text!r}")
    return items


def _counts(text: str) -> list[int]:
    from citybuild.cli.options import integer
    from citybuild.userfiles import UserError

    try:
        return [integer(item) for item in _list(text)]
    except argparse.ArgumentTypeError as exc:
        raise UserError(f"--players: {exc}") from None


def _variant(game: str, text: str, common: list[str]) -> Variant:
    """``PRESET`` or ``PRESET:{json object of options}``, with the common ``--option``s first."""
    from citybuild.cli.options import rule_options
    from citybuild.serialize import structure_options
    from citybuild.userfiles import UserError

    preset, colon, rest = text.partition(":")
    options = rule_options(game, preset, common) if common else {}
    if colon:
        try:
            raw = json.loads(rest)
        except (ValueError, RecursionError):
            raise UserError(f"--variant {text!r}: the options after the colon are not a JSON object") from None
        try:
            options.update(structure_options(game, preset, raw, "--variant"))
        except NotationError as exc:
            raise UserError(f"--variant {text!r}: {exc}") from None
    return Variant(preset, options)


def summary(table: pa.Table) -> str:
    """The cells side by side as text: games, each seat's win rate, tie-breaks, moves."""
    from citybuild.study.report import comparison
    from citybuild.study.stats import summarise

    stats = summarise(table)
    if not stats:
        return "no games"
    compared = comparison(stats)
    keep = [i for i, name in enumerate(compared.header) if name not in ("winning score", "margin")]
    rows = [tuple(compared.header[i] for i in keep), *(tuple(row[i] for i in keep) for row in compared.rows)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(keep))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)
