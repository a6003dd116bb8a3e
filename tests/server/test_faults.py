"""Faults of the database: a lock held by another connection, random bytes in the file, a stored
move that no longer replays. Each is a 503 with a clear message, never a 500, and never quotes a
stored move; the server recovers when the lock goes. Waits are set (``busy_timeout``), not timed."""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.faults import DAMAGED_RECORD  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402


def app_over(db: Path, **limits: Any) -> Any:
    quotas = Quotas(**limits) if limits else Quotas.off()
    return create_app(db, allow_seed=True, quotas=quotas, busy_timeout=0.05)


def play_some(client: TestClient, made: dict[str, Any], moves: int) -> None:
    url = f"/api/matches/{made['id']}"
    for _ in range(moves):
        view = client.get(f"{url}/view").json()
        if view["over"]:
            return
        headers = auth(made["tokens"][str(view["to_act"][0])])
        legal = client.get(f"{url}/view", headers=headers).json()["legal_moves"]
        assert client.post(f"{url}/moves", headers=headers, json={"move": legal[0]}).status_code == 200


def test_a_locked_database_answers_503_busy_and_recovers_when_the_lock_goes(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with TestClient(app_over(db), raise_server_exceptions=False) as client:
        store = client.app.state.hall.store  # type: ignore[attr-defined]
        assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == 50  # the configured wait, in ms
        made = new_match(client, "skyline", seed=4)
        url = f"/api/matches/{made['id']}"
        view = client.get(f"{url}/view").json()
        headers = auth(made["tokens"][str(view["to_act"][0])])
        move = client.get(f"{url}/view", headers=headers).json()["legal_moves"][0]
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            answers: list[Any] = []
            posts = [
                threading.Thread(
                    target=lambda: answers.append(client.post(f"{url}/moves", headers=headers, json={"move": move}))
                )
                for _ in range(6)
            ]
            for post in posts:
                post.start()
            for post in posts:
                post.join()
            assert [a.status_code for a in answers] == [503] * 6
            assert all(a.headers["Retry-After"] == "1" for a in answers)
            assert {a.json()["error"]["code"] for a in answers} <= {"busy", "not-stored"}
            assert all(
                "locked" in a.json()["error"]["message"] or "busy" in a.json()["error"]["message"] for a in answers
            )
            assert client.get(f"{url}/view").json()["moves"] == view["moves"]  # nothing was played
            created = client.post("/api/matches", json={"game": "skyline", "players": 2})
            assert created.status_code == 503
        finally:
            other.execute("ROLLBACK")
            other.close()
        played = client.post(f"{url}/moves", headers=headers, json={"move": move})
        assert played.status_code == 200, played.text
        assert client.post("/api/matches", json={"game": "skyline", "players": 2}).status_code == 201


def test_with_the_limits_on_a_locked_database_is_a_503_before_anything_else(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with TestClient(app_over(db, rate=100, burst=100), raise_server_exceptions=False) as client:
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            refused = client.get("/api/games")  # the request's token is counted in the database
            assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
            assert refused.headers["Retry-After"] == "1"
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert client.get("/api/games").status_code == 200


def stored_matches(db: Path, count: int) -> list[dict[str, Any]]:
    """``count`` matches stored in ``db``, each a few moves in, then the server stopped."""
    made = []
    with TestClient(app_over(db)) as client:
        for i in range(count):
            game = ("manhattan", "skyline", "urbanization")[i % 3]
            match = new_match(client, game, seed=i)
            play_some(client, match, 6)
            made.append(match)
    with sqlite3.connect(db) as done:
        done.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return made


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bytes_in_the_database_answer_503_never_500(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "db.sqlite"
    made = stored_matches(db, 6)
    size = db.stat().st_size
    rng = random.Random(seed)
    with db.open("r+b") as file:  # the last pages: where the newest rows are
        for _ in range(8):
            file.seek(rng.randrange(size // 2, size - 512))
            file.write(rng.randbytes(512))
    statuses = []
    with TestClient(app_over(db), raise_server_exceptions=False) as client:
        for match in made:
            url = f"/api/matches/{match['id']}"
            for answer in (client.get(f"{url}/view"), client.get(f"{url}/view", headers=auth(match["token"]))):
                statuses.append(answer.status_code)
                assert answer.status_code in (200, 401, 404, 503), answer.text
                if answer.status_code == 503:
                    assert answer.json()["error"]["code"] in ("damaged", "damaged-record")
        statuses.append(client.post("/api/matches", json={"game": "skyline", "players": 2}).status_code)
    assert 500 not in statuses and 503 in statuses, statuses


def test_a_stored_move_that_no_longer_replays_is_logged_and_never_quoted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "db.sqlite"
    with TestClient(app_over(db)) as client:
        made = new_match(client, "manhattan", players=3, options=SHORT["manhattan"], seed=5)
        play_some(client, made, 4)
    with sqlite3.connect(db) as tamper:
        idx, move = tamper.execute(
            "SELECT idx, move FROM moves WHERE match = ? AND player IS NOT NULL ORDER BY idx DESC", (made["id"],)
        ).fetchone()
        tamper.execute("UPDATE moves SET move = ? WHERE match = ? AND idx = ?", ("build 9 zz99", made["id"], idx))
    with caplog.at_level(logging.ERROR, logger="citybuild.server"), TestClient(app_over(db)) as client:
        for headers in ({}, auth(made["token"])):
            answer = client.get(f"/api/matches/{made['id']}/view", headers=headers)
            assert answer.status_code == 503
            assert answer.json()["error"] == {"status": 503, "code": "damaged-record", "message": DAMAGED_RECORD}
            assert "zz99" not in answer.text and move not in answer.text
    assert made["id"] in caplog.text and "zz99" in caplog.text  # the operators are told which and why


def test_a_match_not_in_memory_is_read_while_the_database_is_locked(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    made = stored_matches(db, 2)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a writer elsewhere: reads go on (the journal is write-ahead)
    try:
        with TestClient(app_over(db), raise_server_exceptions=False) as client:
            for match in made:
                answer = client.get(f"/api/matches/{match['id']}/view", headers=auth(match["token"]))
                assert answer.status_code == 200, answer.text
    finally:
        other.execute("ROLLBACK")
        other.close()
