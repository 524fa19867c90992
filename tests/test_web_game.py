"""Whole games against bots, played through the page in a real Chromium (docs/web.md)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    PHONE,
    How,
    Server,
    add_bots,
    create_room,
    drag,
    ends_seen,
    js_errors,
    low_contrast,
    new_page,
    play_against_bots,
    play_turn,
    play_until_over,
    running_server,
    select_cards,
    state,
    tap,
    wait_change,
    watch_ends,
)


def finish_and_check(page: Any, server: Server, code: str) -> None:
    page.wait_for_selector("[data-end=game]")
    # the end screen is a dialog named by its title (for screen readers)
    title = page.locator("[data-end=game]").inner_text()
    assert page.get_by_role("dialog", name=title).count() == 1
    # a winner, every hand's penalty, totals, the record link and rematch
    assert page.locator("[data-winner]").count() == 1
    assert page.locator("[data-result-seat]").count() >= 2
    link = page.locator("[data-action=record]").get_attribute("href")
    assert link and link.startswith("/records/")
    with urllib.request.urlopen(server.base + link, timeout=5) as r:
        record = json.load(r)
    assert record["deals"], record
    assert page.locator("[data-action=rematch]").is_enabled()
    # no advice for a turn under it (it said "lay new melds" to a game over)
    assert page.locator(".my-area .meter").count() == 0
    assert not low_contrast(page), low_contrast(page)
    assert not js_errors(page), page.js_errors


# How the person plays each turn of the whole games (the last line repeats): every way to
# draw, open, meld, lay off and discard the page offers is used in some game.
HOWS = {
    "rummy": [
        How(draw="drag", open="select", meld="drag", layoff="key", discard="drag"),
        How(draw="key", meld="tap", layoff="drag", discard="key"),
        How(draw="tap", meld="key", layoff="tap", discard="tap"),
    ],
    "rami51": [
        How(draw="key", open="meter", discard="drag"),
        How(open="select", meld="drag", layoff="tap", discard="key"),
    ],
    "rami71": [
        How(draw="tap", open="meter", discard="tap"),
        How(open="select", meld="key", layoff="drag", discard="drag"),
    ],
    "simple": [
        How(draw="drag", open="meter"),
        How(open="select", discard="key"),
        How(draw="key", open="select", discard="drag"),
    ],
    "indian": [How(draw="tap")],
}
# What the person's turns must have done, at least, in each game.
MUST = {
    "rummy": {"draw", "open:select", "meld", "layoff", "swap", "discard"},
    "rami51": {"draw:key", "open:meter", "open:select", "meld:drag", "layoff:tap", "discard"},
    "rami71": {"draw:tap", "open:meter", "open:select", "meld:key", "layoff:drag", "discard"},
    "simple": {"draw:drag", "draw:key", "open:meter", "open:select", "discard:key"},
    "indian": {"draw:tap", "declare:tap"},
}
LIMIT = {"rami51": 251, "rami71": 251, "simple": 300}



@pytest.mark.parametrize("variant", ["rummy", "rami51", "rami71", "simple", "indian"])
def test_whole_game_through_the_page(planned_server: Server, browser: Any, variant: str) -> None:
    """A whole game against a bot, every move of ours made on the page (taps, drags, keys),
    through every deal to the end-of-game screen: the screens between deals show each hand's
    penalty and the running totals, the end shows the winner and the record to download."""
    server = planned_server
    page = new_page(browser)
    options = {"indian": {"format": "points"}, "rummy": {"length": "to-200"}}.get(variant, {})
    code = create_room(page, server.base, variant, 2, options)
    watch_ends(page)
    add_bots(page, "easy" if variant == "indian" else "medium")
    page.wait_for_selector(".hand-card")
    if variant != "indian":
        # the meter counts toward the opening's minimum; simple Rami has none (no "0 / 0")
        page.wait_for_selector(".meter")
        assert page.locator(".meter-value").count() == (variant != "simple")
    turns = play_until_over(page, HOWS[variant])
    finish_and_check(page, server, code)
    done = {move for turn in turns for move in turn}
    kinds = done | {m.split(":")[0] for m in done}
    assert MUST[variant] <= kinds, (turns, MUST[variant] - kinds)
    view = page.evaluate("() => window.rummykit.S.view")
    assert view["winner"] == 0, view["scores"]
    # the person is told "You win", and what the last deal was worth: what rummy's winner
    # scores, what the others pay in Rami and Indian rummy (where the winner scores nothing)
    assert page.locator("[data-winner]").inner_text() == "You win the game!"
    last = view["results"][-1]
    # (a number and its word, or a label and its number, are never split over two lines)
    # (the lone loser is named: "the others pay" read as each of them paying it)
    bot = "Bot 2 (easy)" if variant == "indian" else "Bot 2 (medium)"
    worth = (
        f"The winner scores {last['points']}\u00a0points: what the cards left in the other "
        "hands are worth." if variant == "rummy"
        else f"{bot} pays {last['points']}\u00a0points."
    )
    assert page.locator(".end-winner").inner_text().startswith(f"You win the deal. {worth}")
    # the log names the person as the others are named, as the subject of its verb
    log = page.locator(".log li").all_inner_texts()
    assert any(line.startswith("Ana ") for line in log), log
    assert not any("You (" in line for line in log), log
    if variant == "indian":
        # the winner's hand at the end is shown as it was declared, meld by meld
        melds = page.evaluate(
            """() => window.rummykit.S.events.filter((e) => e.action === "declare" && e.valid)
                       .map((e) => e.melds)"""
        )
        assert len(melds) == 1, melds
        row = page.locator("[data-result-seat='0'] .end-group")
        shown = [row.nth(i).locator(".card").count() for i in range(row.count())]
        assert shown == [len(m.split()) for m in melds[0]], (shown, melds)
    ends = ends_seen(page)
    deal_ends = [e for e in ends if e["end"] == "deal"]
    assert ends and ends[-1]["end"] == "game", ends
    # one screen per deal (the last deal's may be replaced by the end of the game at once)
    results = view["results"]
    assert len(results) - 1 <= len(deal_ends) <= len(results), ends
    for e, r in zip(deal_ends[: len(results) - 1] + ends[-1:], results, strict=True):
        assert e["penalties"] == [str(p) for p in r["penalties"]], (e, r)
    # every end screen takes the keyboard focus on its title (a screen reader reads the dialog's
    # name and summary), and gives it back to the hand when the next deal comes
    assert all(e["focus"] == "end-title" for e in ends), ends
    assert all("hand-card" in str(e["after"]) for e in deal_ends[: len(results) - 1]), ends
    assert page.evaluate("() => document.activeElement.id") == "end-title"
    described = page.locator(".overlay").get_attribute("aria-describedby") or ""
    assert "end-summary" in described.split(), described
    # every row of the results ends as one (the hands' cards too); between deals the pause
    # is counted in seconds, with its unit
    assert not [e["ragged"] for e in ends if e["ragged"]], ends
    # the list of deals beside the scores: a line per deal, a sentence each
    first = page.locator("[data-deal-result='1']").inner_text()
    assert first.startswith("Deal 1: "), first
    for e in deal_ends:
        assert re.fullmatch(r"Next deal in \d+\u00a0s|The next deal is being dealt…", e["next"]), e
    if variant in LIMIT:
        # rivals pay until one side passes the limit: the totals run from deal to deal
        assert len(view["results"]) >= 2
        before_last = int(deal_ends[len(results) - 2]["totals"][1])
        assert before_last == sum(r["penalties"][1] for r in view["results"][:-1]) > 0
        assert view["scores"][1] >= LIMIT[variant] > before_last
    if variant == "rummy":
        # deal 1 played over several turns is plain; deal 2, out in one turn without having
        # opened before, counts double (the mark on the end screen); the game is to 200
        assert [e["double"] for e in deal_ends[:1] + ends[-1:]] == [False, True], ends
        assert len(results) == 2 and view["scores"][0] >= 200 > results[0]["points"]
    # the log runs on through the deals, each one's moves after a line naming it; a page
    # reloaded in the last deal starts its log at that line and tells the same moves after it
    log_js = "() => window.rummykit.S.log.map(l => [l.deal || null, l.text])"
    # (a deal of more moves than the 40 lines kept keeps its line first, in place of its
    # oldest move)
    log = page.evaluate(log_js)
    deals = [d for d, _ in log if d]
    assert log[0][0] and len(log) <= 40, log
    assert deals == list(range(len(results) - len(deals) + 1, len(results) + 1)), log
    tail = log[[d for d, _ in log].index(len(results)) :]
    assert tail[0] == [len(results), f"Deal {len(results)}"], log
    if len(results) > 1 and len(tail) < 40:
        assert len(log) > len(tail), log  # the deal before, as far as the 40 lines kept reach
    # the panel shows the latest deal's line first, however many moves it had (then its moves,
    # newest first)
    assert page.locator(".log li").first.inner_text() == f"Deal {len(results)}"
    shown = page.locator(".log li").all_inner_texts()
    assert len(shown) == min(12, len(log)), shown
    page.reload()
    page.wait_for_selector("[data-end=game]")
    assert page.evaluate(log_js) == tail
    assert not js_errors(page), page.js_errors
    page.context.close()


NARROW = {"width": 360, "height": 740}
LONG_NAME = "Maximiliano Hernández Go"  # 24 characters, the longest a name may be


def test_long_names_fit_a_narrow_phone(planned_server: Server, browser: Any) -> None:
    """On a 360 px phone, a long name neither pushes its badges off the waiting room (a 2 v 2
    table, where each seat has its side's badge) nor the points and totals off the end screen."""
    page = new_page(browser, viewport=NARROW)
    width = "() => document.documentElement.scrollWidth"
    create_room(page, planned_server.base, "rami51", 4, name=LONG_NAME)
    assert page.locator(".seat-row.mine .badge").count() == 2  # you, and the side
    inside = """() => [...document.querySelectorAll('.seat-row')].every(row => {
        const edge = row.getBoundingClientRect().right;
        return [...row.querySelectorAll('*')].every(e => e.getBoundingClientRect().right <= edge);
      })"""
    assert page.evaluate(inside)
    assert page.evaluate(width) <= NARROW["width"]
    create_room(page, planned_server.base, "rummy", 2, name=LONG_NAME)
    add_bots(page)
    play_until_over(page)
    # the results whole inside the end card: nothing to scroll sideways to read them
    fits = page.evaluate(
        """() => { const box = document.querySelector('.table-scroll');
             const card = document.querySelector('#end-card').getBoundingClientRect();
             const cells = [...document.querySelectorAll('.results th, .results td')];
             return box.scrollWidth <= box.clientWidth
               && cells.every(c => c.getBoundingClientRect().right <= card.right); }"""
    )
    assert fits
    assert page.evaluate(width) <= NARROW["width"]
    assert not js_errors(page), page.js_errors
    page.context.close()


@pytest.fixture(scope="module")
def fast_clock_server() -> Iterator[Server]:
    """Turn clocks at 1/50 (45 s become 0.9 s): a seat that stops playing is soon *away*. An
    away seat is played after a second (as a person sees it: not at once) while another person
    plays on at the table; where every person is away, the room holds until one comes back."""
    with running_server("--away-delay", "1", clock_scale=0.02) as s:
        yield s


def test_idle_seat_played_by_the_clock_until_back(fast_clock_server: Server, browser: Any) -> None:
    """We stop playing: the clock plays our turns, after two timeouts the page says we are away,
    and as nobody else at the table is a person, that the game is paused; "I'm back" clears both
    and the game goes on."""
    page = new_page(browser)
    create_room(page, fast_clock_server.base, "rami51", 2)
    add_bots(page, "easy")
    page.wait_for_selector("[data-action=back]", timeout=20000)
    assert page.locator(".banner.away").count() == 1
    page.wait_for_selector(".banner.held", timeout=5000)
    assert "everyone at the table is away" in page.locator(".banner.held").inner_text()
    # the held clock is shown nowhere (not as a full bar), and nobody is said to be playing
    assert page.locator("[data-clock]").count() == 0
    status = page.locator("[data-status=turn]").inner_text()
    assert "is playing" not in status, status
    log = page.evaluate("() => window.rummykit.S.log.map(l => l.text)")
    assert any("ran out of time" in line for line in log), log
    tap(page, "[data-action=back]")
    page.wait_for_function("() => !window.rummykit.S.room.seats[window.rummykit.S.you].away")
    page.wait_for_selector(".banner.held", state="detached", timeout=5000)
    page.wait_for_function("() => window.rummykit.S.clock !== null", timeout=5000)
    assert not js_errors(page), page.js_errors
    page.context.close()


# how many moves the log holds after the current deal's line
SINCE_DEAL_JS = """() => { const log = window.rummykit.S.log;
  let i = log.length - 1; while (i >= 0 && !log[i].deal) i--; return log.length - 1 - i; }"""


def test_long_deal_keeps_its_line_first_in_the_log_panel(server: Server, browser: Any) -> None:
    """A deal of more lines than the log panel's 12 still shows its line, as the panel's first
    (then its newest moves): newest first, it used to be the first line to go."""
    page = new_page(browser)
    for _ in range(4):
        play_against_bots(page, server.base, "rummy", 2, level="easy")
        # draw and discard only, so the deal lasts; a bot may still go out: then another game
        for _turn in range(12):
            s = state(page)
            if s["over"] or page.evaluate(SINCE_DEAL_JS) > 13:
                break
            play_turn(page, passive=True)
            page.wait_for_function(
                """() => { const S = window.rummykit.S; const v = S.view;
                   return S.gameOver || (v && v.turn && v.turn.seat === S.you && !S.pending); }"""
            )
        if not state(page)["over"]:
            break
    assert page.evaluate(SINCE_DEAL_JS) > 13
    deal = page.evaluate("() => window.rummykit.S.view.deal")
    shown = page.locator(".log li")
    assert shown.count() == 12
    assert shown.first.inner_text() == f"Deal {deal}"
    assert shown.first.get_attribute("data-log-deal") == str(deal)
    # then the newest move: the line the log added last
    newest = page.evaluate("() => window.rummykit.S.log[window.rummykit.S.log.length - 1].text")
    assert shown.nth(1).inner_text() == newest
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_take_by_drag_then_return(server: Server, browser: Any) -> None:
    """Take the discard by dragging it into the hand (the card is marked as owed and the status
    says so), put it back with Return (devolver), then draw: all in Spanish."""
    page = new_page(browser, locale="es-ES")
    play_against_bots(page, server.base, "rummy", 2, {"opening": 51})
    s = state(page)
    top = page.locator("[data-action=pile]").get_attribute("data-top")
    assert "take" in s["can"] and top
    assert page.locator("[data-action=take]").inner_text().startswith("Tomar")
    assert drag(page, "[data-action=pile]", ".hand")
    wait_change(page, s["version"])
    s = state(page)
    assert s["owes"] == [top] and "return" in s["can"]
    assert page.locator(".hand-card.owed").count() >= 1
    assert "antes de descartar" in page.locator("[data-status=turn]").inner_text()
    assert page.locator("[data-action=return-btn]").inner_text() == "Devolver la carta"
    tap(page, "[data-action=return-btn]")
    wait_change(page, s["version"])
    s = state(page)
    assert s["phase"] == "draw" and "take" not in s["can"] and "draw" in s["can"]
    assert page.locator("[data-action=pile]").get_attribute("data-top") == top
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_take_and_return_on_a_phone(server: Server, browser: Any) -> None:
    """On a phone, in French (the longest words): once the discard is taken, Return is in the
    action bar and nothing sticks out sideways (beside the stock and the pile it pushed the
    melds and the page off the screen)."""
    page = new_page(browser, locale="fr-FR", viewport=PHONE)
    play_against_bots(page, server.base, "rummy", 2, {"opening": 51})
    s = state(page)
    assert "take" in s["can"]
    tap(page, "[data-action=take]")
    wait_change(page, s["version"])
    assert "return" in state(page)["can"]
    assert page.locator("[data-action=return-btn]").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_wrong_declaration_warned_and_refused_move_explained(server: Server, browser: Any) -> None:
    """Indian rummy: Declare with cards that are no valid declaration first warns (80 points);
    insisting with a group of three sends it, the server refuses it (13 cards must be shown) and
    the page says why, in Spanish; nothing changes."""
    page = new_page(browser, locale="es-ES")
    # easy bots never drop, so the deal lasts unless one declares before our turn
    play_against_bots(page, server.base, "indian", 2, {"format": "points"}, level="easy")
    s = state(page)
    tap(page, "[data-action=draw]")
    wait_change(page, s["version"])
    s = state(page)
    assert s["declaration"] is not None and s["declaration"]["valid"] is False
    assert page.locator("[data-declaration=invalid]").count() == 1
    select_cards(page, [i for i, _ in s["hand"][:3]])
    tap(page, "[data-action=group]")
    tap(page, "[data-action=declare]")
    page.wait_for_selector("#confirm[open]")
    assert page.locator("#confirm-title").inner_text() == "Esta declaración sería errónea"
    # what it costs, then why, as a sentence of its own (no lower-case clause in brackets)
    body = page.locator("#confirm-body").inner_text()
    cost = "Una declaración errónea cuesta 80 puntos y quedas fuera de la mano. "
    assert body.startswith(cost) and "(" not in body, body
    assert body[len(cost)].isupper() and body.endswith("."), body
    page.click("#confirm-ok")
    page.wait_for_selector("#toast:not([hidden])")
    text = page.locator("#toast").inner_text()
    # the engine's reason, in Spanish
    assert text.startswith("No permitido: una declaración muestra 13 cartas"), text
    assert state(page)["version"] == s["version"]
    assert len(state(page)["hand"]) == 14
    assert not js_errors(page), page.js_errors
    page.context.close()
