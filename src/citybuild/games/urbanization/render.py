"""A view as text for a person at the terminal: the city drawn as a grid, then each player's
items (the viewer's own hand and tiles; others' only as counts), the piles, and who acts.
The last line is the view's one-line notation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citybuild.games.urbanization.rules import LETTERS, card_name, character_name, tile_name

if TYPE_CHECKING:
    from citybuild.games.urbanization.view import UrbanizationView

WIDTH = 8
"""Characters per city cell: every cell is as wide, whatever it holds."""
LEGEND = (
    "each building: its top tile and height (R12 h2) over its owner (P0) and 'site' for a Construction Site;",
    "(A) is a token, where the city may grow",
)


def _cell_lines(view: UrbanizationView, cell: tuple[int, int]) -> tuple[str, str]:
    """A city cell's two lines, each exactly ``WIDTH`` wide."""
    if cell in view.cells:
        i = view.cells.index(cell)
        stack = view.stacks[i]
        owner = stack[-1].owner
        top = f"{tile_name(stack[-1].tile)} h{len(stack)}"
        below = " ".join(
            part for part in (f"P{owner}" if owner is not None else "", "site" if i in view.sites else "") if part
        )
        return top.center(WIDTH)[:WIDTH], below.center(WIDTH)[:WIDTH]
    if cell in view.tokens:
        return f"({LETTERS[view.tokens.index(cell)]})".center(WIDTH), " " * WIDTH
    return ".".center(WIDTH), " " * WIDTH


def city_grid(view: UrbanizationView) -> list[str]:
    """The city in cells of one width (``_cell_lines``), y growing upwards, with a legend."""
    cells = list(view.cells) + [c for c in view.tokens if c is not None]
    if not cells:
        return ["(no city yet)"]
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(max(y for _, y in cells), min(y for _, y in cells) - 1, -1)
    lines = ["y\\x " + "|".join(f"{x:^{WIDTH}}" for x in xs)]
    for y in ys:
        drawn = [_cell_lines(view, (x, y)) for x in xs]
        lines.append(f"{y:>3} " + "|".join(top for top, _ in drawn))
        lines.append("    " + "|".join(low for _, low in drawn))
    lines.extend(LEGEND)
    return lines


def render(view: UrbanizationView) -> str:
    n = view.players
    head = f"round {view.round}, phase {view.phase}; you are P{view.player}; first player P{view.first}"
    if view.pending:
        head += f"; P{view.turn} decides {'a resource or a tile' if view.pending == 'take' else 'where the token goes'}"
    lines = [head, *city_grid(view)]
    for p in range(n):
        you = p == view.player
        parts = [f"resources: {view.supply[p]} in supply, {view.reserve[p]} in reserve"]
        if you:
            parts.append(f"SP {view.sp[p]}")
            parts.append("tiles " + (" ".join(tile_name(t) for t in view.tiles[p] or ()) or "-"))
            parts.append("hand " + (" ".join(card_name(c) for c in view.hands[p] or ()) or "-"))
            if view.selection is not None:
                parts.append(f"chosen: {view.selection}")
        else:
            parts.append(f"{view.hand_sizes[p]} cards")
            if view.chosen[p]:
                parts.append("has chosen")
        parts.append(f"New Hand {view.newhand[p]}")
        if view.tableau[p]:
            parts.append("tableau " + " ".join(card_name(c) for c in view.tableau[p]))
        chars = view.chars[p]
        if chars:
            parts.append("characters " + " ".join(character_name(k) for k in chars))
        lines.append(f"P{p}{' (you)' if you else ''}: " + ", ".join(parts))
    if view.draft:
        lines.append("your draft hand: " + " ".join(character_name(k) for k in view.draft))
    discard = " ".join(card_name(c) for c in view.discard) or "-"
    stack = f"{view.draws_left} tiles to draw" if view.exhaustion == 0 else f"second stack {view.second_size}"
    lines.append(f"draw pile {view.draw_size}, discard {discard}; {stack}")
    if view.ending:
        lines.append("the end is triggered")
    lines.append(f"to act: {', '.join(f'P{p}' for p in view.to_act) or '-'}")
    lines.append(view.notation())
    return "\n".join(lines)
