"""The API's happy path for every game against bots, its refusals, and its schema."""

from __future__ import annotations

import json
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import auth, new_match, settled  # noqa: E402

import citybuild as cb  # noqa: E402


def play_out(client: TestClient, match_id: str, token: str) -> tuple[dict[str, Any], int]:
    """Play the seat's first legal move until the game ends; the last answer and the moves played."""
    played = 0
    view = client.get(f"/api/matches/{match_id}/view", headers=auth(token)).json()
    while not view["over"]:
        assert view["your_turn"] and view["legal_moves"], view  # bots have played: it is our turn
        response = client.post(
            f"/api/matches/{match_id}/moves", headers=auth(token), json={"move": view["legal_moves"][0]}
        )
        assert response.status_code == 200, response.text
        view = response.json()
        played += 1
    return view, played


@pytest.mark.parametrize("game", ["manhattan", "skyline", "urbanization"])
def test_a_whole_game_against_a_bot(client: TestClient, game: str) -> None:
    made = new_match(client, game, bots={"1": "greedy"}, seed=5)
    assert set(made["tokens"]) == {"0"} and made["seats"] == ["human", "greedy"]
    view, played = play_out(client, made["id"], made["tokens"]["0"])
    assert played > 3
    assert view["over"] and view["scores"]["complete"] and view["scores"]["winners"]
    record_response = client.get(f"/api/matches/{made['id']}/record")
    assert record_response.status_code == 200
    record = cb.from_json(json.dumps(record_response.json()))
    match = cb.replay(record)  # the record replays to the same end
    assert match.is_over and list(match.state.scores().totals) == view["scores"]["totals"]
    assert sum(1 for entry in record.moves if entry.player == 0) == played


def test_a_view_holds_what_the_issue_lists(client: TestClient) -> None:
    made = new_match(client, "manhattan", bots={"1": "random"}, seed=1)
    view = client.get(f"/api/matches/{made['id']}/view?picture=true", headers=auth(made["tokens"]["0"])).json()
    assert view["seat"] == 0 and view["to_act"] == [0] and view["your_turn"]
    assert view["view"]["type"] == "view" and view["view"]["view"]["player"] == 0
    assert view["legal_moves"] and all(isinstance(m, str) for m in view["legal_moves"])
    assert view["scores"]["text"].startswith("P0:")
    assert view["picture"].startswith("<svg")
    assert client.get(f"/api/matches/{made['id']}/view", headers=auth(made["tokens"]["0"])).json()["picture"] is None


def test_a_refused_move_says_why_and_changes_nothing(client: TestClient) -> None:
    made = new_match(client, "manhattan", bots={"1": "greedy"}, seed=2)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    before = client.get(f"{url}/view", headers=headers).json()
    refused = client.post(f"{url}/moves", headers=headers, json={"move": "pass"})
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "illegal-move" and error["violations"][0]["rule"].startswith("MAN-")
    assert error["violations"][0]["code"] and error["violations"][0]["message"]
    unreadable = client.post(f"{url}/moves", headers=headers, json={"move": "fly to the moon"})
    assert unreadable.status_code == 422 and unreadable.json()["error"]["code"] == "notation"
    assert client.get(f"{url}/view", headers=headers).json() == before


def test_the_builder_makes_a_legal_move_by_clicks(client: TestClient) -> None:
    made = new_match(client, "urbanization", bots={"1": "greedy"}, seed=3)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    chosen: list[int] = []
    for _ in range(20):
        answer = client.get(f"{url}/builder", params={"chosen": ",".join(map(str, chosen))}, headers=headers).json()
        if answer["done"]:
            break
        assert answer["options"] and all(o["name"] for o in answer["options"])
        chosen.append(answer["options"][-1]["action"])
    assert answer["done"] and answer["move"] in client.get(f"{url}/view", headers=headers).json()["legal_moves"]
    assert client.post(f"{url}/moves", headers=headers, json={"move": answer["move"]}).status_code == 200
    bad = client.get(f"{url}/builder", params={"chosen": "99999"}, headers=headers)
    assert bad.status_code in (409, 422) and bad.json()["error"]["message"]


def test_a_record_waits_for_the_end(client: TestClient) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"})
    response = client.get(f"/api/matches/{made['id']}/record")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not-over"


