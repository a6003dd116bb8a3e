"""Bot strength and speed: the figures of docs/bots.md.

    python benchmarks/bench_bots.py                    # every pairing, 200 games each, 2 processes
    python benchmarks/bench_bots.py --quick            # a smoke run for CI (a few short games)
    python benchmarks/bench_bots.py --speed            # only the decision times
    python benchmarks/bench_bots.py --games 400 --jobs 2 --json bots.json --only manhattan
    python benchmarks/bench_bots.py --json bots.json --resume      # go on where a stopped run ended
    python benchmarks/bench_bots.py --table bots.json more.json   # the docs' tables from saved runs
    python benchmarks/bench_bots.py --json bots.json --extend skyline ismcts:1000,greedy,greedy 600
    python benchmarks/bench_bots.py --levels --games 100 --json levels.json   # the levels' calibration
    python benchmarks/bench_bots.py --search --games 300 --chunk 20 --json search.json --resume
    python benchmarks/bench_bots.py --search --only skyline --players 2 --bot ismcts:1000:exploration=0.1 --games 60

Every finished game is saved at once with the settings of the bots that played it, so ``--resume``
(and ``--extend``) play only the games a pairing lacks, across as many sessions as the figures
take, and never mix games of differently tuned bots.

Strength: for every registered game, with seats rotated (citybuild.bots.arena), 2-player games of
ismcts:1000 against random and against greedy, and of greedy against random; at 3 and 4 players,
ismcts:1000 against greedy in every other seat. Targets: ismcts wins at least 90% of
2-player games against random and 60% against greedy, clearly more than 1/n at 3 and 4 players;
greedy wins at least 80% of 2-player games against random.

Search (``--search``): the searching bot (``--bot``, default ismcts:1000) against greedy players in
every other seat at 2 to 5 players; targets 70%, 45%, 35% and 28%, each with its whole 95%
interval above the fair share.

Levels (``--levels``): for every game, 2-player games of ``normal`` against ``easy`` and of
``hard`` against ``normal``; target: each level wins at least 65% against the one below.

Speed: processor time of one ismcts decision at 1,000 iterations (median over the decisions of a
few games between greedy players, every third decision searched), at Manhattan 4p, Skyline 2p
and, when the game is installed, Urbanization 3p; target: at most 1 second.

Every game is reproducible: game i of a pairing uses seed SEED + i (printed) and rotates seats.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from typing import Any

import attrs

import citybuild as cb
from citybuild.bots import LEVELS, arena, from_text
from citybuild.bots.arena import GameResult, wilson
from citybuild.bots.base import label
from citybuild.bots.levels import LevelBot

SPEED_CASES = (("manhattan", 4), ("skyline", 2), ("urbanization", 3))
SEED = 20240901


def pairings(names: tuple[str, ...], search: str) -> list[tuple[str, list[str], str]]:
    """(game, bots per seat, target) for every pairing of the strength table."""
    specs = [cb.core.registry.spec(name) for name in names]
    two = [s.name for s in specs if s.min_players <= 2 <= s.max_players]
    out = [(name, ["greedy", "random"], ">= 80%") for name in two]  # seconds: first
    out += [(name, [search, "greedy"], ">= 60%") for name in two]
    out += [(name, [search, "random"], ">= 90%") for name in two]
    for n in (3, 4):
        seats = [search] + ["greedy"] * (n - 1)
        out += [(s.name, seats, f"> {1 / n:.0%}") for s in specs if s.min_players <= n <= s.max_players]
    return out


SEARCH_TARGETS = {2: ">= 70%", 3: ">= 45%", 4: ">= 35%", 5: ">= 28%"}
"""The search table's targets: the searcher's share of wins against greedy players in every
other seat, by player count (its whole interval above the fair share, too)."""


def search_pairings(
    names: tuple[str, ...], search: str, players: tuple[int, ...] = tuple(SEARCH_TARGETS)
) -> list[tuple[str, list[str], str]]:
    """(game, bots per seat, target) for the search table: ``search`` against greedy players in
    every other seat, at every player count of ``players`` a game allows (by default 2 to 5; fewer
    for a pilot), fewer players first."""
    specs = [cb.core.registry.spec(name) for name in names]
    return [
        (s.name, [search] + ["greedy"] * (n - 1), target)
        for n, target in SEARCH_TARGETS.items()
        for s in specs
        if n in players and s.min_players <= n <= s.max_players
    ]


def level_pairings(names: tuple[str, ...]) -> list[tuple[str, list[str], str]]:
    """(game, bots per seat, target) for every pairing of the levels' calibration: each level
    against the one below, at 2 players, the quick pairings first."""
    specs = [cb.core.registry.spec(name) for name in names]
    two = [s.name for s in specs if s.min_players <= 2 <= s.max_players]
    ladder = list(LEVELS)
    return [(name, [upper, lower], ">= 65%") for lower, upper in itertools.pairwise(ladder) for name in two]


def settings(bots: list[str], name: str) -> dict[str, Any]:
    """What each bot of a pairing is as it plays game ``name``, every option spelled out (a level's
    bot included, and the options the game decides filled in): saved with its figures, so that a
    resumed run reuses only games played by the bots as they are now."""
    game = cb.load(name)
    out: dict[str, Any] = {}
    for text in bots:
        bot = _as_played(from_text(text), game)
        options = attrs.asdict(bot) if attrs.has(type(bot)) else {}
        out[text] = {"class": type(bot).__name__, **options}
    return out


def _as_played(bot: Any, game: cb.Game) -> Any:
    """``bot`` with the options ``game`` decides for it filled in (a level's bot too)."""
    if hasattr(bot, "settled"):
        return bot.settled(game)
    if isinstance(bot, LevelBot):
        return attrs.evolve(bot, bot=_as_played(bot.bot, game))
    return bot


def _summarise(row: dict[str, Any]) -> dict[str, Any]:
    """The row's figures from its ``played`` games: games, win rate with its interval, mean scores."""
    played = row["played"].values()
    games = len(played)
    wins = sum(share for share, _, _ in played)
    low, high = wilson(wins, games)
    row.update(
        games=games,
        win_rate=wins / games if games else 0.0,
        low=low,
        high=high,
        mean_score=statistics.mean(score for _, score, _ in played) if games else 0.0,
        opponents_mean_score=statistics.mean(others for _, _, others in played) if games else 0.0,
    )
    return row


def _record(row: dict[str, Any], result: GameResult, players: int) -> None:
    """Keep one finished game in its row: the first entrant's share of the win, its score and the
    others' mean score. Entrant 0 sits at seat ``index mod players`` in game ``index``."""
    seat = result.index % players
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    others = [t for s, t in enumerate(result.totals) if s != seat]
    row["played"][str(result.index)] = [share, result.totals[seat], statistics.mean(others)]


def _missing(row: dict[str, Any], games: int) -> list[int]:
    """The game numbers below ``games`` that the row has not played yet."""
    return [i for i in range(games) if str(i) not in row["played"]]


def _resumable(done: tuple[dict[str, Any], ...], name: str, bots: list[str], seed: int) -> dict[str, Any] | None:
    """A saved row of this pairing and seed whose games were played by the bots as they are now."""
    for row in done:
        same = (row["game"], row["bots"], row["seed"]) == (name, ",".join(bots), seed)
        if same and "played" in row and row.get("settings") == settings(bots, name):
            return row
    return None


def play_on(row: dict[str, Any], games: int, jobs: int, save: Any = None) -> dict[str, Any]:
    """Play the games below ``games`` that ``row`` lacks, each saved as it ends (``save()``), so a
    stopped run loses at most the games it was in the middle of."""
    missing = _missing(row, games)
    if not missing:
        return _summarise(row)
    bots = row["bots"].split(",")
    last = time.time()

    def finished(result: GameResult) -> None:
        nonlocal last
        now = time.time()
        row["wall_seconds"] = row.get("wall_seconds", 0.0) + now - last
        last = now
        _record(row, result, len(bots))
        _summarise(row)
        if save is not None:
            save()

    arena(row["game"], bots, seed=row["seed"], jobs=jobs, indices=missing, progress=finished)
    return _summarise(row)


def strength(
    names: tuple[str, ...],
    games: int,
    jobs: int,
    search: str,
    seed: int,
    save: Any = None,
    done: tuple[dict[str, Any], ...] = (),
    plan: list[tuple[str, list[str], str]] | None = None,
    chunk: int | None = None,
) -> list[dict[str, Any]]:
    """Every pairing's result over ``games`` games (of ``plan``, by default the strength table's).
    Each finished game is kept at once and ``save(rows)`` called, and a pairing in ``done`` (the
    same bots with the same settings and seed) plays only the games it lacks, so a stopped run
    goes on where it ended. With ``chunk``, the pairings take turns ``chunk`` games at a time, so
    that a run stopped early has figures for all of them."""
    rows: list[dict[str, Any]] = []
    for name, bots, target in pairings(names, search) if plan is None else plan:
        row = _resumable(done, name, bots, seed) or {
            "game": name,
            "players": len(bots),
            "bots": ",".join(bots),
            "bot": label(from_text(bots[0])),
            "seed": seed,
            "settings": settings(bots, name),
            "played": {},
            "wall_seconds": 0.0,
        }
        row["target"] = target
        rows.append(_summarise(row))

    def keep() -> None:
        if save is not None:
            save(rows)

    keep()
    step = chunk or games
    for upto in range(step, games + step, step):
        for row in rows:
            if not _missing(row, min(upto, games)):
                continue
            play_on(row, min(upto, games), jobs, keep)
            if upto >= games:
                _report(row)
    return rows


def _report(row: dict[str, Any]) -> None:
    print(
        f"{row['game']:<12} {row['players']}p {row['bots']:<32} {row['bot']:<12} wins {row['win_rate']:6.1%} "
        f"[{row['low']:.1%}-{row['high']:.1%}] of {row['games']}  mean score {row['mean_score']:6.1f} vs "
        f"{row['opponents_mean_score']:6.1f}  target {row['target']:<7} ({row['wall_seconds']:.0f} s)",
        flush=True,
    )


def extend(rows: list[dict[str, Any]], name: str, bots: str, total: int, jobs: int) -> dict[str, Any]:
    """Play a measured pairing on to ``total`` games (the next seeds and seats of the same arena)
    and merge them into its row: a narrower interval for a close call. A row that keeps its
    games one by one plays exactly the ones it lacks."""
    row = next((r for r in rows if (r["game"], r["bots"]) == (name, bots)), None)
    if row is None:
        raise SystemExit(f"--extend: no measured pairing {name} {bots} in the figures")
    if "played" in row:
        play_on(row, total, jobs)
        _report(row)
        return row
    played = row["games"]
    if total <= played:
        return row
    started = time.time()
    result = arena(name, bots.split(","), total - played, seed=row["seed"], jobs=jobs, start=played)
    standings = result.standings()
    first, others = standings[0], standings[1:]
    more = total - played
    wins = row["win_rate"] * played + first.wins
    low, high = wilson(wins, total)
    opponents = statistics.mean(s.mean_score for s in others)
    row.update(
        games=total,
        win_rate=wins / total,
        low=low,
        high=high,
        mean_score=(row["mean_score"] * played + first.mean_score * more) / total,
        opponents_mean_score=(row["opponents_mean_score"] * played + opponents * more) / total,
        wall_seconds=row["wall_seconds"] + time.time() - started,
    )
    _report(row)
    return row


def speed(
    names: tuple[str, ...], bot: str, games: int, seed: int, cases: tuple[tuple[str, int], ...] = SPEED_CASES
) -> list[dict[str, Any]]:
    """Median processor time of one decision of ``bot`` (a searching bot's text) in games between
    greedy players."""
    rows = []
    for name, players in cases:
        if name not in names:
            continue
        game = cb.load(name, players=players)
        search = from_text(bot)
        greedy = from_text("greedy")
        times: list[float] = []
        for g in range(games):
            match = cb.Match(game, seed=seed + g)
            rng = random.Random(seed + g)
            decision = 0
            while not match.state.is_over:
                state = match.state
                player = state.to_act[0]
                view = state.view(player)
                decision += 1
                if decision % 3 == 0 and len(view.legal_moves()) > 1:
                    start = time.process_time()
                    move = search.choose(view, rng)
                    times.append(time.process_time() - start)
                else:
                    move = greedy.choose(view, rng)
                match.play(move, player)
        rows.append(
            {
                "game": name,
                "players": players,
                "bot": bot,
                "decisions": len(times),
                "median_seconds": statistics.median(times),
                "p90_seconds": statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0],
                "max_seconds": max(times),
            }
        )
        row = rows[-1]
        print(
            f"{name:<12} {players}p {bot} one decision: median {row['median_seconds']:.3f} s, "
            f"90th percentile {row['p90_seconds']:.3f} s, max {row['max_seconds']:.3f} s "
            f"over {len(times)} decisions (target: median <= 1 s)",
            flush=True,
        )
    return rows


