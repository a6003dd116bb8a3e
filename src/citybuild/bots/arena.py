"""Bots against bots: one game (``play_game``) or many with seats rotated (``arena``).

Every game is reproducible from its seed: chance comes from ``Match(game, seed)`` and the bot at
seat ``s`` draws from ``bot_rng(seed, s)``, so ``citybuild play <game> --seed <seed> --bots
<the seats' bots>`` plays the same game again (for bots whose choices depend only on their
generator: not ``ismcts`` with a time budget). Game ``i`` of an arena uses seed ``seed + i`` and
seats entrant ``j`` at seat ``(i + j) mod n``, so every entrant plays every seat equally often.
"""

from __future__ import annotations

import functools
import math
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from citybuild.bots.base import Bot, from_text, label
from citybuild.core.errors import RulesError
from citybuild.core.game import Game
from citybuild.core.registry import load
from citybuild.core.text import plural
from citybuild.match import Match
from citybuild.record import rule_overrides
from citybuild.workers import unordered_map

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in the game played with ``seed``."""
    return random.Random(f"citybuild-bot:{seed}:{seat}")


def resolve(bot: Bot | str) -> Bot:
    """A bot from a bot or its text (``"ismcts:1000"``)."""
    if isinstance(bot, str):
        return from_text(bot)
    if not callable(getattr(bot, "choose", None)):
        raise RulesError(f"a bot needs a choose(view, rng) method; {bot!r} has none")
    return bot


def step(match: Match, bots: Sequence[Bot | None], rngs: Sequence[random.Random]) -> list[tuple[int, Any]]:
    """Let every bot that is to act choose, each from its own view of the current position (so
    players who act at once never see each other's choice), then play the choices; the moves
    played, as (seat, move). Seats whose bot is None are skipped (a human plays them)."""
    state = match.state
    chosen = [(p, bot.choose(state.view(p), rngs[p])) for p in state.to_act if (bot := bots[p]) is not None]
    for player, move in chosen:
        match.play(move, player)
    return chosen


def play_game(
    game: Game, bots: Sequence[Bot | str], seed: int, on_move: Callable[[Match], None] | None = None
) -> Match:
    """One game between ``bots`` (one per seat), reproducible from ``seed``; the finished match.
    ``on_move(match)`` is called after each decision point (to print the game as it goes)."""
    seated = [resolve(b) for b in bots]
    if len(seated) != game.players:
        raise RulesError(f"{plural(len(seated), 'bot')} for a {game.players}-player game; give one per seat")
    match = Match(game, seed=seed)
    rngs = [bot_rng(seed, seat) for seat in range(game.players)]
    while not match.state.is_over:
        step(match, seated, rngs)
        if on_move is not None:
            on_move(match)
    return match


@attrs.frozen
class GameResult:
    """One game of an arena: its seed, which entrant sat where, and how it ended."""

    index: int
    seed: int
    seats: tuple[str, ...]
    """The label of the bot at each seat."""
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int
    """Player moves made (chance outcomes not counted)."""
    seconds: float = attrs.field(eq=False)
    """Processor time the game took (not part of equality: the same game takes varying time)."""


@attrs.frozen
class Standing:
    """One entrant's results over an arena: wins are shares of games won (a win shared by k
    players counts 1/k), with a 95% Wilson interval on the win rate."""

    bot: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@attrs.frozen
class ArenaResult:
    """What an arena played: the game, the entrants, the first seed and every game's result."""

    game: str
    preset: str
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    results: tuple[GameResult, ...]

    def standings(self) -> tuple[Standing, ...]:
        """Per entrant (entrants with the same label pooled), games, wins and mean score."""
        games: dict[str, int] = dict.fromkeys(self.bots, 0)
        wins: dict[str, float] = dict.fromkeys(self.bots, 0.0)
        points: dict[str, int] = dict.fromkeys(self.bots, 0)
        for result in self.results:
            for seat, name in enumerate(result.seats):
                games[name] += 1
                points[name] += result.totals[seat]
                if seat in result.winners:
                    wins[name] += 1 / len(result.winners)
        out = []
        for name in games:
            n = games[name]
            low, high = wilson(wins[name], n)
            out.append(
                Standing(name, n, wins[name], wins[name] / n if n else 0.0, low, high, points[name] / n if n else 0.0)
            )
        return tuple(out)

    def table(self) -> str:
        """The standings as plain text."""
        lines = [f"{'bot':<16} {'games':>6} {'wins':>8} {'win rate':>9}  {'95% interval':<15} {'mean score':>10}"]
        for s in self.standings():
            lines.append(
                f"{s.bot:<16} {s.games:>6} {s.wins:>8.1f} {s.win_rate:>9.1%}  "
                f"{f'{s.low:.1%}-{s.high:.1%}':<15} {s.mean_score:>10.1f}"
            )
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """The result as JSON-ready data: the standings and every game (seed, seats, result)."""
        return {
            "game": self.game,
            "preset": self.preset,
            "players": self.players,
            "options": self.options,
            "bots": list(self.bots),
            "seed": self.seed,
            "standings": [attrs.asdict(s) for s in self.standings()],
            "games": [attrs.asdict(r) for r in self.results],
        }

    def __str__(self) -> str:
        return self.table()


