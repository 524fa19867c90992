"""A past deal's results looked back at mid-game, from the score sheet (docs/web.md, *A past
deal's results*), and the people's marks told apart at a table (Ana and Alberto were both "A").

Most tests draw the table from engine views of games played by bots (as test_web_sheet.py
does), so a game of several deals is there at once; one plays a game to 200 through the page
against a bot and looks back at its first deal in the second, and one seats Ana and Alberto at
a waiting room of a real server."""

from __future__ import annotations

import random
from typing import Any

from rummykit.bots import make_bot
from rummykit.bots.base import play_turn as bot_turn
from rummykit.engine import Game
from tests.helpers import medium_game
from tests.test_web_axe import violations
from tests.web_support import (
    DESKTOP,
    MY_TURN_OR_OVER,
    add_bots,
    create_room,
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    new_page,
    play_against_bots,
    play_turn,
    state,
    with_drawn_root,
)

# The table drawn from a view by the page's own code; ``names[seat]`` is a person's name, or
# "BOT". The page's state is kept in window.__past to draw it again from another view.
DRAW = with_drawn_root("""async ([lang, view, you, names]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const table = await import('/static/js/table.js');
  const { Arrangement } = await import('/static/js/hand.js');
  const seats = view.seats.map((s) => names[s.seat] === 'BOT'
    ? { seat: s.seat, kind: 'bot', name: 'Bot', level: 'medium' }
    : { seat: s.seat, kind: 'human', name: names[s.seat], connected: true });
  const S = { you, view, room: { room: 'PAST42', game: 1, status: 'playing', seats },
              state: { version: view.version }, status: 'online', selected: new Set(), log: [],
              events: [], clock: null, prefs: {}, pending: false, variants: null,
              route: { name: 'room' } };
  S.arrangement = new Arrangement(null);
  S.arrangement.reconcile(view.hand || [], '1.1');
${DRAWN_ROOT}
  const actions = { render() { table.renderTable(root, S, actions); },
                    renderSelection() { table.renderTable(root, S, actions, true); },
                    play() {}, say() {} };
  window.__past = { S, actions };
  actions.render();
}""")

# a new view of the same table, drawn as a state would draw it
REDRAW = """(view) => { const P = window.__past; P.S.view = view;
  P.S.state = { version: view.version }; P.actions.render(); }"""

FOCUS = ("() => { const e = document.activeElement;"
         " return e ? (e.dataset.key || e.id || e.tagName) : null; }")

DIALOG = """() => {
  const d = document.getElementById('past-deal');
  const cells = (tr) => [...tr.children].map((c) => c.textContent);
  const box = d.getBoundingClientRect();
  const close = d.querySelector('[data-action=past-close]').getBoundingClientRect();
  return { open: d.open, title: document.getElementById('past-deal-title').textContent,
    summary: document.getElementById('past-deal-summary').textContent,
    labelledby: d.getAttribute('aria-labelledby'), describedby: d.getAttribute('aria-describedby'),
    close: d.querySelector('[data-action=past-close]').textContent,
    rows: [...d.querySelectorAll('tbody tr')].map((tr) => ({
      cards: [...tr.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
      cells: cells(tr), winner: tr.classList.contains('winner') })),
    focus: (${FOCUS})(),
    box: [box.left, box.top, box.right, box.bottom],
    closeBox: [close.left, close.top, close.right, close.bottom],
    width: document.documentElement.scrollWidth };
}""".replace("${FOCUS}", FOCUS)


# who laid each meld on a phone, and the people's avatars, as drawn
MARKS = """() => ({
  melds: [...document.querySelectorAll('.meld-tile')].map(
    (m) => m.querySelector('.meld-mark').textContent),
  avatars: Object.fromEntries([...document.querySelectorAll('.seat-chip')].map(
    (c) => [c.dataset.seat, c.querySelector('.avatar').textContent])) })"""


def draw(page: Any, lang: str, view: dict[str, Any], you: int | None,
         names: list[str] | None = None) -> None:
    names = names or ["BOT", "Ana", "BOT", "BOT"][: len(view["seats"])]
    page.evaluate(DRAW, [lang, view, you, names])


def focus_on(page: Any, key: str) -> None:
    """Wait for the keyboard focus on ``key`` (a dialog gives it back as its close event is
    dispatched, a moment after it closed)."""
    page.wait_for_function(f"(key) => ({FOCUS})() === key", arg=key)


def dialog(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DIALOG)
    return result


