"""Manhattan's text notation for moves and whole positions (documented in docs/games/manhattan.md).

A position is one line of ``key=value`` fields after a ``manhattan/<players>`` header, e.g.::

    manhattan/2 round=1 phase=build turn=0 towers=Syd4:B3A1,HK0:A1 hands=0034/1278
    draw=... discard=000000000 supply=... chosen=1124/-/1333/- points=0/0

``supply`` and ``draw`` may be left out of hand-written text: they are then whatever the other
fields leave (24 pieces per colour, 45 cards).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import NotationError
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int, split_fields
from citybuild.core.tower import Piece, Tower
from citybuild.games.manhattan.invariants import validate
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import (
    CARDS_PER_LOT,
    CITY_CODES,
    COLOUR_LETTERS,
    PIECES_PER_SIZE,
    SIZES,
)
from citybuild.games.manhattan.state import PHASES, ManhattanState

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame

Counts = tuple[int, ...]
_CITY = {code.lower(): i for i, code in enumerate(CITY_CODES)}
_PIECE = re.compile(r"([A-D])([1-4])")


# --- moves -------------------------------------------------------------------------------
def parse_move(text: str, colours: int) -> Any:
    """A move or chance outcome from text such as ``build 3 Syd A4`` or ``select A1124 C1333``."""
    kind, args, where = move_words(text)
    if kind == "select":
        picks = []  # 'select' alone is an empty (well-formed, never legal) selection
        for arg in args:
            colour = _colour(arg[:1], colours, where)
            body = arg[1:]
            if body == "-":
                body = ""
            if not re.fullmatch(r"[1-4]*", body):
                raise NotationError(f"piece sizes are digits 1-4, got {excerpt(body)}", where)
            picks.append((colour, tuple(int(ch) for ch in body)))
        if len({c for c, _ in picks}) != len(picks):
            raise NotationError("a colour is named twice", where)
        return Select(tuple(picks))
    if kind == "build":
        if len(args) != 3:
            raise NotationError("expected 'build <card 0-8> <city> <colour><size>', e.g. 'build 3 Syd A4'", where)
        card = parse_int(args[0], where + " card", 0, 8)
        city = _city(args[1], where)
        colour, size = _piece(args[2], colours, where)
        return Build(card, city, colour, size)
    if kind in ("redraw", "draw"):
        if len(args) != 1:
            raise NotationError(f"expected '{kind} <card 0-8>'", where)
        card = parse_int(args[0], where + " card", 0, 8)
        return Redraw(card) if kind == "redraw" else Draw(card)
    if kind == "forfeit":
        if len(args) != 1:
            raise NotationError("expected 'forfeit <colour><size>', e.g. 'forfeit A1'", where)
        return Forfeit(*_piece(args[0], colours, where))
    if kind == "pass":
        if args:
            raise NotationError("'pass' takes nothing after it", where)
        return Pass()
    moves = "select, build, redraw, forfeit, pass, draw"
    raise NotationError(f"unknown move {excerpt(text.split()[0])}; moves are {moves}", where)


def _colour(letter: str, colours: int, where: str) -> int:
    if letter not in COLOUR_LETTERS[:colours]:
        raise NotationError(f"unknown colour {letter!r}; colours in this game are {COLOUR_LETTERS[:colours]}", where)
    return COLOUR_LETTERS.index(letter)


def _city(text: str, where: str) -> int:
    if text.lower() not in _CITY:
        raise NotationError(f"unknown city {excerpt(text)}; cities are {', '.join(CITY_CODES)}", where)
    return _CITY[text.lower()]


def _piece(text: str, colours: int, where: str) -> tuple[int, int]:
    match = re.fullmatch(r"([A-Za-z])([0-9]+)", text)
    if not match:
        raise NotationError(f"expected a colour letter and a size, e.g. 'A4', got {excerpt(text)}", where)
    colour = _colour(match.group(1), colours, where)
    size = parse_int(match.group(2), where + " size")  # not int(): a 5000-digit size raises ValueError
    if size not in SIZES:
        raise NotationError(f"pieces have 1 to 4 floors, not {size}", where)
    return colour, size


# --- positions ---------------------------------------------------------------------------
def _digits(counts: tuple[int, ...]) -> str:
    return "".join(str(k) * n for k, n in enumerate(counts)) or "-"


def _sizes(counts: tuple[int, ...] | None) -> str:
    if counts is None:
        return "_"
    return "".join(str(s) * n for s, n in zip(SIZES, counts, strict=True)) or "-"


def towers_text(towers: tuple[tuple[Piece, ...], ...]) -> str:
    parts = []
    for index, tower in enumerate(towers):
        if tower:
            city, lot = divmod(index, 9)
            parts.append(f"{CITY_CODES[city]}{lot}:" + "".join(f"{COLOUR_LETTERS[p.colour]}{p.size}" for p in tower))
    return ",".join(parts) or "-"


def state_text(state: ManhattanState) -> str:
    fields = [
        f"manhattan/{state.players}",
        f"round={state.round}",
        f"phase={state.phase}",
        f"turn={state.turn}",
        f"towers={towers_text(state.towers)}",
        "hands=" + "/".join(_digits(h) for h in state.hands),
        "draw=" + "".join(str(n) for n in state.draw),
        "discard=" + "".join(str(n) for n in state.discard),
        *_pieces_and_points(state, "/".join(_sizes(c) for c in state.chosen)),
    ]
    return " ".join(fields)


def _pieces_and_points(position: Any, chosen: str) -> list[str]:
    """The fields a position and a view write alike, from the supply on (``chosen`` as written)."""
    fields = [
        "supply=" + "/".join(".".join(str(n) for n in s) for s in position.supply),
        f"chosen={chosen}",
        "points=" + "/".join(str(p) for p in position.points),
    ]
    if any(any(b) for b in position.box):
        fields.append("box=" + "/".join(".".join(str(n) for n in b) for b in position.box))
    if position.redraws:
        fields.append(f"redraws={position.redraws}")
    if position.passes:
        fields.append(f"passes={position.passes}")
    return fields


_KEYS = (
    "round",
    "phase",
    "turn",
    "towers",
    "hands",
    "draw",
    "discard",
    "supply",
    "chosen",
    "points",
    "box",
    "redraws",
    "passes",
)


def parse_state(game: ManhattanGame, text: str) -> ManhattanState:
    """A position from its notation. Raises ``NotationError`` for unreadable text and
    ``InvalidStateError`` for a readable position that breaks an invariant."""
    n = game.players
    fields = parse_fields(text, f"manhattan/{n}", _KEYS)
    rules = game.rules
    colours = rules.colour_count(n)
    round_no = parse_int(fields.get("round", "1"), "round", 1, 99)
    phase = fields.get("phase", "select")
    if phase not in PHASES:
        raise NotationError(f"unknown phase {excerpt(phase)}; phases are {', '.join(PHASES)}", "phase")
    turn = parse_int(fields.get("turn", str((round_no - 1) % n)), "turn", 0, n - 1)
    towers = _parse_towers(fields.get("towers", "-"), colours)
    hands = _per(fields, "hands", n, "-", _parse_cards)
    discard = _parse_counts(fields.get("discard", "0" * 9), "discard")
    box = _per(fields, "box", colours, "0.0.0.0", _parse_supply)
    chosen = _per(fields, "chosen", colours, "_", _parse_chosen)
    points = _per(fields, "points", n, "0", parse_int)
    redraws = parse_int(fields.get("redraws", "0"), "redraws", 0)
    passes = parse_int(fields.get("passes", "0"), "passes", 0)

    if "supply" in fields:
        supply = _per(fields, "supply", colours, "", _parse_supply)
    else:
        supply = _supply_left(towers, chosen, box)
    if "draw" in fields:
        draw = _parse_counts(fields["draw"], "draw")
    else:
        draw = tuple(CARDS_PER_LOT - discard[k] - sum(h[k] for h in hands) for k in range(9))

    state = ManhattanState(
        game=game,
        round=round_no,
        phase=phase,
        turn=turn,
        towers=towers,
        hands=hands,
        draw=draw,
        discard=discard,
        supply=supply,
        chosen=chosen,
        box=box,
        points=points,
        redraws=redraws,
        passes=passes,
    )
    validate(state)
    return state


def _per(fields: dict[str, str], key: str, count: int, default: str, read: Callable[[str, str], Any]) -> Any:
    """A field of ``count`` parts separated by ``/`` (per player or per colour), each read by
    ``read(part, "key[i]")``; ``default`` is each part's text when the field is left out."""
    text = fields.get(key, "/".join([default] * count))
    return tuple(read(part, f"{key}[{i}]") for i, part in enumerate(split_fields(text, count, key)))


