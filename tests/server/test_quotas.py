"""The limits per client: requests (a token bucket), new matches, event streams; who a client is
(``X-Forwarded-For`` only from a trusted proxy); counted in the database, so two applications over
one database (two workers) share them; an open stream renews its lease. Time is a configured
clock, never a sleep (a renewal is waited for by counting looks)."""

from __future__ import annotations

import ipaddress
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

import httpx2  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from server_support import auth, new_match  # noqa: E402

from citybuild.cli import main  # noqa: E402
from citybuild.cli.limits import DEFAULTS  # noqa: E402
from citybuild.server import create_app  # noqa: E402
from citybuild.server.faults import BUSY_TIMEOUT  # noqa: E402
from citybuild.server.quotas import Quotas, networks  # noqa: E402
from citybuild.server.throttle import LEASE  # noqa: E402


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def at(app: Any, address: str) -> TestClient:
    """A client of ``app`` from ``address`` (no lifespan: the app's first client runs it)."""
    return TestClient(app, client=(address, 40000))


def statuses(client: TestClient, times: int, path: str = "/api/games", **kwargs: Any) -> list[int]:
    return [client.get(path, **kwargs).status_code for _ in range(times)]


def test_a_client_past_its_burst_gets_429_with_retry_after_and_the_others_do_not(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "db.sqlite", quotas=Quotas(rate=1, burst=5, clock=clock))
    with at(app, "127.0.0.2") as flood:
        assert statuses(flood, 5) == [200] * 5
        refused = flood.get("/api/games")
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "1"
        assert refused.json()["error"]["code"] == "too-many-requests"
        assert statuses(at(app, "127.0.0.3"), 5) == [200] * 5  # another client: its own bucket
        clock.now += 2  # two tokens back
        assert statuses(flood, 3) == [200, 200, 429]


def test_the_limits_hold_across_two_workers_over_one_database(tmp_path: Path) -> None:
    clock = Clock()
    quotas = Quotas(rate=1, burst=4, clock=clock)
    first, second = create_app(tmp_path / "db.sqlite", quotas=quotas), create_app(tmp_path / "db.sqlite", quotas=quotas)
    with at(first, "127.0.0.2") as one, at(second, "127.0.0.2") as two:
        assert statuses(one, 2) + statuses(two, 2) == [200] * 4
        assert one.get("/api/games").status_code == 429
        assert two.get("/api/games").status_code == 429


def test_new_matches_per_client_are_limited_an_hour(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "db.sqlite", quotas=Quotas(matches_per_client=3, clock=clock))
    body = {"game": "skyline", "players": 2}
    with at(app, "127.0.0.2") as creator:
        assert [creator.post("/api/matches", json=body).status_code for _ in range(3)] == [201] * 3
        refused = creator.post("/api/matches", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too-many-matches"
        assert refused.headers["Retry-After"] == "1200"  # 3 an hour: one every 20 minutes
        assert creator.get("/api/games").status_code == 200  # other requests go on
        assert at(app, "127.0.0.3").post("/api/matches", json=body).status_code == 201
        clock.now += 1200
        assert [creator.post("/api/matches", json=body).status_code for _ in range(2)] == [201, 429]


def test_event_streams_are_limited_per_client_and_in_total(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "db.sqlite", quotas=Quotas(streams=3, streams_per_client=2, clock=clock))
    store = app.state.hall.store
    events = "/api/matches/nosuchmatch/events"  # let through, a stream of no match is a 404
    with at(app, "127.0.0.2") as watcher:
        for holder in ("a", "b"):  # two streams of this client open, on any worker
            assert store.hold_stream(holder, "127.0.0.2", 3, 2, clock.now, LEASE) is None
        refused = watcher.get(events)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
        assert refused.json()["error"]["code"] == "too-many-streams"
        other = at(app, "127.0.0.3")
        assert other.get(events).status_code == 404  # counted while it ran, then released
        assert store.hold_stream("c", "127.0.0.4", 3, 2, clock.now, LEASE) is None
        full = other.get(events)
        assert full.status_code == 503 and full.headers["Retry-After"] == "10"
        store.release_stream("c")
        assert other.get(events).status_code == 404
        clock.now += LEASE + 1  # the streams of a worker that died stop counting when their lease ends
        assert watcher.get(events).status_code == 404


def test_x_forwarded_for_names_the_client_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    quotas = Quotas(rate=1, burst=2, clock=Clock(), trusted_proxies=networks(["127.0.0.1"]))
    app = create_app(tmp_path / "db.sqlite", quotas=quotas)
    with at(app, "127.0.0.1") as proxy:
        one = {"X-Forwarded-For": "forged, 10.0.0.5"}
        assert statuses(proxy, 3, headers=one) == [200, 200, 429]
        assert statuses(proxy, 2, headers={"X-Forwarded-For": "10.0.0.6"}) == [200, 200]
        stranger = at(app, "127.0.0.9")  # not a proxy: its header is its own say, ignored
        forged = [stranger.get("/api/games", headers={"X-Forwarded-For": f"10.1.0.{i}"}) for i in range(3)]
        assert [answer.status_code for answer in forged] == [200, 200, 429]


ADDRESSES = st.ip_addresses().map(str) | st.sampled_from(["unknown", "", "nonsense", "10.0.0.0/8"])


@given(
    source=st.sampled_from(["127.0.0.1", "10.0.0.7", "192.0.2.1"]),
    forged=st.lists(ADDRESSES, max_size=3),
    hops=st.lists(ADDRESSES, max_size=3),
)
def test_the_client_is_never_a_trusted_proxy_nor_a_forged_name(source: str, forged: list[str], hops: list[str]) -> None:
    quotas = Quotas(trusted_proxies=networks(["127.0.0.1", "10.0.0.0/8"]))

    def client_of(chain: list[str]) -> str:
        return quotas.client({"client": (source, 1), "headers": [(b"x-forwarded-for", ", ".join(chain).encode())]})

    client = client_of(hops)
    if not quotas._trusted(source):  # an untrusted source is itself, whatever it says
        assert client == source
    assert client == source or (client in hops and not quotas._trusted(client))
    seen = hops[-1] if hops else ""
    if quotas._trusted(source) and _is_address(seen) and not quotas._trusted(seen):
        assert client == seen  # what the trusted proxy saw, whatever the client wrote before it
        assert client_of([*forged, *hops]) == client


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def test_the_flags_default_to_the_servers_own_limits() -> None:
    quotas = Quotas()
    assert {name: getattr(quotas, name) for name in DEFAULTS if name != "busy_timeout"} == {
        k: v for k, v in DEFAULTS.items() if k != "busy_timeout"
    }
    assert DEFAULTS["busy_timeout"] == BUSY_TIMEOUT


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--rate", "-1"], "expected a finite number of 0 or more"),
        (["--burst", "x"], "expected an integer"),
        (["--idle", "nan"], "expected a finite number of 0 or more"),
        (["--trusted-proxy", "proxy.example"], "--trusted-proxy 'proxy.example': not an IP address or network"),
    ],
)
def test_a_bad_limit_flag_is_one_line(
    flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "db.sqlite"), *flags]) == 2
    assert message in capsys.readouterr().err


