"""The browser client in a real headless Chromium (Debian's, driven by Playwright; ``.ci/run``
installs both): a whole short game of each game against a bot, made by clicking through the
move builder, with a refusal shown, live updates, the final score sheet, no error logged and
no request anywhere but the server."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("browser")

from server_support import SHORT, Server  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
READY = "document.body.dataset.state === 'ready'"
OUR_TURN_OR_OVER = (
    f"{READY} && ((status) => status === 'your turn' || status.startsWith('game over'))"
    "(document.querySelector('#status').innerText)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM:
        pytest.skip("needs Chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(Path(tmp_path_factory.mktemp("browser")) / "games.sqlite")
    yield server
    server.stop()


@pytest.mark.parametrize("game", ["manhattan", "skyline", "urbanization"])
def test_a_whole_game_in_the_browser(browser: Any, served: Server, game: str) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(served.url + "/")
    page.wait_for_function(READY)
    page.select_option("#game", game)
    page.fill("#players", "2")
    page.select_option("#bots", "greedy")
    page.fill("#rule-options", json.dumps(SHORT[game]))
    page.click("#create")
    page.wait_for_selector("#table:not(.hidden)")
    page.wait_for_function(READY)
    assert page.locator("#seats a").count() == 1  # one human seat: its link, with its token
    page.wait_for_selector("#picture svg")

    page.fill("#move-text", "fly to the moon")  # a refusal is shown, and nothing changes
    page.click("#send")
    page.wait_for_function(READY)
    assert page.inner_text("#message").startswith("refused: ")

    moves = clicks = 0
    while clicks < 2000:  # bounded by our own clicks; each wait is for the page, however busy the machine
        # while a bot thinks, live updates bring the position back to us
        page.wait_for_function(OUR_TURN_OR_OVER, timeout=180_000)
        if page.inner_text("#status").startswith("game over"):
            break
        if page.is_visible("#play"):
            page.click("#play")
            moves += 1
        else:
            page.click("#options button >> nth=-1")
        clicks += 1
    assert page.inner_text("#status").startswith("game over; winners: P")
    assert "totals:" in page.inner_text("#sheet")
    assert moves > 3 and page.inner_text("#message") == ""
    log = page.inner_text("#log").splitlines()
    assert any(line.startswith("P1 ") for line in log)  # the bot's moves are told in words
    refusals = [e for e in errors if "status of 422" in e]  # the browser logs the refused move's answer
    assert len(refusals) == 1 and [e for e in errors if e not in refusals] == []
    assert all(url.startswith(served.url) for url in requests), requests
    page.close()


def test_the_page_follows_another_players_moves_live(browser: Any, served: Server) -> None:
    made = served.http.post("/api/matches", json={"game": "skyline", "players": 2, "options": SHORT["skyline"]}).json()
    url = f"/api/matches/{made['id']}"
    first = served.http.get(f"{url}/view").json()["to_act"][0]
    watcher = str(1 - first)
    page = browser.new_page()
    page.goto(f"{served.url}/#match={made['id']}&token={made['tokens'][watcher]}")
    page.wait_for_function(READY)
    assert page.inner_text("#status") == f"waiting for P{first}"
    headers = {"Authorization": f"Bearer {made['tokens'][str(first)]}"}
    while served.http.get(f"{url}/view").json()["to_act"] == [first]:  # the other player moves, elsewhere
        legal = served.http.get(f"{url}/view", headers=headers).json()["legal_moves"]
        served.http.post(f"{url}/moves", headers=headers, json={"move": legal[-1]}).raise_for_status()
    page.wait_for_function("document.getElementById('status').textContent === 'your turn'", timeout=10_000)
    page.wait_for_function(READY)
    assert page.locator("#options button").count() > 0
    page.close()


def test_a_half_made_move_survives_the_others_secret_choices(browser: Any, served: Server) -> None:
    """Urbanization's secret choice, two humans: P1 starts a move by clicks, P0 chooses elsewhere,
    and P1's page keeps its half-made move and plays it (not refused as stale)."""
    body = {"game": "urbanization", "players": 2, "options": SHORT["urbanization"]}
    made = served.http.post("/api/matches", json=body).json()
    url = f"/api/matches/{made['id']}"
    seats = {s: {"Authorization": f"Bearer {made['tokens'][str(s)]}"} for s in (0, 1)}
    view = served.http.get(f"{url}/view").json()
    while view["to_act"] != [0, 1]:  # on to the secret choice
        seat = view["to_act"][0]
        legal = served.http.get(f"{url}/view", headers=seats[seat]).json()["legal_moves"]
        view = served.http.post(f"{url}/moves", headers=seats[seat], json={"move": legal[0]}).json()
    page = browser.new_page()
    page.goto(f"{served.url}/#match={made['id']}&token={made['tokens']['1']}")
    page.wait_for_function(READY)
    assert page.inner_text("#status") == "your turn"
    page.click("#options button >> nth=0")
    page.wait_for_function(READY)
    half = page.inner_text("#chosen")
    assert half != "(choose)"
    legal = served.http.get(f"{url}/view", headers=seats[0]).json()["legal_moves"]
    at = view["moves"]
    served.http.post(f"{url}/moves", headers=seats[0], json={"move": legal[0]}).raise_for_status()
    page.wait_for_function(
        "fetch(location.origin + '/api/matches/" + made["id"] + f"/view').then(r => r.json()).then(v => v.moves > {at})"
    )
    page.wait_for_timeout(400)  # the page hears of P0's choice (events poll 10 times a second)
    page.wait_for_function(READY)
    assert page.inner_text("#chosen") == half  # kept
    while not page.is_visible("#play"):
        page.click("#options button >> nth=0")
        page.wait_for_function(READY)
    page.click("#play")
    page.wait_for_function(READY)
    assert page.inner_text("#message") == ""
    assert served.http.get(f"{url}/view").json()["moves"] > at + 1  # both choices played
    page.close()