def _supply_left(
    towers: tuple[Tower, ...], chosen: tuple[Counts | None, ...], box: tuple[Counts, ...]
) -> tuple[Counts, ...]:
    """A supply the notation leaves out: every piece of a colour (MAN-COMP-2) not on the board,
    selected or in the box."""
    on_board = [[0] * 4 for _ in chosen]
    for tower in towers:
        for piece in tower:
            on_board[piece.colour][piece.size - 1] += 1
    return tuple(
        tuple(PIECES_PER_SIZE[s] - on_board[c][s] - (chosen[c] or (0,) * 4)[s] - box[c][s] for s in range(4))
        for c in range(len(chosen))
    )


def _parse_counts(text: str, where: str) -> tuple[int, ...]:
    if not re.fullmatch(r"[0-9]{9}", text):
        raise NotationError(f"expected 9 digits (cards per lot index 0-8), got {excerpt(text)}", where)
    return tuple(int(ch) for ch in text)


def _parse_cards(text: str, where: str) -> tuple[int, ...]:
    if text == "-":
        return (0,) * 9
    if not re.fullmatch(r"[0-8]+", text):
        raise NotationError(f"expected card digits 0-8 (e.g. '0034'), got {excerpt(text)}", where)
    return tuple(text.count(str(k)) for k in range(9))


