"""What the page got wrong, each kept: the held banner's words for a person out of a pool game,
the live region after a change of language, long names on the end screen of a 320 px French
phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web_support import (
    MY_TURN_OR_OVER,
    Server,
    add_bots,
    create_room,
    js_errors,
    mover_and_other,
    new_page,
    play_until_over,
    running_server,
    two_people_and_a_spectator,
)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The server dealing 2-player games from tests/web_decks.py: short whole games."""
    with running_server(planned=True) as s:
        yield s


@pytest.fixture()
def page(server: Server, browser: Any) -> Iterator[Any]:
    p = new_page(browser)
    p.goto(server.base + "/")
    p.wait_for_selector(".lobby")
    yield p
    p.context.close()


def test_the_held_banner_tells_a_person_out_of_the_game_that_they_watch(page: Any) -> None:
    """A pool room is held when everyone still in the game is away; a person out of it
    (eliminated) is neither away nor at play, and "everyone at the table is away" was wrong."""
    got = page.evaluate("""async () => {
      const t = await import('/static/js/status.js');
      const seats = (out) => [{ out }, { out: null }, { out: null }];
      return [
        t.heldBannerKey({ you: 0, view: { seats: seats("eliminated") } }),
        t.heldBannerKey({ you: 0, view: { seats: seats(null) } }),
        t.heldBannerKey({ you: null, view: { seats: seats("eliminated") } }),
        t.heldBannerKey({ you: 0, view: { seats: seats("dropped") } }),
      ];
    }""")
    assert got == ["table.heldBannerOut", "table.heldBanner", "table.heldBanner",
                   "table.heldBanner"]
    for lang, words in (("en", "You are out"), ("es", "Tú estás fuera"),
                        ("fr", "Vous êtes éliminé")):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        text = page.evaluate("""async () => {
          const i = await import('/static/js/i18n.js');
          return i.t('table.heldBannerOut');
        }""")
        assert words in text, text


def test_the_live_region_is_emptied_when_the_language_changes(page: Any) -> None:
    """The live region kept its last words in the old language after a switch: a screen reader
    going back to it (or reading the page) found English in a French page."""
    page.evaluate("""async () => {
      const ui = await import('/static/js/ui.js');
      ui.announce('Ben discarded 7♥');
      ui.toast('Not allowed: draw first', 'error', 60000);
    }""")
    expect(page.locator("#announcer")).to_have_text("Ben discarded 7♥")
    page.select_option("#lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#announcer")).to_have_text("")
    expect(page.locator("#toast")).to_be_hidden()
    # and what comes next is said as before
    page.evaluate("""async () => (await import('/static/js/ui.js')).announce('À vous')""")
    expect(page.locator("#announcer")).to_have_text("À vous")


def test_a_name_refused_for_its_stacked_marks_is_told_so(page: Any) -> None:
    """The server refuses a name piling marks on a letter with ``bad_name`` and its reason;
    the page says so, not that the name reads as a bot's."""
    got = page.evaluate("""async () => {
      const app = await import('/static/js/app.js');
      return [app.errorText({ code: "bad_name", reason: "marks", message: "…" }),
              app.errorText({ code: "bad_name", message: "…" })];
    }""")
    assert got == ["That name piles too many marks on one letter: choose another.",
                   "That name reads as a bot's: choose another."]


PHONE = {"width": 320, "height": 640}


@pytest.mark.parametrize("name", ["Maximiliano Hernández Go", "Maximilianohernándezgonz"])
def test_long_names_fit_the_end_screen_of_a_french_320_px_phone(
    server: Server, browser: Any, name: str
) -> None:
    """A 24-character name (the longest there is, with spaces or without) wraps within its cell
    rather than push the Total column out of the end card."""
    page = new_page(browser, locale="fr-FR", viewport=PHONE)
    create_room(page, server.base, "rummy", 2, name=name)
    add_bots(page)
    play_until_over(page)
    fits = page.evaluate(
        """() => { const box = document.querySelector('.table-scroll');
             const card = document.querySelector('#end-card').getBoundingClientRect();
             const cells = [...document.querySelectorAll('.results th, .results td')];
             return [box.scrollWidth <= box.clientWidth,
                     cells.every(c => c.getBoundingClientRect().right <= card.right),
                     document.documentElement.scrollWidth]; }"""
    )
    assert fits[:2] == [True, True] and fits[2] <= PHONE["width"], fits
    assert page.locator(".results thead th").last.inner_text() == "Total"
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_end_screen_says_when_the_rematch_starts_without_a_person_gone(
    server: Server, browser: Any
) -> None:
    """Ben closes his page after the game; Ana asks for a rematch: the server's rematch clock
    runs (it waits only for a person gone), and Ana's end screen and the spectator's say when
    the new game starts without him."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian",
                                                   {"format": "points"})
    mover, _ = mover_and_other(ana, ben)
    mover.wait_for_function(MY_TURN_OR_OVER)
    mover.click("[data-action=drop]")
    mover.click("#confirm-ok")
    for page in (ana, ben, watcher):
        page.wait_for_selector("[data-end=game]")
    ben.context.close()
    ana.click("[data-action=rematch]")
    for page in (ana, watcher):
        line = page.locator("[data-rematch-at]")
        expect(line).to_contain_text("without waiting for Ben")
        expect(line).to_contain_text(" s ")
    assert not js_errors(ana), ana.js_errors
    for page in (ana, watcher):
        page.context.close()


def test_a_tab_replaced_in_a_waiting_room_offers_no_second_seat(
    server: Server, browser: Any
) -> None:
    """Ana's room opened in a second tab of the same browser takes her seat there; the first
    tab, replaced, watches and offers no seat (a second one would store its token over the
    first's), and leaving from it keeps the other tab's token."""
    first = new_page(browser)
    code = create_room(first, server.base, "rummy", 3, name="Ana")
    second = first.context.new_page()
    second.goto(f"{server.base}/r/{code}")
    second.wait_for_selector(".seat-row.mine")
    first.wait_for_selector("[data-seat-elsewhere]")
    expect(first.locator("[data-action=sit]")).to_have_count(0)
    expect(first.locator("[data-seat-elsewhere]")).to_contain_text("open in another window")
    first.click("[data-action=leave]")
    first.wait_for_selector(".lobby")
    second.reload()
    second.wait_for_selector(".seat-row.mine")
    expect(second.locator(".seat-row.mine .seat-name")).to_have_text("Ana")
    assert not js_errors(first), first.js_errors
    first.context.close()
