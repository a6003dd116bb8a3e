"""Manhattan's invariants: what every position reached by legal play satisfies.

``validate(state)`` checks a position that comes from outside (notation, JSON, code) and raises
``InvalidStateError`` naming the first broken invariant and its rule. ``validate_view(view)`` checks
a player's view with the same helpers, under every option at once (a view does not carry the
rules), so that a view read from JSON is one some position could give.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import InvalidStateError
from citybuild.core.text import plural
from citybuild.games.manhattan.engine import PHASES
from citybuild.games.manhattan.rules import (
    CARDS_PER_LOT,
    CITY_CODES,
    COLOUR_LETTERS,
    DECK_SIZE,
    HAND_SIZE,
    PIECES_PER_SIZE,
    PLAYER_COUNTS,
)
from citybuild.games.manhattan.takeover import broken_claim

if TYPE_CHECKING:
    from citybuild.games.manhattan.state import ManhattanState
    from citybuild.games.manhattan.view import ManhattanView

Counts = tuple[int, ...]

MAX_ROUNDS = 24
"""No option plays more rounds: ``rounds`` gives 1 to 24 per player count, and with
``until_supply_empty`` every round takes at least one of a colour's 24 pieces (MAN-ROUND-6)."""
MAX_REDRAWS = 45
"""The largest ``redraw_limit`` (MAN-BUILD-8)."""
CHANCE_PHASES = ("deal", "draw", "redraw")
NO_PIECES = (0, 0, 0, 0)
_INTS = frozenset({int})
_TUPLES = frozenset({tuple})


# --- shapes --------------------------------------------------------------------------------------
def _counts(value: Any, length: int, what: str, rule: str) -> None:
    """Shape and type only: a tuple of ``length`` real ints. Negative counts are reported by the
    conservation checks, which can say how many pieces or cards there are."""
    if type(value) is not tuple or len(value) != length or not _INTS.issuperset(map(type, value)):
        raise InvalidStateError(f"{what} must be {length} integers, not {value!r}", rule)


def _rows(value: Any, count: int, what: str, rule: str) -> None:
    if type(value) is not tuple or len(value) != count:
        raise InvalidStateError(f"{what} must have {count} entries", rule)


def check_clock(phase: Any, round_no: Any, turn: Any, players: int) -> None:
    """MAN-ROUND: a known phase, a seat to act or draw, a round from 1 to the most any option plays."""
    if type(phase) is not str or phase not in PHASES:
        raise InvalidStateError(f"unknown phase {phase!r}", "MAN-ROUND-1")
    if type(turn) is not int or not 0 <= turn < players or type(round_no) is not int or round_no < 1:
        raise InvalidStateError(f"turn {turn!r} / round {round_no!r} out of range", "MAN-ROUND-2")
    if round_no > MAX_ROUNDS:
        raise InvalidStateError(f"round {round_no} is past {MAX_ROUNDS}, the most any option plays", "MAN-ROUND-6")
    if phase == "deal" and round_no != 1:
        raise InvalidStateError("cards are dealt only before round 1, on an empty board", "MAN-SETUP-4")


# --- the board and the pieces ------------------------------------------------------------------
@lru_cache(maxsize=8)
def _slots(colours: int) -> dict[tuple[int, int], int]:
    """Each piece (colour, size) of this game's colours and sizes 1-4, and its place in a flat count."""
    return {(colour, size): 4 * colour + size - 1 for colour in range(colours) for size in range(1, 5)}


@lru_cache(maxsize=8)
def _per_colour(colours: int) -> tuple[slice, ...]:
    """Where each colour's four counts stand in the flat count."""
    return tuple(slice(start, start + 4) for start in range(0, 4 * colours, 4))


