"""A phone held sideways, short (320 to 412 px high): during one's turn the stock and the pile,
the turn's buttons and the whole hand are on the first screen, without a scroll. Stacked as on a
taller screen (the players, the felt with every meld, the status, the meter, the buttons, the
hand), Draw's foot was at 373 px of a 740×360 screen and the hand began at 418 px: the player
scrolled down to their own hand and back up to the table at every turn. The table's melds and
the other players scroll in boxes of their own there, as high as the piles beside them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_web_axe import violations
from tests.test_web_touch import TARGETS_JS, touch_page
from tests.web_support import js_errors, play_against_bots, state, tap, wait_change

# The boxes that must be on the first screen: the stock, the pile, every button of the turn
# and every card of the hand, the page scrolled to its top.
FIRST_SCREEN_JS = """() => {
  window.scrollTo(0, 0);
  const box = (e) => { const r = e.getBoundingClientRect();
    return [e.dataset.action || e.dataset.id || e.className, r.left, r.top, r.right, r.bottom]; };
  const els = [document.querySelector('.stack.stock'), document.querySelector('.stack.pile'),
    ...document.querySelectorAll('.actions .verbs .btn'),
    ...document.querySelectorAll('.hand .hand-card')];
  return els.map(box);
}"""


def off_screen(page: Any, width: int, height: int) -> list[Any]:
    boxes: list[Any] = page.evaluate(FIRST_SCREEN_JS)
    assert len(boxes) > 4, boxes
    return [b for b in boxes if b[1] < 0 or b[2] < 0 or b[3] > width + 0.5 or b[4] > height + 0.5]


@pytest.mark.parametrize(
    ("variant", "players", "locale", "width", "height"),
    [
        ("rummy", 2, "en-US", 740, 360),
        ("rami51", 4, "es-ES", 568, 320),
        ("indian", 2, "fr-FR", 640, 360),
    ],
    ids=["rummy-740x360", "rami51-2v2-568x320", "indian-640x360"],
)
def test_the_turn_and_the_hand_are_on_the_first_screen(
    server: Any, browser: Any, variant: str, players: int, locale: str, width: int, height: int
) -> None:
    """Before the draw (Draw, Take) and after it (Discard, a card selected; Declare and Drop in
    Indian rummy), in a 2 v 2 Rami game of 14 and 15 cards on a 320 px high screen too: nothing
    of the turn below the screen's foot, every control at least 24 × 24 px and nothing past the
    screen's side."""
    page = touch_page(browser, width, height, locale=locale)
    play_against_bots(page, server.base, variant, players)
    s = state(page)
    assert "draw" in s["can"], s["can"]
    assert off_screen(page, width, height) == []
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    page.wait_for_selector("[data-action=discard]")
    page.locator(".hand .hand-card").last.tap()
    page.wait_for_selector(".hand .hand-card.selected")
    assert off_screen(page, width, height) == []
    targets = page.evaluate(TARGETS_JS)
    assert targets["small"] == [] and targets["sideways"] <= 0, targets
    # the players' box, which scrolls when it holds more than the felt's height, is in the
    # keyboard's reach
    assert violations(page) == []
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_melds_scroll_in_their_own_box(server: Any, browser: Any) -> None:
    """However many melds the table holds, they take no more height than the piles beside
    them (every meld laid pushed the hand further down): what does not fit scrolls in the
    melds' box, which keeps its place through the redraws."""
    width, height = 740, 360
    page = touch_page(browser, width, height)
    play_against_bots(page, server.base, "rummy", 2)
    more = page.evaluate(
        """() => { const S = window.rummykit.S;
          const melds = Array.from({ length: 12 }, (_, i) => ({ number: i + 1,
            cards: ['5H', '6H', '7H'], kind: 'run', owner: 1 }));
          S.view = { ...S.view, table: melds };
          window.rummykit.actions.render();
          const m = document.querySelector('.melds').getBoundingClientRect();
          const p = document.querySelector('.piles').getBoundingClientRect();
          return [document.querySelectorAll('.meld-tile').length, m.bottom - p.bottom,
                  document.querySelector('.melds').scrollHeight - m.height]; }"""
    )
    assert more[0] == 12, more
    # the box ends with the piles (their labels), and its melds scroll within it
    assert more[1] <= 12 and more[2] > 0, more
    assert off_screen(page, width, height) == []
    # scrolled, the box keeps its place through the redraws (a card tapped, another's move)
    page.evaluate("() => { document.querySelector('.melds').scrollTop = 40; }")
    page.locator(".hand .hand-card").first.tap()
    page.wait_for_selector(".hand .hand-card.selected")
    assert page.evaluate("() => document.querySelector('.melds').scrollTop") == 40
    assert not js_errors(page), page.js_errors
    page.context.close()