def game_to_200(deals: int, players: int = 3, seed: int = 5) -> Game:
    """A `rummy` game to 200 of medium bots, ``deals`` deals played and the next one dealt."""
    return medium_game("rummy", players, deals, seed=seed, options={"length": "to-200"})


def expected_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"cards": hand, "penalty": str(result["penalties"][s]),
             "total": str(result["totals"][s]).replace("-", "\u2212"),
             "winner": s == result["winner"]} for s, hand in enumerate(result["hands"])]


def shown_rows(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"cards": r["cards"], "penalty": r["cells"][2], "total": r["cells"][3],
             "winner": r["winner"]} for r in d["rows"]]


def test_each_row_of_the_sheet_opens_its_deal(page: Any) -> None:
    """In the fourth deal of a game to 200, the sheet's rows open each deal's results as its
    end screen had them (who won and how, every hand left with its points, the totals after
    it): by the keyboard (the row's number is a button named for what it opens) and by a tap
    anywhere on the row; Esc and Close give the focus back to the row."""
    page.set_viewport_size(DESKTOP)
    game = game_to_200(3)
    view = game.view(1)
    results = view["results"]
    draw(page, "en", view, 1)
    buttons = page.locator(".scores .sheet tbody th button")
    assert buttons.count() == 3
    assert [buttons.nth(i).get_attribute("aria-label") for i in range(3)] == [
        "Results of deal 1", "Results of deal 2", "Results of deal 3"]
    # the sheet still reads as before: the deal's number, then the totals
    assert page.locator(".scores .sheet tbody tr").nth(1).locator("th").text_content() == "2"
    buttons.nth(1).focus()
    page.keyboard.press("Enter")
    d = dialog(page)
    assert d["open"] and d["title"] == "Results of deal 2", d
    assert d["focus"] == "past-deal-title"
    assert (d["labelledby"], d["describedby"]) == ("past-deal-title", "past-deal-summary")
    second = results[1]
    winner = second["winner"]
    who = "You win the deal." if winner == 1 else f"Bot {winner + 1} (medium) wins the deal."
    assert d["summary"].startswith(f"{who} The winner scores {second['points']}"), d["summary"]
    assert shown_rows(d) == expected_rows(second)
    # the table under it is the fourth deal's, untouched
    assert page.locator(".table-view").get_attribute("data-deal") == "4"
    page.keyboard.press("Escape")
    assert not dialog(page)["open"]
    focus_on(page, "sheet-deal-1")
    # emptied as it closes: the end screens' rows are looked up by the page and by tests
    assert page.locator("#past-deal .results").count() == 0
    # a tap on the row's totals opens it too, and Close closes it
    page.locator(".scores .sheet tbody tr").nth(2).locator("td").first.click()
    d = dialog(page)
    assert d["open"] and d["title"] == "Results of deal 3"
    assert shown_rows(d) == expected_rows(results[2])
    page.click("#past-deal [data-action=past-close]")
    focus_on(page, "sheet-deal-2")
    assert not dialog(page)["open"]


def test_every_language_names_what_the_rows_open(page: Any) -> None:
    """The rows' buttons say what they open in Spanish, English and French; in the second
    deal, before the sheet shows (it needs two deals), the first deal's line opens it."""
    page.set_viewport_size(DESKTOP)
    one = game_to_200(1).view(1)
    three = game_to_200(3).view(1)
    for lang, label, button, close in (
        ("es", "Resultados de la mano {n}", "Resultados", "Cerrar"),
        ("en", "Results of deal {n}", "Results", "Close"),
        ("fr", "Résultats de la donne {n}", "Résultats", "Fermer"),
    ):
        draw(page, lang, one, 1)
        line = page.locator("[data-deal-result='1'] button")
        assert line.text_content() == button
        assert line.get_attribute("aria-label") == label.format(n=1)
        line.click()
        d = dialog(page)
        assert d["open"] and d["title"] == label.format(n=1) and d["close"] == close, d
        assert shown_rows(d) == expected_rows(one["results"][0])
        page.keyboard.press("Escape")
        focus_on(page, "deal-open-0")
        draw(page, lang, three, 1)
        names = page.locator(".scores .sheet tbody th button").evaluate_all(
            "bs => bs.map((b) => b.getAttribute('aria-label'))")
        assert names == [label.format(n=n) for n in (1, 2, 3)]
        # with the sheet there, the deals' lines are plain lines again
        assert page.locator(".deal-list button").count() == 0


