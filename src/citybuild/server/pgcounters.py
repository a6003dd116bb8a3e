"""The limits' counters in PostgreSQL: the same token buckets and event-stream leases as SQLite's
(``citybuild.server.counters``), in tables every worker shares, so a limit holds across them all.
A bucket is read and written under its row's lock; streams are counted under one advisory lock,
so two workers never both let in the last stream allowed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg

COUNTERS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS buckets (key TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, "
    "at DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS streams (holder TEXT PRIMARY KEY, client TEXT NOT NULL, "
    "expires DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS streams_by_client ON streams(client, expires)",
)
STREAMS_LOCK = 0x73747265
"""The advisory lock under which streams are counted."""


class PgCounters:
    """The counters over the store's connections (``_connection``) and error mapping (``_errors``)."""

    def _connection(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        raise NotImplementedError  # the store's

    def _errors(self) -> AbstractContextManager[None]:
        raise NotImplementedError  # the store's

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        with self._errors(), self._connection() as conn, conn.transaction():
            yield conn

    def take(self, key: str, rate: float, burst: float, now: float) -> float:
        """One statement when a token is there (the bucket refilled, one taken, under its row's
        lock); when none is, a second reads how long until one is."""
        refill = "LEAST(%(burst)s, b.tokens + GREATEST(0, %(now)s - b.at) * %(rate)s)"
        values = {"key": key, "rate": rate, "burst": float(burst), "now": now}
        with self._errors(), self._connection() as conn:
            taken = conn.execute(
                "INSERT INTO buckets AS b (key, tokens, at) VALUES (%(key)s, %(burst)s - 1, %(now)s) "
                f"ON CONFLICT (key) DO UPDATE SET tokens = {refill} - 1, at = %(now)s WHERE {refill} >= 1 "
                "RETURNING tokens",
                values,
            ).fetchone()
            if taken is not None:
                return 0.0
            row = conn.execute("SELECT tokens, at FROM buckets WHERE key = %s", (key,)).fetchone()
        tokens = burst if row is None else min(burst, row[0] + max(0.0, now - row[1]) * rate)
        return max(0.0, (1 - tokens) / rate)

    def hold_stream(
        self, holder: str, client: str, total: int, per_client: int, now: float, lease: float
    ) -> str | None:
        with self._transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (STREAMS_LOCK,))
            conn.execute("DELETE FROM streams WHERE expires < %s", (now,))
            if _count(conn, "SELECT COUNT(*) FROM streams", ()) >= total:
                return "total"
            if _count(conn, "SELECT COUNT(*) FROM streams WHERE client = %s", (client,)) >= per_client:
                return "client"
            conn.execute(
                "INSERT INTO streams (holder, client, expires) VALUES (%s, %s, %s)", (holder, client, now + lease)
            )
        return None

    def renew_stream(self, holder: str, now: float, lease: float) -> None:
        with self._transaction() as conn:
            conn.execute("UPDATE streams SET expires = %s WHERE holder = %s", (now + lease, holder))

    def release_stream(self, holder: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM streams WHERE holder = %s", (holder,))

    def forget(self, before: float) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM buckets WHERE at < %s", (before,))


def _count(conn: psycopg.Connection[Any], query: str, params: tuple[Any, ...]) -> int:
    row = conn.execute(query, params).fetchone()
    return int(row[0]) if row is not None else 0
