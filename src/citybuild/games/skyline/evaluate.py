"""What a Skyline position is worth to each player, for bots that look ahead.

Completed buildings score height squared (SKY-SCORE-3). What the position promises is the rest:

- unfinished buildings: each could complete into the next tile it can reach (a penthouse on top:
  SKY-BUILD-3), which takes the upper floors it still lacks plus that last floor. Dice are what a
  player lacks, so the floors their remaining turns can give (``FLOORS_PER_TURN`` a turn) go to
  the buildings that pay most per floor, and a funded building counts its tile times the chance
  of finishing it (``FINISH``). With no turn left, only a lone purple ground floor still scores
  (as a height-1 tile: SKY-SCORE-1/2), and it always does;
- the dice of the turn under way: (``DICE_IN_HAND`` of) what building them adds to the skyline's
  value, the best die and building first, each die once; dice being rolled, that averaged over
  the roll.

At the end, the final score, with completed buildings as the tie-break (SKY-SCORE-4).
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from citybuild.core.engine import Engine
from citybuild.games.skyline.building import Column, Skyline, Tile
from citybuild.games.skyline.engine import SkylineEngine
from citybuild.games.skyline.moves import sorted_dice
from citybuild.games.skyline.offers import completes, fits, floor_heights
from citybuild.games.skyline.rolls import roll_outcomes
from citybuild.games.skyline.rules import TYPES
from citybuild.games.skyline.scoring import completed, is_lone_purple

FLOORS_PER_TURN = 1.5
"""Floors a player can expect to add to their buildings in one turn of three dice."""
FINISH = {"P": 0.9, "B": 0.75, "O": 0.6}
"""Per colour, the chance that a building given the floors it needs is finished (the last floor
of a blue or orange building is a penthouse of its colour, rarer than a purple upper floor)."""
DICE_IN_HAND = 0.9
"""What the dice of the turn under way are worth, as a share of the most they could add."""
EXACT_ROLL = 4
"""Rolls of at most this many dice are valued over every outcome; bigger ones die by die."""
BIG_ROLL = 0.7
"""The discount on a big roll valued die by die (dice of one roll compete for the same buildings)."""
TIEBREAK = 0.01
"""The value of one completed building, so that an evaluation breaks ties as SKY-SCORE-4 does."""

Shape = tuple[tuple[str, int], ...]
"""A skyline's unfinished buildings as sorted (colour, height) pairs: all its promise depends on."""
Dice = tuple[tuple[str, str], ...]
"""Dice as (type, face) pairs."""


def _plan(colour: str, height: int, blue_min_height: int) -> tuple[float, int]:
    """The points of the next tile an unfinished building can complete into, and the floors that
    takes (SKY-BUILD-3: a penthouse needs a blue building of ``blue_min_height - 1`` floors or an
    orange one of 2; a purple building completes with its upper floor)."""
    if colour == "P":
        return 3.0, 1  # 4 points instead of the 1 a lone ground floor scores anyway
    lowest = floor_heights(colour, "PH", blue_min_height).start
    target = max(height, lowest) + 1
    return float(target * target), max(0, lowest - height) + 1


@lru_cache(maxsize=1 << 16)
def promise(shape: Shape, turns: int, blue_min_height: int) -> float:
    """The expected points of unfinished buildings of this shape whose owner has ``turns`` turns
    left: lone purples for sure, and the tiles that the floors of those turns can fund."""
    value = float(sum(1 for colour, _ in shape if colour == "P"))
    if turns <= 0:
        return value
    plans = sorted(
        ((*_plan(colour, height, blue_min_height), colour) for colour, height in shape),
        key=lambda plan: -plan[0] / plan[1],
    )
    budget = turns * FLOORS_PER_TURN
    for points, floors, colour in plans:
        if budget <= 0:
            break
        value += points * FINISH[colour] * min(1.0, budget / floors)
        budget -= floors
    return value


def shape_of(skyline: Skyline) -> Shape:
    return tuple(sorted((b.colour, len(b.pieces)) for b in skyline.buildings if type(b) is Column))


