"""Matches on disk: SQLite (the standard library's), one row per match, seat and history entry.

A match row holds its record as it stood at creation (game, preset, players, rule options, seed,
the chance outcomes of the opening), with the bots' texts; every later entry of its history (a
player's move, or a chance outcome with no player) is a row of ``moves`` numbered from 0. The
pair (match, index) is the primary key, so even two processes writing one database could never
store two entries for one step. Entries are appended in ``BEGIN IMMEDIATE`` transactions and
committed before the server answers. The journal is write-ahead (WAL). With ``sync="normal"`` (the
default) a commit is in the operating system's hands when it returns, so a killed or crashed
server loses nothing it has answered; only a crash of the machine itself (power loss) may lose the
last commits. ``sync="full"`` waits for the disk at every commit as well (an fsync: about 6 ms per
move on the machine of the benchmark, and commits queue behind it).

A seat's token hash is stored when the seat is taken: at creation for the creator's seat (and,
in a rematch, every seat that held the match before), later when a player joins. ``invites``
holds the SHA-256 of each seat's unused invite code (the row goes when the seat is taken),
``lobby`` the matches created open for anyone to join (``listed`` while a seat is free),
``rematches`` each finished match's rematch.

A match is rebuilt by replaying its stored entries (``citybuild.replay``): chance outcomes come
from the rows, the rest of the game from the match's seeded generator as before.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import attrs

from citybuild.core.errors import CitybuildError
from citybuild.record import GameRecord, RecordEntry
from citybuild.serialize import from_json, to_json
from citybuild.server.counters import COUNTERS_SCHEMA, Counters
from citybuild.server.faults import BUSY_TIMEOUT, LOCK_SLACK, BoundedLock, DamagedRecord
from citybuild.server.storage import Held

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    bots TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS invites (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    code_sha256 TEXT NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS lobby (
    match TEXT PRIMARY KEY REFERENCES matches(id),
    listed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rematches (
    match TEXT PRIMARY KEY REFERENCES matches(id),
    rematch TEXT NOT NULL REFERENCES matches(id)
);
CREATE TABLE IF NOT EXISTS moves (
    match TEXT NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    player INTEGER,
    move TEXT NOT NULL,
    PRIMARY KEY (match, idx)
);
"""

SYNC = ("normal", "full")
"""The synchronisation levels a store offers (SQLite's ``PRAGMA synchronous``)."""


@attrs.frozen
class Stored:
    """A match as the database holds it: its record so far, its bots by seat, its seats' token
    hashes, its unused invites' hashes, whether it is open, its rematch and when it was created."""

    id: str
    record: GameRecord
    bots: dict[int, str]
    digests: tuple[str | None, ...]
    invites: tuple[str | None, ...] = ()
    open: bool = False
    rematch: str | None = None
    created: float = 0.0
    revision: int | None = None
    """The number every change raises, in a store several workers share (None in SQLite's)."""


@attrs.frozen
class NewRoom:
    """What a new match stores besides its record: bots, seats' token hashes, invites' hashes,
    whether it is open, and the finished match it is the rematch of."""

    bots: dict[int, str]
    digests: Sequence[str | None]
    invites: Sequence[str | None] = ()
    open: bool = False
    rematch_of: str | None = None


