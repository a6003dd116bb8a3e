"""The lobby in a real headless Chromium: two people in two browsers, one creates a match and the
other joins it by the invite link; each sees only its own seat, no token stays in the address bar
or on the page; open games are listed and joined by a click; a watch link watches; a finished
game's rematch button takes both to the new match."""

from __future__ import annotations

from typing import Any

from extras_support import importorskip_extra

importorskip_extra("browser")

from server_support import Server  # noqa: E402

READY = "document.body.dataset.state === 'ready'"
TOKEN_OF = "(match) => sessionStorage.getItem('citybuild-seat:' + match)"


def at_table(page: Any) -> str:
    """The match id of the page's table, once it is drawn."""
    page.wait_for_selector("#table:not(.hidden) #picture svg")
    page.wait_for_function(READY)
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('match')"))


def create_for_people(page: Any, server: Server, *, open_: bool = False) -> str:
    page.goto(server.url + "/")
    page.wait_for_function(READY)
    page.select_option("#game", "skyline")
    page.select_option("#bots", "")  # people in the other seats
    if open_:
        page.check("#open")
    page.click("#create")
    return at_table(page)


def assert_secret_kept(page: Any, match: str) -> str:
    """The page's token: kept in its storage, not in the address bar, not on the page."""
    token = page.evaluate(TOKEN_OF, match)
    assert token and len(token) >= 32
    assert token not in page.url and "token=" not in page.url and "invite=" not in page.url
    assert token not in page.content()
    return str(token)


def test_two_people_each_hold_only_their_own_seat(browser: Any, served: Server) -> None:
    first, second = browser.new_context(), browser.new_context()  # two people, two browsers
    creator, guest = first.new_page(), second.new_page()
    match = create_for_people(creator, served)
    assert creator.inner_text("#title").endswith("you are P0")
    invite = creator.get_attribute("#seats .share a >> nth=0", "href")
    assert invite is not None and "invite=" in invite and "token=" not in invite
    assert "P1:" in creator.inner_text("#seats")
    guest.goto(invite)
    assert at_table(guest) == match
    assert guest.inner_text("#title").endswith("you are P1")
    creator_token, guest_token = assert_secret_kept(creator, match), assert_secret_kept(guest, match)
    assert creator_token != guest_token
    view = served.http.get(f"/api/matches/{match}/view", headers={"Authorization": f"Bearer {guest_token}"}).json()
    assert view["seat"] == 1
    # the invite worked once: opened again, it is refused and the address forgets it
    third = browser.new_context().new_page()
    third.goto(invite)
    third.wait_for_function(f"{READY} && document.getElementById('message').textContent !== ''")
    assert "unknown or has been used" in third.inner_text("#message") and "invite=" not in third.url
    # a watch link watches: the public view and its picture
    watch = creator.get_attribute("#seats .share a >> nth=1", "href")
    assert watch is not None and "watch=1" in watch
    third.goto(watch)
    at_table(third)
    assert third.inner_text("#title").endswith("watching") and third.locator("#picture svg").count() == 1
    # the game played to its end (by the API, with each page's own token): both see the rematch
    seats = {0: creator_token, 1: guest_token}
    url = f"/api/matches/{match}"
    while not (now := served.http.get(f"{url}/view").json())["over"]:
        headers = {"Authorization": f"Bearer {seats[now['to_act'][0]]}"}
        legal = served.http.get(f"{url}/view", headers=headers).json()["legal_moves"]
        served.http.post(f"{url}/moves", headers=headers, json={"move": legal[0]}).raise_for_status()
    for page in (creator, guest):
        page.wait_for_selector("#rematch:not(.hidden)", timeout=60_000)
    creator.click("#rematch")
    creator.wait_for_function(f"!location.hash.includes('{match}')")
    rematch = at_table(creator)
    guest.wait_for_function("document.getElementById('rematch').textContent === 'Join the rematch'", timeout=60_000)
    guest.click("#rematch")
    guest.wait_for_function(f"location.hash.includes('{rematch}')")
    at_table(guest)
    assert creator.inner_text("#title").endswith("you are P0") and guest.inner_text("#title").endswith("you are P1")
    assert guest.evaluate(TOKEN_OF, rematch) == guest_token and "token=" not in guest.url
    for context in (first, second, third.context):
        context.close()


def test_an_open_game_is_listed_and_joined_by_a_click(browser: Any, served: Server) -> None:
    first, second = browser.new_context(), browser.new_context()
    creator, guest = first.new_page(), second.new_page()
    match = create_for_people(creator, served, open_=True)
    guest.goto(served.url + "/")
    guest.wait_for_function(READY)
    entry = guest.locator(f'#open-list li[data-match="{match}"]')
    assert "free: P1" in entry.inner_text()
    entry.locator("button.take").click()
    assert at_table(guest) == match
    assert guest.inner_text("#title").endswith("you are P1")
    assert_secret_kept(guest, match)
    guest.goto(served.url + "/")  # full now: no longer listed
    guest.wait_for_function(READY)
    assert guest.locator(f'#open-list li[data-match="{match}"]').count() == 0
    first.close()
    second.close()
