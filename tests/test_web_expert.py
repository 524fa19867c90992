"""What a hunt through the web client as a seasoned rummy player found (speed of play and the
table's information at hand), each kept by a test (docs/web.md). Most draw the table, or call
the hand's arrangement, with the page's own code; one plays a game against a bot."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

from rummykit.engine import Game
from tests.test_web_rami import DRAW_TABLE
from tests.web_support import (
    DESKTOP,
    MY_TURN_OR_OVER,
    PHONE,
    Server,
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    new_page,
    play_against_bots,
    state,
    wait_change,
)

AXE = Axe()

# The table of ``view`` drawn with the deal's ``events`` (the page keeps them from the states'
# histories), for Ana and medium bots.
DRAW = (
    "async ([lang, view, events]) => { const level = 'medium';"
    + DRAW_TABLE.replace("events: [],", "events,")
    + """
  const box = (sel) => { const e = root.querySelector(sel);
    if (!e) return null; const b = e.getBoundingClientRect(); return [b.top, b.bottom]; };
  return { hand: box('.hand'), side: box('.side'),
           took: [...root.querySelectorAll('.seat-chip')].map((c) => {
             const b = c.querySelector('.badge.took');
             return b ? { seat: Number(c.dataset.seat), cards: b.dataset.took,
                          shown: b.querySelector('[aria-hidden=true]').textContent,
                          read: b.querySelector('.visually-hidden').textContent } : null; })
             .filter((x) => x),
           width: document.documentElement.scrollWidth };
}"""
)


def draw(page: Any, lang: str, view: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRAW, [lang, view, events])
    return result


def test_a_long_scores_panel_leaves_the_hand_on_a_desktops_first_screen(page: Any) -> None:
    """A `rummy` game to 200 lists its deals in the scores panel, a sentence each: by the fifth
    deal the panel was taller than a 1280×800 screen, the board beside it was stretched to its
    height (the felt and the hand's area grew empty) and the hand went below the first screen,
    a scroll at every turn. The board keeps its own height now."""
    page.set_viewport_size(DESKTOP)
    view = Game.new("rummy", 3, {"length": "to-200"}, seed=4).view(0)
    before = draw(page, "en", view, [])
    results = [
        {
            "deal": n,
            "dealer": n % 3,
            "winner": n % 3,
            "how": "discard",
            "points": 40 + n,
            "double": False,
            "blocked": False,
            "penalties": [0, 20, 20 + n],
            "hands": [[], [], []],
        }
        for n in range(1, 11)
    ]
    after = draw(page, "fr", {**view, "results": results}, [])
    assert after["side"][1] > DESKTOP["height"], after  # the panel is long indeed
    assert after["hand"] == before["hand"], (before, after)
    assert after["hand"][1] <= DESKTOP["height"], after


def test_a_card_drawn_into_a_sorted_hand_goes_to_its_sorted_place(page: Any) -> None:
    """A hand sorted by suit or rank got each card drawn at its end: a player who keeps the
    hand sorted had to sort again at every turn. While the loose cards are as a sort left
    them, a new card goes to its place (still outlined as new); once a card is moved by hand,
    new ones go to the end as before. The choice is kept with the arrangement (a reload)."""
    order = page.evaluate(
        """async () => {
      const { Arrangement } = await import('/static/js/hand.js');
      localStorage.removeItem('rk.test.sorted');
      const a = new Arrangement('rk.test.sorted');
      const hand = ['KS', '2H', '9C', '5S', 'X'];
      a.reconcile(hand, '1.1');
      const texts = () => a.all().map((id) => id.split('#')[0]);
      const out = { dealt: texts() };
      a.reconcile([...hand, '7S'], '1.1');
      out.drawn = texts();
      out.fresh = [...a.fresh].map((id) => id.split('#')[0]);
      a.sortLoose('rank');
      a.reconcile([...hand, '7S', '9H'], '1.1');
      out.byRank = texts();
      const b = new Arrangement('rk.test.sorted');
      b.load();
      b.reconcile([...hand, '7S', '9H', '3D'], '1.1');
      out.reloaded = b.all().map((id) => id.split('#')[0]);
      // a card moved by hand: the player's own order stands, and a new card goes to the end
      const first = b.loose[0];
      b.move([first], -1, null);
      b.reconcile([...hand, '7S', '9H', '3D', '4C'], '1.1');
      out.moved = b.all().map((id) => id.split('#')[0]);
      localStorage.removeItem('rk.test.sorted');
      return out;
    }"""
    )
    assert order["dealt"] == ["5S", "KS", "2H", "9C", "X"], order
    assert order["drawn"] == ["5S", "7S", "KS", "2H", "9C", "X"], order
    assert order["fresh"] == ["7S"], order
    assert order["byRank"] == ["2H", "5S", "7S", "9H", "9C", "KS", "X"], order
    assert order["reloaded"] == ["2H", "3D", "5S", "7S", "9H", "9C", "KS", "X"], order
    assert order["moved"] == ["3D", "5S", "7S", "9H", "9C", "KS", "X", "2H", "4C"], order


def test_a_drawn_card_lands_in_a_sorted_hand_at_the_table(server: Server, browser: Any) -> None:
    """The same at a table: Sort by rank, then Draw (D): the hand on the screen is still in
    rank order, through a reload, and the sort it keeps is shown pressed (neither once a card
    is moved by hand)."""
    page = new_page(browser, viewport=PHONE)
    play_against_bots(page, server.base, "rummy", 2, {"length": "to-200"})
    page.click("[data-action=sort-rank]")
    in_order = """async () => {
      const { parseCard, sortByRank } = await import('/static/js/cards.js');
      const shown = [...document.querySelectorAll('.hand .hand-card')]
        .map((c) => c.dataset.id.split('#')[0]);
      const sorted = [...shown].sort((a, b) => sortByRank(parseCard(a), parseCard(b)));
      return { shown, sorted, fresh: document.querySelectorAll('.hand-card.fresh').length };
    }"""
    s = state(page)
    assert "draw" in s["can"], s
    page.keyboard.press("d")
    wait_change(page, s["version"])
    drawn = page.evaluate(in_order)
    assert drawn["fresh"] == 1 and drawn["shown"] == drawn["sorted"], drawn
    assert pressed(page) == {"sort-suit": "false", "sort-rank": "true"}
    # the pile's history, opened from its label (or with P), stays open (a preference) through
    # a reload
    page.keyboard.press("p")
    page.wait_for_selector(".pile-history")
    page.keyboard.press("p")
    page.wait_for_function("() => !document.querySelector('.pile-history')")
    page.click("[data-action=pile-history]")
    page.wait_for_selector(".pile-history li")
    page.reload()
    page.wait_for_function(MY_TURN_OR_OVER)
    page.wait_for_selector(".hand .hand-card")
    again = page.evaluate(in_order)
    assert again["shown"] == drawn["shown"], (drawn, again)
    assert pressed(page) == {"sort-suit": "false", "sort-rank": "true"}
    if not state(page)["over"]:
        page.wait_for_function(
            "() => document.querySelectorAll('.pile-history li[data-card]').length"
            " === window.rummykit.S.view.pile.length"
        )
        # a card moved by hand (Shift+Arrow) ends the kept sort: neither sort is pressed
        page.keyboard.press("h")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_function(
            "() => document.querySelector('[data-action=sort-rank]')"
            ".getAttribute('aria-pressed') === 'false'"
        )
        assert pressed(page) == {"sort-suit": "false", "sort-rank": "false"}
        # S then sorts by rank again (it switched to suit, the sort not in use)
        page.keyboard.press("s")
        page.wait_for_function(
            "() => document.querySelector('[data-action=sort-rank]')"
            ".getAttribute('aria-pressed') === 'true'"
        )
        page.keyboard.press("s")
        page.wait_for_function(
            "() => document.querySelector('[data-action=sort-suit]')"
            ".getAttribute('aria-pressed') === 'true'"
        )
    assert js_errors(page) == []
    page.context.close()


def pressed(page: Any) -> dict[str, str]:
    """The sorts' pressed states (the sort the loose cards keep as cards are drawn)."""
    result: dict[str, str] = page.evaluate(
        """() => Object.fromEntries(['sort-suit', 'sort-rank'].map((a) =>
             [a, document.querySelector(`[data-action=${a}]`).getAttribute('aria-pressed')]))"""
    )
    return result


def _indian_with_takes() -> Game:
    """A 3-seat Indian deal where the second player took the discard (and kept it: nothing is
    laid before the declaration) and the others drew."""
    game = Game.new("indian", 3, seed=11)
    for turn in range(3):
        seat = game.view(0)["turn"]["seat"]
        game.apply("take" if turn == 1 else "draw")
        game.apply(f"discard {game.view(seat)['hand'][0]}")
    return game


def test_a_players_chip_says_what_they_took_from_the_discard(page: Any) -> None:
    """In Indian rummy a card taken from the discard stays in the hand, and what a player picks
    up is what a seasoned player watches: it was in the log only (twelve lines, soon gone). A
    player's chip now says the cards they took this deal and may still hold (a card thrown
    again, returned or laid is no longer counted), shown and read, in every language."""
    page.set_viewport_size(PHONE)
    game = _indian_with_takes()
    events = game.history()
    takes = [e for e in events if e["action"] == "take"]
    assert len(takes) == 1, events
    keeper = takes[0]["seat"]
    me = (keeper + 1) % 3
    for lang, shown, read in (
        ("en", "Took ", "Took from the discard and may still hold: "),
        ("es", "Tomó ", "Tomó del descarte y puede tener aún: "),
        ("fr", "A pris ", "A pris dans la défausse et peut encore avoir\u00a0: "),
    ):
        got = draw(page, lang, game.view(me), events)
        assert [(x["seat"], x["cards"]) for x in got["took"]] == [(keeper, takes[0]["card"])], got
        assert got["took"][0]["shown"].startswith(shown), got
        assert got["took"][0]["read"].startswith(read), got
        assert got["width"] <= PHONE["width"], got

    # the page's reading of the events: return, a card laid, the clock's undo
    def ev(seat: int, action: str, **fields: Any) -> dict[str, Any]:
        return {"seat": seat, "action": action, **fields}

    cases = [
        ([ev(1, "take", card="7H"), ev(1, "return", card="7H")], 1, []),
        (
            [
                ev(1, "take", card="7H"),
                ev(1, "meld", meld="7S 7H 7D"),
                ev(1, "discard", card="2C"),
                ev(1, "take", card="QS"),
                ev(1, "layoff", number=1, card="QS", end=None),
            ],
            1,
            [],
        ),
        ([ev(0, "take", card="7H"), ev(0, "open", melds=["5H 6H 7H"])], 0, []),
        ([ev(2, "take", card="7H"), ev(2, "timeout", undone=True, draw=True, card="9D")], 2, []),
        (
            [
                ev(2, "take", card="7H"),
                ev(1, "take", card="KD"),
                ev(2, "discard", card="4C"),
                ev(2, "take", card="X"),
            ],
            2,
            ["7H", "X"],
        ),
    ]
    held = page.evaluate(
        """async (cases) => {
      const { takenFromPile } = await import('/static/js/players.js');
      return cases.map(([events, seat]) => takenFromPile(events, seat));
    }""",
        [[events, seat] for events, seat, _ in cases],
    )
    assert held == [want for _, _, want in cases], held


def test_the_pile_opens_its_history_with_who_threw_each_card(page: Any) -> None:
    """The pile showed its top two cards; the rest of it, and who threw what, were in the log's
    twelve lines at most, mixed with the draws. The pile's label opens its history: every card,
    newest first, with who threw it (a card dealt face up says so), read from the deal's
    events, in every language; a restock leaves only the pile's newest cards."""
    page.set_viewport_size(PHONE)
    game = _indian_with_takes()
    events = game.history()
    first, second, third = (e["seat"] for e in events if e["action"] == "discard")
    me = first
    view = game.view(me)
    assert len(view["pile"]) == 3, view["pile"]
    got = page.evaluate(
        "async ([lang, view, events]) => { const level = 'medium';"
        + DRAW_TABLE.replace("events: [],", "events,").replace(
            "prefs: {},", "prefs: { pileHistory: true },"
        )
        + """
      const toggle = root.querySelector('[data-action=pile-history]');
      return { expanded: toggle.getAttribute('aria-expanded'),
               items: [...root.querySelectorAll('.pile-history li')].map((li) =>
                 [li.dataset.card, li.querySelector('.pile-by').textContent]),
               width: document.documentElement.scrollWidth };
    }""",
        ["fr", view, events],
    )
    pile = view["pile"]
    assert got["expanded"] == "true", got
    # the history and the chip's line are named and reachable: axe finds nothing on the table
    # (drawn beside the page's main, whose landmarks are not the table's to check)
    found = [v["id"] for v in AXE.run(page, context="#drawn").response["violations"]]
    assert found == [], found
    assert got["items"] == [
        [pile[2], "vous" if third == me else f"Robot {third + 1}"],
        [pile[1], "vous" if second == me else f"Robot {second + 1}"],
        [pile[0], "de la donne"],
    ], got
    assert got["width"] <= PHONE["width"], got
    throwers = page.evaluate(
        """async ([events, pile]) => {
      const { pileThrowers } = await import('/static/js/piles.js');
      return pileThrowers(events, pile);
    }""",
        [
            [
                {"seat": 0, "action": "discard", "card": "4C"},
                {"seat": 1, "action": "discard", "card": "9D"},
                {"seat": 0, "action": "take", "card": "9D"},
                {"seat": 0, "action": "return", "card": "9D"},
                {"seat": 0, "action": "discard", "card": "KS"},
                {"seat": None, "action": "restock", "stock": 2},
                {"seat": 1, "action": "discard", "card": "2H"},
            ],
            ["KS", "2H"],
        ],
    )
    assert throwers == [0, 1], throwers
