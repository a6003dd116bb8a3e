"""Whatever a client sends, the answer is a 4xx with a message or a success, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from server_support import auth, new_match  # noqa: E402

from citybuild.server import create_app  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["manhattan", "skyline", "urbanization", "chess"]) | JSON,
        "players": st.integers(-2, 7) | JSON,
        "preset": st.sampled_from(["standard", "four-rounds", "nope"]) | JSON,
        "options": st.dictionaries(st.sampled_from(["rounds", "max_rounds", "redraw_limit", "x"]), JSON, max_size=2)
        | JSON,
        "bots": st.dictionaries(
            st.sampled_from(["0", "1", "2", "٣", "-1", "x"]), st.sampled_from(["greedy", "x"]) | JSON
        )
        | JSON,
        "seed": JSON,
        "seat": st.integers(-1, 5) | JSON,
        "open": st.booleans() | JSON,
    },
)

RAW = [
    b"[" * 30000 + b"]" * 30000,
    b'{"game": "manhattan", "players": ' + b"9" * 5000 + b"}",
    b'{"game": "manhattan", "options": {"rounds": NaN}}',
    b'{"game": "\\ud800"}',
    b'{"game": "manhattan", "options": {"\\ud800": 1}}',  # a refusal quoting a lone surrogate
    b'{"game": "skyline", "options": {"x\\udfff": "\\ud800"}}',
    b'{"game": "skyline", "preset": "\\ud800x"}',
    b'{"game": "skyline", "bots": {"\\ud800": "greedy"}}',
    b'{"game": "skyline", "bots": {"1": "\\ud800"}}',
    b"\xff\xfe{}",
    b"",
    b"null",
]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = create_app(tmp_path_factory.mktemp("fuzz") / "db.sqlite", quotas=Quotas.off())  # floods on purpose
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("body", RAW)
def test_odd_bodies_get_a_4xx(shared: TestClient, body: bytes) -> None:
    response = shared.post("/api/matches", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500 and response.json()["error"]["message"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(FIELDS)
def test_any_new_match_body_is_answered_without_a_500(shared: TestClient, body: dict[str, Any]) -> None:
    response = shared.post("/api/matches", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert response.status_code == 201 or (400 <= response.status_code < 500 and response.json()["error"]["message"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(move=st.text(max_size=40) | JSON, moves=JSON, chosen=st.text(max_size=20))
def test_any_move_or_builder_request_is_answered_without_a_500(
    shared: TestClient, move: Any, moves: Any, chosen: str
) -> None:
    made = new_match(shared, "manhattan", bots={"1": "random"})
    url, headers = f"/api/matches/{made['id']}", auth(made["tokens"]["0"])
    response = shared.post(f"{url}/moves", headers=headers, json={"move": move, "moves": moves})
    assert response.status_code in (200, 400, 409, 422), response.text
    response = shared.get(f"{url}/builder", headers=headers, params={"chosen": chosen})
    assert response.status_code in (200, 409, 422), response.text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries({}, optional={"invite": st.text(max_size=30) | JSON, "seat": st.integers(-3, 5) | JSON})
    | JSON,
    open_=st.booleans(),
    token=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=40),
)
def test_any_join_or_rematch_request_is_answered_without_a_500(
    shared: TestClient, body: Any, open_: bool, token: str
) -> None:
    made = shared.post("/api/matches", json={"game": "skyline", "players": 3, "open": open_}).json()
    url = f"/api/matches/{made['id']}"
    response = shared.post(f"{url}/join", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert response.status_code == 200 or (400 <= response.status_code < 500 and response.json()["error"]["message"])
    for headers in ({}, auth(token) if token else {}, auth(made["token"])):
        response = shared.post(f"{url}/rematch", headers=headers)
        assert 400 <= response.status_code < 500 and response.json()["error"]["message"], response.text
    response = shared.get("/api/matches", params={"open": token})
    assert response.status_code in (200, 422), response.text
