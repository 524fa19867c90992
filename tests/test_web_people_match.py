"""Games of several deals between two people in separate browser contexts, with a spectator
(docs/web.md): what a hunt through them found, each kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    MY_TURN_OR_OVER,
    add_bots,
    chromium,
    create_room,
    js_errors,
    new_page,
    running_server,
    tap,
)


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    # a 45 s clock runs 4.5 s: long enough for the page to draw and drop, short enough for the
    # two timeouts that mark a seat away
    with running_server("--away-after", "2", clock_scale=0.1) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


YOU = "() => window.rummykit.S.you"
SCORES = "() => window.rummykit.S.view.scores"


def _drop(page: Any, draw_first: bool) -> None:
    """Drop out of the deal on our turn: after a draw (40 in a pool game) or before (20)."""
    if draw_first:
        tap(page, "[data-action=draw]")
        page.wait_for_function(
            "() => window.rummykit.S.view.turn.phase !== 'draw' && !window.rummykit.S.pending"
        )
    page.click("[data-action=drop]")
    page.click("#confirm-ok")


def test_a_player_out_of_a_pool_game_does_not_keep_the_game_going(
    server: Any, browser: Any
) -> None:
    """Ana and Ben play Pool 101 with a bot; Ana drops after drawing each deal (40) and Ben
    before (20), so Ana is out of the game after three deals and watches Ben and the bot. When
    Ben stops playing and is marked away, every person still in the game is away, so the room
    must hold (docs/server.md, *The turn clock*). Ana, out, is never marked away (her clock
    never runs): the room went on, Ben's turns played by ``timeout`` under Ana's eyes."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "indian", 3, {"format": "pool101"}, name="Ana")
    ben = new_page(browser, locale="es-ES")
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.locator("[data-action=sit]").first.click()
    ben.wait_for_selector(".seat-row.mine")
    add_bots(ana)
    watcher = new_page(browser, locale="fr-FR")
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    a, b = ana.evaluate(YOU), ben.evaluate(YOU)
    out = """s => { const v = window.rummykit.S.view;
      return !!(v && v.turn && v.seats[s] && v.seats[s].out === 'eliminated'); }"""
    deadline = time.monotonic() + 150
    while not ana.evaluate(out, a):
        assert time.monotonic() < deadline, ana.evaluate(SCORES)
        assert ana.evaluate(SCORES)[b] <= 101, "Ben went out first"
        for page, draw_first in ((ana, True), (ben, False)):
            me = a if page is ana else b
            mine = """s => { const S = window.rummykit.S; const v = S.view;
              return !!(v && v.turn && v.turn.seat === s && !S.pending && !v.seats[s].out); }"""
            if page.evaluate(mine, me):
                _drop(page, draw_first)
        time.sleep(0.2)
    # Ana is out; Ben stops playing: two of his clocks run out and he is marked away
    ben.wait_for_function(f"() => window.rummykit.S.room.seats[{b}].away", timeout=30000)
    # every person still in the game is away: the room holds, and says so on every page
    for page in (ana, ben, watcher):
        page.wait_for_function("() => window.rummykit.S.room.held", timeout=5000)
        page.wait_for_selector(".banner.held")
    version = ana.evaluate("() => window.rummykit.S.state.version")
    time.sleep(1.5)
    assert ana.evaluate("() => window.rummykit.S.state.version") == version
    # Ben comes back: the game goes on
    ben.click("[data-action=back]")
    ben.wait_for_function("() => !window.rummykit.S.room.held")
    ben.wait_for_function(MY_TURN_OR_OVER, timeout=30000)
    for page in (ana, ben, watcher):
        assert js_errors(page) == []
        page.context.close()
