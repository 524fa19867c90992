"""The page's languages: catalogs complete and consistent, the browser's preference, the switch,
and layouts that fit a phone (docs/web.md)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction, RummyError
from rummykit.rules import VARIANTS, house_rule_schema
from tests.web_support import (
    DESKTOP,
    MY_TURN_OR_OVER,
    PHONE,
    Server,
    create_room,
    js_errors,
    low_contrast,
    new_page,
    play_against_bots,
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
    # the catalog entries of the engine's reasons (js/reasons.js)
    reasons = (WEB / "js" / "reasons.js").read_text(encoding="utf-8")
    used |= set(re.findall(r'"((?:reason|meld|declare)\.[\w.]+)"', reasons))
    used |= {
        f"reason.what.{k}"
        for k in re.findall(r':\s*"(\w+)"', reasons.split("WHAT = ")[1].split(";")[0])
    }
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
        "reason.end.low",
        "reason.what.swap",
        "seat.out.wrong-declaration",
        "seat.out.eliminated",
        "action.layoffEnd.low",
        "rank.13",
        "suit.clubs",
    ):
        assert key in en, key


def test_every_house_rule_has_a_label_in_every_catalog() -> None:
    """The lobby's house rules come from the server (``house_rule_schema``): each needs its
    label, and each word a choice can take its translation, in all three languages."""
    for lang in LANGS:
        words = catalog(lang)
        for variant in VARIANTS:
            for name, spec in house_rule_schema(variant).items():
                keys = [f"house.{name}.label"]
                keys += [f"house.{name}.values.{v}" for v in spec.get("values", ())]
                missing = [k for k in keys if k not in words]
                assert not missing, (lang, variant, missing)
                assert words[f"house.{name}.label"].strip('"'), (lang, name)
        # whole numbers that mean "no limit" say so
        assert "house.max_restocks.values.-1" in words, lang


def test_the_page_needs_no_emoji_font() -> None:
    """Every character the page shows is one the common text fonts draw (DejaVu, Liberation,
    the systems' own): none beyond the Basic Multilingual Plane, where the emoji are, and none
    asking for an emoji's look (U+FE0F). Debian's Chromium has no emoji font, and the eye beside
    the spectators' count (👁) showed there as an empty box."""
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix in (".js", ".css", ".html", ".json"):
            text = path.read_text(encoding="utf-8")
            found += [(path.name, c) for c in sorted(set(text)) if ord(c) > 0xFFFF or c == "\ufe0f"]
    assert not found, found


def test_rule_terms_are_translated_properly() -> None:
    es, fr = catalog("es"), catalog("fr")
    assert "Abrir" in es["meter.open"] and "Ouvrir" in fr["meter.open"]
    assert "Devolver" in es["action.return"] and "Rendre" in fr["action.return"]
    assert "Rummy de mano" in es["end.double"]
    # French typography: a space before the colon of "label: value" (options, refusals)
    assert fr["common.labelValue"] == '"{label} : {value}"'
    assert es["card.joker"] == '"Comodín"' and fr["card.joker"] == '"Joker"'
    assert "Escalera" in es["meld.kind.run"] and "Suite" in fr["meld.kind.run"]
    assert "Trío" in es["meld.kind.set"] and "Brelan" in fr["meld.kind.set"]


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
    assert not low_contrast(page), low_contrast(page)
    page.context.close()


def test_no_line_breaks_inside_a_french_phrase_or_a_number_and_its_unit(
    server: Server, browser: Any
) -> None:
    """French puts a space before : ; ! ? » and after «, and every language one between a number
    and its unit: as the page shows them, these spaces do not break, so no line starts with a lone
    "!", ": non" or "s" ("Temps par tour : 45" / "s" on a narrow panel)."""
    page = new_page(browser, locale="fr-FR", viewport=PHONE)
    page.goto(server.base + "/")
    page.wait_for_function("() => document.documentElement.lang === 'fr' && window.rummykit")
    shown = page.evaluate(
        """async (keys) => { const { t } = await import('/static/js/i18n.js');
             return keys.map((k) => [k, t(k, { n: 2 })]); }""",
        list(catalog("fr")),
    )
    breaking = [(k, text) for k, text in shown if re.search(r" [:;!?»]|« ", text)]
    assert not breaking, breaking
    assert dict(shown)["common.labelValue"] == "{label}\u00a0: {value}"
    units = page.evaluate(
        """async () => { const { t, loadLanguage } = await import('/static/js/i18n.js');
             const out = [];
             for (const lang of ['es', 'en', 'fr']) {
               await loadLanguage(lang);
               out.push(t('option.seconds', { n: 45 }), t('option.minutes', { n: 2 }),
                        t('end.nextDeal', { s: 3 }));
             }
             return out; }"""
    )
    assert all(re.search(r"\d\u00a0(s|min)$", u) for u in units), units
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_top_bar_fits_a_320_px_phone(server: Server, browser: Any, lang: str) -> None:
    """The smallest phones: the language, settings and help stay whole on the screen, also
    while the page says it is reconnecting; the name "rummykit" gives way."""
    page = new_page(browser, locale=lang, viewport={"width": 320, "height": 568})
    page.goto(server.base + "/")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}' && window.rummykit")
    fits = """() => document.documentElement.scrollWidth <= 320 &&
        document.querySelector('#help-btn').getBoundingClientRect().right <= 320"""
    assert page.evaluate(fits)
    page.evaluate(
        """async () => { const { t } = await import('/static/js/i18n.js');
             document.getElementById('conn').textContent = t('conn.reconnecting'); }"""
    )
    assert page.evaluate(fits)
    page.context.close()


