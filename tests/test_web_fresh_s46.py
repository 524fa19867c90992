"""Fresh-eyes checks of the dialogs' own live regions (docs/web.md, *Screen readers*)."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, two_people_and_a_spectator

HELP_REGION = "() => document.querySelector('#help [data-announcer]').textContent"
ANNOUNCE = "async (m) => (await import('/static/js/ui.js')).announce(m)"


def test_a_dialog_opened_again_says_nothing_old(server: Any, browser: Any) -> None:
    # what the help's region said while it was open stayed in it once closed, and the help
    # opened again showed the old move to a screen reader reading the dialog
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    ben.click("#help-btn")
    ben.wait_for_selector("#help[open]")
    ben.evaluate(ANNOUNCE, "Ana discarded 7H")
    ben.wait_for_function(f"() => ({HELP_REGION})() === 'Ana discarded 7H'")
    ben.keyboard.press("Escape")
    # the region is emptied by the dialog's close event, which comes as a task after the
    # dialog has shut: waited for, not read at once
    ben.wait_for_function(
        f"() => !document.getElementById('help').open && ({HELP_REGION})() === ''"
    )
    ben.click("#help-btn")
    ben.wait_for_selector("#help[open]")
    assert ben.evaluate(HELP_REGION) == ""
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_a_toast_under_a_dialog_is_said_in_it(server: Any, browser: Any) -> None:
    # the toast is an alert of the page, inert under a modal dialog: an error that came while
    # the help was open went unsaid; said in the dialog's region, and once only
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    toast = "async (m) => (await import('/static/js/ui.js')).toast(m, 'error')"
    ben.evaluate(toast, "Not now")
    ben.wait_for_selector("#toast:not([hidden])")
    # with no dialog open the toast says it itself
    assert "Not now" not in ben.evaluate("() => document.getElementById('announcer').textContent")
    ben.click("#help-btn")
    ben.wait_for_selector("#help[open]")
    ben.evaluate(toast, "Your seat was taken in another tab")
    ben.wait_for_function(f"() => ({HELP_REGION})() === 'Your seat was taken in another tab'")
    assert "another tab" not in ben.evaluate(
        "() => document.getElementById('announcer').textContent")
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_being_away_is_said_under_a_dialog(server: Any, browser: Any) -> None:
    # the away banner is an alert of the page, inert under the help: a player reading the help
    # as the clock ran out heard the game's move for them but not that they were now away
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    ben.click("#help-btn")
    ben.wait_for_selector("#help[open]")
    ben.evaluate("() => { const { S, actions } = window.rummykit;"
                 " S.room.seats[S.you].away = true; actions.render(); }")
    ben.wait_for_selector(".banner.away", state="attached")
    ben.wait_for_function(f"() => ({HELP_REGION})().includes('You were away')")
    # said once: a redraw while still away says nothing more
    ben.evaluate("async () => { (await import('/static/js/ui.js')).announce('Ana drew');"
                 " window.rummykit.actions.render(); }")
    ben.wait_for_function(f"() => ({HELP_REGION})() === 'Ana drew'")
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()
