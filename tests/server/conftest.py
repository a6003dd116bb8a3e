"""The server's shared fixture. Each test module of this folder skips, naming the extra, where the
[server] extra is missing, so that the fixture imports the extra only when a test asks for it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    importorskip_extra("server")
    from fastapi.testclient import TestClient

    from citybuild.server import create_app
    from citybuild.server.quotas import Quotas

    app = create_app(tmp_path / "games.sqlite", allow_seed=True, quotas=Quotas.off())  # limits: test_quotas.py
    with TestClient(app) as test_client:
        yield test_client


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (the [browser] extra)."""
    importorskip_extra("browser")
    from playwright.sync_api import sync_playwright

    if not CHROMIUM:
        pytest.skip("needs Chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A ``citybuild serve`` process (chosen seeds allowed) over a database of its own."""
    importorskip_extra("server")
    from server_support import Server

    server = Server(Path(tmp_path_factory.mktemp("browser")) / "games.sqlite")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """A throw-away PostgreSQL cluster for the session (skips naming PostgreSQL where none is
    installed, except in CI)."""
    importorskip_extra("server")
    from pg_support import Cluster, need_postgres

    cluster = Cluster(need_postgres())
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return str(pg_cluster.database())


@pytest.fixture
def pg_client(pg_url: str) -> Iterator[Any]:
    """A test client of an application over PostgreSQL."""
    from fastapi.testclient import TestClient

    from citybuild.server import create_app
    from citybuild.server.quotas import Quotas

    with TestClient(create_app(pg_url, allow_seed=True, quotas=Quotas.off())) as test_client:
        yield test_client
