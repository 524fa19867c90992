"""A finished game watched again from its end screen, move by move with every hand face up
(docs/web.md, *Watching a game again*)."""

from __future__ import annotations

from typing import Any

from tests.test_web_axe import PHONE, violations
from tests.test_web_end import drop
from tests.web_support import (
    Server,
    game_over_against_a_bot,
    js_errors,
    mover_and_other,
    new_page,
    two_people_and_a_spectator,
)


def frames(page: Any, deal: int) -> dict[str, Any]:
    """What the server says of a deal of the room's game, fetched by the page."""
    data: dict[str, Any] = page.evaluate(
        """async (deal) => { const S = window.rummykit.S;
             const r = await fetch(`/api/replay/${S.room.room}-${S.room.game}?deal=${deal}`);
             return await r.json(); }""",
        deal,
    )
    return data


def shown(page: Any) -> dict[str, Any]:
    """The replay as drawn: the step, each seat's cards, the melds, the move's words."""
    data: dict[str, Any] = page.evaluate(
        """() => {
          const q = (s) => document.querySelector(s);
          const hands = [...document.querySelectorAll('[data-replay-hand]')].map((el) =>
            [...el.querySelectorAll('.card')].map((c) => c.dataset.card));
          return { step: Number(q('[data-replay-step]').dataset.replayStep),
                   deal: Number(q('[data-replay-deal]').dataset.replayDeal),
                   dealText: q('[data-replay-deal]').textContent,
                   hands, melds: document.querySelectorAll('[data-replay-meld]').length,
                   stock: Number(q('[data-replay-stock]').dataset.replayStock),
                   pile: q('[data-replay-pile]').dataset.replayPile,
                   move: q('.replay-move').textContent,
                   focus: document.activeElement && document.activeElement.dataset.key }; }"""
    )
    return data


def same_hands(a: list[list[str]], b: list[list[str]]) -> bool:
    return [sorted(h) for h in a] == [sorted(h) for h in b]


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function(
        "(n) => { const e = document.querySelector('[data-replay-step]');"
        " return e && Number(e.dataset.replayStep) === n; }",
        arg=step,
    )


