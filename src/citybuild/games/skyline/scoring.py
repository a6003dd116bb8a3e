"""Skyline scoring: completed buildings score height squared, lone purple ground floors score 1 at the
end, and ties go to more completed buildings (SKY-SCORE-1..4)."""

from __future__ import annotations

from collections.abc import Sequence

from citybuild.core.scoresheet import ScoreItem
from citybuild.core.scoring import rank, squares_of_heights
from citybuild.games.skyline.building import Column, Skyline, Tile
from citybuild.games.skyline.rules import COLOUR_NAMES, Rules


def building_text(building: Column | Tile) -> str:
    """A building as in the position notation: ``2:O3`` (tile) or ``1:O[GF.UF]`` (column)."""
    if isinstance(building, Tile):
        return f"{building.id}:{building.colour}{building.height}"
    return f"{building.id}:{building.colour}[{'.'.join(building.pieces)}]"


def is_lone_purple(building: Column | Tile) -> bool:
    """SKY-SCORE-1: an unfinished purple column (always a single ground floor)."""
    return isinstance(building, Column) and building.colour == "P"


def items(skylines: Sequence[Skyline], final: bool) -> list[ScoreItem]:
    """Every scoring building, item by item; with ``final``, also the end-of-game conversions."""
    out: list[ScoreItem] = []
    for player, skyline in enumerate(skylines):
        for b in skyline.buildings:
            colour = COLOUR_NAMES.get(b.colour, b.colour)
            if isinstance(b, Tile):
                out.append(
                    ScoreItem(
                        player,
                        "building",
                        b.points,
                        f"building {building_text(b)}: completed {colour}, height {b.height}",
                        "SKY-SCORE-3",
                    )
                )
            elif final and is_lone_purple(b):
                out.append(
                    ScoreItem(
                        player,
                        "low-rise",
                        squares_of_heights((1,)),
                        f"building {building_text(b)}: lone purple ground floor becomes a height-1 tile",
                        "SKY-SCORE-1",
                    )
                )
            elif final:
                out.append(
                    ScoreItem(
                        player,
                        "unfinished",
                        0,
                        f"building {building_text(b)}: unfinished {colour}, discarded",
                        "SKY-SCORE-2",
                    )
                )
    return out


def completed(skyline: Skyline, rules: Rules) -> int:
    """SKY-SCORE-4: completed buildings for the tie-break (converted low-rises only if the option says so)."""
    count = sum(1 for b in skyline.buildings if isinstance(b, Tile))
    if rules.tiebreak_counts_converted_lowrise:
        count += sum(1 for b in skyline.buildings if is_lone_purple(b))
    return count


def break_ties(
    totals: Sequence[int], skylines: Sequence[Skyline], rules: Rules
) -> tuple[tuple[int, ...], str | None, tuple[tuple[int, int], ...]]:
    """Winners after SKY-SCORE-4, the step that decided (None when no tie-break was needed) and
    its counts: players ranked by total, then by completed buildings; a tie after both is shared."""
    most_completed = {p: completed(skyline, rules) for p, skyline in enumerate(skylines)}
    ranking = rank(dict(enumerate(totals)), [("most_completed", most_completed)])
    return ranking.leaders, ranking.tiebreak, ranking.decided
