"""Why a Manhattan move is refused: every violated rule, with its ID and a plain message.

This is the read-only explainer behind ``State.check``; the engine decides legality on its own
and a property test proves the two agree on random positions. Moves reach it well-formed (the
core refuses wrong field types first), from a player who is to act.
"""

from __future__ import annotations

from typing import Any

from citybuild.core.tower import Tower
from citybuild.core.tuples import is_index
from citybuild.core.verdict import Violation
from citybuild.games.manhattan.engine import ManhattanEngine
from citybuild.games.manhattan.moves import Build, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import CITY_CODES, COLOUR_LETTERS, SIZES
from citybuild.games.manhattan.selections import pieces_to_take, splits_freely
from citybuild.games.manhattan.takeover import floors_of, reference, takeover_side, unit


def violations(e: ManhattanEngine, move: Any, player: int) -> list[Violation]:
    """Every reason why ``player`` may not play ``move`` in the position of ``e``."""
    if isinstance(move, Select):
        return _select_violations(e, move, player)
    if isinstance(move, Build):
        return _build_violations(e, move, player)
    if isinstance(move, Redraw | Forfeit | Pass):
        return _fallback_violations(e, move, player)
    return [Violation("not-a-move", "MAN-ROUND-2", f"{move!r} is not a Manhattan move")]


def _wrong_phase(e: ManhattanEngine, move: Any, wanted: str) -> list[Violation]:
    if e.phase == wanted:
        return []
    if e.phase == "select":
        return [Violation("wrong-phase", "MAN-ROUND-1", f"{move} is not allowed during selection; select pieces first")]
    return [
        Violation("wrong-phase", "MAN-ROUND-1", f"{move} is not allowed now: pieces are selected once, before building")
    ]


def _select_violations(e: ManhattanEngine, move: Select, player: int) -> list[Violation]:
    out = _wrong_phase(e, move, "select")
    if out:
        return out
    colours = e.colours(player)
    picked = tuple(c for c, _ in move.picks)
    if picked != colours or not all(type(c) is int for c in picked):
        mine = ", ".join(COLOUR_LETTERS[c] for c in colours)
        return [Violation("wrong-colours", "MAN-ROUND-1", f"{move} must name exactly P{player}'s colours ({mine})")]
    per_round = e.per_round
    free = splits_freely(e.rules, colours)
    if free:  # twice pieces_per_round in all (or every piece left), split any way
        wanted = pieces_to_take(per_round, *(e.supply[c] for c in colours))
        count = sum(len(sizes) for _, sizes in move.picks)
        if count != wanted:
            mine = " and ".join(COLOUR_LETTERS[c] for c in colours)
            message = f"{mine} must select exactly {wanted} pieces in all, split any way, not {count}"
            out.append(Violation("wrong-count", "MAN-ROUND-1", message))
    for colour, sizes in move.picks:
        letter = COLOUR_LETTERS[colour]
        supply = e.supply[colour]
        wanted = pieces_to_take(per_round, supply)
        if not free and len(sizes) != wanted:
            out.append(
                Violation(
                    "wrong-count", "MAN-ROUND-1", f"{letter} must select exactly {wanted} pieces, not {len(sizes)}"
                )
            )
        if not all(type(s) is int for s in sizes):
            out.append(Violation("no-such-size", "MAN-COMP-2", f"piece sizes are whole numbers, not {sizes!r}"))
            continue
        for s in sorted(set(sizes)):
            if not (type(s) is int and s in SIZES):
                out.append(Violation("no-such-size", "MAN-COMP-2", f"pieces have 1 to 4 floors, not {s!r}"))
            elif sizes.count(s) > supply[s - 1]:
                out.append(
                    Violation(
                        "not-in-supply",
                        "MAN-ROUND-1",
                        f"{letter} selects {sizes.count(s)} pieces of size {s} but has {supply[s - 1]} in supply",
                    )
                )
    return out


