"""The HTTP API and the browser client's files, as a FastAPI application.

``create_app(db)`` makes the application over the database ``db`` (a SQLite file, or a
``postgresql://`` URL that several worker processes may share); ``citybuild serve``
runs it with uvicorn, and any ASGI server (or ``fastapi.testclient.TestClient``) can run it too.
The endpoints, with their request bodies, are described by the OpenAPI schema at
``/openapi.json`` (and browsable at ``/docs``). Every refusal is a 4xx answer with
``{"error": {"status", "code", "message"}}``; none changes anything.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from citybuild import __version__
from citybuild.core.errors import CitybuildError
from citybuild.core.registry import games, spec
from citybuild.server.botpool import BUDGET, THREADS, BotPool
from citybuild.server.database import open_store
from citybuild.server.events import stream
from citybuild.server.faults import (
    BUSY_TIMEOUT,
    DamagedRecord,
    damaged_record,
    database_error,
    os_error,
    retry_after,
)
from citybuild.server.hall import REPLY_WAIT, Hall
from citybuild.server.howto import FIRST_GAME, how_to_play
from citybuild.server.limits import MAX_BODY, BodyLimit
from citybuild.server.lobby import join, open_matches, rematch
from citybuild.server.problems import ApiError
from citybuild.server.quotas import Quotas
from citybuild.server.room import progress
from citybuild.server.storage import StoreError
from citybuild.server.sweep import Sweeper
from citybuild.server.throttle import LEASE, Throttle

CHOSEN_LIMIT = 64
"""The most decisions a builder request may name."""


class NewMatch(BaseModel):
    """A match to create: the game, its players, preset and rule options, and the bots' seats."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(max_length=100, examples=["manhattan"])
    players: int | None = Field(default=None, ge=1, le=99, description="default: the game's default")
    preset: str = Field(default="standard", max_length=100)
    options: dict[str, Any] = Field(default_factory=dict, description="rule options that differ from the preset")
    bots: dict[str, str] = Field(
        default_factory=dict,
        description='the bot of each bot seat, by seat: {"1": "greedy"}',
        examples=[{"1": "greedy"}],
    )
    seed: int | None = Field(default=None, description="only where the server allows chosen seeds")
    seat: int | None = Field(default=None, ge=0, le=99, description="the creator's seat (default: the lowest human)")
    open: bool = Field(default=False, description="list the match as open: anyone may take a free seat")


class Join(BaseModel):
    """A seat to take: by invite code, or in an open match by seat number (or the lowest free seat)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    invite: str | None = Field(default=None, max_length=200, description="an invite code of the match")
    seat: int | None = Field(default=None, ge=0, le=99, description="the seat to take (an open match)")


class NewMove(BaseModel):
    """A move in notation text, for the seat of the request's token."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: str = Field(max_length=2000, examples=["build 3 Syd A4"])
    seat: int | None = Field(default=None, description="optional: the seat the token must be")
    moves: int | None = Field(
        default=None,
        description="optional: the step count (moves) of the view the move was chosen from; "
        "a match that has moved on refuses it (409 stale), so a retried request is played at most once",
    )


bearer = HTTPBearer(auto_error=False, description="a seat token of the match, as answered when it was created")
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials is not None else None


def _client(name: str) -> str:
    return resources.files("citybuild.server").joinpath("client", name).read_text("utf-8")


