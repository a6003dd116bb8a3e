"""A newcomer plays a whole game of each title in a real headless Chromium against a computer
player, by clicking only: the green outlines on the board and the labelled buttons beside it (no
notation typed, no API call to play). Short rules and a chosen seed keep each game to a few dozen
clicks, the same ones every run; the loop is bounded by its clicks, and every wait is for the page.

The test checks that the how-to-play text is shown, that every move of the computer player is in
the log ("What happened", in words or, for a secret choice, by its kind), that the scores are
shown as a table and the latest scoring apart, that nothing is logged as an error and that no
request leaves the server. It saves a screenshot of each phase it meets into
``tests/artifacts/newcomer/`` (or ``$CITYBUILD_ARTIFACTS/newcomer``; git ignores both), the
pictures the browser tutorial of the documentation is made of.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("browser")

from server_support import Server  # noqa: E402

READY = "document.body.dataset.state === 'ready'"
OUR_TURN_OR_OVER = (
    f"{READY} && ((status) => status === 'your turn' || status.startsWith('game over'))"
    "(document.querySelector('#status').innerText)"
)
HEADLINE = "(() => { const t = document.querySelector('#picture svg text'); return t ? t.textContent : ''; })()"
SEEDS = {"skyline": 5, "manhattan": 3, "urbanization": 3}
SHY = ("Demolish", "Abandon", "Give up")
"""What a newcomer does only when nothing else is offered (abandoning a die first)."""
CLICK_LIMIT = 600
"""More clicks than any of the short games takes (each move is one to three clicks)."""


def artifacts() -> Path:
    root = os.environ.get("CITYBUILD_ARTIFACTS")
    folder = (Path(root) if root else Path(__file__).parents[1] / "artifacts") / "newcomer"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Camera:
    """One screenshot per phase met (the picture's headline without its numbers, and whether a
    part is picked), named in the order taken."""

    def __init__(self, page: Any, game: str) -> None:
        self.page, self.game, self.seen = page, game, set[str]()
        self.folder = artifacts()
        for old in self.folder.glob(f"{game}-*.png"):
            old.unlink()

    def shoot(self, key: str) -> None:
        if key in self.seen:
            return
        self.seen.add(key)
        slug = re.sub(r"[^a-z]+", "-", key.lower()).strip("-")[:40]
        self.page.screenshot(
            path=str(self.folder / f"{self.game}-{len(self.seen):02d}-{slug}.png"), animations="disabled"
        )


def phase(page: Any) -> str:
    headline = page.evaluate(HEADLINE).split(" · ")
    words = [re.sub(r"[0-9]+", "", part) for part in headline if not part.startswith(("round", "P"))]
    return " ".join(words[1:]) + (" picked" if page.locator("#picture .picked").count() else "")


def click_once(page: Any, clicks: int) -> None:
    """One newcomer click: a choice of the list a picked part opened, else (mostly) a green
    outline of the board, else a button; which one varies with the count, the same every run."""
    legal = page.locator("#picture .legal")
    buttons = page.locator("#choices button.choice")
    if page.locator("#picture .picked").count() or not legal.count():
        labels = buttons.all_inner_texts()
        keen = [i for i, label in enumerate(labels) if not label.startswith(SHY)]
        keen = keen or [i for i, label in enumerate(labels) if label.startswith("Abandon")] or list(range(len(labels)))
        buttons.nth(keen[clicks % len(keen)]).click()
    elif buttons.count() and clicks % 4 == 3:
        buttons.nth(clicks % buttons.count()).click()
    else:
        legal.nth(clicks % legal.count()).click()
    page.wait_for_function(READY)


def play_by_clicks(page: Any, camera: Camera) -> tuple[int, int]:
    """Click until the game is over: the clicks made, and whether a scoring was shown in play."""
    clicks = scorings = 0
    while clicks < CLICK_LIMIT:
        page.wait_for_function(OUR_TURN_OR_OVER, timeout=180_000)  # the computer answers, however busy
        if page.inner_text("#status").startswith("game over"):
            break
        camera.shoot(phase(page))
        if page.locator("#picture .legal").count():  # resting on an outline tells what a click there does
            assert page.locator("#picture .legal > title").first.text_content()
        if page.is_visible("#scored") and "scoring" not in camera.seen:
            camera.shoot("scoring")  # the first scoring before the end
            scorings += 1
        click_once(page, clicks)
        clicks += 1
    return clicks, scorings


def bot_moves_told(log: list[str], record: dict[str, Any]) -> list[str]:
    """The computer's (P1's) moves of the record missing from the log: each is told in words
    with its notation, or by its kind where it was a secret choice (told in full again, in a
    line of its own, once the game reveals it)."""
    told = [line for line in log if line.startswith("P1") and " reveals " not in line]
    moves = [entry["move"] for entry in record["moves"] if entry["player"] == 1]
    missing = []
    for move, line in zip(moves, told, strict=False):
        if not (line.endswith(f"({move})") or line == f"P1 {move.split()[0]} (hidden)"):
            missing.append(f"{move!r} told as {line!r}")
    return missing + [f"{move!r} not told" for move in moves[len(told) :]]


@pytest.mark.parametrize("game", ["skyline", "manhattan", "urbanization"])
def test_a_newcomer_plays_a_whole_game_by_clicking(browser: Any, served: Server, game: str) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    camera = Camera(page, game)
    page.goto(served.url + "/")
    page.wait_for_function(READY)
    page.select_option("#game", game)
    assert page.inner_text("#lobby-howto").startswith("How to play")
    camera.shoot("lobby")
    assert page.is_checked("#first-game")  # a short game, to learn
    page.click("#more summary")
    page.fill("#seed", str(SEEDS[game]))  # the same game every run
    page.click("#create")
    page.wait_for_selector("#picture svg")
    page.wait_for_function(READY)
    page.click("#howto summary")
    assert "Playing here" in page.inner_text("#howto-text")
    page.click("#howto summary")

    clicks, scorings = play_by_clicks(page, camera)
    assert scorings == (game != "urbanization")  # Urbanization scores at the end only
    assert page.inner_text("#status").startswith("game over; winners: P"), f"not over after {clicks} clicks"
    camera.shoot("game over")
    assert "totals:" in page.inner_text("#scored-lines") and page.inner_text("#scored-title") == "Final scoring"
    assert page.locator("#score-table td.points").count() == 2
    log = page.inner_text("#log").splitlines()
    assert log[0].startswith("round")  # the whole story is there, from the start
    record = served.http.get(
        page.evaluate("'/api/matches/' + new URLSearchParams(location.hash.slice(1)).get('match') + '/record'")
    ).json()  # to check, not to play
    assert bot_moves_told(log, record) == []
    assert any(line.startswith("P1:") for line in log)  # in words
    assert page.inner_text("#message") == "" and errors == []
    assert all(url.startswith(served.url) for url in requests), requests
    page.close()
