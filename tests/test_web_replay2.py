"""Gaps of the web client, each kept (docs/web.md): a game watched again lost its place at a
reload."""

from __future__ import annotations

from typing import Any

from tests.test_web_replay import shown, wait_step
from tests.web_support import Server, game_over_against_a_bot, js_errors, new_page


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
