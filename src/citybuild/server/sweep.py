"""Matches leave memory when nobody needs them there: finished ones soon, abandoned ones after ``idle``.

A match in memory holds its whole history of positions (about a megabyte for a long game). A
finished match leaves memory once nobody has asked for it for ``FINISHED_KEPT`` seconds; a match in
play that nobody has asked for in ``idle`` seconds (``--idle``) is abandoned: it leaves memory and
the lobby's list of open matches. Both stay in the database, and a request for either rebuilds
it from there as after a restart. A match being watched (an open event stream) or in use (its
lock held) stays; one whose bot is thinking (outside the lock) may go, and the bot pool then plays
the reply in the copy loaded again (``Hall.answer_bots``). The sweep runs at most every ``EVERY``
seconds, after a request.
"""

from __future__ import annotations

import contextlib
from collections import Counter

from citybuild.server.hall import Hall
from citybuild.server.storage import STORE_ERRORS

FINISHED_KEPT = 60.0
"""Seconds a finished match stays in memory after its last request (its last views are asked for)."""
EVERY = 10.0
"""Seconds between sweeps."""


class Sweeper:
    """Sweeps ``hall``'s matches out of memory (``sweep``), at most every ``EVERY`` seconds (``due``)."""

    def __init__(self, hall: Hall, idle: float) -> None:
        self.hall = hall
        self.idle = idle
        self.watched: Counter[str] = Counter()
        """The matches with an open event stream, by id (the number of streams)."""
        self._last = 0.0

    def due(self, now: float) -> bool:
        """Whether a sweep is due; if so, the next one is ``EVERY`` seconds from ``now``."""
        if now - self._last < EVERY:
            return False
        self._last = now
        return True

    def sweep(self, now: float) -> list[str]:
        """Take out of memory every finished match unused for ``FINISHED_KEPT`` seconds and every
        match in play unused for ``idle`` seconds (and out of the lobby: abandoned); their ids."""
        hall = self.hall
        with hall._lock:
            rooms = list(hall._rooms.values())
        gone: list[str] = []
        abandoned: list[str] = []
        for room in rooms:
            if self.watched[room.id] or not room.lock.acquire(blocking=False):
                continue
            try:
                over = room.match.is_over
                with hall._lock:  # the lock under which a request finds a room and marks it used
                    if now - room.used < (FINISHED_KEPT if over else self.idle):
                        continue
                    hall._rooms.pop(room.id, None)
                gone.append(room.id)
                if not over and room.open:
                    abandoned.append(room.id)
            finally:
                room.lock.release()
        for match_id in abandoned:
            with contextlib.suppress(*STORE_ERRORS):  # the next sweep of the lobby (a listing) tries again
                hall.store.leave_lobby(match_id)
        return gone