def pieces_on_board(towers: Any, colours: int) -> list[list[int]]:
    """MAN-COMP-1/2: 54 lots of pieces (colour, size) of this game's colours and sizes 1-4; the
    number of pieces on the board per colour and size."""
    if type(towers) is not tuple or len(towers) != 54:
        raise InvalidStateError("the board has 54 lots", "MAN-COMP-1")
    slots = _slots(colours)
    flat = [0] * (4 * colours)
    try:
        if _TUPLES.issuperset(map(type, towers)):
            for piece in chain.from_iterable(towers):
                flat[slots[piece]] += 1
            return list(map(flat.__getitem__, _per_colour(colours)))
    except (TypeError, KeyError):  # say which lot holds what
        pass
    for index, tower in enumerate(towers):
        if type(tower) is not tuple:
            raise InvalidStateError(f"lot {index} must hold a tuple of pieces, not {tower!r}", "MAN-COMP-1")
        for piece in tower:
            if not (isinstance(piece, tuple) and len(piece) == 2):
                raise InvalidStateError(f"lot {index} holds {piece!r}, not a piece (colour, size)", "MAN-COMP-2")
            colour, size = piece
            if type(colour) is not int or type(size) is not int or not (0 <= colour < colours and 1 <= size <= 4):
                raise InvalidStateError(
                    f"lot {index} holds a piece of colour {colour!r} and size {size!r}; "
                    f"this game has colours 0-{colours - 1} and sizes 1-4",
                    "MAN-COMP-2",
                )
    raise InvalidStateError("the board holds something that is not a piece", "MAN-COMP-2")


def check_towers(towers: tuple[Any, ...], players: int, legality: str | None, compare: str | None) -> None:
    """MAN-BUILD-6/7: the owner (top piece) has at least as many floors as any other colour (with
    ``legality="merged"``: player), or under ``compare="any_colour"`` as at least one other. A view
    passes ``None`` for both: a tower is refused only if no option allows it."""
    for index, tower in enumerate(towers):
        if len(tower) < 2:
            continue
        if legality is None:  # a view: the weakest claims, per colour or per player
            broken = broken_claim(tower, 0, True) if broken_claim(tower, players, True) else None
        else:
            broken = broken_claim(tower, players if legality == "merged" else 0, compare == "any_colour")
        if broken:
            top, rival, top_floors, rival_floors = broken
            city, lot = divmod(index, 9)
            fewest = " (and every other one more)" if compare == "any_colour" else ""
            if legality != "merged":
                raise InvalidStateError(
                    f"tower {CITY_CODES[city]}{lot} is owned by {COLOUR_LETTERS[top]} with {top_floors} floors "
                    f"but {COLOUR_LETTERS[rival]} has {rival_floors} there{fewest}",
                    "MAN-BUILD-6",
                )
            raise InvalidStateError(
                f"tower {CITY_CODES[city]}{lot} is owned by P{top} with {top_floors} floors "
                f"but P{rival} has {rival_floors} there{fewest}",
                "MAN-BUILD-7",
            )


def check_piece_stock(on_board: list[list[int]], chosen: Sequence[Any], supply: Any, box: Any) -> None:
    """MAN-COMP-2: every colour owns 11/6/4/3 pieces of sizes 1-4, on the board, selected, in its
    supply or in the box, and no count is below 0. A selection hidden from a viewer ("?") is
    counted in the supply, as the view shows it."""
    for colour, board in enumerate(on_board):
        picked = chosen[colour]
        if picked is None or picked == "?":
            picked = NO_PIECES
        stock, boxed = supply[colour], box[colour]
        b1, b2, b3, b4 = board
        p1, p2, p3, p4 = picked
        s1, s2, s3, s4 = stock
        x1, x2, x3, x4 = boxed
        if (b1 + p1 + s1 + x1, b2 + p2 + s2 + x2, b3 + p3 + s3 + x3, b4 + p4 + s4 + x4) == PIECES_PER_SIZE and min(
            p1, p2, p3, p4, s1, s2, s3, s4, x1, x2, x3, x4
        ) >= 0:
            continue
        for s in range(4):
            have = board[s] + picked[s] + stock[s] + boxed[s]
            if have != PIECES_PER_SIZE[s] or min(picked[s], stock[s], boxed[s]) < 0:
                raise InvalidStateError(
                    f"colour {COLOUR_LETTERS[colour]} has {have} pieces of size {s + 1} (board {board[s]}, "
                    f"chosen {picked[s]}, supply {stock[s]}, box {boxed[s]}); a colour owns {PIECES_PER_SIZE[s]}",
                    "MAN-COMP-2",
                )


