"""SQLite with one worker against PostgreSQL with two: a steady offered load, then saturation.

For each set-up a ``citybuild serve`` process is started on a free localhost port over a fresh
database (PostgreSQL: a throw-away cluster made with initdb in a temporary folder, or the
``--database`` URL given; its tables are dropped first). ``--matches`` Skyline matches of two
human seats are created, each played by one asyncio task from its own loopback address
(127.0.0.2, 127.0.0.3, ...: distinct clients, as limits per client see them). Each task posts one
move every ``--interval`` seconds (the first at a random moment of the first interval), the move
taken from the last answer's legal moves and sent with its step count (when the other seat is to
act next, its view is read first: two requests a move); ``--matches 200 --interval 2`` offers
100 moves a second. Then ``--saturate`` tasks post moves back to back for ``--seconds`` seconds:
the most moves a second the set-up takes. At the end the database's player moves of each match
are counted against the moves answered 200: none lost, none twice. Last, for half as long, 8
clients play against ``ismcts:2000`` bots beside an unrelated view (``bots_beside`` of
``bench_server.py``). The limits per client are the server's defaults.

    python benchmarks/bench_server_workers.py           # 200 matches, 100 moves/s: the figures in docs/server.md
    python benchmarks/bench_server_workers.py --quick   # 30 matches, 2 s a phase: a smoke run for CI

Reported per set-up: moves answered per second, p50/p95/p99 of the move posts, lost and doubled
moves, and the saturation throughput. Bounded: localhost only, ``--seconds`` per phase.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import pwd
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from bench_server import bots_beside

RULES = {"rounds": 30}
"""Skyline with rounds enough that no game ends during a run."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def throwaway_postgres() -> tuple[str, Any] | None:
    """A cluster in a temporary folder (as the postgres user when root): its URL and a stopper."""
    found = shutil.which("initdb")
    folders = [str(Path(found).parent)] if found else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if not folders:
        return None
    tools, folder = Path(folders[0]), Path(tempfile.mkdtemp(prefix="citybuild-bench-pg-"))
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]

    def run(*args: str) -> None:
        subprocess.run(args, user=user, cwd=folder, check=True, capture_output=True)

    run(str(tools / "initdb"), "-D", str(folder / "data"), "-A", "trust", "-U", "citybuild", "--no-sync")
    options = f"-k {folder} -p {port} -c listen_addresses='' -c max_connections=300"
    run(str(tools / "pg_ctl"), "start", "-w", "-D", str(folder / "data"), "-l", str(folder / "log"), "-o", options)

    def stop() -> None:
        run(str(tools / "pg_ctl"), "stop", "-D", str(folder / "data"), "-m", "fast")
        shutil.rmtree(folder, ignore_errors=True)

    return f"postgresql://citybuild@/postgres?host={folder}&port={port}", stop


def fresh_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bot_jobs, moves, rematches, lobby, invites, seats, matches")


def stored(database: str, ids: list[str]) -> dict[str, int]:
    """Player moves stored, by match."""
    query = "SELECT match, COUNT(*) FROM moves WHERE player IS NOT NULL GROUP BY match"
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database) as conn:
            rows = conn.execute(query).fetchall()
    else:
        with sqlite3.connect(database) as conn:
            rows = conn.execute(query).fetchall()
    counts = dict(rows)
    return {match: int(counts.get(match, 0)) for match in ids}


