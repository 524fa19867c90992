"""What a bug hunt through the page found, each kept by a test (docs/web.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_support import (
    LOG_LINES,
    MY_TURN_OR_OVER,
    How,
    Server,
    add_bots,
    clock_lines,
    create_room,
    js_errors,
    mover_and_other,
    new_page,
    play_against_bots,
    play_turn,
    play_until_over,
    running_server,
    select_cards,
    settle,
    state,
    two_people_and_a_spectator,
)

CATALOGS = Path(__file__).resolve().parent.parent / "rummykit" / "web" / "i18n"



def test_moves_made_while_the_connection_was_down_reach_the_log(
    server: Server, browser: Any
) -> None:
    """A page whose connection drops and comes back within the deal (the server still up: a
    network lost for a while, a phone asleep) gets the deal's whole history again on resuming;
    the other's moves made meanwhile are in its log and its status line, as on a page that
    stayed connected."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    mover, other = mover_and_other(ana, ben)
    # the other page loses its connection, and does not retry until told
    other.evaluate("() => { const c = window.rummykit.S.conn; c.closedByUs = true; c.ws.close(); }")
    other.wait_for_function("() => window.rummykit.S.conn.ws === null")
    play_turn(mover, How(take=False), passive=True)
    seen = mover.evaluate(LOG_LINES)
    discard = next(line for line in seen if "discarded" in line)
    assert other.evaluate(LOG_LINES) == ["Deal 1"]
    other.evaluate("() => window.rummykit.S.conn.connect()")
    other.wait_for_function(
        "() => window.rummykit.S.status === 'online' && window.rummykit.S.view.turn"
        " && window.rummykit.S.view.turn.seat === window.rummykit.S.you"
    )
    assert state(other)["myTurn"]
    assert other.evaluate(LOG_LINES) == seen
    assert other.locator(".status .last-action").inner_text() == discard
    for page in (ana, ben, watcher):
        assert js_errors(page) == []
        page.context.close()


def test_house_rules_open_fit_a_phone_in_every_language(server: Server, browser: Any) -> None:
    """The create form with its house rules open stays within a 320 or 375 px phone in every
    language and variant: a select was as wide as its longest option (French *Comptée (la main
    la plus légère gagne)*), and widened the whole form past the screen."""
    for locale in ("es-ES", "fr-FR", "en-US"):
        page = new_page(browser, locale=locale, viewport={"width": 375, "height": 740})
        page.goto(server.base + "/")
        # online first: the lobby is drawn again when the connection opens, and a click on
        # the summary before that could open a drawing about to be replaced
        page.wait_for_selector("[data-action=create]:not([disabled])")
        page.click("[data-key=house-summary]")
        page.wait_for_selector("details.house-rules[open]")
        wide = []
        for width in (375, 320):
            page.set_viewport_size({"width": width, "height": 740})
            for variant in ("rummy", "rami51", "rami71", "simple", "indian"):
                page.select_option("#variant", variant)
                page.wait_for_selector("details.house-rules[open]")
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                if scroll > width:
                    wide.append((variant, width, scroll))
        assert not wide, (locale, wide)
        assert js_errors(page) == []
        page.context.close()


# Where Tab put the focus, and whether it shows the page's focus ring (its blue, #0b5cad)
FOCUS_RING = """() => { const a = document.activeElement; const cs = getComputedStyle(a);
  return [a.tagName + '.' + a.className + '[' + (a.dataset.action || a.dataset.key || '') + ']',
          cs.boxShadow.includes('rgb(11, 92, 173)')]; }"""


