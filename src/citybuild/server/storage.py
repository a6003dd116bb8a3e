"""What the server asks of a database, so that SQLite and PostgreSQL serve it alike.

``MatchStore`` is the protocol both stores implement (``citybuild.server.store.Store`` over a
SQLite file, ``citybuild.server.pgstore.PgStore`` over PostgreSQL; ``citybuild.server.database``
picks one from the ``--database`` text).

A store that several worker processes share (``shared``) serialises each match in the database:
``hold(match)`` waits for the match's lock and answers its revision, a number every change of the
match raises, so a worker whose copy in memory is older rebuilds it first (``write=False``, for a
read: the revision alone, without waiting for the lock). A store not shared
(SQLite: one process) answers ``None`` and its lock is the process's own.

Bots' replies are jobs: ``add_job`` records that a match may have bots to move, a bot thread takes
one with ``take_job`` (no other thread or worker gets it while it is held) and ``finish_job``
removes it once no bot is to act. A job held by a worker that dies is free again at once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from citybuild.record import GameRecord, RecordEntry
    from citybuild.server.store import NewRoom, Stored


class StoreError(Exception):
    """The database refused or failed a request (answered 503: nothing was changed)."""


class StoreConflict(StoreError):
    """A row exists already: a seat taken, a history entry stored twice."""


STORE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, StoreError)
"""What a store may raise when the database fails."""
CONFLICTS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, StoreConflict)
"""What a store raises when a row it is asked to add exists already."""


class MatchStore(Protocol):
    """The database of a server: matches, seats, invites, the lobby, history entries, bot jobs,
    the limits' counters."""

    shared: bool
    """Whether several processes may serve from it at once."""

    def close(self) -> None: ...
    def create(self, match_id: str, record: GameRecord, new: NewRoom) -> float: ...
    def join(self, match_id: str, seat: int, token_digest: str, *, full: bool) -> None: ...
    def lobby(self, limit: int) -> list[str]: ...
    def leave_lobby(self, match_id: str) -> None: ...
    def append(self, match_id: str, start: int, entries: Sequence[RecordEntry]) -> None: ...
    def truncate(self, match_id: str, length: int) -> None: ...
    def load(self, match_id: str) -> Stored | None: ...
    def ids(self) -> list[str]: ...
    def hold(self, match_id: str, *, write: bool = True) -> AbstractContextManager[Held]: ...
    def add_job(self, match_id: str) -> None: ...
    def take_job(self, wait: float) -> str | None: ...
    def finish_job(self, match_id: str) -> None: ...
    def release_job(self) -> None: ...
    def on_change(self, listener: Callable[[str, int], None]) -> None: ...
    # the limits' counters (``citybuild.server.counters``), shared by every worker
    def take(self, key: str, rate: float, burst: float, now: float) -> float: ...
    def hold_stream(
        self, holder: str, client: str, total: int, per_client: int, now: float, lease: float
    ) -> str | None: ...
    def renew_stream(self, holder: str, now: float, lease: float) -> None: ...
    def release_stream(self, holder: str) -> None: ...
    def forget(self, before: float) -> None: ...


class Held:
    """A match's lock, held: its revision when taken (None: the store keeps none) and after the
    writes made while holding it."""

    def __init__(self, match_id: str, revision: int | None) -> None:
        self.match_id = match_id
        self.revision = revision