def seating(bots: Sequence[str], index: int) -> tuple[int, ...]:
    """For game ``index``, the entrant at each seat: entrant j sits at seat (index + j) mod n."""
    n = len(bots)
    return tuple((seat - index) % n for seat in range(n))


def _play_one(game: Game, entrants: Sequence[Bot | str], names: Sequence[str], index: int, seed: int) -> GameResult:
    order = seating(names, index)
    started = time.process_time()
    match = play_game(game, [entrants[j] for j in order], seed)
    state = match.state
    sheet = state.scores()
    return GameResult(
        index=index,
        seed=seed,
        seats=tuple(names[j] for j in order),
        totals=sheet.totals,
        winners=state.winners(),
        moves=sum(1 for entry in match.history if entry.player is not None),
        seconds=time.process_time() - started,
    )


def _play_indexed(
    game: Game, entrants: Sequence[Bot | str], names: Sequence[str], first: int, index: int
) -> GameResult:
    """Game ``index`` of an arena whose game 0 has seed ``first`` (what a worker process runs)."""
    return _play_one(game, entrants, names, index, first + index)


def _count(name: str, value: Any, least: int) -> None:
    """Refuse an arena count that is not an int (bools included) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        kind = "a positive integer" if least == 1 else "a non-negative integer"
        raise RulesError(f"{name} must be {kind}, not {value!r}")


def _entrants(game: Game, bots: Sequence[Bot | str]) -> list[Bot | str]:
    """One entrant per seat, bots resolved and texts checked before any game starts."""
    entrants = [resolve(b) if not isinstance(b, str) else b for b in bots]
    if isinstance(bots, str) or len(entrants) != game.players:
        raise RulesError(f"{plural(len(entrants), 'bot')} for a {game.players}-player game; give one per seat")
    for b in entrants:
        if isinstance(b, str):
            from_text(b)
    return entrants


def arena(
    game: Game | str,
    bots: Sequence[Bot | str],
    games: int = 200,
    *,
    players: int | None = None,
    preset: str = "standard",
    seed: int | None = None,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
    start: int = 0,
    indices: Sequence[int] | None = None,
    **options: Any,
) -> ArenaResult:
    """Play ``games`` games between ``bots`` (one entrant per seat, as bots or their texts such as
    ``"ismcts:1000"``) with seats rotated, in ``jobs`` processes; ``progress(result)`` is called as
    each game ends. ``game`` is a loaded Game or a game name (loaded with ``players``, ``preset``
    and rule ``options``). Game ``i`` uses seed ``seed + i`` (``seed`` defaults to a fresh one).
    ``start`` continues an arena: games ``start`` to ``start + games - 1``, each with the seed and
    seats it has in one longer arena, so two parts together are that arena's games. ``indices``
    plays exactly those games of the arena instead (``games`` and ``start`` then unused): what a
    stopped run resumes with when the games it finished are not a prefix."""
    if isinstance(game, str):
        game = load(game, players=players if players is not None else len(bots), preset=preset, **options)
    elif players is not None and players != game.players:
        raise RulesError(f"players={players} but the game is loaded for {game.players}")
    entrants = _entrants(game, bots)
    names = tuple(b if isinstance(b, str) else label(b) for b in entrants)
    _count("games", games, 1)
    _count("jobs", jobs, 1)
    _count("start", start, 0)
    if indices is None:
        wanted: Sequence[int] = range(start, start + games)
    else:
        if isinstance(indices, str | bytes) or not isinstance(indices, Sequence):
            raise RulesError(f"indices must be a sequence of game numbers, not {indices!r}")
        for index in indices:
            _count("a game index", index, 0)
        wanted = sorted(set(indices))
        if not wanted:
            raise RulesError("indices names no game to play")
    first = secrets.randbits(31) if seed is None else seed
    if isinstance(first, bool) or not isinstance(first, int):
        raise RulesError(f"an arena seed must be an int, not {first!r}")
    results: list[GameResult] = []

    def done(result: GameResult) -> None:
        results.append(result)
        if progress is not None:
            progress(result)

    workers = min(jobs, len(wanted))  # more processes than games would idle (and forking a million would not end well)
    if workers == 1:
        for i in wanted:
            done(_play_one(game, entrants, names, i, first + i))
    else:
        play = functools.partial(_play_indexed, game, entrants, names, first)
        for result in unordered_map(play, wanted, workers):  # games handed out lazily
            done(result)
    results.sort(key=lambda r: r.index)
    return ArenaResult(
        game=game.name,
        preset=game.preset,
        players=game.players,
        options=rule_overrides(game),
        bots=names,
        seed=first,
        results=tuple(results),
    )
