"""The page's languages: catalogs complete and consistent, the browser's preference, the switch,
and layouts that fit a phone (docs/web.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_support import (
    DESKTOP,
    MY_TURN_OR_OVER,
    PHONE,
    Server,
    add_bots,
    chromium,
    create_room,
    new_page,
    running_server,
)

WEB = Path(__file__).resolve().parent.parent / "rummykit" / "web"
LANGS = ("es", "en", "fr")


def flatten(node: Any, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and set(value) != {"one", "other"}:
            out.update(flatten(value, path + "."))
        else:
            out[path] = json.dumps(value, ensure_ascii=False)
    return out


def catalog(lang: str) -> dict[str, str]:
    return flatten(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    en = catalog("en")
    for lang in ("es", "fr"):
        other = catalog(lang)
        assert set(other) == set(en), (lang, set(other) ^ set(en))
        for key, text in en.items():
            assert set(re.findall(r"\{(\w+)\}", other[key])) == set(
                re.findall(r"\{(\w+)\}", text)
            ), (lang, key)


def test_every_key_the_page_uses_is_in_the_catalogs() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (WEB / "js").glob("*.js"))
    source += (WEB / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\("([a-zA-Z0-9_.]+)"[,)]""", source))
    used |= set(re.findall(r'data-i18n(?:-title|-aria|-placeholder)?="([^"]+)"', source))
    used |= set(re.findall(r'"(help\.keys\.\w+)"', source))
    en = catalog("en")
    missing = sorted(k for k in used if k not in en)
    assert not missing, missing
    # keys built at run time: every variant, option value, bot level, error code, meld reason
    for key in (
        "variant.rummy.name",
        "variant.indian.blurb",
        "option.length.values.to-200",
        "bot.hard",
        "error.illegal",
        "error.not_your_turn",
        "meld.why.adjacent",
        "seat.out.wrong-declaration",
        "action.layoffEnd.low",
        "rank.13",
        "suit.clubs",
    ):
        assert key in en, key


def test_rule_terms_are_translated_properly() -> None:
    es, fr = catalog("es"), catalog("fr")
    assert "Abrir" in es["meter.open"] and "Ouvrir" in fr["meter.open"]
    assert "Devolver" in es["action.return"] and "Rendre" in fr["action.return"]
    assert "Rummy de mano" in es["end.double"]
    assert es["card.joker"] == '"Comodín"' and fr["card.joker"] == '"Joker"'
    assert "Escalera" in es["meld.kind.run"] and "Suite" in fr["meld.kind.run"]
    assert "Trío" in es["meld.kind.set"] and "Brelan" in fr["meld.kind.set"]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize(
    ("locale", "title"),
    [
        ("es-ES", "Rummy con amigos"),
        ("fr-FR", "Le rummy entre amis"),
        ("en-US", "Rummy with friends"),
        ("de-DE", "Rummy with friends"),
    ],
)
def test_language_follows_the_browser(
    server: Server, browser: Any, locale: str, title: str
) -> None:
    page = new_page(browser, locale=locale)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby h1")
    assert page.locator(".lobby h1").inner_text() == title
    page.context.close()


def test_language_switch_at_the_table(server: Server, browser: Any) -> None:
    page = new_page(browser, locale="es-ES", viewport=PHONE)
    create_room(page, server.base, "rummy", 2, name="Ana")
    add_bots(page)
    page.wait_for_selector(".hand-card")
    assert page.locator(".stack-wrap .stack-label").first.inner_text() == "Mazo"
    assert page.locator("[data-action=sort-suit]").inner_text() == "Ordenar por palo"
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.locator(".stack-wrap .stack-label").first.inner_text() == "Pioche"
    assert page.locator("[data-action=sort-suit]").inner_text() == "Trier par couleur"
    name = page.locator(".hand-card").first.get_attribute("aria-label")
    assert name and (" de " in name or name == "Joker"), name
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.locator("[data-action=sort-suit]").inner_text() == "Sort by suit"
    # the choice is remembered
    page.reload()
    page.wait_for_selector(".hand-card")
    assert page.locator("[data-action=sort-suit]").inner_text() == "Sort by suit"
    assert page.locator("#lang").input_value() == "en"
    assert not page.js_errors, page.js_errors
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_table_fits_the_screen_and_plays_by_keyboard(
    server: Server, browser: Any, viewport: dict[str, int]
) -> None:
    page = new_page(browser, viewport=viewport)
    create_room(page, server.base, "rummy", 3, name="Ana")
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    # nothing sticks out sideways
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    # the four-colour deck, from the settings: diamonds blue, clubs green, hearts stay red
    colour = """s => { const el = document.createElement('div'); el.className = 'card suit-' + s;
      document.body.append(el); const c = getComputedStyle(el).color; el.remove(); return c; }"""
    assert page.evaluate(colour, "d") == page.evaluate(colour, "h")
    page.click("#settings-btn")
    page.check("#opt-fourcolor")
    page.click("#settings button[value=ok]")
    assert page.evaluate(colour, "d") == "rgb(11, 92, 173)"
    assert page.evaluate(colour, "c") == "rgb(26, 127, 55)"
    assert page.evaluate(colour, "h") == "rgb(200, 16, 46)"
    # keyboard only: D draws, H goes to the hand, arrows move, space selects, X discards
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("d")
    page.wait_for_function(
        "v => window.rummykit.S.state.version > v && !window.rummykit.S.pending", arg=version
    )
    page.keyboard.press("h")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.id")
    assert focused
    page.keyboard.press("Shift+ArrowLeft")  # move the card one place left
    assert page.evaluate("() => document.activeElement.dataset.id") == focused
    assert page.evaluate("id => window.rummykit.S.arrangement.all().indexOf(id)", focused) == 0
    page.keyboard.press(" ")
    assert page.locator(".hand-card.selected").count() == 1
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("x")
    page.wait_for_function("v => window.rummykit.S.state.version > v", arg=version)
    assert page.locator(f".hand-card[data-id='{focused}']").count() == 0
    assert not page.js_errors, page.js_errors
    page.context.close()
