"""The listening socket, guarded against running out of file descriptors.

Past the process's file-descriptor limit, ``accept()`` fails with ``EMFILE`` while the new
connection waits in the kernel's queue. asyncio then logs the failure for every connection it
tries in a loop (hundreds of thousands of lines in half a minute) and answers nobody. A
``GuardedSocket`` keeps one descriptor in reserve: when ``accept()`` fails so, it frees the
reserve, takes the waiting connection, answers it ``503 Service Unavailable`` with
``Retry-After``, closes it and takes the reserve back; the event loop is told there was nothing to
accept. A waiting client so hears at once that the server is full, and the log says so at most
once a second (``LOG_EVERY``), with the count of connections answered so since the last line.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from citybuild.server import faults
from citybuild.server.faults import LOG_EVERY, log

OUT_OF_FILES = (errno.EMFILE, errno.ENFILE)

BODY = b'{"error": {"status": 503, "code": "no-file-descriptors", "message": "the server is full; try again soon"}}'
RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
    b"Connection: close\r\nContent-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY
)


class GuardedSocket(socket.socket):
    """A listening socket whose ``accept`` answers 503 when the process is out of file descriptors."""

    clock: Callable[[], float] = time.monotonic

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reserve: int | None = _reserve()
        self._refused = 0
        self._paused_until = -LOG_EVERY

    def accept(self) -> tuple[socket.socket, Any]:
        try:
            return super().accept()
        except OSError as exc:
            if exc.errno not in OUT_OF_FILES:
                raise
            if self._refuse_one():
                raise BlockingIOError(errno.EAGAIN, "out of file descriptors: a connection was answered 503") from None
            now = type(self).clock()
            if now < self._paused_until:  # asyncio stopped accepting for a second already
                raise BlockingIOError(errno.EAGAIN, "out of file descriptors") from None
            self._paused_until = now + LOG_EVERY
            raise  # not even the reserve helped: asyncio stops accepting for a second (its line is filtered)

    def _refuse_one(self) -> bool:
        """Answer one waiting connection 503 with the reserve descriptor; whether one was."""
        if self._reserve is None:
            self._reserve = _reserve()
            if self._reserve is None:
                self._tell()
                return False
        os.close(self._reserve)
        self._reserve = None
        try:
            conn, _ = super().accept()
        except OSError:
            self._reserve = _reserve()
            self._tell()
            return False
        try:
            conn.setblocking(False)
            with contextlib.suppress(OSError):  # what has come of the request: closing with it unread would reset
                conn.recv(65536)
            with contextlib.suppress(OSError):
                conn.send(RESPONSE)
                conn.shutdown(socket.SHUT_WR)
        finally:
            conn.close()
            self._reserve = _reserve()
        self._refused += 1
        self._tell()
        return True

    def _tell(self) -> None:
        """One log line, at most every ``LOG_EVERY`` seconds."""
        if not faults.DESCRIPTORS.due(type(self).clock()):
            return
        log.error(
            "out of file descriptors (the limit: ulimit -n); %d new connections answered 503 since the last line",
            self._refused,
        )
        self._refused = 0

    def close(self) -> None:
        if self._reserve is not None:
            os.close(self._reserve)
            self._reserve = None
        super().close()


class _SaidAlready(logging.Filter):
    """Drops asyncio's line for an ``accept()`` out of descriptors: ``GuardedSocket`` says it once a second."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("socket.accept() out of system resource")


def guard(sock: socket.socket) -> GuardedSocket:
    """The listening socket ``sock`` as a ``GuardedSocket`` (the same descriptor)."""
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _SaidAlready) for f in asyncio_log.filters):
        asyncio_log.addFilter(_SaidAlready())
    guarded = GuardedSocket(sock.family, sock.type, sock.proto, fileno=sock.detach())
    guarded.set_inheritable(True)
    return guarded


def _reserve() -> int | None:
    try:
        return os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None