@lru_cache(maxsize=1 << 16)
def best_build(shape: Shape, kind: str, face: str, turns: int, blue_min_height: int) -> tuple[float, Shape]:
    """The most one die showing ``face`` could add to a skyline of this shape now (SKY-BUILD-1..3:
    a new ground floor, an upper floor, or the floor that completes a building into a tile), and
    the shape it leaves; (0, shape) when it adds nothing."""
    if face == "X":
        return 0.0, shape
    before = promise(shape, turns, blue_min_height)
    if kind == "GF":
        grown = tuple(sorted((*shape, (face, 1))))
        return max(0.0, promise(grown, turns, blue_min_height) - before), grown
    best, after_shape = 0.0, shape
    for index, (colour, height) in enumerate(shape):
        if colour != face or not fits(colour, height, kind, blue_min_height):
            continue
        rest = shape[:index] + shape[index + 1 :]
        if completes(colour, kind):  # a tile of height + 1 (SKY-BUILD-5)
            gain = (height + 1) ** 2 + promise(rest, turns, blue_min_height) - before
            new_shape = rest
        else:
            new_shape = tuple(sorted((*rest, (colour, height + 1))))
            gain = promise(new_shape, turns, blue_min_height) - before
        if gain > best:
            best, after_shape = gain, new_shape
    return best, after_shape


@lru_cache(maxsize=1 << 16)
def dice_gain(shape: Shape, dice: Dice, turns: int, blue_min_height: int) -> float:
    """What building these dice adds: the best (die, building) first, each die once, while any
    adds something (two dice never count the same building twice)."""
    left = list(dice)
    total = 0.0
    while left:
        best, best_index, best_shape = 0.0, -1, shape
        for index, (kind, face) in enumerate(left):
            gain, after = best_build(shape, kind, face, turns, blue_min_height)
            if gain > best:
                best, best_index, best_shape = gain, index, after
        if best_index < 0:
            break
        total += best
        shape = best_shape
        del left[best_index]
    return total


@lru_cache(maxsize=1024)
def roll_table(
    rolling: tuple[int, int, int], faces: tuple[str, str, str]
) -> tuple[tuple[tuple[tuple[str, str], ...], float], ...]:
    """The outcomes of a small roll (SKY-RAND-2) with float probabilities."""
    return tuple((roll.dice, float(p)) for roll, p in roll_outcomes(rolling, faces))


def _dice_value(position: SkylineEngine, shape: Shape, turns: int) -> float:
    """What the dice of the turn under way promise: the active dice built as well as they can be;
    with dice being rolled, that averaged over the roll (exactly for up to ``EXACT_ROLL`` dice,
    else die by die, each die's best gain averaged over its faces, at a discount)."""
    rules = position.game.rules
    blue_min = rules.blue_min_height
    active = position.active
    if position.phase != "roll":
        return dice_gain(shape, active, turns, blue_min)
    rolling = position.rolling
    if sum(rolling) <= EXACT_ROLL:
        return sum(
            p * dice_gain(shape, sorted_dice(active + shown), turns, blue_min)
            for shown, p in roll_table(rolling, rules.faces_key())
        )
    total = dice_gain(shape, active, turns, blue_min)
    faces = rules.faces
    for kind, count in zip(TYPES, rolling, strict=True):
        if count:
            shown = faces[kind]
            total += BIG_ROLL * count * sum(best_build(shape, kind, f, turns, blue_min)[0] for f in shown) / len(shown)
    return total


def turns_left(engine: SkylineEngine, player: int) -> int:
    """Turns ``player`` will still start (a turn under way does not count): SKY-TURN-1, SKY-END-1/2."""
    later_this_round = player > engine.turn or (player == engine.turn and engine.phase == "take")
    if engine.trigger:
        return int(later_this_round)
    return max(0, engine.game.rules.rounds - engine.round) + int(later_this_round)


def evaluate(engine: Engine) -> tuple[float, ...]:
    """Per player: completed points plus what unfinished buildings and dice in hand promise."""
    position = cast(SkylineEngine, engine)
    rules = position.game.rules
    blue_min = rules.blue_min_height
    over = position.phase == "over"
    values = []
    for player, skyline in enumerate(position.skylines):
        value = TIEBREAK * completed(skyline, rules)
        value += sum(b.height * b.height for b in skyline.buildings if type(b) is Tile)
        if over:
            value += sum(1 for b in skyline.buildings if is_lone_purple(b))
            values.append(value)
            continue
        turns = turns_left(position, player)
        shape = shape_of(skyline)
        value += promise(shape, turns, blue_min)
        if player == position.turn:
            value += DICE_IN_HAND * _dice_value(position, shape, turns)
        values.append(value)
    return tuple(values)
