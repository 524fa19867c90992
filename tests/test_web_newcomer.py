"""What a person new to rummy meets on opening the page: the help must teach the game they sit
at (and only it), the lobby must say the computer can be played and what a game's length
means, a refusal of the turn must name its way out, and a deal's end must say what its points
are (docs/web.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web_support import (
    DESKTOP,
    PHONE,
    Server,
    create_room,
    js_errors,
    new_page,
    watched_page,
)

WEB = Path(__file__).resolve().parent.parent / "rummykit" / "web"
LANGS = ("en", "es", "fr")
RULE_KEYS = ("aim", "melds", "jokers", "jokersIndian", "opening", "simple", "indian")


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_the_help_has_the_rules_in_every_language() -> None:
    """The help told only how to tap and drag: nothing said what a meld, a run, a set or the
    opening is, nor what wins a deal. Each language has its own words for them."""
    words = {lang: catalog(lang)["help"] for lang in LANGS}
    for key in (*RULE_KEYS, "rulesTitle", "rulesOf", "howTitle", "declare", "drop",
                "tapIndian", "dragPlain"):
        texts = [words[lang].get(key) for lang in LANGS]
        assert all(texts), (key, texts)
        assert len(set(texts)) == 3, (key, texts)  # translated, not copied
    # the words the table itself uses for the same things
    assert "run" in words["en"]["melds"] and "set" in words["en"]["melds"]
    assert "escalera" in words["es"]["melds"] and "trío" in words["es"]["melds"]
    assert "suite" in words["fr"]["melds"] and "brelan" in words["fr"]["melds"]
    for lang, opening in (("en", "opening minimum"), ("es", "mínimo para abrir"),
                          ("fr", "minimum pour ouvrir")):
        assert opening in words[lang]["opening"], lang


def test_every_game_length_has_its_meaning_in_every_language() -> None:
    """"Pool 101", "Fixed deals" or "To 200 points" said nothing of who wins, or on which total:
    each choice of a game's length is told in a line of its own."""
    for lang in LANGS:
        option = catalog(lang)["option"]
        for name in ("length", "format"):
            assert set(option[name]["hints"]) == set(option[name]["values"]), (lang, name)
    fr = catalog("fr")["option"]["format"]["hints"]
    assert "101" in fr["pool101"] and "201" in fr["pool201"]


def test_the_lobby_says_the_computer_can_be_played() -> None:
    """Nothing in the lobby said a table can be played against the computer: the bots came
    only in the waiting room, after "Create the table"."""
    for lang, bots in (("en", "bots"), ("es", "bots"), ("fr", "robots")):
        assert bots in catalog(lang)["lobby"]["tagline"], lang
        # the waiting room's button uses the same word
        assert bots[:-1] in catalog(lang)["room"]["addBot"].lower(), lang


HELP = """() => ({
  title: document.querySelector('#help-body h3').textContent,
  items: [...document.querySelectorAll('#help-body [data-help]')].map((e) => e.dataset.help),
  keys: [...document.querySelectorAll('#help-body kbd')].map((e) => e.textContent),
  open: document.getElementById('help').open,
})"""


def read_help(page: Any) -> dict[str, Any]:
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    shown: dict[str, Any] = page.evaluate(HELP)
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")
    return shown


def test_the_help_teaches_the_game_of_the_table(server: Server, browser: Any) -> None:
    """At an Indian rummy table the help told of the Open button, laying off on the table's
    melds and returning the card taken, none of which that game has, and not of Declare or
    Drop; at a Simple Rami table it told of laying off, which that game forbids. Now the lobby's
    help tells the rules of every game, and a table's those of its own."""
    page = new_page(browser, locale="en-US", viewport=DESKTOP)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    # a choice whose name says little to a newcomer is told under the game's own words
    hint = "() => [...document.querySelectorAll('[data-option-hint]')].map((e) => e.textContent)"
    assert page.evaluate(hint) == [
        "The first player to go out wins the game, and scores the points left in the other hands."
    ]
    page.select_option("#variant", "indian")
    page.wait_for_selector("#opt-format")
    assert page.evaluate(hint) == [
        "Each deal's losers add the points of their cards to their total; past 101 a player is "
        "out. The last one left wins."
    ]
    page.select_option("#opt-format", "deals")
    page.wait_for_selector("#opt-deals")
    assert page.evaluate(hint)[0].startswith("A set number of deals"), page.evaluate(hint)
    described = page.locator("#opt-format").get_attribute("aria-describedby")
    assert described == "hint-format", described
    lobby = read_help(page)
    assert lobby["title"] == "The game", lobby
    assert {f"help.{k}" for k in ("aim", "melds", "jokers", "opening", "simple", "indian")} <= set(
        lobby["items"]
    ), lobby

    create_room(page, server.base, "indian", 2)
    indian = read_help(page)
    assert indian["title"] == "The game: Indian rummy", indian
    assert {"help.indian", "help.jokersIndian", "help.declare", "help.drop",
            "help.tapIndian", "help.dragPlain"} <= set(indian["items"]), indian
    assert not {"help.open", "help.layoff", "help.return", "help.opening", "help.tap",
                "help.drag"} & set(indian["items"]), indian
    assert not {"O", "M", "R", "1–9"} & set(indian["keys"]), indian

    create_room(page, server.base, "simple", 2)
    simple = read_help(page)
    assert "help.simple" in simple["items"] and "help.dragPlain" in simple["items"], simple
    assert not {"help.layoff", "help.opening", "help.indian"} & set(simple["items"]), simple
    assert "1–9" not in simple["keys"], simple

    create_room(page, server.base, "rummy", 2)
    rummy = read_help(page)
    assert {"help.opening", "help.open", "help.layoff", "help.return",
            "help.pastDeals"} <= set(rummy["items"])
    assert not {"help.simple", "help.indian"} & set(rummy["items"]), rummy
    assert js_errors(page) == [], page.js_errors
    page.context.close()

    # in the other languages, on a phone: the table's game named in the help's own words
    titles = (("es-ES", "El juego: Rummy indio"), ("fr-FR", "Le jeu\u00a0: Rummy indien"))
    for locale, title in titles:
        phone = new_page(browser, locale=locale, viewport=PHONE)
        create_room(phone, server.base, "indian", 2)
        shown = read_help(phone)
        assert shown["title"] == title, shown
        assert "help.declare" in shown["items"] and "help.open" not in shown["items"], shown
        assert js_errors(phone) == [], phone.js_errors
        phone.context.close()


