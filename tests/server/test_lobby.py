"""The lobby: the creator holds one seat, invites are one-time, open matches are listed and joined
without an invite, spectators see the public picture, and a finished match offers a rematch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.tokens import digest  # noqa: E402


def create(client: TestClient, game: str = "skyline", players: int = 2, **extra: Any) -> Any:
    body = {"game": game, "players": players, "options": SHORT[game], **extra}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def join(client: TestClient, match_id: str, **body: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/join", json=body)


def test_the_creator_holds_only_the_lowest_human_seat_and_invites_the_others(client: TestClient) -> None:
    made = create(client, "manhattan", players=3, bots={"0": "greedy"}, seed=2)
    assert made["seat"] == 1 and set(made["invites"]) == {"2"} and "tokens" not in made
    assert made["free"] == [2] and made["open"] is False
    view = client.get(f"/api/matches/{made['id']}/view", headers=auth(made["token"])).json()
    assert view["seat"] == 1
    assert [h is not None for h in view["view"]["view"]["hands"]] == [False, True, False]
    joined = join(client, made["id"], invite=made["invites"]["2"])
    assert joined.status_code == 200, joined.text
    answer = joined.json()
    assert answer["seat"] == 2 and answer["token"] != made["token"] and answer["free"] == []
    assert client.get(f"/api/matches/{made['id']}/view", headers=auth(answer["token"])).json()["seat"] == 2


def test_the_creator_may_name_a_human_seat_but_no_other(client: TestClient) -> None:
    made = create(client, players=3, bots={"1": "random"}, seat=2)
    assert made["seat"] == 2 and set(made["invites"]) == {"0"}
    for seat, words in ((1, "computer player"), (3, "no seat"), (99, "no seat")):
        refused = client.post(
            "/api/matches", json={"game": "skyline", "players": 3, "bots": {"1": "random"}, "seat": seat}
        )
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "bad-seat" and words in error["message"] and "0, 2" in error["message"]
    assert client.post("/api/matches", json={"game": "skyline", "seat": -1}).status_code == 422


def test_an_invite_works_once_and_a_used_one_is_refused_like_an_unknown_one(client: TestClient) -> None:
    made = create(client, players=3)
    code = made["invites"]["1"]
    assert join(client, made["id"], invite=code).status_code == 200
    refusals = [
        join(client, made["id"], invite=code),  # used
        join(client, made["id"], invite="x" * 24),  # unknown
        join(client, made["id"], invite=made["invites"]["2"], seat=1),  # not the seat's
        join(client, made["id"], invite=made["token"]),  # a token is no invite
        join(client, create(client)["id"], invite=made["invites"]["2"]),  # another match's
    ]
    for refused in refusals:
        assert refused.status_code == 403 and refused.json() == refusals[0].json()
    assert join(client, made["id"], invite=made["invites"]["2"], seat=2).json()["seat"] == 2
    assert join(client, made["id"], invite=made["invites"]["2"]).status_code == 403
    # without an invite, a match that is not open is joined by nobody
    refused = join(client, made["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "invite-only"
    assert join(client, "nope", invite=code).status_code == 404


def test_invites_are_stored_hashed_and_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite"
    with TestClient(create_app(db)) as first:
        made = create(first, players=3, open=True)
    raw = b"".join(path.read_bytes() for path in tmp_path.iterdir())  # the database and any journal
    for code in made["invites"].values():
        assert code.encode() not in raw and digest(code).encode() in raw
    assert made["token"].encode() not in raw
    with TestClient(create_app(db)) as second:
        assert [m["id"] for m in second.get("/api/matches?open=1").json()] == [made["id"]]
        joined = join(second, made["id"], invite=made["invites"]["2"]).json()
        assert joined["seat"] == 2 and joined["free"] == [1]
        view = second.get(f"/api/matches/{made['id']}/view", headers=auth(made["token"])).json()
        assert view["seat"] == 0
    with TestClient(create_app(db)) as third:
        assert join(third, made["id"], invite=made["invites"]["2"]).status_code == 403
        assert third.get(f"/api/matches/{made['id']}/view", headers=auth(joined["token"])).json()["seat"] == 2


def test_open_matches_are_listed_without_secrets_and_joined_by_seat(client: TestClient) -> None:
    closed = create(client)
    made = create(client, "manhattan", players=3, open=True)
    listed = client.get("/api/matches?open=1")
    assert listed.status_code == 200
    [entry] = listed.json()
    assert entry["id"] == made["id"] and entry["game"] == "manhattan" and entry["players"] == 3
    assert entry["free"] == [1, 2] and entry["seats"] == ["human"] * 3 and entry["created"] > 0
    text = listed.text
    assert made["token"] not in text and not any(code in text for code in made["invites"].values())
    assert closed["id"] not in text
    taken = join(client, made["id"], seat=2)
    assert taken.status_code == 200 and taken.json()["seat"] == 2
    again = join(client, made["id"], seat=2)
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat-taken"
    # the taken seat's invite works no more; the lowest free seat is taken when none is named
    assert join(client, made["id"], invite=made["invites"]["2"]).status_code == 403
    last = join(client, made["id"])
    assert last.json()["seat"] == 1
    full = join(client, made["id"])
    assert full.status_code == 409 and full.json()["error"]["code"] == "match-full"
    assert client.get("/api/matches?open=1").json() == []  # full: no longer listed
    assert client.get("/api/matches?open=0").status_code == 422
    assert join(client, made["id"], seat=7).status_code == 409


def test_a_token_never_acts_for_another_seat_of_a_joined_match(client: TestClient) -> None:
    made = new_match(client, "manhattan", players=3, seed=6)
    tokens = made["tokens"]
    url = f"/api/matches/{made['id']}"
    to_act = client.get(f"{url}/view").json()["to_act"][0]
    legal = client.get(f"{url}/view", headers=auth(tokens[str(to_act)])).json()["legal_moves"]
    for seat, token in tokens.items():
        assert client.get(f"{url}/view", headers=auth(token)).json()["seat"] == int(seat)
        if int(seat) != to_act:
            assert client.post(f"{url}/moves", headers=auth(token), json={"move": legal[0]}).status_code == 409
            claimed = client.post(f"{url}/moves", headers=auth(token), json={"move": legal[0], "seat": to_act})
            assert claimed.status_code == 403
    # an invite is not a token, and a join answer's token is for its seat only
    for code in made["invites"].values():
        assert client.get(f"{url}/view", headers=auth(code)).status_code == 401


def test_a_spectator_sees_the_public_picture_with_hands_face_down(client: TestClient) -> None:
    made = new_match(client, "manhattan", players=2, seed=3)
    url = f"/api/matches/{made['id']}"
    public = client.get(f"{url}/view?picture=true").json()
    assert public["seat"] is None and public["view"]["view"]["hands"] is None
    assert public["picture"].startswith("<svg") and "viewer" not in public["picture"]
    seat = client.get(f"{url}/view?picture=true", headers=auth(made["tokens"]["0"])).json()
    assert seat["picture"] != public["picture"]
    # a game whose secrets cannot be drawn face down (Urbanization's drafted hands) shows none
    other = new_match(client, "urbanization", players=2, seed=3)
    assert client.get(f"/api/matches/{other['id']}/view?picture=true").json()["picture"] is None


def play_to_the_end(client: TestClient, made: dict[str, Any]) -> None:
    url = f"/api/matches/{made['id']}"
    while not (view := client.get(f"{url}/view").json())["over"]:
        seat = str(view["to_act"][0])
        legal = client.get(f"{url}/view", headers=auth(made["tokens"][seat])).json()["legal_moves"]
        assert (
            client.post(f"{url}/moves", headers=auth(made["tokens"][seat]), json={"move": legal[0]}).status_code == 200
        )


def test_a_finished_match_offers_a_rematch_with_the_same_seats_and_tokens(client: TestClient) -> None:
    made = new_match(client, "skyline", players=3, bots={"2": "greedy"}, seed=1)
    url = f"/api/matches/{made['id']}"
    early = client.post(f"{url}/rematch", headers=auth(made["tokens"]["1"]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "not-over"
    play_to_the_end(client, made)
    assert client.post(f"{url}/rematch").status_code == 401
    assert client.post(f"{url}/rematch", headers=auth("x" * 32)).status_code == 401
    asked = client.post(f"{url}/rematch", headers=auth(made["tokens"]["1"]))
    assert asked.status_code == 200, asked.text
    again = client.post(f"{url}/rematch", headers=auth(made["tokens"]["0"])).json()
    assert again["id"] == asked.json()["id"] and again["seat"] == 0 and asked.json()["invites"] == {}
    new = f"/api/matches/{again['id']}"
    assert client.get(f"{url}/view").json()["rematch"] == again["id"]
    view = client.get(f"{new}/view", headers=auth(made["tokens"]["0"])).json()
    assert view["seat"] == 0 and view["seats"] == ["human", "human", "greedy"] and not view["over"]
    assert view["options"] == client.get(f"{url}/view").json()["options"] and view["rematch"] is None
    assert client.get(f"{new}/view", headers=auth(made["tokens"]["1"])).json()["seat"] == 1


def test_a_rematch_is_only_for_a_seat_of_a_finished_match(client: TestClient) -> None:
    solo = create(client, "skyline", players=2, bots={"1": "greedy"}, seed=2)
    url = f"/api/matches/{solo['id']}/rematch"
    assert client.post(url, headers=auth(solo["token"])).status_code == 409
    other = create(client, "skyline", players=2, bots={"1": "greedy"}, seed=2)
    assert client.post(url, headers=auth(other["token"])).status_code == 401
    assert client.post("/api/matches/nope/rematch", headers=auth(solo["token"])).status_code == 404


@pytest.mark.parametrize("body", [{"invite": 5}, {"seat": "1"}, {"seat": -1}, {"invite": "x" * 300}, {"x": 1}, []])
def test_bad_join_bodies_are_refused(client: TestClient, body: Any) -> None:
    made = create(client, open=True)
    response = client.post(f"/api/matches/{made['id']}/join", json=body)
    assert 400 <= response.status_code < 500 and response.json()["error"]["message"]
