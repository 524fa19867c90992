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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import parse_card
from rummykit.errors import IllegalAction, InvalidMeld
from rummykit.melds import Meld, MeldRules, make_meld, rummy_penalty
from rummykit.rules import make_rules

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
    """``python -m rummykit serve`` (the same as ``rummykit serve``) on 127.0.0.1."""

    def __init__(self, *extra: str, clock_scale: float = 1.0, planned: bool = False) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="rummykit-web-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # planned: deal the whole-game tests' 2-player games from tests/web_decks.py
        self.args = [
            sys.executable,
            "-m",
            *(["tests.web_decks"] if planned else ["rummykit", "serve"]),
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
def running_server(
    *extra: str, clock_scale: float = 1.0, planned: bool = False
) -> Iterator[Server]:
    server = Server(*extra, clock_scale=clock_scale, planned=planned).start()
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


#: Pages opened by the running test: when it fails, ``tests/conftest.py`` saves what each one
#: showed (``save_pages``), since a browser failure is rarely understood from its assertion.
OPEN_PAGES: list[Any] = []


def new_page(browser: Any, locale: str = "en-US", viewport: dict[str, int] | None = None) -> Any:
    return watched_page(browser.new_context(viewport=viewport or DESKTOP, locale=locale))


def watched_page(ctx: Any) -> Any:
    """A new page of the browser context ``ctx`` whose errors and console lines are kept
    (``page.js_errors``, ``page.console_lines``) and which is saved if the test fails."""
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.console_lines = console
    OPEN_PAGES.append(page)
    return page


@pytest.fixture(scope="module", name="page")
def modules_page(server: Server, browser: Any) -> Iterator[Any]:
    """``page``: one page on the lobby for a whole test module whose tests call the page's
    modules (a table drawn from a view); no page error by the module's end. A module takes
    it with ``from tests.web_support import modules_page  # noqa: F401``."""
    p = new_page(browser)
    p.goto(server.base + "/")
    p.wait_for_selector(".lobby")
    yield p
    assert js_errors(p) == []
    p.context.close()


@contextlib.contextmanager
def lobby_page() -> Iterator[Any]:
    """A page on the lobby of a server of its own: for tests that call the page's modules."""
    with running_server() as server, chromium() as browser:
        page = new_page(browser)
        page.goto(server.base + "/")
        page.wait_for_selector(".lobby")
        try:
            yield page
        finally:
            page.context.close()


#: The table's log lines, newest first.
LOG_LINES = "() => [...document.querySelectorAll('.log li')].map(li => li.textContent)"
CLOCK = "ran out of time"


def clock_lines(page: Any, count: int = 1) -> tuple[list[str], list[str]]:
    """Wait until the log holds ``count`` lines of turns the clock ended; the log's lines and
    those, newest first."""
    page.wait_for_function(
        "([n, words]) => [...document.querySelectorAll('.log li')]"
        ".filter(li => li.textContent.includes(words)).length >= n",
        arg=[count, CLOCK],
    )
    lines: list[str] = page.evaluate(LOG_LINES)
    return lines, [line for line in lines if CLOCK in line]


SETTLED = "rummykit: settled"


def settle(page: Any) -> None:
    """Wait until the test holds every console line and page error the page gave so far: they
    reach the test as events, after the page has gone on, so a check made at once could miss the
    last ones (an error of the very state just waited for). A line logged now, and waited for,
    comes after all of them."""
    with page.expect_console_message(lambda m: m.text == SETTLED):
        page.evaluate("m => console.debug(m)", SETTLED)


def js_errors(page: Any) -> list[str]:
    """The page's errors so far, the last ones included (``settle``)."""
    settle(page)
    errors: list[str] = page.js_errors
    return errors


def save_pages(name: str) -> list[str]:
    """Save a screenshot, the page's state, its toast and its console of every page the test
    left open, under ``RUMMYKIT_TEST_ARTIFACTS`` (default ``test-artifacts/``); return one line
    per page saying where and what it showed."""
    out = Path(os.environ.get("RUMMYKIT_TEST_ARTIFACTS", REPO / "test-artifacts"))
    lines: list[str] = []
    for i, page in enumerate(OPEN_PAGES):
        try:
            if page.is_closed():
                continue
            out.mkdir(parents=True, exist_ok=True)
            stem = out / f"{name}-{i}"
            page.screenshot(path=str(stem) + ".png", full_page=True, timeout=5000)
            info = {
                "url": page.url,
                "state": page.evaluate(STATE_JS),
                "toast": page.evaluate(
                    "() => { const t = document.getElementById('toast');"
                    " return t ? {hidden: t.hidden, text: t.innerText} : null; }"
                ),
                "js_errors": page.js_errors,
                "console": page.console_lines[-50:],
            }
            Path(str(stem) + ".json").write_text(json.dumps(info, indent=1, ensure_ascii=False))
            lines.append(f"page {i}: {stem}.png / .json; toast {info['toast']}")
        except Exception as e:  # a page that cannot be saved must not hide the failure
            lines.append(f"page {i}: not saved ({type(e).__name__}: {e})")
    return lines


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


def two_people_and_a_spectator(
    server: Any, browser: Any, variant: str, options: dict[str, Any] | None = None
) -> tuple[Any, Any, Any]:
    """Ana (who creates the room) and Ben seated at a two-player table, and a spectator who
    came in between them; once every page shows the table."""
    ana = new_page(browser)
    code = create_room(ana, server.base, variant, 2, options, name="Ana")
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    ben = new_page(browser)
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.click("[data-action=sit]")
    for page in (ana, ben, watcher):
        page.wait_for_selector(".table-view")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    return ana, ben, watcher


def mover_and_other(a: Any, b: Any) -> tuple[Any, Any]:
    """The page whose turn it is, and the other one (once the deal's first state is in)."""
    a.wait_for_function("() => { const v = window.rummykit.S.view; return !!(v && v.turn); }")
    on_turn = a.evaluate("() => window.rummykit.S.view.turn.seat === window.rummykit.S.you")
    return (a, b) if on_turn else (b, a)


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


def play_against_bots(
    page: Any,
    base: str,
    variant: str,
    players: int,
    options: dict[str, Any] | None = None,
    name: str = "Ana",
    level: str | None = None,
    tries: int = 6,
) -> str:
    """Create a room, fill it with bots and wait for our first turn; return the room code.

    The deck is shuffled, so now and then a bot goes out before we move (a one-deal rummy
    game is then over): such a game is left and another room created, since the tests that
    call this need a turn to play."""
    for _ in range(tries):
        code = create_room(page, base, variant, players, options, name=name)
        add_bots(page, level)
        page.wait_for_function(MY_TURN_OR_OVER)
        if not page.evaluate("() => !!window.rummykit.S.gameOver"):
            return code
    raise AssertionError(f"every one of {tries} {variant} games was over before our turn")


# window.rummykit is not there yet just after a reload: the predicate waits, not throws.
# A table drawn by the page's own code from a view, outside the page's flow: the main view
# hidden, a root of its own (``#drawn``, made once) to draw into; the harnesses of the tests that
# draw tables from engine views put it where ``${DRAWN_ROOT}`` stands in their script.
DRAWN_ROOT_JS = """  document.getElementById('main').hidden = true;
  let root = document.getElementById('drawn');
  if (!root) {
    root = document.createElement('div');
    root.id = 'drawn';
    root.className = 'view';
    document.body.append(root);
  }
"""


def with_drawn_root(script: str) -> str:
    """``script`` with :data:`DRAWN_ROOT_JS` where ``${DRAWN_ROOT}`` stands."""
    assert "${DRAWN_ROOT}" in script
    return script.replace("${DRAWN_ROOT}\n", DRAWN_ROOT_JS)


MY_TURN_OR_OVER = """() => { const S = window.rummykit && window.rummykit.S; if (!S) return false;
  const v = S.view;
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
    taken: v && v.turn ? v.turn.taken : null,
    variant: v ? v.variant : null,
    table: v ? v.table : [],
    opened: !!(v && v.opening && v.opening.opened),
    meterAction: v && v.opening && v.opening.meter ? v.opening.meter.action : null,
    meterMelds: v && v.opening && v.opening.meter ? v.opening.meter.melds : [],
    minimum: v && v.opening ? v.opening.minimum : 0,
    mustInclude: v && v.opening ? v.opening.must_include : null,
    pile: v ? v.pile : [],
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
    """Select exactly these cards by tapping them (a tap on a selected card clears it)."""
    selected = page.evaluate("() => [...window.rummykit.S.selected]")
    for card_id in selected:
        if card_id not in ids:
            tap(page, f".hand-card[data-id='{card_id}']")
    for card_id in ids:
        if card_id not in selected:
            tap(page, f".hand-card[data-id='{card_id}']")
    page.wait_for_function(
        "n => window.rummykit.S.selected.size === n && "
        "document.querySelectorAll('.hand-card.selected').length === n",
        arg=len(ids),
    )


@dataclass(frozen=True)
class How:
    """How the player makes each kind of move through the page: ``tap`` (buttons, cards and
    melds tapped), ``drag`` (a real pointer drag) or ``key`` (the keyboard shortcuts); ``open``
    is ``meter`` (the one-tap Open) or ``select`` (the opening's melds grouped, selected and
    opened with the button), and ``take`` takes the discard whenever it lays off at once."""

    draw: str = "tap"
    open: str = "meter"
    meld: str = "tap"
    layoff: str = "tap"
    discard: str = "tap"
    take: bool = True


def meld_rules(s: dict[str, Any]) -> MeldRules:
    rules = make_rules(s["variant"], 2)
    wild = s["wild"] or 0  # the view's wild rank: a rank number (Indian rummy), else none
    if isinstance(wild, str):
        wild = parse_card(f"{wild}S").rank
    return MeldRules(min_real=rules.min_real, adjacent_jokers=rules.adjacent_jokers, wild_rank=wild)


def _meld_of(texts: list[str], rules: MeldRules) -> Meld | None:
    try:
        return make_meld([parse_card(t) for t in texts], rules)
    except (InvalidMeld, IllegalAction):
        return None


def _find_meld(hand: list[tuple[str, str]], rules: MeldRules) -> list[str] | None:
    """Three cards of the hand that make a meld (ids), jokers last; else four; else None. The
    smallest meld first, so a fourth card is left to lay off."""
    natural = [(i, t) for i, t in hand if not rules.is_joker(parse_card(t))]
    for pool, size in ((natural, 3), (hand, 3), (hand, 4)):
        for combo in itertools.combinations(pool, size):
            for order in itertools.permutations(combo):
                if _meld_of([t for _, t in order], rules):
                    return [i for i, _ in order]
    return None


def _find_layoff(
    hand: list[tuple[str, str]], table: list[dict[str, Any]], rules: MeldRules
) -> tuple[str, int] | None:
    for card_id, text in hand:
        c = parse_card(text)
        for meld in table:
            m = _meld_of(meld["cards"], rules)
            if m is not None and m.layoff_ends(c, rules):
                return card_id, int(meld["number"])
    return None


def _find_swap(
    hand: list[tuple[str, str]], table: list[dict[str, Any]], rules: MeldRules, variant: str
) -> tuple[str, int] | None:
    """A card of the hand that takes a joker's place on the table, and the meld's number."""
    fourth_only = variant in ("rami51", "rami71")
    for card_id, text in hand:
        c = parse_card(text)
        for meld in table:
            m = _meld_of(meld["cards"], rules)
            if m is not None and m.swap_index(c, rules, fourth_only) is not None:
                return card_id, int(meld["number"])
    return None


def _opening_part(s: dict[str, Any], melds: list[list[str]]) -> list[list[str]]:
    """The fewest of the meter's melds that still make a legal opening (the rest are melded
    and laid off after it); in ``simple`` the lay-down is the whole close."""
    if s["variant"] == "simple":
        return melds
    rules = make_rules(s["variant"], 2)
    mr = meld_rules(s)
    built = [(m, _meld_of(m, mr)) for m in melds]
    for k in range(1, len(built) + 1):
        for combo in itertools.combinations(built, k):
            ms = [m for _, m in combo if m is not None]
            if len(ms) != k:
                continue
            if sum(m.value(rules.jokers_zero) for m in ms) < s["minimum"]:
                continue
            if rules.clean_run_and_set and not (
                any(m.kind == "run" and m.pure for m in ms)
                and any(m.kind == "set" and not m.joker_count for m in ms)
            ):
                continue
            if s["mustInclude"] and not any(s["mustInclude"] in cards for cards, _ in combo):
                continue
            return [cards for cards, _ in combo]
    return melds


def _ids_of(hand: list[tuple[str, str]], texts: list[str]) -> list[str]:
    """The hand's card ids for these card texts (each id once)."""
    left = list(hand)
    out = []
    for text in texts:
        k = next(k for k, (_, t) in enumerate(left) if t == text)
        out.append(left.pop(k)[0])
    return out


