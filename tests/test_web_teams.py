"""A 2 v 2 Rami table through the page: the seats round the table, the partner's badge, the
sides' scores, and the opening meter once the partner has laid down."""

from __future__ import annotations

from typing import Any

from tests.web_support import Server, js_errors, new_page, play_against_bots


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
    assert js_errors(page) == []
    page.context.close()
