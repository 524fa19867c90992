"""Three gaps of the web client, each kept (docs/web.md): a game watched again lost its place
at a reload; the waiting room's quick messages read in the log as deal 1's oldest moves; the
status line of a phone held sideways cut to one line until tapped."""

from __future__ import annotations

from typing import Any

from tests.test_web_replay import shown, wait_step
from tests.web_support import (
    Server,
    add_bots,
    create_room,
    game_over_against_a_bot,
    js_errors,
    new_page,
)


def test_the_replay_keeps_its_place_through_a_reload_and_back_and_forward(
    planned_server: Server, browser: Any
) -> None:
    """A reload in the middle of a game watched again fell back to the end screen, the deal
    and the move lost; so did the browser's Back and Forward out of the room and into it."""
    page = new_page(browser)
    game_over_against_a_bot(page, planned_server.base)
    page.wait_for_selector("[data-end=game]")
    page.click("[data-action=replay]")
    wait_step(page, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_step(page, 3)
    before = shown(page)

    page.reload()
    wait_step(page, 3)
    after = shown(page)
    assert after["deal"] == before["deal"] == 1
    assert after["hands"] == before["hands"] and after["move"] == before["move"]
    # the keys go on from there, and the place kept is the new one
    page.keyboard.press("ArrowLeft")
    wait_step(page, 2)
    two = shown(page)
    page.reload()
    wait_step(page, 2)

    # Back leaves the room for the lobby, as it did; Forward comes back to the same move
    page.go_back()
    page.wait_for_selector("[data-action=create]")
    page.go_forward()
    wait_step(page, 2)
    again = shown(page)
    keys = ("deal", "hands", "move")
    assert [again[k] for k in keys] == [two[k] for k in keys]

    # closed, the end screen is what a reload shows again
    page.click("[data-action=replay-close]")
    page.wait_for_selector("[data-end=game]")
    page.reload()
    page.wait_for_selector("[data-end=game]")
    assert page.query_selector(".replay") is None
    assert not js_errors(page), page.js_errors
    page.context.close()


def log_lines(page: Any) -> list[str]:
    """The log panel's lines as shown, top to bottom: a deal's or the waiting room's line by
    its mark, a quick message as said, a move as a dot."""
    lines: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.log li')].map((li) =>
             li.hasAttribute('data-log-before') ? `before:${li.textContent}`
             : li.hasAttribute('data-log-deal') ? `deal:${li.dataset.logDeal}`
             : li.classList.contains('said-line') ? `said:${li.textContent}` : 'move')"""
    )
    return lines


def test_quick_messages_of_the_waiting_room_kept_apart_from_deal_1(
    server: Server, browser: Any
) -> None:
    """A quick message said while the table filled was shown at the foot of deal 1's moves,
    as if said during the deal: it has a line of its own now, *Before the game*."""
    page = new_page(browser)
    create_room(page, server.base, "rummy", 2, name="Ana")
    page.click(".waiting [data-action=say]")
    page.wait_for_selector("#choose[open]")
    page.click("#choose-body [data-value=hello]")
    page.wait_for_selector(".seat-row[data-seat='0'] [data-said=hello]")
    add_bots(page, "easy")
    page.wait_for_selector(".table-view .log li")
    page.wait_for_function("() => document.querySelectorAll('.log li').length >= 3")
    lines = log_lines(page)
    assert lines[0] == "deal:1", lines
    assert lines[-2:] == ["before:Before the game", "said:You (Ana): “Hello!”"], lines
    assert "said:You (Ana): “Hello!”" not in lines[:-1], lines
    # in the page's language
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "() => document.querySelector('[data-log-before]').textContent === 'Avant la partie'"
    )
    assert not js_errors(page), page.js_errors
    page.context.close()
