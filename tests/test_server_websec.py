"""The browser's security headers on every HTTP answer of the server (``SecurityHeaders`` in
server/websec.py; docs/server.md, *Safety limits*).

What each header stops, as an attack on a server without it:

- a page elsewhere framing a game table under a decoy and taking a player's clicks
  (clickjacking): ``frame-ancestors 'none'``, ``X-Frame-Options: DENY``;
- a record or an API answer, JSON that carries players' names (``<img onerror=…>``), read
  as HTML or script by a browser guessing its type: ``X-Content-Type-Options: nosniff``;
- an injected script or style attribute running in the page: ``Content-Security-Policy``
  (the page itself needs none: tests/test_web_csp.py);
- the room's code, its only key, sent in ``Referer`` from ``/r/CODE``: ``no-referrer``;
- an old page kept by a browser after an upgrade, or a room summary or record kept by a
  shared cache: ``Cache-Control``.
"""

from __future__ import annotations

import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.app import WEB_DIR, create_app
from rummykit.server.config import ServerConfig
from rummykit.server.storage import SQLiteStorage

CODE = "K7QW3P"
#: A finished game's record whose player's name is markup: served, it must stay data.
RECORD: dict[str, Any] = {
    "format": "rummykit-record", "players": ["<img src=x onerror=alert(1)>", "B"]
}


class OneRecord(SQLiteStorage):
    """A database holding one finished record, of room ``CODE``."""

    def get_record(self, code: str, game: int | None = None) -> dict[str, Any] | None:
        return RECORD if code == CODE else None


def _http(tmp_path: Path, store: type[SQLiteStorage] | None = None, **kw: Any) -> Any:
    db = str(tmp_path / "w.db")
    config = ServerConfig(db=db, bot_pool="thread", **kw)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    return TestClient(
        create_app(config, (store or OneRecord)(db)),
        base_url="http://127.0.0.1:8000",
        client=("203.0.113.9", 40000),
        raise_server_exceptions=False,
    )


#: Every kind of answer: the page, a room link, a file, a missing file, the API, a room
#: summary, a record, a missing record, an unknown path, a refused host name.
ANSWERS = [
    ("/", {}, 200, "no-cache"),
    (f"/r/{CODE}", {}, 200, "no-cache"),
    ("/static/js/app.js", {}, 200, "no-cache"),
    ("/static/css/app.css", {}, 200, "no-cache"),
    ("/static/i18n/en.json", {}, 200, "no-cache"),
    ("/static/js/nothing.js", {}, 404, "no-cache"),
    ("/api/health", {}, 200, "no-store"),
    ("/api/variants", {}, 200, "no-store"),
    ("/api/metrics", {}, 200, "no-store"),
    ("/api/rooms/ABCDEF", {}, 404, "no-store"),
    (f"/records/{CODE}.json", {}, 200, "no-store"),
    ("/records/ABCDEF-2.json", {}, 404, "no-store"),
    ("/nothing%3Cscript%3E", {}, 404, "no-store"),
    ("/", {"Host": "evil.example"}, 400, "no-cache"),
]


@pytest.mark.parametrize(("path", "headers", "status", "cache"), ANSWERS)
def test_every_answer_carries_the_security_headers(
    tmp_path: Path, path: str, headers: dict[str, str], status: int, cache: str
) -> None:
    with _http(tmp_path) as http:
        got = http.get(path, headers=headers)
    assert got.status_code == status
    policy = got.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    for name in ("script-src", "style-src"):  # nothing inline, nothing from elsewhere
        assert directives[name] == "'self'", policy
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert got.headers["x-frame-options"] == "DENY"
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["referrer-policy"] == "no-referrer"
    assert got.headers["cross-origin-opener-policy"] == "same-origin"
    assert got.headers["cache-control"] == cache


class BrokenRecords(SQLiteStorage):
    """A database whose records cannot be read: the server's answer is its 500."""

    def get_record(self, code: str, game: int | None = None) -> dict[str, Any] | None:
        raise RuntimeError("the disk went away")


def test_a_server_error_carries_the_security_headers_too(tmp_path: Path) -> None:
    # Starlette's "Internal Server Error" is sent from outside every middleware: it had none.
    with _http(tmp_path, BrokenRecords) as http:
        got = http.get(f"/records/{CODE}.json")
    assert got.status_code == 500
    assert got.text == "Internal Server Error"
    assert "frame-ancestors 'none'" in got.headers["content-security-policy"]
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["cache-control"] == "no-store"


def test_the_policy_lets_the_page_open_its_own_websocket(tmp_path: Path) -> None:
    """``connect-src 'self'`` is the page's own ``ws:``/``wss:`` in CSP 3; the host's are
    named too for browsers that read ``'self'`` as http(s) only, and nothing else is."""
    with _http(tmp_path, allow_hosts=["games.example.org"]) as http:
        for host in ("127.0.0.1:8000", "games.example.org", "[::1]:8000"):
            policy = http.get("/", headers={"Host": host}).headers["content-security-policy"]
            connect = next(d for d in policy.split("; ") if d.startswith("connect-src "))
            if host.startswith("["):  # CSP names no IPv6 address: 'self' alone
                assert connect == "connect-src 'self'", policy
            else:
                assert connect == f"connect-src 'self' ws://{host} wss://{host}", policy


def test_a_host_header_cannot_write_into_the_policy(tmp_path: Path) -> None:
    """The host check reads only the name of ``Host`` (an IP address here): what follows it
    must not reach the policy, where ``; script-src *`` would open the page to any script."""
    with _http(tmp_path) as http:
        got = http.get("/", headers={"Host": "127.0.0.1:8000; script-src * 'unsafe-inline'"})
    assert got.status_code == 200
    policy = got.headers["content-security-policy"]
    assert "*" not in policy and "unsafe" not in policy, policy
    assert "connect-src 'self';" in policy


def test_a_record_naming_markup_is_a_download_of_json(tmp_path: Path) -> None:
    with _http(tmp_path) as http:
        got = http.get(f"/records/{CODE}-1.json")
    assert got.status_code == 200
    assert got.headers["content-type"] == "application/json"
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["content-disposition"].startswith("attachment;")
    assert got.json() == RECORD


def test_a_file_is_still_checked_rather_than_fetched_again(tmp_path: Path) -> None:
    """``no-cache`` keeps files in the browser's cache, checked with their ETag: an unchanged
    module costs a 304, and a changed one (an upgrade) is fetched."""
    with _http(tmp_path) as http:
        first = http.get("/static/js/app.js")
        again = http.get("/static/js/app.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "no-cache"


class _Inline(HTMLParser):
    """What of a page's markup would run or style without a file: inline scripts, ``<style>``,
    ``style=`` and ``on…=`` attributes, ``javascript:`` links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and not named.get("src"):
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:…>")


def test_the_page_needs_nothing_inline() -> None:
    parser = _Inline()
    parser.feed((WEB_DIR / "index.html").read_text(encoding="utf-8"))
    assert parser.found == []
