"""What a fresh look at the day's features of the web client found (watching a game again,
quick messages), each kept (docs/web.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine.review import replay_deal
from tests.helpers import medium_game
from tests.test_web_axe import PHONE, violations
from tests.test_web_end import drop
from tests.test_web_replay import wait_step
from tests.test_web_sheet import draw
from tests.test_web_touch import TARGETS_JS, touch_page
from tests.web_support import (
    Server,
    create_room,
    game_over_against_a_bot,
    js_errors,
    mover_and_other,
    new_page,
    two_people_and_a_spectator,
)

GOLDEN = Path(__file__).parent / "golden"

# a run with a printed joker in its middle: the joker stands for 6♥
JOKER_RUN = {"number": 99, "kind": "run", "cards": ["5H", "X", "7H"], "owner": 1}


def test_the_replay_shows_what_a_table_joker_stands_for(
    planned_server: Server, browser: Any
) -> None:
    """The table's melds show the card a joker of a run stands for; the replay's melds showed a
    bare star, so a run 5♥ ★ 7♥ had to be worked out at every step."""
    page = new_page(browser)
    game_over_against_a_bot(page, planned_server.base)
    page.wait_for_selector("[data-end=game]")

    def with_a_joker_run(route: Any) -> None:
        # the server's own answer, with a run holding a joker on the deal's last table
        response = route.fetch()
        data = response.json()
        data["frames"][-1]["view"]["table"].append(JOKER_RUN)
        route.fulfill(response=response, json=data)

    page.route("**/api/replay/**", with_a_joker_run)
    page.click("[data-action=replay]")
    wait_step(page, 0)
    page.keyboard.press("End")
    page.wait_for_selector("[data-replay-meld='99']")
    # the last move and the deal's end, each a sentence: it read "Ana discarded 2♠ The deal…"
    move = page.inner_text(".replay-move")
    assert "The deal is over. " in move and not re.search(r"[^.!?…»”] The deal is over", move), move
    joker = page.evaluate(
        """() => { const c = document.querySelector("[data-replay-meld='99'] .card.joker");
                   return { stands: c.classList.contains('stands'),
                            rank: (c.querySelector('.rank') || {}).textContent || '' }; }"""
    )
    assert joker == {"stands": True, "rank": "6"}, joker
    # », pressed with Enter, goes disabled at the deal's end, and « at its start: the focus
    # went to the page's start (a screen reader lost its place); it goes to the slider
    page.keyboard.press("Home")
    wait_step(page, 0)
    for button, step in (("last", -1), ("first", 0)):
        page.focus(f"[data-action={button}]")
        page.keyboard.press("Enter")
        wait_step(
            page,
            step
            if step >= 0
            else page.evaluate("() => Number(document.querySelector('.replay-slider').max)"),
        )
        assert page.evaluate("() => document.activeElement.dataset.key") == "replay-slider"
    assert violations(page) == []
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_quick_messages_on_the_end_screen(server: Server, browser: Any) -> None:
    """The end of a game is when people say *Good game!*, and its screen covered the chips and
    the log that show quick messages, and the log panel's Say button: a message said then was
    seen by nobody, and nobody could say one without setting the results aside."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian", {"format": "points"})
    ana.set_viewport_size(PHONE)
    mover, _ = mover_and_other(ana, ben)
    drop(mover)
    for page in (ana, ben, watcher):
        page.wait_for_selector("[data-end=game]")
    # a spectator reads them and has nothing to send them with
    assert watcher.query_selector(".overlay [data-action=say]") is None
    ben.click(".overlay [data-action=say]")
    ben.wait_for_selector("#choose[open]")
    ben.click("#choose-body [data-value=good_game]")
    for page, who in ((ana, "Ben"), (watcher, "Ben"), (ben, "You (Ben)")):
        page.wait_for_selector(".overlay [data-end-said]")
        assert page.inner_text(".overlay [data-end-said]") == f"{who}: “Good game!”"
    # answered from the screen with the keyboard, the focus kept on the screen
    ana.focus(".overlay [data-action=say]")
    ana.keyboard.press("Enter")
    ana.wait_for_selector("#choose[open]")
    ana.click("#choose-body [data-value=bye]")
    ben.wait_for_function(
        "() => (document.querySelector('.overlay [data-end-said]') || {}).textContent"
        " === 'You (Ben): “Good game!”  ·  Ana: “Bye!”'"
    )
    assert ana.evaluate("() => !!document.activeElement.closest('.overlay')")
    assert violations(ana) == []
    # gone with the chips' after a few seconds
    ana.wait_for_selector(".overlay [data-end-said]", state="detached", timeout=15000)
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_the_replay_marks_a_pool_player_put_out_by_the_deal(server: Server, browser: Any) -> None:
    """The last move of a pool deal that put a player over the limit showed them with no mark
    (the view's seats are still the deal's); the end screen marked them *eliminated*."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian", {"format": "points"})
    mover, _ = mover_and_other(ana, ben)
    drop(mover)
    watcher.wait_for_selector("[data-end=game]")
    # the page's drawing of the engine's own look back at a three-seat pool game's last deal
    pool = replay_deal((GOLDEN / "indian-pool101.json").read_text(), 3)
    watcher.route("**/api/replay/**", lambda route: route.fulfill(json=pool))
    watcher.click("[data-action=replay]")
    wait_step(watcher, 0)
    assert out_marks(watcher) == ["eliminated", "", ""]
    watcher.keyboard.press("End")
    wait_step(watcher, 2)
    # seat 3 paid 80 for the declaration and is out at 160, as the engine says
    assert pool["frames"][2]["view"]["eliminated"] == [0, 2]
    assert out_marks(watcher) == ["eliminated", "", "eliminated"]
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def out_marks(page: Any) -> list[str]:
    marks: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[data-replay-seat]')].map((s) =>
             (s.querySelector('.badge.out') || {}).textContent || '')"""
    )
    return marks


