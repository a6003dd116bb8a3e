"""The limits applied to every request, as ASGI middleware, before the application sees it.

Each request takes a token from its client's bucket (``Quotas.rate`` and ``burst``): an empty
bucket is answered 429 with ``Retry-After``. Creating a match (a rematch too) takes one from the
client's bucket of matches (``matches_per_client`` an hour). An event stream is counted while it
is open, all clients together (``streams``: 503 past it, the server is full) and per client
(``streams_per_client``: 429). The counters are the store's (``citybuild.server.counters``), so
they hold across workers; their calls run in a worker thread, away from the event loop, and a
database that cannot answer is a 503 (``citybuild.server.faults``). After a request, the
``Sweeper`` takes unused matches out of memory when a sweep is due.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import secrets
from typing import Any

import anyio
import anyio._backends._asyncio
import anyio.to_thread

from citybuild.server.faults import database_error, os_error, retry_after
from citybuild.server.limits import App, Message, Receive, Scope, Send
from citybuild.server.problems import ApiError
from citybuild.server.quotas import Quotas
from citybuild.server.storage import STORE_ERRORS, MatchStore
from citybuild.server.sweep import Sweeper

EVENTS = re.compile(r"/api/matches/([^/]+)/events")
CREATES = re.compile(r"/api/matches(/[^/]+/rematch)?")
LEASE = 60.0
"""Seconds a stream stays counted unless renewed (a worker killed with its streams open); an open
stream renews its lease every third of it."""
STREAMS_RETRY = 10
"""The ``Retry-After`` of a refused stream, in seconds."""
HOUR = 3600.0


class Throttle:
    """Wraps the application with the ``quotas``, counted in ``store``; ``lease``: seconds an
    event stream stays counted unless renewed (``LEASE``; tests shorten it)."""

    def __init__(
        self, app: App, store: MatchStore, quotas: Quotas, sweeper: Sweeper | None = None, lease: float = LEASE
    ) -> None:
        self.app = app
        self.store = store
        self.quotas = quotas
        self.sweeper = sweeper
        self.lease = lease
        self._empty: dict[str, float] = {}
        """When each client refused for want of tokens has one again: till then it is refused here,
        without a look at the database (nothing can refill a bucket sooner)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self._limited(scope, receive, sending)
        except OSError as exc:  # out of file descriptors, say, outside the application's handlers
            if started:
                raise
            error = os_error(exc)
            await answer(send, error, retry_after(error))

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = self.quotas.counted_as(scope)
        path, method = scope.get("path", ""), scope.get("method", "")
        empty = self._empty.get(client, 0.0) - self.quotas.clock()
        if empty > 0:  # a flood is refused at the cost of a dict lookup
            await answer(send, self._too_many(client), _after(empty))
            return
        creates = method == "POST" and CREATES.fullmatch(path) is not None
        refused = None
        if self.quotas.rate or (creates and self.quotas.matches_per_client):
            try:
                refused = await anyio.to_thread.run_sync(self._admit, client, creates)
            except STORE_ERRORS as exc:
                error = database_error(exc)
                refused = (error, retry_after(error))
        if refused is not None:
            await answer(send, *refused)
            return
        watched = EVENTS.fullmatch(path) if method == "GET" else None
        if watched is not None:
            await self._stream(scope, receive, send, client, watched.group(1))
        else:
            await self.app(scope, receive, send)
        if self.sweeper is not None and self.sweeper.due(self.quotas.clock()):
            await anyio.to_thread.run_sync(self._sweep)

    def _admit(self, client: str, creates: bool) -> tuple[ApiError, dict[str, str]] | None:
        """The refusal of a request over a limit (``creates``: a match), with its headers; None to
        let it through."""
        quotas, now = self.quotas, self.quotas.clock()
        if quotas.rate:
            wait = self.store.take(f"requests {client}", quotas.rate, max(1, quotas.burst), now)
            if wait:
                self._empty[client] = now + wait
                return self._too_many(client), _after(wait)
        if quotas.matches_per_client and creates:
            per_hour = quotas.matches_per_client
            wait = self.store.take(f"matches {client}", per_hour / HOUR, per_hour, now)
            if wait:
                message = f"too many new matches from {client}: at most {per_hour} an hour"
                return ApiError(429, "too-many-matches", message), _after(wait)
        return None

    def _too_many(self, client: str) -> ApiError:
        quotas = self.quotas
        message = f"too many requests from {client}: {quotas.rate:g} a second at most, {quotas.burst} at once"
        return ApiError(429, "too-many-requests", message)

    async def _stream(self, scope: Scope, receive: Receive, send: Send, client: str, match_id: str) -> None:
        """Run an event stream while it is counted (its lease renewed) and its match watched (kept
        in memory by the sweeper), then release it."""
        counted = bool(self.quotas.streams or self.quotas.streams_per_client)
        holder = secrets.token_hex(8)
        if counted and not await self._hold(send, holder, client):
            return
        if self.sweeper is not None:
            self.sweeper.watched[match_id] += 1
        try:
            async with anyio.create_task_group() as group:
                if counted:
                    group.start_soon(self._renew, holder)
                try:
                    await self.app(scope, receive, send)
                finally:
                    group.cancel_scope.cancel()
        finally:
            if self.sweeper is not None:
                self.sweeper.watched[match_id] -= 1
            if counted:
                with anyio.CancelScope(shield=True), contextlib.suppress(*STORE_ERRORS):  # else its lease runs out
                    await anyio.to_thread.run_sync(self.store.release_stream, holder)

    async def _hold(self, send: Send, holder: str, client: str) -> bool:
        """Count a new stream, or answer the refusal; whether it is counted."""
        quotas = self.quotas
        total = quotas.streams or 2**62
        mine = quotas.streams_per_client or 2**62
        try:
            full = await anyio.to_thread.run_sync(
                self.store.hold_stream, holder, client, total, mine, quotas.clock(), self.lease
            )
        except STORE_ERRORS as exc:
            error = database_error(exc)
            await answer(send, error, retry_after(error))
            return False
        if full is None:
            return True
        if full == "total":
            error = ApiError(503, "too-many-streams", f"the server has {total} event streams open, its most")
        else:
            error = ApiError(429, "too-many-streams", f"{client} has {mine} event streams open, the most per client")
        await answer(send, error, {"Retry-After": str(STREAMS_RETRY)})
        return False

    async def _renew(self, holder: str) -> None:
        while True:
            await anyio.sleep(self.lease / 3)
            with contextlib.suppress(*STORE_ERRORS):  # the next renewal tries again
                await anyio.to_thread.run_sync(self.store.renew_stream, holder, self.quotas.clock(), self.lease)

    def _sweep(self) -> None:
        assert self.sweeper is not None
        now = self.quotas.clock()
        self.sweeper.sweep(now)
        for client, until in list(self._empty.items()):
            if until <= now:
                self._empty.pop(client, None)
        quotas = self.quotas
        longest = max(HOUR, quotas.burst / quotas.rate if quotas.rate else 0.0)
        with contextlib.suppress(*STORE_ERRORS):
            self.store.forget(now - longest)


def _after(wait: float) -> dict[str, str]:
    return {"Retry-After": str(max(1, math.ceil(wait)))}


async def answer(send: Send, error: ApiError, headers: dict[str, str]) -> None:
    """Answer ``error`` in the API's one JSON shape, with ``headers``."""
    body = json.dumps(error.body()).encode()
    raw: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    await send({"type": "http.response.start", "status": error.status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
