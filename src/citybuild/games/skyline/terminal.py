"""Skyline at the terminal (the spec's ``board_text`` hook): the yard and the district, the dice
being rolled or the active dice with their faces, and every skyline drawn upright: unfinished
buildings as columns of dice (``[UF]`` in the building's colour, bottom to top), completed ones as
tiles (``|##|``) with their points, each over its id and colour."""

from __future__ import annotations

from typing import Any

from citybuild.core.ansi import paint, player_style
from citybuild.games.skyline.building import Column, Tile
from citybuild.games.skyline.moves import die_text
from citybuild.games.skyline.rules import COLOUR_NAMES, TYPES

STYLE = {"P": "magenta", "B": "blue", "O": "yellow", "X": "grey"}
WIDTH = 6


def _counts(counts: tuple[int, ...]) -> str:
    return " ".join(f"{t} {n}" for t, n in zip(TYPES, counts, strict=True))


def _centred(token: str, style: str, colour: bool) -> str:
    """``token`` painted and centred in a column's width, the padding outside the colour codes."""
    pad = WIDTH - len(token)
    return " " * (pad // 2) + paint(token, style, colour) + " " * (pad - pad // 2)


def board_text(view: Any, game: Any, colour: bool) -> str:
    """The dice and every skyline (see the module's docstring)."""
    me = view.player
    over = view.phase == "over"
    head = "game over" if over else f"round {view.round} of {game.rules.rounds} · P{view.turn}'s turn · {view.phase}"
    if view.trigger and not over:
        head += " · last round (a six-floor building is complete)"
    lines = [head, f"  yard: {_counts(view.yard)} · district: {_counts(view.district)}"]
    if view.phase == "roll":
        lines.append(f"  rolling: {_counts(view.rolling)}")
    elif view.active:
        dice = " ".join(paint(die_text(d), STYLE.get(d[1], "grey") + "+bold", colour) for d in view.active)
        lines.append(f"  active dice: {dice}   (type and face: GFP = ground floor showing purple; X is blank)")
    for p, skyline in enumerate(view.skylines):
        name = paint(f"P{p}", player_style(p) + "+bold", colour) + (" (you)" if p == me else "")
        lines.append(f"  {name}: {skyline.points} points from {len(skyline.tiles)} completed buildings")
        buildings = skyline.buildings
        if not buildings:
            lines.append("      no buildings")
            continue
        tallest = max(b.height for b in buildings)
        for level in range(tallest, -1, -1):
            row = []
            for b in buildings:
                style = STYLE[b.colour]
                if isinstance(b, Tile) and level == b.height:
                    row.append(_centred(f"+{b.points}", style, colour))
                elif isinstance(b, Column) and level < b.height:
                    row.append(_centred(f"[{b.pieces[level]}]", style + "+bold", colour))
                elif isinstance(b, Tile) and level < b.height:
                    row.append(_centred("|##|", style + "+bold", colour))
                else:
                    row.append(" " * WIDTH)
            if "".join(row).strip():
                lines.append("    " + "".join(row).rstrip())
        lines.append("    " + "".join(f"#{b.id} {b.colour}".center(WIDTH) for b in buildings).rstrip())
    lines.append("  colours: " + ", ".join(f"{k} {v}" for k, v in COLOUR_NAMES.items()))
    return "\n".join(lines)


def announce(state: Any, outcome: Any, player: int) -> str | None:
    """Rolls are public (SKY-RAND-2): everyone sees the faces."""
    return f"P{state.turn} rolls {', '.join(die_text(d) for d in outcome.dice)}"
