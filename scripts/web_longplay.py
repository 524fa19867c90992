#!/usr/bin/env python3
"""A long session of the web client, measured deal by deal.

Starts ``rummykit serve`` (this checkout's code) on a free loopback port, opens one page in
Debian's Chromium and plays a 2-seat game against a bot through the page (its turns played with
the page's buttons, as the browser tests do), game after game (rematches), switching the
page's language, dropping the socket and taking the network away now and then. At each new
deal it collects the garbage and samples the page through the Chrome DevTools Protocol (JS
heap, DOM nodes, event listeners, layouts and style recalculations, script time) and the
page's live timers (``setInterval``/``setTimeout`` counted by a wrapper set before the page's
own code), then prints a table of the samples.

Exits 1 when something grows without levelling off (the last third of the samples well above
the first third, past the first deals' warm-up), or when the page logged an error.

Usage: python scripts/web_longplay.py [--minutes 10] [--variant indian] [--format pool201]
Needs: apt-get install chromium; pip install playwright (see docs/web.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from tests.web_support import (
    MY_TURN_OR_OVER,
    chromium,
    new_page,
    play_against_bots,
    play_turn,
    running_server,
    state,
)

#: Set before the page's own code: the live intervals and pending timeouts, and the state
#: messages received (to give the script time per state update).
COUNTERS_JS = """(() => {
  const intervals = new Set(), timeouts = new Set();
  const si = window.setInterval, st = window.setTimeout;
  const ci = window.clearInterval, ct = window.clearTimeout;
  window.setInterval = function (fn, ms, ...a) {
    const id = si.call(window, fn, ms, ...a); intervals.add(id); return id; };
  window.setTimeout = function (fn, ms, ...a) {
    const id = st.call(window, (...b) => { timeouts.delete(id); fn(...b); }, ms, ...a);
    timeouts.add(id); return id; };
  // either clears either kind, in browsers
  const clear = (id) => { intervals.delete(id); timeouts.delete(id); };
  window.clearInterval = function (id) { clear(id); return ci.call(window, id); };
  window.clearTimeout = function (id) { clear(id); return ct.call(window, id); };
  let states = 0;
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (e) => {
        if (typeof e.data === "string" && e.data.includes('"state"')) states += 1;
      });
    }
  };
  window.__longplay = () => ({ intervals: intervals.size, timeouts: timeouts.size, states });
})();"""

METRICS = (
    "JSHeapUsedSize",
    "Nodes",
    "JSEventListeners",
    "LayoutCount",
    "RecalcStyleCount",
    "ScriptDuration",
)
S = "window.rummykit.S"
DEAL_JS = f"() => {{ const S = {S}; return S.state ? [S.state.game, S.view.deal] : null; }}"
WAIT_JS = f"() => ({MY_TURN_OR_OVER})() || !!{S}.dealOver"
NEW_GAME_JS = f"g => {{ const S = {S}; return S.state && S.state.game !== g && !S.gameOver; }}"
NEXT_DEAL_JS = (
    f"k => {{ const S = {S};"
    " return S.gameOver || (S.view && S.view.deal !== k[1]) || S.state.game !== k[0]; }"
)
# back online and the resume's state in: a tap made while its messages still come (and redraw
# the page) could miss its button
MARK_JS = f"() => {{ window.stateBefore = {S}.state; }}"
ONLINE_JS = f"() => {S}.status === 'online' && !!{S}.state && {S}.state !== window.stateBefore"
CONN_JS = (
    f"() => {{ const c = {S}.conn;"
    " return {status: c.status, ready: c.ws && c.ws.readyState, waiting: c.waiting.size}; }"
)
HEAD = ("deal", "game", "heap KB", "nodes", "listen", "intv", "tmout", "log", "states")
HEAD2 = ("ms/state", "layouts", "event")


def sample(page: Any, cdp: Any) -> dict[str, float]:
    # more than one: a detached view is not always let go by the first
    for _ in range(3):
        cdp.send("HeapProfiler.collectGarbage")
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    out = {k: float(got.get(k, 0.0)) for k in METRICS}
    out.update({k: float(v) for k, v in page.evaluate("() => window.__longplay()").items()})
    out["log"] = float(page.evaluate(f"() => {S}.log.length"))
    return out


def deal_key(page: Any) -> tuple[int, int] | None:
    got: list[int] | None = page.evaluate(DEAL_JS)
    return (got[0], got[1]) if got else None


def grows(values: list[float], slack: float, ratio: float) -> bool:
    """The last third's median above the first third's (after warm-up) by more than both
    ``slack`` and ``ratio`` of it: growth that does not level off."""
    if len(values) < 9:
        return False
    third = len(values) // 3
    first = statistics.median(values[:third])
    last = statistics.median(values[-third:])
    return last - first > max(slack, first * ratio)


def row_line(row: dict[str, float], note: str) -> str:
    ints = [row["deal"], row["game"], row["JSHeapUsedSize"] / 1024, row["Nodes"]]
    ints += [row["JSEventListeners"], row["intervals"], row["timeouts"], row["log"]]
    ints += [row["states"]]
    cells = [f"{int(x):>{len(h) + 1}}" for x, h in zip(ints, HEAD, strict=True)]
    cells += [f"{row['ms_per_state']:>9.2f}", f"{int(row['d_layouts']):>8}", f" {note}"]
    return "".join(cells)


def disturb(page: Any, deals: int) -> str:
    """Now and then, what a long session meets: a language switch, a dropped socket, the
    network gone for a moment. Returns what was done."""
    note = []
    if deals % 3 == 0:
        lang = ("es", "fr", "en")[(deals // 3) % 3]
        page.select_option("#lang", lang)
        # the page redraws once the catalog is in: a tap before that could land where the
        # new words moved the button from
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        note.append(f"lang:{lang}")
    if deals % 4 == 0:
        page.evaluate(MARK_JS)
        page.evaluate(f"() => {S}.conn.ws && {S}.conn.ws.close()")
        page.wait_for_function(ONLINE_JS)
        note.append("socket")
    if deals % 5 == 0:
        # the network gone for two seconds; what the page said meanwhile is noted
        page.evaluate(MARK_JS)
        page.context.set_offline(True)
        page.wait_for_timeout(2000)
        said = page.evaluate(f"() => {S}.status")
        page.context.set_offline(False)
        page.wait_for_function(ONLINE_JS, timeout=30000)
        note.append(f"offline({said})")
    return " ".join(note)


def play(page: Any, cdp: Any, minutes: float, max_deals: int) -> list[dict[str, float]]:
    """Play until the time or the deals run out; one sample per deal, printed as it comes."""
    rows: list[dict[str, float]] = []
    start = time.monotonic()
    seen: tuple[int, int] | None = None
    last: dict[str, float] = {"states": 0.0, "ScriptDuration": 0.0, "LayoutCount": 0.0}
    note = ""
    print("".join(f"{h:>{len(h) + 1}}" for h in HEAD) + " ms/state  layouts event")
    while time.monotonic() - start < minutes * 60 and not (max_deals and len(rows) >= max_deals):
        page.wait_for_function(WAIT_JS, timeout=60000)
        key = deal_key(page)
        if key is not None and key != seen:
            seen = key
            row = sample(page, cdp)
            row["game"], row["deal"] = float(key[0]), float(key[1])
            d_states = row["states"] - last["states"]
            d_script = row["ScriptDuration"] - last["ScriptDuration"]
            row["ms_per_state"] = 1000 * d_script / d_states if d_states else 0.0
            row["d_layouts"] = row["LayoutCount"] - last["LayoutCount"]
            rows.append(row)
            last = row
            print(row_line(row, note), flush=True)
            note = disturb(page, len(rows))
        if page.evaluate(f"() => !!{S}.gameOver"):
            # a locator, not wait_for_selector: the element handle that returns is never let
            # go, and kept each game's whole table alive (a leak of the measurement's own)
            page.locator("[data-action=rematch]").wait_for()
            game = page.evaluate(f"() => {S}.state.game")
            page.click("[data-action=rematch]")
            page.wait_for_function(NEW_GAME_JS, arg=game, timeout=60000)
            note = (note + " rematch").strip()
            continue
        if page.evaluate(f"() => !!{S}.dealOver"):
            page.wait_for_function(NEXT_DEAL_JS, arg=list(seen or (0, 0)), timeout=60000)
            continue
        s = state(page)
        if s["myTurn"] and not s["pending"]:
            try:
                play_turn(page)
            except AssertionError as e:  # a turn the page could not finish is reported
                conn = page.evaluate(CONN_JS)
                print(f"turn not played ({conn}): {str(e)[:160]}", file=sys.stderr)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="how long to play (10)")
    ap.add_argument("--deals", type=int, default=0, help="stop after this many deals (0: none)")
    ap.add_argument("--variant", default="indian", help="the game (indian)")
    ap.add_argument("--format", default="pool201", help="indian's format (pool201)")
    ap.add_argument("--warmup", type=int, default=3, help="deals left out of the check (3)")
    args = ap.parse_args()
    options = {"format": args.format} if args.variant == "indian" else {}
    errors: list[str] = []
    with running_server("--next-deal-pause", "0.3") as server, chromium() as browser:
        page = new_page(browser)
        page.context.add_init_script(COUNTERS_JS)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

        def console(m: Any) -> None:
            if m.type == "error":
                errors.append(f"console: {m.text}")

        page.on("console", console)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        play_against_bots(page, server.base, args.variant, 2, options)
        rows = play(page, cdp, args.minutes, args.deals)
        page.close()
    bad = []
    body = rows[args.warmup :]
    checks = {
        "JSEventListeners": (50, 0.2),
        "Nodes": (300, 0.3),
        "JSHeapUsedSize": (2 * 1024 * 1024, 0.3),
        "intervals": (1, 0.0),
        "timeouts": (3, 0.0),
        "ms_per_state": (5, 1.0),
    }
    for name, (slack, ratio) in checks.items():
        if grows([r[name] for r in body], slack, ratio):
            bad.append(name)
    games = int(rows[-1]["game"]) if rows else 0
    states = int(rows[-1]["states"]) if rows else 0
    print(f"{len(rows)} deals, {states} state updates, {games} games")
    if errors:
        print("page errors:\n  " + "\n  ".join(errors[:20]))
    if bad:
        print("grows without levelling off: " + ", ".join(bad))
    return 1 if bad or errors else 0


if __name__ == "__main__":
    sys.exit(main())
