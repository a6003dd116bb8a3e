"""The ``citybuild`` command: play a game at the terminal (against bots, or bots among themselves),
pit bots against each other in an arena, referee a saved record, list rules, benchmark, serve games
over HTTP (`serve`, the [server] extra).

Every user error (unknown game, bad preset or option, unreadable file or JSON, illegal move in a
record) prints one line to stderr and exits with status 2; there is never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from citybuild import __version__, rulebook
from citybuild.bots import Bot, bot_rng, from_text, label, step
from citybuild.core.errors import CitybuildError, IllegalMoveError, NotationError
from citybuild.core.game import State
from citybuild.core.registry import GameSpec, games, load, spec
from citybuild.core.text import article, plural
from citybuild.match import Match, replay
from citybuild.record import GameRecord
from citybuild.serialize import from_json, structure_options, to_json
from citybuild.study import cli as study_cli
from citybuild.terminal import HumanSeat, announce_lines
from citybuild.userfiles import UserError, is_file, read_text, writable, write_file

USAGE_ERROR = 2
MESSAGE_LIMIT = 500
"""The longest error line printed (messages may quote what the user typed, which may be huge)."""
OPTION_TEXT_LIMIT = 10_000
"""The longest ``--option`` value read (real ones are a few dozen characters)."""
INTEGER_DIGITS = 100
"""The most digits an integer argument may have (Python's own limit is 4300)."""
OPTION_DEPTH_LIMIT = 8
"""How deeply an ``--option`` value may nest (real ones are a dict of numbers or strings at most)."""
_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{INTEGER_DIGITS}}}")


class _Parser(argparse.ArgumentParser):
    """argparse, with its error line cut short and cleaned like ours (it quotes what was typed)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"{self.prog}: error: {_one_line(message)}\n")


def integer(text: str) -> int:
    """An integer argument in ASCII digits: ``int()`` alone reads '٣' as 3 and refuses 5000 digits
    with a ValueError that argparse reports without saying why."""
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected an integer of at most {INTEGER_DIGITS} ASCII digits, got {text!r}")
    return int(text)


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
    preset_metavar = "PRESET"  # one list for every game would offer presets the chosen game lacks

    def game_and_preset(command: argparse.ArgumentParser, what: str = "the game") -> None:
        command.add_argument("game", metavar=game_metavar, help=game_help.replace("the game", what, 1))
        command.add_argument("--preset", default="standard", metavar=preset_metavar, help=preset_help)

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
        help="the bot of every other seat (e.g. greedy), or one per seat separated by commas (e.g. "
        "human,greedy,ismcts:1000,random); default: uniformly random moves",
    )
    play.add_argument("--quiet", action="store_true", help="print only the final score")

    arena = sub.add_parser("arena", help="pit bots against each other, seats rotated")
    game_and_preset(arena, "the game to play")
    arena.add_argument(
        "--bots",
        required=True,
        metavar="BOTS",
        help="the bot of every seat (e.g. greedy), or one per seat separated by commas "
        "(e.g. ismcts:1000,greedy,random)",
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
        metavar=preset_metavar,
        help=f"the preset a position text is read under; {per_game}",
    )
    show.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option a position text is read under",
    )

    bench = sub.add_parser("bench", help="random-play benchmark: complete games and steps per second")
    game_and_preset(bench, "the game to benchmark")
    bench.add_argument("--players", type=integer, nargs="*", metavar="N", help="player counts (default: the default)")
    bench.add_argument("--games", type=integer, default=50, metavar="N", help="games per run (default: 50)")
    bench.add_argument("--runs", type=integer, default=5, metavar="N", help="runs; the median is shown (default: 5)")
    bench.add_argument("--api", action="store_true", help="the legal_moves + play loop beside playout, vs OpenSpiel")

    study_cli.add_parser(sub, integer)  # citybuild study: its own module (citybuild.study.cli)

    serve = sub.add_parser(
        "serve",
        help="run the game server: JSON API, bots and browser client (the [server] extra)",
        description="Run the game server: a JSON API to create and join matches and play moves, bots to fill "
        "seats, and a browser client at / . Matches are kept in a SQLite database, so a restarted server "
        'continues them. Needs the server extra: pip install ".[server]".',
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=integer, default=8000, help="port to listen on (default: 8000; 0: any free port)")
    serve.add_argument(
        "--db", default="citybuild.sqlite", metavar="FILE", help="the SQLite database (default: citybuild.sqlite)"
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
    for action in sub._choices_actions:  # 'citybuild COMMAND --help' opens with what the command does
        command = sub.choices[action.dest]
        if command.description is None and action.help:
            command.description = f"{action.help[0].upper()}{action.help[1:]}."
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 user error)."""
    _line_buffered()
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage line
        return exc.code if isinstance(exc.code, int) else USAGE_ERROR
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "play": _play,
        "arena": _arena,
        "check": _check,
        "rules": _rules,
        "show": _show,
        "bench": _bench,
        "study": study_cli.command,
        "serve": _serve,
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


