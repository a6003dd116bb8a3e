"""Skyline's text notation for moves and whole positions (documented in docs/games/skyline.md).

Moves: ``take yard GF,GF,PH``, ``take district``, ``build GFO new``, ``build UFB 3``,
``abandon PHX``, ``demolish PHX 2``, ``reroll UFB,PHX``, ``end``; the chance outcome ``roll GFO,UFB``.
A die is its type and face run together (``GFO`` = ground floor showing orange).

A position is one line of ``key=value`` fields after a ``skyline/<players>`` header::

    skyline/2 round=1 turn=0 phase=take trigger=0 yard=22.27.6 district=1.1.1 active=- sky=1:O[GF]/1:B[GF] next=2/2

Dice counts are ``GF.UF.PH``. ``sky`` lists each player's buildings (``/`` between players):
``<id>:<colour>[<floors>]`` for an unfinished column (bottom to top), ``<id>:<colour><height>``
for a completed building. Hand-written text may leave fields out: ``round`` 1, ``turn`` 0,
``phase`` take, ``trigger`` 0, ``district`` 0.0.0, ``active``/``roll`` none, ``sky`` empty,
``next`` one past each player's highest id, ``short`` none, and ``yard`` whatever dice remain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import NotationError
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int, split_fields
from citybuild.games.skyline.building import Column, Skyline, Tile
from citybuild.games.skyline.invariants import validate
from citybuild.games.skyline.moves import (
    Abandon,
    Build,
    Demolish,
    Die,
    EndTurn,
    Reroll,
    Roll,
    TakeDistrict,
    TakeYard,
    dice_text,
)
from citybuild.games.skyline.position import PHASES
from citybuild.games.skyline.rolls import type_counts
from citybuild.games.skyline.rules import COLOURS, DICE_TOTAL, MAX_HEIGHT, TYPES
from citybuild.games.skyline.scoring import building_text
from citybuild.games.skyline.state import SkylineState

if TYPE_CHECKING:
    from citybuild.games.skyline.game import SkylineGame

_DIE = re.compile(r"(GF|UF|PH)([PBOX])")
_MOVES = "take yard, take district, build, abandon, demolish, reroll, end, roll"


# --- moves -------------------------------------------------------------------------------
def parse_die(text: str, where: str) -> Die:
    match = _DIE.fullmatch(text.upper())
    if not match:
        raise NotationError(
            f"expected a die as type GF/UF/PH and face P/B/O/X run together (e.g. 'GFO'), got {excerpt(text)}", where
        )
    return (match.group(1), match.group(2))


def parse_dice(text: str, where: str) -> tuple[Die, ...]:
    if text == "-":
        return ()
    return tuple(parse_die(part, where) for part in text.split(","))


def _building_id(text: str, where: str) -> int:
    return parse_int(text, where + " building id", 0)


def parse_move(text: str) -> Any:
    """A move or chance outcome from its text; raises ``NotationError`` saying where and why."""
    kind, args, where = move_words(text)
    if kind == "take":
        if args and args[0].lower() == "district":
            if len(args) != 1:
                raise NotationError("'take district' takes nothing after it", where)
            return TakeDistrict()
        if len(args) != 2 or args[0].lower() != "yard":
            raise NotationError("expected 'take yard <types>' (e.g. 'take yard GF,UF,PH') or 'take district'", where)
        types = [] if args[1] == "-" else [t.upper() for t in args[1].split(",")]
        for t in types:
            if t not in TYPES:
                raise NotationError(f"unknown die type {excerpt(t)}; types are GF, UF, PH", where)
        return TakeYard(tuple(types))
    if kind == "build":
        if len(args) != 2:
            raise NotationError("expected 'build <die> new' or 'build <die> <building id>', e.g. 'build UFB 3'", where)
        die = parse_die(args[0], where)
        return Build(die, None if args[1].lower() == "new" else _building_id(args[1], where))
    if kind == "abandon":
        if len(args) != 1:
            raise NotationError("expected 'abandon <die>', e.g. 'abandon PHX'", where)
        return Abandon(parse_die(args[0], where))
    if kind == "demolish":
        if len(args) != 2:
            raise NotationError("expected 'demolish <die> <building id>', e.g. 'demolish PHX 2'", where)
        return Demolish(parse_die(args[0], where), _building_id(args[1], where))
    if kind in ("reroll", "roll"):
        if len(args) > 1:
            raise NotationError(f"expected '{kind} <dice>' with dice separated by commas, e.g. '{kind} UFB,PHX'", where)
        dice = parse_dice(args[0], where) if args else ()
        return Reroll(dice) if kind == "reroll" else Roll(dice)
    if kind == "end":
        if args:
            raise NotationError("'end' takes nothing after it", where)
        return EndTurn()
    raise NotationError(f"unknown move {excerpt(text.split()[0])}; moves are {_MOVES}", where)


# --- positions ---------------------------------------------------------------------------
def _counts_text(counts: tuple[int, ...]) -> str:
    return ".".join(str(n) for n in counts)


def skyline_text(skyline: Skyline) -> str:
    return ",".join(building_text(b) for b in skyline.buildings) or "-"


def fields_of(state: SkylineState) -> list[str]:
    """The position's fields, without the header."""
    out = [
        f"round={state.round}",
        f"turn={state.turn}",
        f"phase={state.phase}",
        f"trigger={int(state.trigger)}",
        f"yard={_counts_text(state.yard)}",
        f"district={_counts_text(state.district)}",
        f"active={dice_text(state.active)}",
    ]
    if any(state.rolling):
        out.append(f"roll={_counts_text(state.rolling)}")
    out.append("sky=" + "/".join(skyline_text(s) for s in state.skylines))
    out.append("next=" + "/".join(str(s.next_id) for s in state.skylines))
    if any(state.short):
        out.append(f"short={_counts_text(state.short)}")
    return out