def test_it_closes_itself_when_the_turn_becomes_yours(page: Any) -> None:
    """Open while another plays, it closes as the turn comes to the player (the clock runs
    and the dialog would hide it), says why, and gives the focus back to the row; opened
    during one's own turn it stays open; a spectator's stays open through the turns."""
    page.set_viewport_size(DESKTOP)
    game = game_to_200(3)
    bots = [make_bot("medium") for _ in range(3)]
    rng = random.Random(1)
    # a bot to move, the player (seat 1) next
    while game.view(0)["turn"]["seat"] != 0:
        bot_turn(game, game.view(0)["turn"]["seat"], bots[0], rng)
    waiting = game.view(1)
    while game.view(1)["turn"]["seat"] != 1:
        bot_turn(game, game.view(1)["turn"]["seat"], bots[0], rng)
    mine = game.view(1)
    assert waiting["turn"]["seat"] != 1 and mine["turn"]["seat"] == 1
    page.evaluate("() => { window.__said = []; const el = document.getElementById('announcer');"
                  " new MutationObserver(() => window.__said.push(el.textContent)).observe("
                  "el, { childList: true, characterData: true, subtree: true }); }")
    draw(page, "en", waiting, 1)
    page.locator("[data-key=sheet-deal-0]").click()
    assert dialog(page)["open"]
    page.evaluate(REDRAW, waiting)  # another state, still not the player's turn: open
    assert dialog(page)["open"]
    page.evaluate(REDRAW, mine)
    page.wait_for_function("() => !document.getElementById('past-deal').open")
    focus_on(page, "sheet-deal-0")
    page.wait_for_function("() => window.__said.some((t) => t.includes('it is your turn'))")
    said = page.evaluate("() => window.__said")
    assert any("The results of deal 1 are closed: it is your turn." in t for t in said), said
    # opened in one's own turn: left open by the states of that turn
    page.locator("[data-key=sheet-deal-1]").click()
    page.evaluate(REDRAW, mine)
    assert dialog(page)["open"]
    page.keyboard.press("Escape")
    # a spectator has no turn to lose: it stays open
    draw(page, "en", game.public_view(), None)
    page.locator("[data-key=sheet-deal-2]").click()
    d = dialog(page)
    assert d["open"] and d["title"] == "Results of deal 3"
    bot_turn(game, 1, bots[1], rng)  # the player's seat moves: another state, the same dialog
    page.evaluate(REDRAW, game.public_view())
    assert dialog(page)["open"]
    page.keyboard.press("Escape")


def test_sides_and_a_pool_player_out(page: Any) -> None:
    """A 2 v 2 Rami deal shows each side's total on its players' rows; in an Indian pool, the
    deal that put a player past 101 marks them *eliminated*, and in the next one, where they
    were dealt nothing, they have no points (—), as on those deals' end screens."""
    page.set_viewport_size(DESKTOP)
    teams = medium_game("rami51", 4, 2)
    view = teams.view(1)
    draw(page, "es", view, 1)
    page.locator("[data-key=sheet-deal-0]").click()
    d = dialog(page)
    first = view["results"][0]
    assert [r["cells"][3] for r in d["rows"]] == [str(first["totals"][s % 2]) for s in range(4)]
    assert [r["cells"][2] for r in d["rows"]] == [str(p) for p in first["penalties"]]
    page.keyboard.press("Escape")
    # seed 7: seat 2 goes past 101 in the third deal and is dealt nothing in the fourth
    pool = medium_game("indian", 3, 4, seed=7, options={"format": "pool101"})
    view = pool.view(0)
    assert view["eliminated"] == [2] and view["results"][2]["totals"][2] > 101
    draw(page, "en", view, 0)
    outs = "() => [...document.querySelectorAll('#past-deal tbody tr')].map((tr) => " \
        "tr.querySelector('.badge.out') ? tr.querySelector('.badge.out').textContent : null)"
    for index, out, penalty in ((1, None, str(view["results"][1]["penalties"][2])),
                                (2, "eliminated", str(view["results"][2]["penalties"][2])),
                                (3, "eliminated", "\u2014")):
        page.locator(f"[data-key=sheet-deal-{index}]").click()
        assert page.evaluate(outs) == [None, None, out], index
        assert dialog(page)["rows"][2]["cells"][2] == penalty, index
        page.keyboard.press("Escape")
        focus_on(page, f"sheet-deal-{index}")