def test_a_move_is_taken_back_by_the_button_where_fair_play_allows(browser: Any, served: Server) -> None:
    """Manhattan's open selection against a bot: after the human's selection the button appears,
    takes the move back (the bot's answer too), and disappears once nothing is left to undo."""
    body = {"game": "manhattan", "players": 2, "options": SHORT["manhattan"], "bots": {"1": "greedy"}, "seed": 3}
    made = served.http.post("/api/matches", json=body).json()
    url = f"/api/matches/{made['id']}"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{served.url}/#match={made['id']}&token={made['tokens']['0']}")
    page.wait_for_function(READY)
    start = served.http.get(f"{url}/view").json()["moves"]
    assert not page.is_visible("#undo")
    legal = served.http.get(f"{url}/view", headers={"Authorization": f"Bearer {made['tokens']['0']}"}).json()
    page.fill("#move-text", legal["legal_moves"][0])
    page.click("#send")
    page.wait_for_function(f"{READY} && !document.getElementById('undo').classList.contains('hidden')")
    page.click("#undo")
    page.wait_for_function(f"{READY} && document.getElementById('undo').classList.contains('hidden')")
    assert page.inner_text("#message") == "your last move was taken back"
    assert served.http.get(f"{url}/view").json()["moves"] == start
    assert page.inner_text("#status") == "your turn" and errors == []
    page.close()


def test_lobby_errors_are_shown_and_the_page_follows_a_pasted_link(browser: Any, served: Server) -> None:
    page = browser.new_page()
    page.goto(served.url + "/")
    page.wait_for_function(READY)
    page.select_option("#game", "skyline")
    page.fill("#rule-options", '{"no_such_option": 1}')
    page.click("#create")
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    assert page.is_visible("#message") and "no_such_option" in page.inner_text("#message")
    assert page.is_visible("#lobby")  # nothing was created: the lobby stays
    made = served.http.post("/api/matches", json={"game": "skyline", "players": 2, "options": SHORT["skyline"]}).json()
    page.evaluate(f"location.hash = '#match={made['id']}&token={made['tokens']['0']}'")  # a link pasted in
    page.wait_for_selector("#table:not(.hidden)")
    page.wait_for_function(f"document.getElementById('title').textContent.includes('match {made['id']}')")
    page.close()
