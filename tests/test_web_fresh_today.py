"""What a fresh look at the day's changes found in the page (a past deal's results looked
back at, the people's marks told apart), each kept as a test. The table is drawn from engine
views by the page's own code, as in test_web_past_deals.py."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rummykit.engine import Game
from tests.test_rematch_retries import refused_rematch
from tests.test_server_crash import Table
from tests.test_web_past_deals import dialog, draw, focus_on, game_to_200
from tests.web_support import (
    DESKTOP,
    How,
    Server,
    add_bots,
    create_room,
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    new_page,
    play_until_over,
)

# a rematch as the page sees it: the room's next game, then its first state
NEW_GAME = """(view) => { const P = window.__past;
  P.S.room = { ...P.S.room, game: P.S.room.game + 1 };
  P.S.view = view; P.S.state = { version: view.version }; P.actions.render(); }"""

LISTEN = ("() => { window.__said = []; const el = document.getElementById('announcer');"
          " new MutationObserver(() => window.__said.push(el.textContent)).observe("
          "el, { childList: true, characterData: true, subtree: true }); }")


def test_a_new_game_closes_a_past_deal_of_the_last(page: Any) -> None:
    """A spectator looking back at deal 3 as the players start a rematch (or a player whose
    rematch clock started it, a bot to move first): the dialog showed the last game's deal 3
    over the new game's table, and a spectator's never closed. It closes, says why, and the
    focus goes to the table (the row it came from is gone), not the page's start."""
    page.set_viewport_size(DESKTOP)
    page.evaluate(LISTEN)
    old = game_to_200(3)
    fresh = Game.new("rummy", players=3, seed=8, options={"length": "to-200"})
    draw(page, "en", old.public_view(), None)
    page.locator("[data-key=sheet-deal-2]").click()
    assert dialog(page)["open"]
    page.evaluate(NEW_GAME, fresh.public_view())
    page.wait_for_function("() => !document.getElementById('past-deal').open")
    page.wait_for_function("() => window.__said.some((t) => t.includes('a new game'))")
    said = page.evaluate("() => window.__said")
    assert any("The results of deal 3 are closed: a new game has begun." in t for t in said)
    focus_on(page, "status")
    # a player whose turn it is not in the new game: closed too (the turn rule kept it open)
    view = fresh.view(1)
    if view["turn"]["seat"] == 1:
        view = fresh.view(2)
        you = 2
    else:
        you = 1
    draw(page, "fr", old.view(you), you)
    page.locator("[data-key=sheet-deal-0]").click()
    assert dialog(page)["open"]
    page.evaluate(NEW_GAME, view)
    page.wait_for_function("() => !document.getElementById('past-deal').open")


def test_a_numbered_mark_does_not_match_a_name_s_two_letters(page: Any) -> None:
    """Ana, Ana and a player named "A2": the Anas were numbered A1 and A2, and "A2"'s two
    characters made A2 as well (two alike). Each mark now differs; the day's cases stay, but
    for the marks of one initial, now all numbered once one is, and Ben beside a bot, whose
    avatar reads "B" (tests/test_web_marks.py)."""
    # in English: a bot's marks are the language's (an earlier test left the page in French)
    marks = page.evaluate("""async (cases) => {
      await (await import('/static/js/i18n.js')).loadLanguage('en');
      const { seatMarks } = await import('/static/js/lobby.js');
      return cases.map((names) => Object.fromEntries(seatMarks(names.map((name, seat) =>
        (name === 'BOT' ? { seat, kind: 'bot', name: 'Bot' } : { seat, kind: 'human', name })))));
    }""", [["Ana", "Ana", "A2"], ["Ana", "Alberto", "BOT", "Ben"], ["Ana", "ana", "Alberto"],
           ["Bo", "B1", "Bob"]])
    assert marks[0] == {"0": "A1", "1": "A2", "2": "A3"}, marks
    assert marks[1] == {"0": "An", "1": "Al", "3": "Be"}, marks
    assert marks[2] == {"0": "A1", "1": "A2", "2": "A3"}, marks
    for m in marks:
        assert len(set(m.values())) == len(m), m


