"""A study's plan: the grid of cells, the games of each cell, the seed of every game and the chunks
that carry games to workers.

A cell is one way of playing: a game under a preset (and rule overrides) at a player count with a
bot at each seat. Game ``i`` of a cell is played from ``game_seed(study seed, cell.key, i)``, a
63-bit integer derived by hashing, so any game of any study can be played again on its own and a
study's results do not depend on how its games were split among processes or machines.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import attrs

from citybuild.core.errors import CitybuildError, RulesError
from citybuild.core.game import Game
from citybuild.core.registry import games as registered_games
from citybuild.core.registry import load, spec
from citybuild.serialize import structure_options, to_data
from citybuild.study.players import check_bot, is_random

ALL = "all"
"""The word that selects every game, every preset or every player count."""
MAX_CHUNK = 1000
"""The most random-play games in one chunk (about a second of work)."""
MAX_BOT_CHUNK = 20
"""The most games in one chunk of a cell with bots, whose games are far slower."""


@attrs.frozen
class Variant:
    """A rule set of a game: a preset and rule overrides (keyword values as ``cb.load`` takes them)."""

    preset: str = "standard"
    options: Mapping[str, Any] = attrs.field(factory=dict, converter=dict)


@attrs.frozen
class Cell:
    """One cell of a study: a game, its rule set, the player count and the bot at each seat.

    ``options`` is the canonical JSON text of the rule options that differ from the preset (as
    ``to_json`` writes a game), so two ways of asking for the same rules make the same cell."""

    game: str
    preset: str
    players: int
    bots: tuple[str, ...]
    options: str = "{}"

    @property
    def key(self) -> str:
        """The cell's name in results and seeds: ``game/preset[options]/Np/bots`` with the bots
        written once when every seat has the same one (``manhattan/standard/4p/random``)."""
        options = "" if self.options == "{}" else self.options
        return f"{self.game}/{self.preset}{options}/{self.players}p/{lineup_text(self.bots)}"

    @property
    def variant(self) -> str:
        """The rule set in words: the preset, then any overrides (``standard {"rounds": ...}``)."""
        return self.preset if self.options == "{}" else f"{self.preset} {self.options}"

    @property
    def all_random(self) -> bool:
        """Whether every seat plays uniformly at random (the game is then one fast ``playout``)."""
        return all(is_random(bot) for bot in self.bots)

    def load(self) -> Game:
        """The cell's game (made once per process)."""
        return _game(self.game, self.preset, self.players, self.options)


@cache
def _game(name: str, preset: str, players: int, options: str) -> Game:
    typed = structure_options(name, preset, json.loads(options)) if options != "{}" else {}
    return load(name, players=players, preset=preset, **typed)


def lineup_text(bots: Sequence[str]) -> str:
    """The bots of a lineup as text: one name when every seat has it, else one per seat."""
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)


