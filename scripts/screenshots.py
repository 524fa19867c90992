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
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rummykit.server",
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
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                with (
                    contextlib.suppress(OSError),
                    urllib.request.urlopen(base + "/api/health", timeout=1) as r,
                ):
                    if json.load(r).get("ok"):
                        break
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


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
    page.wait_for_function(MY_TURN)
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
            path = out / f"lobby-{size}.png"
            page.screenshot(path=str(path))
            made.append(path)
            ctx.close()

            page = table_page(browser, base, size, lang)
            # a turn in progress: drawn, the hand arranged by the meter, two cards selected
            page.click("[data-action=draw]")
            page.wait_for_function(MY_TURN)
            if page.locator("[data-action=arrange]").count():
                page.click("[data-action=arrange]")
            cards = page.locator(".group.loose .hand-card")
            if cards.count() >= 2:
                cards.nth(0).click()
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
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
            page.wait_for_timeout(300)
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
