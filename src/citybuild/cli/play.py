"""``citybuild play`` and ``citybuild arena``: games played at the terminal, by people and bots or by bots alone."""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from typing import TYPE_CHECKING, TextIO

from citybuild.bots import Bot, bot_rng, from_text, label, step
from citybuild.cli.options import option_text, preset_spec, rule_options
from citybuild.core.game import State
from citybuild.core.registry import load
from citybuild.core.text import plural
from citybuild.match import Match
from citybuild.serialize import to_json
from citybuild.terminal import HumanSeat
from citybuild.terminal.story import story_lines
from citybuild.userfiles import UserError, writable, write_file

if TYPE_CHECKING:
    from rich.table import Table

    from citybuild.bots import ArenaResult
    from citybuild.core.game import Game


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


def play_command(args: argparse.Namespace) -> int:
    preset_spec(args.game, args.preset)
    if args.record is not None:
        writable(args.record)
    options = rule_options(args.game, args.preset, args.option)
    game = load(args.game, players=args.players, preset=args.preset, **options)
    seated: list[int] = list(args.human)
    for seat in seated:
        if not 0 <= seat < game.players:
            raise UserError(f"--human {seat}: seats are 0 to {game.players - 1}")
    bots = _seat_bots(args.bots, game.players, seated)  # adds the seats --bots gives to "human"
    table = _Table(Match(game, seed=args.seed), bots, frozenset(seated), sys.stdout, args.quiet)
    if not args.quiet:
        table.open(bots_named=args.bots is not None)
    while not table.match.state.is_over:
        if not table.humans and args.bots is not None:
            table.bots_step()
        elif not table.round():
            print("quit.", file=table.out)
            _save(table.match, args.record, table.out)
            return 0
    print("final score:", file=table.out)
    print(str(table.match.state.scores()), file=table.out)
    _save(table.match, args.record, table.out)
    return 0


class _Table:
    """A match at the terminal: who sits where, and what the screen may show.

    With a human at the table, the log shows what the humans may see (``citybuild.sighting``):
    secret choices by their kind, and only the chance outcomes the game tells them. Humans act
    first among players who decide at once, so they never see a simultaneous choice early. With
    several humans on one screen (hot seat), the screen is handed over between them so that
    nobody sees another's hand."""

    def __init__(self, match: Match, bots: list[Bot | None], humans: frozenset[int], out: TextIO, quiet: bool) -> None:
        self.match = match
        self.bots = bots
        self.humans = humans
        self.out = out
        self.quiet = quiet
        self.rngs = [bot_rng(match.seed, seat) for seat in range(match.game.players)]
        self.terminal = HumanSeat(match, out)
        self.looking: int | None = None
        """The human who last had the screen."""

    def open(self, bots_named: bool) -> None:
        """The game, its seats and what happened before anyone acts."""
        game, out = self.match.game, self.out
        seats = ", ".join(
            f"P{p} {'you' if p in self.humans else label(bot) if bot is not None else 'random'}"
            for p, bot in enumerate(self.bots)
        )
        print(f"{game.name} ({game.preset}), {game.players} players, seed {self.match.seed}", file=out)
        if bots_named or self.humans:
            print(f"seats: {seats}", file=out)
        _print_steps(self.match, 0, out, self.humans)

    def bots_step(self) -> None:
        """Bots alone: one step, exactly as the arena plays it (``citybuild.bots.play_game``)."""
        shown = len(self.match.history)
        step(self.match, self.bots, self.rngs)
        if not self.quiet:
            _print_steps(self.match, shown, self.out, self.humans)

    def round(self) -> bool:
        """Everyone to act now acts, humans first; False when a human quits."""
        state = self.match.state
        for player in sorted(state.to_act, key=lambda p: p not in self.humans):
            if self.match.state is not state:
                break
            if not self.seat(player, state):
                return False
        return True

    def seat(self, player: int, state: State) -> bool:
        """``player`` acts (a human at the prompt, a bot, or a random move); False when a human quits."""
        match = self.match
        shown = len(match.history)
        if player in self.humans:
            if len(self.humans) > 1 and self.looking not in (None, player) and not _hand_over(player, self.out):
                return False
            self.looking = player
            if not self.terminal.turn(player):
                return False
        elif (bot := self.bots[player]) is None:
            match.play(match.random_move(player), player)
        else:
            match.play(bot.choose(state.view(player), self.rngs[player]), player)
        if not self.quiet:
            _print_steps(match, shown, self.out, self.humans)
        return True


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
    """The steps of the match from ``start``, told as a story (``citybuild.terminal.story``):
    everything when no human plays; with humans at the table, what every one of them may see."""
    for line in story_lines(match, start, sorted(humans) if humans else None):
        print(line, file=out)


def _save(match: Match, path: str | None, out: TextIO) -> None:
    if path is None:
        return
    write_file(path, to_json(match.record(), indent=1) + "\n")
    print(f"record saved to {path}", file=out)


def arena_command(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from citybuild.bots import GameResult, arena

    preset_spec(args.game, args.preset)
    options = rule_options(args.game, args.preset, args.option)
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
    console.print(_standings(game, result))
    console.print(
        f"replay a game: {_replay_command(game, result)}   (game 0; game i: seed {seed} + i, seats rotated)",
        soft_wrap=True,  # a command to copy is never broken
    )
    if args.json is not None:
        write_file(args.json, json.dumps(result.to_data(), indent=1) + "\n")
        console.print(f"table and games written to {args.json}", soft_wrap=True)  # a path stays whole
    return 0


def _standings(game: Game, result: ArenaResult) -> Table:
    """The arena's table: per bot, its games, wins, win rate with its interval, and mean score."""
    from rich.table import Table

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
    return table


def _replay_command(game: Game, result: ArenaResult) -> str:
    """The ``citybuild play`` command that plays the arena's first game again, move for move."""
    first = result.results[0]
    argv = ["citybuild", "play", game.name, "--players", str(game.players), "--preset", game.preset]
    argv += ["--seed", str(first.seed), "--bots", ",".join(first.seats)]
    for name, value in result.options.items():  # without the overrides, the command plays another game
        argv += ["--option", f"{name}={option_text(value)}"]
    return shlex.join(argv)