def test_a_match_needs_a_human_seat(client: TestClient) -> None:
    """Bots alone would play a whole game inside the create request (minutes of processor time
    and megabytes of history for long rules): that is the arena's job."""
    body = {"game": "skyline", "players": 2, "options": {"rounds": 99}, "bots": {"0": "greedy", "1": "random"}}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "no-human-seat"
    assert "citybuild arena" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess"}, 422, "unknown-game"),
        ({"game": "manhattan", "players": 9}, 422, "bad-rules"),
        ({"game": "manhattan", "preset": "nope"}, 422, "bad-rules"),
        ({"game": "manhattan", "options": {"rounds": "x"}}, 422, "bad-rules"),
        ({"game": "manhattan", "options": {"colour": 1}}, 422, "bad-rules"),
        ({"game": "manhattan", "bots": {"5": "greedy"}}, 422, "bad-seat"),
        ({"game": "manhattan", "bots": {"1": "ismcts:99999"}}, 422, "bad-bot"),
        ({"game": "manhattan", "bots": {"1": "ismcts:0"}}, 422, "bad-bot"),
        ({"game": "manhattan", "bots": {"1": "__import__('os')"}}, 422, "bad-bot"),
        ({"game": "manhattan", "players": "2"}, 422, "bad-request"),
        ({"game": "manhattan", "surprise": 1}, 422, "bad-request"),
        ({}, 422, "bad-request"),
    ],
)
def test_bad_matches_are_refused_with_a_clear_message(client: TestClient, body: Any, status: int, code: str) -> None:
    response = client.post("/api/matches", json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and "Traceback" not in error["message"]


def test_malformed_and_enormous_bodies_get_4xx(client: TestClient) -> None:
    made = new_match(client, "manhattan", bots={"1": "greedy"})
    url, headers = f"/api/matches/{made['id']}/moves", auth(made["tokens"]["0"])
    json_headers = {**headers, "Content-Type": "application/json"}
    assert client.post(url, headers=json_headers, content=b'{"move": ').status_code == 400
    assert client.post(url, headers=json_headers, content=b"[1, 2]").status_code in (400, 422)
    assert client.post(url, headers=headers, content=b"move=pass").status_code == 400
    huge = json.dumps({"move": "x" * 100_000}).encode()
    assert client.post(url, headers=json_headers, content=huge).status_code == 413

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b"x" * 1024

    assert client.post(url, headers=json_headers, content=chunks()).status_code == 413
    assert (
        client.post("/api/matches", headers={"Content-Type": "application/json"}, content=b"\xff\xfe").status_code
        == 400
    )
    deep = b"[" * 100_000 + b"]" * 100_000
    assert client.post("/api/matches", headers={"Content-Type": "application/json"}, content=deep).status_code == 413
    assert client.post(url, headers=headers, json={"move": "x" * 5000}).status_code == 422


def test_unknown_matches_and_paths_are_404(client: TestClient) -> None:
    for path in ("/api/matches/nope/view", "/api/matches/nope/record", "/api/matches/nope/events", "/api/nothing"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"]["message"], path
    assert client.get("/api/matches/" + "x" * 5000 + "/view").status_code == 404


def test_seeds_are_the_servers_unless_allowed(tmp_path: Any) -> None:
    from citybuild.server import create_app

    with TestClient(create_app(tmp_path / "db.sqlite")) as strict:
        response = strict.post("/api/matches", json={"game": "skyline", "seed": 1})
        assert response.status_code == 422 and response.json()["error"]["code"] == "seed-not-allowed"


def test_the_openapi_schema_lists_the_endpoints(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/matches", "/api/matches/{match_id}/view", "/api/matches/{match_id}/moves"):
        assert path in paths
    assert "/api/matches/{match_id}/events" in paths and "/api/matches/{match_id}/record" in paths
    assert "NewMatch" in schema["components"]["schemas"]


def test_events_announce_moves(client: TestClient) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"})
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    view = client.get(f"{url}/view", headers=headers).json()
    while not view["over"]:
        view = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]}).json()
    made["moves"] = view["moves"]
    with client.stream("GET", f"/api/matches/{made['id']}/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    assert text.startswith("event: moves\ndata: ")
    news = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    assert news["over"] and news["moves"] == made["moves"]


def test_the_browser_client_is_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/client.js">' in page.text
    script = client.get("/client.js")
    assert script.status_code == 200 and "EventSource" in script.text
    for text in (page.text, script.text):  # nothing is fetched from anywhere but the server itself
        assert "http://" not in text and "https://" not in text


def test_a_move_chosen_at_an_old_step_is_refused_as_stale(client: TestClient) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"}, seed=6)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    view = client.get(f"{url}/view", headers=headers).json()
    body = {"move": view["legal_moves"][0], "moves": view["moves"]}
    assert client.post(f"{url}/moves", headers=headers, json=body).status_code == 200
    again = client.post(f"{url}/moves", headers=headers, json=body)  # a retry: never played twice
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale"
    assert again.json()["error"]["moves"] == client.get(f"{url}/view").json()["moves"]


def test_a_move_that_cannot_be_stored_is_not_played(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    made = new_match(client, "manhattan", bots={"1": "greedy"}, seed=9)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    before = client.get(f"{url}/view", headers=headers).json()
    store = client.app.state.hall.store  # type: ignore[attr-defined]

    def full_disk(*_: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "append", full_disk)
    response = client.post(f"{url}/moves", headers=headers, json={"move": before["legal_moves"][0]})
    assert response.status_code == 503 and response.json()["error"]["code"] == "not-stored"
    assert client.get(f"{url}/view", headers=headers).json() == before  # taken back in memory at once
    monkeypatch.undo()
    assert client.get(f"{url}/view", headers=headers).json() == before
    assert client.post(f"{url}/moves", headers=headers, json={"move": before["legal_moves"][0]}).status_code == 200


def test_a_stored_move_stays_played_when_the_bots_answer_cannot_be_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The human's move is committed first; if the bots' replies then fail to store, the move is
    answered as played (it is, once the configured wait for the replies is over), and the bot pool
    plays them once the database takes them."""
    import sqlite3

    made = new_match(client, "skyline", bots={"1": "greedy"}, seed=4)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    hall = client.app.state.hall  # type: ignore[attr-defined]
    hall.reply_wait = 0.2
    store = hall.store
    real_append, refused = store.append, []

    def bots_fail(match_id: str, start: int, entries: Any) -> None:
        if any(e.player == 1 for e in entries):
            refused.append(start)
            raise sqlite3.OperationalError("database is locked")
        real_append(match_id, start, entries)

    monkeypatch.setattr(store, "append", bots_fail)
    view = client.get(f"{url}/view", headers=headers).json()
    while not refused:  # seat 0 plays until a move of theirs hands the turn to the bot
        body = {"move": view["legal_moves"][0], "moves": view["moves"]}
        played = client.post(f"{url}/moves", headers=headers, json=body)
        assert played.status_code == 200, played.text
        view = played.json()
    assert view["moves"] == refused[0] and view["to_act"] == [1]  # the bot's reply taken back
    monkeypatch.undo()
    later = settled(client, url, headers)  # the pool plays it again, and it is stored
    assert later["moves"] > refused[0] and (later["your_turn"] or later["over"])
    again = client.post(f"{url}/moves", headers=headers, json=body)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale"  # never played twice


def test_a_move_in_a_phase_where_all_choose_at_once_is_not_stale_for_the_others_moves(client: TestClient) -> None:
    """Urbanization's secret choice: seat 0 chooses first; seat 1's move, chosen at the same step,
    is still played, and its retry is stale."""
    made = new_match(client, "urbanization", seed=3)
    url = f"/api/matches/{made['id']}"
    first, second = auth(made["tokens"]["0"]), auth(made["tokens"]["1"])
    view = client.get(f"{url}/view", headers=first).json()
    while view["to_act"] != [0, 1]:  # play on to the secret choice of round 1
        seat = view["to_act"][0]
        headers = auth(made["tokens"][str(seat)])
        mine = client.get(f"{url}/view", headers=headers).json()
        client.post(f"{url}/moves", headers=headers, json={"move": mine["legal_moves"][0]}).raise_for_status()
        view = client.get(f"{url}/view", headers=first).json()
    at = view["moves"]
    zero = client.get(f"{url}/view", headers=first).json()["legal_moves"][0]
    one = client.get(f"{url}/view", headers=second).json()["legal_moves"][0]
    assert client.post(f"{url}/moves", headers=first, json={"move": zero, "moves": at}).status_code == 200
    assert client.post(f"{url}/moves", headers=second, json={"move": one, "moves": at}).status_code == 200
    retry = client.post(f"{url}/moves", headers=second, json={"move": one, "moves": at})
    assert retry.status_code == 409 and retry.json()["error"]["code"] == "stale"
