"""Seats and secrets over the wire: a token acts and sees only for its seat, and no response of any
endpoint depends on what the asking seat may not know.

The no-leak walk mirrors the views' own property (two positions that differ only in what a player
cannot see give that player equal views) at the level of whole responses: at every step of whole
games, every seat's answers (view, legal moves, scores, picture, move builder) equal the answers
computed from positions drawn from that seat's view by ``determinize``, and the public answer
equals the one computed from positions drawn from any seat's view.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth, new_match  # noqa: E402

from citybuild.core.actions import MoveBuilder  # noqa: E402
from citybuild.core.determinize import determinize  # noqa: E402
from citybuild.core.game import State  # noqa: E402
from citybuild.server.payloads import public_payload, seat_payload  # noqa: E402
from citybuild.server.tokens import digest, seat_of  # noqa: E402

SUMMARY = (
    *("match", "game", "preset", "players", "options", "seats", "moves", "open", "free", "rematch"),
    *("can_undo", "undo_refusal", "log"),
)
"""The answer's fields about the match rather than the position: its summary, whether the seat may
undo (which depends on the steps since its last move; see test_undo) and the log of the steps as
the seat saw them (``citybuild.sighting``'s properties, tested in test_sighting)."""


def test_each_token_sees_and_acts_only_for_its_seat(client: TestClient) -> None:
    made = new_match(client, "manhattan", players=3, bots={}, seed=4)
    other = new_match(client, "manhattan", players=2, bots={}, seed=4)
    url = f"/api/matches/{made['id']}"
    tokens = made["tokens"]
    for seat, token in tokens.items():
        view = client.get(f"{url}/view", headers=auth(token)).json()
        assert view["seat"] == int(seat) and view["view"]["view"]["player"] == int(seat)
        hands = view["view"]["view"]["hands"]
        assert [h is not None for h in hands] == [p == int(seat) for p in range(3)]
    to_act = client.get(f"{url}/view").json()["to_act"][0]
    idle = str((to_act + 1) % 3)
    legal = client.get(f"{url}/view", headers=auth(tokens[str(to_act)])).json()["legal_moves"]
    # another seat's token cannot play for the seat to act: refused, with nothing hidden in the answer
    refused = client.post(f"{url}/moves", headers=auth(tokens[idle]), json={"move": legal[0]})
    assert refused.status_code == 409 and "view" not in refused.json()
    claimed = client.post(f"{url}/moves", headers=auth(tokens[idle]), json={"move": legal[0], "seat": to_act})
    assert claimed.status_code == 403 and "view" not in claimed.json()
    builder = client.get(f"{url}/builder", headers=auth(tokens[idle]))
    assert builder.status_code == 409
    guessed = "A" * 32
    foreign = other["tokens"]["0"]
    for bad in (guessed, foreign, tokens[idle] + "x", tokens[idle][:-1]):
        for response in (
            client.get(f"{url}/view", headers=auth(bad)),
            client.post(f"{url}/moves", headers=auth(bad), json={"move": legal[0]}),
            client.get(f"{url}/builder", headers=auth(bad)),
        ):
            assert response.status_code == 401, response.text
            assert set(response.json()) == {"error"}
    assert client.post(f"{url}/moves", json={"move": legal[0]}).status_code == 401
    assert client.post(f"{url}/moves", headers=auth(tokens[str(to_act)]), json={"move": legal[0]}).status_code == 200


def test_tokens_are_stored_only_as_hashes(client: TestClient, tmp_path: Any) -> None:
    made = new_match(client, "skyline", players=2, bots={}, seed=1)
    raw = (tmp_path / "games.sqlite").read_bytes() + (tmp_path / "games.sqlite-wal").read_bytes()
    for token in made["tokens"].values():
        assert token.encode() not in raw
        assert digest(token).encode() in raw
    assert seat_of(made["tokens"]["1"], [digest(made["tokens"]["0"]), digest(made["tokens"]["1"])]) == 1
    assert seat_of("", [digest("")]) is None and seat_of("x" * 1000, [digest("x" * 1000)]) is None


def as_json(value: Any) -> Any:
    """``value`` as it travels (integer keys become text)."""
    return json.loads(json.dumps(value))


def _public_end(state: State) -> dict[str, Any]:
    """What the public answer shows from the real position once the game is over (nothing before)."""
    if not state.is_over:
        return {}
    shown = public_payload(state, with_picture=True)
    return {"scores": shown["scores"], "picture": shown["picture"]}


def _seat_body(response: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in response.items() if k not in SUMMARY}


@pytest.mark.parametrize(
    ("game", "players", "seed", "options"),
    [
        ("manhattan", 3, 1, {}),
        ("manhattan", 2, 4, {"selection": "simultaneous_hidden"}),
        ("urbanization", 2, 2, {}),
        ("skyline", 2, 3, {}),
    ],
)
def test_no_response_depends_on_what_its_seat_cannot_see(
    client: TestClient, game: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    made = new_match(client, game, players=players, bots={}, seed=seed, options={**SHORT[game], **options})
    url, tokens = f"/api/matches/{made['id']}", made["tokens"]
    room = client.app.state.hall.room(made["id"])  # type: ignore[attr-defined]
    rng = random.Random(seed)
    differing = 0  # drawn positions that differ from the real one in what the seat cannot see
    steps = 0
    while True:
        state: State = room.match.state
        public = client.get(f"{url}/view?picture=true").json()
        for p in range(players):
            view = state.view(p)
            drawn = [determinize(state.game, view, random.Random(k)) for k in range(2)]
            differing += sum(any(d.view(q) != state.view(q) for q in range(players)) for d in drawn)
            answer = client.get(f"{url}/view?picture=true", headers=auth(tokens[str(p)])).json()
            for position in drawn:
                # at the end the whole sheet (and the record, so the whole position) is public:
                # compared with the real one, as a drawn position keeps only the points carried
                real = state if state.is_over else position
                expected = {**seat_payload(position, p, with_picture=True), "scores": seat_payload(real, p)["scores"]}
                assert _seat_body(answer) == as_json(expected)
                expected = {**public_payload(position, with_picture=True), **_public_end(state)}
                assert _seat_body(public) == as_json(expected)
            hidden = answer["view"]["view"]
            if "hands" in hidden:  # other seats' hands never travel; the draw pile only as a size
                assert [h is not None for h in hidden["hands"]] == [q == p for q in range(players)]
            assert "draw" not in hidden
            if p in state.to_act:
                options = client.get(f"{url}/builder", headers=auth(tokens[str(p)])).json()
                expected = MoveBuilder.start(drawn[0].view(p))
                assert [o["action"] for o in options["options"]] == list(expected.actions)
            else:  # a refused move's answer holds nothing but the refusal
                refused = client.post(f"{url}/moves", headers=auth(tokens[str(p)]), json={"move": "pass"})
                assert refused.status_code in (409, 422) and set(refused.json()) == {"error"}
        if state.is_over:
            break
        player = state.to_act[0]
        legal = client.get(f"{url}/view", headers=auth(tokens[str(player)])).json()["legal_moves"]
        response = client.post(f"{url}/moves", headers=auth(tokens[str(player)]), json={"move": rng.choice(legal)})
        assert response.status_code == 200
        steps += 1
    assert steps > 10
    if game != "skyline":  # the drawn positions did hide something real, so the test has teeth
        assert differing > steps


@pytest.mark.parametrize("option", ["cards_data_path", "characters_data_path"])
def test_no_client_names_a_file_for_the_server_to_read(client: TestClient, tmp_path: Any, option: str) -> None:
    """Whether the file exists, is readable, is endless or is a valid data file, the answer is the
    same refusal, given before anything is read."""
    real = tmp_path / "cards.json"
    real.write_text("{}")
    answers = []
    for path in ["/etc/passwd", "/nonexistent", "/dev/zero", str(real), ""]:
        response = client.post("/api/matches", json={"game": "urbanization", "options": {option: path}})
        assert response.status_code == 422
        answers.append(response.json())
    assert all(answer == answers[0] for answer in answers)
    assert answers[0]["error"]["code"] == "bad-rules" and option in answers[0]["error"]["message"]
