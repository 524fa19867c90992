"""What a hunt through games of several deals found, each kept: pool players eliminated,
screens between deals, the end of the game."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, new_page, play_against_bots

#: every reason the engine gives for a seat being out of a deal (``DealState.out``)
OUT_REASONS = ("dropped", "wrong-declaration", "eliminated")


def test_a_seat_out_of_the_deal_is_named_in_every_language(server: Any, browser: Any) -> None:
    """A pool player over the pool's limit sits out the following deals with the reason
    ``eliminated`` (the chip and the end screen badge it); the badge showed the raw key
    ``seat.out.eliminated`` in every language. Eliminations need several deals, so the view of
    a fresh Indian table is given each reason in turn."""
    page = new_page(browser)
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    for lang in ("es", "en", "fr"):
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        for reason in OUT_REASONS:
            badge = page.evaluate(
                """r => { const { S, actions } = window.rummykit;
                  S.view.seats[1].out = r; actions.render();
                  const b = document.querySelector('.seat-chip[data-seat="1"] .badge.out');
                  return b && b.textContent; }""",
                reason,
            )
            assert badge and not badge.startswith("seat."), (lang, reason, badge)
    assert js_errors(page) == []
    page.context.close()


def test_a_player_out_of_the_game_is_told_so(server: Any, browser: Any) -> None:
    """A pool player eliminated watches the others play on with an empty hand; the bar above
    it still said the declaration was "checked on your turn, after you draw", a turn that never
    comes, and nothing said the player was out. A player who dropped out of a deal read the
    same. The view of a fresh pool table is given each reason in turn."""
    page = new_page(browser, locale="fr-FR")
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    for reason, words in (("eliminated", "hors de la partie"), ("dropped", "hors de cette donne")):
        got = page.evaluate(
            """r => { const { S, actions } = window.rummykit;
              S.view.seats[S.you].out = r; actions.render();
              const out = document.querySelector('.my-area .meter.out');
              return { out: out && out.textContent,
                       declaration: !!document.querySelector('.my-area .meter.declaration') }; }""",
            reason,
        )
        assert got["out"] and words in got["out"], (reason, got)
        assert not got["declaration"], (reason, got)
    assert js_errors(page) == []
    page.context.close()


def test_the_deal_that_puts_a_pool_player_out_says_so(server: Any, browser: Any) -> None:
    """The screen between deals marks a pool player the deal put out of the game (the result's
    `eliminated`) as eliminated: the view's seats are still the finished deal's, so it said
    nothing until the next deal, which deals that seat no more. A deal's end is given to a
    fresh Pool 101 table."""
    page = new_page(browser, locale="es-ES")
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    badges = page.evaluate(
        """() => { const { S, actions } = window.rummykit;
          const result = { deal: 1, dealer: 0, winner: 2, how: "declare", points: 102,
            double: false, blocked: false, penalties: [80, 22, 0], hands: [[], [], []],
            out: [null, null, null], eliminated: [0], wild_rank: 5, declarations: [] };
          S.dealOver = { type: "deal_over", deal: 1, result, scores: [102, 101, 0],
            next_deal_at: Date.now() + 60000 };
          // the live deal's own outs (a bot may drop) are not this test's
          S.view.seats.forEach(seat => { seat.out = null; });
          S.view.eliminated = [0];
          actions.render();
          return [0, 1, 2].map(s => { const b = document.querySelector(
            `[data-result-seat="${s}"] .badge.out`); return b && b.textContent; }); }"""
    )
    # the seat the engine put out, and no other (101 itself still plays)
    assert badges == ["eliminado", None, None], badges
    assert js_errors(page) == []
    page.context.close()


def test_a_seat_out_before_the_deal_pays_a_dash_not_a_zero(server: Any, browser: Any) -> None:
    """A pool player eliminated in an earlier deal is not dealt in: the end screen of a later
    deal shows a dash in its penalty cell (the engine counts it 0), as for a hand not dealt."""
    page = new_page(browser, locale="en-US")
    play_against_bots(page, server.base, "indian", 3, {"format": "pool101"})
    cells = page.evaluate(
        """() => { const { S, actions } = window.rummykit;
          const result = { deal: 3, dealer: 0, winner: 2, how: "declare", points: 30,
            double: false, blocked: false, penalties: [0, 30, 0], hands: [[], [], []],
            out: ["eliminated", null, null], eliminated: [0], wild_rank: 5, declarations: [] };
          S.dealOver = { type: "deal_over", deal: 3, result, scores: [120, 60, 10],
            next_deal_at: Date.now() + 60000 };
          S.view.seats.forEach(seat => { seat.out = null; });
          S.view.seats[0].out = "eliminated";
          S.view.eliminated = [0];
          actions.render();
          return [0, 1, 2].map(
            s => document.querySelector(`[data-penalty="${s}"]`).textContent); }"""
    )
    assert cells == ["—", "30", "0"], cells
    assert js_errors(page) == []
    page.context.close()