def create_app(
    db: str | Path = "citybuild.sqlite",
    *,
    allow_seed: bool = False,
    sync: str = "normal",
    max_body: int = MAX_BODY,
    bot_threads: int = THREADS,
    bot_budget: float = BUDGET,
    reply_wait: float = REPLY_WAIT,
    quotas: Quotas | None = None,
    busy_timeout: float = BUSY_TIMEOUT,
    stream_lease: float = LEASE,
) -> FastAPI:
    """The server's application over the database ``db``: a SQLite file (created if missing;
    ``":memory:"`` for a throw-away one) or a ``postgresql://`` URL. ``allow_seed`` lets creators
    choose seeds (for tests and benchmarks); ``sync="full"`` waits for the disk at every commit
    (see ``citybuild.server.store``). Bots' replies are played by ``bot_threads`` threads, a
    searching bot thinking ``bot_budget`` seconds at most; a move's answer waits ``reply_wait``
    seconds at most for them. ``quotas``: the limits per client (``Quotas()``, the defaults,
    when not given); ``busy_timeout``: seconds a request waits for a database locked by another
    writer; ``stream_lease``: seconds an open event stream stays counted unless renewed (it is
    renewed every third of it), so that a killed worker's streams stop counting."""
    quotas = Quotas() if quotas is None else quotas
    store = open_store(db, sync=sync, busy_timeout=busy_timeout)
    hall = Hall(store, allow_seed=allow_seed, clock=quotas.clock, reply_wait=reply_wait)
    bots = BotPool(hall, threads=bot_threads, budget=bot_budget)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        bots.stop()
        store.close()

    app = FastAPI(
        title="citybuild server",
        version=__version__,
        description="Matches of Manhattan, Skyline and Urbanization for browsers and bots.",
        lifespan=lifespan,
    )
    app.state.hall = hall
    app.add_middleware(BodyLimit, limit=max_body)
    app.state.sweeper = Sweeper(hall, quotas.idle)
    app.add_middleware(Throttle, store=store, quotas=quotas, sweeper=app.state.sweeper, lease=stream_lease)
    _answer_refusals(app)
    app.include_router(_client_routes())
    app.include_router(_api_routes(hall))
    app.include_router(_lobby_routes(hall))
    return app


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal, whoever raises it, as a 4xx answer in the one JSON shape of ``ApiError``."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=retry_after(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        error = _validation_error(exc.errors())
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        code = {400: "bad-json", 404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "refused")
        return JSONResponse(ApiError(exc.status_code, code, str(exc.detail)).body(), status_code=exc.status_code)

    @app.exception_handler(sqlite3.Error)
    async def database_fault(_: Request, exc: sqlite3.Error) -> JSONResponse:
        error = database_error(exc)
        return JSONResponse(error.body(), status_code=error.status, headers=retry_after(error))

    @app.exception_handler(StoreError)
    async def store_fault(_: Request, exc: StoreError) -> JSONResponse:
        error = database_error(exc)
        return JSONResponse(error.body(), status_code=error.status, headers=retry_after(error))

    @app.exception_handler(OSError)
    async def machine_fault(_: Request, exc: OSError) -> JSONResponse:
        error = os_error(exc)
        return JSONResponse(error.body(), status_code=error.status, headers=retry_after(error))

    @app.exception_handler(DamagedRecord)
    async def damaged(_: Request, exc: DamagedRecord) -> JSONResponse:
        error = damaged_record(exc)
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(CitybuildError)
    async def citybuild_error(_: Request, exc: CitybuildError) -> JSONResponse:
        return JSONResponse(ApiError(422, type(exc).__name__, str(exc)[:500]).body(), status_code=422)


def _validation_error(errors: Sequence[Any]) -> ApiError:
    """A request the schema refuses: bad JSON, a body that is not an object, or the first few fields wrong."""
    if any(e.get("type") == "json_invalid" for e in errors):
        return ApiError(400, "bad-json", "the request body is not valid JSON")
    if any(tuple(e.get("loc", ())) == ("body",) for e in errors):
        return ApiError(400, "bad-json", "the request body must be a JSON object (Content-Type: application/json)")
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return ApiError(422, "bad-request", "; ".join(parts)[:500])


