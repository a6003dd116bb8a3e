"""Load on ``citybuild serve``: many matches played at once by scripted clients over HTTP.

A server process is started on a free localhost port with a fresh database; ``--matches``
matches (the three games in turn, two human seats each, shortened rules) are created, and one
asyncio task per match plays both seats: it reads the view of the seat to act (with its legal
moves) and posts one of them at random, with the step count it was chosen at. A client thinks
``--think`` seconds on average before each move (1 s: a quick human); ``--think 0`` plays as fast
as the answers come, the hardest load that many clients can make, which measures the most moves
per second the server takes. Every tenth move is posted twice at once, like a client retrying:
exactly one of the two must be accepted (the other is refused as stale, even where the same move
would be legal again). When every game is over, each record is fetched and replayed
(``citybuild.replay``), and its player moves are counted against the moves the clients had
accepted: none lost, none applied twice.

    python benchmarks/bench_server.py            # 100 concurrent matches: the figures in docs/server.md
    python benchmarks/bench_server.py --think 0  # the same with no thinking: the most moves per second
    python benchmarks/bench_server.py --quick    # 12 matches, a smoke run for CI
    python benchmarks/bench_server.py --json benchmarks/results/server.json   # the bot figures the tests read

Reported: accepted moves per second (wall clock), latency percentiles of the move posts and of the
view reads, the server's CPU time per move. Each match's client has its own loopback address
(127.0.0.2, 127.0.0.3, ...), as the server's limits count each address as one client. Then one
address floods the server for ``--flood`` seconds while another reads a view ten times a second:
how many of the flood's requests are refused 429, and the other's latency with and without the
flood. Last, for ``--bots`` seconds, 8 clients (each from its own address) play the three games
against ``--bot`` (``hard``) as fast as the bots answer, while another client reads an unrelated
view every 50 ms: that view's latency, and the processor time of each of the bot's decisions in
the server's bot pool (from the server's ``--verbose`` log), against the pool's budget. Bounded:
localhost only, a fixed number of matches of a few rounds each, and ``--timeout`` seconds at most.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

import citybuild as cb

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("manhattan", {"rounds": {"2": 2}}),
    ("skyline", {"rounds": 3}),
    ("urbanization", {"max_rounds": 2}),
)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # clock ticks: 100 per second on Linux


class Tally:
    """What the clients saw: latencies, accepted moves per match, races won."""

    def __init__(self) -> None:
        self.post: list[float] = []
        self.view: list[float] = []
        self.accepted: dict[str, int] = {}
        self.races = 0
        self.race_errors: list[str] = []


async def play(client: httpx2.AsyncClient, made: dict[str, Any], seed: int, think: float, tally: Tally) -> None:
    """Play both seats of one match to its end, with random legal moves, thinking ``think``
    seconds on average (uniformly 0 to twice that) before each."""
    rng = random.Random(seed)
    url = f"/api/matches/{made['id']}"
    headers = {seat: {"Authorization": f"Bearer {token}"} for seat, token in made["tokens"].items()}
    tally.accepted[made["id"]] = 0
    number = 0
    state = (await client.get(f"{url}/view")).json()  # then each move's answer says who is to act
    while not state["over"]:
        seat = str(state["to_act"][0])
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        started = time.perf_counter()
        view = (await client.get(f"{url}/view", headers=headers[seat])).json()
        tally.view.append(time.perf_counter() - started)
        move = rng.choice(view["legal_moves"])
        number += 1
        posts = 2 if number % 10 == 0 else 1
        started = time.perf_counter()
        answers = await asyncio.gather(
            *(
                client.post(f"{url}/moves", headers=headers[seat], json={"move": move, "moves": view["moves"]})
                for _ in range(posts)
            )
        )
        tally.post.append(time.perf_counter() - started)
        statuses = sorted(a.status_code for a in answers)
        if statuses.count(200) != 1 or any(s not in (200, 409) for s in statuses):
            raise AssertionError(f"{made['id']}: {move!r} posted {posts}x answered {statuses}: {answers[-1].text}")
        if posts == 2:
            tally.races += 1
        tally.accepted[made["id"]] += 1
        state = next(a for a in answers if a.status_code == 200).json()


def client_at(url: str, address: str, connections: int = 4) -> httpx2.AsyncClient:
    """A client whose connections come from ``address`` (a loopback address: the server's limits
    count each address as one client)."""
    limits = httpx2.Limits(max_connections=connections, max_keepalive_connections=connections)
    transport = httpx2.AsyncHTTPTransport(local_address=address, limits=limits)
    return httpx2.AsyncClient(base_url=url, timeout=60, transport=transport)


def loopback(n: int) -> str:
    """The ``n``-th client's address: 127.0.0.2, 127.0.0.3, ..."""
    return str(ipaddress.ip_address("127.0.0.2") + n)


