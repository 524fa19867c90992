"""Shared test hooks: a failed browser test leaves what its pages showed behind; the browser
tests' server and Chromium."""

from __future__ import annotations

import re
import sys
from collections.abc import Generator, Iterator
from typing import Any

import pluggy
import pytest

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
