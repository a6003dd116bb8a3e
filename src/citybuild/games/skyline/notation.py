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

from citybuild.core.errors import InvalidStateError, NotationError
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int, split_fields
from citybuild.games.skyline.building import Column, Skyline, Tile
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
    die_rank,
)
from citybuild.games.skyline.rules import COLOUR_NAMES, COLOURS, DICE_TOTAL, MAX_HEIGHT, TYPES
from citybuild.games.skyline.scoring import building_text
from citybuild.games.skyline.state import PHASES, SkylineState, type_counts

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


# --- invariants --------------------------------------------------------------------------
def validate(state: SkylineState) -> None:
    """Raise ``InvalidStateError`` naming the first broken invariant of a position."""
    rules = state.rules
    n = state.players
    _validate_fields(state)
    if len(state.skylines) != n:
        raise InvalidStateError(f"{len(state.skylines)} skylines for {n} players", "SKY-COMP-6")
    if not 1 <= state.round <= rules.rounds:
        raise InvalidStateError(f"round {state.round} is outside rounds 1 to {rules.rounds}", "SKY-END-1")
    if not 0 <= state.turn < n:
        raise InvalidStateError(f"turn {state.turn} names no seat of {n}", "SKY-TURN-1")
    if state.phase not in PHASES:
        raise InvalidStateError(f"unknown phase {state.phase!r}", "SKY-TURN-2")
    _validate_dice(state)
    for player, skyline in enumerate(state.skylines):
        _validate_skyline(state, player, skyline)
    _validate_phase(state)
    _validate_end(state)
    _validate_tiles(state)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _validate_fields(state: SkylineState) -> None:
    """The shape of each field (a state built in code or read from JSON may have any values)."""
    for name in ("round", "turn"):
        value = getattr(state, name)
        if not _is_int(value):
            raise InvalidStateError(f"{name} must be an int, not {value!r}", "SKY-TURN-1")
    if type(state.trigger) is not bool:
        raise InvalidStateError(f"trigger must be True or False, not {state.trigger!r}", "SKY-END-2")
    for name in ("yard", "district", "rolling"):
        counts = getattr(state, name)
        if not (isinstance(counts, tuple) and len(counts) == 3 and all(_is_int(c) for c in counts)):
            raise InvalidStateError(f"{name} must be 3 int counts (GF, UF, PH), not {counts!r}", "SKY-COMP-6")
    short = state.short
    if not (isinstance(short, tuple) and len(short) == MAX_HEIGHT and all(_is_int(c) for c in short)):
        raise InvalidStateError(
            f"short must be {MAX_HEIGHT} int counts (one per height 1 to {MAX_HEIGHT}), not {short!r}", "SKY-COMP-5"
        )
    if any(c < 0 for c in short):
        raise InvalidStateError(f"short counts buildings, so none is negative: {short!r}", "SKY-COMP-5")
    if not isinstance(state.active, tuple) or not all(
        isinstance(d, tuple) and len(d) == 2 and d[0] in TYPES and isinstance(d[1], str) for d in state.active
    ):
        raise InvalidStateError(f"active must be dice (type, face), not {state.active!r}", "SKY-TURN-8")
    if list(state.active) != sorted(state.active, key=die_rank):
        raise InvalidStateError(f"the active dice {dice_text(state.active)} are not in canonical order", "SKY-TURN-8")
    if not isinstance(state.skylines, tuple) or not all(isinstance(s, Skyline) for s in state.skylines):
        raise InvalidStateError(f"skylines must be a tuple of Skyline, not {state.skylines!r}", "SKY-COMP-6")
    for player, skyline in enumerate(state.skylines):
        if not _is_int(skyline.next_id):
            raise InvalidStateError(f"P{player}'s next id must be an int, not {skyline.next_id!r}", "SKY-COMP-6")
        for b in skyline.buildings:
            if not isinstance(b, Column | Tile) or not _is_int(b.id):
                raise InvalidStateError(f"P{player}'s building {b!r} needs an int id", "SKY-COMP-6")
            if isinstance(b, Tile) and not _is_int(b.height):
                raise InvalidStateError(f"P{player}'s building {b!r} needs an int height", "SKY-BUILD-3")
            if isinstance(b, Column) and not (isinstance(b.pieces, tuple) and all(p in TYPES for p in b.pieces)):
                raise InvalidStateError(f"P{player}'s building {b!r} has floors other than GF, UF, PH", "SKY-COMP-2")


def _validate_dice(state: SkylineState) -> None:
    """SKY-COMP-2: the 60 dice (25 GF, 28 UF, 7 PH) are all somewhere, once."""
    zones = state.dice_counts()
    for name, counts in zones.items():
        for index, count in enumerate(counts):
            if count < 0:
                raise InvalidStateError(f"the {name} holds {count} {TYPES[index]} dice", "SKY-COMP-2")
    faces = state.rules.faces
    for kind, face in state.active:
        if face not in faces[kind]:
            raise InvalidStateError(
                f"an active {kind} die shows {face!r}, which is not one of its faces {faces[kind]!r}", "SKY-COMP-4"
            )
    for index, t in enumerate(TYPES):
        total = sum(c[index] for c in zones.values())
        if total != DICE_TOTAL[index]:
            where = ", ".join(f"{name} {c[index]}" for name, c in zones.items())
            more = "more" if total > DICE_TOTAL[index] else "fewer"
            raise InvalidStateError(
                f"{total} {t} dice in the position ({where}): {more} than the {DICE_TOTAL[index]} that exist",
                "SKY-COMP-2",
            )


