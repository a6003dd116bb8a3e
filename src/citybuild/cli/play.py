"""``citybuild play`` and ``citybuild arena``: games played at the terminal, by people and bots or by bots alone."""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from typing import TextIO

from citybuild.bots import Bot, bot_rng, from_text, label, step
from citybuild.cli.options import option_text, preset_spec, rule_options
from citybuild.core.registry import load
from citybuild.core.text import plural
from citybuild.match import Match
from citybuild.serialize import to_json
from citybuild.terminal import HumanSeat, announce_lines
from citybuild.userfiles import UserError, writable, write_file


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


def arena_command(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

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
        replay_argv += ["--option", f"{name}={option_text(value)}"]
    console.print(
        f"replay a game: {shlex.join(replay_argv)}   (game 0; game i: seed {seed} + i, seats rotated)",
        soft_wrap=True,  # a command to copy is never broken
    )
    if args.json is not None:
        write_file(args.json, json.dumps(result.to_data(), indent=1) + "\n")
        console.print(f"table and games written to {args.json}", soft_wrap=True)  # a path stays whole
    return 0
