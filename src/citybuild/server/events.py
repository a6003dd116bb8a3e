"""Server-sent events: a match's stream announces each change of its step count.

``GET /api/matches/{id}/events`` answers ``text/event-stream``. The first event states where the
match is; then an event follows whenever the number of steps changes, with who is to act and
whether the game is over, and the stream ends after announcing the end. A comment line every
``KEEPALIVE`` seconds keeps proxies from closing a quiet stream. Events carry only public facts
(a step count, the seats to act), so the stream needs no token; a client that hears of a change
asks for its view.

The stream looks at the match in memory a few times a second (a dict lookup and an int
comparison), which costs nothing next to a request, and needs no cross-thread signalling.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

POLL = 0.1
"""Seconds between looks at the match."""
KEEPALIVE = 15.0
"""Seconds between keep-alive comments on a quiet stream."""


def event(name: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


async def stream(
    status: Callable[[], dict[str, Any]], disconnected: Callable[[], Awaitable[bool]]
) -> AsyncIterator[str]:
    """Events for one match: ``status()`` answers its public progress (``moves``, ``to_act``, ``over``)."""
    last: dict[str, Any] | None = None
    quiet_since = time.monotonic()
    while True:
        now = status()
        if now != last:
            yield event("moves", now)
            last, quiet_since = now, time.monotonic()
            if now["over"]:
                return
        elif time.monotonic() - quiet_since > KEEPALIVE:
            yield ": keep-alive\n\n"
            quiet_since = time.monotonic()
        if await disconnected():
            return
        await asyncio.sleep(POLL)
