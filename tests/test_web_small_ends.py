"""A phone held sideways, 568 × 320: every player's chip at the table, its contents included,
ends within the screen, whatever the language and however large the scores."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_web_touch import touch_page
from tests.web_support import js_errors, play_against_bots

# Every chip's right edge and its contents' (the chip's own box stayed put while its line of
# cards and score ran past it), the scores set to each value in turn and the table redrawn.
CHIPS_JS = """(scores) => { const R = window.rummykit; const S = R.S; const view = S.view;
  const out = [];
  for (const score of scores) {
    S.view = { ...view, scores: view.scores.map(() => score) };
    R.actions.render();
    for (const chip of document.querySelectorAll('.seat-chip')) {
      for (const e of [chip, ...chip.querySelectorAll('*')]) {
        const r = e.getBoundingClientRect();
        // words for screen readers only: a 1 px box, clipped, drawn nowhere
        if (e.closest('.visually-hidden')) continue;
        if (r.width > 0 && r.right > Math.min(innerWidth, chip.getBoundingClientRect().right) + 0.5)
          out.push([score, chip.dataset.seat, e.className, r.right, e.textContent.slice(0, 40)]);
      }
    }
    const box = document.querySelector('.opponents');
    if (box.scrollWidth > box.clientWidth) out.push([score, 'opponents', box.scrollWidth]);
  }
  S.view = view;
  R.actions.render();
  return out; }"""


@pytest.mark.parametrize("locale", ["es-ES", "en-US", "fr-FR"])
def test_every_chip_ends_within_the_screen_at_568_by_320(
    server: Any, browser: Any, locale: str
) -> None:
    """In Spanish a three-figure score ("100 ptos") beside the cards' count stuck out of the
    130 px chip and past the screen's right edge: the line of cards and score would not wrap
    (flex: none), and the players' box, which scrolls, cut it off without a sideways scroll of
    the page."""
    page = touch_page(browser, 568, 320, locale=locale)
    play_against_bots(page, server.base, "rami51", 4)
    assert page.locator(".seat-chip").count() == 3
    out = page.evaluate(CHIPS_JS, [0, 95, 100, 150, 999, -100, 1000, -1000])
    assert out == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 568
    assert not js_errors(page), page.js_errors
    page.context.close()