async def run(url: str, matches: int, seed: int, think: float) -> tuple[Tally, float, list[dict[str, Any]]]:
    clients = [client_at(url, loopback(i)) for i in range(matches)]  # one client, one address, per match
    try:
        made = []
        for i, client in enumerate(clients):
            game, options = GAMES[i % len(GAMES)]
            body = {"game": game, "players": 2, "options": options, "seed": seed + i}
            response = await client.post("/api/matches", json=body)
            response.raise_for_status()
            match = response.json()
            tokens = {str(match["seat"]): match["token"]}
            for seat, code in match["invites"].items():  # the other seat joins by its invite
                joined = await client.post(f"/api/matches/{match['id']}/join", json={"invite": code})
                joined.raise_for_status()
                tokens[seat] = joined.json()["token"]
            made.append({**match, "tokens": tokens})
        tally = Tally()
        started = time.perf_counter()
        await asyncio.gather(*(play(clients[i], m, seed + i, think, tally) for i, m in enumerate(made)))
        wall = time.perf_counter() - started
        records = [(await clients[i].get(f"/api/matches/{m['id']}/record")).json() for i, m in enumerate(made)]
    finally:
        for client in clients:
            await client.aclose()
    return tally, wall, [{"made": m, "record": r} for m, r in zip(made, records, strict=True)]


async def flood(url: str, seconds: float, senders: int = 8) -> list[str]:
    """One address floods the server (``senders`` requests always in flight) while another reads
    a seat's view every 100 ms: the flood's answers, and the other's latency without and with it."""
    quiet = client_at(url, "127.1.0.2")
    loud = client_at(url, "127.1.0.3", connections=senders)
    try:
        made = (await quiet.post("/api/matches", json={"game": "skyline", "players": 2})).json()
        view, headers = f"/api/matches/{made['id']}/view", {"Authorization": f"Bearer {made['token']}"}

        async def reads(until: float) -> list[float]:
            latencies = []
            while time.perf_counter() < until:
                started = time.perf_counter()
                (await quiet.get(view, headers=headers)).raise_for_status()
                latencies.append(time.perf_counter() - started)
                await asyncio.sleep(0.1)  # 10 a second: within the default --rate
            return latencies

        answers: list[int] = []

        async def send(until: float) -> None:
            while time.perf_counter() < until:
                answers.append((await loud.get(view)).status_code)

        alone = await reads(time.perf_counter() + seconds)
        until = time.perf_counter() + seconds
        flooded, *_ = await asyncio.gather(reads(until), *(send(until) for _ in range(senders)))
    finally:
        await quiet.aclose()
        await loud.aclose()
    ms = 1000
    refused = answers.count(429)
    assert set(answers) <= {200, 429}, sorted(set(answers))
    return [
        f"flood from one address ({senders} requests in flight, default limits): {len(answers)} requests in "
        f"{seconds:g} s, {len(answers) - refused} answered, {refused} refused 429",
        f"another client's view meanwhile: p50 {percentile(flooded, 0.5) * ms:.1f} ms, "
        f"p95 {percentile(flooded, 0.95) * ms:.1f} ms (alone: p50 {percentile(alone, 0.5) * ms:.1f} ms, "
        f"p95 {percentile(alone, 0.95) * ms:.1f} ms)",
    ]


