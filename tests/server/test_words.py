"""What the browser client shows a newcomer, as the server answers it: each legal move's part of
the picture and its words (``choices``), the log of moves in words (never a secret one's), and
each game's short how-to-play text."""

from __future__ import annotations

from typing import Any

from extras_support import importorskip_extra

importorskip_extra("server")

from server_support import auth, new_match  # noqa: E402


def test_answers_carry_choices_and_the_log_tells_moves_in_words(client: Any) -> None:
    made = new_match(client, "skyline", bots={"1": "greedy"}, seed=2)
    url = f"/api/matches/{made['id']}"
    view = client.get(f"{url}/view?picture=true", headers=auth(made["tokens"]["0"])).json()
    assert [c["move"] for c in view["choices"]] == view["legal_moves"]
    assert {c["part"] for c in view["choices"]} == {"yard", "district"}
    assert all(f'data-part="{c["part"]}"' in view["picture"] for c in view["choices"])
    while not view["over"]:
        view = client.post(
            f"{url}/moves", headers=auth(made["tokens"]["0"]), json={"move": view["legal_moves"][-1]}
        ).json()
    told = [line for line in view["log"] if line.startswith("P1")]
    assert told and all(line.startswith("P1: ") and line.endswith(")") for line in told)
    assert any(line.startswith("P1: Take dice from the yard: ") for line in told)
    assert view["choices"] == []


def test_a_secret_choice_is_not_told_in_words_to_the_others(client: Any) -> None:
    made = new_match(client, "urbanization", seed=3)
    url = f"/api/matches/{made['id']}"
    seats = {s: auth(made["tokens"][str(s)]) for s in (0, 1)}
    while True:  # on to the secret choice of a card
        view = client.get(f"{url}/view", headers=seats[1]).json()
        if view["to_act"] == [0, 1] and view["legal_moves"][0].startswith("select"):
            break
        seat = view["to_act"][0]
        legal = client.get(f"{url}/view", headers=seats[seat]).json()["legal_moves"]
        client.post(f"{url}/moves", headers=seats[seat], json={"move": legal[0]}).raise_for_status()
    move = view["legal_moves"][-1]
    mine = client.post(f"{url}/moves", headers=seats[1], json={"move": move}).json()
    assert mine["log"][-1].startswith("P1: ") and mine["log"][-1].endswith(f"({move})")
    theirs = client.get(f"{url}/view", headers=seats[0]).json()
    assert " ".join(theirs["log"][-1].split()) == "P1 select (hidden)"
    watching = client.get(f"{url}/view").json()
    assert " ".join(watching["log"][-1].split()) == "P1 select (hidden)" and watching["choices"] == []


def test_each_game_has_a_short_how_to_play(client: Any) -> None:
    games = {g["game"]: g for g in client.get("/api/games").json()}
    for name in ("skyline", "manhattan", "urbanization"):
        text = games[name]["how_to_play"]
        assert set(text) == {"goal", "turn", "click"} and all(text[k] for k in text)
        assert games[name]["first_game"]
