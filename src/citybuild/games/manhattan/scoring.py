"""Manhattan scoring: the round score item by item (MAN-SCORE) and the final tie-break (MAN-END-3)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from citybuild.core import scoring
from citybuild.core.scoresheet import ScoreItem
from citybuild.core.tower import Tower, height
from citybuild.games.manhattan.rules import CITIES, CITY_CODES, COLOUR_LETTERS, LOT_NAMES, Rules

_LOT_CITY = tuple(next(c for c, lots in enumerate(CITIES) if lot in lots) for lot in range(sum(map(len, CITIES))))
"""Each lot's city."""


@lru_cache(maxsize=65536)
def tower_height(tower: Tower) -> int:
    """``height(tower)``, cached: towers are immutable, and most of a board stands unchanged from
    one round's scoring to the next (a playout scores every round)."""
    return height(tower)


def _built(towers: Sequence[Tower]) -> list[tuple[int, int, int]]:
    """(lot index, height, owner) of every tower on the board, in lot order."""
    return [(i, tower_height(t), t[-1].owner) for i, t in enumerate(towers) if t]


def _tallest(built: list[tuple[int, int, int]], rules: Rules) -> tuple[int | None, int, list[int]]:
    """MAN-SCORE-2 on the built towers: the scoring colour (or None), the greatest height and the
    lots that reach it."""
    if not built:
        return None, 0, []
    top = max(h for _, h, _ in built)
    lots = [i for i, h, _ in built if h == top]
    owners = {o for _, h, o in built if h == top}
    if len(lots) == 1 or (rules.tallest_tie == "nobody_unless_same_owner" and len(owners) == 1):
        return owners.pop(), top, lots
    return None, top, lots


def unique_tallest(towers: Sequence[Tower]) -> int | None:
    """Index of the single tallest tower, or None when the greatest height is shared or the board is empty."""
    heights = {i: tower_height(t) for i, t in enumerate(towers) if t}
    return scoring.unique_max(heights)


def city_majorities(towers: Sequence[Tower]) -> list[int | None]:
    """Per city, the colour owning the most towers there (MAN-SCORE-3), or None on a tie or an empty city."""
    return _city_leads(_built(towers))


def _city_leads(built: list[tuple[int, int, int]]) -> list[int | None]:
    """MAN-SCORE-3 on the built towers (see ``_built``): per city, the colour owning the most."""
    owners: list[list[int]] = [[] for _ in CITIES]
    for lot, _, colour in built:
        owners[_LOT_CITY[lot]].append(colour)
    return [scoring.unique_max(scoring.count(city)) for city in owners]


def round_items(towers: Sequence[Tower], rules: Rules, players: int, round_no: int) -> list[ScoreItem]:
    """Every point of one round's scoring, per colour, credited to the colour's player (MAN-SCORE-1..5)."""
    items: list[ScoreItem] = []
    pts = rules.points
    colours = rules.colour_count(players)
    built = _built(towers)
    tallest, top, lots = _tallest(built, rules)
    if tallest is not None:
        where = ", ".join(LOT_NAMES[i] for i in lots)
        items.append(
            ScoreItem(
                rules.player_of(tallest, players),
                "tallest",
                pts["tallest"],
                f"round {round_no}: tallest tower {where} (height {top}) owned by {COLOUR_LETTERS[tallest]}",
                "MAN-SCORE-2",
            )
        )
    for city, lead in enumerate(_city_leads(built)):
        if lead is not None:
            items.append(
                ScoreItem(
                    rules.player_of(lead, players),
                    "majority",
                    pts["majority"],
                    f"round {round_no}: most towers in {CITY_CODES[city]} ({COLOUR_LETTERS[lead]})",
                    "MAN-SCORE-3",
                )
            )
    owned_by: list[list[str]] = [[] for _ in range(colours)]
    for i, _, o in built:
        owned_by[o].append(LOT_NAMES[i])
    for colour, owned in enumerate(owned_by):
        if owned:
            items.append(
                ScoreItem(
                    rules.player_of(colour, players),
                    "towers",
                    pts["tower"] * len(owned),
                    f"round {round_no}: {len(owned)} tower{'s' if len(owned) > 1 else ''} owned by "
                    f"{COLOUR_LETTERS[colour]}: {' '.join(owned)}",
                    "MAN-SCORE-4",
                )
            )
    return items


