"""``citybuild check`` and ``citybuild show``: a saved record refereed, or drawn as pictures."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from citybuild.cli.options import preset_spec, rule_options
from citybuild.core.errors import IllegalMoveError
from citybuild.core.game import State
from citybuild.core.text import article, plural
from citybuild.match import replay
from citybuild.record import GameRecord
from citybuild.serialize import from_json
from citybuild.userfiles import UserError, is_file, read_text, write_file


def check_command(args: argparse.Namespace) -> int:
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


def show_command(args: argparse.Namespace) -> int:
    from citybuild import show

    exists = is_file(args.source)
    text = read_text(args.source) if exists else args.source
    options: dict[str, Any] = {}
    game_name = show.header_game(text)
    if game_name is not None:
        preset_spec(game_name, args.preset)
        options = rule_options(game_name, args.preset, args.option)
    elif text.lstrip().startswith("{") and (args.option or args.preset != "standard"):
        raise UserError("--preset and --option apply to a position text; a JSON document names its own rules")
    obj = show.read(text, args.preset, options)
    drawing = {"size": args.size, "orientation": args.orientation, "coordinates": not args.no_coordinates}
    if not isinstance(obj, GameRecord) and (args.html or args.move is not None):
        raise UserError(
            f"--{'html' if args.html else 'move'} needs a game record (citybuild play --record FILE writes one)"
        )
    if args.html:
        from citybuild.replay_page import replay_html

        page = replay_html(obj, start=args.move, player=args.player, **drawing)
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
