"""Skyline's moves as a newcomer clicks them (``GameSpec.choices``): a die of the active dice to
build, abandon or demolish with; the yard or the district to take dice from; words for the rest.

The parts are the ``data-part`` attributes of the picture (``skyline.picture``): ``yard``,
``district`` and ``die GFB`` (an active die by type and face: interchangeable dice are one part).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from citybuild.core.choices import Choice
from citybuild.games.skyline.moves import Abandon, Build, Demolish, Die, EndTurn, Reroll, TakeDistrict, TakeYard

TYPE_WORDS = {"GF": "ground floor", "UF": "upper floor", "PH": "penthouse"}
FACE_WORDS = {"P": "purple", "B": "blue", "O": "orange", "X": "blank"}


def die_part(die: Die) -> str:
    """The picture part of an active die: ``die GFB``."""
    return f"die {die[0]}{die[1]}"


def die_words(die: Die) -> str:
    """``blue ground floor`` (``blank penthouse``)."""
    return f"{FACE_WORDS.get(die[1], die[1])} {TYPE_WORDS.get(die[0], die[0])}"


def _counted(names: Sequence[str]) -> str:
    """``2 ground floors, 1 penthouse``: each kind with its count, in the order given."""
    counts = Counter(names)
    return ", ".join(f"{n} {name}{'s' if n > 1 else ''}" for name, n in counts.items()) or "nothing"


def _building(view: Any, building_id: int) -> str:
    skyline = view.skylines[view.player]  # a player's own building: Skyline hides nothing
    building = skyline.get(building_id)
    if building is None:
        return f"building #{building_id}"
    floors = building.height
    return f"building #{building_id} ({FACE_WORDS.get(building.colour, building.colour)}, {floors} high)"


def choice(view: Any, move: Any) -> Choice:
    """The part and words of one legal move of the view's player."""
    if isinstance(move, TakeYard):
        return Choice("yard", ("Take dice from the yard", _counted([TYPE_WORDS[t] for t in move.types])))
    if isinstance(move, TakeDistrict):
        return Choice("district", ("Take every die in the district",))
    if isinstance(move, Build):
        where = "start a new building" if move.target is None else "put it on " + _building(view, move.target)
        return Choice(die_part(move.die), (f"Build with the {die_words(move.die)}: {where}",))
    if isinstance(move, Abandon):
        return Choice(die_part(move.die), (f"Abandon the {die_words(move.die)} to the district",))
    if isinstance(move, Demolish):
        what = _building(view, move.building)
        return Choice(die_part(move.die), (f"Demolish {what} with the {die_words(move.die)}",))
    if isinstance(move, Reroll):
        dice = ", ".join(die_words(d) for d in move.dice)
        count = "1 die" if len(move.dice) == 1 else f"{len(move.dice)} dice"
        words = f"Reroll {count}: {dice}"
        return Choice(None, ("Reroll some dice", words), told=words)
    if isinstance(move, EndTurn):
        return Choice(None, ("End my turn (the dice left go back to the yard)",), told="End of the turn")
    return Choice(None, (str(move),))


def choices(view: Any, moves: Sequence[Any]) -> list[Choice]:
    """``choice`` of each move."""
    return [choice(view, move) for move in moves]
