"""Support for the browser tests (tests/test_web_*.py): a real ``rummykit serve`` on a free
loopback port with a temporary database, Debian's Chromium driven by Playwright, and a small
player that plays a game through the page (taps, drags and keys, never the WebSocket directly).

Nothing here skips: a missing Chromium or Playwright fails the test with the commands to install
them (docs/web.md).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import parse_card
from rummykit.errors import IllegalAction, InvalidMeld
from rummykit.melds import MeldRules, make_meld, rummy_penalty

CHROMIUM = os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
INSTALL_HELP = (
    "the browser tests need Debian's Chromium and Playwright for Python: "
    "`apt-get update && apt-get install -y chromium` and `pip install playwright` "
    "(no `playwright install`: the tests drive /usr/bin/chromium)"
)
REPO = Path(__file__).resolve().parent.parent

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def chromium_path() -> str:
    """Debian's Chromium (or ``RUMMYKIT_CHROMIUM``), else the one on PATH, else fail."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    found = shutil.which("chromium")
    if not found:
        pytest.fail(f"{CHROMIUM} is missing: {INSTALL_HELP}", pytrace=False)
    return found


def require_browser() -> Any:
    """Import Playwright and check Chromium, or fail (never skip) with the install commands."""
    chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(f"playwright is not installed: {INSTALL_HELP}", pytrace=False)
    return sync_playwright


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m rummykit.server`` (the same as ``rummykit serve``) on 127.0.0.1."""

    def __init__(self, *extra: str, clock_scale: float = 1.0) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="rummykit-web-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.args = [
            sys.executable,
            "-m",
            "rummykit.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            str(Path(self.tmp.name) / "test.db"),
            "--bot-delay",
            "0",
            "--next-deal-pause",
            "0.5",
            "--away-delay",
            "0.05",
            "--clock-scale",
            str(clock_scale),
            "--bot-pool",
            "thread",
            "--log-level",
            "warning",
            *extra,
        ]
        self.log = open(Path(self.tmp.name) / "server.log", "w+")  # noqa: SIM115
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        self.proc = subprocess.Popen(self.args, cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base + "/api/health", timeout=1) as r,
            ):
                if json.load(r).get("ok"):
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.output()}")

    def restart(self) -> None:
        """Stop the server (as a crash would) and start it again on the same port and database."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)
        time.sleep(0.5)
        self.start()

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-4000:]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        self.tmp.cleanup()


@contextlib.contextmanager
def running_server(*extra: str, clock_scale: float = 1.0) -> Iterator[Server]:
    server = Server(*extra, clock_scale=clock_scale).start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    sync_playwright = require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Any, locale: str = "en-US", viewport: dict[str, int] | None = None) -> Any:
    ctx = browser.new_context(viewport=viewport or DESKTOP, locale=locale)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


# ---------------------------------------------------------------------------- page steps