def _validate_skyline(state: SkylineState, player: int, skyline: Skyline) -> None:
    rules = state.rules
    ids = [b.id for b in skyline.buildings]
    if len(set(ids)) != len(ids) or ids != sorted(ids):
        raise InvalidStateError(f"P{player}'s building ids {ids} are not unique and in order", "SKY-COMP-6")
    for b in skyline.buildings:
        name = f"P{player}'s building {building_text(b)}"
        if not 1 <= b.id < skyline.next_id:
            raise InvalidStateError(
                f"{name} has id {b.id}, but ids run from 1 to next id {skyline.next_id} - 1", "SKY-COMP-6"
            )
        if b.colour not in COLOURS:
            raise InvalidStateError(f"{name} has no colour P, B or O", "SKY-COMP-3")
        colour = COLOUR_NAMES[b.colour]
        heights = rules.completed_heights(b.colour)
        if isinstance(b, Tile):
            if b.height not in heights:
                raise InvalidStateError(
                    f"{name}: a completed {colour} building has height {heights.start} to {heights.stop - 1}, "
                    f"not {b.height}",
                    "SKY-BUILD-3",
                )
            continue
        pieces = b.pieces
        if not pieces:
            raise InvalidStateError(f"{name} has no floors", "SKY-BUILD-1")
        if pieces[0] != "GF":
            raise InvalidStateError(
                f"{name} stands on {pieces[0]}; every building starts with a ground floor", "SKY-BUILD-1"
            )
        if "GF" in pieces[1:]:
            raise InvalidStateError(f"{name} has a ground floor above the bottom", "SKY-BUILD-1")
        if "PH" in pieces[:-1]:
            raise InvalidStateError(f"{name} has a penthouse under another floor", "SKY-BUILD-5")
        if "PH" in pieces:
            raise InvalidStateError(f"{name} ends in a penthouse, which completes a building at once", "SKY-BUILD-5")
        tallest = heights.stop - 2  # UF floors stop one below the highest completion
        if b.colour == "P":
            tallest = 1
        if b.height > tallest:
            raise InvalidStateError(
                f"{name} is {b.height} high: an unfinished {colour} building is at most {tallest} high, "
                "so a die sits on a completed building",
                "SKY-BUILD-5",
            )


def _validate_phase(state: SkylineState) -> None:
    phase = state.phase
    rolling, active = any(state.rolling), bool(state.active)
    if phase == "roll" and not rolling:
        raise InvalidStateError("phase roll needs dice to roll (field roll)", "SKY-TURN-3")
    if phase != "roll" and rolling:
        raise InvalidStateError(f"dice are being rolled only in phase roll, not {phase}", "SKY-TURN-3")
    if phase in ("resolve", "continue") and not active:
        raise InvalidStateError(f"phase {phase} needs active dice; with none the turn has ended", "SKY-TURN-7")
    if phase in ("take", "over") and active:
        raise InvalidStateError(f"no dice are active in phase {phase}: unused dice go back to the yard", "SKY-TURN-6")


def _validate_end(state: SkylineState) -> None:
    rules = state.rules
    six = any(isinstance(b, Tile) and b.height == MAX_HEIGHT for s in state.skylines for b in s.buildings)
    if state.trigger and not rules.six_floor_ends_game:
        raise InvalidStateError("the end trigger is set, but six_floor_ends_game is False", "SKY-END-3")
    if six and rules.six_floor_ends_game and not state.trigger:
        raise InvalidStateError("a six-floor building stands but the end trigger is not set", "SKY-END-2")
    if state.trigger and not rules.end_trigger_latches and not six:
        raise InvalidStateError("the end trigger does not latch, and no six-floor building stands", "SKY-END-2")
    if state.trigger and state.phase == "take" and state.turn == 0:
        raise InvalidStateError("a set trigger ends the game at the end of its round; no new round starts", "SKY-END-2")
    if state.phase == "over":
        last = state.players - 1
        if state.turn != last:
            raise InvalidStateError(
                f"the game ends after the last seat's turn (turn {last}), so phase over with turn {state.turn} "
                "cannot happen",
                "SKY-END-1",
            )
        if not state.trigger and state.round < rules.rounds:
            raise InvalidStateError(
                f"the game is over in round {state.round} of {rules.rounds} without the end trigger: it ends at the "
                f"end of round {rules.rounds} (SKY-END-1) or of the round in which the trigger is set",
                "SKY-END-2",
            )


def _validate_tiles(state: SkylineState) -> None:
    """SKY-COMP-5: with a finite supply, tiles in play plus tiles left make the supply."""
    supply = state.tile_supply()
    if supply is None:
        if any(state.short):
            raise InvalidStateError("tile shortages need finite_tile_supply=True", "SKY-COMP-5")
        return
    for h in range(MAX_HEIGHT):
        if state.short[h] and supply[h]:
            raise InvalidStateError(
                f"{state.short[h]} height-{h + 1} buildings lack a tile while {supply[h]} are left", "SKY-COMP-5"
            )
        if supply[h] < 0:
            raise InvalidStateError(
                f"more height-{h + 1} tiles in play than the supply of {state.rules.tile_counts[h + 1]} "
                "(record shortages in short)",
                "SKY-COMP-5",
            )


def view_text(view: Any) -> str:
    """A view in the position notation, with the viewing player after the header."""
    return " ".join([f"skyline/{len(view.skylines)}@P{view.player}", *fields_of(view)])