def test_a_page_resumes_into_a_rematch_refused_before_a_restart(browser: Any) -> None:
    """Both people asked for a rematch, the database refused its game and the server stopped
    before the retry: a page coming back to the room gets its seat, the finished game's
    state, then the new game's room and state (tests/test_rematch_retries.py). It shows the
    new game's first deal, no end screen left over it, the focus in the hand, and no page
    error."""
    server = Server()
    table = Table(Path(server.tmp.name) / "test.db")

    async def refused() -> str:
        return refused_rematch(table).code

    try:
        # Playwright's loop runs in this thread: the rooms' own loop in another
        with ThreadPoolExecutor(1) as pool:
            code = pool.submit(asyncio.run, refused()).result()
        token = table.tokens[0][1]
    finally:
        table.close()
    server.start()
    try:
        page = new_page(browser, viewport=DESKTOP)
        page.goto(server.base + "/")
        page.wait_for_selector(".lobby")
        page.evaluate("([code, token]) => localStorage.setItem('rk.seats', JSON.stringify("
                      "{ [code]: { seat: 0, token, time: Date.now(), variant: 'indian' } }))",
                      [code, token])
        page.goto(f"{server.base}/r/{code}")
        page.wait_for_function("() => { const S = window.rummykit.S; return S.room"
                               " && S.room.game === 2 && S.state && S.state.game === 2; }")
        page.wait_for_selector(".table-view")
        got = page.evaluate(
            "() => { const S = window.rummykit.S; return { you: S.you,"
            " deal: S.view.deal, over: S.view.over, status: S.room.status,"
            " hand: (S.view.hand || []).length,"
            " ends: document.querySelectorAll('.overlay[data-end-key]').length }; }")
        assert got["you"] == 0 and got["status"] == "playing", got
        assert (got["deal"], got["over"], got["ends"]) == (1, False, 0), got
        assert got["hand"] > 0, got
        assert page.locator(".hand .hand-card").count() == got["hand"]
        # the finished game's end screen took the focus as it showed: the hand has it now
        page.wait_for_function("() => !!document.activeElement.closest('.hand')")
        assert not js_errors(page), page.js_errors
        page.context.close()
    finally:
        server.stop()


# each avatar's mark: its text, the width its letters take and the circle's width
AVATARS = """() => [...document.querySelectorAll('.seat-chip .avatar')].map((a) => {
  const r = document.createRange(); r.selectNodeContents(a);
  return [a.textContent, r.getBoundingClientRect().width, a.getBoundingClientRect().width]; })"""


def test_a_mark_of_two_letters_stays_in_its_circle(page: Any) -> None:
    """Two people alike at a table have marks of two ("Wm", "Ww", "W2"): set at the initial's
    size, "Wm" was 34 px wide in a 32 px circle (30 in 26 on a phone) and ran out of it. A
    mark of two is set smaller; a lone initial keeps its size."""
    view = Game.new("rummy", players=4, seed=3).view(0)
    for size in (DESKTOP, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        draw(page, "en", view, 0, ["Ana", "Wma", "Wwe", "Mo"])
        marks = page.evaluate(AVATARS)
        assert [m[0] for m in marks] == ["Wm", "Ww", "M"], marks
        for text, letters, circle in marks:
            assert letters <= circle - 2, (size, text, letters, circle)
        sizes = page.evaluate("() => [...document.querySelectorAll('.seat-chip .avatar')]"
                              ".map((a) => getComputedStyle(a).fontSize)")
        assert sizes[2] in ("16px", "14px") and sizes[0] != sizes[2], sizes


def test_a_dialog_has_an_edge_in_forced_colours(page: Any) -> None:
    """In forced colours (Windows' high contrast) shadows and the dimmed page go: a past
    deal's results over the live table had no edge at all, the table's lines cut at it as
    if by nothing (the help and the end screens alike). Each has a border of the text's
    colour there, and none otherwise."""
    page.set_viewport_size(DESKTOP)
    border = ("(sel) => { const s = getComputedStyle(document.querySelector(sel));"
              " return [s.borderTopStyle, parseFloat(s.borderTopWidth)]; }")
    draw(page, "en", game_to_200(3).view(1), 1)
    page.locator("[data-key=sheet-deal-0]").click()
    assert dialog(page)["open"]
    assert page.evaluate(border, "#past-deal")[0] == "none"
    page.emulate_media(forced_colors="active")
    try:
        style, width = page.evaluate(border, "#past-deal")
        assert style == "solid" and width >= 1, (style, width)
        assert page.evaluate(border, "#help")[0] == "solid"
    finally:
        page.emulate_media(forced_colors="none")
        page.keyboard.press("Escape")


def test_a_spectators_past_deal_closes_at_the_players_rematch(server: Any,
                                                               browser: Any) -> None:
    """Through a real server: a spectator sets the end screen aside and opens the deal's
    results; the player asks for a rematch against the bot, and the new game begins. The
    spectator's dialog (which no turn closes) showed the last game's deal over the new
    table; it closes, and their page shows the new game."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "rummy", 2, name="Ana")
    add_bots(ana, "easy")
    ana.wait_for_selector(".hand-card")
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    play_until_over(ana, [How()])
    watcher.wait_for_selector(".overlay [data-action=peek]")
    watcher.click(".overlay [data-action=peek]")
    watcher.locator("[data-deal-result='1'] button").click()
    assert dialog(watcher)["open"]
    ana.wait_for_selector("[data-action=rematch]:not([disabled])")
    ana.click("[data-action=rematch]")
    watcher.wait_for_function("() => window.rummykit.S.room.game === 2")
    watcher.wait_for_function("() => !document.getElementById('past-deal').open")
    watcher.wait_for_function("() => window.rummykit.S.view && !window.rummykit.S.view.over")
    for p in (ana, watcher):
        assert not js_errors(p), p.js_errors
        p.context.close()