def create_room(
    page: Any,
    base: str,
    variant: str,
    players: int,
    options: dict[str, Any] | None = None,
    name: str = "Ana",
) -> str:
    """Create a room from the lobby form and sit in seat 1; return the room code."""
    page.goto(base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.fill("#name", name)
    page.select_option("#variant", variant)
    page.select_option("#players", str(players))
    for key, value in (options or {}).items():
        field = page.locator(f"#opt-{key}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    code: str = page.locator("[data-room-code]").inner_text()
    return code


def add_bots(page: Any, level: str | None = None) -> None:
    """Fill every empty seat with a bot (the game starts when the last one sits)."""
    while page.locator(".table-view").count() == 0:
        buttons = page.locator("[data-action=add-bot]")
        if buttons.count() == 0:
            page.wait_for_selector(".table-view")
            break
        seat = buttons.first.get_attribute("data-seat")
        if level:
            page.select_option(f"[data-level-seat='{seat}']", level)
        buttons.first.click()
        page.wait_for_function(
            "s => !document.querySelector(`[data-action=add-bot][data-seat='${s}']`)", arg=seat
        )
    page.wait_for_selector(".table-view")


MY_TURN_OR_OVER = """() => { const S = window.rummykit.S; const v = S.view;
  return S.gameOver || (v && v.turn && v.turn.seat === S.you && !S.pending); }"""

STATE_JS = """() => {
  const S = window.rummykit.S;
  const v = S.view;
  return {
    version: S.state ? S.state.version : -1,
    pending: S.pending,
    over: !!(S.gameOver || (v && v.over)),
    myTurn: !!(v && v.turn && v.turn.seat === S.you && v.seat === S.you),
    phase: v && v.turn ? v.turn.phase : null,
    can: v && v.turn ? v.turn.can : [],
    owes: v && v.turn ? v.turn.owes : [],
    variant: v ? v.variant : null,
    table: v ? v.table : [],
    opened: !!(v && v.opening && v.opening.opened),
    meterAction: v && v.opening && v.opening.meter ? v.opening.meter.action : null,
    declaration: v ? v.declaration : null,
    wild: v ? v.wild_rank : null,
    hand: S.arrangement ? S.arrangement.all().map(id => [id, id.split('#')[0]]) : [],
  };
}"""


def state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(STATE_JS)
    return result


def wait_change(page: Any, version: int, timeout: float = 15000) -> None:
    """Wait until the page has a state newer than ``version`` or the game is over."""
    try:
        page.wait_for_function(
            """v => { const S = window.rummykit.S;
                      return (S.state && S.state.version > v && !S.pending) || S.gameOver; }""",
            arg=version,
            timeout=timeout,
        )
    except Exception as exc:
        toast = page.locator("#toast").inner_text()
        raise AssertionError(
            f"nothing happened after version {version}; toast: {toast!r}; state: {state(page)}"
        ) from exc


def tap(page: Any, selector: str) -> None:
    """A real mouse click on the element, without Playwright's waits for animations to settle
    (they cost a second a turn on a busy machine)."""
    page.locator(selector).first.click(force=True)


def select_cards(page: Any, ids: list[str]) -> None:
    page.evaluate("() => { window.rummykit.S.selected.clear(); window.rummykit.actions.render(); }")
    for card_id in ids:
        tap(page, f".hand-card[data-id='{card_id}']")


def _find_meld(hand: list[tuple[str, str]]) -> list[str] | None:
    """A meld of 3 or 4 cards the hand holds (ids), rummy rules, or None."""
    rules = MeldRules()
    for size in (4, 3):
        for combo in itertools.combinations(hand, size):
            cards = [parse_card(t) for _, t in combo]
            for order in itertools.permutations(range(size)):
                try:
                    make_meld([cards[i] for i in order], rules)
                except (InvalidMeld, IllegalAction):
                    continue
                return [combo[i][0] for i in order]
    return None


def _find_layoff(
    hand: list[tuple[str, str]], table: list[dict[str, Any]]
) -> tuple[str, int] | None:
    rules = MeldRules()
    for card_id, text in hand:
        c = parse_card(text)
        if c.is_joker:
            continue
        for meld in table:
            try:
                m = make_meld([parse_card(x) for x in meld["cards"]], rules)
            except InvalidMeld:
                continue
            if m.layoff_ends(c, rules):
                return card_id, int(meld["number"])
    return None


def _discard_choice(hand: list[tuple[str, str]], owes: list[str]) -> str:
    """The id of the card to discard: the heaviest that is not a joker."""
    best = None
    for card_id, text in hand:
        c = parse_card(text)
        if c.is_joker and len(hand) > 1:
            continue
        key = (rummy_penalty(c), c.rank)
        if best is None or key > best[0]:
            best = (key, card_id)
    assert best is not None
    return best[1]


def play_turn(page: Any, turn_no: int, passive: bool = False) -> None:
    """Play one whole turn of ours through the page: draw (tap, drag or key), lay what we can,
    discard."""
    s = state(page)
    if "draw" in s["can"]:
        v = s["version"]
        if turn_no % 3 == 1 and drag(page, "[data-action=draw-stock]", ".hand"):
            pass  # drawn by dragging the stock into the hand
        elif turn_no % 3 == 2:
            page.keyboard.press("d")  # by key
        else:
            tap(page, "[data-action=draw]")
        wait_change(page, v)
    for _ in range(20):
        s = state(page)
        if s["over"] or not s["myTurn"]:
            return
        v = s["version"]
        if not passive and s["meterAction"] and "open" in s["can"]:
            tap(page, "[data-action=open-meter]")  # the one-tap Open
            wait_change(page, v)
            continue
        if not passive and s["opened"] and "meld" in s["can"] and len(s["hand"]) > 3:
            ids = _find_meld(s["hand"])
            if ids:
                select_cards(page, ids)
                if turn_no % 2 or not drag(page, f".hand-card[data-id='{ids[0]}']", ".melds"):
                    tap(page, "[data-action=meld]")
                wait_change(page, v)
                continue
        if not passive and s["opened"] and "layoff" in s["can"] and len(s["hand"]) > 1:
            found = _find_layoff(s["hand"], s["table"])
            if found:
                card_id, number = found
                layoffs = int(page.evaluate("() => (window.layoffs = (window.layoffs || 0) + 1)"))
                card = f".hand-card[data-id='{card_id}']"
                if layoffs % 3 == 2 and number <= 9:
                    select_cards(page, [card_id])
                    page.keyboard.press(str(number))  # the meld's number on the keyboard
                elif layoffs % 3 == 0 and drag(page, card, f"[data-meld='{number}']"):
                    pass  # the card dropped on the meld
                else:
                    select_cards(page, [card_id])
                    tap(page, f"[data-meld='{number}']")
                page.wait_for_timeout(50)
                if page.locator("#choose[open]").count():
                    tap(page, "#choose-body button")
                wait_change(page, v)
                continue
        if "discard" in s["can"]:
            card_id = _discard_choice(s["hand"], s["owes"])
            if turn_no % 2 or not drag(
                page, f".hand-card[data-id='{card_id}']", "[data-action=pile]"
            ):
                select_cards(page, [card_id])
                tap(page, "[data-action=discard]")
            wait_change(page, v)
            return
        if "drop" in s["can"]:
            return
        raise AssertionError(f"no way to finish the turn: {s}")


def drag(page: Any, source: str, target: str) -> bool:
    """A real pointer drag (mouse down, moves, up) from one element to another; False (and no
    drag) when both are not on the screen at once, as a person could not do it either."""
    page.locator(source).first.scroll_into_view_if_needed()
    a = page.locator(source).first.bounding_box()
    b = page.locator(target).first.bounding_box()
    view = page.viewport_size
    assert a and b, (source, target)
    ax, ay = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    bx, by = b["x"] + b["width"] / 2, b["y"] + min(b["height"] / 2, 40)
    if not (0 <= ay <= view["height"] and 0 <= by <= view["height"]):
        return False
    page.mouse.move(ax, ay)
    page.mouse.down()
    page.mouse.move(ax + 12, ay + 12, steps=2)
    page.mouse.move(bx, by, steps=6)
    page.mouse.up()
    return True


def play_until_over(
    page: Any, max_turns: int = 200, passive: bool = False, time_limit: float = 120
) -> int:
    """Play our turns until the game is over; return how many turns we played."""
    turns = 0
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < time_limit, f"game not over after {turns} turns"
        page.wait_for_function(MY_TURN_OR_OVER, timeout=30000)
        s = state(page)
        if s["over"]:
            page.wait_for_selector("[data-end=game]")
            return turns
        turns += 1
        assert turns <= max_turns, "too many turns"
        play_turn(page, turns, passive=passive)
