"""What a hunt through Indian rummy played on the page against bots found, each kept: the log
saying a declaration was wrong and what a drop cost (as the page saw it and after a reload);
the end screen of a deal with a player's mark (wrong declaration, dropped) beside a long
declared run within a phone in every language; a printed joker turned up explained."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web_support import (
    MY_TURN_OR_OVER,
    PHONE,
    drawn,
    js_errors,
    new_page,
    play_against_bots,
    select_cards,
    state,
    tap,
    wait_change,
)

LOG_TEXTS = "() => window.rummykit.S.log.map((l) => l.text)"

# A deal's end fed to the page as the server sends it (a view with no turn, a result, the
# winner's declaration among the deal's events and in the result): seat 0, the person, marked
# ``out``.
END_OF_DEAL = """([out, melds]) => { const S = window.rummykit.S; const v = S.view;
  const hands = [
    "AD 4H 4S 9H QS 5C 7C 4C 5S TD 8C 9C AH".split(" "),
    melds.join(" ").split(" "),
    "4D 8C JC KH AS JH QS KS KC QH AC 8H 8D".split(" ")];
  const r = { deal: 1, dealer: 0, winner: 1, how: "declare", points: 114, double: false,
              blocked: false, penalties: [80, 0, 34], hands, out: [out, null, null],
              eliminated: [], wild_rank: v.wild_rank,
              declarations: [{ seat: 1, melds, valid: true }] };
  S.events = [...S.events, { seat: 1, action: "declare", valid: true, melds, discard: "9S" }];
  S.view = { ...v, turn: null, declaration: null, results: [r], scores: [80, 0, 34],
             seats: v.seats.map((s) => ({ ...s, out: s.seat === 0 ? out : null })) };
  S.dealOver = { result: r, scores: [80, 0, 34], next_deal_at: null };
  window.rummykit.actions.render();
  const box = document.querySelector(".table-scroll");
  const card = document.querySelector("#end-card").getBoundingClientRect();
  const cells = [...document.querySelectorAll(".results th, .results td")];
  return { inside: box.scrollWidth <= box.clientWidth,
           cells: cells.every((c) => c.getBoundingClientRect().right <= card.right + 0.5),
           page: document.documentElement.scrollWidth };
}"""

INDICATOR = """([indicator, wild]) => { const S = window.rummykit.S;
  S.view = { ...S.view, indicator, wild_rank: wild };
  window.rummykit.actions.render();
  return document.querySelector("[data-wild-label]").textContent;
}"""


def test_the_log_says_a_declaration_was_wrong(server: Any, browser: Any) -> None:
    """A wrong declaration read "Ana declared", as a winning one does, while the deal went on
    without her: nothing in the log said it was wrong."""
    page = new_page(browser, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3)
    s = drawn(page)
    # The deck is shuffled: a hand that happens to make a valid declaration (the engine finds
    # it whatever the grouping) cannot declare wrongly, so such a turn discards and the next
    # one is played.
    for _ in range(6):
        if s["declaration"] is not None and not s["declaration"]["valid"]:
            break
        select_cards(page, [s["hand"][0][0]])
        tap(page, "[data-action=discard]")
        wait_change(page, s["version"])
        page.wait_for_function(MY_TURN_OR_OVER)
        s = drawn(page)
    else:
        raise AssertionError(f"six hands in a row made a valid declaration: {s}")
    # thirteen cards in one group are no declaration (it needs two sequences): a wrong one
    select_cards(page, [i for i, _ in s["hand"]][:13])
    tap(page, "[data-action=group]")
    tap(page, "[data-action=declare]")
    page.click("#confirm-ok")
    page.wait_for_function(
        "() => window.rummykit.S.view.seats[window.rummykit.S.you].out !== null"
    )
    lines = page.evaluate(LOG_TEXTS)
    assert "Ana declared wrongly" in lines, lines
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "line"),
    [("en-US", "Ana dropped out (20\u00a0points)"), ("es-ES", "Ana se retiró (20\u00a0puntos)"),
     ("fr-FR", "Ana a abandonné (20\u00a0points)")],
)
def test_the_log_says_what_a_drop_cost(server: Any, browser: Any, locale: str, line: str) -> None:
    """"Ana dropped out" gave no cost, which the engine's event has (20 before the first draw):
    on the open page and after a reload, which reads the deal's events again."""
    page = new_page(browser, locale=locale, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3, {"format": "deals"})
    s = state(page)
    assert s["phase"] == "draw" and "drop" in s["can"], s
    tap(page, "[data-action=drop]")
    page.click("#confirm-ok")
    # waited for as it comes: the log keeps its last 40 lines, and the bots (no delay here)
    # may play the rest of the deal before a later look
    page.wait_for_function(
        "line => window.rummykit.S.log.some((l) => l.text === line)", arg=line
    )
    if page.evaluate("() => !window.rummykit.S.view.turn"):
        return  # the deal is over already: a reload would read the next deal's events
    page.reload()
    page.wait_for_function("() => !!(window.rummykit && window.rummykit.S.log.length > 1)")
    deal = page.evaluate("() => window.rummykit.S.view.deal")
    lines = page.evaluate(LOG_TEXTS)
    # (the log keeps 40 lines: forty moves after the drop, it is no longer among them)
    if deal == 1 and len(lines) < 40:
        assert line in lines
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "fr-FR"])
def test_an_indian_end_screen_fits_a_phone(server: Any, browser: Any, locale: str) -> None:
    """The mark of a wrong declaration (or a drop) beside a declared run of seven, or of
    thirteen, pushed the Points and Total columns out of the end card on a 390 px phone: the
    mark and the run kept on one line."""
    page = new_page(browser, locale=locale, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3)
    seven = ["2H 3H 4H 5H 6H 7H 8H", "9C TC JC", "QD KD AD"]
    thirteen = ["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"]
    for out in ("wrong-declaration", "dropped"):
        for melds in (seven, thirteen):
            fit = page.evaluate(END_OF_DEAL, [out, melds])
            assert fit == {"inside": True, "cells": True, "page": PHONE["width"]}, (out, melds)
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "joker", "seven"),
    [("en-US", "A joker turned up: aces are wild jokers", "Wild jokers: 7"),
     ("es-ES", "Salió un comodín: los ases son comodines", "Comodines: 7"),
     ("fr-FR", "Un joker retourné\u00a0: les as sont jokers", "Jokers\u00a0: 7")],
)
def test_a_printed_joker_turned_up_is_explained(
    server: Any, browser: Any, locale: str, joker: str, seven: str
) -> None:
    """A printed joker as the indicator read "Wild jokers: A" beside a joker: no word said
    that the joker makes the aces wild (the engine's wild_rank)."""
    page = new_page(browser, locale=locale, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 2)
    assert page.evaluate(INDICATOR, ["X", 1]) == joker
    expect(page.locator("[data-wild-label]")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(INDICATOR, ["7H", 7]) == seven
    assert not js_errors(page), page.js_errors
    page.context.close()


# The state that follows the draw emptying the first stock under indicator_in_stock, as the
# server sends it: the draw's event names the indicator, the view says it has been drawn.
INDICATOR_DRAWN = """() => { const S = window.rummykit.S; const other = 1 - S.you;
  const card = S.view.indicator;
  S.conn.onMessage({ ...S.state, type: "state", version: S.state.version + 1,
    view: { ...S.view, version: S.state.version + 1, indicator_drawn: true },
    last: { seat: other, action: "draw", auto: false },
    events: [{ seat: other, action: "draw", card }] });
  return { cards: document.querySelectorAll(".indicator .card").length,
           label: document.querySelector("[data-wild-label]").textContent,
           line: S.log[S.log.length - 1].text };
}"""


def test_an_indicator_drawn_from_under_the_stock_leaves_the_table(
    server: Any, browser: Any
) -> None:
    """Under indicator_in_stock the draw that empties the first stock takes the indicator in
    sight of everyone: the page went on showing the card beside the stock (one card in two
    places) and its log said only "Bot 2 drew from the stock"."""
    page = new_page(browser, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 2)
    assert page.locator(".indicator .card").count() == 1
    # the server's view carries the engine's flag, false while the indicator lies aside
    assert page.evaluate("() => window.rummykit.S.view.indicator_drawn") is False
    seen = page.evaluate(INDICATOR_DRAWN)
    assert seen["cards"] == 0, seen
    assert seen["label"].startswith("Wild jokers: ") and "has been drawn)" in seen["label"], seen
    assert seen["line"].startswith("Bot 2 (medium) drew ") and seen["line"].endswith(
        ", the indicator, from the stock"
    ), seen
    assert not js_errors(page), page.js_errors
    page.context.close()


NOTE_INSIDE = """() => { const felt = document.querySelector(".felt").getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(".indian-note p"));
  const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
  return { inside: right <= felt.right, page: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("locale", ["fr-FR", "es-ES", "en-US"])
def test_the_indian_note_stays_on_the_felt_of_a_320_px_phone(
    server: Any, browser: Any, locale: str
) -> None:
    """Beside the stock, the pile and the indicator the note (melds stay in the hand) had a
    column narrower than "combinaisons": the word stuck out of the felt and the page scrolled
    sideways on a French 320 px phone."""
    width = 320
    page = new_page(browser, locale=locale, viewport={"width": width, "height": 844})
    play_against_bots(page, server.base, "indian", 2)
    assert page.evaluate(NOTE_INSIDE) == {"inside": True, "page": width}
    assert not js_errors(page), page.js_errors
    page.context.close()


SIDEWAYS = """() => [document.querySelector(".actions .verbs .btn").getBoundingClientRect().bottom,
  document.querySelector(".hand").getBoundingClientRect().top,
  document.documentElement.scrollWidth]"""


@pytest.mark.parametrize("locale", ["fr-FR", "es-ES", "en-US"])
def test_a_phone_held_sideways_shows_the_indian_turns_buttons_at_once(
    server: Any, browser: Any, locale: str
) -> None:
    """844×390 after the draw: the declaration check on two lines and the indicator's box (an
    upright card's, for a card turned sideways) pushed Discard, Declare and Drop past the
    first screen's foot, and the hand below it (a Rami table fits)."""
    size = {"width": 844, "height": 390}
    page = new_page(browser, locale=locale, viewport=size)
    play_against_bots(page, server.base, "indian", 2)
    s = state(page)
    if "draw" in s["can"]:
        tap(page, "[data-action=draw]")
        wait_change(page, s["version"])
    page.wait_for_selector("[data-action=declare]")
    buttons, hand, width = page.evaluate(SIDEWAYS)
    assert buttons <= size["height"] and hand < size["height"], (buttons, hand)
    assert width <= size["width"]
    # the whole reason is still there, for a screen reader and as the check's title
    why = page.locator(".meter.declaration .decl")
    assert why.get_attribute("title") or why.get_attribute("data-declaration") == "valid"
    assert not js_errors(page), page.js_errors
    page.context.close()


NEGATIVE_TOTAL = """() => { const S = window.rummykit.S; const v = S.view;
  const r = { deal: 1, dealer: 0, winner: null, how: "wrong-declaration", points: 0,
              double: false, blocked: false, penalties: [80, 0, 0],
              hands: [[], [], []] };
  S.view = { ...v, turn: null, declaration: null, results: [r], scores: [-80, 0, 0] };
  S.dealOver = { result: r, scores: [-80, 0, 0], next_deal_at: null };
  window.rummykit.actions.render();
  return [...document.querySelectorAll(".results tbody tr")].map((tr) => tr.lastChild.textContent);
}"""


def test_a_total_below_zero_is_written_with_the_minus_sign(server: Any, browser: Any) -> None:
    """Under wrong_declaration_ends a deals or points game's totals go below zero; the end
    screen wrote "-80" with a hyphen, where the page writes "−" (the drop's cost, the hints)."""
    page = new_page(browser, viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3)
    assert page.evaluate(NEGATIVE_TOTAL) == ["\u221280", "0", "0"]
    assert not js_errors(page), page.js_errors
    page.context.close()