def state_text(state: SkylineState) -> str:
    return " ".join([f"skyline/{state.players}", *fields_of(state)])


_KEYS = ("round", "turn", "phase", "trigger", "yard", "district", "active", "roll", "sky", "next", "short")
# Numbers are checked by parse_int (ASCII digits, no sign or leading zeros), not by the pattern.
_BUILDING = re.compile(r"([^:]*):([A-Z])(?:([^\[\]]*)|\[([A-Z.]*)\])")


def parse_state(game: SkylineGame, text: str) -> SkylineState:
    """A position from its notation. Raises ``NotationError`` for unreadable text and
    ``InvalidStateError`` for a readable position that breaks an invariant."""
    n = game.players
    fields = parse_fields(text, f"skyline/{n}", _KEYS)
    round_no = parse_int(fields.get("round", "1"), "round", 1, 99)
    turn = parse_int(fields.get("turn", "0"), "turn", 0, n - 1)
    phase = fields.get("phase", "take")
    if phase not in PHASES:
        raise NotationError(f"unknown phase {excerpt(phase)}; phases are {', '.join(PHASES)}", "phase")
    trigger_text = fields.get("trigger", "0")
    if trigger_text not in ("0", "1"):
        raise NotationError(f"expected 0 or 1, got {excerpt(trigger_text)}", "trigger")
    district = _parse_counts(fields.get("district", "0.0.0"), "district", 3)
    rolling = _parse_counts(fields.get("roll", "0.0.0"), "roll", 3)
    active = Reroll(parse_dice(fields.get("active", "-"), "active")).dice
    skylines_text = split_fields(fields.get("sky", "/".join("-" * n)), n, "sky")
    buildings = [_parse_skyline(s, f"sky[{p}]") for p, s in enumerate(skylines_text)]
    if "next" in fields:
        nexts = [parse_int(v, f"next[{p}]", 1) for p, v in enumerate(split_fields(fields["next"], n, "next"))]
    else:
        nexts = [max((b.id for b in bs), default=0) + 1 for bs in buildings]
    skylines = tuple(Skyline(bs, nxt) for bs, nxt in zip(buildings, nexts, strict=True))
    short = _parse_counts(fields.get("short", _counts_text((0,) * MAX_HEIGHT)), "short", MAX_HEIGHT)
    if "yard" in fields:
        yard = _parse_counts(fields["yard"], "yard", 3)
    else:
        built = [p for s in skylines for b in s.buildings if isinstance(b, Column) for p in b.pieces]
        used = [district, rolling, type_counts([d[0] for d in active]), type_counts(built)]
        yard = tuple(DICE_TOTAL[i] - sum(u[i] for u in used) for i in range(3))
    state = SkylineState(
        game=game,
        round=round_no,
        turn=turn,
        phase=phase,
        yard=yard,  # type: ignore[arg-type]
        district=district,  # type: ignore[arg-type]
        active=active,
        skylines=skylines,
        rolling=rolling,  # type: ignore[arg-type]
        trigger=trigger_text == "1",
        short=short,
    )
    validate(state)
    return state


def _parse_counts(text: str, where: str, size: int) -> tuple[int, ...]:
    parts = text.split(".")
    if len(parts) != size:
        what = "GF.UF.PH" if size == 3 else "heights 1.2.3.4.5.6"
        raise NotationError(f"expected {size} counts separated by '.' ({what}), got {excerpt(text)}", where)
    return tuple(parse_int(p, where, 0) for p in parts)


def _parse_skyline(text: str, where: str) -> tuple[Column | Tile, ...]:
    if text == "-":
        return ()
    out: list[Column | Tile] = []
    seen: set[int] = set()
    for entry in text.split(","):
        at = f"{where} {excerpt(entry)}"
        match = _BUILDING.fullmatch(entry.upper())
        if not match:
            raise NotationError(
                "expected <id>:<colour><height> (a completed building, e.g. '2:O3') or "
                "<id>:<colour>[<floors>] (unfinished, e.g. '1:O[GF.UF]')",
                at,
            )
        building_id = parse_int(match.group(1), at + " building id", 0)
        colour = match.group(2)
        if colour not in COLOURS:
            raise NotationError(f"unknown colour {colour!r}; colours are P (purple), B (blue), O (orange)", at)
        if building_id in seen:
            raise NotationError(f"building id {building_id} is used twice", at)
        seen.add(building_id)
        if match.group(3) is not None:
            out.append(Tile(building_id, colour, parse_int(match.group(3), at + " height", 0)))
            continue
        pieces = tuple(match.group(4).split(".")) if match.group(4) else ()
        for piece in pieces:
            if piece not in TYPES:
                raise NotationError(f"unknown floor {excerpt(piece)}; floors are GF, UF, PH", at)
        out.append(Column(building_id, colour, pieces))
    return tuple(sorted(out, key=lambda b: b.id))


def view_text(view: Any) -> str:
    """A view in the position notation, with the viewing player after the header."""
    return " ".join([f"skyline/{len(view.skylines)}@P{view.player}", *fields_of(view)])