def _parse_supply(text: str, where: str) -> tuple[int, ...]:
    parts = text.split(".")
    if len(parts) != 4:
        raise NotationError(f"expected four counts (sizes 1.2.3.4), got {excerpt(text)}", where)
    return tuple(parse_int(p, where, 0) for p in parts)


def _parse_chosen(text: str, where: str) -> tuple[int, ...] | None:
    if text == "_":
        return None
    if text == "-":
        return (0, 0, 0, 0)
    if not re.fullmatch(r"[1-4]+", text):
        raise NotationError(
            f"expected piece sizes 1-4, '-' (none left) or '_' (not selected), got {excerpt(text)}", where
        )
    return tuple(text.count(str(s)) for s in SIZES)


def _parse_towers(text: str, colours: int) -> tuple[tuple[Piece, ...], ...]:
    towers: list[tuple[Piece, ...]] = [()] * 54
    if text == "-":
        return tuple(towers)
    for entry in text.split(","):
        where = f"towers {excerpt(entry)}"
        match = re.fullmatch(r"([A-Za-z]+)([0-8]):((?:[A-D][1-4])+)", entry)
        if not match:
            raise NotationError("expected <city><lot>:<pieces>, e.g. 'Syd4:B3A1'", where)
        city = _city(match.group(1), where)
        index = city * 9 + int(match.group(2))
        if towers[index]:
            raise NotationError("this lot is given twice", where)
        pieces = tuple(Piece(_colour(c, colours, where), int(s)) for c, s in _PIECE.findall(match.group(3)))
        towers[index] = pieces
    return tuple(towers)


def view_text(view: Any) -> str:
    """A view in the position notation, hidden facts written as '?'."""
    hands = "/".join(
        _digits(h) if h is not None else "?" * size for h, size in zip(view.hands, view.hand_sizes, strict=True)
    )
    chosen = "/".join(c if isinstance(c, str) else _sizes(c) for c in view.chosen)
    fields = [
        f"manhattan/{len(view.hands)}@P{view.player}",
        f"round={view.round}",
        f"phase={view.phase}",
        f"turn={view.turn}",
        f"towers={towers_text(view.towers)}",
        f"hands={hands}",
        f"draw=#{view.draw_size}",
        "discard=" + "".join(str(n) for n in view.discard),
        *_pieces_and_points(view, chosen),
    ]
    return " ".join(fields)
