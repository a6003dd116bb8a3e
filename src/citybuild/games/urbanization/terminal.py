"""Urbanization at the terminal (the spec's ``board_text`` hook): the view as ``render`` draws it
(the city as a grid, each player's items, the piles, who acts), without the one-line notation, and
with tile names in their colours when the terminal has them."""

from __future__ import annotations

import re
from typing import Any

from citybuild.core.ansi import paint
from citybuild.games.urbanization.render import render

STYLE = {"R": "red", "B": "blue", "Y": "yellow"}
_TILE = re.compile(r"\b([RBY])([0-9]{1,2})\b")


def board_text(view: Any, game: Any, colour: bool) -> str:
    lines = render(view).split("\n")[:-1]
    text = "\n".join(lines)
    if colour:
        text = _TILE.sub(lambda m: paint(m.group(0), STYLE[m.group(1)] + "+bold", True), text)
    return text


def announce(state: Any, outcome: Any, player: int) -> str | None:
    """What ``player`` sees of a chance event (URB-RAND-5): the layout, the initial discards and the
    first player are public; a card, a tile or a deal of characters only to whoever receives it
    (characters dealt without a draft are public too)."""
    from citybuild.games.urbanization.moves import Deal, DrawCard, DrawTile, FirstPlayer, Layout

    if isinstance(outcome, Layout):
        return "the starting city is laid out"
    if isinstance(outcome, FirstPlayer):
        return f"P{outcome.seat} is the first player"
    if isinstance(outcome, DrawCard) and state.phase == "discard":
        return f"{outcome} goes face up to the discard pile"
    if isinstance(outcome, Deal) and state.rules.character_mode != "draft":
        return f"P{state.turn} gets {outcome}"
    if isinstance(outcome, DrawCard | DrawTile | Deal) and state.turn == player:
        return f"you get {outcome}"
    return None


def revealed(state: Any, mover: int, move: Any) -> bool:
    """URB-ROUND-4: a selection is revealed when its player resolves it (the engine then takes it
    from ``selections``); URB-SETUP-7: the characters kept in the draft when the draft ends."""
    from citybuild.games.urbanization.moves import Pick, Select

    if isinstance(move, Pick):
        return bool(state.phase != "draft")
    if isinstance(move, Select):
        return state.phase != "choose" and state.selections[mover] is None
    return False