def test_language_switch_at_the_table(server: Server, browser: Any) -> None:
    page = new_page(browser, locale="es-ES", viewport=PHONE)
    play_against_bots(page, server.base, "rummy", 2, name="Ana")
    assert page.locator(".stack-wrap .stack-label").first.inner_text() == "Mazo"
    assert page.locator("[data-action=sort-suit]").inner_text() == "Ordenar por palo"
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("d")
    page.wait_for_function("v => window.rummykit.S.state.version > v", arg=version)
    log = "() => window.rummykit.S.log.map(l => l.text)"
    assert page.evaluate(log)[-1] == "Ana robó del mazo"
    assert page.evaluate(log)[0] == "Mano 1"  # the deal's line, before its moves
    page.select_option("#lang", "fr")
    # the table is redrawn once the catalog has come (a fetch): wait for the redrawn page, not
    # for the language's attribute, which says nothing of what is drawn
    sort = "w => document.querySelector('[data-action=sort-suit]').textContent === w"
    page.wait_for_function(sort, arg="Trier par couleur")
    # the moves already told are told again in French
    assert page.evaluate(log)[-1] == "Ana a pioché"
    assert page.evaluate(log)[0] == "Donne 1"
    assert page.locator(".stack-wrap .stack-label").first.inner_text() == "Pioche"
    assert page.locator("[data-action=sort-suit]").inner_text() == "Trier par couleur"
    name = page.locator(".hand-card").first.get_attribute("aria-label")
    assert name and (" de " in name or name == "Joker"), name
    # the help's keys are named as a French keyboard names them
    page.click("#help-btn")
    keys = page.locator("#help-body kbd").all_inner_texts()
    assert {"Maj + ← →", "Espace", "Échap"} <= set(keys), keys
    # on a phone the help opens at its start, how to play by touch (its Close button, at the
    # foot, took the focus and scrolled it to the keyboard's table), and no key name is broken
    # over two lines
    shown = page.evaluate(
        """() => { const dlg = document.getElementById('help');
             const first = dlg.querySelector('#help-body p').getBoundingClientRect();
             const broken = [...dlg.querySelectorAll('kbd')]
               .filter((k) => k.getClientRects().length > 1);
             return [dlg.scrollHeight > dlg.clientHeight, dlg.scrollTop,
                     first.top >= dlg.getBoundingClientRect().top, broken.length]; }"""
    )
    assert shown[1:] == [0, True, 0], shown
    page.keyboard.press("Escape")
    page.select_option("#lang", "en")
    page.wait_for_function(sort, arg="Sort by suit")
    assert page.locator("[data-action=sort-suit]").inner_text() == "Sort by suit"
    # the choice is remembered
    page.reload()
    page.wait_for_selector(".hand-card")
    assert page.locator("[data-action=sort-suit]").inner_text() == "Sort by suit"
    assert page.locator("#lang").input_value() == "en"
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_long_run_on_the_table_wraps_within_a_narrow_phone(
    server: Server, browser: Any
) -> None:
    """A run of thirteen on the table (Rami lays off onto any meld, so runs grow) wraps onto
    a second line inside the felt at 360 px, instead of running off the side of the screen."""
    page = new_page(browser, viewport={"width": 360, "height": 740})
    play_against_bots(page, server.base, "rami51", 2)
    fits = page.evaluate(
        """async () => { const { cardElement } = await import('/static/js/cards.js');
             const tile = document.createElement('button');
             tile.className = 'meld-tile';
             const cards = document.createElement('span');
             cards.className = 'meld-cards';
             for (const c of 'A23456789TJQK') cards.append(cardElement(c + 'H', { small: true }));
             tile.append(cards);
             const melds = document.querySelector('.melds');
             melds.append(tile);
             const right = melds.getBoundingClientRect().right;
             const lines = new Set([...cards.children].map(c => c.getBoundingClientRect().top));
             return [document.documentElement.scrollWidth,
                     tile.getBoundingClientRect().right <= right, lines.size]; }"""
    )
    assert fits[0] <= 360 and fits[1] and fits[2] >= 2, fits
    page.context.close()


