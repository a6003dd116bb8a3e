"""The server's shared fixture. Each test module of this folder skips, naming the extra, where the
[server] extra is missing, so that the fixture imports the extra only when a test asks for it."""

from __future__ import annotations

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

    with TestClient(create_app(tmp_path / "games.sqlite", allow_seed=True)) as test_client:
        yield test_client
