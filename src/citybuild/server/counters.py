"""The limits' counters, kept in the database so that they hold across every worker that shares it.

A store provides these methods (the SQLite ``Store`` through this mixin; another store
provides the same, each one transaction):

- ``take(key, rate, burst, now) -> float``: a token bucket per ``key`` (``burst`` tokens, refilled
  at ``rate`` a second); takes one token and answers 0.0, or takes none and answers the seconds
  until one is there.
- ``hold_stream(holder, client, total, per_client, now, lease) -> str | None``: counts a new event
  stream ``holder`` of ``client`` unless ``total`` streams are open (answers ``"total"``) or
  ``per_client`` of this client's (answers ``"client"``); a stream is counted until it is released
  or its lease (``now + lease``) runs out, so the streams of a killed worker stop counting.
- ``renew_stream(holder, now, lease)``: the stream is still open.
- ``release_stream(holder)``: the stream has ended.
- ``forget(before)``: drop buckets untouched since ``before`` (a full bucket is no bucket).

``now`` is the caller's clock (seconds, ``time.time()`` by default), so tests set the time.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager

COUNTERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS buckets (
    key TEXT PRIMARY KEY,
    tokens REAL NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS streams (
    holder TEXT PRIMARY KEY,
    client TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS streams_by_client ON streams(client, expires);
"""


class Counters:
    """The limits' counters over the store's SQLite connection (``_write``: one transaction)."""

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError  # the store's

    def take(self, key: str, rate: float, burst: float, now: float) -> float:
        with self._write() as db:
            row = db.execute("SELECT tokens, at FROM buckets WHERE key = ?", (key,)).fetchone()
            tokens = burst if row is None else min(burst, row[0] + max(0.0, now - row[1]) * rate)
            if tokens < 1:
                return (1 - tokens) / rate
            db.execute(
                "INSERT INTO buckets (key, tokens, at) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, at = excluded.at",
                (key, tokens - 1, now),
            )
        return 0.0

    def hold_stream(
        self, holder: str, client: str, total: int, per_client: int, now: float, lease: float
    ) -> str | None:
        with self._write() as db:
            db.execute("DELETE FROM streams WHERE expires < ?", (now,))
            if db.execute("SELECT COUNT(*) FROM streams").fetchone()[0] >= total:
                return "total"
            if db.execute("SELECT COUNT(*) FROM streams WHERE client = ?", (client,)).fetchone()[0] >= per_client:
                return "client"
            db.execute("INSERT INTO streams (holder, client, expires) VALUES (?, ?, ?)", (holder, client, now + lease))
        return None

    def renew_stream(self, holder: str, now: float, lease: float) -> None:
        with self._write() as db:
            db.execute("UPDATE streams SET expires = ? WHERE holder = ?", (now + lease, holder))

    def release_stream(self, holder: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM streams WHERE holder = ?", (holder,))

    def forget(self, before: float) -> None:
        with self._write() as db:
            db.execute("DELETE FROM buckets WHERE at < ?", (before,))