# --- the cards -----------------------------------------------------------------------------------
def check_deck(draw: Counts | None, discard: Counts, hands: Sequence[Counts | None], hidden: int = 0) -> None:
    """MAN-COMP-3: 45 cards, 5 per lot index, and no count below 0. ``draw`` and hands are None
    where a viewer cannot see them, and ``hidden`` is how many cards those hold."""
    known = [c for c in (draw, discard, *hands) if c is not None]
    lots = list(map(sum, zip(*known, strict=True)))
    total = sum(lots) + hidden
    if total != DECK_SIZE:
        raise InvalidStateError(f"card count {total} is not {DECK_SIZE}", "MAN-COMP-3")
    if max(lots) <= CARDS_PER_LOT and min(map(min, known)) >= 0:
        return
    for k in range(9):
        counts = [c[k] for c in known]
        if sum(counts) > CARDS_PER_LOT or min(counts) < 0 or (hidden == 0 and sum(counts) != CARDS_PER_LOT):
            pile = "?" if draw is None else draw[k]
            in_hands = "+".join("?" if h is None else str(h[k]) for h in hands)
            raise InvalidStateError(
                f"lot {k} cards: draw pile {pile}, discards {discard[k]}, hands {in_hands}; "
                f"the deck has {CARDS_PER_LOT} of each and no count is below 0",
                "MAN-COMP-3",
            )


def check_hand_sizes(sizes: Sequence[int], phase: str, turn: int) -> None:
    """MAN-COMP-4: hands hold 4 cards, except while they are dealt and while their player draws."""
    for p, size in enumerate(sizes):
        if phase == "deal":
            expected = HAND_SIZE if p < turn else None if p == turn else 0
        elif phase in ("draw", "redraw") and p == turn:
            expected = HAND_SIZE - 1
        else:
            expected = HAND_SIZE
        if (expected is None and not 0 <= size < HAND_SIZE) or (expected is not None and size != expected):
            raise InvalidStateError(f"P{p} holds {plural(size, 'card')} in phase {phase} (turn {turn})", "MAN-COMP-4")


def check_draw_pile(phase: str, cards: int) -> None:
    """MAN-CARD-3: a draw never meets an empty pile (the discards come back first), so every
    chance state has a card to draw."""
    if phase in CHANCE_PHASES and cards <= 0:
        raise InvalidStateError(
            f"phase {phase} draws a card, but the draw pile is empty; the discards return to it before a draw",
            "MAN-CARD-3",
        )


# --- selections and turns -------------------------------------------------------------------------
def check_selection(phase: str, selected: Sequence[bool]) -> None:
    """MAN-ROUND-1: everyone has selected while pieces are built and nobody before the deal is done
    or after the end; in phase select somebody still selects."""
    if phase in ("build", "draw", "redraw") and not all(selected):
        raise InvalidStateError(f"phase {phase} needs every player's selection", "MAN-ROUND-1")
    if phase in ("deal", "over") and any(selected):
        raise InvalidStateError(f"no pieces are selected in phase {phase}", "MAN-ROUND-1")
    if phase == "select" and all(selected):
        raise InvalidStateError(
            "every player has selected, yet the phase is still select: the last selection starts the building",
            "MAN-ROUND-1",
        )


def check_redraws(phase: str, redraws: int, limit: int) -> None:
    """MAN-BUILD-8: redraws count a builder's Redraws this turn, up to the limit."""
    if not 0 <= redraws <= limit:
        raise InvalidStateError(f"{redraws} redraws: the limit is {limit}", "MAN-BUILD-8")
    if phase == "redraw" and redraws < 1:
        raise InvalidStateError("a redraw draw follows a Redraw, so redraws is at least 1", "MAN-BUILD-8")
    if redraws and phase not in ("build", "redraw"):
        raise InvalidStateError(f"redraws are counted only while a player builds, not in phase {phase}", "MAN-BUILD-8")


def _selected(chosen: Sequence[Any], colours_of: Sequence[Sequence[int]]) -> list[bool]:
    """Per player, whether they have selected this round (MAN-ROUND-1): both colours or neither."""
    if all(len(colours) == 1 for colours in colours_of):
        return [chosen[colours[0]] is not None for colours in colours_of]
    out = []
    for p, colours in enumerate(colours_of):
        marks = {chosen[c] is None for c in colours}
        if len(marks) > 1:
            raise InvalidStateError(f"P{p} has selected for one colour but not the other", "MAN-ROUND-1")
        out.append(not marks.pop())
    return out


