"""Schemathesis against the server's own OpenAPI schema: requests made from what ``/openapi.json``
says of each endpoint, valid and not, none answered with a server error. Bounded for CI: a few
examples per endpoint, half of them on a real match (the rest name no match; an event stream of a
match in play would never end)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("dev", "server")  # dev: schemathesis

import schemathesis  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402

APP = create_app(":memory:", quotas=Quotas.off())
SCHEMA = schemathesis.openapi.from_dict(APP.openapi())  # the schema /openapi.json answers


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(APP, raise_server_exceptions=False) as test_client:  # one lifespan: one open store
        yield test_client


@pytest.fixture(scope="module")
def real(client: TestClient) -> dict[str, Any]:
    made = client.post("/api/matches", json={"game": "manhattan", "players": 2, "bots": {"1": "greedy"}})
    return dict(made.json())


@SCHEMA.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_the_schema_allows_or_refuses_is_a_server_error(
    case: Any, client: TestClient, real: dict[str, Any]
) -> None:
    match_id = (case.path_parameters or {}).get("match_id")
    if match_id is not None and len(match_id) % 2 == 0 and not case.path.endswith("/events"):  # no endless stream
        case.path_parameters["match_id"] = real["id"]
        if len(match_id) % 4 == 0:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {real['token']}"}
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    if "data" in kwargs:
        kwargs["content"] = kwargs.pop("data")
    response = client.request(**{k: v for k, v in kwargs.items() if k in REQUEST_ARGUMENTS and v})
    case.validate_response(response, checks=[not_a_server_error])


REQUEST_ARGUMENTS = ("method", "url", "headers", "params", "json", "content", "files")
