"""Matches in PostgreSQL (psycopg 3), one database shared by every worker process of a server.

The tables are SQLite's (``citybuild.server.store``) with two more things. Each match row has a
``revision``, raised in the same transaction as every change of the match (a history entry
stored or taken back, a seat taken, a rematch made), and the change is announced with
``NOTIFY citybuild`` as ``"<match> <revision>"``; every worker listens, so a watcher connected to
one worker hears of a move played through another. ``hold(match)`` takes the match's advisory
lock (``pg_advisory_lock``, on a connection kept for the hold): moves on one match are applied one
at a time across all workers, and a worker whose copy is older than the revision rebuilds it. A
lock dies with its connection, so a killed worker holds nothing.

``bot_jobs`` holds one row per match whose bots may be to move. A bot thread takes one with
``SELECT ... FOR UPDATE SKIP LOCKED`` in a transaction that stays open while it plays, and
deletes the row (committing) once no bot is to act; a worker killed meanwhile rolls back, the row
is free again, and another worker takes it (``NOTIFY citybuild_jobs`` wakes the idle threads; they
also look every ``JOB_POLL`` seconds).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import attrs
import psycopg
import psycopg.errors

from citybuild.core.errors import CitybuildError
from citybuild.record import GameRecord, RecordEntry
from citybuild.serialize import from_json, to_json
from citybuild.server.faults import DamagedRecord
from citybuild.server.pgcounters import COUNTERS_SCHEMA, PgCounters
from citybuild.server.storage import Held, StoreConflict, StoreError
from citybuild.server.store import NewRoom, Stored

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS matches (id TEXT PRIMARY KEY, record TEXT NOT NULL, bots TEXT NOT NULL, "
    "created DOUBLE PRECISION NOT NULL, revision BIGINT NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS seats (match TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, "
    "token_sha256 TEXT NOT NULL, PRIMARY KEY (match, seat))",
    "CREATE TABLE IF NOT EXISTS invites (match TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, "
    "code_sha256 TEXT NOT NULL, PRIMARY KEY (match, seat))",
    "CREATE TABLE IF NOT EXISTS lobby (match TEXT PRIMARY KEY REFERENCES matches(id), listed BOOLEAN NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rematches (match TEXT PRIMARY KEY REFERENCES matches(id), "
    "rematch TEXT NOT NULL REFERENCES matches(id))",
    "CREATE TABLE IF NOT EXISTS moves (match TEXT NOT NULL REFERENCES matches(id), idx INTEGER NOT NULL, "
    "player INTEGER, move TEXT NOT NULL, PRIMARY KEY (match, idx))",
    "CREATE TABLE IF NOT EXISTS bot_jobs (match TEXT PRIMARY KEY REFERENCES matches(id), "
    "due DOUBLE PRECISION NOT NULL)",
)
SCHEMA_LOCK = 0x63697479
"""The advisory lock under which a starting worker creates the tables (workers start together)."""
POOL = 32
"""Connections a worker opens at most for its requests (each hold keeps one)."""
LOCK_TIMEOUT_MS = 5000
"""How long a statement waits for a lock before the request is answered 503."""
JOB_POLL = 1.0
"""Seconds between an idle bot thread's looks for jobs nobody announced (a killed worker's)."""


class PgStore(PgCounters):
    """The database of a server of one or more workers, at a ``postgresql://`` URL (the limits'
    counters: ``PgCounters``)."""

    shared = True

    def __init__(self, url: str, *, pool: int = POOL, lock_timeout_ms: int = LOCK_TIMEOUT_MS) -> None:
        self.url = url
        self._options = f"-c lock_timeout={int(lock_timeout_ms)}"
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(pool)
        self._local = threading.local()
        self._listeners: list[Callable[[str, int], None]] = []
        self._listening: threading.Thread | None = None
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._start = threading.Lock()
        with self._errors(), self._connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA + COUNTERS_SCHEMA:
                conn.execute(statement)

    # --- connections ----------------------------------------------------------------------------
    def _connect(self, autocommit: bool = True) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=autocommit, connect_timeout=5, options=self._options)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection of the thread's hold, or one from the pool (opened when none is idle)."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        if not self._slots.acquire(timeout=LOCK_TIMEOUT_MS / 1000):
            raise StoreError("the database is busy: every connection of this worker is in use")
        try:
            try:
                conn = self._idle.get_nowait()
            except queue.Empty:
                conn = self._connect()
            try:
                yield conn
            finally:
                if conn.broken or conn.closed:
                    conn.close()
                else:
                    self._idle.put(conn)
        finally:
            self._slots.release()

    @staticmethod
    @contextmanager
    def _errors() -> Iterator[None]:
        """psycopg's errors as the store's: a unique key violated is a conflict, the rest a failure."""
        try:
            yield
        except psycopg.errors.UniqueViolation as exc:
            raise StoreConflict(str(exc).splitlines()[0]) from None
        except psycopg.errors.LockNotAvailable:
            raise StoreError("the database is busy: a match's lock was waited for too long") from None
        except psycopg.Error as exc:
            raise StoreError((str(exc).splitlines() or [type(exc).__name__])[0]) from None

    def close(self) -> None:
        self._closed.set()
        self._wake.set()
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                break

    # --- matches --------------------------------------------------------------------------------
    def _changed(self, conn: psycopg.Connection[Any], match_id: str) -> None:
        """Raise the match's revision and announce it (both at the commit of the caller's transaction)."""
        row = conn.execute(
            "UPDATE matches SET revision = revision + 1 WHERE id = %s RETURNING revision", (match_id,)
        ).fetchone()
        if row is None:
            return
        conn.execute("SELECT pg_notify('citybuild', %s)", (f"{match_id} {row[0]}",))
        self._raised(match_id, row[0])

    def _raised(self, match_id: str, revision: int | None) -> None:
        """A write of this thread raised the match's revision: the hold it is made under knows it."""
        held = getattr(self._local, "held", None)
        if revision is not None and held is not None and held.match_id == match_id:
            held.revision = revision

    def create(self, match_id: str, record: GameRecord, new: NewRoom) -> float:
        opening = attrs.evolve(record, moves=())
        created = time.time()
        bots = json.dumps({str(k): v for k, v in new.bots.items()})
        with self._errors(), self._connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO matches (id, record, bots, created) VALUES (%s, %s, %s, %s)",
                (match_id, to_json(opening), bots, created),
            )
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO seats (match, seat, token_sha256) VALUES (%s, %s, %s)",
                    [(match_id, seat, d) for seat, d in enumerate(new.digests) if d is not None],
                )
                cur.executemany(
                    "INSERT INTO invites (match, seat, code_sha256) VALUES (%s, %s, %s)",
                    [(match_id, seat, d) for seat, d in enumerate(new.invites) if d is not None],
                )
            if new.open:
                conn.execute("INSERT INTO lobby (match, listed) VALUES (%s, TRUE)", (match_id,))
            if new.rematch_of is not None:
                conn.execute("INSERT INTO rematches (match, rematch) VALUES (%s, %s)", (new.rematch_of, match_id))
                self._changed(conn, new.rematch_of)
            self._append(conn, match_id, 0, record.moves)
        return created

    def join(self, match_id: str, seat: int, token_digest: str, *, full: bool) -> None:
        with self._errors(), self._connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO seats (match, seat, token_sha256) VALUES (%s, %s, %s)", (match_id, seat, token_digest)
            )
            conn.execute("DELETE FROM invites WHERE match = %s AND seat = %s", (match_id, seat))
            if full:
                conn.execute("UPDATE lobby SET listed = FALSE WHERE match = %s", (match_id,))
            self._changed(conn, match_id)

    def lobby(self, limit: int) -> list[str]:
        with self._errors(), self._connection() as conn:
            rows = conn.execute(
                "SELECT lobby.match FROM lobby JOIN matches ON matches.id = lobby.match WHERE listed "
                "ORDER BY matches.created DESC, matches.id LIMIT %s",
                (limit,),
            ).fetchall()
        return [r[0] for r in rows]

    def leave_lobby(self, match_id: str) -> None:
        with self._errors(), self._connection() as conn:
            conn.execute("UPDATE lobby SET listed = FALSE WHERE match = %s", (match_id,))

    def append(self, match_id: str, start: int, entries: Sequence[RecordEntry]) -> None:
        """The entries stored, the revision raised and announced: one statement, one round trip."""
        if not entries:
            return
        with self._errors(), self._connection() as conn:
            row = conn.execute(
                "WITH stored AS (INSERT INTO moves (match, idx, player, move) "
                "SELECT %(m)s, idx, player, move FROM unnest(%(idx)s::int[], %(player)s::int[], %(move)s::text[]) "
                "AS e(idx, player, move)), "
                "raised AS (UPDATE matches SET revision = revision + 1 WHERE id = %(m)s RETURNING revision) "
                "SELECT revision, pg_notify('citybuild', %(m)s || ' ' || revision) FROM raised",
                {
                    "m": match_id,
                    "idx": [start + i for i in range(len(entries))],
                    "player": [e.player for e in entries],
                    "move": [e.move for e in entries],
                },
            ).fetchone()
        self._raised(match_id, row[0] if row is not None else None)

    def truncate(self, match_id: str, length: int) -> None:
        with self._errors(), self._connection() as conn, conn.transaction():
            conn.execute("DELETE FROM moves WHERE match = %s AND idx >= %s", (match_id, length))
            self._changed(conn, match_id)

    @staticmethod
    def _append(conn: psycopg.Connection[Any], match_id: str, start: int, entries: Sequence[RecordEntry]) -> None:
        if entries:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO moves (match, idx, player, move) VALUES (%s, %s, %s, %s)",
                    [(match_id, start + i, e.player, e.move) for i, e in enumerate(entries)],
                )

    def load(self, match_id: str) -> Stored | None:
        with self._errors(), self._connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT record, bots, created, revision FROM matches WHERE id = %s", (match_id,)
            ).fetchone()
            if row is None:
                return None
            seats = conn.execute("SELECT seat, token_sha256 FROM seats WHERE match = %s", (match_id,)).fetchall()
            invited = conn.execute("SELECT seat, code_sha256 FROM invites WHERE match = %s", (match_id,)).fetchall()
            listed = conn.execute("SELECT 1 FROM lobby WHERE match = %s", (match_id,)).fetchone()
            rematch = conn.execute("SELECT rematch FROM rematches WHERE match = %s", (match_id,)).fetchone()
            moves = conn.execute(
                "SELECT player, move FROM moves WHERE match = %s ORDER BY idx", (match_id,)
            ).fetchall()
        try:
            opening: GameRecord = from_json(row[0])
            record = attrs.evolve(opening, moves=tuple(RecordEntry(p, m) for p, m in moves))
            bots = {int(seat): text for seat, text in json.loads(row[1]).items()}
        except (CitybuildError, ValueError, TypeError, AttributeError, IndexError, KeyError) as exc:
            raise DamagedRecord(match_id, f"the stored record does not read: {exc}") from None
        players = record.players
        return Stored(
            match_id,
            record,
            bots,
            tuple(dict(seats).get(p) for p in range(players)),
            tuple(dict(invited).get(p) for p in range(players)),
            open=listed is not None,
            rematch=rematch[0] if rematch is not None else None,
            created=row[2],
            revision=row[3],
        )

    def ids(self) -> list[str]:
        with self._errors(), self._connection() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM matches ORDER BY created, id").fetchall()]

    # --- one match at a time, across workers ------------------------------------------------------
    @contextmanager
    def hold(self, match_id: str, *, write: bool = True) -> Iterator[Held]:
        """The match's lock across every worker, with its revision; writes made meanwhile go
        through the lock's connection and update the revision held. ``write=False``: the revision
        alone (a read sees the last change committed, and waits for nobody)."""
        outer_conn, outer_held = getattr(self._local, "conn", None), getattr(self._local, "held", None)
        self._local.conn = None
        with self._errors(), self._connection() as conn:
            if write:
                conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (match_id,))
            try:
                row = conn.execute("SELECT revision FROM matches WHERE id = %s", (match_id,)).fetchone()
                held = Held(match_id, row[0] if row is not None else None)
                self._local.conn, self._local.held = conn, held
                yield held
            finally:
                self._local.conn, self._local.held = outer_conn, outer_held
                if write and not conn.broken:
                    conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (match_id,))

    # --- bot jobs -------------------------------------------------------------------------------
    def add_job(self, match_id: str) -> None:
        with self._errors(), self._connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO bot_jobs (match, due) VALUES (%s, %s) ON CONFLICT DO NOTHING", (match_id, time.time())
            )
            conn.execute("SELECT pg_notify('citybuild_jobs', %s)", (match_id,))
        self._wake.set()

    def take_job(self, wait: float) -> str | None:
        """A match whose bots may be to move, its job row locked by this thread's transaction
        until ``finish_job`` or ``release_job``; None if none came within ``wait`` seconds."""
        self._listen()
        for attempt in range(2):
            with self._errors():
                conn = self._job_connection()
                row = conn.execute(
                    "SELECT match FROM bot_jobs ORDER BY due LIMIT 1 FOR UPDATE SKIP LOCKED"
                ).fetchone()
                if row is not None:
                    return str(row[0])
                conn.rollback()
            if attempt == 0 and not self._closed.is_set():
                self._wake.wait(wait)
                self._wake.clear()
        return None

    def finish_job(self, match_id: str) -> None:
        with self._errors():
            conn = self._job_connection()
            conn.execute("DELETE FROM bot_jobs WHERE match = %s", (match_id,))
            conn.commit()

    def release_job(self) -> None:
        with self._errors():
            self._job_connection().rollback()

    def _job_connection(self) -> psycopg.Connection[Any]:
        """The thread's own connection for jobs (a transaction open on it holds a job)."""
        conn: psycopg.Connection[Any] | None = getattr(self._local, "jobs", None)
        if conn is None or conn.broken or conn.closed:
            conn = self._connect(autocommit=False)
            self._local.jobs = conn
        return conn

    # --- hearing of other workers' changes ------------------------------------------------------
    def on_change(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(match, revision)`` (on the listening thread) for each change announced."""
        self._listeners.append(listener)
        self._listen()

    def _listen(self) -> None:
        with self._start:
            if self._listening is None:
                self._listening = threading.Thread(target=self._hear, name="citybuild-listen", daemon=True)
                self._listening.start()

    def _hear(self) -> None:
        while not self._closed.is_set():
            try:
                with self._connect() as conn:
                    conn.execute("LISTEN citybuild")
                    conn.execute("LISTEN citybuild_jobs")
                    self._wake.set()  # jobs announced while nobody listened
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._heard(note.channel, note.payload)
            except psycopg.Error:
                self._closed.wait(1.0)

    def _heard(self, channel: str, payload: str) -> None:
        if channel == "citybuild_jobs":
            self._wake.set()
            return
        match_id, _, revision = payload.rpartition(" ")
        for listener in self._listeners:
            try:
                listener(match_id, int(revision))
            except Exception:  # a listener's failure must not stop the hearing
                continue
