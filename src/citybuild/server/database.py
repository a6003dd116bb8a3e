"""Which store a ``--database`` text names: a ``postgresql://`` URL, or else a SQLite file."""

from __future__ import annotations

from pathlib import Path

from citybuild.server.faults import BUSY_TIMEOUT
from citybuild.server.storage import MatchStore


def is_postgres(database: str | Path) -> bool:
    """Whether ``database`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return str(database).startswith(("postgresql://", "postgres://"))


def open_store(database: str | Path, *, sync: str = "normal", busy_timeout: float = BUSY_TIMEOUT) -> MatchStore:
    """The store of ``database``: PostgreSQL for a ``postgresql://`` URL (``StoreError`` if it
    cannot be reached; psycopg comes with the server extra), else the SQLite file at that path
    (``":memory:"``: a throw-away one). ``busy_timeout``: seconds a request waits for a lock (a
    SQLite file locked by another writer; a PostgreSQL match held by another request) before 503."""
    if is_postgres(database):
        from citybuild.server.pgstore import PgStore

        return PgStore(str(database), lock_timeout_ms=max(1, round(busy_timeout * 1000)))
    from citybuild.server.store import Store

    return Store(database, sync=sync, busy_timeout=busy_timeout)