def test_a_phone_held_sideways_shows_the_turns_buttons_at_once(
    server: Server, browser: Any
) -> None:
    """844×390: the other players stand beside the felt, so the first screen reaches the buttons
    of the turn (they were below it, under the players and the felt) and the hand begins in it."""
    page = new_page(browser, locale="fr-FR", viewport={"width": 844, "height": 390})
    play_against_bots(page, server.base, "rami71", 4)
    tops = page.evaluate(
        """() => [document.querySelector('.actions .verbs .btn').getBoundingClientRect().bottom,
                  document.querySelector('.hand').getBoundingClientRect().top,
                  document.querySelector('.actions .verbs').getBoundingClientRect().top,
                  document.querySelector('.actions .tools').getBoundingClientRect().top]"""
    )
    assert tops[0] <= 390 and tops[1] < 390, tops
    # the hand's tools share the line of the turn's buttons (a line of their own, or tools with
    # nothing to do yet, pushed the hand down by a row)
    assert tops[2] == tops[3], tops
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 844
    assert not low_contrast(page), low_contrast(page)
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_table_fits_the_screen_and_plays_by_keyboard(
    server: Server, browser: Any, viewport: dict[str, int]
) -> None:
    page = new_page(browser, viewport=viewport)
    play_against_bots(page, server.base, "rummy", 3, name="Ana")
    # two bots of the same level are told apart (the server names them alike)
    names = page.locator(".seat-chip .chip-name").all_inner_texts()
    assert len(names) == 2 and len(set(names)) == 2, names
    # each player's card count stands beside the card backs, not over them
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('.seat-chip')].filter(chip => {
             const backs = [...chip.querySelectorAll('.mini-back')].filter(b => b.offsetWidth);
             const n = chip.querySelector('.count').getBoundingClientRect();
             return backs.some(b => b.getBoundingClientRect().right > n.left); }).length"""
    )
    assert overlaps == 0
    # the clock on the chip of the player to move keeps clear of the name (it lay over "Bot 2
    # (medium)") and within the screen: the page is drawn as if each other seat were to move,
    # measured, and redrawn as it was
    # (drawn, measured and redrawn in one script: any message between two scripts redraws the
    # page as it is, and the clock measured would be gone)
    for other in (1, 2):
        faults = page.evaluate(
            """n => { APART const S = window.rummykit.S; const real = S.view.turn.seat;
                 S.view.turn.seat = S.clock.seat = (S.you + n) % S.view.players;
                 window.rummykit.actions.render();
                 const clock = document.querySelector('.chip-clock');
                 const chip = clock.closest('.seat-chip');
                 const name = chip.querySelector('.chip-name').getBoundingClientRect();
                 const box = clock.getBoundingClientRect();
                 const right = chip.getBoundingClientRect().right;
                 const faults = [!/\\d/.test(clock.textContent), !apart(name, box),
                                 box.right > right, right > document.documentElement.clientWidth];
                 S.view.turn.seat = S.clock.seat = real;
                 window.rummykit.actions.render();
                 return faults; }""".replace("APART", APART_JS),
            other,
        )
        assert faults == [False, False, False, False], (other, faults)
    # a control reached by the keyboard from further down is scrolled clear of the sticky top
    # bar (the stock, and the melds, ended under it on a phone)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.focus("[data-action=draw-stock]")
    covered = page.evaluate(
        """() => { const el = document.activeElement; const r = el.getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 4);
             return !(hit && el.contains(hit)); }"""
    )
    assert not covered
    # a long message takes the width it needs (up to the screen's), not half the screen
    width = page.evaluate(
        """async () => { (await import('/static/js/ui.js')).toast('x '.repeat(200), 'error');
             return document.getElementById('toast').getBoundingClientRect().width; }"""
    )
    assert width >= 0.9 * min(640, viewport["width"]), width
    # the log is there on a phone too, at the foot of the page (the deal's line at least)
    page.locator(".log-panel").scroll_into_view_if_needed()
    assert page.locator(".log-panel").is_visible()
    assert page.locator(".log li").count() >= 1
    # nothing sticks out sideways, and every text reads well on what is behind it
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    assert not low_contrast(page), low_contrast(page)
    # the four-colour deck, from the settings: diamonds blue, clubs green, hearts stay red
    colour = """s => { const el = document.createElement('div'); el.className = 'card suit-' + s;
      document.body.append(el); const c = getComputedStyle(el).color; el.remove(); return c; }"""
    assert page.evaluate(colour, "d") == page.evaluate(colour, "h")
    page.click("#settings-btn")
    # the name field is a field like the lobby's, a finger's 44 px tall (it was the browser's
    # bare box, some 20 px)
    name_box = page.locator("#opt-name").bounding_box()
    assert name_box and name_box["height"] >= 44, name_box
    page.check("#opt-fourcolor")
    page.click("#settings button[value=ok]")
    # the dialog's close event, which applies the settings, comes as a task after the click
    page.wait_for_function("() => document.body.classList.contains('four-color')")
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
    # the tools for the selection lead the tool row, so a phone shows them without scrolling
    for action in ("group", "clear"):
        box = page.locator(f"[data-action={action}]").bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"], (action, box)
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("x")
    page.wait_for_function("v => window.rummykit.S.state.version > v", arg=version)
    # that very card left the hand (not its twin of the other deck, if the hand holds both)
    page.wait_for_selector(f".hand-card[data-id='{focused}']", state="detached")
    assert not js_errors(page), page.js_errors
    page.context.close()


TOOLS_FIT_JS = """() => { const row = document.querySelector('.actions .tools');
  const edge = Math.min(row.getBoundingClientRect().right, document.documentElement.clientWidth);
  const buttons = [...row.querySelectorAll('.btn')];
  return { actions: buttons.map((b) => b.dataset.action),
           out: buttons.filter((b) => b.getBoundingClientRect().right > edge + 0.5)
             .map((b) => b.dataset.action),
           scrolls: row.scrollWidth > row.clientWidth,
           page: document.documentElement.scrollWidth }; }"""


def test_the_hand_tools_wrap_on_a_320_px_phone(server: Server, browser: Any) -> None:
    """All five hand tools (group, clear the selection, the two sorts, ungroup all) on the
    smallest phone, in every language: the row wraps onto more lines rather than scroll
    sideways, where the sorts sat past the screen's edge; and a tap that selects a card leaves
    the hand where it was."""
    page = new_page(browser, locale="fr-FR", viewport={"width": 320, "height": 568})
    play_against_bots(page, server.base, "rummy", 2)
    hand = page.evaluate("() => window.rummykit.S.arrangement.all()")
    # the first card tapped does not move the hand (tools that came with a selection added a
    # line to the row above it)
    top = "() => document.querySelector('.hand').getBoundingClientRect().top + window.scrollY"
    before = page.evaluate(top)
    page.locator(f".hand-card[data-id='{hand[0]}']").click()
    assert page.evaluate(top) == before
    page.locator(f".hand-card[data-id='{hand[1]}']").click()
    page.click("[data-action=group]")
    page.locator(f".hand-card[data-id='{hand[2]}']").click()
    page.wait_for_selector(".actions .tools [data-action=ungroup]")
    for lang, clear in (
        ("fr", "Désélectionner"),
        ("es", "Quitar selección"),
        ("en", "Clear selection"),
    ):
        page.select_option("#lang", lang)
        # the row is redrawn once the language's catalog has come
        page.wait_for_function(
            "w => document.querySelector('[data-action=clear]').textContent === w", arg=clear
        )
        fit = page.evaluate(TOOLS_FIT_JS)
        assert fit["actions"] == ["group", "clear", "sort-suit", "sort-rank", "ungroup"], fit
        assert not fit["out"] and not fit["scrolls"] and fit["page"] <= 320, (lang, fit)
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 740}, DESKTOP], ids=["phone", "desktop"]
)
def test_selecting_cards_leaves_the_hand_where_it_is(
    server: Server, browser: Any, viewport: dict[str, int]
) -> None:
    """A tap that selects a card must not move the hand: the next tap would land on another
    card. Where a card can be laid off (made so on the page: a meld on the table and the verb
    offered), the hint that came with one card selected, a line or two long, pushed the hand
    down by some 45 px, on a phone and on a desktop alike, and back up at the second card."""
    page = new_page(browser, locale="fr-FR", viewport=viewport)
    play_against_bots(page, server.base, "rummy", 2)
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("d")
    page.wait_for_function(
        "v => window.rummykit.S.state.version > v && !window.rummykit.S.pending", arg=version
    )
    page.evaluate(
        """() => { const v = window.rummykit.S.view;
             if (!v.table.length) v.table.push({ number: 1, cards: ['5H', '6H', '7H'],
                                                 kind: 'run', owner: 1 });
             v.turn.can = [...v.turn.can, 'layoff'];
             window.rummykit.actions.render(); }"""
    )
    top = "() => document.querySelector('.hand').getBoundingClientRect().top + window.scrollY"
    ids = page.evaluate("() => window.rummykit.S.arrangement.all()")
    tops = [page.evaluate(top)]
    for card_id in ids[:2]:
        page.locator(f".hand-card[data-id='{card_id}']").click()
        tops.append(page.evaluate(top))
    assert page.locator(".hand-card.selected").count() == 2
    assert len(set(tops)) == 1, tops
    assert not js_errors(page), page.js_errors
    page.context.close()


#: The narrowest phones in common use (PHONE is 390 px wide).
NARROW_PHONE = {"width": 360, "height": 780}

# two boxes that do not overlap: on a phone the clock lies on the cards' line, under the name
APART_JS = """const apart = (a, b) => a.right <= b.left || b.right <= a.left
  || a.bottom <= b.top || b.bottom <= a.top;"""

CLOCKED_CHIP_JS = """other => { APART const S = window.rummykit.S; const real = S.view.turn.seat;
  S.view.turn.seat = S.clock.seat = (S.you + other) % S.view.players;
  window.rummykit.actions.render();
  const clock = document.querySelector('.chip-clock');
  const name = clock.closest('.seat-chip').querySelector('.chip-name');
  const level = name.querySelector('.chip-level');
  const out = { clock: clock.textContent, name: name.innerText, title: name.title,
                clipped: [name, level].filter(el => el && el.scrollWidth > el.clientWidth).length,
                apart: apart(name.getBoundingClientRect(), clock.getBoundingClientRect()) };
  S.view.turn.seat = S.clock.seat = real;
  window.rummykit.actions.render();
  return out; }""".replace("APART", APART_JS)


@pytest.mark.parametrize("lang", LANGS)
def test_a_bots_name_and_level_show_whole_beside_the_clock_on_a_narrow_phone(
    server: Server, browser: Any, lang: str
) -> None:
    """Beside the turn clock a 360 px phone leaves a chip's name some 70 px: "Bot 2 (medium)"
    was cut to "Bot 2 (m…", and bots of different levels read alike. Every level, every
    language, each bot's chip drawn with the clock."""
    words = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    page = new_page(browser, locale=lang, viewport=NARROW_PHONE)
    levels = ("easy", "medium", "hard")
    for _ in range(6):  # now and then a bot goes out before our turn: a new room then
        create_room(page, server.base, "rummy", 4)
        for level in levels:
            seat = page.locator("[data-action=add-bot]").first.get_attribute("data-seat")
            page.select_option(f"[data-level-seat='{seat}']", level)
            page.click(f"[data-action=add-bot][data-seat='{seat}']")
            page.wait_for_function(
                "s => !document.querySelector(`[data-action=add-bot][data-seat='${s}']`)",
                arg=seat,
            )
        page.wait_for_function(MY_TURN_OR_OVER)
        if not page.evaluate("() => !!window.rummykit.S.gameOver"):
            break
    else:
        raise AssertionError("every game was over before our turn")
    for other, level in enumerate(levels, start=1):
        chip = page.evaluate(CLOCKED_CHIP_JS, other)
        full = words["seat"]["bot"].format(n=other + 1, level=words["bot"][level])
        assert re.search(r"\d", chip["clock"]), chip
        assert chip["clipped"] == 0 and chip["apart"], (full, chip)
        # shown whole: the name and the level (without its brackets), the full name as title
        assert chip["name"].split() == full.replace("(", "").replace(")", "").split(), chip
        assert chip["title"] == full, chip
    assert not js_errors(page), page.js_errors
    page.context.close()


