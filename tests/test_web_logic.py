"""The page's own little rule code, run in Chromium against the Python engine's: the meld check
that labels the player's groups (validity, kind and value, for every variant's limits), the
order in which selected cards are sent as a meld, and where a card fits a table meld."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from rummykit.cards import format_cards, make_deck
from rummykit.errors import InvalidMeld
from rummykit.melds import MeldRules, make_meld
from tests.web_support import lobby_page

IMPORT = """async (args) => {
  const m = await import('/static/js/melds.js');
  const c = await import('/static/js/cards.js');
  // the table's functions under test, from the modules that hold them
  const t = { ...(await import('/static/js/meldfit.js')),
              ...(await import('/static/js/tablelog.js')),
              ...(await import('/static/js/endscreen.js')) };
  return FN;
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with lobby_page() as p:
        yield p


def js(page: Any, body: str, args: Any) -> Any:
    return page.evaluate(IMPORT.replace("FN", body), args)


def python_check(texts: str, rules: MeldRules, jokers_zero: bool) -> list[Any]:
    from rummykit.cards import parse_cards

    try:
        meld = make_meld(parse_cards(texts), rules)
    except InvalidMeld:
        return [False, None, None]
    return [True, meld.kind, meld.value(jokers_zero)]


CHECK = """args.cases.map(([text, v, w]) => {
  const r = m.checkMeld(c.parseCards(text), m.meldRules(v, w), v === 'rami71');
  return r.ok ? [true, r.kind, r.value] : [false, null, null];
})"""


def test_worked_checks_of_the_rule_book(page: Any) -> None:
    cases = [
        ["5H X 7H X 9H", "rummy", 0],
        ["5H X X 8H", "rummy", 0],
        ["7S 7S 7D", "rummy", 0],
        ["KS AS 2S", "rummy", 0],
        ["7S 7H X X", "rummy", 0],
        ["QS KS AS", "rummy", 0],
        ["AC 2C 3C", "rummy", 0],
        ["KS KH KD", "rummy", 0],
        ["KS KH X", "rami71", 0],
        ["9S X JS", "indian", 7],
        ["X X 5H", "indian", 0],
        ["6D 7D 8D", "indian", 7],
    ]
    got = js(page, CHECK, {"cases": cases})
    assert got == [
        [True, "run", 35],
        [False, None, None],
        [False, None, None],
        [False, None, None],
        [True, "set", 28],
        [True, "run", 31],
        [True, "run", 6],
        [True, "set", 30],
        [True, "set", 20],
        [True, "run", 29],
        [True, "run", 12],
        [True, "run", 21],
    ]


def test_meld_check_agrees_with_the_engine(page: Any) -> None:
    rng = random.Random(8)
    deck = make_deck(4)
    cases: list[tuple[str, str, int]] = []
    for _ in range(1500):
        variant = rng.choice(["rummy", "rami71", "indian"])
        wild = rng.choice([0, 3, 7, 12]) if variant == "indian" else 0
        if rng.random() < 0.5:
            # near-melds: a run or a set with noise, so that many are valid
            suit, start, n = rng.randrange(4), rng.randrange(1, 12), rng.randrange(3, 6)
            pool = [
                c for c in deck if c.rank == 0 or (c.suit == suit and start <= c.rank < start + n)
            ]
            if rng.random() < 0.5:
                rank = rng.randrange(1, 14)
                pool = [c for c in deck if c.rank in (0, rank)]
            cards = rng.sample(pool, min(len(pool), rng.randrange(3, 5)))
            if rng.random() < 0.7:
                cards.sort(key=lambda c: (c.rank == 0, c.rank))
        else:
            cards = rng.sample(deck, rng.randrange(2, 6))
        cases.append((format_cards(cards), variant, wild))
    got = js(page, CHECK, {"cases": [list(case) for case in cases]})
    for (text, variant, wild), answer in zip(cases, got, strict=True):
        rules = (
            MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)
            if variant == "indian"
            else MeldRules()
        )
        assert answer == python_check(text, rules, variant == "rami71"), (text, variant, wild)
    assert sum(1 for a in got if a[0]) > 200  # the sample holds plenty of real melds


def test_selected_cards_are_sent_in_meld_order(page: Any) -> None:
    body = """args.cases.map(([texts, v]) => t.meldOrder(texts, m.meldRules(v, 0)).join(' '))"""
    got = js(
        page,
        body,
        {
            "cases": [
                [["7H", "5H", "6H"], "rummy"],
                [["X", "9S", "7S"], "rummy"],
                [["AS", "KS", "QS"], "rummy"],
                [["3C", "AC", "2C"], "rummy"],
                [["KD", "X", "KS"], "rummy"],
            ]
        },
    )
    assert got == ["5H 6H 7H", "7S X 9S", "QS KS AS", "AC 2C 3C", "KD X KS"]


