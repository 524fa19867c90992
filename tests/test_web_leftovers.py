"""Three leftovers of the web client, each kept: a tap made while a resume's messages redraw
the page is not lost; a wrong Indian declarer's hand is shown on the end screen as declared,
meld by meld; the warning before a wrong declaration says the cost the view gives."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.web_support import js_errors, new_page, play_against_bots, state


def wait_until(page: Any, cond: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait for a condition of the test's own (the messages the routed socket holds), letting
    Playwright deliver its events meanwhile."""
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"waited in vain for {what}"
        page.wait_for_timeout(20)


def test_a_tap_pressed_as_a_resume_redraws_the_page_is_not_lost(server: Any, browser: Any) -> None:
    """A long session found about one tap in 30 lost right after a reconnection: Draw tapped,
    nothing sent. The resume's messages (seated, room, state) each redraw the table, and a
    redraw between the press and its release left no click (Chromium drops the click of a
    pressed node taken out of its place, even one kept and put back with moveBefore). The
    server's messages are held here so that one of them comes while the button is pressed."""
    page = new_page(browser)
    held: list[tuple[Any, str]] = []
    hold = {"on": False}

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()

        def to_page(message: str) -> None:
            if hold["on"]:
                held.append((ws, message))
            else:
                ws.send(message)

        server_ws.on_message(to_page)

    page.route_web_socket("**/ws", route)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    assert s["myTurn"] and "draw" in s["can"], s
    version = s["version"]

    # the socket lost: the page comes back, resumes its seat, and its messages are held
    hold["on"] = True
    page.evaluate("() => window.rummykit.S.conn.ws.close()")

    def kinds() -> list[str]:
        return [json.loads(m)["type"] for _, m in held]

    wait_until(page, lambda: "state" in kinds(), "the resume's state")
    # the messages before the resume's room go in first (welcome, seated, a pong)
    while kinds()[0] != "room":
        ws, message = held.pop(0)
        ws.send(message)
    page.wait_for_function("() => window.rummykit.S.conn.status === 'online'")
    page.evaluate("() => { window.roomBefore = window.rummykit.S.room; }")

    # Draw pressed; the resume's room comes (a redraw) before the finger is lifted
    box = page.locator("[data-action=draw]").bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    ws, message = held.pop(0)
    ws.send(message)
    page.wait_for_function("() => window.rummykit.S.room !== window.roomBefore")
    page.mouse.up()
    hold["on"] = False
    for ws, message in held:
        ws.send(message)
    held.clear()
    # the draw went: a newer state in the play phase
    page.wait_for_function(
        """v => { const S = window.rummykit.S;
                  return S.state.version > v && S.view.turn && S.view.turn.phase === "play"; }""",
        arg=version,
        timeout=8000,
    )
    assert not js_errors(page), page.js_errors
    page.context.close()


