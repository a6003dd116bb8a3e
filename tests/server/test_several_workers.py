"""Several workers on one PostgreSQL database, as real processes: one killed (-9) under load loses
no answered move and leaves no bot reply unplayed while the other serves on and the killed one
is started again; events reach a watcher of another worker; a read through one worker shows a
move another has just answered; a bot's reply is played by whichever worker takes its job. With
SQLite, several workers are refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from extras_support import importorskip_extra

importorskip_extra("server")

import httpx2  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, Server, auth, settled, with_tokens  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402

LONG = {"rounds": 6}
"""Skyline rules with enough human moves for a load that outlives a worker's death."""


def stored_moves(url: str, match_id: str, player: int) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT COUNT(*) FROM moves WHERE match = %s AND player = %s", (match_id, player))
        return int(row.fetchone()[0])


def test_several_workers_over_sqlite_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "citybuild.cli", "serve", "--db", str(tmp_path / "a.sqlite"), "--workers", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--workers 2 needs a PostgreSQL database" in done.stderr, done.stderr
    assert not (tmp_path / "a.sqlite").exists()


class Player(threading.Thread):
    """Seat 0 of one match against a greedy bot, each move from a fresh connection (so any worker
    may answer it) and sent with its step count, so a retry after a lost answer plays it at most once."""

    def __init__(self, base: str, made: dict[str, Any], moves: int) -> None:
        super().__init__()
        self.base, self.made, self.moves = base, made, moves
        self.answered = self.unanswered = 0
        self.failures: list[str] = []

    def run(self) -> None:
        url, headers = f"/api/matches/{self.made['id']}", auth(self.made["token"])
        while self.answered < self.moves:
            try:
                with httpx2.Client(base_url=self.base, timeout=30) as http:
                    view = http.get(f"{url}/view", headers=headers).json()
                    if view["over"]:
                        return
                    if view["to_act"] != [0]:
                        continue  # the bot's reply is still to come
                    body = {"move": view["legal_moves"][0], "moves": view["moves"]}
                    played = http.post(f"{url}/moves", headers=headers, json=body)
            except httpx2.TransportError:  # the worker that had the connection was killed
                self.unanswered += 1
                continue
            if played.status_code == 200:
                self.answered += 1
            elif played.status_code != 409:  # 409: stale, a retried move played already
                self.failures.append(played.text)
                return


def test_a_worker_killed_under_load_loses_no_answered_move_and_no_bot_reply(pg_url: str) -> None:
    server = Server(pg_url, 2, "--rate", "0")  # one client address drives every match here
    try:
        made = []
        for seed in range(6):
            body = {"game": "skyline", "players": 2, "options": LONG, "bots": {"1": "greedy"}, "seed": seed}
            response = server.http.post("/api/matches", json=body)
            assert response.status_code == 201, response.text
            made.append(response.json())
        players = [Player(server.url, m, moves=12) for m in made]
        for player in players:
            player.start()
        for _ in range(2400):  # under load: a quarter of the moves answered
            if sum(p.answered for p in players) >= 18 or not any(p.is_alive() for p in players):
                break
            time.sleep(0.025)
        os.kill(server.workers[0], signal.SIGKILL)  # one worker dies; the other serves the rest
        restarted = server.worker_started()
        for player in players:
            player.join(180)
        assert restarted not in server.workers
        os.kill(server.workers[1], signal.SIGKILL)  # now the restarted worker serves the reads below
        server.worker_started()  # the parent has reaped the killed one: its connections are closed
        with httpx2.Client(base_url=server.url, timeout=30) as fresh:  # none kept alive to a dead worker
            for player in players:
                assert not player.failures and not player.is_alive(), player.failures
                stored = stored_moves(pg_url, player.made["id"], 0)
                assert player.answered <= stored <= player.answered + player.unanswered  # none lost, none twice
                view = settled(fresh, f"/api/matches/{player.made['id']}")  # every bot reply played
                assert view["over"] or view["to_act"] == [0]
        assert sum(p.answered for p in players) >= 36
    finally:
        server.stop()


def test_events_reach_a_watcher_of_another_worker(pg_url: str) -> None:
    one, two = Server(pg_url), Server(pg_url)
    try:
        body = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "seed": 2}
        made = with_tokens(one.http, one.http.post("/api/matches", json=body).json())
        url = f"/api/matches/{made['id']}"
        seen: list[int] = []
        with two.http.stream("GET", f"{url}/events") as events:  # watching through the second server
            lines = events.iter_lines()
            for _ in range(3):
                for line in lines:
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:])["moves"])
                        break
                view = one.http.get(f"{url}/view").json()  # moved through the first
                seat = str(view["to_act"][0])
                legal = one.http.get(f"{url}/view", headers=auth(made["tokens"][seat])).json()["legal_moves"]
                played = one.http.post(f"{url}/moves", headers=auth(made["tokens"][seat]), json={"move": legal[0]})
                assert played.status_code == 200, played.text
        assert len(seen) == 3 and seen == sorted(set(seen)), seen
    finally:
        one.stop()
        two.stop()


def test_a_bot_reply_is_played_by_whichever_worker_takes_its_job(pg_url: str) -> None:
    """A worker with no bot thread stores the human's move and its job; another worker's bot pool
    plays the reply, and the first hears of it."""
    other = Server(pg_url)
    try:
        app = create_app(pg_url, allow_seed=True, bot_threads=0, reply_wait=0.0, quotas=Quotas.off())
        with TestClient(app) as client:
            body = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "bots": {"1": "greedy"}, "seed": 7}
            made = client.post("/api/matches", json=body).json()
            url, headers = f"/api/matches/{made['id']}", auth(made["token"])
            while not (view := settled(client, url, headers))["over"]:  # to the end: every reply played
                played = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]})
                assert played.status_code == 200, played.text
            assert stored_moves(pg_url, made["id"], 1) >= 1  # the bot's replies, stored by the other worker
    finally:
        other.stop()


def test_a_read_through_one_worker_shows_a_move_answered_by_another_at_once(pg_url: str) -> None:
    """Both workers hold the match in memory; after each move answered by the first (with the
    bot's reply it waits for), a read through the second shows that very position, never an older
    copy: every read takes the match's revision from the database and catches up first."""
    one, two = Server(pg_url), Server(pg_url)
    try:
        body = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "bots": {"1": "greedy"}, "seed": 8}
        made = one.http.post("/api/matches", json=body).json()
        url, headers = f"/api/matches/{made['id']}", auth(made["token"])
        view = settled(one.http, url, headers)
        assert two.http.get(f"{url}/view", headers=headers).json() == view  # the second's copy, loaded now
        moves = 0
        while not view["over"]:
            answer = one.http.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]})
            assert answer.status_code == 200, answer.text
            view = answer.json()
            if set(view["to_act"]) & {1} and not view["over"]:  # the reply came after the answer: wait for it
                view = settled(one.http, url, headers)
            seen = two.http.get(f"{url}/view", headers=headers).json()
            assert (seen["moves"], seen["to_act"], seen["legal_moves"]) == (
                view["moves"],
                view["to_act"],
                view["legal_moves"],
            )
            moves += 1
        assert moves >= 3 and two.http.get(f"{url}/record").status_code == 200
    finally:
        one.stop()
        two.stop()