JOKER_MARKS_JS = """async () => {
  const { cardElement } = await import('/static/js/cards.js');
  const { t } = await import('/static/js/i18n.js');
  const row = (cls, cards) => {
    const el = document.createElement('div');
    el.className = cls;
    el.append(...cards.map(([text, opts]) => cardElement(text, { t, ...opts })));
    return el;
  };
  // a fanned hand (a joker and an Indian wild card with a card over their right side), a
  // table meld with a joker standing for 6H, and the pile with a joker on top
  const piles = row('piles', []);
  piles.append(row('stack pile', [['X', {}]]));
  const box = row('', []);
  box.style.cssText = 'position: fixed; top: 60px; left: 10px; z-index: 50; display: grid';
  box.append(
    row('group-cards', [['5H', {}], ['X', {}], ['7H', { wild: true }], ['8H', {}]]),
    row('meld-cards', [['5H', { small: true }], ['X', { small: true, standsFor: '6H' }],
                       ['7H', { small: true }]]),
    piles,
  );
  document.querySelector('.view').append(box);
  return [...box.querySelectorAll('.joker-word, .joker-mark, .wild-mark')].map((mark) => {
    const card = mark.closest('.card');
    const m = mark.getBoundingClientRect();
    const c = card.getBoundingClientRect();
    const hit = document.elementFromPoint((m.left + m.right) / 2, (m.top + m.bottom) / 2);
    return {
      where: card.parentElement.className, mark: mark.className, text: mark.textContent,
      inside: m.width > 0 && m.left >= c.left && m.right <= c.right && m.top >= c.top
        && m.bottom <= c.bottom,
      seen: !!hit && hit.closest('.card') === card,
    };
  });
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_jokers_say_so_where_overlapping_cards_leave_them_seen(
    server: Server, browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """A card in a fan shows only its left strip: a joker's word, the star of a joker standing
    for a card on the table and the star of an Indian wild card are there, inside the card and
    not under its neighbour, on a phone and a desktop, in every language."""
    page = new_page(browser, locale=lang, viewport=viewport)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby h1")
    marks = page.evaluate(JOKER_MARKS_JS)
    word = json.loads(catalog(lang)["card.jokerShort"])
    assert [(m["where"], m["mark"], m["text"]) for m in marks] == [
        ("group-cards", "joker-word", word),
        ("group-cards", "wild-mark", "★"),
        ("meld-cards", "joker-mark", "★"),
        ("stack pile", "joker-word", word),
    ]
    assert [m for m in marks if not (m["inside"] and m["seen"])] == []
    page.context.close()


def engine_reasons() -> dict[str, str]:
    """The reasons the engine gives for refusing moves a player can try: seeded 2-player games
    of every variant, and at every step the moves a page could send out of place (draw again,
    discard a card not held, lay off on a meld that does not take the card, open too little, …),
    each reason with the move that drew it."""
    found: dict[str, str] = {}
    for variant in ("rummy", "rami51", "rami71", "simple", "indian"):
        for seed in range(4):
            options = {"format": "points"} if variant == "indian" else {}
            game = Game.new(variant, players=2, options=options, seed=seed)
            rng = random.Random(seed)
            for _ in range(100):
                if game.phase == "deal-over":
                    game.next_deal()
                if game.phase == "game-over":
                    break
                assert game.to_move is not None
                view = game.view(game.to_move)
                hand, n = view["hand"], len(view["table"])
                some = rng.sample(hand, min(3, len(hand)))
                tries = [
                    "draw", "take", "return", "drop", f"discard {hand[0]}", "discard KS",
                    "meld " + " ".join(hand[:3]), "meld " + " ".join(some),
                    "open " + " ".join(some), f"open {' '.join(hand[:3])} / {' '.join(hand[3:6])}",
                    f"layoff {n + 1} {hand[0]}", f"swap {n + 1} {hand[0]}",
                    "declare " + " / ".join(" ".join(hand[i : i + 3]) for i in range(0, 12, 3)),
                    "declare " + " ".join(hand[:3]), "meld KS KS KH", "meld X X 5H",
                ]  # fmt: skip
                for k in range(1, n + 1):
                    tries += [f"layoff {k} {c}" for c in hand[:4]]
                    tries += [f"swap {k} {c}" for c in hand[:3]]
                    tries += [f"layoff {k} {hand[0]} low", f"layoff {k} {hand[0]} high"]
                for text in tries:
                    try:
                        game.check(text)
                    except IllegalAction as exc:
                        found.setdefault(str(exc), f"{variant}: {text}")
                    except RummyError:
                        pass  # not a move (bad notation): the page never sends one
                legal = [str(a) for a in game.legal_actions()]
                plain = [
                    a for a in legal if a != "timeout" and a.split()[0] not in ("drop", "declare")
                ]
                game.apply(rng.choice(plain or legal))
    return found


# Reasons the games above seldom meet, as the engine words them (each must still be in its source)
MORE_REASONS = [
    ("lay every card but one at once: this leaves 4 cards in your hand", "lay every card but one"),
    ("the lay-down needs at least one run and one set", "needs at least one run and one set"),
    ("the 9D you took from the pile must be part of it", "you took from the pile must be part"),
    ("a first lay-down needs a run and a set without jokers", "a run and a set without jokers"),
    ("one run without jokers must be made without the 9D you took", "must be made without the"),
    ("opening is worth 60 without jokers; the minimum is 71", '" without jokers"'),
    ("lay the freed joker on the table before discarding", "lay the freed joker on the table"),
    (
        "that would leave the X you took from the pile with no place to go: no meld on the "
        "table could take it and no two cards left in your hand could meld with it",
        "you took from the pile with no place to go: {why}",
    ),
    (
        "that would leave the 9H you took from the pile with no place to go: a card must stay "
        "in your hand to discard",
        "a card must stay in your hand to discard",
    ),
    (
        "that would leave the freed joker with no place to go: no meld on the table could take "
        "it and no two cards left in your hand could meld with it",
        "the freed joker with no place to go: {why}",
    ),
    (
        "that would leave the freed joker with no place to go: nothing may be laid off at this "
        "table and no two cards left in your hand could meld with it",
        "nothing may be laid off at this table and no two cards",
    ),
    (
        "that would leave the X you took from the pile with no place to go: nothing may be laid "
        "off at this table and no two cards left in your hand could meld with it",
        "nothing may be laid off at this table and no two cards",
    ),
    (
        "that would leave the freed joker with no place to go: a card must stay in your hand "
        "to discard",
        "no two cards left in your hand could meld with it",
    ),
    (
        "that would leave the 9H you took from the pile with no place to go: no sequence of "
        "moves left could lay it this turn",
        "no sequence of moves left could lay it this turn",
    ),
    (
        "that would leave the freed joker with no place to go: no sequence of moves left could "
        "lay it this turn",
        "no sequence of moves left could lay it this turn",
    ),
    (
        "that would leave only the 9H you took from the pile, which you may not discard this "
        "turn: a card must stay in your hand to discard",
        "you took from the pile, which you may ",
    ),
    ("a joker leaves a set only as its fourth card: lay 7C off", "only as its fourth card: lay"),
    ("there is no meld 1 on the table (the table is empty)", "(the table is empty)"),
    ("you must keep a card to discard: a deal is won by discarding", "a deal is won by discarding"),
    ("lay down first", '"lay down first"'),
    ("the discard pile is empty", "the discard pile is empty"),
    ("meld 2: 5H 6H 7H is a set: it has no low end", "is a set: it has no {end} end"),
    ("5H X X 8H: two jokers side by side", "two jokers side by side"),
    (
        "X X 5H: too many jokers: a meld needs at least 2 real cards",
        "too many jokers: a meld needs",
    ),
    ("X X X: a meld needs at least one card that is not a joker", "one card that is not a joker"),
    ("7S 7H 7D 7C 7S: a set has at most 4 cards", "a set has at most"),
    ("QH KH AH 2H: nothing comes below the ace in a run", "nothing comes below the ace in a run"),
    ("2H X 4H: X cannot start this run", "cannot start this run"),
    (
        "these cards cannot be declared yet: they do not all fit in melds with two sequences, "
        "one of them pure",
        "these cards cannot be declared yet",
    ),
]
ENGINE = Path(__file__).resolve().parent.parent / "rummykit"


def test_more_reasons_are_the_engines() -> None:
    source = "".join(
        p.read_text(encoding="utf-8")
        for p in (ENGINE / "melds.py", *sorted((ENGINE / "engine").glob("*.py")))
    )
    for text, fragment in MORE_REASONS:
        assert fragment in source, (text, fragment)


REASONS_JS = """async (texts) => {
  const i18n = await import('/static/js/i18n.js');
  const r = await import('/static/js/reasons.js');
  const out = {};
  for (const lang of ['es', 'fr', 'en']) {
    await i18n.loadLanguage(lang);
    out[lang] = texts.map((x) => r.reasonMatch(x));
  }
  return out;
}"""


def test_a_meld_fault_keeps_the_case_of_its_cards(browser: Any, server: Server) -> None:
    """A meld's fault reads after its cards in lower case, but a card that opens the sentence
    keeps its rank as the page shows it (J♠, not j♠)."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    texts = [
        "AS 2S JS: JS cannot follow 2S in a run",
        "7S QS 5H: neither one rank (a set) nor one suit (a run)",
    ]
    out = page.evaluate(REASONS_JS, texts)
    assert out["en"][0] == "A♠ 2♠ J♠: J♠ cannot follow 2♠", out
    assert out["es"][0] == "A♠ 2♠ J♠: J♠ no puede ir después de 2♠", out
    assert out["es"][1] == "7♠ Q♠ 5♥: ni un mismo número ni un mismo palo", out
    page.context.close()


