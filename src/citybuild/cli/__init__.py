"""The ``citybuild`` command: play a game at the terminal (against bots, or bots among themselves),
pit bots against each other in an arena, referee a saved record, list rules, benchmark, serve games
over HTTP (`serve`, the [server] extra).

Every user error (unknown game, bad preset or option, unreadable file or JSON, illegal move in a
record) prints one line to stderr and exits with status 2; there is never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from citybuild import __version__
from citybuild.cli.limits import add_limit_flags
from citybuild.cli.options import integer
from citybuild.cli.play import arena_command, play_command
from citybuild.cli.records import check_command, show_command
from citybuild.cli.rules import bench_command, rules_command, serve_command
from citybuild.core.errors import CitybuildError
from citybuild.core.registry import games, spec
from citybuild.study import cli as study_cli
from citybuild.study import tune_cli
from citybuild.userfiles import UserError

USAGE_ERROR = 2
PRESET_METAVAR = "PRESET"
"""How --preset is shown: one list for every game would offer presets the chosen game lacks."""
MESSAGE_LIMIT = 500
"""The longest error line printed (messages may quote what the user typed, which may be huge)."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its error line cut short and cleaned like ours (it quotes what was typed)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"{self.prog}: error: {_one_line(message)}\n")


def _parser() -> argparse.ArgumentParser:
    names = games()
    game_help = "the game: " + ", ".join(names)
    per_game = "; ".join(f"{name}: {', '.join(spec(name).presets)}" for name in names)
    preset_help = f"the game's preset (default: standard); each game has its own: {per_game}"
    parser = _Parser(
        prog="citybuild",
        description="Rules engine for city-building board games: " + ", ".join(names) + ".",
        epilog="'citybuild COMMAND --help' explains a command; 'citybuild rules GAME' lists a game's options.",
    )
    parser.add_argument("--version", action="version", version=f"citybuild {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    game_metavar = "{" + ",".join(names) + "}"

    def game_and_preset(command: argparse.ArgumentParser, what: str = "the game") -> None:
        command.add_argument("game", metavar=game_metavar, help=game_help.replace("the game", what, 1))
        command.add_argument("--preset", default="standard", metavar=PRESET_METAVAR, help=preset_help)

    _add_play(sub, game_and_preset)
    _add_arena(sub, game_and_preset)
    _add_records_and_rules(sub, game_and_preset)
    _add_show(sub, per_game)
    _add_bench(sub, game_and_preset)
    study_cli.add_parser(sub, integer)  # citybuild study: its own module (citybuild.study.cli)
    tune_cli.add_parser(sub, integer)  # citybuild tune: beside it (citybuild.study.tune_cli)
    _add_serve(sub)
    for action in sub._choices_actions:  # 'citybuild COMMAND --help' opens with what the command does
        command = sub.choices[action.dest]
        if command.description is None and action.help:
            command.description = f"{action.help[0].upper()}{action.help[1:]}."
    return parser


def _add_play(sub: Any, game_and_preset: Callable[..., None]) -> None:
    play = sub.add_parser("play", help="play a complete game between bots or random players (or against them)")
    game_and_preset(play, "the game to play")
    play.add_argument("--players", type=integer, metavar="N", help="number of players (default: the game's default)")
    play.add_argument("--seed", type=integer, help="seed of the match's generator (default: a fresh one, printed)")
    play.add_argument("--record", metavar="FILE", help="save the game record as JSON to FILE")
    play.add_argument(
        "--human", type=integer, metavar="SEAT", action="append", default=[], help="a seat you play (may be repeated)"
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule option (VALUE read as JSON when it is JSON; a dict may name only the keys it changes; "
        "'citybuild rules GAME' lists them)",
    )
    play.add_argument(
        "--bots",
        metavar="BOTS",
        help="the bot of every other seat (a level: easy, normal, hard; or e.g. greedy), or one per seat "
        "separated by commas (e.g. human,normal,ismcts:1000,random); default: uniformly random moves",
    )
    play.add_argument("--quiet", action="store_true", help="print only the final score")


def _add_arena(sub: Any, game_and_preset: Callable[..., None]) -> None:
    arena = sub.add_parser("arena", help="pit bots against each other, seats rotated")
    game_and_preset(arena, "the game to play")
    arena.add_argument(
        "--bots",
        required=True,
        metavar="BOTS",
        help="the bot of every seat (e.g. greedy), or one per seat separated by commas "
        "(e.g. hard,normal or ismcts:1000,greedy,random)",
    )
    arena.add_argument(
        "--players",
        type=integer,
        metavar="N",
        help="number of players (default: one per bot of a list; for one bot, the game's default)",
    )
    arena.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="override a rule option")
    arena.add_argument("--games", type=integer, default=200, metavar="N", help="games to play (default: 200)")
    arena.add_argument(
        "--jobs", type=integer, default=1, metavar="N", help="games played at once, in parallel processes"
    )
    arena.add_argument("--seed", type=integer, help="seed of the first game (game i uses seed + i); default: fresh")
    arena.add_argument("--json", metavar="FILE", help="write the table and every game's seed and result to FILE")


def _add_records_and_rules(sub: Any, game_and_preset: Callable[..., None]) -> None:
    check = sub.add_parser(
        "check",
        help="referee a saved game record",
        description="Referee a saved game record: replay every move and chance outcome under the record's "
        "rules, report the first illegal one (its index, who made it and why it is refused), and for a "
        "finished game verify the stated result and print the score sheet.",
    )
    check.add_argument("file", help="a game record (JSON, as 'play --record' writes)")

    rules = sub.add_parser(
        "rules", help="list a game's presets and every rule option, or print one rule of its reference by its ID"
    )
    game_and_preset(rules, "the game whose rules to list")
    rules.add_argument(
        "rule_id", nargs="?", metavar="RULE-ID", help="print this rule of the game's reference (e.g. MAN-BUILD-4)"
    )


def _add_show(sub: Any, per_game: str) -> None:
    show = sub.add_parser(
        "show",
        help="draw a position, a JSON state or view, or a record at a move as SVG (or a record as an HTML replay)",
    )
    show.add_argument("source", help="a JSON file (state, view or record), a file holding a position, or position text")
    show.add_argument(
        "--move",
        type=integer,
        metavar="N",
        help="a record's position after N moves (default: the end; negative: from the end, -1 the end); with --html, "
        "the position the page opens at",
    )
    show.add_argument("--player", type=integer, metavar="SEAT", help="draw what SEAT sees (their view)")
    show.add_argument("--html", action="store_true", help="write a self-contained HTML page stepping through a record")
    show.add_argument(
        "-o", "--output", metavar="FILE", help="where to write (default: beside the input file, else position.svg)"
    )
    show.add_argument("--size", type=integer, metavar="PX", help="width of the picture in pixels")
    show.add_argument("--orientation", type=integer, metavar="SEAT", help="the seat whose side is at the bottom")
    show.add_argument("--no-coordinates", action="store_true", help="leave out lot numbers and grid coordinates")
    show.add_argument(
        "--preset",
        default="standard",
        metavar=PRESET_METAVAR,
        help=f"the preset a position text is read under; {per_game}",
    )
    show.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option a position text is read under",
    )


