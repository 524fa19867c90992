"""What a fresh look at the day's changes to the page found, each kept: a name's initial (the
avatar's, and now the mark on each meld of a phone) half of an emoji; a hand all in groups on a
phone held sideways with nowhere to drag a card back among the loose ones; a long name without
a space, in the scores panel, the log and the look back at the game, wider than a phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    How,
    Server,
    add_bots,
    create_room,
    js_errors,
    new_page,
    play_against_bots,
    play_until_over,
    running_server,
)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def planned_server() -> Iterator[Server]:
    """The server dealing 2-player games from tests/web_decks.py: short whole games."""
    with running_server(planned=True) as s:
        yield s


def test_a_names_initial_is_its_first_character_as_drawn(server: Server, browser: Any) -> None:
    """``name[0]`` took the first UTF-16 unit: half of an emoji (drawn as a box), a flag's
    first half, a bare accent typed apart from its letter, a Hangul filler that draws
    nothing."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    got = page.evaluate("""async () => {
      const { initial } = await import('/static/js/lobby.js');
      return ["😀 Ana", "🇪🇸 Lola", "e\\u0301lise", "\\u3164Bo", " ana", "Ωmega", "علي", "", null]
        .map(initial);
    }""")
    assert got == ["😀", "🇪🇸", "E\u0301", "B", "A", "Ω", "ع", "?", "?"]
    # the avatar of a seat so named, in the waiting room
    create_room(page, server.base, "rummy", 2, name="😀 Ana")
    avatar = page.locator(".seat-row.mine .avatar").inner_text()
    assert avatar == "😀"
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_card_dragged_out_of_a_group_at_568_by_320_goes_back_among_the_loose(
    server: Server, browser: Any
) -> None:
    """Held sideways, a phone hides the empty box of the loose cards so that a grouped hand
    keeps to one row; while a card was dragged it stayed hidden, and a hand all in groups had
    no place to drop a card that was to leave its group (only the new group's box showed)."""
    from tests.test_web_touch import touch_page

    page = touch_page(browser, 568, 320)
    play_against_bots(page, server.base, "rummy", 2)
    page.evaluate("""() => { const { S, actions } = window.rummykit;
      const ids = S.arrangement.all();
      for (let i = 0; i < ids.length; i += 4) S.arrangement.group(ids.slice(i, i + 4));
      actions.render(); }""")
    page.wait_for_selector(".hand .group:not(.loose)")
    loose = page.locator(".hand .group.loose")
    assert not loose.is_visible()  # the hand's one row, as before
    card = page.locator(".hand .group:not(.loose) .hand-card").first
    moved = card.get_attribute("data-id")
    a = card.bounding_box()
    assert a
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 12, a["y"] + 12, steps=3)
    page.wait_for_function("() => document.body.classList.contains('dragging')")
    assert loose.is_visible()
    b = loose.bounding_box()
    # on the screen, and as wide as a finger (its line, cut to nothing, made it 26 px wide)
    assert b and b["y"] + b["height"] / 2 <= 320 and b["width"] >= 44, b
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()
    assert page.evaluate("() => window.rummykit.S.arrangement.loose") == [moved]
    assert not js_errors(page), page.js_errors
    page.context.close()


#: Whether anything of the page reaches past the screen's right edge (a phone then scrolls
#: sideways, or shows the whole page smaller).
WIDER = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def test_a_long_name_without_a_space_fits_a_phone(planned_server: Server, browser: Any) -> None:
    """A name may be 24 letters without a space ("WWWW…"): the scores panel's rows and lines,
    the deals' list and the log, and the look back's line of the move (which names the seats as
    the game's record does) held it on one line, and a 320 px phone's page was 435 px wide."""
    from tests.test_web_replay import wait_step

    name = "W" * 24
    page = new_page(browser, locale="fr-FR", viewport={"width": 320, "height": 568})
    create_room(page, planned_server.base, "rummy", 2, name=name)
    add_bots(page, "easy")
    page.wait_for_selector(".hand-card")
    assert not page.evaluate(WIDER)
    # played on a desktop's screen (the helper's taps), looked at on the phone's
    page.set_viewport_size({"width": 1280, "height": 800})
    play_until_over(page, [How()])
    page.wait_for_selector("[data-end=game]")
    page.set_viewport_size({"width": 320, "height": 568})
    assert page.locator(".log li.mine").count() > 0  # the name in the log
    assert not page.evaluate(WIDER)
    page.click("[data-action=replay]")
    wait_step(page, 0)
    page.keyboard.press("End")
    page.wait_for_function("() => /WWWW/.test(document.querySelector('.replay-move').textContent)")
    assert not page.evaluate(WIDER)
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(320, 568), (568, 320)])
def test_the_look_back_says_who_laid_each_meld_on_a_phone(
    planned_server: Server, browser: Any, width: int, height: int
) -> None:
    """A phone hides a meld's owner's name for want of room: the table now shows a mark in its
    place, but the look back at a game showed neither, nor said it to a screen reader."""
    from tests.test_web_replay import wait_step

    page = new_page(browser, locale="es-ES")
    create_room(page, planned_server.base, "rummy", 2)
    add_bots(page, "easy")
    page.wait_for_selector(".hand-card")
    play_until_over(page, [How()])
    page.wait_for_selector("[data-end=game]")
    page.set_viewport_size({"width": width, "height": height})
    page.click("[data-action=replay]")
    wait_step(page, 0)
    page.keyboard.press("End")
    page.wait_for_selector(".replay-meld")
    owners = page.locator(".replay-meld .meld-owner")
    assert owners.count() > 0
    for i in range(owners.count()):
        assert owners.nth(i).is_visible(), i
        assert owners.nth(i).inner_text() in ("Tú (Ana)", "Bot 2 (fácil)")
    assert not page.evaluate(WIDER)
    assert not js_errors(page), page.js_errors
    page.context.close()
