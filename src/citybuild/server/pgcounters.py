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
        with self._transaction() as conn:
            row = conn.execute("SELECT tokens, at FROM buckets WHERE key = %s FOR UPDATE", (key,)).fetchone()
            tokens = burst if row is None else min(burst, row[0] + max(0.0, now - row[1]) * rate)
            if tokens < 1:
                return (1 - tokens) / rate
            conn.execute(
                "INSERT INTO buckets (key, tokens, at) VALUES (%s, %s, %s) "
                "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at = excluded.at",
                (key, tokens - 1, now),
            )
        return 0.0

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
