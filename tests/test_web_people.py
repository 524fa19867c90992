"""Two people at one table in two browser contexts, a spectator, and reconnection (docs/web.md)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.web_support import (
    MY_TURN_OR_OVER,
    PHONE,
    How,
    Server,
    add_bots,
    create_room,
    js_errors,
    new_page,
    play_turn,
    settle,
    state,
    tap,
)

HOWS = [How(draw="tap", discard="drag"), How(draw="key", discard="key")]


def test_two_people_play_a_whole_game(server: Server, browser: Any) -> None:
    """Ana (desktop, English) and Ben (phone, French) play a one-deal Indian rummy game: turns
    pass between the two pages, each sees the other's moves, Ben drops out (the cost shown is 40
    once he has drawn), both see the end, a spectator watches, and both ask for a rematch."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "indian", 2, {"format": "points"}, name="Ana")
    # Ana copies the table's link (to send it) and Ben opens it on a phone, takes the other seat
    ana.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ana.click("[data-action=copy-link]")
    ana.wait_for_selector("#toast:not([hidden])")
    link = ana.evaluate("() => navigator.clipboard.readText()")
    assert link == f"{server.base}/r/{code}", link
    ben = new_page(browser, locale="fr-FR", viewport=PHONE)
    ben.goto(link)
    ben.wait_for_selector("[data-action=sit]")
    ben.evaluate("() => { window.rummykit.S.prefs.name = 'Ben'; }")
    ben.click("[data-action=sit]")
    ana.wait_for_selector(".table-view")
    ben.wait_for_selector(".table-view")
    # each sees the other by name, and only their own hand
    assert "Ben" in ana.locator(".seat-chip").inner_text()
    assert "Ana" in ben.locator(".seat-chip").inner_text()
    assert ana.locator(".hand-card").count() == 13
    assert ben.locator(".hand-card").count() == 13
    # a spectator sees the table but no hand
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    watcher.wait_for_selector(".table-view[data-seat=spectator]")
    assert watcher.locator(".hand-card").count() == 0
    assert watcher.locator(".seat-chip").count() == 2
    ana.wait_for_function("() => window.rummykit.S.room.spectators === 1")
    ana.wait_for_selector("[data-spectators='1']")  # the players see they are watched
    ben.wait_for_selector("[data-spectators='1']")
    assert ben.locator("[data-spectators]").inner_text() == "1 spectateur"
    # its eye is drawn, not left to an emoji font the machine may not have (an empty box then)
    eye = ben.locator("[data-spectators] .eye svg").bounding_box()
    assert eye and eye["width"] >= 12 and eye["height"] >= 12, eye

    # two turns each: whoever is to move plays through the page; the other page follows
    turns = 0
    while turns < 4:
        seat = ana.evaluate("() => window.rummykit.S.view.turn.seat")
        mover, other = (
            (ana, ben) if seat == ana.evaluate("() => window.rummykit.S.you") else (ben, ana)
        )
        mover.wait_for_function(MY_TURN_OR_OVER)
        s_ana, s_ben = state(ana), state(ben)
        turns += 1
        version = s_ana["version"]
        if mover is ben and turns == 3:
            # Ben takes Ana's discard (by key) and keeps it: Indian rummy has no duty to lay it
            assert "take" in s_ben["can"], s_ben
            ben.keyboard.press("t")
            ben.wait_for_function("v => window.rummykit.S.state.version > v", arg=version)
            # the card taken is the new one in his hand (at its sorted place: the hand was
            # sorted at the deal), and Ana's page shows it on his chip
            fresh = "() => [...window.rummykit.S.arrangement.fresh].map(id => id.split('#')[0])"
            assert ben.evaluate(fresh) == [s_ben["pile"][-1]]
            ana.wait_for_selector(f".seat-chip .badge.took[data-took='{s_ben['pile'][-1]}']")
        play_turn(mover, HOWS[turns % len(HOWS)], passive=True)
        top = mover.locator("[data-action=pile]").get_attribute("data-top")
        other.wait_for_function("v => window.rummykit.S.state.version > v + 1", arg=version)
        assert other.locator("[data-action=pile]").get_attribute("data-top") == top
        assert other.locator(".seat-chip").get_attribute("data-cards") == "13"
    # Ben drops out on his turn, after drawing: the page shows the cost before he confirms
    ben.wait_for_function(MY_TURN_OR_OVER)
    tap(ben, "[data-action=draw]")
    # the drop is on offer before the draw too: wait for the draw's state, not for the button
    ben.wait_for_function(
        "() => window.rummykit.S.view.turn.phase !== 'draw' && !window.rummykit.S.pending"
    )
    assert "40" in ben.locator("[data-action=drop]").inner_text()
    ben.click("[data-action=drop]")
    assert "40" in ben.locator("#confirm-body").inner_text()
    ben.click("#confirm-ok")
    for page in (ana, ben, watcher):
        page.wait_for_selector("[data-end=game]")
    # the end takes the keyboard focus on its title (read out as the dialog's name with its
    # summary as the description), for the players and the spectator alike
    for page in (ana, ben, watcher):
        assert page.evaluate("() => document.activeElement.id") == "end-title"
        title = page.locator("#end-title").inner_text()
        assert page.get_by_role("dialog", name=title).count() == 1
    # the winner is told so in the second person, the others read her name
    assert ana.locator("[data-winner]").inner_text() == "You win the game!"
    assert "Ana" in ben.locator("[data-winner]").inner_text()
    assert ana.locator("[data-penalty='1']").inner_text() == "40"
    # the hands shown at the end mark their wild cards (the deal's wild rank) as the hand does
    wild = ana.evaluate(
        """async () => { const c = await import('/static/js/cards.js');
             const v = window.rummykit.S.view; const w = c.rankNumber(v.wild_rank);
             const shown = v.results[v.results.length - 1].hands.flat();
             return [shown.filter((x) => c.parseCard(x).rank === w).length,
                     document.querySelectorAll('.end-hand .card.wild').length]; }"""
    )
    assert wild[0] == wild[1], wild
    # the end screen can be set aside, by keyboard, to see the table it covers, and brought back
    under = (
        "() => { const c = document.querySelector('.hand-card').getBoundingClientRect();"
        " return !!document.elementFromPoint(c.x + c.width / 2, c.y + c.height / 2)"
        ".closest('.hand-card'); }"
    )
    assert not ana.evaluate(under)
    ana.focus("[data-action=peek]")
    assert ana.locator("[data-action=peek]").inner_text() == "Show the table"
    ana.keyboard.press("Enter")
    ana.wait_for_selector(".overlay.peek")
    assert ana.evaluate(under)
    assert ana.locator("[data-end=game]").is_visible()
    assert ana.locator(".results").count() == 0
    assert ana.evaluate("() => document.activeElement.dataset.action") == "peek"
    assert ana.locator("[data-action=peek]").inner_text() == "Show the results"
    # the bar keeps Rematch: the game is over, so it can be asked for without the results
    assert ana.locator(".overlay.peek [data-action=rematch]").inner_text() == "Rematch"
    ana.keyboard.press("Enter")
    ana.wait_for_selector(".overlay:not(.peek) .results")
    assert not ana.evaluate(under)
    assert ben.locator("[data-action=peek]").inner_text() == "Voir la table"
    # a spectator's bar has no Rematch: only the players may ask for one
    watcher.click("[data-action=peek]")
    watcher.wait_for_selector(".overlay.peek")
    assert watcher.locator("[data-action=rematch]").count() == 0
    # rematch: Ana asks from the bar, the results still set aside
    ana.click("[data-action=peek]")
    ana.click(".overlay.peek [data-action=rematch]")
    ben.wait_for_function("() => window.rummykit.S.room.seats.some(s => s.rematch)")
    assert "Ana" in ben.locator("#end-card").inner_text()
    ana.wait_for_selector(".overlay.peek [data-action=rematch][disabled]")
    assert ana.locator("[data-action=rematch]").inner_text() == "Waiting for the others…"
    # the bar set aside says who asked, as the whole screen does: to the spectator (watching
    # with the results set aside), to Ana herself, and to Ben in French once he sets them aside
    asked = ".overlay.peek [data-rematch-who='0']"
    watcher.wait_for_selector(asked)
    assert watcher.locator(asked).inner_text() == "Rematch asked by: Ana"
    assert ana.locator(asked).inner_text() == "Rematch asked by: You (Ana)"
    ben.click("[data-action=peek]")
    assert ben.locator(asked).inner_text() == "Revanche demandée par\u00a0: Ana"
    ben.click("[data-action=peek]")
    ben.wait_for_selector(".overlay:not(.peek) .results")
    # a reload after the end still shows it, with the record to download and her request kept
    ana.reload()
    ana.wait_for_selector("[data-end=game]")
    assert ana.locator("[data-winner]").inner_text() == "You win the game!"
    href = ana.locator("[data-action=record]").get_attribute("href")
    assert href == f"/records/{code}-1.json"
    with urllib.request.urlopen(server.base + href, timeout=5) as r:
        assert json.load(r)["variant"] == "indian"
    assert ana.locator(".overlay:not(.peek) [data-action=rematch]").is_disabled()
    # Ben asks too: a new game starts in the same room
    ben.click("[data-action=rematch]")
    for page in (ana, ben):
        page.wait_for_function(
            "() => { const S = window.rummykit.S;"
            " return S.room.game === 2 && !S.gameOver && S.state.game === 2; }"
        )
        page.wait_for_selector(".hand-card")
        # the end screen gone, the focus it held is back on the table: the hand
        assert page.evaluate("() => !!document.activeElement.closest('.hand')")
        # the new game's log holds only its first deal's line: no one has moved yet
        assert page.evaluate("() => window.rummykit.S.log.map(l => l.deal)") == [1]
        assert page.locator(".log li").all_inner_texts() == ["Deal 1" if page is ana else "Donne 1"]
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()


