#!/usr/bin/env python3
"""The web client at the heaviest tables, on a phone's screen and a cheap phone's CPU.

Builds a few heavy positions from engine games played by bots (a 6-seat ``rummy`` deal late
on after several deals, a 2-seat ``rami71`` deal after several restocks with some 30 melds on
the table, a 2 v 2 ``rami51`` deal, the end of a 6-seat deal), starts ``rummykit serve`` (this
checkout's code) for the page's files, and opens the page in Debian's Chromium at 390x844 and
568x320 with the CPU throttled four times (CDP ``Emulation.setCPUThrottlingRate``). The
server's own messages are handed to the page's message handler (``S.conn.onMessage``), as its
socket would: the room, the state a page entering mid-deal gets, then one state per action.

For each state update it measures the script time, the layouts and style recalculations and
their time (CDP ``Performance.getMetrics``), the elements in the page and the time to the next
frame; then the time from a tap on a hand card to the frame that shows it selected (and
unselected), and from the release of a card dragged onto another to the frame that shows the
hand regrouped. Prints the medians of ``--runs`` runs (a fresh page each) and exits 0, or 1
when the page logged an error.

Usage: python scripts/web_heavy.py [--runs 3] [--updates 12] [--throttle 4] [--only rummy6]
Needs: apt-get install chromium; pip install playwright (see docs/web.md).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from dataclasses import dataclass, field
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import Bot, make_bot
from rummykit.bots.base import play_deal
from rummykit.bots.observation import observe
from rummykit.engine import Game
from tests.web_support import chromium, new_page, running_server

ROOM = "HEAVY2"
YOU = 1
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "sideways": {"width": 568, "height": 320}}
LAYS = ("meld", "open", "layoff", "swap")
METRICS = (
    "ScriptDuration", "LayoutCount", "LayoutDuration", "RecalcStyleCount", "RecalcStyleDuration",
)

JSON = dict[str, Any]


@dataclass
class Position:
    """A table to measure: the messages that bring a page to it, and those measured there,
    each update a list of messages handed over together."""

    name: str
    what: str
    entry: list[JSON]
    updates: list[list[JSON]] = field(default_factory=list)
    melds: int = 0
    restocks: int = 0
    deals: int = 0


def room_msg(game: Game, status: str = "playing") -> JSON:
    seats = [
        {"seat": s, "kind": "human", "name": "Ana", "connected": True, "away": False,
         "rematch": False}
        if s == YOU
        else {"seat": s, "kind": "bot", "name": "", "level": "medium", "connected": True,
              "away": False, "rematch": False}
        for s in range(game.players)
    ]
    return {"type": "room", "room": ROOM, "link": f"/r/{ROOM}", "variant": game.variant,
            "players": game.players, "options": game.view(YOU).get("options", {}),
            "status": status, "game": 1, "bot_levels": ["easy", "medium", "hard"], "seats": seats,
            "spectators": 0, "next_deal_at": None, "held": False, "rematch_at": None,
            "you": {"seat": YOU}}


def state_msg(game: Game, events: list[JSON], last: JSON | None) -> JSON:
    view = game.view(YOU)
    return {"type": "state", "room": ROOM, "game": 1, "version": view["version"], "view": view,
            "last": last, "events": events, "clock": None}


def laid(text: str) -> int:
    """How many cards a lay takes from the hand (a swap gives one and takes the joker back)."""
    verb, _, rest = text.partition(" ")
    if verb in ("meld", "open"):
        return len([w for w in rest.replace("/", " ").split() if w != "/"])
    return 1 if verb == "layoff" else 0


def keeps_going(game: Game, seat: int, text: str) -> bool:
    """The action leaves the deal going, and a lay leaves the seat two cards at least (one to
    discard, one to keep): the deal then never ends and the table fills up. The page's own
    seat lays nothing: a full hand to tap and drag, as a player's who has not opened."""
    if not game.is_legal(text):
        return False
    left = len(game.hand(seat)) - laid(text)
    if text.split()[0] in LAYS and (left < 2 or seat == YOU):
        return False
    if text.startswith("discard") and left <= 1:
        return False
    if game.public_view()["stock"] > 1:
        return True
    # near the stock's end a draw may end the deal (rummy): tried on a copy
    trial = game.copy()
    trial.apply(text)
    return trial.to_move is not None


