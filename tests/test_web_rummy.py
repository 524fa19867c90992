"""What a bug hunt through `rummy` (the default game) against bots found, each kept by a test
(docs/web.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    Server,
    js_errors,
    new_page,
    play_against_bots,
    running_server,
    state,
    wait_change,
)

LOG_LINES = "() => [...document.querySelectorAll('.log li')].map(li => li.textContent)"


@pytest.fixture(scope="module")
def clock_server() -> Iterator[Server]:
    # turns of some 7 s: time to take the discard, and a clock that still ends the turn soon
    with running_server(clock_scale=0.15) as s:
        yield s


def test_the_log_says_the_clock_undid_a_turn_that_owed_the_taken_card(
    clock_server: Server, browser: Any
) -> None:
    """A player who takes the discard and lets the clock run out owes that card: the clock
    undoes the turn (the card goes back to the pile, anything laid back to the hand) before
    it draws and discards. The log said only *the game drew and discarded 9♣*, under *Ana took
    4♣ from the discard*, as if the taken card were still in her hand."""
    page = new_page(browser)
    play_against_bots(page, clock_server.base, "rummy", 2, {"length": "to-200"})
    s = state(page)
    assert "take" in s["can"], s
    page.keyboard.press("t")
    wait_change(page, s["version"])
    assert state(page)["taken"], state(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.log li')]"
        ".some(li => li.textContent.includes('ran out of time'))"
    )
    lines = page.evaluate(LOG_LINES)
    clock = [line for line in lines if "ran out of time" in line]
    assert len(clock) == 1, lines
    undid = "Ana ran out of time: the game undid the turn, drew and discarded "
    assert clock[0].startswith(undid), clock
    for lang, words in (
        ("es", "A Ana se le acabó el tiempo: el juego deshizo el turno, robó y descartó "),
        ("fr", "Ana n’avait plus de temps\u00a0: le jeu a annulé le tour, a pioché et défaussé "),
    ):
        page.select_option("#lang", lang)
        page.wait_for_function(
            "w => [...document.querySelectorAll('.log li')].some(li => li.textContent.startsWith(w))",
            arg=words,
        )
    assert js_errors(page) == []
    page.context.close()
