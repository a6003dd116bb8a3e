"""``citybuild serve``: bind the address, then run the application under uvicorn.

The socket is bound here, before uvicorn starts, so that an address in use (or not ours to bind)
is one clear line from the command line rather than a logged traceback; ``--port 0`` takes a free
port, and the line printed on start names the one taken.
"""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from citybuild.core.errors import CitybuildError
from citybuild.server.accepting import guard
from citybuild.server.faults import BUSY_TIMEOUT
from citybuild.server.quotas import Quotas, networks


class ServeError(CitybuildError):
    """The server cannot start: the address is taken, or the database cannot be opened."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; ``ServeError`` saying why not."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP: asyncio then sets TCP_NODELAY
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _log_to_stderr() -> None:
    """The operators' log (``citybuild.server``: faults, descriptors run out) on standard error, timed."""
    server_log = logging.getLogger("citybuild.server")
    if not server_log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s citybuild: %(message)s"))
        server_log.addHandler(handler)
        server_log.propagate = False


def serve(
    host: str,
    port: int,
    db: str,
    *,
    allow_seed: bool = False,
    sync: str = "normal",
    out: TextIO = sys.stdout,
    busy_timeout: float = BUSY_TIMEOUT,
    trusted_proxy: Sequence[str] = (),
    **limits: Any,
) -> None:
    """Run the server until interrupted; ``limits``: the fields of ``Quotas`` to set."""
    import sqlite3

    import uvicorn

    from citybuild.server.app import create_app

    if db != ":memory:" and not Path(db).resolve().parent.is_dir():
        raise ServeError(f"--db {db}: the directory {Path(db).resolve().parent} does not exist")
    try:
        quotas = Quotas(**limits, trusted_proxies=networks(trusted_proxy))
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    try:
        app = create_app(db, allow_seed=allow_seed, sync=sync, quotas=quotas, busy_timeout=busy_timeout)
    except sqlite3.Error as exc:
        raise ServeError(f"--db {db}: {exc}") from None
    _log_to_stderr()
    sock = guard(bind(host, port))  # out of file descriptors: 503s, and a log line a second at most
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"citybuild: serving http://{shown}:{bound}/ (database {db}); Ctrl-C stops", file=out, flush=True)
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=2, access_log=False, loop="asyncio"
    )  # asyncio's loop: the one that accepts through GuardedSocket.accept
    uvicorn.Server(config).run(sockets=[sock])