async def bots_beside(url: str, seconds: float, bot: str = "hard", clients: int = 8) -> tuple[list[float], int]:
    """``clients`` clients (each from its own loopback address, 127.2.0.2, ...) play the three
    games in turn (2 players, whole games) against ``bot`` as fast as the bots answer, while
    another client reads an unrelated match's view every 50 ms: that view's latencies, and the
    moves answered with the bot's reply. The bots think in the server's bot pool, not in the
    threads that answer requests, so the view stays quick."""
    drivers = [client_at(url, str(ipaddress.ip_address("127.2.0.2") + n), connections=2) for n in range(clients)]
    reader = client_at(url, "127.3.0.2")
    try:
        made = []
        for n, http in enumerate(drivers):
            body = {"game": GAMES[n % len(GAMES)][0], "players": 2, "bots": {"1": bot}, "seed": n}
            answer = await http.post("/api/matches", json=body)
            answer.raise_for_status()
            made.append(answer.json())
        other = (await reader.post("/api/matches", json={"game": "skyline", "players": 2})).json()
        seen = f"/api/matches/{other['id']}/view", {"Authorization": f"Bearer {other['token']}"}
        began, views, replies = time.perf_counter(), [], 0

        async def drive(http: httpx2.AsyncClient, match: dict[str, Any]) -> None:
            nonlocal replies
            url, headers = f"/api/matches/{match['id']}", {"Authorization": f"Bearer {match['token']}"}
            while time.perf_counter() - began < seconds:
                view = (await http.get(f"{url}/view", headers=headers)).json()
                if view["over"]:
                    return
                if not view["your_turn"]:  # the bot's reply went out later than the answer
                    await asyncio.sleep(0.1)
                    continue
                body = {"move": view["legal_moves"][0], "moves": view["moves"]}
                answer = await http.post(f"{url}/moves", headers=headers, json=body)
                replies += answer.status_code == 200

        async def read() -> None:
            while time.perf_counter() - began < seconds:
                start = time.perf_counter()
                (await reader.get(seen[0], headers=seen[1])).raise_for_status()
                views.append(time.perf_counter() - start)
                await asyncio.sleep(0.05)

        await asyncio.gather(read(), *(drive(http, match) for http, match in zip(drivers, made, strict=True)))
    finally:
        for http in (*drivers, reader):
            await http.aclose()
    return views, replies


def decisions(log: str, bot: str) -> tuple[list[float], int]:
    """The processor seconds of each of ``bot``'s decisions in the server's bot pool, and how many
    its budget cut short, from the server's ``--verbose`` log."""
    spent = [
        float(line.split(" decided in ")[1].split()[0]) for line in log.splitlines() if f" {bot} decided in " in line
    ]
    return spent, sum(f" {bot} was cut short " in line for line in log.splitlines())