def hoard(game: Game, bots: list[Bot], rng: random.Random) -> str | None:
    """One action of a medium bot that lays what it can but never goes out; None when every
    action would end the deal (a rummy stock run out)."""
    seat = game.to_move
    assert seat is not None
    text = str(bots[seat].choose(observe(game, seat), rng))
    if keeps_going(game, seat, text):
        return text
    # a discard: what the bot would have done had it not laid its last cards
    hand = [c.text for c in game.hand(seat)]
    rng.shuffle(hand)
    for alt in [f"discard {c}" for c in hand] + ["return", "draw", "take"]:
        if keeps_going(game, seat, alt):
            return alt
    return None


def hoarded(game: Game, bots: list[Bot], rng: random.Random, melds: int, limit: int) -> int:
    """Hoard until ``melds`` are on the table, the deal cannot go on or ``limit`` actions are
    played; the count played."""
    n = 0
    while len(game.public_view()["table"]) < melds and n < limit:
        text = hoard(game, bots, rng)
        if text is None:
            break
        game.apply(text)
        n += 1
    return n


def padded(view: JSON, melds: int) -> JSON:
    """The view with its table filled up to ``melds`` with copies of its own melds, numbered
    on: bots' deals lay a dozen melds or so, and a long deal among people lays more."""
    table = view.get("table") or []
    if not table or len(table) >= melds:
        return view
    extra = [{**table[i % len(table)], "number": len(table) + i + 1}
             for i in range(melds - len(table))]
    return {**view, "table": table + extra}


def built(name: str, what: str, game: Game, bots: list[Bot], rng: random.Random,
          actions: int, updates: int, pad: int = 0) -> Position:
    """The current deal hoarded for ``actions`` actions (or as far as it goes), the page
    entering it ``updates`` actions before the end and measured at each of them; with ``pad``,
    the table of each view filled up to that many melds. A first pass on copies finds how far
    it goes (the bots and their random draws are copied alike)."""
    trial = (game.copy(), copy.deepcopy(bots), copy.deepcopy(rng))
    total = hoarded(*trial, 10**6, actions)
    hoarded(game, bots, rng, 10**6, max(0, total - updates))

    def msg(events: list[JSON], last: JSON | None) -> JSON:
        m = state_msg(game, events, last)
        return {**m, "view": padded(m["view"], pad)} if pad else m

    pos = Position(name, what, [room_msg(game), msg(game.history(), None)])
    for _ in range(updates):
        seat = game.to_move
        start = game.history_length()
        text = hoard(game, bots, rng)
        if text is None:
            break
        game.apply(text)
        last = {"seat": seat, "action": text, "auto": False}
        pos.updates.append([msg(game.history(start), last)])
    pos.melds = len(pos.updates[-1][0]["view"]["table"]) if pos.updates else 0
    pos.restocks = sum(1 for e in game.history() if e.get("action") == "restock")
    pos.deals = len(game.results) + 1
    return pos


def after_deals(variant: str, players: int, deals: int, seed: int,
                options: JSON | None = None) -> tuple[Game, list[Bot], random.Random]:
    """A game of medium bots whose ``deals`` first deals are played, its next one dealt: the
    first seed from ``seed`` on whose game is not over by then."""
    for s in range(seed, seed + 100):
        game = Game.new(variant, players=players, seed=s, options=options or {})
        bots = [make_bot("medium") for _ in range(players)]
        rng = random.Random(s)
        for _ in range(deals):
            if not play_deal(game, bots, rng) or game.over:
                break
            game.next_deal()
        else:
            return game, bots, rng
    raise ValueError(f"no {variant} game of {players} lasted {deals} deals")


