"""Faults of the database, answered 503 with a clear message, never 500, and logged for operators.

A locked database (another process holding SQLite's write lock) is waited for ``busy_timeout``
seconds at most (``--busy-timeout``, SQLite's own ``busy_timeout``); then, until a write succeeds,
each write only looks whether the lock is gone (``Store._begin``), so a queue of requests cannot
stretch the wait: each answers 503 ``busy`` within about that time, and the server recovers by
itself once the lock goes. The store's own lock is waited for ``LOCK_SLACK`` seconds longer at most. A damaged file
(SQLite's "malformed" or "not a database") answers 503 ``damaged``. A stored history entry that no
longer replays (``DamagedRecord``) is logged with the match's id and the rules' reason, and
answered to clients only as "this match's record is damaged": the entry may be a secret move.
"""

from __future__ import annotations

import errno
import logging
import math
import sqlite3
import threading
import time
from types import TracebackType

from citybuild.server.problems import ApiError

BUSY_TIMEOUT = 0.5
"""Seconds a request waits for a database locked by another writer before its 503."""

LOCK_SLACK = 1.0
"""Seconds a request may wait for the store's connection beyond ``busy_timeout`` (others use it)."""

log = logging.getLogger("citybuild.server")

DAMAGED_RECORD = "this match's record is damaged; the server's operator has been told"


class Seldom:
    """Says whether a repeated log line is due: at most once every ``every`` seconds."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self._last = -math.inf

    def due(self, now: float) -> bool:
        if now - self._last < self.every:
            return False
        self._last = now
        return True


LOG_EVERY = 1.0
"""Seconds between log lines about file descriptors run out."""
DESCRIPTORS = Seldom(LOG_EVERY)
"""The one limiter of the lines about file descriptors run out, whoever finds it (a request, the
listening socket), so that together they say it at most once a second."""


class DamagedRecord(Exception):
    """A stored match that cannot be rebuilt: its record or an entry of its history no longer
    reads or replays. ``reason`` is for the operators' log only: it may quote a secret move."""

    def __init__(self, match_id: str, reason: str) -> None:
        super().__init__(f"match {match_id}: {reason}")
        self.match_id = match_id
        self.reason = reason


class BoundedLock:
    """A lock whose ``with`` waits ``timeout`` seconds at most, then raises the error SQLite raises
    for a locked database, so that the requests queued behind a stuck one fail as soon as it does."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._lock = threading.Lock()

    def __enter__(self) -> BoundedLock:
        if not self._lock.acquire(timeout=self.timeout):
            raise sqlite3.OperationalError("database is locked (the server's connection is busy)")
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._lock.release()


def database_error(exc: Exception) -> ApiError:
    """The 503 answer to a database error: busy (locked), damaged, or any other failure."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return ApiError(503, "busy", "the database is busy (locked by another writer); try again in a moment")
    log.error("database error: %s", exc)
    if "malformed" in text or "not a database" in text:
        return ApiError(503, "damaged", "the database is damaged; the server's operator has been told")
    return ApiError(503, "database", "the database failed to answer; try again later")


def os_error(exc: OSError) -> ApiError:
    """The 503 answer to a failure of the machine: out of file descriptors, or another I/O error."""
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        if DESCRIPTORS.due(time.monotonic()):
            log.error("out of file descriptors (the limit: ulimit -n) while answering a request")
        return ApiError(503, "busy", "the server is full; try again in a moment")
    log.error("I/O error: %s", exc)
    return ApiError(503, "io-error", "the server could not read or write a file; try again later")


def damaged_record(exc: DamagedRecord) -> ApiError:
    """The answer to a match that no longer rebuilds: logged in full, answered without a move."""
    log.error("damaged record: %s", exc)
    return ApiError(503, "damaged-record", DAMAGED_RECORD)


def retry_after(error: ApiError) -> dict[str, str]:
    """The ``Retry-After`` header of a 503 worth retrying soon: a busy database, a move not stored."""
    return {"Retry-After": "1"} if error.status == 503 and error.code in ("busy", "not-stored") else {}
