"""Two people at one table in two browser contexts, a spectator, and reconnection (docs/web.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from web_support import (
    PHONE,
    Server,
    add_bots,
    chromium,
    create_room,
    new_page,
    play_turn,
    running_server,
    state,
)

MY_TURN_OR_OVER = """() => { const S = window.rummykit.S; const v = S.view;
  return S.gameOver || (v && v.turn && v.turn.seat === S.you && !S.pending); }"""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def test_two_people_play_a_whole_game(server: Server, browser: Any) -> None:
    ana = new_page(browser)
    code = create_room(ana, server.base, "rummy", 2, {"opening": 30}, name="Ana")
    # Ben opens the room link on a phone and takes the other seat
    ben = new_page(browser, locale="fr-FR", viewport=PHONE)
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.click("[data-action=sit]")
    ana.wait_for_selector(".table-view")
    ben.wait_for_selector(".table-view")
    # each sees the other by name, with 13 cards, and only their own hand
    assert "Ben" in ana.locator(".seat-chip").inner_text()
    assert "Ana" in ben.locator(".seat-chip").inner_text()
    assert ana.locator(".hand-card").count() in (13, 14)
    # a spectator sees the table but no hand
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    assert watcher.locator(".hand-card").count() == 0
    assert watcher.locator(".seat-chip").count() == 2
    ana.wait_for_function("() => window.rummykit.S.room.spectators === 1")

    start = time.monotonic()
    turns = 0
    while True:
        assert time.monotonic() - start < 150, f"no winner after {turns} turns"
        for page in (ana, ben):
            page.wait_for_function(
                """() => { const S = window.rummykit.S; return !!S.state; }"""
            )
        s_ana, s_ben = state(ana), state(ben)
        if s_ana["over"] and s_ben["over"]:
            break
        mover = ana if s_ana["myTurn"] else ben if s_ben["myTurn"] else None
        if mover is None:
            time.sleep(0.05)
            continue
        turns += 1
        play_turn(mover, turns)
    for page in (ana, ben, watcher):
        page.wait_for_selector("[data-end=game]")
    assert ana.locator("[data-winner]").inner_text() == ana.locator("[data-winner]").inner_text()
    # rematch: both ask, a new game starts in the same room
    ana.click("[data-action=rematch]")
    ben.wait_for_function("() => window.rummykit.S.room.seats.some(s => s.rematch)")
    assert "Ana" in ben.locator("#end-card").inner_text()
    ben.click("[data-action=rematch]")
    for page in (ana, ben):
        page.wait_for_function("() => window.rummykit.S.room.game === 2 && !window.rummykit.S.gameOver")
        page.wait_for_selector(".hand-card")
    for page in (ana, ben, watcher):
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_reconnects_after_reload_and_after_a_server_restart(server: Server, browser: Any) -> None:
    page = new_page(browser)
    code = create_room(page, server.base, "rummy", 2, name="Ana")
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    # arrange a group of two cards: the arrangement survives a reload
    ids = [i for i, _ in state(page)["hand"][:2]]
    for card_id in ids:
        page.locator(f".hand-card[data-id='{card_id}']").click()
    page.click("[data-action=group]")
    grouped = sorted(t for _, t in state(page)["hand"][:2])
    hand_before = sorted(t for _, t in state(page)["hand"])
    page.reload()
    page.wait_for_selector(".hand-card")
    assert page.url.endswith(f"/r/{code}")
    assert sorted(t for _, t in state(page)["hand"]) == hand_before
    assert page.locator(".group:not(.loose)").count() == 1
    assert sorted(
        c.get_attribute("data-card") for c in page.locator(".group:not(.loose) .hand-card").all()
    ) == grouped
    assert page.evaluate("() => window.rummykit.S.you") == 0
    # the server goes away and comes back: the page says so, reconnects and resumes by itself
    page.evaluate("""() => { window.seen = [];
      setInterval(() => window.seen.push(window.rummykit.S.status), 20); }""")
    server.restart()
    page.wait_for_function("() => window.seen.includes('reconnecting')", timeout=10000)
    page.wait_for_function(
        "() => window.rummykit.S.status === 'online' && window.rummykit.S.you === 0", timeout=20000
    )
    page.wait_for_function(MY_TURN_OR_OVER)
    if not state(page)["over"]:
        v = state(page)["version"]
        play_turn(page, 3)
        assert state(page)["version"] > v
    assert not page.js_errors, page.js_errors
    page.context.close()
