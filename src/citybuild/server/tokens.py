"""Seat tokens: a secret per human seat, kept only as a hash and compared in constant time.

A token is ``secrets.token_urlsafe(24)`` (192 random bits), handed out once when the match is
created or its seat is taken (invite codes are kept and compared the same way). The server stores
its SHA-256, never the token, so a copy of the database lets nobody act for a seat; a presented
token is hashed and compared with every seat's hash by
``hmac.compare_digest``, so the time taken says nothing about how close a guess came.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 24
"""Random bytes per token (32 URL-safe characters)."""
LONGEST_TOKEN = 200
"""A presented token longer than this is refused without hashing it."""


def new_token() -> str:
    """A fresh seat token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


INVITE_BYTES = 18
"""Random bytes per invite code (24 URL-safe characters)."""


def new_invite() -> str:
    """A fresh one-time invite code: whoever presents it first takes its seat (and a new token)."""
    return secrets.token_urlsafe(INVITE_BYTES)


def digest(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of(token: str | None, digests: Sequence[str | None]) -> int | None:
    """The seat whose token this is (``digests[seat]``; None for a bot's seat), or None.

    Every seat is compared, whether or not an earlier one matched, each in constant time."""
    if not token or len(token) > LONGEST_TOKEN:
        return None
    presented = digest(token)
    found = None
    for seat, stored in enumerate(digests):
        if stored is not None and hmac.compare_digest(presented, stored):
            found = seat
    return found


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None when absent or another scheme)."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