def test_a_stream_is_counted_while_it_runs_and_released_when_it_ends(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "db.sqlite", allow_seed=True, quotas=Quotas(streams=1, clock=clock))
    with at(app, "127.0.0.2") as client:
        made = new_match(client, "skyline", bots={"1": "greedy"}, seed=3)
        url, headers = f"/api/matches/{made['id']}", auth(made["token"])
        view = client.get(f"{url}/view", headers=headers).json()
        while not view["over"]:
            view = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]}).json()
        streamed = client.get(f"{url}/events")  # a finished match's stream: one event, then its end
        assert streamed.status_code == 200 and '"over": true' in streamed.text
        store = app.state.hall.store
        assert store.hold_stream("next", "127.0.0.3", 1, 16, clock.now, LEASE) is None  # the one place is free
        assert client.get(f"{url}/events").status_code == 503  # and now taken


def test_the_flags_reach_the_served_process(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    command += ["--rate", "0.01", "--burst", "2", "--trusted-proxy", "127.0.0.1"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[2].rstrip("/")
        with httpx2.Client(base_url=url, timeout=30) as http:
            named = {"X-Forwarded-For": "192.0.2.7"}  # the proxy (this test, at 127.0.0.1) names the client
            assert [http.get("/api/games", headers=named).status_code for _ in range(3)] == [200, 200, 429]
            assert http.get("/api/games", headers={"X-Forwarded-For": "192.0.2.8"}).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stdout.close()  # type: ignore[union-attr]


def test_an_ipv6_client_is_counted_by_its_64_network(tmp_path: Path) -> None:
    app = create_app(tmp_path / "db.sqlite", quotas=Quotas(rate=1, burst=2, clock=Clock()))
    with at(app, "2001:db8:0:1::1") as first:
        assert statuses(first, 2) == [200, 200]
        assert at(app, "2001:db8:0:1:ffff::2").get("/api/games").status_code == 429  # the same /64
        assert at(app, "2001:db8:0:2::1").get("/api/games").status_code == 200  # another network
        assert at(app, "::ffff:192.0.2.1").get("/api/games").status_code == 200  # an IPv4 client, by address


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` under uvicorn in a thread of this process (a stream stays open, as the test client's
    would not), on a free localhost port: its URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(2000):
            if server.started:
                break
            threading.Event().wait(0.005)
        assert server.started
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def test_an_open_stream_renews_its_lease_so_it_counts_past_the_first(tmp_path: Path) -> None:
    """A stream renews its lease (every third of it) while it is open: with the clock moved far past
    the first lease it still counts, and it stops counting once it ends. The lease is a configured
    0.03 s, so a renewal comes at once; the test waits for one by counting looks, not by timing."""
    clock, lease = Clock(), 0.03
    app = create_app(tmp_path / "db.sqlite", allow_seed=True, quotas=Quotas(streams=1, clock=clock), stream_lease=lease)
    store = app.state.hall.store

    def expires() -> list[float]:
        with store._lock:
            return [row[0] for row in store._db.execute("SELECT expires FROM streams")]

    def renewed(after: float) -> list[float]:
        for _ in range(2000):  # a renewal every 0.01 s: within a few looks
            if (now := expires()) and now[0] >= after:
                break
            threading.Event().wait(0.005)
        return expires()

    with serving(app) as url, httpx2.Client(base_url=url, timeout=30) as http:
        made = new_match(http, "skyline", bots={"1": "greedy"}, seed=3)  # in play: its stream stays open
        with http.stream("GET", f"/api/matches/{made['id']}/events") as events:
            lines = events.iter_lines()  # kept: a line iterator let go closes the connection
            assert next(lines).startswith("event: moves")
            assert expires() == [pytest.approx(clock.now + lease)]  # held from when it opened
            clock.now += 1000 * lease  # the first lease is long over
            assert renewed(clock.now) == [pytest.approx(clock.now + lease)]
            assert store.hold_stream("next", "127.0.0.3", 1, 16, clock.now, lease) == "total"  # still counted
        for _ in range(2000):  # the stream ends at its next look at the connection (0.1 s)
            if not expires():
                break
            threading.Event().wait(0.005)
        assert expires() == []
        assert store.hold_stream("next", "127.0.0.3", 1, 16, clock.now, lease) is None