def test_where_a_card_fits_a_table_meld(page: Any) -> None:
    body = """args.cases.map(([cards, card, v]) => {
      const f = t.fits({cards: cards.split(' ')}, card, {variant: v, wild_rank: null});
      return [f.ends.map(String), f.swap];
    })"""
    got = js(
        page,
        body,
        {
            "cases": [
                ["5H 6H 7H", "8H", "rummy"],  # the high end
                ["5H 6H 7H", "4H", "rummy"],  # the low end
                ["5H 6H 7H", "X", "rummy"],  # a joker: either end, the page asks
                ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS", "rummy"],  # an ace: either end
                ["5H X 7H", "6H", "rummy"],  # frees the joker
                ["6S 6H 6D X", "6C", "rami51"],  # Rami: the 4th card frees the joker
                ["6S X 6D", "6C", "rami51"],  # Rami: a 3-card set only grows
                ["6S X 6D", "6C", "rummy"],  # rummy: grows, or frees the joker
                ["KS KH KD", "KS", "rummy"],  # the suit is there already
            ]
        },
    )
    assert got == [
        [["high"], False],
        [["low"], False],
        [["low", "high"], False],
        [["low", "high"], False],
        [[], True],
        [[], True],
        [["null"], False],
        [["null"], True],
        [[], False],
    ]


def test_a_table_joker_shows_the_card_it_stands_for(page: Any) -> None:
    body = """(() => {
      const tr = (k, p) => k + JSON.stringify(p || {});
      const el = c.cardElement('X', {small: true, standsFor: '6H', t: tr});
      return [el.querySelector('.corner').textContent, el.classList.contains('stands'),
              el.getAttribute('aria-label')];
    })()"""
    corner, stands, label = js(page, body, {})
    assert corner == "6♥★" and stands
    assert label.startswith("card.jokerAs")


def test_the_discarded_card_leaves_not_its_twin(page: Any) -> None:
    """The hand holds both queens of spades (two decks): discarding the first one removes that
    one; without the hint the arrangement would drop the last copy."""
    body = """(async () => {
      const { Arrangement } = await import('/static/js/hand.js');
      const out = [];
      for (const hint of [true, false]) {
        const a = new Arrangement(null);
        a.reconcile(['QS', '5H', 'QS', 'QH'], 1);
        const [first, second] = a.all().filter((id) => id.startsWith('QS'));
        if (hint) a.expectGone([first]);
        a.reconcile(['QS', '5H', 'QH'], 1);
        out.push([a.all().includes(first), a.all().includes(second)]);
      }
      return out;
    })()"""
    assert js(page, body, {}) == [[False, True], [True, False]]


def test_a_refused_connection_is_retried_ever_more_slowly(page: Any) -> None:
    """A server over its per-address limit accepts the socket, says too_many_connections and
    closes it. The page must back off (up to 30 s), not reconnect at once each time; a welcome
    starts the backoff again. The socket and the timers are stand-ins: no real connection."""
    body = """(async () => {
      const { Connection } = await import('/static/js/net.js');
      const realWS = window.WebSocket, realTimeout = window.setTimeout;
      const delays = [];
      let reply = null;
      class FakeSocket {
        static OPEN = 1;
        constructor() { this.on = {}; this.readyState = 1; }
        addEventListener(kind, fn) { (this.on[kind] ||= []).push(fn); }
        fire(kind, ev) { for (const fn of this.on[kind] || []) fn(ev || {}); }
        send() {}
        close() {}
      }
      const conn = new Connection({ onMessage: () => {}, onStatus: () => {} });
      window.WebSocket = FakeSocket;
      // the 15 s a request (the ping) waits for its answer is no reconnection timer
      window.setTimeout = (fn, ms) => { if (ms !== 15000) delays.push(ms); return 0; };
      try {
        const cycle = (msg) => {
          conn.connect();
          const ws = conn.ws;
          ws.fire("open");
          ws.fire("message", { data: JSON.stringify(msg) });
          ws.readyState = 3;
          ws.fire("close");
        };
        const refused = { type: "error", code: "too_many_connections", message: "too many" };
        for (let i = 0; i < 8; i++) cycle(refused);
        const crowded = delays.splice(0);
        cycle({ type: "welcome", protocol: 1 });
        reply = [crowded, delays.splice(0)];
      } finally {
        window.WebSocket = realWS;
        window.setTimeout = realTimeout;
      }
      return reply;
    })()"""
    crowded, after_welcome = js(page, body, {})
    # one reconnection timer a refusal, each longer than the last up to the 30 s cap
    assert len(crowded) == 8, crowded
    assert all(b > a for a, b in pairwise(crowded)), crowded
    assert crowded[0] < 1000 and 30000 <= crowded[-1] < 30300, crowded
    # a welcome, then a lost connection: the next attempt comes at once again
    assert len(after_welcome) == 1 and after_welcome[0] < 1000, after_welcome


