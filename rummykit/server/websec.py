"""The web security of the server's HTTP answers and WebSocket handshakes: the host check
(against DNS rebinding), the browser's security headers and content security policy, the
check of a page's origin, and who may use the admin endpoint.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import socket
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse

from rummykit.server.addresses import is_loopback
from rummykit.server.config import ServerConfig


def host_name(host: str | None) -> str | None:
    """The name in a ``Host`` header, without its port (None if there is none)."""
    if not host:
        return None
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 address: [::1]:8000
        end = host.find("]")
        return host[1:end] if end > 0 else None
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str | None, names: list[str]) -> bool:
    """Whether a request's ``Host`` header names this server (see :class:`HostCheck`)."""
    name = host_name(host)
    if not name:
        return False
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name)
        return True  # an address cannot be rebound: the page's origin is that address
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost"):  # never resolved by DNS
        return True
    for allowed in names:
        allowed = allowed.lower().rstrip(".")
        if allowed == "*" or name == allowed:
            return True
        if allowed.startswith("*.") and name.endswith(allowed[1:]):
            return True
    return False


class HostCheck:
    """ASGI middleware refusing HTTP requests and WebSocket handshakes whose ``Host`` header is
    not a name the server answers to: against DNS rebinding, where a page of evil.example
    whose name is made to resolve to 127.0.0.1 reaches the server as its own origin
    (``Origin`` and ``Host`` both evil.example, so the origin check alone passes).

    Allowed: any IP address (a rebinding needs a name), ``localhost`` and ``*.localhost``,
    and ``names`` (the bound host, ``--allow-host``; ``*`` allows every name, ``*.example.org``
    its subdomains).
    """

    def __init__(self, app: Any, names: list[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = None
            for key, value in scope["headers"]:
                if key == b"host":
                    host = value.decode("latin-1")
                    break
            if not host_allowed(host, self.names):
                if scope["type"] == "websocket":
                    # Before accepting: the handshake is refused with HTTP 403.
                    await send({"type": "websocket.close", "code": 1008, "reason": ""})
                else:
                    response = PlainTextResponse("unknown host name", status_code=400)
                    await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: A ``Host`` header that is a host source of CSP's grammar: a name or IPv4 address (labels of
#: letters, digits and hyphens) and a port. Anything else gets no host of its own in
#: ``connect-src``: what the host check lets through after an address it reads
#: (``127.0.0.1:8000; script-src *``) would write into the policy, and an IPv6 address, which
#: CSP cannot name, would be ignored with a warning in the console.
_POLICY_HOST = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?$")


def content_security_policy(host: str | None) -> str:
    """The ``Content-Security-Policy`` of every HTTP answer.

    The page loads its scripts, styles and translations from ``/static/`` and sets no inline
    script, handler or style attribute (styles change through the CSSOM only), so an injected
    ``<script>``, ``onerror=`` or ``style=`` would do nothing. Its one picture not of its own
    is the ``data:`` favicon. ``connect-src 'self'`` covers the page's own ``ws:``/``wss:`` in
    browsers that follow CSP 3; the host's ``ws://`` and ``wss://`` are named too, for those
    that read ``'self'`` as ``http(s)`` only. ``frame-ancestors 'none'``: no page elsewhere may
    frame a game table and trick a player into clicks (clickjacking).
    """
    connect = "'self'"
    name = (host or "").strip().lower()
    if _POLICY_HOST.match(name):
        connect += f" ws://{name} wss://{name}"
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def _is_page(path: str) -> bool:
    """Whether ``path`` is the web client (the page and its files) rather than data."""
    return path == "/" or path.startswith(("/r/", "/static/"))


class SecurityHeaders:
    """ASGI middleware giving every HTTP answer (pages, files, API, records, errors) the
    browser's security headers, in one place so that no route can forget them.

    - ``Content-Security-Policy`` (see :func:`content_security_policy`) and
      ``X-Frame-Options: DENY`` for browsers that predate ``frame-ancestors``.
    - ``X-Content-Type-Options: nosniff``: a record or an API answer (JSON carrying players'
      names) is never read as HTML or script.
    - ``Referrer-Policy: no-referrer``: the room's code is in the page's address
      (``/r/K7QW3P``) and is the room's only key; no request the page makes, nor a link
      followed from it, says where it came from.
    - ``Cache-Control``: the page and its files ``no-cache`` (kept, but checked with the server
      each time: after an upgrade no browser runs an old page, or old modules beside new
      ones); the API and the records ``no-store`` (room summaries and records are for
      whoever holds the code, not for a shared cache on the way, nor the browser's disk).
      A route that sets its own keeps it.
    - ``Cross-Origin-Opener-Policy: same-origin``: a page that opened the game's tab gets no
      handle on it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = None
        for key, value in scope["headers"]:
            if key == b"host":
                host = value.decode("latin-1")
                break
        cache = "no-cache" if _is_page(scope["path"]) else "no-store"
        fixed = [
            ("content-security-policy", content_security_policy(host)),
            ("x-frame-options", "DENY"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "no-referrer"),
            ("cross-origin-opener-policy", "same-origin"),
        ]

        started = False

        async def send_with_headers(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in fixed:
                    headers[name] = value
                if "cache-control" not in headers:
                    headers["cache-control"] = cache
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # Starlette's own "Internal Server Error" is sent from outside every middleware,
            # with none of the headers: this one is sent here, and the error goes on to be
            # logged (Starlette then sees the answer started and sends nothing more).
            if not started:
                await PlainTextResponse("Internal Server Error", status_code=500)(
                    scope, receive, send_with_headers
                )
            raise


def own_names() -> list[str]:
    """This machine's own names, as the other machines of a household reach it (``gamebox``,
    and ``gamebox.local`` through mDNS): an attacker cannot make a browser use them for its own
    page, so they are no rebinding risk."""
    name = socket.gethostname().strip().lower()
    return [name, f"{name}.local"] if name else []


#: Schemes of a connection known to be secure (TLS to the server, or a proxy that says so).
_SECURE = {"https", "wss"}


def origin_allowed(
    origin: str | None, host: str | None, allowed: list[str], scheme: str | None = None
) -> bool:
    """A browser's ``Origin`` must be the server's own or a listed one. The server's own: the
    same host:port as the ``Host`` header and, when the request came in secure (``scheme``
    ``wss`` or ``https``), a page of ``https``: a page of plain ``http`` (which any network
    on the way can write) must not pass for the https server, and ``Host`` omits the default
    port, so host:port alone does not tell them apart. A connection in plain ``ws`` takes pages
    of either scheme: behind a proxy that ends TLS without saying so (no ``X-Forwarded-Proto``,
    which uvicorn believes from 127.0.0.1 and ::1, or ``FORWARDED_ALLOW_IPS``) the players'
    https pages arrive that way."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    parts = urlsplit(origin)
    if not host or parts.netloc.lower() != host.lower():
        return False
    page = parts.scheme.lower()
    if page not in ("http", "https"):
        return False
    return page == "https" or (scheme or "").lower() not in _SECURE


def admin_allowed(request: Request, config: ServerConfig) -> bool:
    """Whether a request may change the server's measurements (``POST /api/metrics``).

    With ``admin_token`` set, only a request carrying it (``Authorization: Bearer …``): behind
    a proxy on the same machine every request comes from loopback. Without one, a request from
    the loopback address, unless a browser sent it from a page of another origin (a page
    anywhere may make a browser on this machine post to 127.0.0.1).
    """
    if config.admin_token:
        given = request.headers.get("authorization", "")
        expected = f"Bearer {config.admin_token}"
        return secrets.compare_digest(given.encode(), expected.encode())
    client = request.client
    return is_loopback(client.host if client else None) and origin_allowed(
        request.headers.get("origin"), request.headers.get("host"), config.allow_origins,
        request.url.scheme,
    )
