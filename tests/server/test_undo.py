"""A seat takes back its last move through the API only where the fair-play rule allows
(``citybuild.sighting.undo_refusal``), the store forgets what was taken back, and a refusal says
why and changes nothing."""

from __future__ import annotations

from pathlib import Path

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import auth, new_match  # noqa: E402

from citybuild.server import create_app  # noqa: E402


def test_an_open_move_is_taken_back_and_forgotten_by_the_store(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite", allow_seed=True)) as client:
        made = new_match(client, "manhattan", bots={"1": "greedy"}, seed=3)
        url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
        start = client.get(f"{url}/view", headers=headers).json()
        assert start["can_undo"] is False and start["undo_refusal"] == "nothing to undo: you have not moved yet"
        played = client.post(f"{url}/moves", headers=headers, json={"move": start["legal_moves"][0]}).json()
        assert played["moves"] > start["moves"] and played["can_undo"] is True  # the bot's open selection
        undone = client.post(f"{url}/undo", headers=headers)
        assert undone.status_code == 200, undone.text
        assert undone.json()["moves"] == start["moves"] and undone.json()["your_turn"]
    with TestClient(create_app(tmp_path / "games.sqlite", allow_seed=True)) as again:  # read back from the store
        assert again.get(f"{url}/view", headers=headers).json()["moves"] == start["moves"]


def test_undo_past_a_secret_choice_is_refused_and_changes_nothing(client: TestClient) -> None:  # URB-RAND-5
    made = new_match(client, "urbanization", bots={"1": "greedy"}, seed=3)
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    view = client.get(f"{url}/view", headers=headers).json()
    played = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]}).json()
    assert played["can_undo"] is False and "in secret" in played["undo_refusal"]
    refused = client.post(f"{url}/undo", headers=headers)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "undo-refused"
    assert "in secret" in refused.json()["error"]["message"]
    assert client.get(f"{url}/view", headers=headers).json()["moves"] == played["moves"]


def test_undo_needs_a_seat_token(client: TestClient) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"}, seed=2)
    url = f"/api/matches/{made['id']}"
    assert client.post(f"{url}/undo").status_code == 401
    assert client.post(f"{url}/undo", headers=auth("not-a-token")).status_code == 401
    assert "can_undo" not in client.get(f"{url}/view").json()  # a watcher is offered nothing to undo
