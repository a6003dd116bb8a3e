"""Shared helpers of the server's tests (they skip only where the [server] extra is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server's tests need the [server] extra")
pytest.importorskip("httpx2", reason="the server's tests need the [server] extra")

from fastapi.testclient import TestClient

from citybuild.server import create_app

SHORT: dict[str, dict[str, Any]] = {
    "manhattan": {"rounds": {"2": 1, "3": 1}},
    "skyline": {"rounds": 2},
    "urbanization": {"max_rounds": 1},
}
"""Rule options that make each game short (one or two rounds)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite", allow_seed=True)) as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(client: TestClient, game: str, players: int = 2, bots: dict[str, str] | None = None, **extra: Any) -> Any:
    body = {"game": game, "players": players, "options": SHORT[game], "bots": bots or {}, **extra}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()