def positions(updates: int) -> list[Position]:
    out = []
    # rummy, six seats: three deals played out (the score sheet), the fourth late on
    game, bots, rng = after_deals("rummy", 6, 3, 7, {"length": "to-200"})
    out.append(built("rummy6", "rummy 6 seats, 4th deal, table padded", game, bots, rng,
                     10**4, updates, 24))
    # rami71 one against one: the stock rebuilt several times, the table filled up to 32 melds
    game, bots, rng = after_deals("rami71", 2, 0, 3)
    out.append(built("rami71", "rami71 2 seats, table padded", game, bots, rng, 600, updates, 32))
    # rami51 two against two, second deal
    game, bots, rng = after_deals("rami51", 4, 1, 4)
    out.append(built("2v2", "rami51 2 v 2, 2nd deal, table padded", game, bots, rng, 200,
                     updates, 20))
    # the end of a six-seat deal: its last state, the deal's end, the room between deals; then
    # the room's messages redraw under the end screen
    game, bots, rng = after_deals("rummy", 6, 3, 11, {"length": "to-200"})
    while True:
        trial = game.copy()
        seat = trial.to_move
        assert seat is not None
        text = bots[seat].choose(observe(trial, seat), rng)
        trial.apply(text)
        if trial.to_move is None:
            break
        game.apply(text)
    pos = Position("end6", "rummy 6 seats, end of 4th deal",
                   [room_msg(game), state_msg(game, game.history(), None)])
    start = game.history_length()
    game.apply(text)
    public = game.public_view()
    results = public.get("results") or []
    over = {"type": "deal_over", "room": ROOM, "game": 1, "deal": len(game.results),
            "result": results[-1] if results else None, "scores": public.get("scores"),
            "next_deal_at": None}
    between = room_msg(game, "between")
    pos.updates.append([state_msg(game, game.history(start), {"seat": seat, "action": text,
                                                                 "auto": False}), over, between])
    pos.updates += [[between] for _ in range(max(1, updates // 3))]
    pos.melds = len(public["table"])
    pos.deals = len(game.results)
    out.append(pos)
    return out


# The page's message handler, timed, and the frame after it: one state update.
UPDATE_JS = """async (msgs) => {
  const S = window.rummykit.S;
  let t0, t1;
  // in a task of its own, as a socket's message comes (a script run by the DevTools protocol
  // is not counted in ScriptDuration)
  await new Promise((r) => setTimeout(() => {
    t0 = performance.now();
    for (const m of msgs) S.conn.onMessage(m);
    t1 = performance.now();
    r();
  }, 0));
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return { handler: t1 - t0, frame: performance.now() - t0,
           elements: document.getElementsByTagName('*').length };
}"""

# A tap's or a drag's release and the frame after the page's answer to it.
INPUT_JS = """(type) => {
  window.__input = null;
  let t0 = null;
  const start = (e) => { if (t0 === null) t0 = e.timeStamp; };
  addEventListener(type, start, { capture: true, once: true });
  addEventListener('click', () => {}, { once: true });
  const done = () => requestAnimationFrame(() => setTimeout(() => {
    window.__input = performance.now() - t0; }, 0));
  addEventListener(type === 'pointerup' ? 'pointerup' : 'click', () => setTimeout(done, 0),
                   { once: true });
}"""

CARD_JS = """(i) => {
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const c = cards[Math.min(i, cards.length - 1)];
  if (!c) return null;
  c.scrollIntoView({ block: 'center', inline: 'center' });
  const r = c.getBoundingClientRect();
  return { id: c.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2,
           n: cards.length };
}"""


def metrics(cdp: Any) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: float(got.get(k, 0.0)) for k in METRICS}


def measure_updates(page: Any, cdp: Any, pos: Position) -> list[dict[str, float]]:
    rows = []
    for msgs in pos.updates:
        before = metrics(cdp)
        got = page.evaluate(UPDATE_JS, msgs)
        after = metrics(cdp)
        d = {k: after[k] - before[k] for k in METRICS}
        rows.append({
            "script": 1000 * d["ScriptDuration"], "handler": got["handler"],
            "layouts": d["LayoutCount"], "layout_ms": 1000 * d["LayoutDuration"],
            "styles": d["RecalcStyleCount"], "style_ms": 1000 * d["RecalcStyleDuration"],
            "frame": got["frame"], "elements": got["elements"],
        })
    return rows


def measure_taps(page: Any, taps: int) -> list[float]:
    out = []
    for i in range(taps):
        card = page.evaluate(CARD_JS, 2 + i)
        if not card:
            break
        for _ in range(2):  # selected, then unselected
            page.evaluate(INPUT_JS, "pointerdown")
            page.mouse.click(card["x"], card["y"])
            page.wait_for_function("() => window.__input !== null")
            out.append(float(page.evaluate("() => window.__input")))
    return out


def measure_drags(page: Any, drags: int) -> list[float]:
    out = []
    for i in range(drags):
        a = page.evaluate(CARD_JS, 0)
        b = page.evaluate(CARD_JS, 3 + i)
        if not a or not b or a["id"] == b["id"]:
            break
        a = page.evaluate(CARD_JS, 0)  # b's scroll may have moved it
        page.evaluate(INPUT_JS, "pointerup")
        page.mouse.move(a["x"], a["y"])
        page.mouse.down()
        page.mouse.move(b["x"] + 5, b["y"], steps=6)
        page.mouse.up()
        page.wait_for_function("() => window.__input !== null")
        out.append(float(page.evaluate("() => window.__input")))
    return out


Samples = tuple[list[dict[str, float]], list[float], list[float]]


def run_once(browser: Any, base: str, pos: Position, viewport: dict[str, int], rate: float,
             taps: int, drags: int, errors: list[str]) -> Samples:
    page = new_page(browser, viewport=viewport)
    page.on("pageerror", lambda e: errors.append(f"{pos.name}: {e}"))
    page.goto(base + "/")
    page.wait_for_selector(".lobby")
    page.wait_for_function("() => window.rummykit && window.rummykit.S.status === 'online'")
    for m in pos.entry:
        page.evaluate("(m) => window.rummykit.S.conn.onMessage(m)", m)
    page.wait_for_selector(".table-view")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    try:
        rows = measure_updates(page, cdp, pos)
        tapped = measure_taps(page, taps) if pos.name != "end6" else []
        dragged = measure_drags(page, drags) if pos.name != "end6" else []
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        page.context.close()
    return rows, tapped, dragged


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


HEAD = ("table", "screen", "melds", "elems", "script", "handler", "layouts", "layout",
        "styles", "style", "frame", "tap", "drag")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="fresh pages per table and screen (3)")
    ap.add_argument("--updates", type=int, default=12, help="state updates measured per run (12)")
    ap.add_argument("--taps", type=int, default=3, help="hand cards tapped twice per run (3)")
    ap.add_argument("--drags", type=int, default=2, help="hand cards dragged per run (2)")
    ap.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down (4)")
    ap.add_argument("--only", default="", help="these tables only (comma-separated names)")
    args = ap.parse_args()
    tables = positions(args.updates)
    if args.only:
        tables = [p for p in tables if p.name in args.only.split(",")]
    for p in tables:
        print(f"{p.name}: {p.what}; {p.melds} melds, {p.restocks} restocks, "
              f"{len(p.entry[1]['events'])} events at entry, deal {p.deals}", flush=True)
    print("medians; ms unless a count; script and layout per state update; CPU throttled "
          f"x{args.throttle:g}")
    print("".join(f"{h:>9}" for h in HEAD))
    errors: list[str] = []
    with running_server() as server, chromium() as browser:
        for pos in tables:
            for screen, viewport in VIEWPORTS.items():
                rows: list[dict[str, float]] = []
                taps: list[float] = []
                drags: list[float] = []
                for _ in range(args.runs):
                    r, t, d = run_once(browser, server.base, pos, viewport, args.throttle,
                                       args.taps, args.drags, errors)
                    rows += r
                    taps += t
                    drags += d
                col = {k: med([r[k] for r in rows]) for k in rows[0]}
                cells = [f"{pos.name:>9}", f"{screen:>9}", f"{pos.melds:>9}",
                         f"{col['elements']:>9.0f}", f"{col['script']:>9.1f}",
                         f"{col['handler']:>9.1f}", f"{col['layouts']:>9.0f}",
                         f"{col['layout_ms']:>9.1f}", f"{col['styles']:>9.0f}",
                         f"{col['style_ms']:>9.1f}", f"{col['frame']:>9.1f}",
                         f"{med(taps):>9.1f}", f"{med(drags):>9.1f}"]
                print("".join(cells), flush=True)
    if errors:
        print("page errors:\n  " + "\n  ".join(errors[:20]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