def game_seed(study_seed: int, cell_key: str, index: int) -> int:
    """The seed of game ``index`` of a cell: 63 bits of a BLAKE2b hash of the three, the same on
    every machine and Python version."""
    digest = hashlib.blake2b(f"citybuild-study:{study_seed}:{cell_key}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@attrs.frozen
class Chunk:
    """Games ``start`` to ``stop - 1`` of a cell, the unit of work a worker receives."""

    cell: Cell
    seed: int
    """The study's seed."""
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start


@attrs.frozen
class Plan:
    """A study: its cells, the games wanted in each, and the seed every game's seed comes from."""

    cells: tuple[Cell, ...]
    games: int
    seed: int

    @property
    def total(self) -> int:
        return len(self.cells) * self.games

    def chunks(
        self,
        done: Mapping[str, Iterable[tuple[int, int]]] | None = None,
        workers: int = 1,
        size: int | None = None,
    ) -> list[Chunk]:
        """The chunks still to play, as a list (``each_chunk`` gives them one at a time)."""
        return list(self.each_chunk(done, workers, size))

    def each_chunk(
        self,
        done: Mapping[str, Iterable[tuple[int, int]]] | None = None,
        workers: int = 1,
        size: int | None = None,
    ) -> Chunks:
        """The chunks still to play, made as they are asked for (a study of 10**12 games is not
        planned up front): every cell's games ``0 .. games - 1`` except the ranges in ``done``
        (by cell key), cut into chunks of ``size`` games (by default small enough to give each of
        ``workers`` sixteen chunks or more, so that no worker waits long for the last one, and at
        most ``MAX_CHUNK`` of random play or ``MAX_BOT_CHUNK`` with bots)."""
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
            raise RulesError(f"a chunk size must be a positive integer, not {size!r}")
        balanced = max(1, math.ceil(self.total / (max(1, workers) * 16)))

        def of_cell(cell: Cell) -> Iterator[Chunk]:
            cap = size or min(balanced, MAX_CHUNK if cell.all_random else MAX_BOT_CHUNK)
            for start, stop in gaps(self.games, (done or {}).get(cell.key, ())):
                for a in range(start, stop, cap):
                    yield Chunk(cell, self.seed, a, min(a + cap, stop))

        return Chunks(tuple(of_cell(cell) for cell in self.cells))

    def remaining(self, done: Mapping[str, Iterable[tuple[int, int]]] | None = None) -> int:
        """How many games are still to play, counted without making the chunks."""
        return sum(b - a for cell in self.cells for a, b in gaps(self.games, (done or {}).get(cell.key, ())))


class Chunks:
    """A plan's chunks, one cell after another, made as they are asked for; ``by_cell`` holds each
    cell's own generator (so that ``runner.interleave`` can take turns among the cells)."""

    def __init__(self, by_cell: tuple[Iterator[Chunk], ...]) -> None:
        self.by_cell = by_cell

    def __iter__(self) -> Iterator[Chunk]:
        return itertools.chain.from_iterable(self.by_cell)


def gaps(games: int, done: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of ``0 .. games - 1`` that no range of ``done`` covers, in order."""
    out: list[tuple[int, int]] = []
    at = 0
    for start, stop in sorted(done):
        if start > at:
            out.append((at, min(start, games)))
        at = max(at, stop)
        if at >= games:
            break
    if at < games:
        out.append((at, games))
    return [(a, b) for a, b in out if a < b]


# --- the grid -------------------------------------------------------------------------------------
def plan(
    game: str | Sequence[str],
    *,
    presets: str | Sequence[str] = "standard",
    variants: Sequence[Variant | str] = (),
    options: Mapping[str, Any] | None = None,
    players: int | str | Sequence[int] | None = None,
    bots: str | Sequence[str | Sequence[str]] = "random",
    games: int = 1000,
    seed: int = 0,
) -> Plan:
    """The grid of a study: every game x rule set x player count x lineup, ``games`` games each.

    ``game``: a name, several, or ``"all"``. Rule sets: each of ``presets`` (names, or ``"all"``)
    with ``options`` applied (rule overrides as ``cb.load`` takes them), then each of ``variants``
    (a ``Variant``, or a preset name). ``players``: a count, several, or ``"all"``; by default the
    game's default count. ``bots``: lineups, each one bot text for every seat (``"greedy"``) or one
    per seat (``"greedy,random"`` or a list); a lineup shorter than the table fills the remaining
    seats with its last bot, so ``"greedy,random"`` is greedy at seat 0 against random players.
    A lineup of only ``random`` players is played by the engine's fast ``playout``.

    Raises ``RulesError`` for an unknown game, preset, option or bot, a player count a game does not
    take, a lineup longer than the table, or a seed or game count that is not an integer."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"a study seed must be an int, not {seed!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RulesError(f"games per cell must be a positive integer, not {games!r}")
    names = _games(game)
    lineups = _lineups(bots)
    cells: list[Cell] = []
    for name in names:
        rule_sets = _rule_sets(name, presets, options or {}, variants)
        for count in _player_counts(name, players):
            for preset, overrides in rule_sets:
                canonical = _canonical_options(name, preset, count, overrides)
                for lineup in lineups:
                    cells.append(Cell(name, preset, count, _seat(lineup, count), canonical))
    unique = tuple(dict.fromkeys(cells))
    return Plan(unique, games, seed)


def _games(game: str | Sequence[str]) -> tuple[str, ...]:
    names = (game,) if isinstance(game, str) else tuple(game)
    if ALL in names:
        return registered_games()
    if not names:
        raise RulesError("a study needs at least one game")
    for name in names:
        spec(name)  # an unknown game raises RulesError naming the known ones
    return tuple(dict.fromkeys(names))


def _rule_sets(
    name: str, presets: str | Sequence[str], options: Mapping[str, Any], variants: Sequence[Variant | str]
) -> list[tuple[str, dict[str, Any]]]:
    known = spec(name).presets
    chosen = (presets,) if isinstance(presets, str) else tuple(presets)
    if ALL in chosen:
        chosen = tuple(known)
    sets = [(preset, dict(options)) for preset in chosen]
    for variant in variants:
        sets.append((variant, {}) if isinstance(variant, str) else (variant.preset, dict(variant.options)))
    if not sets:
        raise RulesError("a study needs at least one preset or variant")
    for preset, _ in sets:
        if not isinstance(preset, str) or preset not in known:
            raise RulesError(f"unknown preset {preset!r} for {name}; presets are: {', '.join(known)}")
    return sets


def _player_counts(name: str, players: int | str | Sequence[int] | None) -> tuple[int, ...]:
    game_spec = spec(name)
    if players is None:
        return (game_spec.default_players,)
    if players == ALL:
        return tuple(range(game_spec.min_players, game_spec.max_players + 1))
    if isinstance(players, str):
        raise RulesError(f"players must be a count, a list of counts or 'all', not {players!r}")
    counts = (players,) if isinstance(players, int) else tuple(players)
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int) or not game_spec.min_players <= n <= game_spec.max_players:
            raise RulesError(f"{name} takes {game_spec.min_players} to {game_spec.max_players} players, not {n!r}")
    return tuple(dict.fromkeys(counts))


def _canonical_options(name: str, preset: str, players: int, overrides: Mapping[str, Any]) -> str:
    """The overrides as ``to_json`` writes them for the loaded game (only what differs from the
    preset), sorted: a bad option fails here, before any game is played."""
    try:
        game = load(name, players=players, preset=preset, **overrides)
    except CitybuildError as exc:
        raise RulesError(f"{name} {preset}: {exc}") from None
    written = to_data(game)["game"]["options"]
    return json.dumps(written, sort_keys=True, separators=(",", ":"))


def _lineups(bots: str | Sequence[str | Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    given = (bots,) if isinstance(bots, str) else tuple(bots)
    if not given:
        raise RulesError("a study needs at least one lineup of bots")
    out: list[tuple[str, ...]] = []
    for lineup in given:
        seats = lineup.split(",") if isinstance(lineup, str) else list(lineup)
        texts = tuple(_bot_text(seat) for seat in seats)
        if not texts:
            raise RulesError(f"a lineup names at least one bot, not {lineup!r}")
        out.append(texts)
    return tuple(dict.fromkeys(out))


def _bot_text(seat: Any) -> str:
    if not isinstance(seat, str) or not seat.strip():
        raise RulesError(f"expected a bot such as 'random', 'greedy' or 'ismcts:200', not {seat!r}")
    text = seat.strip()
    check_bot(text)
    return text


def _seat(lineup: tuple[str, ...], players: int) -> tuple[str, ...]:
    if len(lineup) > players:
        raise RulesError(f"the lineup {','.join(lineup)} names {len(lineup)} bots for a {players}-player game")
    return lineup + (lineup[-1],) * (players - len(lineup))