def round_points(towers: Sequence[Tower], rules: Rules, players: int) -> list[int]:
    """Per player, the points one round's scoring gives: what ``round_items`` totals (a test holds
    them equal), in one pass over the board without the words, because the evaluation of a
    position calls it at every leaf of a search."""
    pts = rules.points
    colours = rules.colour_count(players)
    player_of = [rules.player_of(c, players) for c in range(colours)]
    out = [0] * players
    in_city = [0] * (len(CITIES) * colours)  # towers per (city, colour)
    top = top_count = 0
    top_owner, one_owner = -1, True
    for lot, tower in enumerate(towers):
        if not tower:
            continue
        colour = tower[-1].owner
        out[player_of[colour]] += pts["tower"]  # MAN-SCORE-4
        in_city[_LOT_CITY[lot] * colours + colour] += 1
        floors = tower_height(tower)
        if floors > top:
            top, top_count, top_owner, one_owner = floors, 1, colour, True
        elif floors == top:
            top_count += 1
            one_owner = one_owner and colour == top_owner
    if top_count == 1 or (top_count and rules.tallest_tie == "nobody_unless_same_owner" and one_owner):
        out[player_of[top_owner]] += pts["tallest"]  # MAN-SCORE-2
    for city in range(len(CITIES)):  # MAN-SCORE-3: a unique most towers
        counts = in_city[city * colours : (city + 1) * colours]
        most = max(counts)
        if most and counts.count(most) == 1:
            out[player_of[counts.index(most)]] += pts["majority"]
    return out


def break_ties(
    totals: Sequence[int], towers: Sequence[Tower], rules: Rules, players: int
) -> tuple[tuple[int, ...], str | None, tuple[tuple[int, int], ...]]:
    """Winners after the tie-break chain (MAN-END-2/3), the step that decided, if one was needed,
    and the counts of that step that decided (``core.scoring.Ranking.decided``):
    players ranked by total, then by each step of ``final_tiebreak`` up to ``"shared"``. A single
    highest total needs no key (``rank`` would give that player with no tie-break), so none is
    worked out: studies score hundreds of thousands of games."""
    top = max(totals)
    if totals.count(top) == 1:
        return (totals.index(top),), None, ()
    keys: list[tuple[str, dict[int, int]]] = []
    for step in rules.final_tiebreak:
        if step == "shared":
            break
        keys.append((step, _TIEBREAK_KEYS[step](towers, rules, players)))
    ranking = scoring.rank(dict(enumerate(totals)), keys)
    return ranking.leaders, ranking.tiebreak, ranking.decided


def _holds_unique_tallest(towers: Sequence[Tower], rules: Rules, players: int) -> dict[int, int]:
    """MAN-END-3 ``unique_tallest_owner``: 1 for the player owning the single tallest tower."""
    index = unique_tallest(towers)
    holder = None if index is None else rules.player_of(towers[index][-1].owner, players)
    return {p: int(p == holder) for p in range(players)}


def _majorities(towers: Sequence[Tower], rules: Rules, players: int) -> dict[int, int]:
    """MAN-END-3 ``most_majorities``: cities each player holds the majority of (MAN-SCORE-3)."""
    held = dict.fromkeys(range(players), 0)
    for lead in city_majorities(towers):
        if lead is not None:
            held[rules.player_of(lead, players)] += 1
    return held


_TIEBREAK_KEYS = {"unique_tallest_owner": _holds_unique_tallest, "most_majorities": _majorities}
