"""What the others play is said while a dialog is open over the table (docs/web.md, *Screen
readers*): a modal dialog makes the rest of the page inert, its live region included, so the
moves made while the help or a past deal's results were open went unsaid. Each dialog has a
live region of its own, which says them while it is open."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, mover_and_other, tap, two_people_and_a_spectator

REGIONS = """() => ({ page: document.getElementById('announcer').textContent,
  help: document.querySelector('#help [data-announcer]').textContent })"""


def test_a_move_made_while_the_help_is_open_is_said_in_it(server: Any, browser: Any) -> None:
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    mover, other = mover_and_other(ana, ben)
    other.click("#help-btn")
    other.wait_for_selector("#help[open]")
    tap(mover, "[data-action=draw]")
    mover.wait_for_selector("[data-action=discard]")
    mover.locator(".hand .hand-card:not([aria-label*='oker'])").first.click()
    tap(mover, "[data-action=discard]")
    other.wait_for_function("() => document.querySelector('#help [data-announcer]')"
                            ".textContent.includes(' discarded ')")
    said = other.evaluate(REGIONS)
    # said once, in the dialog: the page's region, inert under it, is left empty
    assert said["help"].endswith("Your turn"), said
    assert said["page"] == "", said
    # closed, what comes next is said by the page's region again
    other.keyboard.press("Escape")
    other.wait_for_function("() => !document.getElementById('help').open")
    other.evaluate("async () => (await import('/static/js/ui.js')).announce('Ben drew')")
    other.wait_for_function("() => document.getElementById('announcer').textContent === 'Ben drew'")
    assert other.evaluate(REGIONS)["help"] == ""
    # a change of language empties them all
    other.click("#help-btn")
    other.evaluate("async () => (await import('/static/js/ui.js')).announce('Hola')")
    other.wait_for_function("() => document.querySelector('#help [data-announcer]')"
                            ".textContent === 'Hola'")
    other.keyboard.press("Escape")
    other.select_option("#lang", "fr")
    other.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert other.evaluate(REGIONS) == {"page": "", "help": ""}
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()
