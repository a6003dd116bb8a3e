"""The limits that keep one client from hurting the others, and who a client is.

A client is the address a request comes from. Behind a reverse proxy every request comes from
the proxy, so a request from one of the ``trusted_proxies`` is the client the proxy names: the
last address of ``X-Forwarded-For`` that is not itself a trusted proxy (the proxy appends the
address it saw; anything before that is the client's own say and could be forged). From any
other address ``X-Forwarded-For`` is ignored. An IPv6 client is counted by its /64 network, all
of which one machine may use.

Every limit is counted in the database (``citybuild.server.counters``), so it holds across all
the workers that share it. A limit of 0 is no limit.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

import attrs

IPV6_CLIENT = 64
"""The prefix length of the IPv6 network counted as one client."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """Proxy addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``); ``ValueError`` naming a bad one."""
    out = []
    for text in texts:
        try:
            out.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy {text!r}: not an IP address or network") from None
    return tuple(out)


@attrs.frozen
class Quotas:
    """The server's limits, each with its default (``citybuild serve`` flags of the same names)."""

    rate: float = 20.0
    """Requests per second per client, on average (``--rate``)."""
    burst: int = 100
    """Requests a client may send at once before the rate applies (``--burst``)."""
    streams: int = 500
    """Event streams open at once, all clients together (``--streams``)."""
    streams_per_client: int = 16
    """Event streams open at once per client (``--streams-per-client``)."""
    matches_per_client: int = 30
    """Matches a client may create per hour, rematches included (``--matches-per-client``)."""
    idle: float = 3600.0
    """Seconds without a request after which a match in play leaves memory and the lobby (``--idle``)."""
    trusted_proxies: tuple[Network, ...] = ()
    """The proxies whose ``X-Forwarded-For`` names the client (``--trusted-proxy``)."""
    clock: Callable[[], float] = time.time
    """The time, in seconds (tests set it)."""

    @classmethod
    def off(cls, **changes: Any) -> Quotas:
        """No limit at all (tests and benchmarks that flood on purpose), but for ``changes``."""
        return cls(**{"rate": 0, "streams": 0, "streams_per_client": 0, "matches_per_client": 0, **changes})

    def client(self, scope: MutableMapping[str, Any]) -> str:
        """The client of an ASGI request: its source address, or the one a trusted proxy names."""
        peer = scope.get("client")
        source = str(peer[0]) if peer else "unknown"
        if not self.trusted_proxies or not self._trusted(source):
            return source
        forwarded: list[str] = []
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                forwarded += [part.strip() for part in value.decode("latin-1").split(",")]
        for hop in reversed(forwarded):
            if not self._trusted(hop):
                return hop if _address(hop) is not None else source
        return source

    def counted_as(self, scope: MutableMapping[str, Any]) -> str:
        """What the limits count a request as: its client's address, or for an IPv6 address its
        /64 network (one machine's, as a network hands them out: it may take any address in it)."""
        client = self.client(scope)
        address = _address(client)
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
            return str(ipaddress.IPv6Network((address, IPV6_CLIENT), strict=False))
        return client

    def _trusted(self, text: str) -> bool:
        address = _address(text)
        return address is not None and any(address in network for network in self.trusted_proxies)


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
