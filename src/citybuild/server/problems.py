"""Refusals the API answers with a status: what went wrong, in one JSON shape for every endpoint.

Every refusal is ``{"error": {"status", "code", "message", ...}}``; a refused move adds the
verdict's ``violations`` (code, rule ID, message each). A refusal changes nothing.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request refused with an HTTP status, a stable code and a plain-English message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The answer's JSON: every text in it encodable, though a message may quote what a client
        sent (a lone surrogate, which JSON cannot carry, is written as its escape)."""
        error = {"status": self.status, "code": self.code, "message": self.message, **self.extra}
        return {"error": encodable(error)}


def encodable(value: Any) -> Any:
    """``value`` with every string made encodable as UTF-8 (a lone surrogate becomes ``\\ud800``)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {encodable(k): encodable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encodable(v) for v in value]
    return value


def not_found(match_id: str) -> ApiError:
    shown = match_id if len(match_id) <= 40 else match_id[:40] + "..."
    return ApiError(404, "no-such-match", f"there is no match {shown!r}")


def unauthorized(message: str = "this needs a seat token of this match: Authorization: Bearer <token>") -> ApiError:
    return ApiError(401, "bad-token", message)
