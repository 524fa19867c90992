"""Whole games against bots, played through the page in a real Chromium (docs/web.md)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    MY_TURN_OR_OVER,
    Server,
    add_bots,
    chromium,
    create_room,
    drag,
    new_page,
    play_turn,
    play_until_over,
    running_server,
    select_cards,
    state,
    tap,
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
    add_bots(page, "easy")  # easy bots never drop: the game cannot end before our turn
    page.wait_for_function(MY_TURN_OR_OVER)
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


@pytest.fixture(scope="module")
def fast_clock_server() -> Iterator[Server]:
    """Turn clocks at 1/10 (45 s become 4.5 s, time enough for a turn through the page): a seat
    that stops playing is soon *away*."""
    with running_server(clock_scale=0.1) as s:
        yield s


@pytest.mark.parametrize("variant", ["rami51", "rami71", "simple"])
def test_rami_game_to_the_end_with_the_clock(
    fast_clock_server: Server, browser: Any, variant: str
) -> None:
    """We play our first turns through the page, then let the clock run out: after two
    timeouts the seat is away, the server plays it at once, and the page follows the deals to
    the end of the game (a Rami game lasts several deals: rivals pay until one side loses)."""
    server = fast_clock_server
    page = new_page(browser)
    code = create_room(page, server.base, variant, 2)
    add_bots(page, "medium")
    for turn in (1, 2):
        page.wait_for_function(MY_TURN_OR_OVER)
        if state(page)["over"]:
            break
        play_turn(page, turn)
    # now we stop: the clock plays for us, and the page says we are away
    page.wait_for_selector("[data-action=back]", timeout=20000)
    assert page.locator(".banner.away").count() == 1
    deals_seen: set[int] = set()
    start = time.monotonic()
    while not state(page)["over"]:
        assert time.monotonic() - start < 60, f"{variant}: no end after {sorted(deals_seen)}"
        if page.locator("[data-end=deal]").count():
            deals_seen.add(int(page.locator(".table-view").get_attribute("data-deal") or 0))
        page.wait_for_timeout(100)
    finish_and_check(page, server, code)
    # every deal's result was scored; the losing side passed its limit
    view = page.evaluate("() => window.rummykit.S.view")
    limit = {"rami51": 251, "rami71": 251, "simple": 300}[variant]
    assert max(view["scores"]) >= limit, view["scores"]
    assert len(view["results"]) >= 1
    page.context.close()


def test_take_by_drag_then_return(server: Server, browser: Any) -> None:
    """Take the discard by dragging it into the hand (the card is marked as owed and the status
    says so), put it back with Return (devolver), then draw: all in Spanish."""
    page = new_page(browser, locale="es-ES")
    create_room(page, server.base, "rummy", 2, {"opening": 51})
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    s = state(page)
    top = page.locator("[data-action=pile]").get_attribute("data-top")
    assert "take" in s["can"] and top
    assert page.locator("[data-action=take]").inner_text().startswith("Tomar")
    assert drag(page, "[data-action=pile]", ".hand")
    wait_change(page, s["version"])
    s = state(page)
    assert s["owes"] == [top] and "return" in s["can"]
    assert page.locator(".hand-card.owed").count() >= 1
    assert "antes de descartar" in page.locator("[data-status=turn]").inner_text()
    assert page.locator("[data-action=return-btn]").inner_text() == "Devolver la carta"
    tap(page, "[data-action=return-btn]")
    wait_change(page, s["version"])
    s = state(page)
    assert s["phase"] == "draw" and "take" not in s["can"] and "draw" in s["can"]
    assert page.locator("[data-action=pile]").get_attribute("data-top") == top
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_wrong_declaration_warned_and_refused_move_explained(server: Server, browser: Any) -> None:
    """Indian rummy: Declare with cards that are no valid declaration first warns (80 points);
    insisting with a group of three sends it, the server refuses it (13 cards must be shown) and
    the page says why: a translated label, then the engine's reason; nothing changes."""
    page = new_page(browser, locale="es-ES")
    create_room(page, server.base, "indian", 2, {"format": "points"})
    add_bots(page, "easy")  # easy bots never drop: the game cannot end before our turn
    page.wait_for_function(MY_TURN_OR_OVER)
    s = state(page)
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    s = state(page)
    assert s["declaration"] is not None and s["declaration"]["valid"] is False
    assert page.locator("[data-declaration=invalid]").count() == 1
    select_cards(page, [i for i, _ in s["hand"][:3]])
    tap(page, "[data-action=group]")
    tap(page, "[data-action=declare]")
    page.wait_for_selector("#confirm[open]")
    assert page.locator("#confirm-title").inner_text() == "Esta declaración sería errónea"
    assert "80" in page.locator("#confirm-body").inner_text()
    page.click("#confirm-ok")
    page.wait_for_selector("#toast:not([hidden])")
    text = page.locator("#toast").inner_text()
    assert text.startswith("No permitido: "), text
    assert "13" in text, text
    assert state(page)["version"] == s["version"]
    assert len(state(page)["hand"]) == 14
    assert not page.js_errors, page.js_errors
    page.context.close()