def _discard_choice(hand: list[tuple[str, str]], owes: list[str], rules: MeldRules) -> str:
    """The id of the card to discard: the heaviest that is not a joker nor owed (nor just
    taken from the pile)."""
    best = None
    for card_id, text in hand:
        c = parse_card(text)
        if (rules.is_joker(c) or text in owes) and len(hand) > 1:
            continue
        key = (rummy_penalty(c), c.rank)
        if best is None or key > best[0]:
            best = (key, card_id)
    assert best is not None, hand
    return best[1]


def _answer_choice(page: Any, last: bool = False) -> None:
    """Answer the page's question (which end of a run, lay off or swap) with its first option,
    or its last (the joker swap comes last)."""
    if page.locator("#choose[open]").count():
        buttons = page.locator("#choose-body button")
        (buttons.last if last else buttons.first).click(force=True)


def _send(page: Any, v: int, act: Any) -> None:
    """Do ``act`` through the page and wait for the server's new state."""
    act()
    wait_change(page, v)


def _move(
    page: Any,
    v: int,
    verb: str,
    mode: str,
    drag_path: tuple[str, str],
    key: str,
    select: list[str] | None = None,
) -> str:
    """Play ``verb`` the way ``mode`` says: a drag along ``drag_path`` (when both ends are on
    the screen), its key, or its button; ``select`` is chosen first for the key and the button
    (a drag picks its card itself). Returns what was done (``draw:tap``, …)."""
    if mode == "drag" and drag(page, *drag_path):
        wait_change(page, v)
        return f"{verb}:drag"
    if select is not None:
        select_cards(page, select)
    if mode == "key":
        _send(page, v, lambda: page.keyboard.press(key))
        return f"{verb}:key"
    _send(page, v, lambda: tap(page, f"[data-action={verb}]"))
    return f"{verb}:tap"


