"""Building over a tower (MAN-BUILD-4/6/7), stated once: whose floors count, which floors a build
must reach and how far short it falls. The engine's legality, the refusals' wording, the
invariants of a position and the observation tensors all read these functions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from citybuild.core.tower import Tower
from citybuild.games.manhattan.rules import Rules


def unit(colour: int, merge: int) -> int:
    """Whose floors a piece of ``colour`` counts as: the colour, or with ``merge`` = n players
    (``two_colour_legality="merged"``, MAN-BUILD-7) its player, whose colours count as one."""
    return colour % merge if merge else colour


def takeover_side(rules: Rules, players: int, colour: int, player: int) -> tuple[int, int]:
    """MAN-BUILD-7: who builds, as (me, merge) for the functions here: the colour, or with
    ``merged`` legality the player and all of theirs."""
    if rules.two_colour_legality == "merged":
        return player, players
    return colour, 0


def floors_of(tower: Sequence[tuple[int, int]], merge: int = 0) -> dict[int, int]:
    """Floors per colour (per player with ``merge``) wherever they sit in the stack (MAN-BUILD-1,
    MAN-BUILD-4: own lower floors count), in the order of each one's lowest piece. Pieces are read
    as (colour, size) pairs, so that a hand-written board can be checked before it is trusted."""
    out: dict[int, int] = {}
    for colour, size in tower:
        key = colour % merge if merge else colour
        out[key] = out.get(key, 0) + size
    return out


def reference(floors: dict[int, int], me: int, top: int, compare: str) -> int:
    """The colour (or player) whose floors ``me`` must reach to build on a tower owned by ``top``
    (MAN-BUILD-4): the owner with ``takeover_compare="owner"``, the strongest other with
    ``"max_other"``, the weakest other with ``"any_colour"``. ``floors`` holds another than ``me``."""
    if compare == "owner":
        return top
    others = [u for u in floors if u != me]
    return (min if compare == "any_colour" else max)(others, key=floors.__getitem__)


@lru_cache(maxsize=65536)
def takeover_gap(tower: Tower, me: int, compare: str, merge: int) -> int:
    """Smallest piece ``me`` needs to build on the non-empty ``tower`` (MAN-BUILD-4); 0 when any
    size will do (its own tower). Cached: towers are immutable and recur from state to state."""
    top = unit(tower[-1][0], merge)
    if top == me:
        return 0
    floors = floors_of(tower, merge)
    return max(floors[reference(floors, me, top, compare)] - floors.get(me, 0), 0)


@lru_cache(maxsize=8192)
def broken_claim(tower: tuple[tuple[int, int], ...], merge: int, fewest: bool) -> tuple[int, int, int, int] | None:
    """How a tower breaks MAN-BUILD-6 (its owner could not have built there): None, or (owner,
    rival, their floors, its floors). The rival is the strongest other, or with ``fewest``
    (``takeover_compare="any_colour"``) the weakest, as the owner had to reach only one. Cached:
    towers recur from position to position."""
    floors = floors_of(tower, merge)
    if len(floors) < 2:
        return None
    top = unit(tower[-1][0], merge)
    rival = reference(floors, top, top, "any_colour" if fewest else "max_other")
    return (top, rival, floors[top], floors[rival]) if floors[rival] > floors[top] else None
