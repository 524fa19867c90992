"""Whole games against bots, played through the page in a real Chromium (docs/web.md)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from web_support import (
    Server,
    add_bots,
    chromium,
    create_room,
    new_page,
    play_until_over,
    running_server,
    state,
    wait_change,
)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def finish_and_check(page: Any, server: Server, code: str) -> None:
    page.wait_for_selector("[data-end=game]")
    # the end screen: a winner, every hand's penalty, totals, the record link and rematch
    assert page.locator("[data-winner]").count() == 1
    assert page.locator("[data-result-seat]").count() >= 2
    link = page.locator("[data-action=record]").get_attribute("href")
    assert link and link.startswith("/records/")
    with urllib.request.urlopen(server.base + link, timeout=5) as r:
        record = json.load(r)
    assert record["deals"], record
    assert page.locator("[data-action=rematch]").is_enabled()
    assert not page.js_errors, page.js_errors


def test_rummy_two_players_against_a_bot(server: Server, browser: Any) -> None:
    page = new_page(browser)
    code = create_room(page, server.base, "rummy", 2, {"opening": 30})
    add_bots(page)
    page.wait_for_selector(".hand-card")
    turns = play_until_over(page, time_limit=150)
    assert turns >= 1
    finish_and_check(page, server, code)
    page.context.close()


def test_indian_points_game_ends_with_a_drop(server: Server, browser: Any) -> None:
    page = new_page(browser)
    code = create_room(page, server.base, "indian", 2, {"format": "points"})
    add_bots(page)
    page.wait_for_function(
        "() => { const S = window.rummykit.S; return S.view && S.view.turn && S.view.turn.seat === S.you; }"
    )
    s = state(page)
    assert s["variant"] == "indian"
    # the wild joker is shown, the declaration check is there, and dropping shows its cost
    assert page.locator(".indicator .card").count() == 1
    assert page.locator(".meter.declaration").count() == 1
    drop = page.locator("[data-action=drop]")
    assert "20" in drop.inner_text()
    v = s["version"]
    drop.click()
    page.locator("#confirm-ok").click()
    wait_change(page, v)
    finish_and_check(page, server, code)
    page.context.close()