class Serve:
    def __init__(self, database: str, workers: int) -> None:
        command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--database", database]
        command += ["--allow-seed", "--workers", str(workers)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("citybuild: serving"), line
        self.url = line.split()[2].rstrip("/")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class Seat:
    """One match played by one client: both seats' tokens and the last view answered."""

    def __init__(self, base: str, address: str) -> None:
        transport = httpx2.AsyncHTTPTransport(local_address=address)
        self.http = httpx2.AsyncClient(base_url=base, transport=transport, timeout=30)
        self.id = ""
        self.tokens: dict[int, str] = {}
        self.view: dict[str, Any] = {}
        self.answered = 0

    async def start(self, seed: int) -> None:
        body = {"game": "skyline", "players": 2, "options": RULES, "seed": seed}
        made = (await self.http.post("/api/matches", json=body)).json()
        self.id, self.tokens[made["seat"]] = made["id"], made["token"]
        for seat, code in made["invites"].items():
            joined = (await self.http.post(f"/api/matches/{self.id}/join", json={"invite": code})).json()
            self.tokens[int(seat)] = joined["token"]
        await self.look()

    async def look(self, to_act: list[int] | None = None) -> None:
        """The view of the seat to act (``to_act``: as the last answer said, else asked for)."""
        if not to_act:
            to_act = (await self.http.get(f"/api/matches/{self.id}/view")).json()["to_act"]
        seat = to_act[0]
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"}
        self.view = (await self.http.get(f"/api/matches/{self.id}/view", headers=headers)).json()

    async def move(self, latencies: list[float]) -> None:
        view = self.view
        if view.get("over") or not view.get("your_turn"):
            await self.look()
            return
        seat = view["seat"]
        body = {"move": random.choice(view["legal_moves"]), "moves": view["moves"]}
        began = time.perf_counter()
        answer = await self.http.post(
            f"/api/matches/{self.id}/moves", headers={"Authorization": f"Bearer {self.tokens[seat]}"}, json=body
        )
        latencies.append(time.perf_counter() - began)
        if answer.status_code == 200:
            self.answered += 1
            self.view = answer.json()
            if not self.view["your_turn"]:
                await self.look(self.view["to_act"])
        else:
            await self.look()


async def steady(seats: list[Seat], interval: float, seconds: float) -> tuple[int, list[float], float]:
    latencies: list[float] = []
    began = time.perf_counter()

    async def play(seat: Seat) -> None:
        await asyncio.sleep(random.uniform(0, interval))
        while time.perf_counter() - began < seconds:
            due = time.perf_counter() + interval
            await seat.move(latencies)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))

    before = sum(s.answered for s in seats)
    await asyncio.gather(*(play(s) for s in seats))
    return sum(s.answered for s in seats) - before, latencies, time.perf_counter() - began


async def saturate(seats: list[Seat], seconds: float) -> tuple[int, float]:
    began = time.perf_counter()

    async def play(seat: Seat) -> None:
        while time.perf_counter() - began < seconds:
            await seat.move([])

    before = sum(s.answered for s in seats)
    await asyncio.gather(*(play(s) for s in seats))
    return sum(s.answered for s in seats) - before, time.perf_counter() - began


async def measure(label: str, database: str, workers: int, args: argparse.Namespace) -> None:
    server = Serve(database, workers)
    try:
        seats = [Seat(server.url, f"127.0.0.{2 + n % 250}") for n in range(args.matches)]
        for start in range(0, len(seats), 20):
            await asyncio.gather(*(s.start(seed=start + n) for n, s in enumerate(seats[start : start + 20])))
        answered, latencies, took = await steady(seats, args.interval, args.seconds)
        most, most_took = await saturate(seats[: args.saturate], args.seconds)
        views, replies = await bots_beside(server.url, args.seconds / 2, "ismcts:2000")
        counts = stored(database, [s.id for s in seats])
        lost = sum(max(0, s.answered - counts[s.id]) for s in seats)
        doubled = sum(max(0, counts[s.id] - s.answered) for s in seats)
        for seat in seats:
            await seat.http.aclose()
    finally:
        server.stop()
    ms = [1000 * x for x in latencies]
    print(
        f"{label:<24} {answered / took:7.1f} moves/s offered {args.matches / args.interval:.0f}/s  "
        f"p50 {percentile(ms, 0.5):6.1f} ms  p95 {percentile(ms, 0.95):6.1f} ms  p99 {percentile(ms, 0.99):6.1f} ms  "
        f"lost {lost}  doubled {doubled}  saturation {most / most_took:7.1f} moves/s ({args.saturate} clients)",
        flush=True,
    )
    seen = [1000 * x for x in views]
    print(
        f"{'':<24} 8 clients against ismcts:2000 ({replies} moves answered with the bot's reply): "
        f"an unrelated view p50 {percentile(seen, 0.5):.1f} ms, p95 {percentile(seen, 0.95):.1f} ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between one match's moves")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each phase")
    parser.add_argument("--saturate", type=int, default=32, help="clients posting back to back")
    parser.add_argument("--database", help="a postgresql:// URL to use instead of a throw-away cluster")
    parser.add_argument("--quick", action="store_true", help="30 matches, 2 s phases: a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.matches, args.seconds, args.saturate = 30, 2.0, 8
    random.seed(1)
    folder = Path(tempfile.mkdtemp(prefix="citybuild-bench-"))
    asyncio.run(measure("SQLite, 1 worker", str(folder / "bench.sqlite"), 1, args))
    made = None if args.database else throwaway_postgres()
    url = args.database or (made[0] if made else None)
    if url is None:
        print("PostgreSQL, 2 workers: skipped (no PostgreSQL found: apt-get install postgresql)")
        return
    try:
        fresh_postgres(url)
        asyncio.run(measure("PostgreSQL, 2 workers", url, 2, args))
    finally:
        if made is not None:
            made[1]()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