SAY = """async ([lang, view, result]) => {
  const i18n = await import('/static/js/i18n.js');
  const status = await import('/static/js/status.js');
  const results = await import('/static/js/results.js');
  await i18n.loadLanguage(lang);
  const S = { you: 0, room: null, view };
  return { taken: status.owesText(['AH'], ['return', 'open']),
           freed: status.owesText(['X'], ['meld']),
           kept: status.owesText(['AH'], ['open']),
           deal: results.dealSummary(S, result) };
}"""


def test_what_is_owed_and_what_a_deal_scores_are_said_plainly(server: Server, browser: Any) -> None:
    """Having taken the discard and not able to lay it, the newcomer read "Lay down A♥ before
    you discard" and nothing of the Return button beside it. At rummy's end "Points: 4." stood
    beside their own total of 0: it is what the winner scores, from the cards left in hand."""
    page = new_page(browser, locale="en-US", viewport=DESKTOP)
    page.goto(server.base + "/")
    page.wait_for_function("() => window.rummykit")
    view = {"variant": "rummy", "seats": []}
    lost = {"winner": 1, "points": 4, "penalties": [4, 0], "how": "discard"}
    expected = {
        "en": ("Lay down A♥ before you discard, or return it to the discard pile.",
               "Lay down Joker before you discard.",
               "Lay down A♥ before you discard.",
               "The winner scores 4\u00a0points: what the cards left in the other hands are "
               "worth."),
        "es": ("Baja A♥ antes de descartar, o devuélvela a la pila de descartes.",
               "Baja Comodín antes de descartar.",
               "Baja A♥ antes de descartar.",
               "El ganador suma 4\u00a0puntos: lo que valen las cartas que quedan en las otras "
               "manos."),
        "fr": ("Posez A♥ avant de défausser, ou rendez-la à la défausse.",
               "Posez Joker avant de défausser.",
               "Posez A♥ avant de défausser.",
               "Le gagnant marque 4\u00a0points\u00a0: la valeur des cartes restées dans les "
               "autres mains."),
    }
    for lang, (taken, freed, kept, deal) in expected.items():
        said = page.evaluate(SAY, [lang, view, lost])
        assert said["taken"] == taken, (lang, said)
        assert said["freed"] == freed, (lang, said)
        assert said["kept"] == kept, (lang, said)
        assert said["deal"].endswith(deal), (lang, said)
    one = page.evaluate(SAY, ["en", view, {**lost, "points": 1, "penalties": [1, 0]}])
    assert one["deal"].endswith("The winner scores 1\u00a0point: what the cards left in the "
                                "other hands are worth."), one
    assert js_errors(page) == [], page.js_errors
    page.context.close()


def test_a_link_the_browser_will_not_copy_is_left_selected(server: Server, browser: Any) -> None:
    """A page served over plain http to another machine (a table on the home network) has no
    clipboard: *Copy link* showed the bare link in a toast, as if copied. It now selects the
    link in its field and says to copy it by hand; a friend then joins by the code."""
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR")
    # what a browser gives a page of an insecure origin: no navigator.clipboard at all
    ctx.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined })"
    )
    ana = watched_page(ctx)
    code = create_room(ana, server.base, "rummy", 2, name="Ana")
    ana.click("[data-action=copy-link]")
    ana.wait_for_selector("#toast:not([hidden])")
    assert ana.inner_text("#toast") == (
        "Le navigateur n’a pas laissé la page copier le lien. Il est sélectionné dans son "
        "champ\u00a0: copiez-le vous-même."
    )
    picked = ana.evaluate(
        """() => { const e = document.activeElement; if (!e.matches('input.link')) return null;
             return e.value.slice(e.selectionStart, e.selectionEnd); }"""
    )
    assert picked == f"{server.base}/r/{code}", picked
    ben = new_page(browser, locale="es-ES", viewport=PHONE)
    ben.goto(server.base + "/")
    ben.fill("#code", code.lower())
    ben.click("[data-action=join]")
    ben.wait_for_selector("[data-action=sit]")
    ben.click("[data-action=sit]")
    # the other's score on their chip is said in points: a star before it, the jokers' own
    # mark (★ on their face and in the help), read as a count of jokers; French says 0 as
    # singular: "0 pt"
    for page, shown in ((ana, "0\u00a0pt"), (ben, "0\u00a0ptos")):
        page.wait_for_selector(".seat-chip .chip-score")
        score = page.evaluate(
            """() => { const e = document.querySelector('.seat-chip .chip-score');
                 return e.querySelector('[aria-hidden]').textContent + '|'
                   + getComputedStyle(e, '::before').content; }"""
        )
        assert score == f"{shown}|none", score
    assert js_errors(ana) == [] and js_errors(ben) == [], (ana.js_errors, ben.js_errors)
    ben.context.close()
    ctx.close()
