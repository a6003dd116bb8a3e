"""Why a Skyline move is refused: every violated rule, with its ID and a plain message.

This is the read-only explainer behind ``State.check``; the engine decides legality on its own
and a property test proves the two agree on random positions. Moves reach it well-formed (the
core refuses wrong field types first), from the player who is to act.
"""

from __future__ import annotations

from typing import Any

from citybuild.core.verdict import Violation
from citybuild.games.skyline.building import Column, Skyline, Tile
from citybuild.games.skyline.engine import SkylineEngine
from citybuild.games.skyline.moves import (
    Abandon,
    Build,
    Demolish,
    EndTurn,
    Reroll,
    Roll,
    TakeDistrict,
    TakeYard,
    dice_text,
    die_text,
)
from citybuild.games.skyline.offers import completed_heights, floor_heights, take_size
from citybuild.games.skyline.rules import COLOUR_NAMES, TYPE_NAMES, TYPES, Rules


def violations(e: SkylineEngine, move: Any, player: int) -> list[Violation]:
    if isinstance(move, TakeYard | TakeDistrict):
        return _take_violations(e, move)
    if isinstance(move, Build | Abandon | Demolish):
        return _resolve_violations(e, move, player)
    if isinstance(move, Reroll | EndTurn):
        return _continue_violations(e, move)
    if isinstance(move, Roll):
        return [Violation("not-a-decision", "SKY-RAND-1", f"{move} is a chance outcome; no roll is pending now")]
    return [Violation("not-a-move", "SKY-TURN-8", f"{move!r} is not a Skyline move")]


def _take_violations(e: SkylineEngine, move: TakeYard | TakeDistrict) -> list[Violation]:
    if e.phase != "take":
        return [Violation("wrong-phase", "SKY-TURN-2", f"{move} opens a turn; P{e.turn} has already taken dice")]
    if isinstance(move, TakeDistrict):
        if not any(e.district):
            return [Violation("district-empty", "SKY-TURN-2", "the district is empty; take from the yard")]
        return []
    unknown = [t for t in move.types if t not in TYPES]
    if unknown:
        return [Violation("no-such-type", "SKY-COMP-2", f"die types are GF, UF and PH, not {unknown[0]!r}")]
    total = sum(e.yard)
    if not total:
        return [Violation("yard-empty", "SKY-TURN-2", "the yard is empty; take the district")]
    out: list[Violation] = []
    size = take_size(e.yard, e.rules.yard_take)
    if len(move.types) != size:
        out.append(
            Violation(
                "wrong-take-size",
                "SKY-TURN-2",
                f"take exactly {size} dice from the yard (it holds {total}), not {len(move.types)}",
            )
        )
    for index, t in enumerate(TYPES):
        wanted = move.types.count(t)
        if wanted > e.yard[index]:
            out.append(
                Violation("not-in-yard", "SKY-TURN-2", f"{move} takes {wanted} {t} but the yard holds {e.yard[index]}")
            )
    return out


def _die_problem(e: SkylineEngine, move: Any, die: Any) -> list[Violation]:
    if e.phase == "take":
        return [Violation("wrong-phase", "SKY-TURN-2", f"{move} needs active dice; take dice first")]
    if die not in e.active:
        return [
            Violation(
                "die-not-active",
                "SKY-TURN-8",
                f"{die_text(die)} is not among the active dice ({dice_text(e.active)})",
            )
        ]
    return []


def _resolve_violations(e: SkylineEngine, move: Build | Abandon | Demolish, player: int) -> list[Violation]:
    out = _die_problem(e, move, move.die)
    if out:
        return out
    skyline = e.skylines[player]
    if isinstance(move, Build):
        return _build_violations(e, move, player, skyline)
    if e.rules.fallback_only and e.build_targets(player):
        return [Violation("fallback-only", "SKY-DEMOLISH-3", f"{move}: fallback_only, and a build is legal")]
    if isinstance(move, Abandon):
        return []
    if not skyline.buildings:
        return [Violation("no-buildings", "SKY-DEMOLISH-2", f"P{player} has no building to demolish")]
    target = skyline.get(move.building)
    if target is None:
        return [_no_such_building(move.building, player, skyline, "SKY-DEMOLISH-1")]
    if isinstance(target, Tile) and not e.rules.demolish_completed_allowed:
        return [
            Violation(
                "completed-protected",
                "SKY-DEMOLISH-1",
                f"building {move.building} is completed, and demolish_completed_allowed is False",
            )
        ]
    return []


