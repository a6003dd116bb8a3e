"""The PostgreSQL store: what SQLite's does (a match stored and loaded back, a seat or an entry
never stored twice), and what several workers need (a revision raised by every change, a match's
lock across connections, bot jobs that one taker holds and a dead taker frees)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match, settled  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.match import replay  # noqa: E402
from citybuild.record import RecordEntry  # noqa: E402
from citybuild.serialize import from_data  # noqa: E402
from citybuild.server import create_app  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402
from citybuild.server.storage import StoreConflict, StoreError  # noqa: E402
from citybuild.server.store import NewRoom, Store  # noqa: E402


def pg_store(url: str, **options: Any) -> Any:
    from citybuild.server.pgstore import PgStore

    return PgStore(url, **options)


def opening(seed: int = 5) -> Any:
    return cb.Match(cb.load("skyline", players=2, rounds=2), seed=seed).record()


def test_a_match_stored_in_postgres_loads_back_as_in_sqlite(pg_url: str, tmp_path: Any) -> None:
    record = opening()
    new = NewRoom({1: "greedy"}, ["a" * 64, None], [None, "b" * 64], open=True)
    loaded = []
    for store in (pg_store(pg_url), Store(tmp_path / "same.sqlite")):
        store.create("m1", record, new)
        store.append("m1", len(record.moves), [RecordEntry(0, "pass")])
        store.join("m1", 1, "c" * 64, full=True)
        loaded.append(store.load("m1"))
        assert store.load("nope") is None and store.ids() == ["m1"] and store.lobby(10) == []
        store.close()
    pg, lite = loaded
    fields = ("record", "bots", "digests", "invites", "open", "rematch")
    assert [getattr(pg, f) for f in fields] == [getattr(lite, f) for f in fields]
    assert pg.digests == ("a" * 64, "c" * 64) and pg.invites == (None, None)
    assert pg.revision == 2 and lite.revision is None  # an entry stored, a seat taken


def test_a_seat_or_an_entry_is_never_stored_twice(pg_url: str) -> None:
    store = pg_store(pg_url)
    record = opening()
    store.create("m1", record, NewRoom({}, ["a" * 64, None], [None, "b" * 64]))
    start = len(record.moves)
    store.append("m1", start, [RecordEntry(0, "x")])
    with pytest.raises(StoreConflict):
        store.append("m1", start, [RecordEntry(0, "y")])
    store.join("m1", 1, "c" * 64, full=True)
    with pytest.raises(StoreConflict):
        store.join("m1", 1, "d" * 64, full=True)
    stored = store.load("m1")
    assert stored.record.moves[start:] == (RecordEntry(0, "x"),) and stored.digests[1] == "c" * 64
    assert stored.revision == 2  # the refused writes raised nothing
    store.truncate("m1", start)
    assert store.load("m1").revision == 3 and store.load("m1").record.moves == record.moves
    store.close()


def test_a_match_is_held_by_one_connection_at_a_time(pg_url: str) -> None:
    """While one holds a match, another's hold waits, and gives up after the configured lock timeout."""
    first, second = pg_store(pg_url), pg_store(pg_url, lock_timeout_ms=50)
    first.create("m1", opening(), NewRoom({}, [None, None]))
    first.create("m2", opening(), NewRoom({}, [None, None]))
    held, release, failed = threading.Event(), threading.Event(), []

    def hold_m1() -> None:
        with first.hold("m1") as got:
            assert got.revision == 0
            held.set()
            release.wait(30)

    thread = threading.Thread(target=hold_m1)
    thread.start()
    assert held.wait(30)
    try:
        with second.hold("m1"):
            pass
    except StoreError as exc:
        failed.append(str(exc))
    with second.hold("m2") as other:  # another match is free
        assert other.revision == 0
    release.set()
    thread.join(30)
    assert failed and "lock" in failed[0]
    with second.hold("m1") as got:  # free again; a write while holding raises the revision held
        second.append("m1", 100, [RecordEntry(None, "x")])
        assert got.revision == 1
    first.close()
    second.close()


