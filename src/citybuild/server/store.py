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

A match is rebuilt by replaying its stored entries (``citybuild.replay``): chance outcomes come
from the rows, the rest of the game from the match's seeded generator as before.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import attrs

from citybuild.record import GameRecord, RecordEntry
from citybuild.serialize import from_json, to_json

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
    """A match as the database holds it: its record so far, its bots by seat, its seats' token hashes."""

    id: str
    record: GameRecord
    bots: dict[int, str]
    digests: tuple[str | None, ...]


class Store:
    """The database of one server. Thread-safe: one connection, used under a lock."""

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        if sync not in SYNC:
            raise ValueError(f"sync must be one of {', '.join(SYNC)}, not {sync!r}")
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back if it raises."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create(self, match_id: str, record: GameRecord, bots: dict[int, str], digests: Sequence[str | None]) -> None:
        """Store a new match: its record at creation (the opening's chance outcomes are its first entries)."""
        opening = attrs.evolve(record, moves=())
        with self._write() as db:
            db.execute(
                "INSERT INTO matches (id, record, bots, created) VALUES (?, ?, ?, ?)",
                (match_id, to_json(opening), json.dumps({str(k): v for k, v in bots.items()}), time.time()),
            )
            db.executemany(
                "INSERT INTO seats (match, seat, token_sha256) VALUES (?, ?, ?)",
                [(match_id, seat, d) for seat, d in enumerate(digests) if d is not None],
            )
            self._append(db, match_id, 0, record.moves)

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
            row = self._db.execute("SELECT record, bots FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, token_sha256 FROM seats WHERE match = ?", (match_id,)).fetchall()
            moves = self._db.execute(
                "SELECT player, move FROM moves WHERE match = ? ORDER BY idx", (match_id,)
            ).fetchall()
        opening: GameRecord = from_json(row[0])
        record = attrs.evolve(opening, moves=tuple(RecordEntry(p, m) for p, m in moves))
        digests: list[str | None] = [None] * record.players
        for seat, stored in seats:
            digests[seat] = stored
        bots = {int(seat): text for seat, text in json.loads(row[1]).items()}
        return Stored(match_id, record, bots, tuple(digests))

    def ids(self) -> list[str]:
        """Every stored match id, oldest first."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY created, id")]