def _client_routes() -> APIRouter:
    """The browser client: its page and its script."""
    router = APIRouter(include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return HTMLResponse(_client("index.html"))

    @router.get("/client.js")
    def script() -> Response:
        return Response(_client("client.js"), media_type="text/javascript")

    return router


def _lobby_routes(hall: Hall) -> APIRouter:
    """The lobby's endpoints: open matches, seats taken by invite or freely, rematches."""
    router = APIRouter()

    @router.get("/api/matches", summary="The open matches with a free seat, newest first")
    def list_matches(open: bool = True) -> list[dict[str, Any]]:
        if not open:
            raise ApiError(422, "not-listed", "only open matches are listed: GET /api/matches?open=1")
        return open_matches(hall)

    @router.post("/api/matches/{match_id}/join", summary="Take a seat: by invite, or a free seat of an open match")
    def join_match(match_id: str, body: Join) -> dict[str, Any]:
        return join(hall, match_id, body.invite, body.seat)

    @router.post("/api/matches/{match_id}/rematch", summary="A finished match's rematch: same seats, same tokens")
    def rematch_match(match_id: str, credentials: Token) -> dict[str, Any]:
        return rematch(hall, match_id, _token(credentials))

    return router


def _api_routes(hall: Hall) -> APIRouter:
    """The API's endpoints, each a thin call into ``hall``."""
    router = APIRouter()

    @router.get("/api/games", summary="The games, their presets and player counts")
    def list_games() -> list[dict[str, Any]]:
        return [_game_entry(name) for name in games()]

    @router.post("/api/matches", status_code=201, summary="Create a match: the creator's token, invites for the rest")
    def create_match(body: NewMatch) -> dict[str, Any]:
        return hall.create(
            body.game, body.players, body.preset, body.options, body.bots, body.seed, seat=body.seat, open=body.open
        )

    @router.get("/api/matches/{match_id}/view", summary="The token's seat's view (without a token: the public view)")
    def view(match_id: str, credentials: Token, picture: bool = False) -> dict[str, Any]:
        return hall.view(match_id, _token(credentials), picture=picture)

    @router.post("/api/matches/{match_id}/moves", summary="Play a move for the token's seat")
    def play(match_id: str, body: NewMove, credentials: Token, picture: bool = False) -> dict[str, Any]:
        return hall.play(match_id, _token(credentials), body.move, body.seat, body.moves, picture=picture)

    @router.post(
        "/api/matches/{match_id}/undo", summary="Take back the token's seat's last move, where fair play allows"
    )
    def undo(match_id: str, credentials: Token, picture: bool = False) -> dict[str, Any]:
        return hall.undo(match_id, _token(credentials), picture=picture)

    @router.get("/api/matches/{match_id}/builder", summary="Make a move by decisions: the options after those chosen")
    def builder(
        match_id: str,
        credentials: Token,
        chosen: Annotated[str, Query(max_length=1000, description="action ids so far, comma-separated")] = "",
    ) -> dict[str, Any]:
        return hall.builder(match_id, _token(credentials), _chosen(chosen))

    @router.get("/api/matches/{match_id}/record", summary="The game record, once the game is over")
    def record(match_id: str) -> dict[str, Any]:
        return hall.record(match_id)

    @router.get(
        "/api/matches/{match_id}/events",
        summary="Server-sent events: one each time the match moves on",
        response_class=StreamingResponse,
    )
    async def events(match_id: str, request: Request) -> StreamingResponse:
        room = await run_in_threadpool(hall.room, match_id)  # loaded (or 404) off the event loop

        async def watched() -> AsyncIterator[str]:  # counted, so other workers' moves reach this room at once
            room.watchers += 1
            try:
                async for chunk in stream(lambda: progress(room), request.is_disconnected):  # a look, no lock
                    yield chunk
            finally:
                room.watchers -= 1

        return StreamingResponse(
            watched(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    return router


def _game_entry(name: str) -> dict[str, Any]:
    game_spec = spec(name)
    return {
        "game": name,
        "title": game_spec.title,
        "presets": list(game_spec.presets),
        "min_players": game_spec.min_players,
        "max_players": game_spec.max_players,
        "how_to_play": how_to_play(name),
        "first_game": FIRST_GAME.get(name, {}),
    }


def _chosen(text: str) -> tuple[int, ...]:
    """The builder's ``chosen`` query: action ids separated by commas, at most ``CHOSEN_LIMIT``."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) > CHOSEN_LIMIT or not all(re.fullmatch("[0-9]{1,9}", p) for p in parts):
        raise ApiError(422, "bad-choice", "chosen: expected action ids (digits) separated by commas")
    return tuple(int(p) for p in parts)
