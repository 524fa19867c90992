"""Small fixes of the web client, each kept: Space held on a button while the page redraws
still presses it; a joker is named, not read as "star", in the log, the toast, the live region
and the labels of the pile, the melds and the buttons; a pool player out of the game told so in
their hand's place and marked in the scores panel; on a phone held sideways the settings' Close
in reach and a hand grouped into no melds on the first screen; on phones, who laid each meld."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web_support import (
    js_errors,
    low_contrast,
    new_page,
    play_against_bots,
    state,
    tap,
    wait_change,
)


def test_space_held_on_a_button_while_the_page_redraws_presses_it(
    server: Any, browser: Any
) -> None:
    """A button pressed from the keyboard with Space is clicked on the key's release; a redraw
    between the two (a resume's messages, the other seat's move) took the button out of its
    place and the press was lost, as a tap's was before the page held its redraws for it."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    assert s["myTurn"] and "draw" in s["can"], s
    page.locator("[data-action=draw]").focus()
    page.keyboard.down(" ")
    page.evaluate("() => window.rummykit.actions.render()")
    page.keyboard.up(" ")
    page.wait_for_function(
        """v => { const S = window.rummykit.S;
                  return S.state.version > v && S.view.turn && S.view.turn.phase === "play"; }""",
        arg=s["version"],
        timeout=8000,
    )
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_joker_is_named_where_words_are_read(server: Any, browser: Any) -> None:
    """A joker is drawn "★" as on its card; a screen reader read it "star"."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    page.evaluate(
        """() => { const S = window.rummykit.S;
                   S.log = [...S.log, { seat: 1, text: "Bot 1 discarded ★" }];
                   S.view = { ...S.view, pile: [...S.view.pile, "X"] };
                   window.rummykit.actions.render(); }"""
    )
    line = page.locator(".log li", has_text="Bot 1 discarded")
    assert line.inner_text().startswith("Bot 1 discarded ★")  # shown as drawn
    assert line.aria_snapshot() == "- listitem: Bot 1 discarded Joker"
    label = page.locator("[data-action=pile]").get_attribute("aria-label") or ""
    assert "Joker" in label and "★" not in label, label
    take = page.locator("[data-action=take]")
    assert take.inner_text() == "Take ★"
    assert take.get_attribute("aria-label") == "Take Joker"
    assert not js_errors(page), page.js_errors
    page.context.close()


SAY = """async ([lang, view, results, you]) => {
  const i18n = await import('/static/js/i18n.js');
  const { dealSummary } = await import('/static/js/results.js');
  const { describeAction } = await import('/static/js/tablelog.js');
  await i18n.loadLanguage(lang);
  const S = { you, room: null, view, events: [] };
  return { deals: results.map((r) => dealSummary(S, r)),
           timeout: describeAction({ seat: 1, action: "timeout" }, S, null) };
}"""


def say(page: Any, lang: str, players: int, penalties: list[int], you: int = 0) -> dict[str, Any]:
    view = {"variant": "indian", "players": players}
    result = {"deal": 1, "winner": 0, "points": sum(penalties), "penalties": penalties}
    said: dict[str, Any] = page.evaluate(SAY, [lang, view, [result], you])
    return said


def test_what_the_losers_pay_is_said_as_a_total_or_by_its_payer(browser: Any, server: Any) -> None:
    """"The others pay 55 points" read as 55 each: the deal's points are what the losers pay
    together. One payer is named (or "you"); several pay the sum "in all"."""
    page = new_page(browser)
    page.goto(server.base)
    page.wait_for_selector("#view")
    nbsp = "\u00a0"
    assert say(page, "en", 3, [0, 20, 35])["deals"] == [
        f"You win the deal. The others pay 55{nbsp}points in all."
    ]
    assert say(page, "es", 3, [0, 20, 35])["deals"] == [
        f"Ganas la mano. Los demás pagan 55{nbsp}puntos en total."
    ]
    fr = say(page, "fr", 3, [0, 20, 35])["deals"][0]
    assert fr.endswith(f"Les autres paient 55{nbsp}points au total.")
    # one payer, the others (a seat that had dropped out earlier) paying nothing this deal
    assert say(page, "en", 3, [0, 0, 35])["deals"] == [
        f"You win the deal. Seat 3 pays 35{nbsp}points."
    ]
    assert say(page, "en", 2, [0, 1], you=1)["deals"][0].endswith(f" You pay 1{nbsp}point.")
    assert say(page, "fr", 2, [0, 40])["deals"][0].endswith(f" Place 2 paie 40{nbsp}points.")
    # the clock's move when the page does not know what it did: no claim that it drew
    timeout = say(page, "en", 2, [0, 1])["timeout"]
    assert timeout == "Seat 2 ran out of time: the game played the turn"
    assert js_errors(page) == []
    page.context.close()


def test_a_room_link_refused_for_the_address_guesses_goes_back_to_the_lobby(
    server: Any, browser: Any
) -> None:
    """An address that asked for too many codes naming nothing is refused even a real room's
    (rate_limited, reason codes): the page left on a room link waited for ever, "Joining…",
    and its toast said "too many messages"."""
    page = new_page(browser)

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()

        def to_server(message: str) -> None:
            msg = json.loads(message)
            if msg.get("type") == "join":
                ws.send(json.dumps({
                    "type": "error", "id": msg.get("id"), "code": "rate_limited", "reason": "codes",
                    "message": "too many room codes naming nothing asked from this address",
                }))
            else:
                server_ws.send(message)

        ws.on_message(to_server)

    page.route_web_socket("**/ws", route)
    page.goto(f"{server.base}/r/ABCDEF")
    page.wait_for_function("() => window.rummykit && window.rummykit.S.route.name === 'lobby'")
    assert page.locator("#toast").inner_text() == (
        "Too many table codes that name no table were tried from here: "
        "try again in a few minutes."
    )
    assert page.url.rstrip("/") == server.base.rstrip("/")
    assert not js_errors(page), page.js_errors
    page.context.close()


SIMPLE_METER = """(mine) => { const S = window.rummykit.S; const v = S.view;
  const turn = mine ? { ...v.turn, seat: S.you, can: [...new Set([...v.turn.can, "open"])] }
                    : { ...v.turn, seat: 1 - S.you, can: [] };
  S.view = { ...v, turn, opening: { ...v.opening, opened: false,
    meter: { points: 52, enough: true, action: "open 2H 3H 4H", melds: [["2H", "3H", "4H"]] } } };
  window.rummykit.actions.render();
  const b = document.querySelector("[data-action=open-meter]");
  const hint = document.querySelector("[data-hint=enough]");
  return { button: b ? b.textContent : null, hint: hint ? hint.textContent : null };
}"""


@pytest.mark.parametrize(
    ("locale", "button", "later"),
    [("en-US", "Lay all down", "All can go down on your turn."),
     ("es-ES", "Bajarlo todo", "Todo puede bajarse en tu turno."),
     ("fr-FR", "Tout poser", "Tout peut être posé à votre tour.")],
)
def test_simple_rami_lays_all_down_rather_than_opening(
    server: Any, browser: Any, locale: str, button: str, later: str
) -> None:
    """simple Rami has no opening: its one lay-down is the whole hand, whose points count for
    nothing. The button read "Open (52)" and the hint "Enough to open"."""
    page = new_page(browser, locale=locale)
    play_against_bots(page, server.base, "simple", 2)
    assert page.evaluate(SIMPLE_METER, True) == {"button": button, "hint": None}
    assert page.evaluate(SIMPLE_METER, False) == {"button": None, "hint": later}
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(("locale", "keys"), [("en-US", "Home / End"), ("es-ES", "Inicio / Fin"),
                                              ("fr-FR", "Début / Fin")])
def test_the_help_lists_home_and_end_which_reach_the_hands_ends(
    server: Any, browser: Any, locale: str, keys: str
) -> None:
    """Home and End move to the hand's first and last card; the help's keys left them out."""
    page = new_page(browser, locale=locale)
    play_against_bots(page, server.base, "rummy", 2)
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    rows = page.locator("#help tr th kbd").all_inner_texts()
    assert keys in rows, rows
    page.keyboard.press("Escape")
    page.keyboard.press("h")
    page.keyboard.press("End")
    last = page.evaluate("() => window.rummykit.S.arrangement.all().at(-1)")
    assert page.evaluate("() => document.activeElement.dataset.id") == last
    page.keyboard.press("Home")
    first = page.evaluate("() => window.rummykit.S.arrangement.all()[0]")
    assert page.evaluate("() => document.activeElement.dataset.id") == first
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_server_clock_is_read_at_the_middle_of_the_pings_round_trip(
    server: Any, browser: Any
) -> None:
    """The page reads the server's clock from a pong (countdowns to the next deal and the
    rematch). Taken at the pong's arrival it ran late by the whole round trip: on a busy
    machine a 2 s pause between deals was shown as 3 s. Here every message is held 600 ms
    each way; the page and the server share one clock, so the right skew is about 0."""
    import time

    page = new_page(browser)
    held: list[tuple[float, Any, str]] = []

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()
        server_ws.on_message(lambda m: held.append((time.monotonic(), ws, m)))
        ws.on_message(lambda m: held.append((time.monotonic(), server_ws, m)))

    page.route_web_socket("**/ws", route)
    page.goto(server.base + "/")
    end = time.monotonic() + 30
    # the first pong read (the skew is 0 until then)
    while not page.evaluate("() => !!(window.rummykit && window.rummykit.S.conn.skew)"):
        assert time.monotonic() < end, "no pong"
        while held and held[0][0] <= time.monotonic() - 0.6:
            _, to, message = held.pop(0)
            to.send(message)
        page.wait_for_timeout(10)
    skew = page.evaluate("() => window.rummykit.S.conn.skew")
    assert abs(skew) < 250, skew  # read at the pong's arrival it was about -600
    assert not js_errors(page), page.js_errors
    page.context.close()


ASKED = """() => { const S = window.rummykit.S; const v = S.view;
  const r = { deal: 1, dealer: 0, winner: 0, how: "discard", points: 20, double: false,
              blocked: false, penalties: [0, 20], hands: [[], ["5C", "9D"]] };
  S.view = { ...v, over: true, turn: null, winner: 0, results: [r], scores: [20, 0] };
  S.room = { ...S.room, seats: S.room.seats.map((s) => ({ ...s, rematch: true })) };
  window.rummykit.actions.render();
  return document.querySelector("[data-rematch-who]").textContent; }"""


def test_who_asked_for_the_rematch_names_oneself_first(server: Any, browser: Any) -> None:
    """It read "Rematch asked by: Ana, You (Ben)", the capital of "You" inside the list."""
    from tests.web_support import two_people_and_a_spectator

    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    assert ben.evaluate("() => window.rummykit.S.you") == 1
    assert ben.evaluate(ASKED) == "Rematch asked by: You (Ben), Ana"
    assert ana.evaluate(ASKED) == "Rematch asked by: You (Ana), Ben"
    assert watcher.evaluate(ASKED) == "Rematch asked by: Ana, Ben"
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


# A fresh 3-seat Pool 101 table's view given one's own elimination (it takes several deals of
# shuffled play): the engine's out mark, its list, no hand, another seat's turn.
ME_OUT = """() => { const { S, actions } = window.rummykit; const v = S.view;
  v.seats[S.you].out = "eliminated"; v.eliminated = [S.you]; v.hand = [];
  v.turn = { ...v.turn, seat: (S.you + 1) % 3, can: [] };
  S.selected.clear(); S.arrangement.reconcile([], `${S.room.game}.${v.deal}`);
  actions.render(); }"""


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "You are out of the game"),
        ("fr-FR", "Vous êtes hors de la partie"),
        ("es-ES", "Estás fuera de la partida"),
    ],
)
def test_a_pool_player_out_of_the_game_reads_so_where_their_hand_was(
    server: Any, browser: Any, locale: str, words: str
) -> None:
    """Put out of a pool game, a player's hand area was titled "Your hand (0)" over nothing, as
    if the cards were still to come; the line that says they are out and may watch the game to
    its end stands there instead (it was above the hand, during the others' turns only)."""
    page = new_page(browser, locale=locale)
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    page.evaluate(ME_OUT)
    hand = page.locator(".my-area .hand")
    text = hand.inner_text()
    assert words in text, text
    assert "(0)" not in text and not hand.locator(".hand-card").count(), text
    # said once, in the hand's place, which the keyboard's H still reaches
    assert page.locator(".my-area .meter.out").count() == 1
    assert hand.get_attribute("tabindex") == "0" and hand.get_attribute("aria-label")
    # between deals too (the bar above the hand says nothing then)
    page.evaluate(
        "() => { const { S, actions } = window.rummykit; S.view.turn = null; actions.render(); }"
    )
    assert words in page.locator(".my-area .hand").inner_text()
    assert not js_errors(page), page.js_errors
    page.context.close()


SCORES_JS = """() => ({
  rows: [...document.querySelectorAll('.panel.scores > table tbody tr')].map((tr) => [
    tr.querySelector('th').textContent, !!tr.querySelector('.badge.out')]),
  sheet: [...document.querySelectorAll('.panel.scores .sheet thead th')]
    .map((th) => th.textContent),
})"""


def test_the_scores_panel_marks_the_pool_players_out_of_the_game(
    server: Any, browser: Any
) -> None:
    """The scores panel listed a pool player out of the game as any other, their total beside
    the rest's; the end screen marked them. Their row and their column of the sheet say
    "eliminated" in words. Two deals' results are given a fresh Pool 101 table, seat 2 over
    101 after the second: out by the engine's list before its seat says so (between deals)."""
    page = new_page(browser)
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    page.evaluate(
        """() => { const { S, actions } = window.rummykit; const v = S.view;
          v.seats.forEach((seat) => { seat.out = null; });
          const r = (deal, totals) => ({ deal, dealer: 0, winner: 0, how: "declare", points: 0,
            double: false, blocked: false, penalties: [0, 0, 0], hands: [[], [], []], totals });
          v.results = [r(1, [0, 20, 80]), r(2, [0, 40, 160])];
          v.scores = [0, 40, 160]; v.eliminated = [2];
          actions.render(); }"""
    )
    got = page.evaluate(SCORES_JS)
    assert [marked for _, marked in got["rows"]] == [False, False, True], got
    assert got["rows"][2][0].endswith(" eliminated"), got
    assert got["sheet"][3].endswith(" eliminated"), got
    assert "eliminated" not in "".join(got["sheet"][:3]), got
    # a screen reader reads the row's name with its mark
    row = page.locator(".panel.scores > table tbody tr").nth(2)
    assert "eliminated" in row.aria_snapshot(), row.aria_snapshot()
    # the next deal: the seat's own mark, and the engine's list, mark it alike
    page.evaluate(
        """() => { const { S, actions } = window.rummykit;
          S.view.seats[2].out = "eliminated"; S.view.eliminated = [2]; actions.render(); }"""
    )
    assert [m for _, m in page.evaluate(SCORES_JS)["rows"]] == [False, False, True]
    assert not js_errors(page), page.js_errors
    page.context.close()


# The dialog's Close (its last button), whether it is whole on the screen and inside the dialog,
# and the first thing under its middle; the name field's box, whether the buttons' row covers it.
DIALOG_JS = """(id) => { const d = document.getElementById(id);
  const btn = d.querySelector('.dialog-actions .btn:last-child');
  const b = btn.getBoundingClientRect(); const r = d.getBoundingClientRect();
  const bar = d.querySelector('.dialog-actions').getBoundingClientRect();
  const f = document.activeElement.getBoundingClientRect();
  return { whole: b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth
             && b.top >= r.top && b.bottom <= r.bottom,
           hit: document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2) === btn,
           scrolls: d.scrollHeight > d.clientHeight,
           focused: document.activeElement.id,
           fieldShown: f.top >= r.top && f.bottom <= bar.top + 0.5 }; }"""


def test_the_settings_close_is_whole_on_a_phone_held_sideways(server: Any, browser: Any) -> None:
    """At 568×320 the settings dialog ended below the screen's foot, its Close button cut off;
    the dialog scrolls in itself and its buttons' row stays at its foot, whole, in every
    language. The help dialog, far longer, keeps its Close in reach the same way."""
    page = new_page(browser, viewport={"width": 568, "height": 320})
    page.goto(server.base + "/")
    page.wait_for_selector("#settings-btn")
    for lang in ("es", "en", "fr"):
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.click("#settings-btn")
        page.wait_for_selector("#settings[open]")
        # the name field, reached by the keyboard, scrolls into view above the buttons' row
        page.focus("#opt-name")
        got = page.evaluate(DIALOG_JS, "settings")
        assert got["whole"] and got["hit"] and got["fieldShown"], (lang, got)
        page.click("#settings .dialog-actions .btn")
        page.wait_for_function("() => !document.getElementById('settings').open")
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    page.focus("#help .dialog-actions .btn")
    got = page.evaluate(DIALOG_JS, "help")
    assert got["scrolls"] and got["whole"] and got["hit"], got
    page.click("#help .dialog-actions .btn")
    page.wait_for_function("() => !document.getElementById('help').open")
    assert not js_errors(page), page.js_errors
    page.context.close()


GROUP_NO_MELDS_JS = """(sizes) => { const { S, actions } = window.rummykit;
  S.arrangement.ungroupAll();
  // groups that cannot be melds whatever the deal: their natural cards hold two suits (no
  // run) and two ranks (no set), jokers or not; found by a search over the hand's cards
  const ids = S.arrangement.all();
  const text = (id) => S.arrangement.constructor.textOf(id);
  const bad = (group) => {
    const real = group.map(text).filter((c) => c !== "X");
    return new Set(real.map((c) => c[0])).size > 1 && new Set(real.map((c) => c[1])).size > 1;
  };
  const fill = (k, left) => {
    if (k === sizes.length) return [];
    const pick = (chosen, from) => {
      if (chosen.length === sizes[k]) {
        if (!bad(chosen)) return null;
        const rest = fill(k + 1, left.filter((id) => !chosen.includes(id)));
        return rest && [chosen, ...rest];
      }
      for (let i = from; i < left.length; i++) {
        const found = pick([...chosen, left[i]], i + 1);
        if (found) return found;
      }
      return null;
    };
    return pick([], 0);
  };
  const groups = fill(0, ids);
  if (!groups) return ["no grouping of this hand is without melds"];
  for (const g of groups) S.arrangement.group(g);
  actions.render();
  return [...document.querySelectorAll('.hand .group:not(.loose)')].map((g) => g.className); }"""


def test_a_hand_grouped_into_no_melds_stays_on_a_sideways_phones_first_screen(
    server: Any, browser: Any
) -> None:
    """At 568×320 the ungrouped hand is one row under the turn's buttons; sorted into groups
    that are no melds, each group's reason wrapped to three lines in a box 170 px wide, the
    groups took two rows, Ungroup all put the tools on a second line, and the cards went
    below the screen's foot. Four groups before the draw, five of the fifteen cards after it
    with a card selected (the selection's tools on a line of their own): all on the first
    screen, every control a finger's size."""
    from tests.test_web_landscape import off_screen
    from tests.test_web_touch import TARGETS_JS, touch_page

    width, height = 568, 320
    page = touch_page(browser, width, height, locale="es-ES")
    play_against_bots(page, server.base, "rami51", 4)
    classes = page.evaluate(GROUP_NO_MELDS_JS, [3, 3, 3, 3])
    assert len(classes) == 4 and all("bad" in c for c in classes), classes
    assert off_screen(page, width, height) == []
    targets = page.evaluate(TARGETS_JS)
    assert targets["small"] == [] and targets["sideways"] <= 0, targets
    s = state(page)
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    page.wait_for_selector("[data-action=discard]")
    classes = page.evaluate(GROUP_NO_MELDS_JS, [3, 3, 3, 3, 3])
    assert sum("bad" in c for c in classes) >= 4, classes
    page.locator(".hand .hand-card").last.tap()
    page.wait_for_selector(".hand .hand-card.selected")
    assert off_screen(page, width, height) == []
    targets = page.evaluate(TARGETS_JS)
    assert targets["small"] == [] and targets["sideways"] <= 0, targets
    # a group's whole reason is still its name, for a screen reader
    name = page.locator(".hand .group.bad").first.get_attribute("aria-label") or ""
    assert len(name) > 12 and "…" not in name, name
    assert not js_errors(page), page.js_errors
    page.context.close()


MELD_MARKS_JS = """() => { const { S, actions } = window.rummykit;
  S.view.table = [
    { number: 1, kind: "run", cards: ["4H", "5H", "6H", "7H"], owner: S.you },
    { number: 2, kind: "set", cards: ["9S", "9D", "9C"], owner: (S.you + 1) % 4 },
    { number: 3, kind: "run", cards: ["TS", "JS", "QS", "KS", "AS"], owner: (S.you + 3) % 4 } ];
  actions.render();
  const box = (e) => e.getBoundingClientRect();
  return [...document.querySelectorAll('.meld-tile')].map((m) => {
    const mark = m.querySelector('.meld-mark'); const no = box(m.querySelector('.meld-no'));
    const card = box(m.querySelector('.meld-cards .card')); const r = box(m);
    const k = mark ? box(mark) : null;
    return { text: mark ? mark.textContent : null, shown: !!(k && k.width && k.height),
             inside: !!k && k.left >= r.left && k.right <= card.left + 1 && k.top >= no.bottom
                     && k.bottom <= r.bottom,
             name: m.getAttribute('aria-label') }; }); }"""


@pytest.mark.parametrize(
    ("width", "height", "locale"), [(320, 568, "fr-FR"), (568, 320, "en-US")]
)
def test_a_phone_shows_who_laid_each_meld(
    server: Any, browser: Any, width: int, height: int, locale: str
) -> None:
    """A phone hides the owner's name under a meld (no room for it): who laid which was not
    to be seen. A mark as on the seat's avatar stands under the meld's number, beside the
    cards and no taller than the tile: the player's initial, a bot's ("B", "R" in French) and
    the seat's number for a bot. The button's name still says who in words."""
    from tests.test_web_touch import touch_page

    page = touch_page(browser, width, height, locale=locale)
    play_against_bots(page, server.base, "rami51", 4)
    melds = page.evaluate(MELD_MARKS_JS)
    bot = "R" if locale == "fr-FR" else "B"  # the initial of "Robot", of "Bot"
    assert [m["text"] for m in melds] == ["A", f"{bot}2", f"{bot}4"], melds
    assert all(m["shown"] and m["inside"] for m in melds), melds
    # the mark is seen only: the name is read
    assert page.locator(".meld-tile .meld-mark").first.get_attribute("aria-hidden") == "true"
    assert all(m["name"] for m in melds), melds
    assert not page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
    assert not low_contrast(page), low_contrast(page)
    assert not js_errors(page), page.js_errors
    page.context.close()
