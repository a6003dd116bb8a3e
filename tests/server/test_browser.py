"""The browser client in a real headless Chromium (Debian's, driven by Playwright; ``.ci/run``
installs both): live updates, a half-made move kept while others choose, the undo button, lobby
errors and pasted links. Whole games played by clicking: ``test_newcomer_browser``."""

from __future__ import annotations

from typing import Any

from extras_support import importorskip_extra

importorskip_extra("browser")

from server_support import SHORT, Server, with_tokens  # noqa: E402

READY = "document.body.dataset.state === 'ready'"
OUR_TURN_OR_OVER = (
    f"{READY} && ((status) => status === 'your turn' || status.startsWith('game over'))"
    "(document.querySelector('#status').innerText)"
)


def test_the_page_follows_another_players_moves_live(browser: Any, served: Server) -> None:
    body = {"game": "skyline", "players": 2, "options": SHORT["skyline"]}
    made = with_tokens(served.http, served.http.post("/api/matches", json=body).json())
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
    page.wait_for_function("document.getElementById('status').textContent === 'your turn'", timeout=60_000)
    page.wait_for_function(READY)
    assert page.locator("#choices button.choice, #picture .legal").count() > 0
    page.close()


def test_a_half_made_move_survives_the_others_secret_choices(browser: Any, served: Server) -> None:
    """Urbanization's secret choice of a card, two humans: P1 clicks a building or token that has
    several moves, P0 chooses elsewhere, and P1's page keeps the part picked and plays a move of
    it (not refused as stale)."""
    body = {"game": "urbanization", "players": 2, "options": SHORT["urbanization"], "seed": 1}
    made = with_tokens(served.http, served.http.post("/api/matches", json=body).json())
    url = f"/api/matches/{made['id']}"
    seats = {s: {"Authorization": f"Bearer {made['tokens'][str(s)]}"} for s in (0, 1)}
    view = served.http.get(f"{url}/view").json()
    while True:  # on to the secret choice of a card
        mine = served.http.get(f"{url}/view", headers=seats[1]).json()
        if view["to_act"] == [0, 1] and mine["legal_moves"][0].startswith("select"):
            break
        seat = view["to_act"][0]
        legal = served.http.get(f"{url}/view", headers=seats[seat]).json()["legal_moves"]
        view = served.http.post(f"{url}/moves", headers=seats[seat], json={"move": legal[0]}).json()
    parts = [c["part"] for c in mine["choices"]]
    part = next(p for p in parts if p is not None and parts.count(p) > 1)
    page = browser.new_page()
    page.goto(f"{served.url}/#match={made['id']}&token={made['tokens']['1']}")
    page.wait_for_function(READY)
    assert page.inner_text("#status") == "your turn"
    page.click(f'#picture [data-part="{part}"]')
    assert page.locator("#picture .picked").count() > 0 and page.locator("#choices button.choice").count() > 1
    legal = served.http.get(f"{url}/view", headers=seats[0]).json()["legal_moves"]
    at = view["moves"]
    told = page.inner_text("#log")
    served.http.post(f"{url}/moves", headers=seats[0], json={"move": legal[0]}).raise_for_status()
    # The page hears of P0's choice (its story tells it), however long that takes on a busy machine.
    page.wait_for_function("(told) => document.getElementById('log').innerText !== told", arg=told, timeout=60_000)
    page.wait_for_function(READY)
    assert page.get_attribute("#picture .picked", "data-part") == part  # kept
    page.click("#choices button.choice >> nth=0")
    page.wait_for_function(READY)
    assert page.inner_text("#message") == ""
    assert served.http.get(f"{url}/view").json()["moves"] > at + 1  # both choices played
    page.close()


def test_a_move_is_taken_back_by_the_button_where_fair_play_allows(browser: Any, served: Server) -> None:
    """Manhattan's open selection against a bot, typed in notation: text that is no move is refused;
    after the human's selection the button appears, takes the move back (the bot's answer too),
    and disappears once nothing is left to undo."""
    body = {"game": "manhattan", "players": 2, "options": SHORT["manhattan"], "bots": {"1": "greedy"}, "seed": 3}
    made = with_tokens(served.http, served.http.post("/api/matches", json=body).json())
    url = f"/api/matches/{made['id']}"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{served.url}/#match={made['id']}&token={made['tokens']['0']}")
    page.wait_for_function(READY)
    start = served.http.get(f"{url}/view").json()["moves"]
    assert not page.is_visible("#undo")
    legal = served.http.get(f"{url}/view", headers={"Authorization": f"Bearer {made['tokens']['0']}"}).json()
    page.click("#typed summary")
    page.fill("#move-text", "fly to the moon")  # typed text that is no move: refused, nothing changes
    page.click("#send")
    page.wait_for_function(READY)
    assert page.inner_text("#message").startswith("refused: ") and not page.is_visible("#undo")
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
    page.click("#more summary")
    page.fill("#rule-options", '{"no_such_option": 1}')
    page.click("#create")
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    assert page.is_visible("#message") and "no_such_option" in page.inner_text("#message")
    assert page.is_visible("#lobby")  # nothing was created: the lobby stays
    body = {"game": "skyline", "players": 2, "options": SHORT["skyline"]}
    made = with_tokens(served.http, served.http.post("/api/matches", json=body).json())
    page.evaluate(f"location.hash = '#match={made['id']}&token={made['tokens']['0']}'")  # a link pasted in
    page.wait_for_selector("#table:not(.hidden)")
    page.wait_for_function(f"document.getElementById('title').textContent.includes('match {made['id']}')")
    page.close()