def test_refusal_reasons_are_translated(browser: Any, server: Server) -> None:
    """Every reason the engine gave in many games is recognised and shown in Spanish and French
    (cards as the page shows them: 7♥), and in English as a sentence of the catalog."""
    reasons = engine_reasons()
    cards = r"\b(?:[2-9TJQKA][SHDC]|X)\b(?: \b(?:[2-9TJQKA][SHDC]|X)\b)*"
    assert len({re.sub(r"\d+", "#", re.sub(cards, "C", r)) for r in reasons}) >= 35
    reasons.update((text, "a sentence of the engine") for text, _ in MORE_REASONS)
    texts = sorted(reasons)
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    out = page.evaluate(REASONS_JS, texts)
    for lang in ("es", "fr", "en"):
        unknown = [(t, reasons[t]) for t, x in zip(texts, out[lang], strict=True) if x is None]
        assert not unknown, (lang, unknown[:10])
    for text, es, fr in zip(texts, out["es"], out["fr"], strict=True):
        assert es != text and fr != text, (text, es, fr)
        assert "{" not in es + fr and not re.search(r"\b[2-9TJQKA][SHDC]\b", es + fr), (es, fr)
        if "no place to go:" in text:  # its reason after the colon is translated too
            assert not re.search(r"\b(the|your|hand|stay)\b", es + fr), (es, fr)
    page.context.close()


