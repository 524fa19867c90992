"""House rules on the page: the create form's closed section sets them (only the changed ones
are sent), and every page at the table lists those in effect, in its own language."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from rummykit.rules import option_schema
from tests.web_support import Server, add_bots, js_errors, low_contrast, new_page

#: The narrowest phones in common use.
NARROW_PHONE = {"width": 360, "height": 780}


def room_options(server: Server, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/api/rooms/{code}", timeout=5) as r:
        options: dict[str, Any] = json.load(r)["room"]["options"]
    return options


def test_house_rules_set_in_the_lobby_reach_every_page(server: Server, browser: Any) -> None:
    page = new_page(browser, viewport=NARROW_PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.fill("#name", "Ana")
    page.select_option("#variant", "rummy")
    # the section comes with the server's list, closed, and says nothing is changed
    section = page.locator("details.house-rules")
    section.wait_for()
    assert section.evaluate("d => d.open") is False
    summary = page.locator("[data-key=house-summary]")
    assert summary.inner_text() == "House rules (as the rule book)"
    summary.click()
    assert page.locator("#house-blocked_deal").input_value() == "scored"
    assert page.locator("#house-restock_keeps_top").is_checked()
    page.select_option("#house-blocked_deal", "void")
    page.locator("#house-restock_keeps_top").set_checked(False)
    assert summary.inner_text() == "House rules (2 changed)"
    # a rule set back to its default is no longer counted (nor sent)
    page.select_option("#house-swap", "none")
    page.select_option("#house-swap", "any")
    assert summary.inner_text() == "House rules (2 changed)"
    # open at 360 px: nothing sticks out sideways, and every label reads well
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW_PHONE["width"]
    assert not low_contrast(page), low_contrast(page)
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    code = page.locator("[data-room-code]").inner_text()

    options = room_options(server, code)
    assert options["blocked_deal"] == "void" and options["restock_keeps_top"] is False
    assert "swap" not in options and "max_restocks" not in options
    line = page.locator("[data-house-rules]")
    assert line.inner_text() == (
        "House rules: Blocked deal: Void (dealt again) · "
        "Reshuffling keeps the discard's top card: no"
    )

    # a second person, in French, opens the link: the waiting room lists the same rules
    other = new_page(browser, locale="fr-FR")
    other.goto(f"{server.base}/r/{code}")
    other.wait_for_selector("[data-house-rules]")
    text = other.locator("[data-house-rules]").inner_text()
    assert "Donne bloquée\u00a0: Annulée (on redonne)" in text, text
    assert "Le remélange garde la carte du dessus de la défausse\u00a0: non" in text, text

    # at the table, the panel beside the scores lists them on both pages
    add_bots(page)
    for p, words in ((page, "Blocked deal: Void"), (other, "Donne bloquée\u00a0: Annulée")):
        p.wait_for_selector(".side [data-house-rules]")
        assert words in p.locator(".side [data-house-rules]").inner_text()
    assert not js_errors(page) and not js_errors(other), (page.js_errors, other.js_errors)
    other.context.close()
    page.context.close()


def test_a_room_without_house_rules_shows_none(server: Server, browser: Any) -> None:
    page = new_page(browser, locale="es-ES")
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.select_option("#variant", "indian")
    page.locator("details.house-rules").wait_for()
    assert page.locator("[data-key=house-summary]").inner_text() == (
        "Reglas de la casa (las del reglamento)"
    )
    # the first dealer is chosen among the seats the table has
    page.select_option("#players", "3")
    page.click("[data-key=house-summary]")
    seats = page.locator("#house-first_dealer option").all_inner_texts()
    assert seats == ["Asiento 1", "Asiento 2", "Asiento 3"], seats
    page.select_option("#house-first_dealer", "2")
    page.select_option("#players", "2")
    assert page.locator("#house-first_dealer").input_value() == "0"
    assert page.locator("[data-key=house-summary]").inner_text() == (
        "Reglas de la casa (las del reglamento)"
    )
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    code = page.locator("[data-room-code]").inner_text()
    assert set(room_options(server, code)) == set(option_schema("indian"))
    assert page.locator("[data-house-rules]").count() == 0
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_number_past_its_bounds_becomes_the_nearest_allowed(
    server: Server, browser: Any
) -> None:
    # The field's min only guides its arrows: a typed -5 reshuffles was sent, and the server
    # refused the whole room ("These table options are not allowed").
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.fill("#name", "Ana")
    page.select_option("#variant", "rummy")
    page.click("[data-key=house-summary]")
    field = page.locator("#house-max_restocks")
    field.fill("-5")
    field.dispatch_event("change")
    assert field.input_value() == "-1"
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    code = page.locator("[data-room-code]").inner_text()
    assert room_options(server, code)["max_restocks"] == -1
    assert not js_errors(page), page.js_errors
    page.context.close()


FITS_JS = """async (cases) => {
  const t = await import('/static/js/meldfit.js');
  return cases.map(([cards, card, variant, options]) =>
    t.fits({cards: cards.split(' ')}, card, {variant, options, wild_rank: null}).swap);
}"""


def test_the_pages_swap_hints_follow_the_house_rule(server: Server, browser: Any) -> None:
    """Where a card would free a table joker is hinted by the room's swap rule, its own or a
    house rule's (the engine refuses the others)."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    cases = [
        ["6S X 6D", "6C", "rummy", {}],  # rummy: any exact place
        ["6S X 6D", "6C", "rummy", {"swap": "fourth"}],  # only as a set's fourth card
        ["6S 6H 6D X", "6C", "rummy", {"swap": "fourth"}],
        ["5H X 7H", "6H", "rummy", {"swap": "none"}],  # no swaps at all
        ["6S X 6D", "6C", "rami51", {}],
        ["6S X 6D", "6C", "rami51", {"swap": "any"}],
    ]
    assert page.evaluate(FITS_JS, cases) == [True, False, True, False, False, True]
    assert not js_errors(page), page.js_errors
    page.context.close()