def _add_bench(sub: Any, game_and_preset: Callable[..., None]) -> None:
    bench = sub.add_parser("bench", help="random-play benchmark: complete games and steps per second")
    game_and_preset(bench, "the game to benchmark")
    bench.add_argument("--players", type=integer, nargs="*", metavar="N", help="player counts (default: the default)")
    bench.add_argument("--games", type=integer, default=50, metavar="N", help="games per run (default: 50)")
    bench.add_argument("--runs", type=integer, default=5, metavar="N", help="runs; the median is shown (default: 5)")
    bench.add_argument("--api", action="store_true", help="the legal_moves + play loop beside playout, vs OpenSpiel")


def _add_serve(sub: Any) -> None:
    serve = sub.add_parser(
        "serve",
        help="run the game server: JSON API, bots and browser client (the [server] extra)",
        description="Run the game server: a JSON API to create and join matches and play moves, bots to fill "
        "seats, and a browser client at / . Matches are kept in a database (SQLite, or PostgreSQL for several "
        "workers), so a restarted server "
        'continues them. Needs the server extra: pip install ".[server]".',
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=integer, default=8000, help="port to listen on (default: 8000; 0: any free port)")
    serve.add_argument(
        "--database",
        "--db",
        dest="database",
        default="citybuild.sqlite",
        metavar="URL",
        help="a SQLite file (default: citybuild.sqlite) or postgresql://user@host/name (--db: the old name)",
    )
    serve.add_argument(
        "--workers", type=integer, default=1, metavar="N", help="worker processes (more than 1 needs PostgreSQL)"
    )
    serve.add_argument(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="normal: a killed server loses no answered move; full: nor does a power cut (an fsync per move)",
    )
    serve.add_argument(
        "--allow-seed",
        action="store_true",
        help="let match creators choose seeds (for tests: a known seed tells every deal)",
    )
    serve.add_argument(
        "--verbose",
        action="store_true",
        help="log each searching bot's processor time a decision too (on standard error)",
    )
    add_limit_flags(serve)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 user error)."""
    _line_buffered()
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage line
        return exc.code if isinstance(exc.code, int) else USAGE_ERROR
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "play": play_command,
        "arena": arena_command,
        "check": check_command,
        "rules": rules_command,
        "show": show_command,
        "bench": bench_command,
        "study": study_cli.command,
        "tune": tune_cli.command,
        "serve": serve_command,
    }
    try:
        return commands[args.command](args)
    except (CitybuildError, UserError) as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        return _error("interrupted")
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the interpreter from failing at exit
        return 1


def _line_buffered() -> None:
    """Output goes out line by line even when piped (a game watched through ``tee`` or read by
    another program shows each move as it is played, not in blocks of 8 KB), and what stdout's
    encoding cannot hold is written with backslashes rather than raising: a file name given in
    bytes that are not UTF-8 reaches Python as lone surrogates, and 'wrote <that name>' would
    otherwise end in a UnicodeEncodeError at a UTF-8 terminal (stderr already does this)."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed or unusual stream: leave it as it is
            reconfigure(line_buffering=True, errors="backslashreplace")


def _error(message: str) -> int:
    print(f"citybuild: error: {_one_line(message)}", file=sys.stderr)
    return USAGE_ERROR


def _one_line(message: str) -> str:
    """``message`` as one printable line (control characters escaped, so what the user typed can
    neither break the line nor drive the terminal), cut short if it quotes something huge."""
    line = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message[: MESSAGE_LIMIT * 2])
    if len(line) > MESSAGE_LIMIT or len(message) > MESSAGE_LIMIT * 2:
        line = f"{line[:MESSAGE_LIMIT]}... ({len(message)} characters)"
    return line