def test_on_phones_upright_and_sideways(page: Any) -> None:
    """At 320 px wide and 568×320 sideways, in French (the longest words), the dialog opened
    by a tap stays within the screen with its Close button in view, and the page is no wider."""
    game = game_to_200(3, players=4, seed=7)
    for size in ({"width": 320, "height": 568}, {"width": 568, "height": 320}):
        page.set_viewport_size(size)
        draw(page, "fr", game.view(1), 1)
        page.locator("[data-key=sheet-deal-2]").scroll_into_view_if_needed()
        page.locator("[data-key=sheet-deal-2]").click()
        d = dialog(page)
        assert d["open"] and d["title"] == "Résultats de la donne 3", d
        for left, top, right, bottom in (d["box"], d["closeBox"]):
            assert left >= 0 and top >= 0, (size, d)
            assert right <= size["width"] and bottom <= size["height"], (size, d)
        cl, ct, cr, cb = d["closeBox"]
        assert cb - ct >= 24 and cr - cl >= 24
        assert d["width"] <= size["width"], (size, d)
        assert shown_rows(d) == expected_rows(game.view(1)["results"][2])
        page.keyboard.press("Escape")
        # the rows' buttons are big enough for a finger
        box = page.locator("[data-key=sheet-deal-0]").bounding_box()
        assert box and box["width"] >= 24 and box["height"] >= 24, box


def test_the_marks_of_people_with_the_same_initial_differ(page: Any) -> None:
    """Ana and Alberto at one table: their avatars and the marks under their melds on a phone
    read "An" and "Al" (both read "A"); two alike beyond the initial take their seat's number,
    and so does everyone of that initial; a lone initial is kept where no bot's avatar shows
    it (Ben beside a bot reads "Be"), and the bots' marks are as they were."""
    page.set_viewport_size({"width": 390, "height": 844})
    view = Game.new("rummy", players=4, seed=3).view(0)
    # a meld laid by each seat (the drawing reads only its owner)
    view["table"] = [{"number": n + 1, "kind": "set", "cards": ["7H", "7S", "7D"], "owner": n}
                     for n in range(4)]
    draw(page, "en", view, 0, ["Ana", "Alberto", "BOT", "Ben"])
    marks = page.evaluate(MARKS)
    assert marks["avatars"] == {"1": "Al", "2": "B", "3": "Be"}, marks
    assert marks["melds"] == ["An", "Al", "B3", "Be"], marks
    draw(page, "en", view, 0, ["Ana", "ana", "Alberto", "Ben"])
    marks = page.evaluate(MARKS)
    assert marks["avatars"] == {"1": "A2", "2": "A3", "3": "B"}, marks
    assert marks["melds"] == ["A1", "A2", "A3", "B"], marks


def test_the_waiting_rooms_avatars_differ(server: Any, browser: Any) -> None:
    """In the waiting room, Ana's and Alberto's avatars read "An" and "Al" on both pages, and
    at the table Alberto's chip reads "Al" on Ana's page."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "rummy", 3, name="Ana")
    alberto = new_page(browser)
    alberto.goto(f"{server.base}/r/{code}")
    alberto.wait_for_selector("[data-action=sit]")
    alberto.evaluate("() => { window.rummykit.S.prefs.name = 'Alberto'; }")
    alberto.click("[data-action=sit]")
    avatars = "() => [...document.querySelectorAll('.seat-row .avatar')].map((a) => a.textContent)"
    for p in (ana, alberto):
        p.wait_for_function("() => document.querySelectorAll('.seat-row.human').length === 2")
        assert p.evaluate(avatars) == ["An", "Al", "·"], p.evaluate(avatars)
    add_bots(ana)
    ana.wait_for_selector(".seat-chip[data-seat='1'] .avatar")
    assert ana.locator(".seat-chip[data-seat='1'] .avatar").text_content() == "Al"
    for p in (ana, alberto):
        assert not js_errors(p), p.js_errors
        p.context.close()


def test_a_game_to_200_looks_back_at_its_first_deal(server: Any, browser: Any) -> None:
    """Played through the page against a bot: in the second deal, the first deal's results open
    from its line in the scores panel, as the engine's view has them, over the table, with no
    violation of axe-core's rules; Esc gives the focus back and the game plays on."""
    page = new_page(browser, viewport=DESKTOP)
    # a deal may end the game at once (a hand laid whole doubles what it scores): then another
    for _ in range(4):
        if second_deal(page, server.base):
            break
    else:
        raise AssertionError("every game ended in its first deal")
    first = page.evaluate("() => window.rummykit.S.view.results[0]")
    page.locator("[data-deal-result='1'] button").click()
    d = dialog(page)
    assert d["open"] and d["title"] == "Results of deal 1", d
    assert shown_rows(d) == expected_rows(first)
    # the dialog over the live table breaks none of axe-core's rules
    assert violations(page) == []
    page.keyboard.press("Escape")
    focus_on(page, "deal-open-0")
    before = state(page)["version"]
    play_turn(page)
    assert state(page)["version"] > before
    assert not js_errors(page), page.js_errors
    page.context.close()