def drawn(page: Any) -> dict[str, Any]:
    """The page's state once our turn has drawn: Draw tapped if the turn starts with a draw
    (a Rami starter, or the player dealt the extra card, has none to make)."""
    s = state(page)
    if "draw" in s["can"]:
        tap(page, "[data-action=draw]")
        wait_change(page, s["version"])
        s = state(page)
    return s


def game_over_against_a_bot(page: Any, base: str, variant: str = "rummy") -> None:
    """A whole 2-player game against an easy bot played through the page to its end (on the
    planned server, a short one)."""
    create_room(page, base, variant, 2)
    add_bots(page, "easy")
    page.wait_for_selector(".hand-card")
    play_until_over(page, [How()])


def group_opening(page: Any, s: dict[str, Any]) -> list[str]:
    """Group in the hand, one group a meld, the melds of the opening the meter shows (``s``:
    the page's ``state``); returns the ids of their cards (none left selected)."""
    ids: list[str] = []
    for texts in _opening_part(s, s["meterMelds"]):
        group = _ids_of([x for x in s["hand"] if x[0] not in ids], texts)
        select_cards(page, group)
        tap(page, "[data-action=group]")
        page.wait_for_function("() => window.rummykit.S.selected.size === 0")
        ids += group
    return ids


def play_turn(page: Any, how: How | None = None, passive: bool = False) -> list[str]:
    """Play one whole turn of ours through the page: draw or take, open, meld, lay off,
    declare or discard, each move as ``how`` says. Returns what was done (``draw:tap``, …)."""
    how = how or How()
    done: list[str] = []
    s = state(page)
    rules = meld_rules(s)
    if "draw" in s["can"]:
        v = s["version"]
        top = s["pile"][-1] if s["pile"] else None
        fits = (
            how.take
            and not passive
            and top
            and "take" in s["can"]
            and s["opened"]
            and _find_layoff([("pile", top)], s["table"], rules)
        )
        if fits:
            _send(page, v, lambda: tap(page, "[data-action=take]"))
            done.append("take:tap")
        else:
            done.append(
                _move(page, v, "draw", how.draw, ("[data-action=draw-stock]", ".hand"), "d")
            )
    for _ in range(30):
        s = state(page)
        if s["over"] or not s["myTurn"]:
            return done
        v = s["version"]
        decl = s["declaration"]
        if not passive and decl and decl.get("valid") and "declare" in s["can"]:
            tap(page, "[data-action=declare]")
            page.wait_for_selector("#confirm[open]")
            _send(page, v, lambda: tap(page, "#confirm-ok"))
            done.append("declare:tap")
            continue
        if not passive and not s["opened"] and s["meterAction"] and "open" in s["can"]:
            if how.open == "meter":
                _send(page, v, lambda: tap(page, "[data-action=open-meter]"))
                done.append("open:meter")
                continue
            # group the opening's melds in the hand, select them and open with the button
            page.evaluate("() => { window.rummykit.S.selected.clear(); }")
            ids = group_opening(page, s)
            select_cards(page, ids)
            _send(page, v, lambda: tap(page, "[data-action=open]"))
            done.append("open:select")
            continue
        if not passive and s["opened"] and "meld" in s["can"] and len(s["hand"]) > 3:
            ids = _find_meld(s["hand"], rules) or []
            if ids:
                select_cards(page, ids)
                source = f".hand-card[data-id='{ids[0]}']"
                done.append(_move(page, v, "meld", how.meld, (source, ".melds"), "m"))
                continue
        swap = "swap" in s["can"] and _find_swap(s["hand"], s["table"], rules, s["variant"])
        layoff = "layoff" in s["can"] and _find_layoff(s["hand"], s["table"], rules)
        if not passive and s["opened"] and (swap or (layoff and len(s["hand"]) > 1)):
            found = swap or layoff
            if found:
                card_id, number = found
                card = f".hand-card[data-id='{card_id}']"
                target = f"[data-meld='{number}']"
                if how.layoff == "drag" and drag(page, card, target):
                    kind = "drag"
                elif how.layoff == "key" and number <= 9:
                    select_cards(page, [card_id])
                    page.keyboard.press(str(number))  # the meld's number on the keyboard
                    kind = "key"
                else:
                    select_cards(page, [card_id])
                    tap(page, target)
                    kind = "tap"
                page.wait_for_function(
                    """v => document.querySelector('#choose[open]')
                            || window.rummykit.S.state.version > v""",
                    arg=v,
                )
                _answer_choice(page, last=bool(swap))
                wait_change(page, v)
                done.append(f"{'swap' if swap else 'layoff'}:{kind}")
                continue
        if "discard" in s["can"]:
            card_id = _discard_choice(s["hand"], [*s["owes"], s["taken"]], rules)
            card = f".hand-card[data-id='{card_id}']"
            done.append(
                _move(
                    page,
                    v,
                    "discard",
                    how.discard,
                    (card, "[data-action=pile]"),
                    "x",
                    select=[card_id],
                )
            )
            return done
        if "drop" in s["can"]:
            return done
        raise AssertionError(f"no way to finish the turn: {s}")
    raise AssertionError(f"a turn of more than 30 moves: {done}")


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
    page: Any, hows: list[How] | None = None, max_turns: int = 60, time_limit: float = 90
) -> list[list[str]]:
    """Play our turns until the end-of-game screen; return what each turn did. ``hows`` says
    how to play our first, second, … turn (the last one repeats)."""
    hows = hows or [How()]
    turns: list[list[str]] = []
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < time_limit, f"game not over after {turns}"
        page.wait_for_function(MY_TURN_OR_OVER, timeout=30000)
        if state(page)["over"]:
            page.wait_for_selector("[data-end=game]")
            return turns
        assert len(turns) < max_turns, f"too many turns: {turns}"
        turns.append(play_turn(page, hows[min(len(turns), len(hows) - 1)]))


