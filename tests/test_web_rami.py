"""What a hunt through the Rami family (`rami51`, `rami71`, `simple`) against bots found on the
page, each kept by a test (docs/web.md). Most draw the table, or word the log, with the
page's own code from the engine's views and events of planned deals (the hands that show each
fault are chosen); one plays a planned game on the server. The engine's side is
tests/test_rami_hunt.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummykit.engine import Game
from tests.helpers import new_game, play
from tests.web_support import (
    LOG_LINES,
    MY_TURN_OR_OVER,
    Server,
    add_bots,
    create_room,
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    new_page,
    play_against_bots,
    play_turn,
    running_server,
    with_drawn_root,
)

# The table of ``view`` drawn by js/table.js into a root of its own (``root``; the lobby's view
# is hidden), for a person named Ana and bots of ``level``: the start of a function given
# ``lang``, ``view`` and ``level``, which goes on to read what its test needs.
DRAW_TABLE = with_drawn_root("""
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const table = await import('/static/js/table.js');
  const { Arrangement } = await import('/static/js/hand.js');
  const seats = view.seats.map((s) => s.seat === view.seat
    ? { seat: s.seat, kind: 'human', name: 'Ana' }
    : { seat: s.seat, kind: 'bot', name: 'Bot', level });
  const S = { you: view.seat, view, room: { room: 'RAMI42', game: 1, status: 'playing', seats },
              state: { version: view.version }, status: 'online', selected: new Set(), log: [],
              events: [], clock: null, prefs: {}, pending: false, variants: null };
  S.arrangement = new Arrangement(null);
  S.arrangement.reconcile(view.hand || [], '1.1');
${DRAWN_ROOT}
  table.renderTable(root, S, { render() {}, play() {} });
