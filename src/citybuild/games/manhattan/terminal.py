"""Manhattan at the terminal (the spec's ``board_text`` hook): the six cities as 3x3 grids seen
from the player's own side (so card cell k is the lot at the same place in every city), each lot
showing its tower's height and owner (``5B``) over its floors per colour (``A2B3``: what a
takeover must beat, MAN-BUILD-4) or, empty, its board number in brackets; the seats
around the table; each player's points, hand (only the viewer's cards), selection and supply; and
which lot each of the viewer's card cells names."""

from __future__ import annotations

from typing import Any

from citybuild.core.ansi import paint, player_style
from citybuild.core.text import article, plural
from citybuild.core.tower import height
from citybuild.games.manhattan.position import selections_shown
from citybuild.games.manhattan.rules import CITY_CODES, CITY_NAMES, COLOUR_LETTERS, ROT, SIDE_LETTERS, SIZES
from citybuild.games.manhattan.takeover import floors_of

SIDES = {"S": "South", "W": "West", "N": "North", "E": "East"}
CELL = 6


def _cell(tower: Any, lot: int, colour: bool) -> tuple[str, str]:
    """A lot's two lines: height and owner over floors per colour; an empty lot's board number."""
    if not tower:
        return paint(f"({lot})".center(CELL), "grey", colour), " " * CELL
    owner = tower[-1].owner
    top = paint(f"{height(tower)}{COLOUR_LETTERS[owner]}".center(CELL), player_style(owner) + "+bold", colour)
    floors = floors_of([(piece.owner, piece.size) for piece in tower])
    text = "".join(f"{COLOUR_LETTERS[c]}{n}" for c, n in sorted(floors.items()))
    if len(text) > CELL:  # four colours in one tower: the owner's and the two tallest others
        kept = sorted(floors, key=lambda c: (c != owner, -floors[c]))[:2]
        text = "".join(f"{COLOUR_LETTERS[c]}{floors[c]}" for c in sorted(kept)) + "+"
    return top, paint(text.center(CELL), "grey", colour)


def _seat_side(game: Any, seat: int) -> int:
    return SIDE_LETTERS.index(game.rules.sides[game.players][seat])


def board_text(view: Any, game: Any, colour: bool) -> str:
    """The board and the players, for the view's player (see the module's docstring)."""
    n = game.players
    me = view.player
    bottom = _seat_side(game, me)
    total = game.rules.total_rounds(n)
    acting = ", ".join(f"P{p}" + (" (you)" if p == me else "") for p in view.to_act) or "-"
    lines = [f"round {view.round} of {total} · phase {view.phase} · to act: {acting}"]
    sitting: dict[int, list[str]] = {}
    for p in range(n):
        for c in game.colour_table[p]:
            side = game.rules.side_of_colour(c, n)
            sitting.setdefault(side, []).append(paint(f"P{p} {COLOUR_LETTERS[c]}", player_style(c), colour))
    far, left, right = (bottom + 2) % 4, (bottom + 1) % 4, (bottom + 3) % 4

    def seated(side: int) -> str:
        return f"{SIDES[SIDE_LETTERS[side]]}: {', '.join(sitting.get(side, [])) or 'nobody'}"

    lines.append(f"  far side {seated(far)} · left {seated(left)} · right {seated(right)}")
    lines.extend(_cities(view, bottom, colour))
    lines.append(f"  your side: {seated(bottom)} (at the bottom)")
    by_side: dict[int, list[int]] = {}
    for c in game.colour_table[me]:
        by_side.setdefault(game.rules.side_of_colour(c, n), []).append(c)
    for side, colours in by_side.items():
        mapping = " ".join(f"{k}->{game.lot_table[colours[0]][k]}" for k in range(9))
        where = "" if side == bottom else f", read from {SIDES[SIDE_LETTERS[side]]}"
        letters = ", ".join(COLOUR_LETTERS[c] for c in colours)
        lines.append(f"  your cards ({letters}{where}) name board lots: {mapping}")
    lines.append(f"  draw pile {view.draw_size} · discard {sum(view.discard)}")
    for p in range(n):
        hand = view.hands[p]
        cards = " ".join(str(k) for k in range(9) for _ in range(hand[k])) if hand is not None else None
        held = f"hand {cards}" if cards is not None else plural(view.hand_sizes[p], "card")
        picks = []
        supply = []
        for c in game.colour_table[p]:
            chosen = view.chosen[c]
            letter = COLOUR_LETTERS[c]
            if chosen == "?":
                picks.append(f"{letter} hidden")
            elif chosen is None:
                picks.append(f"{letter} -")
            else:
                picks.append(letter + ("".join(str(s) for s in SIZES for _ in range(chosen[s - 1])) or " none left"))
            supply.append(f"{letter} " + "/".join(str(v) for v in view.supply[c]))
        name = paint(f"P{p}", player_style(p) + "+bold", colour) + (" (you)" if p == me else "")
        side = SIDES[SIDE_LETTERS[_seat_side(game, p)]]
        lines.append(
            f"  {name} {side}: {plural(view.points[p], 'point')} · {held} · selected {' '.join(picks)}"
            f" · supply {', '.join(supply)} (1/2/3/4 floors)"
        )
    return "\n".join(lines)


def announce(state: Any, outcome: Any, player: int) -> str | None:
    """What ``player`` sees of a draw (MAN-RAND-1): the card, if it comes to their own hand."""
    if state.turn != player:
        return None
    lots = sorted({state.game.lot_table[c][outcome.card] for c in state.game.colour_table[player]})
    names = " or ".join(str(lot) for lot in lots)
    return f"you draw {article(str(outcome.card))} (board lot {names} from your side)"


def revealed(state: Any, mover: int, move: Any) -> bool:
    """MAN-ROUND-1: a secret selection is shown to all once everyone has chosen."""
    return selections_shown(state)


def _cities(view: Any, bottom: int, colour: bool) -> list[str]:
    """The six cities as two rows of 3x3 grids, seen from side ``bottom``, two lines per lot."""
    lines: list[str] = []
    rule = "+" + "+".join("-" * CELL for _ in range(3)) + "+"
    for row in range(2):
        cities = range(row * 3, row * 3 + 3)
        lines.append("  " + "   ".join(f"{CITY_NAMES[c]} ({CITY_CODES[c]})".ljust(len(rule)) for c in cities).rstrip())
        lines.append("  " + "   ".join(rule for _ in cities))
        for r in range(3):
            tops, floors = [], []
            for city in cities:
                drawn = [
                    _cell(view.towers[city * 9 + ROT[bottom][3 * r + c]], ROT[bottom][3 * r + c], colour)
                    for c in range(3)
                ]
                tops.append("|" + "|".join(top for top, _ in drawn) + "|")
                floors.append("|" + "|".join(low for _, low in drawn) + "|")
            lines.append("  " + "   ".join(tops))
            lines.append("  " + "   ".join(floors))
            lines.append("  " + "   ".join(rule for _ in cities))
    return lines
