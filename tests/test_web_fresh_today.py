"""What a fresh look at the day's changes found in the page (a past deal's results looked
back at, the people's marks told apart), each kept as a test. The table is drawn from engine
views by the page's own code, as in test_web_past_deals.py."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from tests.test_web_past_deals import dialog, draw, focus_on, game_to_200
from tests.web_support import DESKTOP, modules_page  # noqa: F401 -- the module's `page`

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
    characters made A2 as well (two alike). Each mark now differs; the day's cases stay."""
    marks = page.evaluate("""async (cases) => {
      const { seatMarks } = await import('/static/js/lobby.js');
      return cases.map((names) => Object.fromEntries(seatMarks(names.map((name, seat) =>
        (name === 'BOT' ? { seat, kind: 'bot', name: 'Bot' } : { seat, kind: 'human', name })))));
    }""", [["Ana", "Ana", "A2"], ["Ana", "Alberto", "BOT", "Ben"], ["Ana", "ana", "Alberto"],
           ["Bo", "B1", "Bob"]])
    assert marks[0] == {"0": "A1", "1": "A2", "2": "A3"}, marks
    assert marks[1] == {"0": "An", "1": "Al", "3": "B"}, marks
    assert marks[2] == {"0": "A1", "1": "A2", "2": "Al"}, marks
    for m in marks:
        assert len(set(m.values())) == len(m), m