def tables(figures: list[dict[str, Any]]) -> str:
    """The Markdown tables of docs/bots.md from the figures of one or more saved runs."""
    lines = [
        "| game | players | seats | bot | games | wins | 95% interval | mean score (others) "
        "| it should win | does it |",
        "|:--|--:|:--|:--|--:|--:|:--|--:|:--|:--|",
    ]
    for run in figures:
        planned = run.get("games", 0)
        for row in run.get("strength", []):
            met = _met(row["win_rate"], row["low"], row["target"], row["players"])
            if row["games"] < planned:  # a run still under way: no verdict on a part of it
                met = f"not yet known ({row['games']} of {planned} games)"
            lines.append(
                f"| {row['game']} | {row['players']} | {row['bots']} | {row['bot']} | {row['games']} | "
                f"{row['win_rate']:.1%} | {row['low']:.1%} - {row['high']:.1%} | "
                f"{row['mean_score']:.1f} ({row['opponents_mean_score']:.1f}) | {row['target']} | {met} |"
            )
    lines += [
        "",
        "| game | players | bot | decisions timed | median | 90th percentile | max |",
        "|:--|--:|--:|--:|--:|--:|--:|",
    ]
    for run in figures:
        for row in run.get("speed", []):
            lines.append(
                f"| {row['game']} | {row['players']} | {row.get('bot') or 'ismcts:' + str(row['iterations'])} | "
                f"{row['decisions']} | "
                f"{row['median_seconds']:.3f} s | {row['p90_seconds']:.3f} s | {row['max_seconds']:.3f} s |"
            )
    return "\n".join(lines)