def test_quick_messages_in_the_waiting_room(server: Server, browser: Any) -> None:
    """People waiting for a table to fill greet each other: the server took quick messages
    there, and the waiting room had no button to send one nor anything to show one with."""
    ana = new_page(browser, viewport=PHONE)
    code = create_room(ana, server.base, "rummy", 3, name="Ana")
    ben = new_page(browser, locale="es-ES")
    ben.goto(f"{server.base}/r/{code}")
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.click("[data-action=sit]")
    ben.wait_for_selector(".seat-row.mine")
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".waiting")
    assert watcher.query_selector("[data-action=say]") is None  # a spectator watches
    ana.click(".waiting [data-action=say]")
    ana.wait_for_selector("#choose[open]")
    ana.click("#choose-body [data-value=hello]")
    for page, text in ((ana, "“Hello!”"), (ben, "«¡Hola!»"), (watcher, "“Hello!”")):
        page.wait_for_selector(".seat-row[data-seat='0'] [data-said=hello]")
        assert page.inner_text(".seat-row[data-seat='0'] .said") == text
    # said to a screen reader, in the reader's language
    ben.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('¡Hola!')"
    )
    assert violations(ana) == []
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


@pytest.mark.parametrize(("width", "height", "locale"), [(568, 320, "fr-FR"), (915, 412, "es-ES")])
def test_the_replay_on_a_phone_held_sideways(
    planned_server: Server, browser: Any, width: int, height: int, locale: str
) -> None:
    """Sideways, the controls and the move's words took the first screen, one seat a row under
    them: every step was a scroll down to the hands and back up to the buttons. The controls
    share a row there now and the seats go two abreast."""
    page = touch_page(browser, width, height, locale)
    game_over_against_a_bot(page, planned_server.base)
    page.click("[data-action=replay]")
    wait_step(page, 0)
    boxes = page.evaluate(
        """() => { window.scrollTo(0, 0);
             const b = (e) => e.getBoundingClientRect();
             return { next: b(document.querySelector('[data-action=next]')).bottom,
                      seats: [...document.querySelectorAll('[data-replay-seat]')].map((s) =>
                        b(s.querySelector('.replay-name')).bottom),
                      hands: [...document.querySelectorAll('[data-replay-hand]')].map((s) =>
                        b(s.querySelector('.card')).top),
                      wide: document.documentElement.scrollWidth }; }"""
    )
    # the next move's button and every seat's name on the first screen, the hands begun there
    assert boxes["next"] <= height and max(boxes["seats"]) <= height, boxes
    assert max(boxes["hands"]) < height, boxes
    assert boxes["wide"] <= width
    targets = page.evaluate(TARGETS_JS)
    assert targets == {"small": [], "sideways": 0}, targets
    assert violations(page) == []
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_score_sheets_title_whole_on_a_phone(server: Server, browser: Any) -> None:
    """At six seats on a phone the sheet's caption, as wide as its table, scrolled with it and
    was cut at the box's edge (*Feuille de marque : les totaux après chaque don*)."""
    page = new_page(browser, viewport=PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    six = medium_game("indian", 6, 2, options={"format": "pool101"}, deal_next=False)
    drawn = draw(page, "fr", six.view(1))
    assert (
        drawn["sheet"]["caption"].replace("\u00a0", " ")
        == "Feuille de marque : les totaux après chaque donne"
    )
    title = page.evaluate(
        """() => { const e = [...document.querySelectorAll('.scores .sheet-title, .scores caption')]
                     .find((x) => x.getBoundingClientRect().width > 1);
                   const r = e.getBoundingClientRect();
                   return { text: e.textContent, right: r.right, width: innerWidth }; }"""
    )
    assert title["text"] == drawn["sheet"]["caption"]
    assert title["right"] <= title["width"], title
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_rematch_that_starts_during_the_replay(server: Server, browser: Any) -> None:
    """A rematch that starts while a player watches the game again runs its clock: the way
    back said only that a new game had started, not that the player's turn in it was running."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian", {"format": "points"})
    mover, _ = mover_and_other(ana, ben)
    drop(mover)
    for page in (ana, ben):
        page.wait_for_selector("[data-end=game]")
        page.click("[data-action=replay]")
        wait_step(page, 0)
    ana.evaluate("() => window.rummykit.actions.rematch()")
    ben.evaluate("() => window.rummykit.actions.rematch()")
    turns = []
    for page in (ana, ben):
        page.wait_for_function(
            "() => { const v = window.rummykit.S.view; return !!v && !v.over && !!v.turn; }"
        )
        mine = page.evaluate("() => window.rummykit.S.view.turn.seat === window.rummykit.S.you")
        page.wait_for_selector("[data-action=replay-close].primary")
        text = page.inner_text("[data-action=replay-close]")
        want = "Back to the table: a new game has started"
        assert text == (want + ", and it is your turn" if mine else want), text
        turns.append(mine)
    assert sorted(turns) == [False, True]
    # and back at the new game's table, its hand
    ana.click("[data-action=replay-close]")
    ana.wait_for_selector(".table-view .hand-card")
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()