def test_the_log_keeps_its_deals_line(page: Any) -> None:
    """The log keeps its newest 40 lines, and the first one kept is the line of the deal its
    moves belong to: a deal of more than 40 moves no longer loses its line, and the deal before,
    reached in part, keeps its own."""
    body = """(() => {
      const deal = (n) => ({ deal: n });
      const move = (n, k) => ({ seat: k % 2, move: `${n}.${k}` });
      const name = (l) => (l.deal ? `Deal ${l.deal}` : l.move);
      const run = (log, n) => t.keepLog(log, n).map(name);
      const moves = (n, k) => Array.from({ length: k }, (_, i) => move(n, i + 1));
      return [
        run([deal(1), ...moves(1, 3)], 40),
        run([deal(1), ...moves(1, 45)], 40),
        run([deal(1), ...moves(1, 5), deal(2), ...moves(2, 3)], 6),
        run([deal(1), ...moves(1, 5), deal(2), ...moves(2, 3)], 4),
        run([deal(1), ...moves(1, 5), deal(2), ...moves(2, 3)], 3),
        run(moves(1, 5), 3),
      ];
    })()"""
    got = js(page, body, {})
    assert got[0] == ["Deal 1", "1.1", "1.2", "1.3"]
    assert len(got[1]) == 40 and got[1][:2] == ["Deal 1", "1.7"] and got[1][-1] == "1.45"
    assert got[2] == ["Deal 1", "1.5", "Deal 2", "2.1", "2.2", "2.3"]
    assert got[3] == ["Deal 2", "2.1", "2.2", "2.3"]
    assert got[4] == ["Deal 2", "2.2", "2.3"]
    assert got[5] == ["1.3", "1.4", "1.5"]  # no deal's line to keep (none was written)


def test_the_log_panel_shows_the_current_deals_line_first(page: Any) -> None:
    """The panel shows the log's newest 12 lines grouped by deal, the newest deal first, each
    deal's line above its moves (newest first): a deal of more moves than the panel shows still
    has its line, first, where it used to fall below the panel's scroll height or out of it."""
    body = """(() => {
      const deal = (n) => ({ deal: n });
      const move = (n, k) => ({ seat: k % 2, move: `${n}.${k}` });
      const said = (k) => ({ seat: 0, said: true, move: `said ${k}` });
      const name = (l) => (l.deal ? `Deal ${l.deal}` : l.before ? "Before" : l.move);
      const moves = (n, k) => Array.from({ length: k }, (_, i) => move(n, i + 1));
      const run = (log, n) => t.panelLog(log, n).map(name);
      return [
        run([deal(1)], 12),
        run([deal(1), ...moves(1, 3)], 12),
        run([deal(1), ...moves(1, 30)], 12),
        run([deal(1), ...moves(1, 30), deal(2), ...moves(2, 3)], 12),
        run([deal(1), ...moves(1, 30), deal(2), ...moves(2, 20)], 12),
        run(moves(1, 5), 3),
        run([said(1), said(2), deal(1), ...moves(1, 2)], 12),
        run([said(1), deal(1), ...moves(1, 30)], 12),
      ];
    })()"""
    got = js(page, body, {})
    assert got[0] == ["Deal 1"]
    assert got[1] == ["Deal 1", "1.3", "1.2", "1.1"]
    assert got[2] == ["Deal 1"] + [f"1.{k}" for k in range(30, 19, -1)]
    older = [f"1.{k}" for k in range(30, 23, -1)]
    assert got[3] == ["Deal 2", "2.3", "2.2", "2.1", "Deal 1", *older]
    assert got[4] == ["Deal 2"] + [f"2.{k}" for k in range(20, 9, -1)]
    assert got[5] == ["1.5", "1.4", "1.3"]  # no deal's line to show (none was written)
    # quick messages said in the waiting room: at the foot under a line of their own, not
    # as the oldest moves of deal 1; gone with deal 1's oldest moves
    assert got[6] == ["Deal 1", "1.2", "1.1", "Before", "said 2", "said 1"]
    assert got[7] == ["Deal 1"] + [f"1.{k}" for k in range(30, 19, -1)]


def test_the_end_card_takes_the_next_deals_time_from_the_room(page: Any) -> None:
    """Between deals a room message says when the next deal starts: none while the room is
    held (everyone away or gone), a new time once somebody is back. The end card's countdown
    follows it rather than the deal_over message kept from the deal's end."""
    body = """(() => {
      const over = { type: "deal_over", deal: 1, next_deal_at: 1000, result: { winner: 0 } };
      const room = (status, at) => ({ type: "room", status, next_deal_at: at });
      const f = t.dealOverWithRoom;
      return [
        f(over, room("between-deals", null)),
        f({ ...over, next_deal_at: null }, room("between-deals", 5000)),
        f(over, room("between-deals", 1000)) === over,
        f(over, room("playing", null)) === over,
        f(null, room("between-deals", 5000)),
      ];
    })()"""
    got = js(page, body, {})
    assert got[0]["next_deal_at"] is None and got[0]["result"] == {"winner": 0}
    assert got[1]["next_deal_at"] == 5000 and got[1]["deal"] == 1
    assert got[2] is True and got[3] is True
    assert got[4] is None
