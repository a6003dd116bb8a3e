"""The flags of ``citybuild serve`` that set its limits and its patience with the database.

Read here as plain values (the server extra is imported only when the server runs); their
defaults are those of ``citybuild.server.quotas.Quotas`` and ``citybuild.server.faults``, repeated
as text so that ``--help`` can show them without the extra.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from citybuild.cli.options import integer

DEFAULTS: dict[str, Any] = {
    "rate": 20.0,
    "burst": 100,
    "streams": 500,
    "streams_per_client": 16,
    "matches_per_client": 30,
    "idle": 3600.0,
    "busy_timeout": 0.5,
}
"""The defaults (tests check that they are the server's own)."""


def seconds(text: str) -> float:
    """A count of seconds or a rate: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a finite number of 0 or more, got {text!r}")
    return value


def count(text: str) -> int:
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {text!r}")
    return value


def add_limit_flags(serve: argparse.ArgumentParser) -> None:
    """The limits' flags (0: no limit) and ``--busy-timeout``."""
    flag = serve.add_argument_group("limits (0: no limit)").add_argument
    d = DEFAULTS
    flag("--rate", type=seconds, default=d["rate"], metavar="N", help=f"requests a second per client ({d['rate']:g})")
    flag("--burst", type=count, default=d["burst"], metavar="N", help=f"requests at once per client ({d['burst']})")
    flag("--streams", type=count, default=d["streams"], metavar="N", help=f"event streams open ({d['streams']})")
    flag(
        "--streams-per-client",
        type=count,
        default=d["streams_per_client"],
        metavar="N",
        help=f"event streams open per client ({d['streams_per_client']})",
    )
    flag(
        "--matches-per-client",
        type=count,
        default=d["matches_per_client"],
        metavar="N",
        help=f"new matches an hour per client ({d['matches_per_client']})",
    )
    flag(
        "--idle",
        type=seconds,
        default=d["idle"],
        metavar="SECONDS",
        help=f"a match nobody asks for this long leaves memory and the lobby ({d['idle']:g})",
    )
    flag(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy (address or network) whose X-Forwarded-For names the client (may be repeated)",
    )
    flag(
        "--busy-timeout",
        type=seconds,
        default=d["busy_timeout"],
        metavar="SECONDS",
        help=f"how long a request waits for a database locked by another writer before a 503 ({d['busy_timeout']:g})",
    )


def limit_options(args: argparse.Namespace) -> dict[str, Any]:
    """The limits' values read, by the names ``citybuild.server.run.serve`` takes."""
    return {name: getattr(args, name) for name in (*DEFAULTS, "trusted_proxy")}