def second_deal(page: Any, base: str) -> bool:
    """A new `rummy` game to 200 against a bot, played through the page until its second
    deal's first turn of ours; False when the game ended before it."""
    play_against_bots(page, base, "rummy", 2, {"length": "to-200"})
    for _ in range(80):
        s = state(page)
        if s["over"]:
            return False
        deal = page.evaluate("() => window.rummykit.S.view.deal")
        if deal >= 2 and s["myTurn"] and not s["pending"]:
            return True
        if s["myTurn"] and not s["pending"]:
            play_turn(page)
        else:
            page.wait_for_function(MY_TURN_OR_OVER, timeout=30000)
    raise AssertionError("no turn of the second deal came")


PAST_MARKS = """() => [...document.querySelectorAll('#past-deal tbody tr')].map((tr) => {
  const hand = tr.querySelector('.end-hand');
  return { out: tr.querySelector('.badge.out') ? tr.querySelector('.badge.out').textContent : null,
    declared: hand.dataset.declared || null,
    groups: [...hand.querySelectorAll('.end-group')].map(
      (g) => [...g.querySelectorAll('[data-card]')].map((c) => c.dataset.card)),
    wild: [...tr.querySelectorAll('[data-card].wild')].map((c) => c.dataset.card) }; })"""


def test_a_past_deal_shows_who_dropped_declared_wrongly_and_the_wild_cards(page: Any) -> None:
    """A past deal is drawn from its result alone, which now carries what its end screen
    showed: who dropped and who declared wrongly (badges; it said nothing), a declaration's
    melds group by group (it laid them out flat), and the deal's wild cards starred (it had no
    wild rank). The first deal of this Indian pool: seat 1 drops, seat 2 declares four groups
    that are no melds, seat 0 is left the winner; the second, played by medium bots, ends in a
    valid declaration and puts seat 2 out of the pool."""
    from tests.test_deal_results import dropped_and_declared_wrongly

    page.set_viewport_size(DESKTOP)
    game = dropped_and_declared_wrongly()
    game.next_deal()
    bots = [make_bot("medium") for _ in range(3)]
    from rummykit.bots import play_deal

    assert play_deal(game, bots, random.Random(1))
    game.next_deal()
    view = game.view(0)
    first, second = view["results"][0], view["results"][1]
    assert first["out"] == [None, "dropped", "wrong-declaration"]
    draw(page, "en", view, 0)
    page.locator("[data-key=sheet-deal-0]").click()
    rows = page.evaluate(PAST_MARKS)
    assert [r["out"] for r in rows] == [None, "dropped", "wrong declaration"], rows
    assert rows[2]["declared"] == "wrong"
    assert rows[2]["groups"] == [m.split() for m in first["declarations"][0]["melds"]]
    assert rows[0]["declared"] is None and rows[0]["groups"] == []
    rank = "A23456789TJQK"[first["wild_rank"] - 1]
    wild = [c for c in first["hands"][0] if c[0] == rank]
    assert wild and rows[0]["wild"] == wild, rows
    page.keyboard.press("Escape")
    focus_on(page, "sheet-deal-0")
    # the second deal: its own wild rank, and the winner's melds as declared
    assert second["how"] == "declare" and second["wild_rank"] != first["wild_rank"]
    page.locator("[data-key=sheet-deal-1]").click()
    rows = page.evaluate(PAST_MARKS)
    winner = second["winner"]
    assert rows[winner]["declared"] == "valid"
    assert rows[winner]["groups"] == [m.split() for m in second["declarations"][0]["melds"]]
    # seat 2, 80 down after its wrong declaration, went past 101 in it
    assert second["eliminated"] == [2] and second["out"] == [None, None, None]
    assert [r["out"] for r in rows] == [None, None, "eliminated"]
    rank = "A23456789TJQK"[second["wild_rank"] - 1]
    for s, r in enumerate(rows):
        assert sorted(r["wild"]) == sorted(c for c in second["hands"][s] if c[0] == rank), s
