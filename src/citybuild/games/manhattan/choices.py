"""Manhattan's moves as a newcomer clicks them (``GameSpec.choices``): a build on the lot it
builds on, a redraw on the card of the hand it swaps, a selection colour by colour, the other
fallbacks (forfeit, pass) in words.

A lot's part is ``lot <board index>`` (city * 9 + lot, the picture's ``data-part``), worked out
from the card the way the game reads cards for that colour (``game.lot_table``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.choices import Choice
from citybuild.games.manhattan.moves import Build, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import CITY_NAMES, COLOUR_LETTERS

COLOUR_WORDS = ("red", "blue", "yellow", "green")
"""The colours the pictures draw colours A-D in (``core.svg.PLAYER_COLOURS``)."""


def lot_part(city: int, lot: int) -> str:
    """The picture part of a lot: ``lot 13`` (board index, city * 9 + lot)."""
    return f"lot {city * 9 + lot}"


def colour_words(colour: int) -> str:
    return f"{COLOUR_WORDS[colour % 4]} ({COLOUR_LETTERS[colour]})"


def _floors(sizes: Sequence[int]) -> str:
    return " + ".join(str(s) for s in sizes) + " floors" if sizes else "no pieces"


def choice(view: Any, move: Any) -> Choice:
    """The part and words of one legal move of the view's player."""
    game = view.game
    if isinstance(move, Build):
        lot = game.lot_table[move.colour][move.card]
        piece = f"a {move.size}-floor {colour_words(move.colour)} piece"
        words = f"Build {piece} in {CITY_NAMES[move.city]} (plays card {move.card})"
        return Choice(lot_part(move.city, lot), (words,))
    if isinstance(move, Select):
        steps = [f"{colour_words(c)} pieces: {_floors(sizes)}" for c, sizes in move.picks]
        told = "Chooses the pieces for this round: " + "; ".join(steps)
        return Choice(None, ("Choose the pieces you will build this round", *steps), told=told)
    if isinstance(move, Redraw):
        return Choice(f"card {move.card}", (f"No build is possible: swap card {move.card} for a new one",))
    if isinstance(move, Forfeit):
        piece = f"{move.size}-floor {colour_words(move.colour)} piece"
        return Choice(None, ("No build is possible: give up a piece", f"Give up the {piece}"))
    if isinstance(move, Pass):
        return Choice(None, ("Pass (keep the piece)",))
    return Choice(None, (str(move),))


def choices(view: Any, moves: Sequence[Any]) -> list[Choice]:
    """``choice`` of each move."""
    return [choice(view, move) for move in moves]