def test_a_spanish_page_explains_a_refused_move_in_spanish(server: Server, browser: Any) -> None:
    """A move the server refuses is explained in the page's language: a lay-off on a meld the
    card does not fit (sent with the keyboard), in Spanish."""
    page = new_page(browser, locale="es-ES")
    play_against_bots(page, server.base, "rummy", 2, name="Ana")
    version = page.evaluate("() => window.rummykit.S.state.version")
    page.keyboard.press("d")
    page.wait_for_function(
        "v => window.rummykit.S.state.version > v && !window.rummykit.S.pending", arg=version
    )
    # the discard before drawing is refused with the engine's reason, shown in Spanish
    page.evaluate("() => window.rummykit.actions.play('draw')")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.locator("#toast").inner_text() == "No permitido: ya has robado en este turno"
    # a meld that is none: the cards and the fault in Spanish
    cards = page.evaluate("() => window.rummykit.S.view.hand.slice(0, 3)")
    page.evaluate("c => window.rummykit.actions.play('meld ' + c.join(' '))", cards)
    page.wait_for_function(
        "() => document.querySelector('#toast').innerText.startsWith('No permitido: abre primero')"
    )
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_internal_error_claims_no_move() -> None:
    """`internal` also answers a refused seat change or rematch (the database refused to store
    it): the text said "your move was not played" to a person who had only sat down."""
    for lang, move in (("en", "move"), ("es", "jugada"), ("fr", "coup")):
        text = catalog(lang)["error.internal"]
        assert move not in text, (lang, text)
        assert any(w in text for w in ("nothing was changed", "no se cambió nada",
                                       "rien n’a été changé")), (lang, text)