class Store(Counters):
    """The database of one server. Thread-safe: one connection, used under a lock. A database
    locked by another writer is waited for ``busy_timeout`` seconds at most (``faults``); the
    limits' counters are ``Counters``. One process only (``shared`` is false): its bot jobs are
    kept in memory, found again when a match loads."""

    shared = False

    def __init__(self, path: str | Path, sync: str = "normal", busy_timeout: float = BUSY_TIMEOUT) -> None:
        if sync not in SYNC:
            raise ValueError(f"sync must be one of {', '.join(SYNC)}, not {sync!r}")
        self.path = str(path)
        self.busy_timeout = busy_timeout
        self._lock = BoundedLock(busy_timeout + LOCK_SLACK)
        self._busy_until = 0.0
        self._db = sqlite3.connect(self.path, timeout=busy_timeout, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA + COUNTERS_SCHEMA)
        self._jobs: dict[str, bool] = {}  # match -> taken
        self._job_ready = threading.Condition()
        self._taken = threading.local()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back if it raises.
        Within ``busy_timeout`` of finding the database locked, a write only looks whether the lock
        is gone (a wait of 0), so the requests that queued meanwhile answer at once."""
        with self._lock:
            self._begin()
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _begin(self) -> None:
        quick = time.monotonic() < self._busy_until
        if quick:
            self._db.execute("PRAGMA busy_timeout = 0")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            self._busy_until = time.monotonic() + self.busy_timeout
            raise
        finally:
            if quick:
                self._db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        self._busy_until = 0.0

    def create(self, match_id: str, record: GameRecord, new: NewRoom) -> float:
        """Store a new match: its record at creation (the opening's chance outcomes are its first
        entries); answers the time it was created (seconds since the epoch)."""
        opening = attrs.evolve(record, moves=())
        created = time.time()
        with self._write() as db:
            db.execute(
                "INSERT INTO matches (id, record, bots, created) VALUES (?, ?, ?, ?)",
                (match_id, to_json(opening), json.dumps({str(k): v for k, v in new.bots.items()}), created),
            )
            db.executemany(
                "INSERT INTO seats (match, seat, token_sha256) VALUES (?, ?, ?)",
                [(match_id, seat, d) for seat, d in enumerate(new.digests) if d is not None],
            )
            db.executemany(
                "INSERT INTO invites (match, seat, code_sha256) VALUES (?, ?, ?)",
                [(match_id, seat, d) for seat, d in enumerate(new.invites) if d is not None],
            )
            if new.open:
                db.execute("INSERT INTO lobby (match, listed) VALUES (?, 1)", (match_id,))
            if new.rematch_of is not None:
                db.execute("INSERT INTO rematches (match, rematch) VALUES (?, ?)", (new.rematch_of, match_id))
            self._append(db, match_id, 0, record.moves)
        return created

    def join(self, match_id: str, seat: int, token_digest: str, *, full: bool) -> None:
        """A player takes ``seat``: its token's hash is stored and its invite forgotten;
        ``full``: no seat is free any more, so the match is no longer listed.
        ``sqlite3.IntegrityError`` if the seat is taken already."""
        with self._write() as db:
            db.execute("INSERT INTO seats (match, seat, token_sha256) VALUES (?, ?, ?)", (match_id, seat, token_digest))
            db.execute("DELETE FROM invites WHERE match = ? AND seat = ?", (match_id, seat))
            if full:
                db.execute("UPDATE lobby SET listed = 0 WHERE match = ?", (match_id,))

    def lobby(self, limit: int) -> list[str]:
        """The ids of the open matches, newest first, at most ``limit``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT lobby.match FROM lobby JOIN matches ON matches.id = lobby.match WHERE listed = 1 "
                "ORDER BY matches.created DESC, matches.id LIMIT ?",
                (limit,),
            ).fetchall()
        return [r[0] for r in rows]

    def leave_lobby(self, match_id: str) -> None:
        """The match is no longer listed as open (it is full, or over)."""
        with self._write() as db:
            db.execute("UPDATE lobby SET listed = 0 WHERE match = ?", (match_id,))

    def append(self, match_id: str, start: int, entries: Sequence[RecordEntry]) -> None:
        """Store history entries ``start``, ``start + 1``, ...; ``sqlite3.IntegrityError`` if one exists."""
        if entries:
            with self._write() as db:
                self._append(db, match_id, start, entries)

    def truncate(self, match_id: str, length: int) -> None:
        """Forget the history entries from ``length`` on (a seat's undo took them back)."""
        with self._write() as db:
            db.execute("DELETE FROM moves WHERE match = ? AND idx >= ?", (match_id, length))

    @staticmethod
    def _append(db: sqlite3.Connection, match_id: str, start: int, entries: Sequence[RecordEntry]) -> None:
        db.executemany(
            "INSERT INTO moves (match, idx, player, move) VALUES (?, ?, ?, ?)",
            [(match_id, start + i, e.player, e.move) for i, e in enumerate(entries)],
        )

    def load(self, match_id: str) -> Stored | None:
        """The stored match, or None when there is none with this id."""
        with self._lock:
            row = self._db.execute("SELECT record, bots, created FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, token_sha256 FROM seats WHERE match = ?", (match_id,)).fetchall()
            invited = self._db.execute("SELECT seat, code_sha256 FROM invites WHERE match = ?", (match_id,)).fetchall()
            listed = self._db.execute("SELECT 1 FROM lobby WHERE match = ?", (match_id,)).fetchone()
            rematch = self._db.execute("SELECT rematch FROM rematches WHERE match = ?", (match_id,)).fetchone()
            moves = self._db.execute(
                "SELECT player, move FROM moves WHERE match = ? ORDER BY idx", (match_id,)
            ).fetchall()
        try:
            opening: GameRecord = from_json(row[0])
            record = attrs.evolve(opening, moves=tuple(RecordEntry(p, m) for p, m in moves))
            return Stored(
                match_id,
                record,
                {int(seat): text for seat, text in json.loads(row[1]).items()},
                _by_seat(seats, record.players),
                _by_seat(invited, record.players),
                open=listed is not None,
                rematch=rematch[0] if rematch is not None else None,
                created=row[2],
            )
        except (CitybuildError, ValueError, TypeError, AttributeError, IndexError, KeyError) as exc:
            raise DamagedRecord(match_id, f"the stored record does not read: {exc}") from None

    def ids(self) -> list[str]:
        """Every stored match id, oldest first."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY created, id")]


    @contextmanager
    def hold(self, match_id: str, *, write: bool = True) -> Iterator[Held]:
        """One process: the match's lock in memory is the only one needed; no revision."""
        yield Held(match_id, None)

    def add_job(self, match_id: str) -> None:
        with self._job_ready:
            self._jobs.setdefault(match_id, False)
            self._job_ready.notify()

    def take_job(self, wait: float) -> str | None:
        """A match whose bots may be to move, taken by this thread; None if none came within ``wait``."""
        with self._job_ready:
            free = self._job_ready.wait_for(lambda: next((m for m, t in self._jobs.items() if not t), None), wait)
            if free is None:
                return None
            self._jobs[free] = True
            self._taken.match = free
            return free

    def finish_job(self, match_id: str) -> None:
        with self._job_ready:
            self._jobs.pop(match_id, None)
            self._taken.match = None

    def release_job(self) -> None:
        """The thread's job goes back, untaken (its bots could not be played now)."""
        with self._job_ready:
            match = getattr(self._taken, "match", None)
            if match is not None and match in self._jobs:
                self._jobs[match] = False
            self._taken.match = None

    def on_change(self, listener: Callable[[str, int], None]) -> None:
        """One process: every change is made here, so there is nobody else to hear of."""


def _by_seat(rows: Sequence[tuple[int, str]], players: int) -> tuple[str | None, ...]:
    """Hashes by seat (None where a seat has none) from (seat, hash) rows."""
    out: list[str | None] = [None] * players
    for seat, stored in rows:
        out[seat] = stored
    return tuple(out)