def _build_violations(e: ManhattanEngine, move: Build, player: int) -> list[Violation]:
    out = _wrong_phase(e, move, "build")
    if out:
        return out
    k, city, colour, size = move.card, move.city, move.colour, move.size
    if not is_index(k, 9):
        out.append(Violation("no-such-card", "MAN-COMP-3", f"cards show lot 0 to 8, not {k!r}"))
    elif not e.hands[player][k]:
        hand = "".join(str(c) * n for c, n in enumerate(e.hands[player]))
        out.append(Violation("card-not-in-hand", "MAN-BUILD-2", f"P{player} holds no {k}-card (hand {hand})"))
    if not is_index(city, 6):
        out.append(
            Violation("no-such-city", "MAN-COMP-1", f"cities are 0 to 5 ({', '.join(CITY_CODES)}), not {city!r}")
        )
    if not (is_index(colour, 4) and colour in e.colours(player)):
        mine = ", ".join(COLOUR_LETTERS[c] for c in e.colours(player))
        named = COLOUR_LETTERS[colour] if is_index(colour, 4) else repr(colour)
        out.append(Violation("not-your-colour", "MAN-BUILD-2", f"P{player} plays {mine}, not {named}"))
    elif not (type(size) is int and size in SIZES):
        out.append(Violation("no-such-size", "MAN-COMP-2", f"pieces have 1 to 4 floors, not {size!r}"))
    elif not (e.chosen[colour] or (0, 0, 0, 0))[size - 1]:
        unplaced = e.chosen[colour] or (0, 0, 0, 0)
        left = "".join(str(s) * n for s, n in zip(SIZES, unplaced, strict=True)) or "none"
        out.append(
            Violation(
                "piece-not-selected",
                "MAN-BUILD-3",
                f"{COLOUR_LETTERS[colour]} has no unplaced selected piece of size {size} (left: {left})",
            )
        )
    if out:
        return out
    lot = e.target_lot(k, colour)
    tower = e.towers[city * 9 + lot]
    need = e.need(tower, colour, player)
    if size < need:
        message = _takeover_message(e, tower, colour, player, size, need, f"{CITY_CODES[city]}{lot}")
        out.append(Violation("takeover-too-small", "MAN-BUILD-4", message))
    return out


def _takeover_message(
    e: ManhattanEngine, tower: Tower, colour: int, player: int, size: int, need: int, where: str
) -> str:
    """Why ``size`` is too small on ``tower`` (MAN-BUILD-4), in the units that legality compares:
    colours, or players under ``two_colour_legality="merged"`` (MAN-BUILD-7); and, when that is
    not the owner, the colour the rule compares with (the most floors for ``max_other``, the fewest
    for ``any_colour``)."""
    me, merge = takeover_side(e.rules, e.players, colour, player)
    unit_name, names = ("player", [f"P{p}" for p in range(e.players)]) if merge else ("colour", list(COLOUR_LETTERS))
    floors = floors_of(tower, merge)
    top = unit(tower[-1].colour, merge)
    mine = floors.get(me, 0)
    text = f"{where} is owned by {names[top]} with {floors[top]} floors"
    compare = e.rules.takeover_compare
    if compare != "owner":
        ref = reference(floors, me, top, compare)
        if floors[ref] != floors[top]:
            most = "fewest" if compare == "any_colour" else "most"
            text += f" and the {most} floors of another {unit_name} there are {names[ref]}'s {floors[ref]}"
    return f"{text}; {names[me]} would have {mine} + {size} = {mine + size}, and needs a piece of at least {need}"


def _fallback_violations(e: ManhattanEngine, move: Redraw | Forfeit | Pass, player: int) -> list[Violation]:
    out = _wrong_phase(e, move, "build")
    if out:
        return out
    if e.legal_builds(player):
        return [Violation("must-build", "MAN-BUILD-8", f"P{player} has a legal build, and every turn builds")]
    fields = (move.card,) if isinstance(move, Redraw) else (move.colour, move.size) if isinstance(move, Forfeit) else ()
    if not all(type(v) is int for v in fields):
        return [Violation("not-a-move", "MAN-BUILD-8", f"{move!r} names a card, colour or size that is not a number")]
    allowed = e.fallbacks(player)
    if move in allowed:
        return []
    policy = e.rules.no_legal_move
    if isinstance(move, Redraw):
        if policy != "redraw_then_forfeit":
            return [Violation("no-redraw", "MAN-BUILD-8", f"no_legal_move={policy!r} allows no redraw")]
        if e.redraws >= e.rules.redraw_limit:
            return [Violation("redraw-limit", "MAN-BUILD-8", f"{e.redraws} redraws made; now forfeit a piece")]
        return [Violation("card-not-in-hand", "MAN-BUILD-8", f"P{player} holds no {move.card}-card to redraw")]
    if isinstance(move, Forfeit):
        if policy == "pass_keep_piece":
            return [Violation("no-forfeit", "MAN-BUILD-8", "no_legal_move='pass_keep_piece' passes instead")]
        if policy == "redraw_then_forfeit" and e.redraws < e.rules.redraw_limit:
            return [
                Violation(
                    "redraw-first",
                    "MAN-BUILD-8",
                    f"redraw first ({e.redraws} of {e.rules.redraw_limit} made)",
                )
            ]
        return [Violation("piece-not-selected", "MAN-BUILD-8", f"{move} names no unplaced selected piece of P{player}")]
    return [Violation("no-pass", "MAN-BUILD-8", f"passing is not allowed under no_legal_move={policy!r}")]
