"""The server's tests skip, all of them, only where the [server] extra is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server's tests need the [server] extra")
pytest.importorskip("httpx2", reason="the server's tests need the [server] extra")

from fastapi.testclient import TestClient

from citybuild.server import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite", allow_seed=True)) as test_client:
        yield test_client
