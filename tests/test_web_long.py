"""What a hunt through whole games found (2 v 2 Rami with a person in each seat of a side,
Indian pool games with eliminations, to the end and into the rematch), each kept."""

from __future__ import annotations

from typing import Any

from tests.web_support import (
    Server,
    add_bots,
    create_room,
    js_errors,
    new_page,
    play_against_bots,
)

PHONE = {"width": 390, "height": 844}

# the scores panel's rows: (the side's label, whether it is marked as the reader's own)
SIDES_JS = """() => [...document.querySelectorAll('.panel.scores tbody tr')].map(
  (tr) => [tr.querySelector('th').textContent, tr.classList.contains('mine')])"""


def test_a_person_in_the_third_seat_reads_their_side_with_their_own_name_first(
    server: Server, browser: Any
) -> None:
    """A 2 v 2 table with Ana in seat 1 and Ben opposite her, in seat 3: Ben's scores panel
    read "Ana et Vous (Ben)" (in Spanish "Ana y Tú (Ben)", in English "Ana & You (Ben)"), the
    pronoun capitalised inside the phrase, and neither page marked its own side as the panel
    marks one's own row at a table without partners."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "rami51", 4, name="Ana")
    ben = new_page(browser, locale="fr-FR", viewport=PHONE)
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit][data-seat='2']")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.click("[data-action=sit][data-seat='2']")
    ben.wait_for_selector(".seat-row.mine")
    add_bots(ana)
    for page in (ana, ben):
        page.wait_for_selector(".panel.scores tbody tr")
    assert ana.evaluate(SIDES_JS) == [
        ["You (Ana) & Ben", True],
        ["Bot 2 (medium) & Bot 4 (medium)", False],
    ]
    for lang, side in (
        ("fr", "Vous (Ben) et Ana"),
        ("es", "Tú (Ben) y Ana"),
        ("en", "You (Ben) & Ana"),
    ):
        ben.select_option("#lang", lang)
        ben.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        ben.wait_for_function(
            "s => document.querySelector('.panel.scores tbody tr th').textContent === s",
            arg=side,
        )
        assert ben.evaluate(SIDES_JS)[0] == [side, True]
    # the rivals' row is no one's own, and the page has nothing sideways on the phone
    assert ben.evaluate(SIDES_JS)[1][1] is False
    assert ben.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert js_errors(ana) == [] and js_errors(ben) == []
    ana.context.close()
    ben.context.close()


def test_a_pool_player_out_of_the_game_is_given_no_tools_for_an_empty_hand(
    server: Server, browser: Any
) -> None:
    """Put out of an Indian pool game, a player watches the others with no cards: under the
    note that says so, the hand's tools were still there (Group and Clear disabled, the two
    sorts pressable and doing nothing). Elimination takes several deals of shuffled play, so
    the view of a fresh 3-seat pool table is given it: the engine's out mark and no hand."""
    page = new_page(browser, locale="fr-FR", viewport=PHONE)
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    tools = (
        "() => [...document.querySelectorAll('.my-area .tools [data-action]')]"
        ".map((b) => b.dataset.action)"
    )
    assert {"sort-suit", "sort-rank"} <= set(page.evaluate(tools))
    page.evaluate(
        """() => { const { S, actions } = window.rummykit; const v = S.view;
          v.seats[S.you].out = "eliminated"; v.hand = [];
          v.turn = { ...v.turn, seat: (S.you + 1) % 3, can: [] };
          S.selected.clear(); S.arrangement.reconcile([], `${S.room.game}.${v.deal}`);
          actions.render(); }"""
    )
    assert "hors de la partie" in page.locator(".my-area .meter.out").inner_text()
    assert page.evaluate(tools) == []
    # the sorting key finds no button to press, and nothing breaks
    page.locator(".hand").focus()
    page.keyboard.press("s")
    assert js_errors(page) == []
    page.context.close()


def test_ones_own_meld_is_named_as_laid_by_you_in_every_language(
    server: Server, browser: Any
) -> None:
    """A meld's name for screen readers says who laid it; one's own read "laid by You (Ana)",
    "posée par Vous (Ana)" and in Spanish "de Tú (Ana)" (of you is "de ti"). Another seat's
    meld still names its owner. The table is given the melds."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rami51", 4)
    labels_js = """() => { const { S, actions } = window.rummykit;
      S.view.table = [
        { number: 1, kind: "run", cards: ["4H", "5H", "6H"], owner: S.you },
        { number: 2, kind: "set", cards: ["9S", "9D", "9C"], owner: (S.you + 1) % 4 } ];
      actions.render();
      return [1, 2].map((n) => document.querySelector(`[data-meld="${n}"]`)
        .getAttribute("aria-label")); }"""
    other = page.evaluate("() => (window.rummykit.S.you + 1) % 4 + 1")
    for lang, mine, theirs in (
        ("en", "Meld 1: Run 4♥ 5♥ 6♥", f"laid by Bot {other} (medium)"),
        ("es", "Combinación 1: Escalera", f"de Bot {other} (medio)"),
        ("fr", "Combinaison 1", f"posée par Robot {other} (moyen)"),
    ):
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        own, another = page.evaluate(labels_js)
        assert own.startswith(mine), (lang, own)
        assert own.endswith({"en": "laid by you", "es": "tuya", "fr": "posée par vous"}[lang])
        assert another.endswith(theirs), (lang, another)
    assert js_errors(page) == []
    page.context.close()
