"""The levels at the server: a match seats ``easy``, ``normal`` and ``hard`` by name, refuses a
misnamed level with a 422, keeps ``hard`` within the bots' thinking bound, and the browser
client offers a newcomer exactly the levels (and people), in plain words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match  # noqa: E402

from citybuild.bots import LEVELS, IsmctsBot, from_text  # noqa: E402
from citybuild.server import hall, room  # noqa: E402

CLIENT = Path(hall.__file__).parent / "client" / "index.html"


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_match_seats_a_level_and_the_level_answers(client: TestClient, level: str) -> None:
    made = new_match(client, "manhattan", bots={"1": level}, seed=4)
    assert made["seats"] == ["human", level]
    token = made["tokens"]["0"]
    view = client.get(f"/api/matches/{made['id']}/view", headers=auth(token)).json()
    answer = client.post(f"/api/matches/{made['id']}/moves", headers=auth(token), json={"move": view["legal_moves"][0]})
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["seats"] == ["human", level] and after["your_turn"]  # the level has played its turn
    assert after["moves"] >= view["moves"] + 2


@pytest.mark.parametrize("text", ["expert", "Hard", "hard:5000", "easy:epsilon=0", "medium"])
def test_a_misnamed_level_is_refused(client: TestClient, text: str) -> None:
    body: dict[str, Any] = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "bots": {"1": text}}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad-bot" and "easy, normal, hard" in error["message"]
    assert client.get("/api/matches").status_code == 200


def test_hard_thinks_within_the_servers_bound() -> None:
    search = from_text(LEVELS["hard"])
    assert isinstance(search, IsmctsBot) and search.time is None
    assert search.iterations is not None and search.iterations <= room.ISMCTS_LIMIT
    assert room.check_bot("hard", "1").label == "hard"  # type: ignore[attr-defined]


def test_the_client_offers_the_levels_in_plain_words() -> None:
    html = CLIENT.read_text(encoding="utf-8")
    choice = re.search(r'<select id="bots">(.*?)</select>', html, re.S)
    assert choice is not None
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', choice.group(1))
    assert [value for value, _ in options] == ["easy", "normal", "hard", ""]
    for value, words in options[:3]:
        assert words.startswith(f"computer players: {value} (") and not re.search(r"[0-9]{3}|ismcts|greedy", words)
        room.check_bot(value, "1")
