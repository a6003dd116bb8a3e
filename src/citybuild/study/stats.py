"""What a study's table says, cell by cell: win rates per seat with 95% intervals, scores, what
each scoring category contributes, tie-breaks and game length.

A win shared by k players counts 1/k to each (as the bots' arena counts it), so a cell's seat win
rates add up to 1 and a fair game gives each of n seats 1/n. The interval is Wilson's score
interval on that rate, which stays inside [0, 1] and behaves at rates near 0 or 1.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.bots.arena import wilson  # the arena's interval: one formula for both tables
from citybuild.core.errors import RulesError
from citybuild.core.registry import spec
from citybuild.study.extra import need

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

BY_SCORE = "score"
"""The tie-break label of games whose winner had the single highest total."""


@attrs.frozen
class Spread:
    """A distribution in five numbers and its mean."""

    mean: float
    low: float
    """10th percentile."""
    median: float
    high: float
    """90th percentile."""
    sd: float

    @classmethod
    def of(cls, values: np.ndarray[Any, Any]) -> Spread:
        np = need("numpy")
        if not len(values):
            return cls(math.nan, math.nan, math.nan, math.nan, math.nan)
        low, median, high = np.percentile(values, [10, 50, 90])
        return cls(float(values.mean()), float(low), float(median), float(high), float(values.std()))


@attrs.frozen
class Seat:
    """One seat of a cell: its bot, its share of the wins with a 95% interval, its scores."""

    seat: int
    bot: str
    wins: float
    win_rate: float
    low: float
    high: float
    score: Spread


@attrs.frozen
class CellStats:
    """Everything the report says about one cell."""

    cell: str
    game: str
    variant: str
    players: int
    bots: str
    games: int
    seats: tuple[Seat, ...]
    winning_score: Spread
    margin: Spread
    """The winner's total minus the best other total (0 when the lead is shared or tie-broken)."""
    categories: dict[str, float]
    """Mean points per player per game, by scoring category."""
    tiebreaks: dict[str, float]
    """Share of games by what decided first place: ``"score"``, a tie-break step, or ``"shared"``."""
    moves: Spread
    rounds: Spread
    scores: tuple[tuple[float, ...], ...] = attrs.field(repr=False, eq=False)
    """Every final total, seat by seat (for the plots)."""
    lengths: tuple[float, ...] = attrs.field(repr=False, eq=False)
    """Every game's moves (for the plots)."""

    @property
    def fair(self) -> float:
        """The win rate of every seat in a game that favours none."""
        return 1 / self.players

    @property
    def first_seat_edge(self) -> float:
        """Seat 0's win rate minus the fair share: the start player's advantage."""
        return self.seats[0].win_rate - self.fair


def summarise(table: pa.Table) -> list[CellStats]:
    """The statistics of every cell of a results table, in a reader's order: by game, by preset
    in the order the game lists them, by rule overrides, player count and lineup."""
    pc = need("pyarrow.compute")
    cells = table.column("cell")
    out = [cell_stats(table.filter(pc.equal(cells, key))) for key in dict.fromkeys(cells.to_pylist())]
    return sorted(out, key=_reading_order)


def _reading_order(cell: CellStats) -> tuple[str, int, str, int, str]:
    try:
        presets = list(spec(cell.game).presets)
    except RulesError:  # a game that is not installed here: presets alphabetically
        presets = []
    preset, _, options = cell.variant.partition(" ")
    rank = presets.index(preset) if preset in presets else len(presets)
    return (cell.game, rank, f"{preset} {options}", cell.players, cell.bots)


def cell_stats(rows: pa.Table) -> CellStats:
    """The statistics of one cell's rows."""
    np = need("numpy")
    first = rows.slice(0, 1).to_pylist()[0]
    n = int(first["players"])
    games = rows.num_rows
    winners: list[list[int]] = rows.column("winners").to_pylist()
    scores = np.array([rows.column(f"p{seat}_score").to_numpy(zero_copy_only=False) for seat in range(n)], dtype=float)
    shares = np.zeros((n, games))
    for game, won in enumerate(winners):
        for seat in won:
            shares[seat, game] = 1 / len(won)
    seats = []
    for seat in range(n):
        wins = float(shares[seat].sum())
        low, high = wilson(wins, games)
        seats.append(Seat(seat, first[f"p{seat}_bot"], wins, wins / games, low, high, Spread.of(scores[seat])))
    ordered = np.sort(scores, axis=0)
    best, second = ordered[-1], ordered[-2] if n > 1 else ordered[-1]
    tiebreaks: dict[str, float] = {}
    for label in rows.column("tiebreak").to_pylist():
        name = BY_SCORE if label is None else str(label)
        tiebreaks[name] = tiebreaks.get(name, 0) + 1 / games
    categories = {}
    for name in _categories(rows):
        per_seat = [rows.column(f"p{seat}_cat_{name}").to_numpy(zero_copy_only=False) for seat in range(n)]
        categories[name] = float(np.mean(np.array(per_seat, dtype=float)))
    moves = rows.column("moves").to_numpy(zero_copy_only=False).astype(float)
    rounds = np.array([r for r in rows.column("rounds").to_pylist() if r is not None], dtype=float)
    return CellStats(
        cell=first["cell"],
        game=first["game"],
        variant=first["preset"] if first["options"] == "{}" else f"{first['preset']} {first['options']}",
        players=n,
        bots=_lineup(first["bots"]),
        games=games,
        seats=tuple(seats),
        winning_score=Spread.of(best),
        margin=Spread.of(best - second),
        categories=categories,
        tiebreaks=dict(sorted(tiebreaks.items(), key=lambda item: _tiebreak_order(item[0]))),
        moves=Spread.of(moves),
        rounds=Spread.of(rounds),
        scores=tuple(tuple(float(x) for x in row) for row in scores),
        lengths=tuple(float(x) for x in moves),
    )


def _categories(rows: pa.Table) -> list[str]:
    """The scoring categories of a cell's game: seat 0's category columns that hold numbers here
    (a table of several games has every game's columns, null in the others' rows)."""
    names = rows.column_names
    return sorted(
        name[len("p0_cat_") :]
        for name in names
        if name.startswith("p0_cat_") and rows.column(name).null_count < rows.num_rows
    )


def _lineup(bots: str) -> str:
    seats = bots.split(",")
    return seats[0] if len(set(seats)) == 1 else bots


def _tiebreak_order(name: str) -> tuple[int, str]:
    return (0 if name == BY_SCORE else 2 if name == "shared" else 1, name)