def _met(rate: float, low: float, target: str, players: int) -> str:
    """Whether a win rate meets its target: ``>= x%`` by the rate and with the whole interval above
    the fair share 1/players; ``> x%`` (more than the fair share, which the text rounds) by the
    whole interval."""
    fair = low > 1 / players
    if target.startswith(">="):
        return "yes" if fair and rate >= float(target.split()[-1].rstrip("%")) / 100 else "no"
    return "yes" if fair else "no"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 short games per pairing")
    parser.add_argument("--speed", action="store_true", help="only the decision times")
    parser.add_argument(
        "--levels", action="store_true", help="only the levels' calibration (each against the one below)"
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="only the search table: --bot against greedy players at 2 to 5 players, with its targets",
    )
    parser.add_argument("--bot", help="the searching bot's text (default: ismcts:ITERATIONS)")
    parser.add_argument(
        "--chunk", type=int, help="pairings take turns this many games at a time (a stopped run covers them all)"
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--only", action="append", help="a game to measure (default: every registered game)")
    parser.add_argument(
        "--players",
        action="append",
        type=int,
        choices=sorted(SEARCH_TARGETS),
        help="with --search, a player count to measure (default: 2 to 5; a pilot runs one row)",
    )
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--resume", action="store_true", help="keep the figures already in --json; play the rest")
    parser.add_argument("--table", nargs="+", metavar="JSON", help="print the docs' tables from saved runs and stop")
    parser.add_argument(
        "--extend",
        nargs=3,
        metavar=("GAME", "BOTS", "GAMES"),
        help="play a pairing saved in --json on to GAMES games (e.g. skyline ismcts:1000,greedy,greedy 600) and stop",
    )
    args = parser.parse_args(argv)
    if args.players and not args.search:
        parser.error("--players goes with --search")
    if args.table:
        runs = []
        for path in args.table:
            with open(path, encoding="utf-8") as saved:
                runs.append(json.load(saved))
        print(tables(runs))
        return 0
    if args.extend:
        if not args.json or not os.path.exists(args.json):
            raise SystemExit("--extend needs --json with the saved figures")
        with open(args.json, encoding="utf-8") as saved:
            figures_saved = json.load(saved)
        name, bots, total = args.extend
        extend(figures_saved["strength"], name, bots, int(total), args.jobs)
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures_saved, out, indent=1)
        return 0
    names = tuple(args.only or cb.games())
    if args.quick:
        args.games, args.jobs, args.iterations = 2, 1, 10
    search = args.bot or f"ismcts:{args.iterations}"
    if args.levels:
        return calibrate(names, args)
    figures: dict[str, Any] = {"iterations": args.iterations, "bot": search, "seed": args.seed, "games": args.games}

    def save(rows: list[dict[str, Any]] | None = None) -> None:
        if rows is not None:
            figures["strength"] = rows
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(figures, out, indent=1)

    previous: dict[str, Any] = {}
    if args.resume and args.json and os.path.exists(args.json):
        with open(args.json, encoding="utf-8") as saved:
            previous = json.load(saved)
    if previous.get("speed") and previous.get("bot", f"ismcts:{previous.get('iterations')}") == search:
        figures["speed"] = previous["speed"]
    else:
        figures["speed"] = speed(names, search, 1 if args.quick else 3, args.seed)
    save()
    if not args.speed:
        plan = search_pairings(names, search, tuple(args.players or SEARCH_TARGETS)) if args.search else None
        done = tuple(previous.get("strength", ()))
        strength(names, args.games, args.jobs, search, args.seed, save, done, plan, args.chunk)
    return 0


