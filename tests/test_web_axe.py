"""The page checked by axe-core (the accessibility engine browsers' own audits use), screen by
screen, in every language and on a phone: no violation of its rules (WCAG 2 A and AA and its
best practices). What it found, and is kept: cards shown with a name but no role (a name on a
bare div is not read), no top heading at the table, and the log scrolling out of the
keyboard's reach."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web_support import (
    create_room,
    game_over_against_a_bot,
    js_errors,
    new_page,
    play_against_bots,
)

PHONE = {"width": 390, "height": 844}
AXE = Axe()



def violations(page: Any) -> list[str]:
    """Each rule axe finds broken, with the first few nodes that break it."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in found
    ]


@pytest.mark.parametrize(
    ("locale", "viewport"), [("en-US", None), ("es-ES", PHONE), ("fr-FR", PHONE)]
)
def test_lobby_waiting_room_and_dialogs(
    server: Any, browser: Any, locale: str, viewport: dict[str, int] | None
) -> None:
    page = new_page(browser, locale=locale, viewport=viewport)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    assert violations(page) == []
    create_room(page, server.base, "rami51", 4)
    assert violations(page) == []
    page.click("#settings-btn")
    page.wait_for_selector("#settings[open]")
    assert violations(page) == []
    page.keyboard.press("Escape")
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(
    ("variant", "players", "locale", "viewport"),
    [("rummy", 3, "en-US", None), ("indian", 2, "fr-FR", PHONE), ("rami71", 4, "es-ES", None)],
)
def test_the_table_as_a_player_and_as_a_spectator(
    server: Any, browser: Any, variant: str, players: int, locale: str,
    viewport: dict[str, int] | None,
) -> None:
    page = new_page(browser, locale=locale, viewport=viewport)
    code = play_against_bots(page, server.base, variant, players)
    assert violations(page) == []
    # the help, over the table
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    assert violations(page) == []
    page.keyboard.press("Escape")
    # someone watching the same table
    watcher = new_page(browser, locale=locale, viewport=viewport)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    assert violations(watcher) == []
    for p in (page, watcher):
        assert not js_errors(p), p.js_errors
        p.context.close()


@pytest.mark.parametrize(("variant", "locale"), [("rummy", "fr-FR"), ("indian", "en-US")])
def test_the_end_of_a_game(planned_server: Any, browser: Any, variant: str, locale: str) -> None:
    page = new_page(browser, locale=locale, viewport=PHONE)
    game_over_against_a_bot(page, planned_server.base, variant)
    assert violations(page) == []
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_dialogs_banners_and_the_end_of_a_deal(server: Any, browser: Any) -> None:
    """The screens a game shows now and then: a confirmation (Indian rummy's drop), the
    banners (away, reconnecting) and the screen between two deals."""
    from tests.test_web_leftovers import WRONG_END

    page = new_page(browser, locale="es-ES", viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3)
    page.click("[data-action=drop]")
    page.wait_for_selector("#confirm[open]")
    assert violations(page) == []
    page.click("#confirm-cancel")
    page.evaluate(
        """() => { const S = window.rummykit.S;
                   S.room = { ...S.room, seats: S.room.seats.map((s) =>
                     s.seat === S.you ? { ...s, away: true } : s) };
                   S.status = "connecting";
                   window.rummykit.actions.render(); }"""
    )
    page.wait_for_selector(".banner.away")
    page.wait_for_selector(".banner.offline")
    assert violations(page) == []
    page.evaluate(WRONG_END, False)
    page.wait_for_selector("[data-end=deal]")
    assert violations(page) == []
    assert not js_errors(page), page.js_errors
    page.context.close()
