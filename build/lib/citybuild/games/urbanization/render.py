"""A view as text for a person at the terminal: the city drawn as a grid, then each player's
items (the viewer's own hand and tiles; others' only as counts), the piles, and who acts.
The last line is the view's one-line notation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citybuild.games.urbanization.rules import LETTERS, card_name, character_name, tile_name

if TYPE_CHECKING:
    from citybuild.games.urbanization.view import UrbanizationView

WIDTH = 8


def _cell_text(view: UrbanizationView, cell: tuple[int, int]) -> str:
    if cell in view.cells:
        i = view.cells.index(cell)
        stack = view.stacks[i]
        owner = stack[-1].owner
        text = f"{tile_name(stack[-1].tile)}^{len(stack)}" + (f"P{owner}" if owner is not None else "")
        return text + ("*" if i in view.sites else "")
    if cell in view.tokens:
        return f"({LETTERS[view.tokens.index(cell)]})"
    return "."


def city_grid(view: UrbanizationView) -> list[str]:
    """The city: each building as top tile ^ height and owner (``*`` a Construction Site), each
    token in parentheses, y growing upwards."""
    cells = list(view.cells) + [c for c in view.tokens if c is not None]
    if not cells:
        return ["(no city yet)"]
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(max(y for _, y in cells), min(y for _, y in cells) - 1, -1)
    lines = ["y\\x  " + "".join(f"{x:<{WIDTH}}" for x in xs)]
    for y in ys:
        lines.append(f"{y:>3}  " + "".join(f"{_cell_text(view, (x, y)):<{WIDTH}}" for x in xs).rstrip())
    return lines


def render(view: UrbanizationView) -> str:
    n = view.players
    head = f"round {view.round}, phase {view.phase}; you are P{view.player}; first player P{view.first}"
    if view.pending:
        head += f"; P{view.turn} decides {'a resource or a tile' if view.pending == 'take' else 'where the token goes'}"
    lines = [head, *city_grid(view)]
    for p in range(n):
        you = p == view.player
        parts = [f"supply {view.supply[p]}", f"reserve {view.reserve[p]}"]
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
