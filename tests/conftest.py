"""Shared test hooks: a failed browser test leaves what its pages showed behind; the browser
tests' server and Chromium; a planned server for whole games; the server's rooms in-process."""

from __future__ import annotations

import re
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pluggy
import pytest

from rummykit.server.rooms import RoomManager
from tests.server_support import thread_rooms
from tests.web_support import Server, chromium, running_server


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    outcome = yield
    report = outcome.get_result()
    web = sys.modules.get("tests.web_support")
    if web is None:
        return
    if report.when == "call" and report.failed:
        name = re.sub(r"[^\w.-]+", "_", item.nodeid)
        lines = web.save_pages(name)
        if lines:
            report.sections.append(("pages at the failure", "\n".join(lines)))
        server = item.funcargs.get("server") if isinstance(item, pytest.Function) else None
        if isinstance(server, web.Server) and not server.log.closed:
            report.sections.append(("server output (last 4000 characters)", server.output()))
    if report.when == "teardown":
        web.OPEN_PAGES.clear()


# One real server and one Chromium per browser test module (tests/test_web_*.py); the server
# tests define a `server` of their own, which takes precedence in their modules.
@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def planned_server() -> Iterator[Server]:
    """A server dealing 2-player games from tests/web_decks.py: short whole games, for the
    browser tests of whole games and their end screens."""
    with running_server(planned=True) as s:
        yield s


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[RoomManager]:
    """The server's rooms on a SQLite file, without a process or a socket (thread_rooms)."""
    with thread_rooms(tmp_path / "rooms.db") as rooms:
        yield rooms
