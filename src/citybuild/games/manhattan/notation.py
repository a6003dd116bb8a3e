"""Manhattan's text notation for moves and whole positions (documented in docs/games/manhattan.md).

A position is one line of ``key=value`` fields after a ``manhattan/<players>`` header, e.g.::

    manhattan/2 round=1 phase=build turn=0 towers=Syd4:B3A1,HK0:A1 hands=0034/1278
    draw=... discard=000000000 supply=... chosen=1124/-/1333/- points=0/0

``supply`` and ``draw`` may be left out of hand-written text: they are then whatever the other
fields leave (24 pieces per colour, 45 cards).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import InvalidStateError, NotationError
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int, split_fields
from citybuild.core.tower import Piece
from citybuild.core.tower import floors_by_owner as floors_by_colour
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import (
    CARDS_PER_LOT,
    CITY_CODES,
    COLOUR_LETTERS,
    DECK_SIZE,
    HAND_SIZE,
    PIECES_PER_SIZE,
    SIZES,
)
from citybuild.games.manhattan.state import PHASES, ManhattanState

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame

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
        "supply=" + "/".join(".".join(str(n) for n in s) for s in state.supply),
        "chosen=" + "/".join(_sizes(c) for c in state.chosen),
        "points=" + "/".join(str(p) for p in state.points),
    ]
    if any(any(b) for b in state.box):
        fields.append("box=" + "/".join(".".join(str(n) for n in b) for b in state.box))
    if state.redraws:
        fields.append(f"redraws={state.redraws}")
    if state.passes:
        fields.append(f"passes={state.passes}")
    return " ".join(fields)


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
    hands = tuple(
        _parse_cards(h, f"hands[{i}]")
        for i, h in enumerate(split_fields(fields.get("hands", "/".join("-" * n)), n, "hands"))
    )
    discard = _parse_counts(fields.get("discard", "0" * 9), "discard")
    box = tuple(
        _parse_supply(b, f"box[{i}]")
        for i, b in enumerate(split_fields(fields.get("box", "/".join(["0.0.0.0"] * colours)), colours, "box"))
    )
    chosen = tuple(
        _parse_chosen(c, f"chosen[{i}]")
        for i, c in enumerate(split_fields(fields.get("chosen", "/".join("_" * colours)), colours, "chosen"))
    )
    points = tuple(
        parse_int(p, f"points[{i}]")
        for i, p in enumerate(split_fields(fields.get("points", "/".join("0" * n)), n, "points"))
    )
    redraws = parse_int(fields.get("redraws", "0"), "redraws", 0)
    passes = parse_int(fields.get("passes", "0"), "passes", 0)

    on_board = [[0] * 4 for _ in range(colours)]
    for tower in towers:
        for piece in tower:
            on_board[piece.colour][piece.size - 1] += 1
    if "supply" in fields:
        supply = tuple(
            _parse_supply(s, f"supply[{i}]") for i, s in enumerate(split_fields(fields["supply"], colours, "supply"))
        )
    else:
        supply = tuple(
            tuple(PIECES_PER_SIZE[s] - on_board[c][s] - (chosen[c] or (0,) * 4)[s] - box[c][s] for s in range(4))
            for c in range(colours)
        )
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
    validate(state, on_board)
    return state


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


def _validate_shapes(state: ManhattanState, colours: int) -> None:
    """Every field has the size and range the game gives it (a tampered JSON position may not)."""
    n = state.players

    def ints(value: Any, length: int, where: str, rule: str) -> None:
        """Shape and type only: negative counts are reported by the conservation checks below,
        which can say how many pieces or cards there are."""
        if (
            not isinstance(value, tuple)
            or len(value) != length
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            raise InvalidStateError(f"{where} must be {length} integers, not {value!r}", rule)

    if state.phase not in PHASES:
        raise InvalidStateError(f"unknown phase {state.phase!r}", "MAN-ROUND-1")
    if not (isinstance(state.turn, int) and 0 <= state.turn < n and isinstance(state.round, int) and state.round >= 1):
        raise InvalidStateError(f"turn {state.turn!r} / round {state.round!r} out of range", "MAN-ROUND-2")
    if not isinstance(state.towers, tuple) or len(state.towers) != 54:
        raise InvalidStateError("the board has 54 lots", "MAN-COMP-1")
    for index, tower in enumerate(state.towers):
        for piece in tower:
            if not (0 <= piece.colour < colours and piece.size in SIZES):
                raise InvalidStateError(
                    f"lot {index} holds a piece of colour {piece.colour!r} and size {piece.size!r}; "
                    f"this game has colours 0-{colours - 1} and sizes 1-4",
                    "MAN-COMP-2",
                )
    ints(state.draw, 9, "the draw pile", "MAN-COMP-3")
    ints(state.discard, 9, "the discard pile", "MAN-COMP-3")
    for name, rows, count in (
        ("hands", state.hands, n),
        ("supply", state.supply, colours),
        ("box", state.box, colours),
    ):
        if not isinstance(rows, tuple) or len(rows) != count:
            raise InvalidStateError(f"{name} must have {count} entries", "MAN-SETUP-1")
    for p, hand in enumerate(state.hands):
        ints(hand, 9, f"P{p}'s hand", "MAN-COMP-4")
    for c in range(colours):
        ints(state.supply[c], 4, f"supply of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
        ints(state.box[c], 4, f"box of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
        if state.chosen[c] is not None:
            ints(state.chosen[c], 4, f"chosen pieces of {COLOUR_LETTERS[c]}", "MAN-ROUND-1")
    if len(state.chosen) != colours or len(state.points) != n:
        raise InvalidStateError("chosen needs one entry per colour and points one per player", "MAN-SETUP-1")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in state.points):
        raise InvalidStateError(f"points must be integers, not {state.points!r}", "MAN-SCORE-5")


def _rival(floors: dict[int, int], top: int, compare: str) -> int | None:
    """The colour (or merged player) whose floors a tower's owner ``top`` has reached in legal play
    (MAN-BUILD-6): every other one, so the one with the most; under ``takeover_compare="any_colour"``
    only some other one, so the one with the fewest. None for a tower of ``top`` alone."""
    others = [unit for unit in floors if unit != top]
    if not others:
        return None
    return (min if compare == "any_colour" else max)(others, key=floors.__getitem__)


def validate(state: ManhattanState, on_board: list[list[int]] | None = None) -> None:
    """Raise ``InvalidStateError`` naming the first broken invariant of a position."""
    n = state.players
    rules = state.rules
    colours = rules.colour_count(n)
    _validate_shapes(state, colours)
    if on_board is None:
        on_board = [[0] * 4 for _ in range(colours)]
        for tower in state.towers:
            for piece in tower:
                on_board[piece.colour][piece.size - 1] += 1
    # MAN-BUILD-6: the owner has at least as many floors as any other colour (with
    # two_colour_legality="merged", MAN-BUILD-7: as any other player, a player's colours counted as one;
    # with takeover_compare="any_colour", MAN-BUILD-4: as at least one other).
    merged = rules.two_colour_legality == "merged"
    fewest = " (and every other one more)" if rules.takeover_compare == "any_colour" else ""
    for index, tower in enumerate(state.towers):
        if tower:
            floors = floors_by_colour(tower)
            if merged:
                per_player: dict[int, int] = {}
                for colour, count in floors.items():
                    per_player[colour % n] = per_player.get(colour % n, 0) + count
                top = tower[-1].colour % n
                worst = _rival(per_player, top, rules.takeover_compare)
                if worst is not None and per_player[worst] > per_player[top]:
                    city, lot = divmod(index, 9)
                    raise InvalidStateError(
                        f"tower {CITY_CODES[city]}{lot} is owned by P{top} with {per_player[top]} floors "
                        f"but P{worst} has {per_player[worst]} there{fewest}",
                        "MAN-BUILD-7",
                    )
                continue
            top = tower[-1].colour
            worst = _rival(floors, top, rules.takeover_compare)
            if worst is not None and floors[worst] > floors[top]:
                city, lot = divmod(index, 9)
                raise InvalidStateError(
                    f"tower {CITY_CODES[city]}{lot} is owned by {COLOUR_LETTERS[top]} with {floors[top]} floors "
                    f"but {COLOUR_LETTERS[worst]} has {floors[worst]} there{fewest}",
                    "MAN-BUILD-6",
                )
    # MAN-COMP-2: every colour owns 11/6/4/3 pieces.
    for colour in range(colours):
        for s in range(4):
            chosen = (state.chosen[colour] or (0,) * 4)[s]
            have = on_board[colour][s] + chosen + state.supply[colour][s] + state.box[colour][s]
            if have != PIECES_PER_SIZE[s] or min(chosen, state.supply[colour][s], state.box[colour][s]) < 0:
                raise InvalidStateError(
                    f"colour {COLOUR_LETTERS[colour]} has {have} pieces of size {s + 1} (board {on_board[colour][s]}, "
                    f"chosen {chosen}, supply {state.supply[colour][s]}, box {state.box[colour][s]}); "
                    f"a colour owns {PIECES_PER_SIZE[s]}",
                    "MAN-COMP-2",
                )
    # MAN-COMP-3: 45 cards, 5 per lot index.
    total = sum(state.draw) + sum(state.discard) + sum(sum(h) for h in state.hands)
    if total != DECK_SIZE:
        raise InvalidStateError(f"card count {total} is not {DECK_SIZE}", "MAN-COMP-3")
    for k in range(9):
        have = state.draw[k] + state.discard[k] + sum(h[k] for h in state.hands)
        if have != CARDS_PER_LOT or min(state.draw[k], state.discard[k], *(h[k] for h in state.hands)) < 0:
            in_hands = "+".join(str(h[k]) for h in state.hands)
            raise InvalidStateError(
                f"lot {k} cards: draw pile {state.draw[k]}, discards {state.discard[k]}, hands {in_hands}; "
                f"the deck has {CARDS_PER_LOT} of each and no count is below 0",
                "MAN-COMP-3",
            )
    # MAN-COMP-4 and the phase: hands hold 4, except the player drawing.
    phase, turn = state.phase, state.turn
    for p, hand in enumerate(state.hands):
        size = sum(hand)
        if phase == "deal":
            expected = HAND_SIZE if p < turn else None if p == turn else 0
        elif phase in ("draw", "redraw") and p == turn:
            expected = HAND_SIZE - 1
        else:
            expected = HAND_SIZE
        if (expected is None and size >= HAND_SIZE) or (expected is not None and size != expected):
            raise InvalidStateError(f"P{p} holds {size} cards in phase {phase} (turn {turn})", "MAN-COMP-4")
    if phase == "deal" and (state.round != 1 or any(state.towers)):
        raise InvalidStateError("cards are dealt only before round 1, on an empty board", "MAN-SETUP-4")
    total_rounds = rules.total_rounds(n)
    if rules.rounds != "until_supply_empty" and state.round > total_rounds:
        raise InvalidStateError(f"round {state.round} is past the last round {total_rounds}", "MAN-ROUND-6")
    selected = [state.chosen[rules.colours_of(p, n)[0]] is not None for p in range(n)]
    for p in range(n):
        if len({state.chosen[c] is None for c in rules.colours_of(p, n)}) > 1:
            raise InvalidStateError(f"P{p} has selected for one colour but not the other", "MAN-ROUND-1")
    if phase in ("build", "draw", "redraw") and not all(selected):
        raise InvalidStateError(f"phase {phase} needs every player's selection", "MAN-ROUND-1")
    if phase in ("deal", "over") and any(selected):
        raise InvalidStateError(f"no pieces are selected in phase {phase}", "MAN-ROUND-1")
    if phase == "select" and rules.selection == "sequential_open":
        start = state.start_player
        for step in range(n):
            p = (start + step) % n
            should = step < (turn - start) % n
            if selected[p] != should:
                raise InvalidStateError(
                    f"in sequential selection with P{turn} to select, "
                    f"P{p} {'must' if should else 'must not'} have selected",
                    "MAN-ROUND-1",
                )
    if phase == "build" and not state.unplaced(turn):
        raise InvalidStateError(f"P{turn} is to build but has no unplaced selected piece", "MAN-ROUND-2")
    if state.redraws > rules.redraw_limit or state.redraws < 0:
        raise InvalidStateError(f"{state.redraws} redraws: the limit is {rules.redraw_limit}", "MAN-BUILD-8")
    if phase == "redraw" and state.redraws < 1:
        raise InvalidStateError("a redraw draw follows a Redraw, so redraws is at least 1", "MAN-BUILD-8")
    if state.redraws and rules.no_legal_move != "redraw_then_forfeit":
        raise InvalidStateError(f"no_legal_move={rules.no_legal_move!r} makes no redraws", "MAN-BUILD-8")
    holders = sum(1 for p in range(n) if state.unplaced(p))
    if state.passes and (rules.no_legal_move != "pass_keep_piece" or not 0 < state.passes < max(holders, 1)):
        raise InvalidStateError(
            f"{state.passes} passes in a row: only no_legal_move='pass_keep_piece' passes, and fewer times "
            "than there are players holding pieces",
            "MAN-BUILD-8",
        )
    if phase == "over":
        if rules.rounds == "until_supply_empty":
            if any(any(s) for s in state.supply):
                raise InvalidStateError("the game ends only when every supply is empty", "MAN-ROUND-6")
        elif state.round != total_rounds:
            raise InvalidStateError(f"the game ends after round {total_rounds}, not round {state.round}", "MAN-END-1")
    # MAN-SCORE-5: the itemised ledger (kept by play, absent from notation) adds up to the points.
    if state.ledger:
        if any(not 0 <= item.player < n for item in state.ledger):
            raise InvalidStateError("a score item names a player who is not in the game", "MAN-SCORE-5")
        totals = [0] * n
        for item in state.ledger:
            totals[item.player] += item.points
        if tuple(totals) != state.points:
            raise InvalidStateError(
                f"the score items add up to {tuple(totals)}, but the points are {state.points}", "MAN-SCORE-5"
            )


def view_text(view: Any) -> str:
    """A view in the position notation, hidden facts written as '?'."""
    hands = "/".join(
        _digits(h) if h is not None else "?" * size for h, size in zip(view.hands, view.hand_sizes, strict=True)
    )
    chosen = "/".join(c if isinstance(c, str) else _sizes(c) for c in view.chosen)
    return " ".join(
        [
            f"manhattan/{len(view.hands)}@P{view.player}",
            f"round={view.round}",
            f"phase={view.phase}",
            f"turn={view.turn}",
            f"towers={towers_text(view.towers)}",
            f"hands={hands}",
            f"draw=#{view.draw_size}",
            "discard=" + "".join(str(n) for n in view.discard),
            "supply=" + "/".join(".".join(str(n) for n in s) for s in view.supply),
            f"chosen={chosen}",
            "points=" + "/".join(str(p) for p in view.points),
        ]
    )