def verify(tally: Tally, finished: list[dict[str, Any]]) -> int:
    """Replay every record and compare its player moves with the moves accepted; the games replayed."""
    for item in finished:
        record = cb.from_json(json.dumps(item["record"]))
        match = cb.replay(record)
        assert match.is_over, item["made"]["id"]
        moves = sum(1 for entry in record.moves if entry.player is not None)
        accepted = tally.accepted[item["made"]["id"]]
        assert moves == accepted, f"{item['made']['id']}: {moves} moves in the record, {accepted} accepted"
    return len(finished)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="12 matches: a smoke run")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a client thinks before each move (0: none)"
    )
    parser.add_argument("--sync", choices=("normal", "full"), default="normal", help="the server's --sync")
    parser.add_argument("--no-limits", action="store_true", help="the server with every limit off (to compare)")
    parser.add_argument("--flood", type=float, default=5.0, help="seconds of the flood from one address (0: none)")
    parser.add_argument(
        "--bots", type=float, default=30.0, help="seconds of 8 clients playing against bots beside a view (0: none)"
    )
    parser.add_argument("--bot", default="hard", help="the bot they play against (a server bot text)")
    parser.add_argument("--json", type=Path, help="write the bot's decision times in the bot pool here")
    args = parser.parse_args()
    flood_seconds = min(args.flood, 1.0) if args.quick else args.flood
    bot_seconds = min(args.bots, 2.0) if args.quick else args.bots
    matches = 12 if args.quick else args.matches
    think = min(args.think, 0.1) if args.quick else args.think
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--db", str(db), "--allow-seed"]
        command += ["--sync", args.sync, "--verbose"]  # verbose: the log tells each searching bot's decision time
        if args.no_limits:
            command += ["--rate", "0", "--matches-per-client", "0", "--streams", "0", "--streams-per-client", "0"]
        log = Path(tmp) / "server.log"
        with log.open("w") as err:
            server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[2].rstrip("/")
            cpu_before = cpu_seconds(server.pid)
            tally, wall, finished = asyncio.run(asyncio.wait_for(run(url, matches, args.seed, think), args.timeout))
            cpu = cpu_seconds(server.pid) - cpu_before
            flooded = asyncio.run(flood(url, flood_seconds)) if flood_seconds else []
            beside = asyncio.run(bots_beside(url, bot_seconds, args.bot)) if bot_seconds else None
        finally:
            server.terminate()
            server.wait(timeout=30)
        spent, cut = decisions(log.read_text(), args.bot)
    games = verify(tally, finished)
    moves = sum(tally.accepted.values())
    ms = 1000
    print(
        f"{matches} concurrent matches ({', '.join(g for g, _ in GAMES)} in turn), 2 scripted seats each, "
        f"thinking {think:g} s on average before each move, --sync {args.sync}"
    )
    print(
        f"{moves} moves accepted in {wall:.1f} s: {moves / wall:.0f} moves/s; server CPU {cpu / moves * ms:.2f} ms/move"
    )
    post = [percentile(tally.post, share) * ms for share in (0.5, 0.95, 0.99)]
    print(
        f"move post latency: p50 {post[0]:.1f} ms, p95 {post[1]:.1f} ms, p99 {post[2]:.1f} ms, "
        f"mean {statistics.fmean(tally.post) * ms:.1f} ms"
    )
    print(
        f"view read latency: p50 {percentile(tally.view, 0.5) * ms:.1f} ms, "
        f"p95 {percentile(tally.view, 0.95) * ms:.1f} ms, p99 {percentile(tally.view, 0.99) * ms:.1f} ms"
    )
    print(
        f"{tally.races} moves posted twice at once: each accepted exactly once; "
        f"{games} records replay with exactly the moves accepted (0 lost, 0 applied twice)"
    )
    for line in flooded:
        print(line)
    if beside is not None:
        views, replies = beside
        print(
            f"8 clients against {args.bot} for {bot_seconds:g} s ({replies} moves answered with the bot's reply): "
            f"an unrelated view p50 {percentile(views, 0.5) * ms:.1f} ms, p95 {percentile(views, 0.95) * ms:.1f} ms"
        )
    if spent:
        figures = {
            "bot": args.bot,
            "decisions": len(spent),
            "median_seconds": statistics.median(spent),
            "p95_seconds": percentile(spent, 0.95),
            "max_seconds": max(spent),
            "cut_short": cut,
        }
        print(
            f"{args.bot} in the bot pool: {len(spent)} decisions, processor time a decision median "
            f"{figures['median_seconds']:.3f} s, p95 {figures['p95_seconds']:.3f} s, "
            f"max {figures['max_seconds']:.3f} s; {cut} cut short by the budget"
        )
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