def test_a_game_against_a_bot_watched_again(planned_server: Server, browser: Any) -> None:
    page = new_page(browser)
    game_over_against_a_bot(page, planned_server.base)
    page.wait_for_selector("[data-end=game]")
    data = frames(page, 1)
    last = len(data["frames"]) - 1
    assert last > 2

    page.click("[data-action=replay]")
    wait_step(page, 0)
    seen = shown(page)
    # the page's focus goes to the screen's title, as a dialog's would
    assert seen["focus"] == "replay-title"
    assert seen["deal"] == 1 and "Deal 1 of 1" in seen["dealText"]
    assert same_hands(seen["hands"], data["frames"][0]["hands"])
    assert seen["stock"] == data["frames"][0]["view"]["stock"]
    assert "the cards are dealt" in seen["move"]
    assert violations(page) == []

    # a move at a time with the keys, to the end and back
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    seen = shown(page)
    first = data["frames"][1]
    assert same_hands(seen["hands"], first["hands"])
    mover = first["events"][0]["seat"]
    if first["events"][0]["action"] == "draw":
        # the look back names the card drawn, which nobody else saw at the time
        drawn = [c for c in first["hands"][mover] if c not in data["frames"][0]["hands"][mover]]
        assert "drew" in seen["move"] and drawn
    page.keyboard.press("End")
    wait_step(page, last)
    seen = shown(page)
    end = data["frames"][last]
    assert same_hands(seen["hands"], end["hands"])
    assert seen["melds"] == len(end["view"]["table"]) > 0
    assert seen["pile"] == (end["view"]["pile"][-1] if end["view"]["pile"] else "")
    assert "The deal is over. " in seen["move"]
    # who won it and what it was worth, from the game's results
    result = data["results"][0]
    who = "You win the deal." if result["winner"] == 0 else "Bot 2 (easy) wins the deal."
    assert who in seen["move"] and f"scores {result['points']}" in seen["move"], seen["move"]
    assert page.is_disabled("[data-action=next]") and page.is_disabled("[data-action=next-deal]")
    page.keyboard.press("Home")
    wait_step(page, 0)
    # the buttons and the slider
    page.click("[data-action=next]")
    wait_step(page, 1)
    page.click("[data-action=last]")
    wait_step(page, last)
    page.click("[data-action=prev]")
    wait_step(page, last - 1)
    page.fill(".replay-slider", "2")
    wait_step(page, 2)
    assert page.get_attribute(".replay-slider", "aria-valuetext") == f"Move 2 of {last}"
    # the table's keys do nothing here: D would draw at the table
    page.keyboard.press("d")
    assert shown(page)["step"] == 2

    # Esc goes back to the end screen, the focus on the button that opened the replay
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-end=game]")
    assert page.evaluate("() => document.activeElement.dataset.action") == "replay"
    assert page.query_selector(".replay") is None
    page.click("[data-action=replay]")
    wait_step(page, 0)
    page.click("[data-action=replay-close]")
    page.wait_for_selector("[data-end=game]")
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_deals_one_by_one_for_players_and_spectators(server: Server, browser: Any) -> None:
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian", {"format": "deals"})
    for page in (ana, ben, watcher):
        page.set_viewport_size(PHONE)
    # two deals, each ended by a drop
    for deal in (1, 2):
        mover, _ = mover_and_other(ana, ben)
        drop(mover)
        if deal == 1:
            ana.wait_for_function(
                "() => { const v = window.rummykit.S.view; return v.deal === 2 && !!v.turn; }"
            )
    for page in (ana, watcher):
        page.wait_for_selector("[data-end=game]")
        page.click("[data-action=replay]")
        wait_step(page, 0)
        seen = shown(page)
        assert seen["dealText"] == "Deal 1 of 2"
        assert same_hands(seen["hands"], frames(page, 1)["frames"][0]["hands"])
        assert page.is_disabled("[data-action=prev-deal]")
        page.keyboard.press("End")
        wait_step(page, 1)  # the drop was the deal's only move
        assert "dropped" in shown(page)["move"] or "drop" in shown(page)["move"].lower()
        page.keyboard.press("PageDown")
        page.wait_for_function(
            "() => document.querySelector('[data-replay-deal]').dataset.replayDeal === '2'"
        )
        seen = shown(page)
        assert seen["dealText"] == "Deal 2 of 2" and seen["step"] == 0
        assert same_hands(seen["hands"], frames(page, 2)["frames"][0]["hands"])
        # the wild-joker indicator of that deal
        assert page.query_selector(".replay-indicator .card") is not None
        page.click("[data-action=prev-deal]")
        page.wait_for_function(
            "() => document.querySelector('[data-replay-deal]').dataset.replayDeal === '1'"
        )
        assert violations(page) == []
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_the_replay_in_spanish_and_french(planned_server: Server, browser: Any) -> None:
    for locale, words in (("es-ES", "Mano 1 de 1"), ("fr-FR", "Donne 1 sur 1")):
        page = new_page(browser, locale=locale, viewport=PHONE)
        game_over_against_a_bot(page, planned_server.base)
        page.click("[data-action=replay]")
        wait_step(page, 0)
        assert shown(page)["dealText"] == words
        page.keyboard.press("End")
        assert violations(page) == []
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_the_replay_names_the_seats_as_the_record_does(
    planned_server: Server, browser: Any
) -> None:
    """The server's answer names who played (the record's ``seats``); the page named the
    room's seats as they are now. A record stored before has none: the room's seats then."""
    page = new_page(browser)
    game_over_against_a_bot(page, planned_server.base)
    page.wait_for_selector("[data-end=game]")
    assert frames(page, 1)["seats"] == [
        {"seat": 0, "kind": "human", "name": "Ana"},
        {"seat": 1, "kind": "bot", "name": "Bot (easy)", "level": "easy"},
    ]
    names = "() => [...document.querySelectorAll('.replay-name')].map((e) => e.textContent)"
    page.click("[data-action=replay]")
    wait_step(page, 0)
    assert page.evaluate(names) == ["You (Ana)", "Bot 2 (easy)"]
    page.click("[data-action=replay-close]")
    page.wait_for_selector("[data-end=game]")

    seats: list[Any] = [
        {"seat": 0, "kind": "human", "name": "Zoé"},
        {"seat": 1, "kind": "bot", "name": "Bot (hard)", "level": "hard"},
    ]

    def other_seats(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        if seats:
            data["seats"] = seats
        else:
            del data["seats"]
        route.fulfill(response=response, json=data)

    page.route("**/api/replay/**", other_seats)
    page.click("[data-action=replay]")
    wait_step(page, 0)
    # another person held seat 1 then: not "you"
    assert page.evaluate(names) == ["Zoé", "Bot 2 (hard)"]
    page.keyboard.press("End")
    page.wait_for_function("() => /The deal is over/.test(document.querySelector("
                           "'.replay-move').textContent)")
    move = page.inner_text(".replay-move")
    assert "Ana" not in move and "You" not in move and ("Zoé" in move or "hard" in move), move
    page.click("[data-action=replay-close]")
    page.wait_for_selector("[data-end=game]")

    seats.clear()  # an older record: the room's seats
    page.click("[data-action=replay]")
    wait_step(page, 0)
    assert page.evaluate(names) == ["You (Ana)", "Bot 2 (easy)"]
    assert not js_errors(page), page.js_errors
    page.context.close()
