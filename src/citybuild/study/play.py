"""Playing a chunk of a study's games and writing each game as a row of the results table.

What a worker runs: pure Python on citybuild alone (no extra is imported here), so a process or a
Dask worker needs nothing but citybuild and the games' plugins.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from typing import Any

import attrs

from citybuild.bots import Bot, play_game
from citybuild.core.game import State
from citybuild.study.cells import Cell, Chunk, game_seed
from citybuild.study.players import make_bot

FIXED_COLUMNS = (
    "cell",
    "game",
    "preset",
    "options",
    "players",
    "bots",
    "index",
    "seed",
    "moves",
    "steps",
    "rounds",
    "winners",
    "tiebreak",
)
"""The columns every row has, in order; then per seat ``p{i}_bot``, ``p{i}_score`` and one
``p{i}_cat_{category}`` column per scoring category of the game."""
_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def category_column(seat: int, category: str) -> str:
    """The column of a seat's points in a scoring category (``p0_cat_towers``)."""
    return f"p{seat}_cat_{_UNSAFE.sub('_', category)}"


@attrs.frozen
class ChunkResult:
    """The rows of a chunk's games, column by column, and the processor time they took."""

    chunk: Chunk
    columns: dict[str, list[Any]]
    seconds: float = attrs.field(eq=False)


@attrs.frozen
class Played:
    """One finished game: its final state and its length."""

    final: State
    moves: int
    """Decisions of players (chance outcomes not counted)."""
    steps: int
    """Every step: decisions and chance outcomes."""


def play_random(initial: State, seed: int) -> Played:
    """Uniform random play from ``initial``, exactly ``initial.playout(random.Random(seed))``
    (the same steps on the engine), counting the chance steps on the way."""
    engine = initial.thaw()
    rng = random.Random(seed)
    step = engine.random_step
    steps = chance = 0
    while not engine.is_over:
        if engine.is_chance:
            chance += 1
        step(rng)
        steps += 1
    return Played(engine.freeze(), steps - chance, steps)


def play_bots(cell: Cell, bots: Sequence[Bot], seed: int) -> Played:
    """A game between bots (one per seat) by ``citybuild.bots.play_game``: chance from
    ``Match(game, seed)``, the bot at seat ``s`` drawing from ``bot_rng(seed, s)``, so
    ``citybuild play GAME --seed SEED --bots ...`` plays it again."""
    match = play_game(cell.load(), list(bots), seed)
    moves = sum(1 for entry in match.history if entry.player is not None)
    return Played(match.state, moves, len(match.history))


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play the chunk's games, each from its own seed, and return their rows."""
    started = time.process_time()
    cell = chunk.cell
    n = cell.players
    initial = cell.load().initial_state()
    bots = None if cell.all_random else [make_bot(text) for text in cell.bots]
    columns: dict[str, list[Any]] = {name: [] for name in FIXED_COLUMNS}
    scores: list[list[int]] = [[] for _ in range(n)]
    by_category: dict[str, list[list[int]]] = {}  # per category, per seat, one value a game
    for index in range(chunk.start, chunk.stop):
        seed = game_seed(chunk.seed, cell.key, index)
        played = play_random(initial, seed) if bots is None else play_bots(cell, bots, seed)
        sheet = played.final.scores()
        totals = [0] * n
        categories: dict[str, list[int]] = {}
        for item in sheet.items:
            totals[item.player] += item.points
            points = categories.get(item.category)
            if points is None:
                points = categories[item.category] = [0] * n
            points[item.player] += item.points
        for seat in range(n):
            scores[seat].append(totals[seat])
        for category in categories.keys() - by_category.keys():  # first seen: 0 in the games before
            by_category[category] = [[0] * len(columns["index"]) for _ in range(n)]
        for category, seats in by_category.items():
            points = categories.get(category) or [0] * n
            for seat in range(n):
                seats[seat].append(points[seat])
        columns["index"].append(index)
        columns["seed"].append(seed)
        columns["moves"].append(played.moves)
        columns["steps"].append(played.steps)
        columns["rounds"].append(getattr(played.final, "round", None))
        columns["winners"].append(sheet.winners)
        columns["tiebreak"].append(sheet.tiebreak)
    games = len(chunk)
    for name, value in (
        ("cell", cell.key),
        ("game", cell.game),
        ("preset", cell.preset),
        ("options", cell.options),
        ("players", n),
        ("bots", ",".join(cell.bots)),
    ):
        columns[name] = [value] * games
    for seat in range(n):
        columns[f"p{seat}_bot"] = [cell.bots[seat]] * games
        columns[f"p{seat}_score"] = scores[seat]
        for category in sorted(by_category):
            columns[category_column(seat, category)] = by_category[category][seat]
    return ChunkResult(chunk, columns, time.process_time() - started)