# Text against what is behind it (colours composed down to the felt), by WCAG 2: 4.5:1, or 3:1
# for large text; text over a picture is skipped.
CONTRAST_JS = r"""() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lin = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  // what is behind an element: its colours composed down to the first opaque one; a gradient
  // counts as each of its colours (the worst is kept); a picture makes the text unknowable
  const backgrounds = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const img = cs.backgroundImage;
      if (img && img !== "none") {
        if (!img.includes("gradient")) return [];
        layers.push((img.match(/rgba?\([^)]+\)/g) || []).map(parse));
        break;
      }
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0) { layers.push([c]); if (c[3] >= 1) break; }
    }
    let bgs = [[255, 255, 255]];
    for (let i = layers.length - 1; i >= 0; i--) {
      bgs = layers[i].flatMap((c) => bgs.map((bg) => over(c, bg)));
    }
    return bgs;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest("[hidden], dialog:not([open])")) continue;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (!r.width || !r.height || cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    const bgs = backgrounds(el);
    if (!bgs.length) continue;
    const ratios = bgs.map((bg) => {
      const [a, b] = [lum(over(parse(cs.color), bg)), lum(bg)];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    const ratio = Math.min(...ratios);
    const bg = bgs[ratios.indexOf(ratio)];
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      out.push({ text: n.textContent.trim().slice(0, 40), cls: String(el.className),
                 ratio: Math.round(ratio * 100) / 100, fg: cs.color, bg: bg.map(Math.round) });
    }
  }
  return out;
}"""