# --- a position ---------------------------------------------------------------------------------
def validate(state: ManhattanState) -> None:
    """Raise ``InvalidStateError`` naming the first broken invariant of a position."""
    n = state.players
    rules = state.rules
    colours = rules.colour_count(n)
    phase, turn = state.phase, state.turn
    check_clock(phase, state.round, turn, n)
    _check_shapes(state, n, colours)
    if type(state.redraws) is not int or type(state.passes) is not int:
        raise InvalidStateError("redraws and passes are integers", "MAN-BUILD-8")
    on_board = pieces_on_board(state.towers, colours)
    check_towers(state.towers, n, rules.two_colour_legality, rules.takeover_compare)
    check_piece_stock(on_board, state.chosen, state.supply, state.box)
    check_deck(state.draw, state.discard, state.hands)
    check_hand_sizes(list(map(sum, state.hands)), phase, turn)
    check_draw_pile(phase, sum(state.draw))
    if phase == "deal" and any(state.towers):
        raise InvalidStateError("cards are dealt only before round 1, on an empty board", "MAN-SETUP-4")
    total_rounds = rules.total_rounds(n)
    if rules.rounds != "until_supply_empty" and state.round > total_rounds:
        raise InvalidStateError(f"round {state.round} is past the last round {total_rounds}", "MAN-ROUND-6")
    selected = _selected(state.chosen, state.game.colour_table)
    check_selection(phase, selected)
    _check_turn_order(state, selected)
    _check_no_legal_move(state)
    if phase == "over":
        _check_end(state, total_rounds)
    _check_ledger(state)