# --- play ------------------------------------------------------------------------------------
def _options(game: str, preset: str, pairs: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs, each VALUE read as JSON when it is JSON (``4``, ``true``, ``{"2": 3}``)
    and as a plain string otherwise, then typed by the game's Rules class. The game and preset
    are checked first (their errors would otherwise come out as an option's)."""
    _preset(game, preset)
    raw: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise UserError(f"--option expects NAME=VALUE, got {pair!r}")
        raw[name] = _option_value(name, text)
    try:
        typed = structure_options(game, preset, raw, "--option")
    except NotationError as exc:
        where = (exc.where or "").removeprefix("--option.")
        message = str(exc).split(": ", 1)[-1]
        raise UserError(f"--option {where}: {message}") from None
    base = spec(game).presets[preset].options()
    for name, value in typed.items():
        if isinstance(value, dict) and isinstance(base.get(name), dict):
            typed[name] = {**base[name], **value}  # a partial dict changes only the keys it names
    return typed


def _option_value(name: str, text: str) -> Any:
    """``text`` read as JSON when it is JSON, else the string itself; a value too long or too deeply
    nested to be an option, or JSON that Python cannot hold (an integer of more than 4300 digits),
    is a ``UserError``."""
    if len(text) > OPTION_TEXT_LIMIT:
        raise UserError(f"--option {name}: the value is {len(text)} characters long; the limit is {OPTION_TEXT_LIMIT}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError:
        raise UserError(f"--option {name}: the value is nested too deeply") from None
    except ValueError as exc:  # an integer beyond Python's digit limit for str -> int
        raise UserError(f"--option {name}: the value is not readable JSON ({exc})") from None
    if _depth(value) > OPTION_DEPTH_LIMIT:
        raise UserError(f"--option {name}: the value is nested more than {OPTION_DEPTH_LIMIT} levels deep")
    return value


def _option_text(value: Any) -> str:
    """How ``--option`` spells ``value``: JSON, except a string that JSON would not read (``owner``
    rather than ``"owner"``)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value
    return json.dumps(value, separators=(",", ":"))


def _depth(value: Any) -> int:
    """How deeply a JSON value nests (0 for a number or string), found without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= OPTION_DEPTH_LIMIT:
                return depth + 1
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
            deepest = max(deepest, depth + 1)
    return deepest


def _seat_bots(spec: str | None, players: int, humans: list[int]) -> list[Bot | None]:
    """The bot of each seat (None: a human, or random moves from the match when ``--bots`` is
    not given): one bot text for every seat not played by a human, or one per seat."""
    if spec is None:
        return [None] * players
    texts = [t.strip() for t in spec.split(",")]
    if len(texts) == 1:
        texts = ["human" if seat in humans else texts[0] for seat in range(players)]
    elif len(texts) != players:
        raise UserError(f"--bots: give one bot for every seat or one per seat ({players}), not {len(texts)}")
    bots: list[Bot | None] = []
    for seat, text in enumerate(texts):
        if text == "human":
            if seat not in humans:
                humans.append(seat)
            bots.append(None)
        elif seat in humans:
            raise UserError(f"--bots names {text!r} for seat {seat}, which --human gives to you; write 'human' there")
        else:
            bots.append(from_text(text))
    return bots


def _play(args: argparse.Namespace) -> int:
    _preset(args.game, args.preset)
    if args.record is not None:
        writable(args.record)
    options = _options(args.game, args.preset, args.option)
    game = load(args.game, players=args.players, preset=args.preset, **options)
    seated: list[int] = list(args.human)
    for seat in seated:
        if not 0 <= seat < game.players:
            raise UserError(f"--human {seat}: seats are 0 to {game.players - 1}")
    bots = _seat_bots(args.bots, game.players, seated)  # adds the seats --bots gives to "human"
    match = Match(game, seed=args.seed)
    rngs = [bot_rng(match.seed, seat) for seat in range(game.players)]
    out = sys.stdout
    # With a human at the table, chance outcomes are not printed (a draw may be private), secret
    # choices show only that they were made, and humans act first among players who decide at once,
    # so they never see a simultaneous choice early. With several humans on one screen (hot seat),
    # the screen is handed over between them so that nobody sees another's hand.
    humans = frozenset(seated)
    private = game.spec.private_moves
    terminal = HumanSeat(match, out)
    if not args.quiet:
        seats = ", ".join(
            f"P{p} {'you' if p in humans else label(bot) if bot is not None else 'random'}"
            for p, bot in enumerate(bots)
        )
        print(f"{game.name} ({game.preset}), {game.players} players, seed {match.seed}", file=out)
        if args.bots is not None or humans:
            print(f"seats: {seats}", file=out)
        _print_steps(match, 0, out, humans)
    looking: int | None = None
    choosing: frozenset[int] = frozenset()  # players of a simultaneous choice who have not chosen yet
    while not match.state.is_over:
        state = match.state
        if not humans and args.bots is not None:
            shown = len(match.history)
            step(match, bots, rngs)  # exactly as the arena plays (citybuild.bots.play_game)
            if not args.quiet:
                _print_steps(match, shown, out, humans)
            continue
        for player in sorted(state.to_act, key=lambda p: p not in humans):
            if match.state is not state:
                break
            shown = len(match.history)
            if len(state.to_act) > 1:
                choosing = frozenset(state.to_act)
            elif not set(state.to_act) <= choosing:
                choosing = frozenset()
            secret = bool(humans) and player in choosing
            choosing = choosing - {player}
            if player in humans:
                if len(humans) > 1 and looking not in (None, player) and not _hand_over(player, out):
                    print("quit.", file=out)
                    _save(match, args.record, out)
                    return 0
                looking = player
                if not terminal.turn(player):
                    print("quit.", file=out)
                    _save(match, args.record, out)
                    return 0
            elif (bot := bots[player]) is None:
                match.play(match.random_move(player), player)
            else:
                match.play(bot.choose(state.view(player), rngs[player]), player)
            if not args.quiet:
                entries = match.history[shown:]
                if entries and entries[0].player is not None:
                    hide = secret or (bool(humans) and isinstance(entries[0].move, private))
                    if hide and (len(humans) > 1 or entries[0].player not in humans):
                        kind = str(entries[0].move).split()[0]
                        print(f"  P{entries[0].player:<5} {kind} (hidden)", file=out)
                        shown += 1
                _print_steps(match, shown, out, humans)
    print("final score:", file=out)
    print(str(match.state.scores()), file=out)
    _save(match, args.record, out)
    return 0


def _hand_over(player: int, out: TextIO) -> bool:
    """Hot seat: clear the screen and wait until ``player`` alone looks at it; False to quit."""
    if out.isatty():
        print("\033[2J\033[H", end="", file=out)
    else:
        print("\n" + "-" * 60, file=out)
    try:
        text = input(f"pass the screen to P{player}; P{player}, press Enter when only you can see it ")
    except EOFError:
        return False
    return text.strip() not in ("quit", "exit", "q")


def _print_steps(match: Match, start: int, out: TextIO, humans: frozenset[int]) -> None:
    """The steps of the match from ``start``: every one when no human plays; with humans at the
    table, players' moves and only the chance outcomes they may see (``announce_lines``)."""
    if humans:
        for line in announce_lines(match, start, sorted(humans)):
            print(line, file=out)
        return
    for entry in match.history[start:]:
        who = "chance" if entry.player is None else f"P{entry.player}"
        print(f"  {who:<6} {entry.move}", file=out)


def _save(match: Match, path: str | None, out: TextIO) -> None:
    if path is None:
        return
    write_file(path, to_json(match.record(), indent=1) + "\n")
    print(f"record saved to {path}", file=out)


# --- arena -----------------------------------------------------------------------------------
def _arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from citybuild.bots import GameResult, arena

    _preset(args.game, args.preset)
    options = _options(args.game, args.preset, args.option)
    texts = [t.strip() for t in args.bots.split(",")]
    for text in texts:
        from_text(text)  # a bad bot text is a one-line error before anything starts
    # As in 'play': one bot is every seat's (the count from --players, else the game's default);
    # a list is one bot per seat.
    players = args.players if args.players is not None or len(texts) == 1 else len(texts)
    game = load(args.game, players=players, preset=args.preset, **options)  # '--players 0' is refused here
    if len(texts) == 1:
        texts *= game.players
    elif len(texts) != game.players:
        raise UserError(f"--bots: give one bot for every seat or one per seat ({game.players}), not {len(texts)}")
    if args.games < 1 or args.jobs < 1:
        raise UserError("--games and --jobs must be at least 1")
    if args.json is not None:
        writable(args.json)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    console = Console(markup=False)  # nothing printed is markup: a "[/b]" in a file name is text
    console.print(
        f"{game.name} ({game.preset}), {game.players} players, {plural(args.games, 'game')}, seats rotated, "
        f"seed {seed}: "
        f"game i uses seed {seed} + i and seats bot j at seat (i + j) mod {game.players}",
        soft_wrap=True,  # a terminal wraps it; a copied line stays whole
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("games", total=args.games)

        def advance(_: GameResult) -> None:
            bar.advance(task)

        result = arena(game, texts, args.games, seed=seed, jobs=args.jobs, progress=advance)
    table = Table(title=f"{game.name}, {game.players} players: {', '.join(result.bots)}")
    for heading in ("bot", "games", "wins", "win rate", "95% interval", "mean score"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for s in result.standings():
        table.add_row(
            s.bot,
            str(s.games),
            f"{s.wins:g}",
            f"{s.win_rate:.1%}",
            f"{s.low:.1%} - {s.high:.1%}",
            f"{s.mean_score:.1f}",
        )
    console.print(table)
    first = result.results[0]
    replay_argv = ["citybuild", "play", game.name, "--players", str(game.players), "--preset", game.preset]
    replay_argv += ["--seed", str(first.seed), "--bots", ",".join(first.seats)]
    for name, value in result.options.items():  # without the overrides, the command plays another game
        replay_argv += ["--option", f"{name}={_option_text(value)}"]
    console.print(
        f"replay a game: {shlex.join(replay_argv)}   (game 0; game i: seed {seed} + i, seats rotated)",
        soft_wrap=True,  # a command to copy is never broken
    )
    if args.json is not None:
        write_file(args.json, json.dumps(result.to_data(), indent=1) + "\n")
        console.print(f"table and games written to {args.json}", soft_wrap=True)  # a path stays whole
    return 0


# --- check -----------------------------------------------------------------------------------
def _check(args: argparse.Namespace) -> int:
    record = from_json(read_text(args.file))
    if not isinstance(record, GameRecord):
        raise UserError(f"{args.file} holds {article(type(record).__name__)}, not a game record")
    try:
        match = replay(record)
    except IllegalMoveError as exc:
        who = record.moves[exc.index].player if exc.index is not None else None
        by = "chance" if who is None else f"P{who}"
        reasons = "; ".join(str(v) for v in exc.verdict.violations)
        raise UserError(f"move {exc.index} ({by}) {str(exc.move)!r} is illegal: {reasons}") from None
    state = match.state
    if state.is_over:
        print(f"ok: {plural(len(record.moves), 'move')} replayed; the game is over and the stated result is verified")
        print(str(state.scores()))
    else:
        print(f"ok: {plural(len(record.moves), 'move')} replayed, all legal; the game is not over")
        acting = "chance" if state.is_chance else ", ".join(f"P{p}" for p in state.to_act)
        print(f"to act: {acting}")
    return 0


# --- show ------------------------------------------------------------------------------------
def _show(args: argparse.Namespace) -> int:
    from citybuild import show

    exists = is_file(args.source)
    text = read_text(args.source) if exists else args.source
    options: dict[str, Any] = {}
    game_name = show.header_game(text)
    if game_name is not None:
        _preset(game_name, args.preset)
        options = _options(game_name, args.preset, args.option)
    elif text.lstrip().startswith("{") and (args.option or args.preset != "standard"):
        raise UserError("--preset and --option apply to a position text; a JSON document names its own rules")
    obj = show.read(text, args.preset, options)
    drawing = {"size": args.size, "orientation": args.orientation, "coordinates": not args.no_coordinates}
    if not isinstance(obj, GameRecord) and (args.html or args.move is not None):
        raise UserError(
            f"--{'html' if args.html else 'move'} needs a game record (citybuild play --record FILE writes one)"
        )
    if args.html:
        page = show.replay_html(obj, start=0 if args.move is None else args.move, **drawing)
        return _write(_show_output(args, ".html", exists), page)
    shown = show.at_move(obj, args.move) if isinstance(obj, GameRecord) else show.Shown(obj)
    if args.player is not None and isinstance(shown.position, State):
        players = shown.position.game.players
        if not 0 <= args.player < players:
            raise UserError(f"--player {args.player}: seats are 0 to {players - 1}")
    svg = show.svg_of(shown, args.player, **drawing)
    move = None if args.move is None else show.step_index(args.move, len(obj.moves))
    return _write(_show_output(args, ".svg", exists, move), svg)


def _show_output(args: argparse.Namespace, suffix: str, exists: bool, move: int | None = None) -> Path:
    """Where ``show`` writes, never over the file it read ('show game.svg' or '-o' naming the
    input would replace the record or position with its picture)."""
    from citybuild import show

    if args.output == "":  # an unset shell variable, most likely: not the default name
        raise UserError("-o: the file name is empty")
    path = show.output_path(args.source, args.output, suffix, exists, move)
    with contextlib.suppress(OSError, ValueError):
        if exists and path.exists() and path.samefile(args.source):
            raise UserError(f"{str(path)!r} is the file shown; write the picture elsewhere with -o FILE")
    return path


def _write(path: Path, text: str) -> int:
    write_file(path, text)
    print(f"wrote {path}")
    return 0


# --- rules and bench -------------------------------------------------------------------------
def _preset(game: str, preset: str) -> GameSpec:
    """The game's spec, once the game and the preset are known to exist."""
    game_spec = spec(game)
    if preset not in game_spec.presets:
        raise UserError(f"unknown preset {preset!r} for {game_spec.name}; presets are: {', '.join(game_spec.presets)}")
    return game_spec


def _rules(args: argparse.Namespace) -> int:
    if args.rule_id is not None:
        print(rulebook.plain(args.game, args.rule_id))
        return 0
    game_spec = _preset(args.game, args.preset)
    print(f"{game_spec.title} ({game_spec.name}): {game_spec.min_players} to {game_spec.max_players} players")
    print("presets: " + ", ".join(game_spec.presets))
    rules = game_spec.presets[args.preset]
    base = game_spec.presets[next(iter(game_spec.presets))].options()
    print(f"options of preset {args.preset!r}:")
    for info in rules.describe():
        name, value = info.name, info.value
        note = "" if base.get(name) == value else f"   (differs from {next(iter(game_spec.presets))!r})"
        print(f"  {name} = {value!r}{note}")
        print(f"      {info.meaning}")
        print(f"      allowed: {info.allowed}")
    print("change an option with --option NAME=VALUE (a dict value may name only the keys it changes)")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from citybuild.bench import api_report, run

    game_spec = _preset(args.game, args.preset)
    for n in args.players or ():
        if not game_spec.min_players <= n <= game_spec.max_players:
            raise UserError(
                f"{game_spec.name} takes {game_spec.min_players} to {game_spec.max_players} players, not {n}"
            )
    if args.games < 1 or args.runs < 1:
        raise UserError("--games and --runs must be at least 1")
    if args.api:
        print(api_report(args.game, args.players, args.preset, args.games, args.runs))
        return 0
    for result in run(args.game, args.players, args.preset, args.games, args.runs):
        print(result)
    return 0


def _serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port {args.port}: ports are 0 to 65535")
    try:
        from citybuild.server.run import serve
    except ImportError as exc:
        raise UserError(f'citybuild serve needs the server extra: pip install ".[server]" ({exc})') from None
    serve(args.host, args.port, args.db, allow_seed=args.allow_seed, sync=args.sync)
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m citybuild.cli`
    # Under -m this file runs as __main__ while the study's code imports citybuild.cli: two copies
    # of every class. The real module's main catches the UserError the rest of the code raises.
    from citybuild.cli import main as _main

    sys.exit(_main())