def definitions(bots: str) -> dict[str, str]:
    """What each level of a pairing (``"hard,normal"``) is, as saved with its figures."""
    return {name: LEVELS[name] for name in bots.split(",")}


def calibrate(names: tuple[str, ...], args: argparse.Namespace) -> int:
    """The ``--levels`` run: each level against the one below, saved to ``--json`` after every
    pairing (``--resume`` keeps the pairings already measured over at least ``--games``)."""
    figures: dict[str, Any] = {"levels": dict(LEVELS), "seed": args.seed, "games": args.games}
    previous: dict[str, Any] = {}
    if args.resume and args.json and os.path.exists(args.json):
        with open(args.json, encoding="utf-8") as saved:
            previous = json.load(saved)
    done = tuple(  # a pairing measured with the levels as they are now
        row for row in previous.get("strength", ()) if row.get("definitions") == definitions(row["bots"])
    )

    def save(rows: list[dict[str, Any]]) -> None:
        for row in rows:
            row.setdefault("definitions", definitions(row["bots"]))
        figures["strength"] = rows
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(figures, out, indent=1)

    plan = level_pairings(names)
    if args.quick:  # a smoke run: the quick pairings only
        plan = [p for p in plan if "hard" not in p[1]]
    if not args.quick:  # hard's decision times at 2 players, before the long pairings
        figures["speed"] = previous.get("speed") or speed(names, "hard", 1, args.seed, tuple((n, 2) for n in names))
    strength(names, args.games, args.jobs, "", args.seed, save, done, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
