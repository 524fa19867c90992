"""Client addresses: which are this machine's, and what the per-address limits count by.

The limits themselves (connections, rooms created, codes asked for) are the room manager's;
these are the rules they count by.
"""

from __future__ import annotations

import collections
import ipaddress


def _ip(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A client's IP address (an IPv4 address mapped into IPv6 as IPv4), or None."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:  # none, or not an IP address (a Unix socket)
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_loopback(address: str | None) -> bool:
    """Whether a client address (as the ASGI server gives it) is this machine's loopback."""
    ip = _ip(address)
    return ip is not None and ip.is_loopback


def address_key(address: str) -> str:
    """What the per-address limits count by: the IPv4 address, or an IPv6 address's /64 (one
    household or site gets a /64, and a client can take any address in it)."""
    ip = _ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address if ip is None else str(ip)


def limited(address: str, limit: int) -> bool:
    """Whether a per-address limit applies: not when it is 0, nor to this machine (benchmarks,
    tests, or a proxy on it that does not pass the client's address: its clients would all
    share one allowance) nor to an unknown address."""
    return limit > 0 and _ip(address) is not None and not is_loopback(address)


def recent_times(
    times_by_key: dict[str, collections.deque[float]], key: str, since: float
) -> collections.deque[float]:
    """The times of ``key`` after ``since`` (older ones are forgotten)."""
    times = times_by_key.setdefault(key, collections.deque())
    while times and times[0] <= since:
        times.popleft()
    return times

