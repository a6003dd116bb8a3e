"""The limits' counters in PostgreSQL hold as SQLite's do, across every worker sharing the
database: one request bucket per client, new matches an hour, event streams per client and in
total with leases, buckets forgotten. Time is a configured clock, never a sleep."""

from __future__ import annotations

from typing import Any

from extras_support import importorskip_extra

importorskip_extra("server")

from test_quotas import Clock, at, statuses  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402
from citybuild.server.throttle import LEASE  # noqa: E402


def test_the_request_limit_holds_across_two_workers_over_postgres(pg_url: str) -> None:
    clock = Clock()
    quotas = Quotas(rate=1, burst=4, clock=clock)
    first, second = create_app(pg_url, quotas=quotas), create_app(pg_url, quotas=quotas)
    with at(first, "127.0.0.2") as one, at(second, "127.0.0.2") as two:
        assert statuses(one, 2) + statuses(two, 2) == [200] * 4
        assert one.get("/api/games").status_code == 429 and two.get("/api/games").status_code == 429
        assert statuses(at(second, "127.0.0.3"), 4) == [200] * 4  # another client: its own bucket
        clock.now += 2  # two tokens back, for both workers
        assert statuses(one, 1) + statuses(two, 2) == [200, 200, 429]


def test_new_matches_per_client_are_limited_an_hour_over_postgres(pg_url: str) -> None:
    clock = Clock()
    app = create_app(pg_url, quotas=Quotas(matches_per_client=2, clock=clock))
    body = {"game": "skyline", "players": 2}
    with at(app, "127.0.0.2") as creator:
        assert [creator.post("/api/matches", json=body).status_code for _ in range(3)] == [201, 201, 429]
        clock.now += 1800  # 2 an hour: one every 30 minutes
        assert [creator.post("/api/matches", json=body).status_code for _ in range(2)] == [201, 429]


def test_event_streams_are_counted_per_client_and_in_total_with_leases(pg_url: str) -> None:
    from citybuild.server.pgstore import PgStore

    clock = Clock()
    one, two = PgStore(pg_url), PgStore(pg_url)  # two workers' stores
    assert one.hold_stream("a", "127.0.0.2", 3, 2, clock.now, LEASE) is None
    assert two.hold_stream("b", "127.0.0.2", 3, 2, clock.now, LEASE) is None
    assert one.hold_stream("c", "127.0.0.2", 3, 2, clock.now, LEASE) == "client"
    assert two.hold_stream("c", "127.0.0.3", 3, 2, clock.now, LEASE) is None
    assert one.hold_stream("d", "127.0.0.4", 3, 2, clock.now, LEASE) == "total"
    two.release_stream("c")
    assert one.hold_stream("d", "127.0.0.4", 3, 2, clock.now, LEASE) is None
    clock.now += LEASE / 2
    one.renew_stream("a", clock.now, LEASE)  # a is still open; b's worker died and renews nothing
    clock.now += LEASE / 2 + 1
    assert two.hold_stream("e", "127.0.0.2", 3, 2, clock.now, LEASE) is None  # b's lease ran out
    assert two.hold_stream("f", "127.0.0.2", 3, 2, clock.now, LEASE) == "client"  # a still counts
    one.close()
    two.close()


def test_a_bucket_refills_and_is_forgotten_when_untouched(pg_url: str) -> None:
    from citybuild.server.pgstore import PgStore

    store: Any = PgStore(pg_url)
    now = 1000.0
    assert [store.take("k", 1.0, 2, now) for _ in range(3)] == [0.0, 0.0, 1.0]  # empty: a token in 1 s
    assert store.take("k", 1.0, 2, now + 0.5) == 0.5
    assert store.take("k", 1.0, 2, now + 1.0) == 0.0
    store.forget(now + 2.0)  # untouched since before: a full bucket again
    assert [store.take("k", 1.0, 2, now + 1.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    store.close()
