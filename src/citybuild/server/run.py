"""``citybuild serve``: bind the address, then run the application under uvicorn (in this
process, or in ``--workers`` forked worker processes sharing a PostgreSQL database).

The socket is bound here, before uvicorn starts, so that an address in use (or not ours to bind)
is one clear line from the command line rather than a logged traceback; ``--port 0`` takes a free
port, and the line printed on start names the one taken.
"""

from __future__ import annotations

import logging
import re
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


def _log_to_stderr(verbose: bool = False) -> None:
    """The operators' log (``citybuild.server``: faults, descriptors run out, bots cut short by
    their budget) on standard error, timed; ``verbose``: each searching bot's decision time too."""
    server_log = logging.getLogger("citybuild.server")
    if verbose:
        server_log.setLevel(logging.INFO)
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
    workers: int = 1,
    out: TextIO = sys.stdout,
    busy_timeout: float = BUSY_TIMEOUT,
    trusted_proxy: Sequence[str] = (),
    verbose: bool = False,
    **limits: Any,
) -> None:
    """Run the server until interrupted: over the SQLite file or PostgreSQL URL ``db``, in
    ``workers`` processes (more than one needs PostgreSQL); ``limits``: the fields of ``Quotas``;
    ``verbose``: log each searching bot's decision time."""
    import uvicorn

    from citybuild.server.app import create_app
    from citybuild.server.database import is_postgres
    from citybuild.server.storage import STORE_ERRORS

    shared = is_postgres(db)
    if workers < 1:
        raise ServeError(f"--workers {workers}: at least one worker serves")
    if workers > 1 and not shared:
        raise ServeError(
            f"--workers {workers} needs a PostgreSQL database (--database postgresql://...): "
            "a SQLite file is served by one process"
        )
    if not shared and db != ":memory:" and not Path(db).resolve().parent.is_dir():
        raise ServeError(f"--database {db}: the directory {Path(db).resolve().parent} does not exist")
    shown_db = _without_password(db)
    try:
        quotas = Quotas(**limits, trusted_proxies=networks(trusted_proxy))
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    options: dict[str, Any] = {"allow_seed": allow_seed, "sync": sync, "quotas": quotas, "busy_timeout": busy_timeout}
    try:
        app = create_app(db, **options) if workers == 1 else None
        if app is None:  # checked (and its tables made) before the workers start
            from citybuild.server.pgstore import PgStore

            PgStore(db).close()
    except (*STORE_ERRORS, ImportError) as exc:  # type: ignore[misc]
        raise ServeError(f"--database {shown_db}: {exc}") from None
    _log_to_stderr(verbose)
    sock = guard(bind(host, port))  # out of file descriptors: 503s, and a log line a second at most
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    many = f", {workers} workers" if workers > 1 else ""
    print(f"citybuild: serving http://{shown}:{bound}/ (database {shown_db}{many}); Ctrl-C stops", file=out, flush=True)

    def serve_one() -> None:
        config = uvicorn.Config(
            app or create_app(db, **options),
            log_level="warning",
            timeout_graceful_shutdown=2,
            access_log=False,
            loop="asyncio",  # asyncio's loop: the one that accepts through GuardedSocket.accept
        )
        uvicorn.Server(config).run(sockets=[sock])

    if workers == 1:
        serve_one()
        return
    from citybuild.server.prefork import run_workers

    run_workers(sock, workers, serve_one, out)


def _without_password(db: str) -> str:
    """The database as shown on screen: a URL's password replaced by ***."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", db)
