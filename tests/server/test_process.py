"""``citybuild serve`` as a real process: concurrent requests for one decision, a kill -9 and a
restart that finds every match where it was, and one-line errors for a port in use."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

import httpx2  # noqa: E402
from server_support import SHORT, Server, auth, with_tokens  # noqa: E402

import citybuild as cb  # noqa: E402


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "served.sqlite"


@pytest.fixture
def server(db: Path) -> Iterator[Server]:
    running = Server(db)
    yield running
    running.stop()


def create(http: httpx2.Client, game: str, bots: dict[str, str], seed: int, players: int = 2) -> Any:
    response = http.post(
        "/api/matches", json={"game": game, "players": players, "options": SHORT[game], "bots": bots, "seed": seed}
    )
    assert response.status_code == 201, response.text
    return with_tokens(http, response.json())


def race(base: str, path: str, headers: dict[str, str], moves: list[str], at: int | None = None) -> list[int]:
    """Post every move at once (with the step ``at`` when given), each from its own thread and
    connection; the statuses answered."""
    barrier = threading.Barrier(len(moves))
    statuses: list[int] = []

    def post(move: str) -> None:
        with httpx2.Client(base_url=base, timeout=30) as own:
            barrier.wait()
            body: dict[str, Any] = {"move": move} if at is None else {"move": move, "moves": at}
            statuses.append(own.post(path, headers=headers, json=body).status_code)

    threads = [threading.Thread(target=post, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_of_many_requests_for_one_decision_exactly_one_is_accepted(server: Server, db: Path) -> None:
    made = create(server.http, "manhattan", {}, seed=8)
    url = f"/api/matches/{made['id']}"
    for _ in range(3):  # three decisions in a row, each raced for by 12 requests
        view = server.http.get(f"{url}/view").json()
        seat = str(view["to_act"][0])
        headers = auth(made["tokens"][seat])
        legal = server.http.get(f"{url}/view", headers=headers).json()["legal_moves"]
        statuses = race(server.url, f"{url}/moves", headers, [legal[i % len(legal)] for i in range(12)])
        assert sorted(statuses).count(200) == 1, statuses
        assert all(status == 409 for status in statuses if status != 200), statuses
    with sqlite3.connect(db) as stored:  # three decisions, three player moves stored: none twice
        rows = stored.execute("SELECT COUNT(*) FROM moves WHERE match = ? AND player IS NOT NULL", (made["id"],))
        assert rows.fetchone()[0] == 3


def test_a_killed_server_restarts_with_every_match_where_it_was(db: Path) -> None:
    first = Server(db)
    matches = {
        game: create(first.http, game, {"1": "greedy"}, seed=11) for game in ("manhattan", "skyline", "urbanization")
    }
    before: dict[str, Any] = {}
    try:
        for game, made in matches.items():
            url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
            for _ in range(3):
                view = first.http.get(f"{url}/view", headers=headers).json()
                first.http.post(
                    f"{url}/moves", headers=headers, json={"move": view["legal_moves"][-1]}
                ).raise_for_status()
            before[game] = first.http.get(f"{url}/view?picture=true", headers=headers).json()
    finally:
        first.kill()  # kill -9: no shutdown of any kind
    second = Server(db)
    try:
        for game, made in matches.items():
            url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
            assert second.http.get(f"{url}/view?picture=true", headers=headers).json() == before[game]
            view = before[game]
            while not view["over"]:  # and the game goes on to its end, whose record replays
                response = second.http.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]})
                assert response.status_code == 200, response.text
                view = response.json()
            record = cb.from_json(json.dumps(second.http.get(f"{url}/record").json()))
            assert cb.replay(record).is_over
    finally:
        second.stop()


def test_a_port_in_use_is_one_line(server: Server, db: Path) -> None:
    command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", str(server.port), "--db", str(db)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith(f"citybuild: error: cannot listen on 127.0.0.1:{server.port}: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_database_in_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "games.sqlite"
    command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--db", str(db)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == f"citybuild: error: --database {db}: the directory {db.parent} does not exist\n"


def test_a_retried_move_naming_its_step_is_played_once(server: Server) -> None:
    made = create(server.http, "skyline", {}, seed=3)
    url = f"/api/matches/{made['id']}"
    for _ in range(4):  # the same move, sent 8 times at once with the step it was chosen at
        view = server.http.get(f"{url}/view").json()
        headers = auth(made["tokens"][str(view["to_act"][0])])
        legal = server.http.get(f"{url}/view", headers=headers).json()["legal_moves"]
        statuses = race(server.url, f"{url}/moves", headers, [legal[0]] * 8, at=view["moves"])
        assert sorted(statuses) == [200] + [409] * 7, statuses
