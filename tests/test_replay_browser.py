"""The HTML replay in a real browser: Debian's Chromium driven by Playwright (``citybuild[browser]``;
``.ci/run`` installs both). The page opens from a file with the network cut off, steps through the
record with every control, shows a different picture at each step, and logs no error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citybuild.cli import main
from extras_support import importorskip_extra

importorskip_extra("browser")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    if not CHROMIUM:
        pytest.skip("needs Chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.mark.parametrize(("game", "players", "seed"), [("manhattan", 2, 4), ("skyline", 3, 2), ("urbanization", 2, 1)])
def test_replay_page_steps_through_a_record(
    browser, tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: int, seed: int
) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.json"
    assert main(["play", game, "--players", str(players), "--seed", str(seed), "--quiet", "--record", str(record)]) == 0
    assert main(["show", str(record), "--html"]) == 0
    page_file = tmp_path / "game.html"
    assert page_file.exists()
    capsys.readouterr()

    context = browser.new_context(offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())
    page.wait_for_selector("#picture svg")

    def picture() -> str:
        return page.inner_html("#picture")

    steps = int(page.get_attribute("#slider", "max") or 0)
    assert steps > 20
    assert page.inner_text("#where").startswith(f"move {steps} of {steps}: ")  # it opens at the end
    assert "game over" in picture()
    page.click("#first")
    start = picture()
    assert page.inner_text("#where") == f"move 0 of {steps} (start)"
    assert page.locator("#moves li.current").count() == 0
    seen = {start}
    for number in range(1, 6):
        page.click("#next")
        assert page.inner_text("#where").startswith(f"move {number} of {steps}: ")
        current = page.locator("#moves li.current")
        assert current.count() == 1 and current.inner_text().startswith(f"{number}. ")
        seen.add(picture())
    assert len(seen) >= 4  # the picture changes as the game goes on
    page.click("#prev")
    assert page.inner_text("#where").startswith(f"move 4 of {steps}")
    page.click("#last")
    assert page.inner_text("#where").startswith(f"move {steps} of {steps}")
    final = picture()
    assert final != start and "game over" in final
    assert "totals:" in page.inner_text("#sheet")
    page.click("#first")
    assert picture() == start
    page.fill("#slider", str(steps // 2))
    page.dispatch_event("#slider", "input")
    assert page.inner_text("#where").startswith(f"move {steps // 2} of {steps}")
    page.click("#moves li >> nth=9")
    assert page.inner_text("#where").startswith(f"move 10 of {steps}")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#where").startswith(f"move 11 of {steps}")
    assert page.evaluate("location.hash") == "#move=11"  # a link to this move
    page.keyboard.press(" ")  # autoplay steps on by itself, until paused
    page.wait_for_function("document.getElementById('where').textContent.startsWith('move 13 ')")
    page.click("#play")
    paused = page.inner_text("#where")
    page.wait_for_timeout(1500)
    assert page.inner_text("#where") == paused
    page.goto(page_file.as_uri() + "#move=7")
    page.wait_for_function("document.getElementById('where').textContent.startsWith('move 7 of')")
    if game != "skyline":  # a game with secrets: each seat's story beside the whole one
        options = page.locator("#story option").all_inner_texts()
        assert options == ["the whole game"] + [f"what P{p} saw" for p in range(players)]
        whole = picture()
        page.select_option("#story", "P1")
        assert page.inner_text("#where").startswith("move 7 of") and picture() != whole
        assert page.evaluate("location.hash") == "#move=7&story=P1"
    else:
        assert page.locator("#story").count() == 0
    assert errors == []
    assert all(url.startswith("file:") for url in requests)
    context.close()
