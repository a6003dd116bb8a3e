"""Out of file descriptors: new connections are answered 503 at once (no reset, no silence), the
log says so at most once a second, and the server answers again when descriptors are free. The
process's limit is lowered (RLIMIT_NOFILE) in a real ``citybuild serve`` subprocess."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from citybuild.server import faults  # noqa: E402
from citybuild.server.accepting import LOG_EVERY, GuardedSocket  # noqa: E402

LIMIT = 48
"""The server's file-descriptor limit: a few dozen past what it holds when idle."""
CONNECTIONS = 120
REQUEST = b"GET /api/games HTTP/1.1\r\nHost: test\r\n\r\n"


def _lowered() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def _first_line(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    try:
        return sock.recv(4096).split(b"\r\n", 1)[0]
    except OSError as exc:
        return repr(exc).encode()


def test_past_the_descriptor_limit_new_connections_get_503_and_a_line_a_second(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    with log.open("w") as stderr:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, preexec_fn=_lowered)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[2].rstrip("/").rsplit(":", 1)[1])
        started = time.monotonic()
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)]
        for sock in held:
            sock.sendall(REQUEST)
        lines = Counter(_first_line(sock) for sock in held)
        elapsed = time.monotonic() - started
        for sock in held:
            sock.close()
        assert set(lines) == {b"HTTP/1.1 200 OK", b"HTTP/1.1 503 Service Unavailable"}, lines
        assert lines[b"HTTP/1.1 503 Service Unavailable"] >= CONNECTIONS - LIMIT, lines
        for _ in range(100):  # the answered connections close; then it serves again
            with socket.create_connection(("127.0.0.1", port)) as again:
                again.sendall(REQUEST)
                if _first_line(again) == b"HTTP/1.1 200 OK":
                    break
            time.sleep(0.1)
        else:
            pytest.fail("the server did not answer again once the descriptors were free")
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stdout.close()  # type: ignore[union-attr]
    text = log.read_text()
    assert "Traceback" not in text and "socket.accept() out of system resource" not in text, text[-3000:]
    told = [line for line in text.splitlines() if "out of file descriptors" in line]
    assert 1 <= len(told) <= 1 + elapsed, told


def test_the_line_about_descriptors_is_said_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(GuardedSocket, "clock", staticmethod(lambda: now[0]))
    monkeypatch.setattr(faults, "DESCRIPTORS", faults.Seldom(LOG_EVERY))
    lines: list[str] = []
    monkeypatch.setattr("citybuild.server.accepting.log.error", lambda text, *args: lines.append(text % args))
    with GuardedSocket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        for _ in range(1000):
            sock._refused += 1
            sock._tell()
        now[0] += 0.999
        sock._tell()
        now[0] += 0.001
        sock._tell()
    assert len(lines) == 2 and "1 new connections" in lines[0] and "999 new connections" in lines[1], lines
