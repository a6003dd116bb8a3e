"""A throw-away PostgreSQL cluster for the tests: ``initdb`` into a temporary directory, started
with ``pg_ctl`` on a Unix socket in that directory (no TCP port, no password), stopped at the end.

PostgreSQL refuses to run as root, so as root (CI) the cluster belongs to the ``postgres`` user
that Debian's package creates (else ``nobody``). Where no PostgreSQL is installed the tests skip
with a reason naming it, except in CI (``CI=true``), where they fail: CI installs it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, or Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def need_postgres() -> Path:
    """The binaries' folder, or a skip naming PostgreSQL (a failure in CI, where it must be there)."""
    folder = binaries()
    if folder is None:
        message = "needs PostgreSQL (initdb and pg_ctl): apt-get install postgresql"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install PostgreSQL: {message}")
        pytest.skip(message)
    return folder


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """A running throw-away cluster; ``database()`` makes a fresh database and answers its URL."""

    def __init__(self, folder: Path) -> None:
        self.bin = folder
        self.dir = Path(tempfile.mkdtemp(prefix="citybuild-pg-"))
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres" if _has_user("postgres") else "nobody"
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.port = _free_port()
        data = self.dir / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "citybuild", "--no-sync", "-E", "UTF8")
        options = f"-k {self.dir} -p {self.port} -c listen_addresses='' -c fsync=off -c max_connections=300"
        self._run("pg_ctl", "start", "-w", "-D", str(data), "-l", str(self.dir / "log"), "-o", options)
        self.admin = f"postgresql://citybuild@/postgres?host={self.dir}&port={self.port}"

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [str(self.bin / tool), *args], user=self.user, capture_output=True, text=True, cwd=self.dir, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}")

    def database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://citybuild@/{name}?host={self.dir}&port={self.port}"

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-D", str(self.dir / "data"), "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