def test_reconnects_after_reload_and_after_a_server_restart(server: Server, browser: Any) -> None:
    page = new_page(browser)
    code = create_room(page, server.base, "rummy", 2, name="Ana")
    add_bots(page)
    page.wait_for_function(MY_TURN_OR_OVER)
    # arrange a group of two cards: the arrangement survives a reload
    ids = [i for i, _ in state(page)["hand"][:2]]
    for card_id in ids:
        page.locator(f".hand-card[data-id='{card_id}']").click()
    page.click("[data-action=group]")
    grouped = sorted(t for _, t in state(page)["hand"][:2])
    hand_before = sorted(t for _, t in state(page)["hand"])
    log_js = "() => window.rummykit.S.log.map(l => l.text)"
    log_before = page.evaluate(log_js)
    lines_before = len(page.console_lines)
    page.reload()
    page.wait_for_selector(".hand-card")
    assert page.url.endswith(f"/r/{code}")
    assert sorted(t for _, t in state(page)["hand"]) == hand_before
    # the deal's moves are told again from its history, as the page had told them
    assert page.evaluate(log_js) == log_before
    # nothing refused in the console (a vibration before any tap is), its last lines included
    settle(page)
    errors = [c for c in page.console_lines[lines_before:] if c.startswith("error")]
    assert not errors, errors
    assert page.locator(".group:not(.loose)").count() == 1
    assert (
        sorted(
            c.get_attribute("data-card")
            for c in page.locator(".group:not(.loose) .hand-card").all()
        )
        == grouped
    )
    assert page.evaluate("() => window.rummykit.S.you") == 0
    # the server goes away and comes back: the page says so, reconnects and resumes by itself
    page.evaluate("""() => { window.seen = [];
      setInterval(() => window.seen.push(window.rummykit.S.status), 20); }""")
    server.restart()
    page.wait_for_function("() => window.seen.includes('reconnecting')", timeout=10000)
    page.wait_for_function(
        "() => window.rummykit.S.status === 'online' && window.rummykit.S.you === 0", timeout=20000
    )
    page.wait_for_function(MY_TURN_OR_OVER)
    if not state(page)["over"]:
        v = state(page)["version"]
        play_turn(page, How(draw="key", discard="key"))
        assert state(page)["version"] > v
    assert not js_errors(page), page.js_errors
    page.context.close()
