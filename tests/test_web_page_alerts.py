"""The alerts of the page (docs/web.md, *Accessibility and comfort*): the table's banners (away,
held, the connection lost) and the top bar's connection status are said once as they come, by
the page's live region or, while a modal dialog is open, by the dialog's own (the rest of the
page is inert under it); a banner that stays up through the redraws is not said again."""

from __future__ import annotations

from typing import Any

from tests.web_support import (
    js_errors,
    mover_and_other,
    speech,
    tap,
    two_people_and_a_spectator,
    watch_speech,
)

# every text the help's live region takes from now on
WATCH_HELP_JS = """() => { window.helpSaid = [];
  const region = document.querySelector('#help [data-announcer]');
  new MutationObserver(() => { if (region.textContent) window.helpSaid.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""
HELP_SAID = "() => window.helpSaid"
REDRAW = "() => window.rummykit.actions.render()"
HELD_JS = """(held) => { const { S, actions } = window.rummykit;
  S.room.held = held; actions.render(); }"""
HELD = "Paused: everyone at the table is away"
AWAY = "You were away"
LOST = "Connection lost"
# the nodes of the table that are live regions of their own: one drawn anew at every redraw is
# said again by a screen reader at every redraw
LIVE_IN_VIEW = """() => document.querySelectorAll(
  '#view [role=alert], #view [role=status], #view [aria-live]').length"""
CONN_LIVE = "() => document.getElementById('conn').matches('[role], [aria-live]')"


def said_with(texts: list[str], words: str) -> int:
    return sum(words in text for text in texts)


def open_help(page: Any) -> None:
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    page.evaluate(WATCH_HELP_JS)


def close_all(*pages: Any) -> None:
    for page in pages:
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_the_room_held_and_being_away_are_said_under_a_dialog(server: Any, browser: Any) -> None:
    # the held banner was an alert of the page only, inert under the help: a player reading the
    # help heard nothing of the game pausing
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    open_help(ben)
    ben.evaluate(HELD_JS, True)
    ben.wait_for_selector(".banner.held", state="attached")
    ben.wait_for_function(f"() => window.helpSaid.some((s) => s.includes({HELD!r}))")
    ben.evaluate(
        "() => { const { S, actions } = window.rummykit;"
        " S.room.seats[S.you].away = true; actions.render(); }"
    )
    ben.wait_for_function(f"() => window.helpSaid.some((s) => s.includes({AWAY!r}))")
    # each said once: redraws under the dialog, the banners still up, say nothing more
    ben.evaluate(
        "async () => { (await import('/static/js/ui.js')).announce('Ana drew');"
        " window.rummykit.actions.render(); window.rummykit.actions.render(); }"
    )
    ben.wait_for_function("() => window.helpSaid.at(-1) === 'Ana drew'")
    said = ben.evaluate(HELP_SAID)
    assert said_with(said, HELD) == 1 and said_with(said, AWAY) == 1, said
    # gone and back, a banner is said again
    ben.evaluate(HELD_JS, False)
    ben.evaluate(HELD_JS, True)
    ben.wait_for_function(f"() => window.helpSaid.filter((s) => s.includes({HELD!r})).length === 2")
    close_all(ana, ben, watcher)


def test_the_connection_lost_is_said_under_a_dialog(server: Any, browser: Any) -> None:
    # the top bar's status and the table's banner were live regions of the page, inert under
    # the help: the connection went, and a player reading the help was not told
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    open_help(ben)
    ben.context.set_offline(True)
    ben.wait_for_selector(".banner.offline", state="attached")
    ben.wait_for_function(f"() => window.helpSaid.some((s) => s.includes({LOST!r}))")
    said = ben.evaluate(HELP_SAID)
    # once, in the table's words: not the top bar's "Reconnecting…" as well
    assert said_with(said, LOST) == 1 and said_with(said, "Reconnecting") == 0, said
    assert ben.evaluate("() => document.getElementById('announcer').textContent") == ""
    ben.context.set_offline(False)
    ben.wait_for_selector(".banner.offline", state="detached")
    close_all(ana, ben, watcher)


def test_a_banner_that_stays_up_is_said_once(server: Any, browser: Any) -> None:
    # the away banner, an alert (role="alert") drawn anew at every redraw, was a new alert at
    # each move of the others; and the connection lost was said twice, by the top bar's status
    # and by the table's banner, both live regions
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    mover, other = mover_and_other(ana, ben)
    watch_speech(other)
    other.evaluate(
        "() => { const { S, actions } = window.rummykit;"
        " S.room.seats[S.you].away = true; actions.render(); }"
    )
    other.wait_for_selector(".banner.away")
    tap(mover, "[data-action=draw]")
    mover.wait_for_selector("[data-action=discard]")
    mover.locator(".hand .hand-card:not([aria-label*='oker'])").first.click()
    tap(mover, "[data-action=discard]")
    other.wait_for_function("() => (window.announced || []).some((s) => s.includes(' discarded '))")
    other.wait_for_selector(".banner.away")
    said = speech(other)["announced"]
    assert said_with(said, AWAY) == 1, said
    # no live region in the table, to be said again as it is drawn anew
    assert other.evaluate(LIVE_IN_VIEW) == 0
    other.context.set_offline(True)
    other.wait_for_selector(".banner.offline")
    other.wait_for_function(f"() => window.announced.some((s) => s.includes({LOST!r}))")
    other.evaluate(REDRAW)
    other.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    said = speech(other)["announced"]
    assert said_with(said, LOST) == 1 and said_with(said, AWAY) == 1, said
    assert other.evaluate(CONN_LIVE) is False
    other.context.set_offline(False)
    other.wait_for_selector(".banner.offline", state="detached")
    close_all(ana, ben, watcher)
