"""The page's language chosen with no network (docs/web.md, *Languages*): a language whose
words were never fetched cannot be had offline. The choice was left half made: the menu named
the new language over a page still in the old one (and choosing it again, once back online,
changed nothing: the menu already named it), and the failed fetch was an uncaught error."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, new_page


def test_a_language_that_cannot_be_fetched_leaves_the_page_and_its_menu_as_they_were(
    server: Any, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.context.set_offline(True)
    page.select_option("#lang", "fr")
    page.wait_for_selector("#toast:not([hidden])")
    # said in the page's language, which it keeps, and the menu names that one
    assert "could not be loaded" in page.locator("#toast").inner_text()
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.locator("#lang").input_value() == "en"
    assert js_errors(page) == []
    # back online, the same choice is made
    page.context.set_offline(False)
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.locator("#lang").input_value() == "fr"
    assert js_errors(page) == []
    page.context.close()
