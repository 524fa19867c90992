"""A 2 v 2 Rami table through the page: the seats round the table, the partner's badge, the
sides' scores, and the opening meter once the partner has laid down."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rummykit.rules import make_rules
from tests.web_support import Server, js_errors, new_page, play_against_bots

WEB = Path(__file__).resolve().parent.parent / "rummykit" / "web"


def test_a_2v2_table_shows_partners_sides_and_the_freed_minimum(
    server: Server, browser: Any
) -> None:
    page = new_page(browser)
    play_against_bots(page, server.base, "rami51", 4)
    me = page.evaluate("() => window.rummykit.S.you")
    # The others in the order they play after us; only the one opposite is our partner.
    chips = page.locator(".opponents .seat-chip")
    assert [int(chips.nth(i).get_attribute("data-seat") or -1) for i in range(3)] == [
        (me + k) % 4 for k in (1, 2, 3)
    ]
    assert page.locator(".seat-chip.partner").count() == 1
    assert page.locator(".seat-chip.partner").get_attribute("data-seat") == str((me + 2) % 4)
    # The scores panel lists the two sides, not four seats.
    assert page.locator(".panel.scores tbody tr").count() == 2

    def meter(opening: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = page.evaluate(
            """(o) => { const { S, actions } = window.rummykit;
              S.view.opening = o; actions.render();
              const hint = [...document.querySelectorAll('.meter .meter-hint')];
              return { value: !!document.querySelector('.meter-value'),
                       hints: hint.map((e) => e.dataset.hint || ''),
                       text: hint.map((e) => e.textContent).join(' ') }; }""",
            opening,
        )
        return result

    shown = {"points": 27, "melds": [["6S", "6H", "6D"], ["2C", "3C", "4C"]], "enough": True,
             "action": None}
    # The partner has laid down: the engine gives the seat no minimum, and the page says why
    # 27 is enough (it said "27 / 51" and that laying every card at once needs no minimum).
    freed = meter({"minimum": 0, "partner_opened": True, "opened": False,
                   "must_include": None, "meter": shown})
    assert not freed["value"]
    assert "partner-opened" in freed["hints"] and "no-minimum" not in freed["hints"]
    assert "partner" in freed["text"]
    # Without a partner's lay-down the bar against 51 is back.
    alone = meter({"minimum": 51, "partner_opened": False, "opened": False,
                   "must_include": None, "meter": dict(shown, enough=False)})
    assert alone["value"] and "partner-opened" not in alone["hints"]

    # The end of the game, as the game_over message and the view give it: the results' totals
    # are the sides', and a person on the winning side is told so in the second person (it
    # read "You (Ana) and Bot 3 win the game!", in Spanish "¡Tú (Ana) y Bot 3 ganan …!").
    def end(winner: int) -> dict[str, Any]:
        result: dict[str, Any] = page.evaluate(
            """(w) => { const { S, actions } = window.rummykit;
              const pens = [0, 1, 2, 3].map((s) => (s % 2 === w ? 0 : 20));
              const r = { deal: 9, dealer: 0, winner: w, how: "discard", points: 40,
                          double: false, blocked: false, penalties: pens,
                          hands: pens.map((p) => (p ? ["KS", "QH"] : [])) };
              const scores = w === 0 ? [120, 360] : [360, 120];
              S.view = { ...S.view, turn: null, over: true, winner: w, results: [r], scores };
              S.gameOver = { type: "game_over", winner: w, scores, results: [r], game: 1,
                             record: null };
              actions.render();
              return { champion: document.querySelector('#end-champion').textContent,
                       summary: document.querySelector('#end-summary').textContent,
                       head: [...document.querySelectorAll('.results thead th')].pop().textContent,
                       totals: [...document.querySelectorAll('.results tbody tr')].map(
                         (tr) => [tr.dataset.resultSeat, tr.lastElementChild.textContent]) }; }""",
            winner,
        )
        return result

    partner = page.evaluate("(s) => window.rummykit.S.room.seats[s].level", (me + 2) % 4)
    ours = end(me % 2)
    assert ours["champion"] == f"You and Bot {(me + 2) % 4 + 1} ({partner}) win the game!"
    assert ours["head"] == "Side total"
    # only the other side pays (the partner's 0 is in the table): "the others" misled
    assert "The rivals pay 40\u00a0points." in ours["summary"]
    totals = [120, 360] if me % 2 == 0 else [360, 120]
    assert ours["totals"] == [[str(s), str(totals[s % 2])] for s in range(4)]
    theirs = end(1 - me % 2)
    assert theirs["champion"].endswith("win the game!") and "You" not in theirs["champion"]
    page.select_option("#lang", "es")
    # the page is redrawn once the catalog has come (a fetch)
    page.wait_for_function(
        "() => document.querySelector('#end-champion').textContent.includes('partida')"
    )
    assert end(me % 2)["champion"].endswith("y tú ganáis la partida!")
    assert js_errors(page) == []
    page.context.close()


def test_each_rami_blurb_gives_the_limits_its_game_is_played_to() -> None:
    """The lobby's words are all a person reads of the losing totals: rami71's said "like
    Rami 51", whose pairs lose at 351, while its own lose at 451; simple's gave none."""
    for lang in ("en", "es", "fr"):
        catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for variant in ("rami51", "rami71", "simple"):
            blurb = catalog["variant"][variant]["blurb"]
            alone, pairs = (make_rules(variant, n).limit for n in (2, 4))
            assert f"{alone} (" in blurb and f"({pairs} " in blurb, (lang, variant, blurb)