def low_contrast(page: Any) -> list[dict[str, Any]]:
    """Every visible text of the page below the WCAG AA contrast for its size (should be [])."""
    found: list[dict[str, Any]] = page.evaluate(CONTRAST_JS)
    return found


WATCH_ENDS_JS = """() => { window.endsSeen = [];
  // where the keyboard focus is: an element's id, else its class
  const focus = () => { const a = document.activeElement;
    return !a || a === document.body ? 'body' : a.id || a.className; };
  new MutationObserver(() => {
    const h = document.querySelector('[data-end]');
    const last = window.endsSeen[window.endsSeen.length - 1];
    // the focus once the screen is gone (the next deal, a rematch)
    if (!h) { if (last && !last.after) last.after = focus(); return; }
    const key = h.dataset.end + ':' + h.textContent;
    const next = (document.querySelector('[data-next-deal]') || {}).textContent || null;
    const seen = window.endsSeen.find(e => e.key === key);
    // the countdown comes with the server's deal_over, just after the state that ended the deal
    if (seen) { seen.next = seen.next || next; return; }
    window.endsSeen.push({key, end: h.dataset.end, title: h.textContent,
      focus: focus(), after: null,
      penalties: [...document.querySelectorAll('[data-penalty]')].map(e => e.textContent),
      double: !!document.querySelector('.end-card .badge.double'),
      totals: [...document.querySelectorAll('[data-result-seat] td:last-child')]
        .map(e => e.textContent),
      next,
      // rows whose cells do not end together (a cell laid out as no table cell)
      ragged: [...document.querySelectorAll('[data-result-seat]')].filter(tr => {
        const bottoms = [...tr.children].map(c => c.getBoundingClientRect().bottom);
        return Math.max(...bottoms) - Math.min(...bottoms) > 1;
      }).map(tr => tr.dataset.resultSeat)});
  }).observe(document.body, {childList: true, subtree: true});
}"""