def test_a_match_has_one_bot_job_one_taker_holds_and_a_dead_taker_frees(pg_url: str) -> None:
    store = pg_store(pg_url)
    store.create("m1", opening(), NewRoom({1: "greedy"}, [None, None]))
    store.add_job("m1")
    store.add_job("m1")  # one job per match
    taken: list[str | None] = []
    ready, done = threading.Event(), threading.Event()

    def taker(then: str) -> None:
        taken.append(store.take_job(0.0))
        ready.set()
        done.wait(30)
        if then == "die":
            store._local.jobs.close()  # the worker's connection goes, as when it is killed
        else:
            store.finish_job("m1")

    thread = threading.Thread(target=taker, args=("die",))
    thread.start()
    assert ready.wait(30)
    assert taken == ["m1"] and store.take_job(0.0) is None  # held: nobody else gets it
    done.set()
    thread.join(30)
    again = None
    for _ in range(400):  # the database notices the closed connection and rolls its transaction back
        if (again := store.take_job(0.0)) is not None:
            break
        time.sleep(0.025)
    assert again == "m1"  # the dead taker's job is free again
    store.finish_job("m1")
    assert store.take_job(0.0) is None  # finished: gone
    store.close()


def test_a_game_against_a_bot_is_played_to_its_end_over_postgres(pg_client: TestClient) -> None:
    made = new_match(pg_client, "manhattan", bots={"1": "greedy"}, seed=3)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    view = settled(pg_client, url, headers)
    plays = 0
    while not view["over"]:
        assert view["to_act"] == [0]
        played = pg_client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]})
        assert played.status_code == 200, played.text
        plays += 1
        view = settled(pg_client, url, headers)
    record = pg_client.get(f"{url}/record").json()
    assert sum(1 for entry in record["moves"] if entry["player"] == 0) == plays
    assert replay(from_data(record)).is_over


def test_two_apps_on_one_database_see_each_others_moves(pg_url: str) -> None:
    """A match created through one worker is played through another, and each brings its copy up
    to date from the database before answering."""
    with (
        TestClient(create_app(pg_url, allow_seed=True, quotas=Quotas.off())) as one,
        TestClient(create_app(pg_url, quotas=Quotas.off())) as two,
    ):
        body = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "seed": 9}
        made = one.post("/api/matches", json=body).json()
        url = f"/api/matches/{made['id']}"
        joined = two.post(f"{url}/join", json={"invite": made["invites"]["1"]}).json()
        tokens = {0: made["token"], 1: joined["token"]}
        for turn in range(6):
            client = (one, two)[turn % 2]
            view = client.get(f"{url}/view").json()
            seat = view["to_act"][0]
            legal = client.get(f"{url}/view", headers=auth(tokens[seat])).json()["legal_moves"]
            played = client.post(f"{url}/moves", headers=auth(tokens[seat]), json={"move": legal[0]})
            assert played.status_code == 200, played.text
            assert (one.get(f"{url}/view").json()["moves"], two.get(f"{url}/view").json()["moves"]) == (
                played.json()["moves"],
            ) * 2


def test_a_match_held_too_long_elsewhere_answers_503_busy_and_recovers(pg_url: str) -> None:
    """The configured busy timeout bounds the wait for a match's lock held by another worker."""
    app = create_app(pg_url, allow_seed=True, quotas=Quotas.off(), busy_timeout=0.05)
    with TestClient(app) as client:
        made = new_match(client, "skyline", seed=2)
        url = f"/api/matches/{made['id']}"
        seat = str(client.get(f"{url}/view").json()["to_act"][0])
        headers = auth(made["tokens"][seat])
        move = client.get(f"{url}/view", headers=headers).json()["legal_moves"][0]
        other = pg_store(pg_url)
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with other.hold(made["id"]):
                held.set()
                release.wait(30)

        thread = threading.Thread(target=hold)
        thread.start()
        assert held.wait(30)
        busy = client.post(f"{url}/moves", headers=headers, json={"move": move})
        assert client.get(f"{url}/view").status_code == 200  # a read waits for no lock
        release.set()
        thread.join(30)
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy", busy.text
        assert busy.headers["Retry-After"] == "1" and "move" not in busy.json()["error"]
        played = client.post(f"{url}/moves", headers=headers, json={"move": move})
        assert played.status_code == 200, played.text
        other.close()