def _check_shapes(state: ManhattanState, n: int, colours: int) -> None:
    """Every count row has its length and holds integers (MAN-SETUP-1, MAN-COMP-2..4)."""
    _rows(state.hands, n, "hands", "MAN-SETUP-1")
    _rows(state.supply, colours, "supply", "MAN-SETUP-1")
    _rows(state.box, colours, "box", "MAN-SETUP-1")
    _rows(state.chosen, colours, "chosen", "MAN-SETUP-1")
    picked = [c for c in state.chosen if c is not None]
    rows = (state.points, state.draw, state.discard, *state.hands, *state.supply, *state.box, *picked)
    if not (
        _TUPLES.issuperset(map(type, rows))
        and tuple(map(len, rows)) == _row_lengths(n, colours, len(picked))
        and _INTS.issuperset(map(type, chain.from_iterable(rows)))
    ):  # checked at C speed in one go; row by row only to say which is wrong
        _counts(state.points, n, "points", "MAN-SCORE-5")
        _counts(state.draw, 9, "the draw pile", "MAN-COMP-3")
        _counts(state.discard, 9, "the discard pile", "MAN-COMP-3")
        for p, hand in enumerate(state.hands):
            _counts(hand, 9, f"P{p}'s hand", "MAN-COMP-4")
        for c in range(colours):
            _counts(state.supply[c], 4, f"supply of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
            _counts(state.box[c], 4, f"box of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
            if state.chosen[c] is not None:
                _counts(state.chosen[c], 4, f"chosen pieces of {COLOUR_LETTERS[c]}", "MAN-ROUND-1")


@lru_cache(maxsize=64)
def _row_lengths(players: int, colours: int, picked: int) -> tuple[int, ...]:
    """The lengths of ``_check_shapes``' rows: points, piles, hands, supplies, boxes, selections."""
    return (players, 9, 9, *(9,) * players, *(4,) * (2 * colours + picked))


def _check_no_legal_move(state: ManhattanState) -> None:
    """MAN-BUILD-8: redraws and passes only under the option that makes them, and within bounds."""
    rules, phase, n = state.rules, state.phase, state.players
    check_redraws(phase, state.redraws, rules.redraw_limit)
    if state.redraws and rules.no_legal_move != "redraw_then_forfeit":
        raise InvalidStateError(f"no_legal_move={rules.no_legal_move!r} makes no redraws", "MAN-BUILD-8")
    if state.passes:
        holders = sum(1 for p in range(n) if state.unplaced(p))
        if rules.no_legal_move != "pass_keep_piece" or phase != "build" or not 0 < state.passes < max(holders, 1):
            raise InvalidStateError(
                f"{state.passes} passes in a row: only no_legal_move='pass_keep_piece' passes, while pieces are "
                "built, and fewer times than there are players holding pieces",
                "MAN-BUILD-8",
            )


def _check_end(state: ManhattanState, total_rounds: int) -> None:
    """MAN-ROUND-6, MAN-END-1: a game is over only when its last round is played (or the supplies are empty)."""
    if state.rules.rounds == "until_supply_empty":
        if any(any(s) for s in state.supply):
            raise InvalidStateError("the game ends only when every supply is empty", "MAN-ROUND-6")
    elif state.round != total_rounds:
        raise InvalidStateError(f"the game ends after round {total_rounds}, not round {state.round}", "MAN-END-1")


def _check_turn_order(state: ManhattanState, selected: list[bool]) -> None:
    """MAN-ROUND-1/2/5: who has selected fits whose turn it is (in seat order from the round's start
    player, or all at once with the turn kept by the start player), and a builder holds a piece."""
    n, rules, phase, turn = state.players, state.rules, state.phase, state.turn
    if phase == "select":
        start = state.start_player
        if rules.selection == "sequential_open":
            for step in range(n):
                p = (start + step) % n
                should = step < (turn - start) % n
                if selected[p] != should:
                    raise InvalidStateError(
                        f"in sequential selection with P{turn} to select, "
                        f"P{p} {'must' if should else 'must not'} have selected",
                        "MAN-ROUND-1",
                    )
        elif turn != start:
            raise InvalidStateError(
                f"in hidden selection the turn stays with the round's start player P{start}, not P{turn}", "MAN-ROUND-5"
            )
    if phase == "build" and not state.unplaced(turn):
        raise InvalidStateError(f"P{turn} is to build but has no unplaced selected piece", "MAN-ROUND-2")


@lru_cache(maxsize=64)
def _round_range(tallest: int, majority: int, tower: int) -> tuple[int, int]:
    """The fewest and most points one player can get from one round's scoring (MAN-SCORE-2..4)."""
    values = (tallest, 6 * majority, 54 * tower)
    return sum(min(v, 0) for v in values), sum(max(v, 0) for v in values)


@lru_cache(maxsize=64)
def _round_items(tallest: int, majority: int, tower: int) -> frozenset[tuple[str, str, int]]:
    """(category, rule, points) of every item a round's scoring can give under these point values
    (MAN-SCORE-2..4): the tallest tower, a city majority, and 1 to 54 towers of a colour."""
    towers = {("towers", "MAN-SCORE-4", tower * count) for count in range(1, 55)}
    return frozenset({("tallest", "MAN-SCORE-2", tallest), ("majority", "MAN-SCORE-3", majority), *towers})


def check_unscored(phase: str, round_no: int, points: Sequence[int]) -> None:
    """MAN-SCORE-1: the board is scored at the end of a round, so nobody has points in round 1."""
    if round_no == 1 and phase != "over" and any(points):
        raise InvalidStateError(f"points {tuple(points)} before the first round is scored", "MAN-SCORE-1")


def _check_ledger(state: ManhattanState) -> None:
    """MAN-SCORE-5: the itemised ledger (kept by play, absent from notation) holds items a round's
    scoring gives, and the points stay within what the rounds scored so far can give. A position
    written in notation carries its earlier points without items, so the ledger may account for
    only the rounds played since."""
    n = state.players
    pts = state.rules.points
    check_unscored(state.phase, state.round, state.points)
    items = _round_items(pts["tallest"], pts["majority"], pts["tower"])
    for item in state.ledger:
        if type(item.player) is not int or not 0 <= item.player < n:
            raise InvalidStateError("a score item names a player who is not in the game", "MAN-SCORE-5")
        if (item.category, item.rule, item.points) not in items or type(item.points) is not int:
            raise InvalidStateError(f"{item!r} is not an item a round's scoring gives", "MAN-SCORE-5")
    scored = state.round - (state.phase != "over")
    least, most = _round_range(pts["tallest"], pts["majority"], pts["tower"])
    if not scored * least <= min(state.points) <= max(state.points) <= scored * most:
        raise InvalidStateError(
            f"points {state.points} after {scored} scored rounds of at most {most} points each", "MAN-SCORE-5"
        )
    if len(state.ledger) > scored * (7 + len(state.chosen)):
        raise InvalidStateError(f"{len(state.ledger)} score items in {scored} scored rounds", "MAN-SCORE-5")


# --- a view --------------------------------------------------------------------------------------
def validate_view(view: ManhattanView) -> None:
    """Raise ``InvalidStateError`` if no position could give this view (for views read from JSON):
    the checks of ``validate`` that hold under every option, on what the viewer sees."""
    sizes = view.hand_sizes
    if type(sizes) is not tuple or not all(type(size) is int for size in sizes):
        raise InvalidStateError(f"hand sizes must be integers, not {sizes!r}", "MAN-SETUP-1")
    n = len(sizes)
    if n not in PLAYER_COUNTS or type(view.player) is not int or not 0 <= view.player < n:
        raise InvalidStateError(f"a view of {n} hands cannot belong to player {view.player!r}", "MAN-SETUP-1")
    colours = len(view.supply) if type(view.supply) is tuple else 0
    if colours not in (n, 2 * n) or colours > len(COLOUR_LETTERS):
        raise InvalidStateError(f"{colours} colours for {n} players: each player has one or two", "MAN-SETUP-1")
    _rows(view.hands, n, "hands", "MAN-SETUP-1")
    _rows(view.chosen, colours, "chosen", "MAN-SETUP-1")
    _rows(view.box, colours, "box", "MAN-SETUP-1")
    _counts(view.points, n, "points", "MAN-SCORE-5")
    _counts(view.discard, 9, "the discard pile", "MAN-COMP-3")
    for c in range(colours):
        _counts(view.supply[c], 4, f"supply of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
        _counts(view.box[c], 4, f"box of {COLOUR_LETTERS[c]}", "MAN-COMP-2")
        if view.chosen[c] is not None and view.chosen[c] != "?":
            _counts(view.chosen[c], 4, f"chosen pieces of {COLOUR_LETTERS[c]}", "MAN-ROUND-1")
    if type(view.draw_size) is not int or type(view.redraws) is not int:
        raise InvalidStateError("the draw pile size and redraws are integers", "MAN-COMP-3")
    phase, turn = view.phase, view.turn
    check_clock(phase, view.round, turn, n)
    _check_view_cards(view, sizes, phase, turn)
    # Pieces: the board, selections (hidden ones are counted in the supply) and the box.
    on_board = pieces_on_board(view.towers, colours)
    check_towers(view.towers, n, None, None)
    check_piece_stock(on_board, view.chosen, view.supply, view.box)
    if phase == "deal" and any(view.towers):
        raise InvalidStateError("cards are dealt only before round 1, on an empty board", "MAN-SETUP-4")
    colours_of = [tuple(range(p, colours, n)) for p in range(n)]
    selected = _selected(view.chosen, colours_of)
    check_selection(phase, selected)
    hidden = [c for c in range(colours) if view.chosen[c] == "?"]
    if hidden and (phase != "select" or any(c % n == view.player for c in hidden)):
        raise InvalidStateError("only other players' selections in phase select are hidden", "MAN-ROUND-1")
    allowed: list[tuple[int, ...]]
    if phase in ("select", "build"):
        waiting = tuple(p for p in range(n) if not selected[p])
        allowed = [(turn,)] if phase == "build" else [waiting] if hidden else [(turn,), waiting]
    else:
        allowed = [()]
    if view.to_act not in allowed:
        raise InvalidStateError(f"to_act {view.to_act!r} does not fit phase {phase} (turn {turn})", "MAN-ROUND-2")
    check_redraws(phase, view.redraws, MAX_REDRAWS)
    check_unscored(phase, view.round, view.points)


def _check_view_cards(view: ManhattanView, sizes: tuple[int, ...], phase: str, turn: int) -> None:
    """MAN-COMP-3/4: the viewer's own hand and the discards are seen; the rest is counted."""
    if any((h is None) != (p != view.player) for p, h in enumerate(view.hands)):
        raise InvalidStateError(f"a view shows exactly its own player's hand (P{view.player})", "MAN-COMP-4")
    own = view.hands[view.player]
    _counts(own, 9, "the viewer's hand", "MAN-COMP-4")
    assert own is not None
    if sum(own) != sizes[view.player]:
        raise InvalidStateError(f"the viewer's hand holds {sum(own)} cards, not {sizes[view.player]}", "MAN-COMP-4")
    check_hand_sizes(sizes, phase, turn)
    if view.draw_size < 0:
        raise InvalidStateError(f"the draw pile holds {view.draw_size} cards", "MAN-COMP-3")
    check_deck(None, view.discard, view.hands, view.draw_size + sum(sizes) - sizes[view.player])
    check_draw_pile(phase, view.draw_size)