def watch_ends(page: Any) -> None:
    """Keep what every end-of-deal and end-of-game screen showed (``window.endsSeen``), and
    where the keyboard focus was as it showed and once it was gone: the screens between deals
    last only the server's pause."""
    page.evaluate(WATCH_ENDS_JS)


def ends_seen(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("() => window.endsSeen || []")
    return result


WATCH_SPEECH_JS = """() => { window.announced = []; window.endTitleFocus = [];
  // what the page gives screen readers to say about an end: the live region's texts, and
  // every arrival of the focus on an end screen's title (its dialog's name and description)
  const live = document.getElementById('announcer');
  new MutationObserver(() => { if (live.textContent) window.announced.push(live.textContent); })
    .observe(live, {childList: true, characterData: true, subtree: true});
  document.addEventListener('focusin', (e) => {
    if (e.target.id === 'end-title') window.endTitleFocus.push(e.target.textContent); });
  // what was about to be said before now (the page says a moment's messages 30 ms later, as
  // one text) is let go: a timer set after that one runs after it
  return new Promise((done) => setTimeout(() => {
    window.announced = []; window.endTitleFocus = []; done(); }, 60));
}"""


def watch_speech(page: Any) -> None:
    """Keep what the page announces from now on (``speech``)."""
    page.evaluate(WATCH_SPEECH_JS)


def speech(page: Any) -> dict[str, list[str]]:
    """The live region's announcements (``announced``) and the end titles the focus went to
    (``end_title_focus``) since ``watch_speech``."""
    said: dict[str, list[str]] = page.evaluate(
        "() => ({announced: window.announced, end_title_focus: window.endTitleFocus})"
    )
    return said
