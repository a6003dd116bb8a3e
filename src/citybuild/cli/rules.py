"""``citybuild rules``, ``citybuild bench`` and ``citybuild serve``: the rules in words, how fast
they run, and games over HTTP."""

from __future__ import annotations

import argparse

from citybuild import rulebook
from citybuild.cli.limits import limit_options
from citybuild.cli.options import preset_spec
from citybuild.userfiles import UserError


def rules_command(args: argparse.Namespace) -> int:
    if args.rule_id is not None:
        print(rulebook.plain(args.game, args.rule_id))
        return 0
    game_spec = preset_spec(args.game, args.preset)
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


def bench_command(args: argparse.Namespace) -> int:
    from citybuild.bench import api_report, run

    game_spec = preset_spec(args.game, args.preset)
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


def serve_command(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port {args.port}: ports are 0 to 65535")
    try:
        from citybuild.server.run import serve
    except ImportError as exc:
        raise UserError(f'citybuild serve needs the server extra: pip install ".[server]" ({exc})') from None
    serve(
        args.host,
        args.port,
        args.database,
        allow_seed=args.allow_seed,
        sync=args.sync,
        workers=args.workers,
        verbose=args.verbose,
        **limit_options(args),
    )
    return 0