def without_focus_ring(page: Any, presses: int = 40) -> list[str]:
    """The controls that Tab reaches (from the page's start) with no focus ring shown; the hand,
    which has a ring of its own, apart."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    missing: list[str] = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        name, ring = page.evaluate(FOCUS_RING)
        if not ring and not name.startswith(("BODY", "DIV.hand[")) and name not in missing:
            missing.append(name)
    return missing


@pytest.fixture(scope="module")
def planned_server() -> Iterator[Server]:
    with running_server(planned=True) as s:
        yield s


def test_every_control_shows_the_focus_ring(planned_server: Server, browser: Any) -> None:
    """Tab shows where it is on every control: in the lobby, the waiting room, at the table (the
    turn's buttons, the hand's tools, a table meld the selected card fits) and on the end
    screen. The buttons' own shadow, declared after the page's :focus-visible ring and as
    weighty, hid it on every button."""
    page = new_page(browser)
    page.goto(planned_server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    assert without_focus_ring(page) == []
    create_room(page, planned_server.base, "rummy", 2)
    assert without_focus_ring(page) == []
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    assert without_focus_ring(page) == []
    # the first turn lays melds; in the second, a meld outlined as one the selected card fits
    # (its own shadow, like the buttons'): the outline is set by hand, as the deal dealt need
    # hold no such card
    play_turn(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    assert not state(page)["over"]
    page.evaluate(
        "() => document.querySelectorAll('.meld-tile').forEach(m => m.classList.add('fits'))"
    )
    assert page.locator(".meld-tile.fits").count()
    assert without_focus_ring(page, 60) == []
    play_until_over(page)
    page.wait_for_selector("[data-end=game]")
    assert without_focus_ring(page) == []
    assert js_errors(page) == []
    page.context.close()


def test_one_card_on_the_pile_is_named_in_the_singular(
    planned_server: Server, browser: Any
) -> None:
    """The discard pile's name for a screen reader counts its cards in the page's language, one
    card in the singular: a Rami deal's first discard left *(1 cards)*, *(1 cartes)*."""
    said = {
        "en-US": "Discard pile, A♠ on top (1 card)",
        "es-ES": "Pila de descartes, A♠ arriba (1 carta)",
        "fr-FR": "Défausse, A♠ dessus (1 carte)",
    }
    for locale, label in said.items():
        page = new_page(browser, locale=locale)
        create_room(page, planned_server.base, "rami51", 2)
        add_bots(page)
        # the bot is first in the planned deal: with 15 cards it starts by discarding
        page.wait_for_function(MY_TURN_OR_OVER)
        assert len(state(page)["pile"]) == 1
        # followed by what pressing it does (tests/test_web_keys.py)
        name = page.locator("[data-action=pile]").get_attribute("aria-label") or ""
        assert name.startswith(label) and name != label, name
        assert js_errors(page) == []
        page.context.close()


def test_join_takes_a_long_link_a_slash_and_a_code_read_out(
    server: Server, browser: Any
) -> None:
    """The join field takes the table's link pasted whole, however long its host's name (the
    field kept 40 characters and cut the code off), with a slash after the code, and a code
    typed as it was read out (lower case, spaced): each opens the table."""
    host = new_page(browser)
    code = create_room(host, server.base, "rummy", 2)
    page = new_page(browser, locale="es-ES")
    typed = [
        f"https://rummykit.familia-garcia-lopez.example.org/r/{code}",
        f"{server.base}/r/{code}/",
        f" {code[:3].lower()} {code[3:].lower()} ",
    ]
    for text in typed:
        page.goto(server.base + "/")
        page.wait_for_selector("[data-action=join]")
        page.click("#code")
        page.keyboard.insert_text(text)  # as a paste: within the field's maxlength
        page.click("[data-action=join]")
        page.wait_for_selector("[data-action=sit]")
        assert page.url == f"{server.base}/r/{code}", (text, page.url)
    assert js_errors(page) == []
    for p in (host, page):
        p.context.close()


def test_back_out_of_a_waiting_room_forgets_its_seat(server: Server, browser: Any) -> None:
    """The browser's Back out of a room still waiting gives the seat up (the server frees a
    waiting seat whose player leaves), as the room's Leave does: the page forgets its token too,
    so the lobby does not list the table as one of the player's, and Forward opens the room to
    sit again, with no *your seat could not be found* error."""
    page = new_page(browser, locale="fr-FR")
    code = create_room(page, server.base, "rummy", 2)
    page.go_back()
    page.wait_for_selector("[data-action=create]")
    assert code not in page.evaluate("() => localStorage.getItem('rk.seats')")
    assert page.locator(".recent-list").count() == 0
    page.go_forward()
    page.wait_for_selector("[data-action=sit]")
    settle(page)
    assert page.locator("#toast").is_hidden(), page.locator("#toast").inner_text()
    assert js_errors(page) == []
    page.context.close()


def test_the_top_bar_is_at_hand_over_an_end_screen(planned_server: Server, browser: Any) -> None:
    """Over the end screen the top bar still answers a tap (the screen covered it, and only
    Tab reached the language, the settings and the help): on a phone the results are read in
    another language at once, and the card of the screen starts below the bar."""
    page = new_page(browser, locale="fr-FR", viewport={"width": 375, "height": 740})
    create_room(page, planned_server.base, "rami51", 2)
    add_bots(page)
    play_until_over(page)
    on_top = page.evaluate(
        """() => ['#lang', '#settings-btn', '#help-btn', '.brand'].filter(s => {
             const r = document.querySelector(s).getBoundingClientRect();
             const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return !(top && top.closest(s)); })"""
    )
    assert on_top == [], f"covered by the end screen: {on_top}"
    bar = page.locator(".topbar").bounding_box()
    card = page.locator(".end-card").bounding_box()
    assert bar and card and card["y"] >= bar["y"] + bar["height"]
    page.select_option("#lang", "es")
    page.wait_for_function(
        "() => document.getElementById('end-title').textContent === 'Fin de la partida'"
    )
    page.click("#help-btn")
    page.wait_for_selector("#help[open]")
    page.keyboard.press("Escape")
    assert js_errors(page) == []
    page.context.close()


