"""A long session of the web client, in short: what a page meets over many deals (the network
gone and back, a dead socket, reconnections, redraws) leaves it working and no bigger. The
long measurement itself is ``scripts/web_longplay.py`` (docs/web.md)."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, new_page, play_against_bots, play_turn, state, wait_change

# Set before the page's own code: the intervals it has running.
INTERVALS_JS = """(() => {
  const live = new Set();
  const si = window.setInterval, ci = window.clearInterval;
  window.setInterval = function (...a) { const id = si.apply(window, a); live.add(id); return id; };
  window.clearInterval = function (id) { live.delete(id); return ci.call(window, id); };
  window.liveIntervals = () => live.size;
})();"""

# Set before the page's own code: how many sockets the page has opened.
SOCKETS_JS = """(() => {
  window.socketsMade = 0;
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...a) { super(...a); window.socketsMade += 1; }
  };
})();"""

# Back online, and the state the resume brings is in: the page redraws as the resume's messages
# come, and a tap made before they are all in could miss its button.
MARK = "() => { window.stateBefore = window.rummykit.S.state; }"
ONLINE = """() => window.rummykit.S.status === 'online'
  && !!window.rummykit.S.state && window.rummykit.S.state !== window.stateBefore"""


def metrics(page: Any, cdp: Any) -> dict[str, float]:
    """The page's DOM nodes and event listeners, after a garbage collection."""
    # more than one: a detached view is not always let go by the first
    for _ in range(3):
        cdp.send("HeapProfiler.collectGarbage")
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: got[k] for k in ("Nodes", "JSEventListeners")}


def test_network_gone_gives_the_socket_up_and_back(server: Any, browser: Any) -> None:
    """The network gone (the browser's ``offline``), the page says it is reconnecting at once:
    before, its socket stayed open with nothing getting through and the page said it was
    online, its moves waiting 15 s for an answer. It tries no new socket until the network is
    back (each attempt failed, an error in the console); then it resumes and plays on."""
    page = new_page(browser)
    page.context.add_init_script(SOCKETS_JS)
    page.clock.install()
    play_against_bots(page, server.base, "rummy", 2)
    page.evaluate(MARK)
    page.context.set_offline(True)
    page.wait_for_function("() => window.rummykit.S.status === 'reconnecting'")
    page.wait_for_selector(".banner.offline")
    made = page.evaluate("() => window.socketsMade")
    # well past the first pauses before a new attempt (0.4 s, 0.8 s, …): none is made while
    # the network is gone (each failed, an error in the console); the network back brings one
    page.clock.fast_forward(10_000)
    assert page.evaluate("() => window.socketsMade") == made
    page.context.set_offline(False)
    page.wait_for_function(ONLINE)
    page.wait_for_selector(".banner.offline", state="detached")
    v = state(page)["version"]
    play_turn(page)
    wait_change(page, v)
    assert not js_errors(page)
    assert not [line for line in page.console_lines if line.startswith("error")]


def test_unanswered_ping_gives_the_socket_up(server: Any, browser: Any) -> None:
    """A socket that answers nothing (a half-open connection: a phone that changed networks)
    is given up once a ping goes unanswered, and the page resumes on a new one; before, it said
    it was online for as long as the socket stayed open. The page's clock is Playwright's, so
    the 20 s between pings and the 15 s a ping waits are jumped over."""
    page = new_page(browser)
    page.clock.install()
    play_against_bots(page, server.base, "rummy", 2)
    # everything the page sends from now on is lost on the way
    page.evaluate("() => { window.rummykit.S.conn.ws.send = () => {}; }")
    page.evaluate(MARK)
    page.clock.fast_forward(21_000)  # the next ping goes (and is lost)
    page.clock.fast_forward(16_000)  # its wait for the answer runs out
    page.wait_for_function("() => window.rummykit.S.status !== 'online'")
    page.clock.fast_forward(9_000)  # the back-off before the new socket (at most 8 s at first)
    page.wait_for_function(ONLINE)
    v = state(page)["version"]
    play_turn(page)
    wait_change(page, v)
    assert not page.js_errors


def test_reconnections_and_redraws_leave_nothing_behind(server: Any, browser: Any) -> None:
    """Reconnections (the socket closed under the page, the network gone and back) leave one
    ping interval and the clock's, and redraws add no DOM node nor listener: a long session
    does not pile them up."""
    page = new_page(browser)
    page.context.add_init_script(INTERVALS_JS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    play_against_bots(page, server.base, "rummy", 2)
    intervals = page.evaluate("() => window.liveIntervals()")
    assert intervals == 2, intervals  # the clock's tick and the socket's ping
    before: dict[str, float] = {}
    for i in range(7):
        if i == 1:
            # after a first round: the page holds one view drawn before, once
            before = metrics(page, cdp)
        page.evaluate(MARK)
        if i % 2:
            page.context.set_offline(True)
            page.wait_for_function("() => window.rummykit.S.status !== 'online'")
            page.context.set_offline(False)
        else:
            page.evaluate("() => window.rummykit.S.conn.ws.close()")
            page.wait_for_function("() => window.rummykit.S.status !== 'online'")
        page.wait_for_function(ONLINE)
        page.evaluate("() => { for (let k = 0; k < 20; k++) window.rummykit.actions.render(); }")
    assert page.evaluate("() => window.liveIntervals()") == intervals
    after = metrics(page, cdp)
    # the same table drawn again (the state and the turn have not changed, since a bot does
    # not move on our turn): a node or two may differ (the clock's text), not a table's worth
    # (some 250 nodes and 40 listeners) per round
    assert state(page)["myTurn"]
    assert after["Nodes"] - before["Nodes"] < 100, (before, after)
    assert after["JSEventListeners"] - before["JSEventListeners"] < 10, (before, after)
    assert not page.js_errors
