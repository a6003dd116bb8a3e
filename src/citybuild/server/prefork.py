"""Several worker processes behind one port: the socket is bound once, then each worker is a
forked child that runs the application under uvicorn on that same socket (the kernel hands each
new connection to one of them). The parent only watches: a worker that dies (``kill -9``) is
started again, and Ctrl-C or SIGTERM stops them all (a worker also ends when the parent dies).
The workers share nothing but the database (PostgreSQL), which is why each one opens its own
connections after the fork.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import TextIO

RESTART_PAUSE = 0.5
"""Seconds between restarts of a worker that keeps dying (a worker failing at start is not restarted in a loop)."""


def run_workers(sock: socket.socket, workers: int, serve_one: Callable[[], None], out: TextIO = sys.stdout) -> None:
    """Fork ``workers`` children, each calling ``serve_one()`` (uvicorn on ``sock``); restart any
    that dies until the parent is told to stop, then stop them all."""
    children: dict[int, int] = {}  # pid -> worker number
    stopping = False

    def start(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            end_with_parent()
            code = 0
            try:
                serve_one()
            except BaseException as exc:  # a worker reports and exits; the parent decides
                print(f"citybuild: worker {number} stopped: {exc}", file=sys.stderr, flush=True)
                code = 1
            finally:
                os._exit(code)
        children[pid] = number
        print(f"citybuild: worker {number} started (pid {pid})", file=out, flush=True)

    def stop(signum: int, _: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for number in range(1, workers + 1):
        start(number)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        number = children.pop(pid, 0)
        if not number or stopping:
            continue
        how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else "exit"
        print(f"citybuild: worker {number} (pid {pid}) ended by {how}; starting it again", file=out, flush=True)
        time.sleep(RESTART_PAUSE)
        if not stopping:  # told to stop meanwhile: no new worker
            start(number)
    sock.close()


def end_with_parent() -> None:
    """Linux: this process gets SIGTERM when its parent dies (even by kill -9), so no worker
    outlives its server, nor a bot's thinking process its worker; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