def _no_such_building(building: Any, player: int, skyline: Skyline, rule: str) -> Violation:
    ids = ", ".join(str(b.id) for b in skyline.buildings) or "none"
    return Violation("no-such-building", rule, f"P{player} has no building {building!r} (buildings: {ids})")


def _build_violations(e: SkylineEngine, move: Build, player: int, skyline: Skyline) -> list[Violation]:
    kind, face = move.die
    if face == "X":
        return [Violation("blank-face", "SKY-BUILD-2", f"{die_text(move.die)} is blank and can never be built")]
    if kind == "GF":
        if move.target is not None:
            return [
                Violation(
                    "ground-floor-on-building",
                    "SKY-BUILD-1",
                    f"a ground floor always starts a new building; it cannot go on building {move.target}",
                )
            ]
        return []
    if move.target is None:
        return [
            Violation(
                "floor-needs-building",
                "SKY-BUILD-2",
                f"{die_text(move.die)}: an {TYPE_NAMES[kind]} goes on an unfinished building; it never starts one",
            )
        ]
    target = skyline.get(move.target)
    if target is None:
        return [_no_such_building(move.target, player, skyline, "SKY-BUILD-2")]
    if isinstance(target, Tile):
        return [
            Violation(
                "building-completed",
                "SKY-BUILD-4",
                f"building {target.id} is completed (height {target.height}); no die goes on a completed building",
            )
        ]
    if target.colour != face:
        return [
            Violation(
                "colour-mismatch",
                "SKY-BUILD-4",
                f"{die_text(move.die)} shows {COLOUR_NAMES.get(face, face)} but building {target.id} is "
                f"{COLOUR_NAMES[target.colour]}",
            )
        ]
    problem = placement_problem(target, kind, e.rules)
    if problem:
        return [Violation("bad-height", "SKY-BUILD-3", f"{die_text(move.die)} on building {target.id}: {problem}")]
    return []


def _continue_violations(e: SkylineEngine, move: Reroll | EndTurn) -> list[Violation]:
    if e.phase == "take":
        return [Violation("wrong-phase", "SKY-TURN-2", f"{move} is not allowed before taking dice; take first")]
    if e.phase == "resolve":
        return [
            Violation(
                "must-resolve",
                "SKY-TURN-4",
                f"{move}: resolve at least one die of the roll first (build, abandon or demolish)",
            )
        ]
    if isinstance(move, EndTurn):
        return []
    if not move.dice:
        return [Violation("empty-reroll", "SKY-TURN-5", "a reroll names at least one active die")]
    rest = list(e.active)
    for die in move.dice:
        if die not in rest:
            return [
                Violation(
                    "die-not-active",
                    "SKY-TURN-5",
                    f"{move} names {die_text(die)} more often than the active dice hold it ({dice_text(e.active)})",
                )
            ]
        rest.remove(die)
    if rest and e.rules.reroll_all_remaining:
        return [
            Violation(
                "reroll-all",
                "SKY-TURN-5",
                f"with reroll_all_remaining, reroll every active die ({dice_text(e.active)})",
            )
        ]
    return []


def placement_problem(column: Column, die_type: str, rules: Rules) -> str | None:
    """SKY-BUILD-3: why a floor of ``die_type`` cannot go on ``column`` (None if it can)."""
    h, colour = column.height, column.colour
    heights = floor_heights(colour, die_type, rules.blue_min_height)
    if h in heights:
        return None
    if colour == "P":
        return f"a purple low-rise takes only an upper floor on its ground floor (height {h}, {TYPE_NAMES[die_type]})"
    if colour == "B":
        if die_type == "UF":
            return f"a blue mid-rise takes upper floors only below height {heights.stop}; this one is {h} high"
        return (
            f"a blue penthouse needs a building of height {heights.start} to {heights.stop - 1} below it, "
            f"and this one is {h} high"
        )
    if die_type == "UF":
        return f"an orange high-rise takes upper floors only below height {heights.stop}; this one is {h} high"
    lowest = completed_heights(colour, rules.blue_min_height).start
    return (
        f"an orange penthouse needs a building of height {heights.start} to {heights.stop - 1} below it "
        f"(it would complete at {h + 1} < {lowest})"
    )