@pytest.fixture(scope="module")
def fast_clock_server() -> Iterator[Server]:
    with running_server(clock_scale=0.03) as s:  # 45 s turns of 1.35 s
        yield s


def test_the_log_says_what_the_clock_did(fast_clock_server: Server, browser: Any) -> None:
    """A turn the clock ends is logged with what the clock did: after the player's own draw it
    only discards (the log said *the game drew and discarded* whatever happened), and it names
    the card thrown, which the others may want."""
    page = new_page(browser)
    # a game of several deals: a bot going out does not end it
    play_against_bots(page, fast_clock_server.base, "rummy", 2, {"length": "to-200"})
    # the first turn: drawn by the player, then left to the clock
    page.keyboard.press("d")
    lines, clock = clock_lines(page)
    assert len(clock) == 1, lines
    assert clock[0].startswith("Ana ran out of time: the game discarded "), clock
    # the next turn is left whole to the clock: it draws and discards
    lines, clock = clock_lines(page, 2)
    assert clock[0].startswith("Ana ran out of time: the game drew and discarded "), clock
    assert js_errors(page) == []
    page.context.close()


def test_french_writes_one_kind_of_apostrophe() -> None:
    """The French catalog writes its apostrophes as French print does (’), every one of them:
    four straight ones (l'un d'eux) stood out among some fifty."""
    strings: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                collect(value)
        elif isinstance(node, str):
            strings.append(node)

    collect(json.loads((CATALOGS / "fr.json").read_text(encoding="utf-8")))
    straight = [s for s in strings if re.search(r"\w'\w", s)]
    assert straight == []
    assert sum("’" in s for s in strings) > 40


def test_the_drop_costs_what_the_engine_charges(server: Server, browser: Any) -> None:
    """Indian rummy's drop shows the engine's cost: a first player dealt the extra card (the
    house rule *first_extra*) starts by discarding, has drawn nothing, and pays 20; the page
    counted 40 from the turn's phase."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("details.house-rules")
    page.fill("#name", "Ana")
    page.select_option("#variant", "indian")
    page.select_option("#opt-format", "points")
    page.click("[data-key=house-summary]")
    page.locator("#house-first_extra").set_checked(True)
    page.select_option("#house-first_dealer", "1")  # seat 2 deals: Ana is first
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    s = state(page)
    assert s["phase"] == "play" and "drop" in s["can"], s
    assert page.evaluate("() => window.rummykit.S.view.drop_cost") == 20
    assert page.locator("[data-action=drop]").inner_text() == "Drop (−20)"
    page.click("[data-action=drop]")
    page.wait_for_selector("#confirm[open]")
    assert page.locator("#confirm-body").inner_text() == "Dropping now costs 20 points."
    page.click("#confirm-cancel")
    assert js_errors(page) == []
    page.context.close()


def test_why_a_group_is_no_meld_is_read_whole_on_a_phone(
    planned_server: Server, browser: Any
) -> None:
    """A group of three cards of three ranks and three suits, on a 375 px French page: the
    reason ("Ni une même valeur ni une même couleur") wraps within the group, where it was cut
    short with an ellipsis, and the group stays within the screen. The deal is planned: a
    shuffled hand of one or two suits had no such three cards, and the test failed."""
    page = new_page(browser, locale="fr-FR", viewport={"width": 375, "height": 740})
    create_room(page, planned_server.base, "rummy", 2)
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    hand = state(page)["hand"]
    picked: list[tuple[str, str]] = []
    for card_id, text in hand:
        if text == "X" or any(text[0] == t[0] or text[1] == t[1] for _, t in picked):
            continue
        picked.append((card_id, text))
        if len(picked) == 3:
            break
    assert len(picked) == 3, hand
    for card_id, _ in picked:
        page.locator(f".hand-card[data-id='{card_id}']").click()
    page.click("[data-action=group]")
    page.wait_for_selector(".group.bad .group-text")
    fit = page.evaluate(
        """() => { const t = document.querySelector('.group.bad .group-text');
             const g = t.closest('.group').getBoundingClientRect();
             return { cut: t.scrollWidth > t.clientWidth + 1, text: t.textContent,
                      inside: g.right <= window.innerWidth + 0.5,
                      narrow: g.width < 250 }; }"""
    )
    assert "Ni une même valeur" in fit["text"], fit
    assert not fit["cut"], fit
    assert fit["inside"], fit
    assert fit["narrow"], fit
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_ones_own_seat_just_taken_offers_no_bot(server: Server, browser: Any) -> None:
    """The server says "seated" before the room shows the seat taken: in between, the waiting
    room drew one's own seat as an empty seat of one's own, with an "Add a bot" button (a test
    picking the first such button now and then took it, and the button went away under its
    click). The room as it is in that moment, drawn: one's own seat, no button in it."""
    page = new_page(browser)
    create_room(page, server.base, "rummy", 3)
    page.evaluate(
        """() => { const S = window.rummykit.S;
             S.room = { ...S.room, seats: S.room.seats.map(
               (s) => s.seat === S.you ? { seat: s.seat, kind: "empty" } : s) };
             window.rummykit.actions.render(); }"""
    )
    me = page.locator(".seat-row.mine")
    assert me.count() == 1
    assert me.locator("[data-action=add-bot], [data-action=sit]").count() == 0
    assert "Ana" in me.inner_text()
    assert page.locator("[data-action=add-bot]").count() == 2
    assert not js_errors(page), page.js_errors
    page.context.close()


