#!/usr/bin/env python3
"""Screenshots of the web client for the README and docs/web.md.

Starts ``rummykit serve`` on a free loopback port with a temporary database, drives Debian's
Chromium with Playwright, and writes PNGs at 390x844 (phone portrait) and 1280x800 (desktop)
into docs/screenshots/:

    lobby-phone.png  lobby-desktop.png  table-phone.png  table-desktop.png
    end-phone.png    end-desktop.png

Usage: python scripts/screenshots.py [--out DIR] [--lang es|en|fr]
Needs: apt-get install chromium; pip install playwright (see docs/web.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
LOCALES = {"es": "es-ES", "en": "en-GB", "fr": "fr-FR"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server() -> Any:
    with tempfile.TemporaryDirectory() as tmp, open(f"{tmp}/server.log", "w+") as log:
        port = free_port()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rummykit",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                f"{tmp}/shots.db",
                "--bot-delay",
                "0",
                "--next-deal-pause",
                "30",
                "--bot-pool",
                "thread",
            ],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            # a server that never came up used to surface as a browser's "connection refused"
            deadline = time.monotonic() + 20
            while not healthy(base):
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"the server did not start:\n{log.read()[-4000:]}")
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


def healthy(base: str) -> bool:
    with (
        contextlib.suppress(OSError),
        urllib.request.urlopen(base + "/api/health", timeout=1) as r,
    ):
        return bool(json.load(r).get("ok"))
    return False


# the page at rest: its fonts loaded and no transition under way (a card lifting as it is
# selected, the clock's bar); endless animations (the Open button's pulse) do not count
SETTLED = """async () => { await document.fonts.ready;
  return document.getAnimations().every((a) => a.playState !== "running"
    || a.effect.getComputedTiming().iterations === Infinity); }"""


def settled(page: Any) -> None:
    """Wait for the page to be at rest, rather than for a fixed pause."""
    page.wait_for_function(SETTLED)


MY_TURN = """() => { const S = window.rummykit.S;
  return S.view && S.view.turn && S.view.turn.seat === S.you && !S.pending; }"""


def table_page(
    browser: Any,
    base: str,
    size: str,
    lang: str,
    variant: str = "rummy",
    players: int = 3,
    options: dict[str, str] | None = None,
) -> Any:
    """A table against bots at our first turn. The deck is shuffled, so now and then a bot
    goes out before we move (a one-deal game is then over): such a game is left for another."""
    for _ in range(6):
        page = new_table(browser, base, size, lang, variant, players, options)
        page.wait_for_function(f"() => !!window.rummykit.S.gameOver || ({MY_TURN})()")
        if not page.evaluate("() => !!window.rummykit.S.gameOver"):
            return page
        page.context.close()
    raise RuntimeError(f"every {variant} game was over before our first turn")


def new_table(
    browser: Any,
    base: str,
    size: str,
    lang: str,
    variant: str,
    players: int,
    options: dict[str, str] | None,
) -> Any:
    ctx = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang], device_scale_factor=1)
    page = ctx.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.fill("#name", "Ana")
    page.select_option("#variant", variant)
    page.select_option("#players", str(players))
    for key, value in (options or {}).items():
        page.select_option(f"#opt-{key}", value)
    page.click("[data-action=create]")
    page.wait_for_selector("[data-action=add-bot]")
    while page.locator("[data-action=add-bot]").count():
        n = page.locator("[data-action=add-bot]").count()
        if variant == "indian":  # easy bots never drop: the game cannot end before our turn
            page.locator(".bot-level").first.select_option("easy")
        page.locator("[data-action=add-bot]").first.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-action=add-bot]').length < {n}"
        )
    return page


def shoot(out: Path, lang: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    made = []
    with server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size in SIZES:
            ctx = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
            page = ctx.new_page()
            page.goto(base + "/")
            page.wait_for_selector("[data-action=create]:not([disabled])")
            settled(page)
            path = out / f"lobby-{size}.png"
            page.screenshot(path=str(path))
            made.append(path)
            ctx.close()

            page = table_page(browser, base, size, lang)
            # a turn in progress: drawn, the hand arranged by the meter, a card selected
            version = page.evaluate("() => window.rummykit.S.state.version")
            page.click("[data-action=draw]")
            page.wait_for_function(
                f"() => window.rummykit.S.state.version > {version} && ({MY_TURN})()"
            )
            if page.locator("[data-action=arrange]").count():
                page.click("[data-action=arrange]")  # redrawn at once, by the page alone
            cards = page.locator(".group.loose .hand-card")
            if cards.count() >= 2:
                cards.nth(0).click()
                page.wait_for_selector(".hand-card[aria-pressed=true]")
            page.evaluate("() => window.scrollTo(0, 0)")
            settled(page)
            path = out / f"table-{size}.png"
            page.screenshot(path=str(path))
            made.append(path)
            page.context.close()

            # the end screen: an Indian rummy game of one deal ends when we drop out
            page = table_page(
                browser, base, size, lang, variant="indian", players=2, options={"format": "points"}
            )
            page.click("[data-action=drop]")
            page.click("#confirm-ok")
            page.wait_for_selector("[data-end=game]")
            settled(page)
            path = out / f"end-{size}.png"
            page.screenshot(path=str(path))
            made.append(path)
            page.context.close()
        browser.close()
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    ap.add_argument("--lang", default="es", choices=sorted(LOCALES))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for path in shoot(out, args.lang):
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
