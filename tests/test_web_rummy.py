"""What a bug hunt through `rummy` (the default game) against bots found, each kept by a test
(docs/web.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    LOG_LINES,
    How,
    Server,
    add_bots,
    clock_lines,
    create_room,
    js_errors,
    new_page,
    play_against_bots,
    play_turn,
    play_until_over,
    running_server,
    state,
    wait_change,
)


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
    lines, clock = clock_lines(page)
    assert len(clock) == 1, lines
    undid = "Ana ran out of time: the game undid the turn, drew and discarded "
    assert clock[0].startswith(undid), clock
    for lang, words in (
        ("es", "A Ana se le acabó el tiempo: el juego deshizo el turno, robó y descartó "),
        ("fr", "Ana n’avait plus de temps\u00a0: le jeu a annulé le tour, a pioché et défaussé "),
    ):
        page.select_option("#lang", lang)
        page.wait_for_function(
            "w => [...document.querySelectorAll('.log li')]"
            ".some(li => li.textContent.startsWith(w))",
            arg=words,
        )
    assert js_errors(page) == []
    page.context.close()


OTHER_PERSON_TO_MOVE = """() => { const S = window.rummykit.S; const v = S.view;
  return !!(v && v.turn && !S.pending && (v.turn.seat === S.you
    || (S.room.seats[v.turn.seat] || {}).kind === 'human')); }"""


def test_a_persons_name_beside_their_clock_on_a_six_seat_phone(
    server: Server, browser: Any
) -> None:
    """At six seats on a 320 px phone a person's chip, on their turn, shares its first line
    with the clock: the name was cut to *Maxi…* (the bots' names fit, their level beneath).
    It takes two lines now, and the chips stay within the screen."""
    ana = new_page(browser, locale="fr-FR", viewport={"width": 320, "height": 640})
    code = create_room(ana, server.base, "rummy", 6, {"length": "to-200"}, name="Ana")
    ben = new_page(browser)
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Maximiliano Grande'; }")
    ben.click("[data-action=sit]")
    ben.wait_for_selector(".seat-row.mine")
    add_bots(ana)
    for _ in range(10):
        ana.wait_for_function(OTHER_PERSON_TO_MOVE)
        if not state(ana)["myTurn"]:
            break
        play_turn(ana, How(take=False), passive=True)
    chip = ana.locator(".seat-chip.turn")
    chip.locator(".chip-clock").wait_for()
    name = chip.locator(".chip-name")
    assert name.inner_text() == "Maximiliano Grande"
    cut = name.evaluate(
        "e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1"
    )
    sizes = "e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]"
    assert not cut, name.evaluate(sizes)
    # every word of it on screen, inside its chip, and nothing sideways
    box = chip.bounding_box()
    words = name.evaluate(
        """e => { const r = document.createRange(); r.selectNodeContents(e);
                 return [...r.getClientRects()].map(q => [q.left, q.right]); }"""
    )
    assert box
    assert all(box["x"] <= left and right <= box["x"] + box["width"] for left, right in words)
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= 320
    assert js_errors(ana) == []
    ana.context.close()
    ben.context.close()


def test_the_log_names_the_card_given_back(server: Server, browser: Any) -> None:
    """The discard taken and given back (Return) was logged *Ana returned the card*, the only
    move whose line did not name its card; on the status line of the others it is alone, with
    no *took 4♣* beside it to say which. Named on the open page and after a reload, in every
    language."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2, {"length": "to-200"})
    s = state(page)
    card = s["pile"][-1]
    page.keyboard.press("t")
    wait_change(page, s["version"])
    s = state(page)
    assert "return" in s["can"], s
    page.keyboard.press("r")
    wait_change(page, s["version"])
    assert page.evaluate("() => window.rummykit.S.view.pile")[-1] == card
    line = page.evaluate(
        "() => [...document.querySelectorAll('.log li')].map(li => li.textContent)"
        ".find(t => t.startsWith('Ana returned'))"
    )
    assert line and line.endswith(" to the discard") and line != "Ana returned the card", line
    pretty = line[len("Ana returned "):-len(" to the discard")]
    took = f"Ana took {pretty} from the discard"
    assert took in page.evaluate(LOG_LINES), page.evaluate(LOG_LINES)
    page.reload()
    page.wait_for_selector(".log li")
    page.wait_for_function(
        "l => [...document.querySelectorAll('.log li')].some(li => li.textContent === l)", arg=line
    )
    for lang, text in (
        ("es", f"Ana devolvió {pretty} al descarte"),
        ("fr", f"Ana a rendu {pretty} à la défausse"),
    ):
        page.select_option("#lang", lang)
        page.wait_for_function(
            "l => [...document.querySelectorAll('.log li')].some(li => li.textContent === l)",
            arg=text,
        )
    assert js_errors(page) == []
    page.context.close()


WIN_MARK_JS = """() => { const S = window.rummykit.S; const v = S.view;
  // the last deal drawn as one the person won with every card laid: the widest hands are the
  // others', and the name column is at its narrowest
  const res = (S.dealOver && S.dealOver.result) || v.results[v.results.length - 1];
  res.winner = S.you; res.hands[S.you] = [];
  if (S.dealOver) S.dealOver.result = res;
  v.results[v.results.length - 1] = res;
  window.rummykit.actions.render();
  const mark = document.querySelector('.results .badge.win');
  const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size; };
  const card = document.querySelector('.end-card').getBoundingClientRect();
  const total = document.querySelector('.results thead th:last-child').getBoundingClientRect();
  return { text: mark.textContent, lines: lines(mark),
           inside: total.right <= card.right + 0.5 }; }"""


def test_the_winners_mark_is_not_broken_inside_its_word_on_a_phone(
    server: Server, browser: Any
) -> None:
    """A six-seat `rummy` game's end screen on a 320 px phone, the person the winner: their
    row's mark broke inside its word (*gagn* over *e*), the name column being the narrowest.
    Whole, in every language, and the totals still on the card."""
    page = new_page(browser, locale="fr-FR", viewport={"width": 320, "height": 640})
    play_against_bots(page, server.base, "rummy", 6)
    play_until_over(page)
    page.wait_for_selector("#end-title")
    titles = (("fr", "Fin de la partie"), ("es", "Fin de la partida"), ("en", "Game over"))
    for lang, title in titles:
        page.select_option("#lang", lang)
        page.wait_for_function(
            "w => document.getElementById('end-title').textContent === w", arg=title
        )
        mark = page.evaluate(WIN_MARK_JS)
        assert mark["lines"] == 1 and mark["inside"], (lang, mark)
    assert js_errors(page) == []
    page.context.close()