def _twins_in_hand(server: Server, browser: Any) -> tuple[Any, dict[str, list[str]]]:
    """A page at its turn to open (rummy, after the draw) whose arrangement holds 7H twice: one
    in the group 5H 6H 7H, the other in the group 7H 7S 7D. The hand and the server's answers
    are played in the page: actions are caught before they leave (the real game does not
    matter past the turn) and kept in ``window.sentActions``."""
    page = new_page(browser)
    create_room(page, server.base, "rummy", 2)
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    page.click("[data-action=draw-stock]")
    page.wait_for_function(
        """() => { const v = window.rummykit.S.view;
                   return v.turn.phase === 'play' && v.turn.can.includes('open'); }"""
    )
    ids: dict[str, list[str]] = page.evaluate(
        """() => { const { S, actions } = window.rummykit;
          const A = S.arrangement;
          A.groups = []; A.loose = [];
          A.reconcile(['5H', '6H', '7H', '7H', '7S', '7D', '9C'], A.deal);
          const id = (text, n = 0) => A.loose.filter((x) => x.startsWith(text + '#'))[n];
          const run = [id('5H'), id('6H'), id('7H')];
          const set = [id('7H', 1), id('7S'), id('7D')];
          A.group(run); A.group(set);
          window.sentActions = [];
          window.realPlay = actions.play;
          actions.play = async (text) => { window.sentActions.push(text); return true; };
          actions.render();
          return { run, set }; }"""
    )
    return page, ids


def _hand_after_the_run(page: Any) -> Any:
    """The groups once the server's hand says the run went down."""
    return page.evaluate(
        """() => { const A = window.rummykit.S.arrangement;
          A.reconcile(['9C', '7H', '7S', '7D'], A.deal);
          return A.groups; }"""
    )


def test_laying_one_of_two_copies_keeps_the_other_where_the_player_put_it(
    planned_server: Server, browser: Any
) -> None:
    """Opening with the selected run takes that run's 7H off the hand, not the set's (the
    server only says that one 7H left): the set stays whole, as a discard already left its own
    card's twin in place."""
    page, ids = _twins_in_hand(planned_server, browser)
    select_cards(page, ids["run"])
    page.click("[data-action=open]")
    page.wait_for_function("() => window.sentActions.length === 1")
    assert page.evaluate("() => window.sentActions") == ["open 5H 6H 7H"]
    assert _hand_after_the_run(page) == [ids["set"]]
    assert js_errors(page) == []
    page.context.close()


def test_the_one_tap_open_takes_the_copies_arranged_with_its_melds(
    planned_server: Server, browser: Any
) -> None:
    """The meter's one-tap Open lays the engine's melds: of two copies of a face, the one in
    the group that holds the rest of the meld leaves, the other stays in its own group."""
    page, ids = _twins_in_hand(planned_server, browser)
    page.evaluate(
        """() => { const { S, actions } = window.rummykit;
          S.view.opening.meter.action = 'open 5H 6H 7H';
          actions.render(); }"""
    )
    page.click("[data-action=open-meter]")
    page.wait_for_function("() => window.sentActions.length === 1")
    assert _hand_after_the_run(page) == [ids["set"]]
    assert js_errors(page) == []
    page.context.close()


def test_cards_marked_as_leaving_stay_when_the_action_is_refused(
    planned_server: Server, browser: Any
) -> None:
    """An opening the server refuses (the real hand holds no 6H) unmarks the cards it would
    have laid: a later change of the hand (the card just taken returned, say) must not take the
    run's 7H for one that left."""
    page, ids = _twins_in_hand(planned_server, browser)
    page.evaluate("() => { window.rummykit.actions.play = window.realPlay; }")
    select_cards(page, ids["run"])
    page.click("[data-action=open]")
    # the click sent it (pending from the tap on); the server's refusal ends it
    page.wait_for_function("() => !window.rummykit.S.pending")
    assert page.evaluate("() => window.rummykit.S.arrangement.leaving.size") == 0
    page.context.close()