# A deal's end fed to the page as the server sends it: seat 0 declared wrong (its event and the
# result have the melds it declared), seat 1 won by a valid declaration; with ``ends`` the
# wrong declaration ended the deal (house rule wrong_declaration_ends), nobody winning.
WRONG_END = """(ends) => { const S = window.rummykit.S; const v = S.view;
  const wrong = ["2H 3H 4H", "5C 6C 7C", "9D 9S 9C", "JH QH KD AS"];
  const right = ["AD 2D 3D", "4S 5S 6S", "8H 8C 8D", "TC JC QC KC"];
  const hands = [wrong.join(" ").split(" "), right.join(" ").split(" "),
                 "4D 8C JC KH AS JH QS KS KC QH AC 8H 8D".split(" ")];
  const r = { deal: 1, dealer: 0, winner: ends ? null : 1,
              how: ends ? "wrong-declaration" : "declare",
              points: ends ? 80 : 114, double: false, blocked: false,
              penalties: ends ? [80, 0, 0] : [80, 0, 34], hands,
              out: ["wrong-declaration", null, null], eliminated: [], wild_rank: v.wild_rank,
              declarations: [{ seat: 0, melds: wrong, valid: false },
                             ...(ends ? [] : [{ seat: 1, melds: right, valid: true }])] };
  S.events = [...S.events, { seat: 0, action: "declare", valid: false, melds: wrong,
                              discard: "9H", reason: "no pure sequence" }];
  if (!ends) {
    S.events.push({ seat: 1, action: "declare", valid: true, melds: right, discard: "9S" });
  }
  S.view = { ...v, turn: null, declaration: null, results: [r], scores: r.penalties,
             seats: v.seats.map((s) => ({ ...s,
                                         out: s.seat === 0 ? "wrong-declaration" : null })) };
  S.dealOver = { result: r, scores: r.penalties, next_deal_at: null };
  window.rummykit.actions.render();
  const rows = [...document.querySelectorAll(".results tbody tr")];
  return rows.map((tr) => {
    const box = tr.querySelector(".end-hand");
    return { declared: box.dataset.declared || null,
             groups: [...box.querySelectorAll(".end-group")].map((g) =>
               [...g.querySelectorAll("[data-card]")].map((c) => c.dataset.card).join(" ")) };
  });
}"""


def test_a_wrong_declarers_hand_is_shown_as_declared(server: Any, browser: Any) -> None:
    """The end screen grouped the winner's hand meld by meld but laid a wrong declarer's out
    flat, so nobody could see why the declaration was wrong; it is shown as declared too, both
    in a deal that went on after it and in one it ended (wrong_declaration_ends)."""
    page = new_page(browser)
    play_against_bots(page, server.base, "indian", 3)
    wrong = ["2H 3H 4H", "5C 6C 7C", "9D 9S 9C", "JH QH KD AS"]
    right = ["AD 2D 3D", "4S 5S 6S", "8H 8C 8D", "TC JC QC KC"]
    went_on = page.evaluate(WRONG_END, False)
    assert went_on[0] == {"declared": "wrong", "groups": wrong}, went_on[0]
    assert went_on[1] == {"declared": "valid", "groups": right}, went_on[1]
    assert went_on[2] == {"declared": None, "groups": []}, went_on[2]
    ended = page.evaluate(WRONG_END, True)
    assert ended[0] == {"declared": "wrong", "groups": wrong}, ended[0]
    assert [row["declared"] for row in ended[1:]] == [None, None]
    assert not js_errors(page), page.js_errors
    page.context.close()


WARNING = """async (cost) => { const m = await import("/static/js/moves.js");
  const v = window.rummykit.S.view;
  return [m.wrongDeclarationCost(v), m.wrongDeclarationCost({ ...v, wrong_declaration: cost }),
          m.wrongDeclarationCost({ ...v, wrong_declaration: 1 }),
          m.wrongDeclarationCost({ ...v, wrong_declaration: cost,
                                   options: { ...v.options, wrong_declaration_ends: true } })];
}"""


def test_the_wrong_declaration_warning_says_the_views_cost(server: Any, browser: Any) -> None:
    """The warning said "80 points" as fixed text; the cost is a ruleset value the view gives
    (``wrong_declaration``), and the warning says that one, in every language."""
    page = new_page(browser)
    play_against_bots(page, server.base, "indian", 3)
    assert page.evaluate("() => window.rummykit.S.view.wrong_declaration") == 80
    words = {
        "en": ("80 points", "60 points", "1 point "),
        "es": ("80 puntos", "60 puntos", "1 punto "),
        "fr": ("80 points", "60 points", "1 point "),
    }
    for lang, (eighty, sixty, one) in words.items():
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        table, house, single, ends = page.evaluate(WARNING, 60)
        assert eighty in table, (lang, table)
        assert sixty in house and "80" not in house, (lang, house)
        assert one in single, (lang, single)
        assert sixty in ends and ends != house, (lang, ends)
    assert not js_errors(page), page.js_errors
    page.context.close()
