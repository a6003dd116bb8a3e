"""Matches leave memory: a finished one soon after its last request, an abandoned one (no request
for ``idle`` seconds) after that, and the lobby with it; either is rebuilt from the database, as
it was, when asked for again; a match swept while its bot thinks gets the reply once, and a
move's answer waiting for it shows it. Time is a configured clock; the one wait is for another
thread, by counting looks."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match  # noqa: E402

from citybuild.bots import Bot  # noqa: E402
from citybuild.match import Match, replay  # noqa: E402
from citybuild.server import create_app  # noqa: E402
from citybuild.server.hall import Hall  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402
from citybuild.server.store import Store  # noqa: E402
from citybuild.server.sweep import EVERY, FINISHED_KEPT, Sweeper  # noqa: E402

IDLE = 600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    app = create_app(tmp_path / "db.sqlite", allow_seed=True, quotas=Quotas.off(idle=IDLE, clock=clock))
    with TestClient(app) as test_client:
        yield test_client


def in_memory(client: TestClient) -> set[str]:
    return set(client.app.state.hall._rooms)  # type: ignore[attr-defined]


def later(client: TestClient, clock: Clock, seconds: float) -> None:
    """Move the clock on, then a request unrelated to any match (after which a sweep is due)."""
    clock.now += max(seconds, EVERY)
    assert client.get("/api/games").status_code == 200


def finish(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    url, headers = f"/api/matches/{made['id']}", auth(made["token"])
    view = client.get(f"{url}/view", headers=headers).json()
    while not view["over"]:
        view = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]}).json()
    return view


def test_a_finished_match_leaves_memory_and_comes_back_as_it_was(client: TestClient, clock: Clock) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"}, seed=3)
    url, headers = f"/api/matches/{made['id']}", auth(made["token"])
    finish(client, made)
    before = client.get(f"{url}/view?picture=true", headers=headers).json()
    record = client.get(f"{url}/record").json()
    later(client, clock, FINISHED_KEPT - EVERY)
    assert made["id"] in in_memory(client)  # its last views are still being asked for
    later(client, clock, FINISHED_KEPT)
    assert made["id"] not in in_memory(client)
    assert client.get(f"{url}/view?picture=true", headers=headers).json() == before  # rebuilt from the database
    assert client.get(f"{url}/record").json() == record
    assert made["id"] in in_memory(client)


def test_an_abandoned_match_leaves_memory_and_the_lobby_but_not_the_database(client: TestClient, clock: Clock) -> None:
    kept = new_match(client, "manhattan", seed=1)
    created = client.post("/api/matches", json={"game": "skyline", "players": 2, "open": True})
    abandoned = created.json()
    assert [m["id"] for m in client.get("/api/matches?open=1").json()] == [abandoned["id"]]
    later(client, clock, IDLE - EVERY)
    assert client.get(f"/api/matches/{kept['id']}/view").status_code == 200  # this one is still played
    later(client, clock, 2 * EVERY)
    assert abandoned["id"] not in in_memory(client) and kept["id"] in in_memory(client)
    assert client.get("/api/matches?open=1").json() == []  # no longer offered to strangers
    view = client.get(f"/api/matches/{abandoned['id']}/view", headers=auth(abandoned["token"]))
    assert view.status_code == 200 and view.json()["moves"] == abandoned["moves"]  # its players may come back
    later(client, clock, IDLE)
    assert not in_memory(client) & {kept["id"], abandoned["id"]}


def test_a_watched_match_stays_in_memory(client: TestClient, clock: Clock) -> None:
    made = new_match(client, "urbanization", seed=2)
    sweeper = client.app.state.sweeper  # type: ignore[attr-defined]
    sweeper.watched[made["id"]] += 1  # an event stream is open on it
    later(client, clock, IDLE + EVERY)
    assert made["id"] in in_memory(client)
    sweeper.watched[made["id"]] -= 1
    later(client, clock, EVERY)
    assert made["id"] not in in_memory(client)


def test_a_match_swept_while_its_bot_thinks_plays_the_reply_once(tmp_path: Path, clock: Clock) -> None:
    """The match leaves memory while its bot thinks (outside the match's lock) and a request loads
    it again from the database: the bot's reply is played once, in the copy the server now
    serves, and stored once; no job is left over."""
    store = Store(tmp_path / "db.sqlite")
    hall = Hall(store, allow_seed=True, clock=clock, reply_wait=0.0)
    sweeper = Sweeper(hall, IDLE)
    made = hall.create("skyline", 2, options=SHORT["skyline"], bots={"1": "greedy"}, seed=5)
    match_id = made["id"]
    view = hall.view(match_id, made["token"])
    while view["to_act"] == [0]:
        view = hall.play(match_id, made["token"], view["legal_moves"][0])
    assert view["to_act"] == [1]  # the bot's turn: its job waits for the bot pool
    assert store.take_job(0.0) == match_id
    thoughts = 0

    def think(bot: Bot, seen: Any, rng: random.Random) -> Any:
        nonlocal thoughts
        thoughts += 1
        if thoughts == 1:  # while the bot thinks: swept out, then asked for and loaded again
            clock.now += IDLE + 1
            assert sweeper.sweep(clock.now) == [match_id]
            assert hall.view(match_id, None)["to_act"] == [1]
        return bot.choose(seen, rng)

    hall.answer_bots(match_id, think, lambda: store.finish_job(match_id))
    served = hall.view(match_id, made["token"])
    assert served["over"] or served["to_act"] == [0]  # the reply is in the copy served
    stored = store.load(match_id)
    assert stored is not None
    assert [(e.player, str(e.move)) for e in hall._rooms[match_id].match.history] == [
        (e.player, e.move) for e in stored.record.moves
    ]  # served and stored alike: nothing lost, nothing twice
    assert sum(e.player == 1 for e in stored.record.moves) >= 1
    assert store.take_job(0.0) is None  # nothing left for the pool
    store.close()


def hands_over(match: Match, move: str) -> bool:
    """Whether seat 0's ``move`` hands the turn to seat 1 (chance resolved as the match would)."""
    trial = replay(match.record())
    trial.play(move, 0)
    return trial.state.to_act == (1,)


def test_a_moves_answer_waiting_for_the_bot_shows_the_reply_played_in_the_copy_loaded_again(
    tmp_path: Path, clock: Clock
) -> None:
    """A move's answer waits for the bot's reply; the match is swept out of memory meanwhile and
    the bot plays in the copy loaded again: the answer shows that reply (it waited on the copy the
    server serves, not on the one dropped), long before its wait of a minute runs out."""
    store = Store(tmp_path / "db.sqlite")
    hall = Hall(store, allow_seed=True, clock=clock, reply_wait=60.0)
    sweeper = Sweeper(hall, IDLE)
    made = hall.create("skyline", 2, options=SHORT["skyline"], seed=5, bots={"1": "greedy"})
    match_id, token = made["id"], made["token"]
    view = hall.view(match_id, token)
    while not hands_over(hall._rooms[match_id].match, view["legal_moves"][0]):
        view = hall.play(match_id, token, view["legal_moves"][0])
    answers: list[dict[str, Any]] = []
    player = threading.Thread(target=lambda: answers.append(hall.play(match_id, token, view["legal_moves"][0])))
    player.start()
    assert store.take_job(30.0) == match_id  # the move is played and its answer waits for the bot
    clock.now += IDLE + 1
    for _ in range(1000):  # the sweep skips the match while the move still holds its lock
        if sweeper.sweep(clock.now) == [match_id]:
            break
        threading.Event().wait(0.005)
    assert match_id not in hall._rooms
    hall.answer_bots(match_id, lambda bot, seen, rng: bot.choose(seen, rng), lambda: store.finish_job(match_id))
    player.join(30)
    assert not player.is_alive() and answers
    (answer,) = answers
    assert answer["over"] or answer["to_act"] == [0]  # the bot's reply, in the answer
    assert answer["moves"] == hall.view(match_id, token)["moves"]
    store.close()
