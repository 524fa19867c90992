"""A 320 px high phone held sideways, the opening meter on two lines (its bar or hint on one,
Show me and Open on the next) and the hand sorted into groups: the hand's cards stay on the
first screen (docs/web.md, *Phones held sideways*). With the partner's lay-down and Open (100)
in Rami 2 v 2 the cards' foot was 3.4 px below the screen's, and a test of grouped hands failed
whenever a bot partner opened before the person's first turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_web_landscape import off_screen
from tests.test_web_polish import GROUP_NO_MELDS_JS
from tests.test_web_touch import TARGETS_JS, touch_page
from tests.web_support import js_errors, play_against_bots, state, tap, wait_change

# The turn after the draw as it is when the hand can open with 100 (Rami 2 v 2: once the partner
# has laid down, with no minimum), with two melds on the table.
OPEN_100 = """(partner) => { const { S, actions } = window.rummykit; const v = S.view;
  const o = v.opening;
  if (partner) { v.seats[(S.you + 2) % 4].opened = true; o.partner_opened = true; o.minimum = 0; }
  o.meter = { ...o.meter, points: 100, enough: true,
              melds: o.meter.melds && o.meter.melds.length ? o.meter.melds : [["2H", "3H", "4H"]],
              action: o.meter.action || "open 2H 3H 4H" };
  if (!v.turn.can.includes("open")) v.turn.can.push("open");
  v.table = [{ number: 1, kind: "run", cards: ["4H", "5H", "6H", "7H"], owner: S.you },
             { number: 2, kind: "set", cards: ["9S", "9D", "9C"], owner: (S.you + 1) % v.players }];
  actions.render();
  const meter = document.querySelector(".meter").getBoundingClientRect();
  const open = document.querySelector("[data-action=open-meter]").getBoundingClientRect();
  const melds = document.querySelector(".melds");
  const tile = document.querySelector(".meld-tile").getBoundingClientRect();
  return { twoLines: open.top > meter.top + 12,
           tileInside: tile.bottom <= melds.getBoundingClientRect().bottom + 0.5 }; }"""


@pytest.mark.parametrize(
    ("variant", "players", "partner", "locale"),
    [("rami51", 4, True, "es-ES"), ("rummy", 2, False, "fr-FR")],
    ids=["rami51-2v2-partner-es", "rummy-fr"],
)
def test_a_two_line_meter_and_a_grouped_hand_fit_a_320_px_screen(
    server: Any, browser: Any, variant: str, players: int, partner: bool, locale: str
) -> None:
    width, height = 568, 320
    page = touch_page(browser, width, height, locale=locale)
    play_against_bots(page, server.base, variant, players)
    s = state(page)
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    page.wait_for_selector("[data-action=discard]")
    page.evaluate(GROUP_NO_MELDS_JS, [3, 3, 3, 3, 3] if players == 4 else [3, 3, 3, 3])
    got = page.evaluate(OPEN_100, partner)
    # the case itself: Open on the meter's second line, the table's first melds shown whole
    assert got == {"twoLines": True, "tileInside": True}, got
    page.locator(".hand .hand-card").last.tap()
    page.wait_for_selector(".hand .hand-card.selected")
    assert off_screen(page, width, height) == []
    targets = page.evaluate(TARGETS_JS)
    assert targets["small"] == [] and targets["sideways"] <= 0, targets
    assert not js_errors(page), page.js_errors
    page.context.close()