""")

DRAW = "async ([lang, view, level]) => {" + DRAW_TABLE + """
  const needs = root.querySelector('[data-hint=needs]');
  const limit = root.querySelector('[data-limit]');
  return { needs: needs ? needs.textContent : null, limit: limit ? limit.textContent : null,
           hints: [...root.querySelectorAll('.meter-hint')].map((e) => e.dataset.hint || ''),
           width: document.documentElement.scrollWidth };
}"""

SAY = """async ([lang, view, you, results, last]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const { dealSummary } = await import('/static/js/results.js');
  const { describeAction } = await import('/static/js/tablelog.js');
  const seats = view.seats.map((s) => s.seat === you
    ? { seat: s.seat, kind: 'human', name: 'Ana' }
    : { seat: s.seat, kind: 'bot', name: 'Bot', level: 'medium' });
  const S = { you, view, room: { seats }, events: [] };
  return { deals: results.map((r) => dealSummary(S, r)),
           log: last ? describeAction(last, S) : null };
}"""

# seat 1 is first (15 cards): two joker-free runs worth 90 and no set
RUNS = "9H TH JH QH KH 9S TS JS QS 2C 3D 4C 5D 6C 8D"
SIDEWAYS = {"width": 844, "height": 390}


def draw(page: Any, lang: str, view: dict[str, Any], level: str = "medium") -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRAW, [lang, view, level])
    return result


def test_the_meter_says_what_shape_the_first_lay_down_needs(page: Any) -> None:
    """rami71 counts only lay-downs with a joker-free run and a joker-free set: a hand of two
    runs worth 90 read *Opening 0 / 71*, the bar empty and nothing said why. The meter says
    what the engine's view asks (`opening.needs`), in every language; with the discard taken,
    that the run must do without it; to a seat its partner freed of the minimum, that the run
    and the set are still needed; in simple, that the close needs a run and a set."""
    page.set_viewport_size({"width": 390, "height": 844})
    runs = new_game("rami71", 2, {1: RUNS})
    for lang, words in (
        ("en", "Your first lay-down needs a run and a set without jokers."),
        ("es", "Tu primera bajada necesita una escalera y un trío sin comodines."),
        ("fr", "Votre première pose demande une suite et un brelan sans joker."),
    ):
        assert draw(page, lang, runs.view(1))["needs"] == words
    taken = new_game("rami71", 2, {1: RUNS, 0: "8C 8H 2S 3S 4S"})
    play(taken, "discard 8D", "take")
    assert draw(page, "en", taken.view(0))["needs"] == (
        "Your first lay-down needs a run and a set without jokers, the run without 8♦."
    )
    assert draw(page, "es", taken.view(0))["needs"].endswith("la escalera sin la carta 8♦.")
    # 2 v 2: the partner (seat 1) has laid down; seat 3 needs no minimum, but the shape
    first = "TS JS QS KS AS KH KD KC 2H 3H 4H 5D 9C 7D 2D"
    pair = new_game("rami71", 4, {1: first, 3: "2S 5H 8D JC 3C 6H 9D QS 4D 7C TH KS AD 6S"})
    play(pair, "open TS JS QS KS AS / KH KD KC", "discard 2D")
    freed = draw(page, "en", pair.view(3))
    assert freed["hints"][:1] == ["partner-opened"] and "needs" in freed["hints"], freed
    assert "without jokers" in freed["needs"]
    simple = Game.new("simple", 2, seed=1)
    assert draw(page, "fr", simple.view(0))["needs"] == "Votre pose demande une suite et un brelan."
    # rami51 asks for no shape; an opening that is enough needs no word of it
    assert draw(page, "en", Game.new("rami51", 2, seed=1).view(0))["needs"] is None
    enough = new_game("rami71", 2, {1: "9H TH JH QH KH 9S 9D 9C 2C 3D 4C 5D 6C 8D 8S"})
    assert enough.view(1)["opening"]["meter"]["enough"]
    assert draw(page, "en", enough.view(1))["needs"] is None
    # the words fit a 320 px phone, and on a phone held sideways the turn's button and the
    # hand's start stay on the first screen
    page.set_viewport_size({"width": 320, "height": 640})
    assert draw(page, "fr", taken.view(0))["width"] <= 320
    page.set_viewport_size(SIDEWAYS)
    assert draw(page, "fr", runs.view(1))["needs"]
    tops = page.evaluate(
        """() => [
          document.querySelector('#drawn .actions .verbs .btn').getBoundingClientRect().bottom,
          document.querySelector('#drawn .hand').getBoundingClientRect().top]"""
    )
    assert tops[0] <= 390 and tops[1] < 390, tops


def _finish(game: Game, seed: int) -> Game:
    """Random moves, lay-downs first, until the deal is over."""
    rng = random.Random(seed)
    while not game.deal.over:
        acts = list(game.legal_actions())
        lays = [a for a in acts if str(a).split()[0] in ("open", "meld", "layoff", "swap")]
        game.apply(rng.choice(lays) if lays and rng.random() < 0.7 else rng.choice(acts))
    return game


def say(page: Any, lang: str, game: Game, you: int, last: dict[str, Any] | None = None) -> Any:
    view = game.view(you)
    return page.evaluate(SAY, [lang, view, you, view["results"], last])


def test_the_log_says_a_close_laid_every_card_but_one(page: Any) -> None:
    """A close lays every card but the one discarded to end the deal, and needs no minimum:
    the log read *Bot 2 opened: …* for 46 points at a Rami 51 table, and *Ana opened* in
    simple Rami, which has no opening at all. The line follows the engine's event (`close`),
    on the open page (the state's own event) and from a deal's history (a reload)."""
    g = new_game("rami51", 2, {1: "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C KC"})
    g.apply("open 2S 3S 4S 5S / 2H 3H 4H 5H / 2D 3D 4D / 2C 3C 4C")
    melds = "2♠ 3♠ 4♠ 5♠ · 2♥ 3♥ 4♥ 5♥ · 2♦ 3♦ 4♦ · 2♣ 3♣ 4♣"
    for lang, words in (
        ("en", f"Bot 2 (medium) laid down every card but one: {melds}"),
        ("es", f"Bot 2 (medio) bajó todas sus cartas menos una: {melds}"),
        ("fr", f"Robot 2 (moyen) a posé toutes ses cartes sauf une\u00a0: {melds}"),
    ):
        assert log_lines(page, lang, g) == [words] * 2
    simple = new_game("simple", 2, {1: "2S 3S 4S 5S 7H 7D 7C 2D 3D 4D 9C 9H 9S 9D KC"})
    simple.apply("open 2S 3S 4S 5S / 7H 7D 7C / 2D 3D 4D / 9S 9H 9D 9C")
    assert log_lines(page, "en", simple)[0].startswith("Bot 2 (medium) laid down every card but")
    # an opening that keeps cards is still one
    rami = new_game("rami51", 2, {1: "KS KH KD QS QH QD 2C 5D 9H 7S 4C JD 3H 6S 8C"})
    rami.apply("open KS KH KD / QS QH QD")
    assert log_lines(page, "en", rami) == ["Bot 2 (medium) opened: K♠ K♥ K♦ · Q♠ Q♥ Q♦"] * 2


def test_a_close_played_on_the_page_is_logged_so(browser: Any) -> None:
    """The same through the page in a simple game (its planned first deal: the person closes
    with the one-tap Open), in English and in Spanish."""
    with running_server(planned=True) as server:
        page = new_page(browser)
        create_room(page, server.base, "simple", 2)
        add_bots(page)
        page.wait_for_function(MY_TURN_OR_OVER)
        play_turn(page)
        page.wait_for_selector("[data-end=deal]")
        lines = page.evaluate(LOG_LINES)
        assert any(line.startswith("Ana laid down every card but one: ") for line in lines), lines
        assert not any(" opened" in line for line in lines), lines
        page.select_option("#lang", "es")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.log li')]"
            ".some((li) => li.textContent.startsWith('Ana bajó todas sus cartas menos una: '))"
        )
        assert js_errors(page) == []
        page.context.close()


# The log's line of the deal's last event, worded as the open page words the state's own event
# (app.js: the latest event of its verb) and as a reload words the deal's history.
LOG = """async ([lang, view, events]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const log = await import('/static/js/tablelog.js');
  const seats = view.seats.map((s) => ({ seat: s.seat, kind: 'bot', name: 'Bot',
                                         level: 'medium' }));
  const S = { you: null, view, room: { seats }, events };
  const e = events[events.length - 1];
  const last = log.eventAction(e);
  const latest = [...events].reverse().find((x) => x.action === e.action);
  return [log.describeAction(last, S, log.eventDetail(latest)),
          log.describeAction(last, S, log.eventDetail(e))];
}"""


def log_lines(page: Any, lang: str, game: Game) -> list[str]:
    lines: list[str] = page.evaluate(LOG, [lang, game.public_view(), game.history()])
    return lines


# Per bot row of the results: its level's words ("(moyen)") and how many lines they take.
LEVEL_LINES = """() => [...document.querySelectorAll('#drawn .results th[scope=row]')]
.flatMap((th) => {
  const nodes = [];
  const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest('.badge')) continue;
    nodes.push(n);
  }
  const text = nodes.map((n) => n.textContent).join('');
  const open = text.lastIndexOf('(');
  if (!text.startsWith('Bot') && !text.startsWith('Robot')) return [];
  const at = (i) => { for (const n of nodes) { if (i <= n.textContent.length) return [n, i];
                                               i -= n.textContent.length; } };
  const r = document.createRange();
  r.setStart(...at(open));
  r.setEnd(...at(text.length));
  const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0.5)
    .map((q) => Math.round(q.top)));
  return [[text.slice(open), tops.size]];
})"""


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bots_level_stays_whole_on_a_2v2_end_screen_of_a_320_px_phone(
    page: Any, level: str
) -> None:
    """At the end of a 2 v 2 deal on a 320 px French phone the names' column is narrow, and a
    name may break anywhere (a long one must): *Robot 2 (moyen)* broke before its last
    character, *)* alone on a line. A bot's level is kept whole, and the points and totals
    stay on the screen, in every language."""
    page.set_viewport_size({"width": 320, "height": 800})
    game = _finish(Game.new("rami71", 4, seed=5), 1)
    for lang in ("fr", "es", "en"):
        drawn = draw(page, lang, game.view(0), level)
        assert drawn["width"] <= 320, drawn
        lines = page.evaluate(LEVEL_LINES)
        assert len(lines) == 3 and all(n == 1 for _, n in lines), (lang, lines)
        inside = page.evaluate(
            """() => {
                 const card = document.querySelector('#drawn .end-card').getBoundingClientRect();
                 return [...document.querySelectorAll('#drawn .results td:nth-child(4)')]
                   .every((td) => td.getBoundingClientRect().right <= card.right + 0.5); }"""
        )
        assert inside, lang


def test_the_table_says_the_total_that_loses_the_game(page: Any) -> None:
    """A Rami game is lost at 251 (351, 451 or 600 in pairs, or a house rule's total): only the
    lobby's blurb said it, which a friend who opens the table's link never sees, and which
    gives the variant's total under a house rule. The scores panel says the view's `limit`."""
    page.set_viewport_size({"width": 1280, "height": 800})
    one = draw(page, "en", Game.new("rami51", 2, seed=1).view(0))
    assert one["limit"] == "A player loses the game at 251\u00a0points."
    pairs = Game.new("rami71", 4, seed=1).view(0)
    assert draw(page, "es", pairs)["limit"] == (
        "Pierde la partida la pareja que llega a 451\u00a0puntos."
    )
    assert draw(page, "fr", Game.new("simple", 4, seed=1).view(0))["limit"] == (
        "Une équipe perd la partie à 600\u00a0points."
    )
    house = Game.new("simple", 2, {"limit": 500}, seed=1).view(0)
    assert draw(page, "en", house)["limit"] == "A player loses the game at 500\u00a0points."
    # no such total in rummy nor in an Indian game of deals (a pool's limit is said in words
    # of its own: tests/test_web_targets.py)
    assert draw(page, "en", Game.new("rummy", 2, seed=1).view(0))["limit"] is None
    deals = Game.new("indian", 2, {"format": "deals"}, seed=1).view(0)
    assert draw(page, "en", deals)["limit"] is None


# A state message as the server sends it when the other seat's discard emptied the stock and
# the pile was shuffled into a new one (the restock comes with the move's own event), given to
# the page's own message handler; ``whole``: as a connection that comes back gets the deal's
# history (no ``last``, every event).
RESTOCK = """([whole]) => {
  const S = window.rummykit.S;
  const other = 1 - S.you;
  const events = [{ seat: other, action: 'discard', card: '5H' },
                  { seat: null, action: 'restock', stock: 41 }];
  const msg = { ...S.state, version: S.state.version + 1,
                last: whole ? null : { seat: other, action: 'discard 5H', auto: false },
                events: whole ? [...S.events, ...events] : events };
  S.conn.onMessage(msg);
}"""


def test_the_log_says_the_pile_was_shuffled_into_a_new_stock(server: Server, browser: Any) -> None:
    """An empty stock is rebuilt from the discard pile as the turn that emptied it ends: the
    stock filled again and the pile went down to one card with no word in the log (the
    restock's event was skipped as nobody's move). The log says it, in every language, as it
    comes and in the history a connection gets back; the status line still gives the other's
    discard, which the turn may take."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rami51", 2)
    page.evaluate(RESTOCK, [False])
    lines = page.evaluate(LOG_LINES)  # the deal's line first, then the newest move
    assert lines[1:3] == [
        "The discard pile was shuffled into a new stock of 41\u00a0cards",
        "Bot 2 (medium) discarded 5♥",
    ], lines
    assert "Bot 2 (medium) discarded 5♥" in page.locator(".status").inner_text()
    page.evaluate(RESTOCK, [True])
    lines = page.evaluate(LOG_LINES)  # the deal's line first, then the newest move
    assert lines[1:3] == [
        "The discard pile was shuffled into a new stock of 41\u00a0cards",
        "Bot 2 (medium) discarded 5♥",
    ], lines
    assert sum("shuffled" in line for line in lines) == 2, lines
    for lang, words in (
        ("es", "El descarte se barajó en un mazo nuevo de 41\u00a0cartas"),
        ("fr", "La défausse a été mélangée en une nouvelle pioche de 41\u00a0cartes"),
    ):
        page.select_option("#lang", lang)
        page.wait_for_function(
            "w => document.querySelector('.log li:not(.log-deal)').textContent === w", arg=words
        )
    assert js_errors(page) == []
    page.context.close()
