"""The keyboard focus through redraws, and what screen readers are told while a game goes on
(docs/web.md, *Accessibility and comfort*): the focused node stays the same node when the page
is drawn again under it, so a screen reader does not read it again at every move; the status
line is no live region (its turn clock would be read every second); one's own clock is said
once as it runs low; a bot level chosen in the waiting room survives the room's redraws."""

from __future__ import annotations

from typing import Any

from tests.web_support import (
    Server,
    create_room,
    js_errors,
    mover_and_other,
    new_page,
    speech,
    tap,
    two_people_and_a_spectator,
    wait_change,
    watch_speech,
)


def seated_pair(server: Server, browser: Any, variant: str) -> tuple[Any, Any, Any]:
    """Ana and Ben at a two-player table, and a spectator, once the deal's first state is in."""
    pages = two_people_and_a_spectator(server, browser, variant)
    for page in pages:
        page.wait_for_function(
            "() => { const v = window.rummykit.S.view; return !!(v && v.turn); }"
        )
    return pages


def version(page: Any) -> int:
    v: int = page.evaluate("() => window.rummykit.S.state.version")
    return v


def wait_redraw(page: Any, since: int) -> None:
    wait_change(page, since)
    # the state is drawn in the same task as it is taken in; a frame later the page is settled
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def test_the_focused_node_is_kept_through_the_others_moves(server: Server, browser: Any) -> None:
    """A hand card holding the focus while the other player moves is the same node after the
    redraw, and it still works as the new drawing's card (one click, one selection: its
    listeners are the new ones, not both); the spectator's status line stays the same node
    while its words change, and is no live region."""
    ana, ben, watcher = seated_pair(server, browser, "rummy")
    mover, other = mover_and_other(ana, ben)
    other.evaluate(
        """() => { const card = document.querySelector('.hand .hand-card');
             card.focus(); window.kept = card; window.keptId = card.dataset.id; }"""
    )
    watcher.evaluate(
        """() => { const s = document.querySelector('.status');
             s.focus(); window.kept = s; window.keptText = s.textContent; }"""
    )
    for page in (other, watcher):
        watch_speech(page)
    before = version(other)
    before_watcher = version(watcher)
    tap(mover, "[data-action=draw]")
    wait_redraw(other, before)
    wait_redraw(watcher, before_watcher)

    assert other.evaluate(
        "() => document.activeElement === window.kept && window.kept.isConnected"
    ), "the focused hand card was drawn anew"
    # the kept card is the hand's card of the new drawing, in its place
    assert other.evaluate(
        """() => document.querySelectorAll(`.hand [data-id="${window.keptId}"]`).length === 1
             && document.querySelector(`.hand [data-id="${window.keptId}"]`) === window.kept"""
    )
    kept_id = other.evaluate("() => window.keptId")
    other.keyboard.press("Space")
    other.wait_for_function("id => window.rummykit.S.selected.has(id)", arg=kept_id)
    tap(other, f'[data-id="{kept_id}"]')
    other.wait_for_function(
        """id => window.rummykit.S.selected.size === 0 && document.querySelector(
             `[data-id="${id}"]`).getAttribute('aria-pressed') === 'false'""",
        arg=kept_id,
    )

    status = watcher.evaluate(
        """() => ({ same: document.activeElement === window.kept && window.kept.isConnected,
                   changed: window.kept.textContent !== window.keptText,
                   live: window.kept.getAttribute('aria-live'),
                   role: window.kept.getAttribute('role'),
                   count: document.querySelectorAll('.status').length })"""
    )
    assert status == {"same": True, "changed": True, "live": None, "role": None, "count": 1}, status
    # the move was said once, by the live region, on both pages
    for page in (other, watcher):
        said = speech(page)["announced"]
        assert len(said) == 1, said

    # the other's discard and the turn that comes with it are said as one text: a screen
    # reader may say only the last of two quick changes
    other.evaluate("() => { window.announced = []; }")
    before = version(other)
    mover.locator(".hand .hand-card:not([aria-label*='oker'])").first.click()
    tap(mover, "[data-action=discard]")
    wait_redraw(other, before)
    other.wait_for_function("() => window.announced.length > 0")
    other.wait_for_timeout(300)
    said = speech(other)["announced"]
    assert len(said) == 1 and " discarded " in said[0] and said[0].endswith(". Your turn"), said
    for page in (other, watcher):
        assert not js_errors(page), page.js_errors


def test_the_clock_running_low_is_said_once(server: Server, browser: Any) -> None:
    """One's own clock crossing ten seconds is announced once; a clock that arrives already
    below ten seconds (a reload, the turn's next state) says nothing, and nor does another
    seat's clock."""
    ana, ben, _ = seated_pair(server, browser, "rummy")
    mover, other = mover_and_other(ana, ben)
    for page in (mover, other):
        watch_speech(page)
    # the page's own clock, as a state would set it: 10.6 s left, then below 10 s
    set_clock = """left => { const S = window.rummykit.S;
        S.clock = { seat: S.you, endAt: performance.now() + left, duration: 45000 }; }"""
    mover.evaluate(set_clock, 10600)
    mover.wait_for_function("() => window.announced.length > 0", timeout=5000)
    mover.wait_for_timeout(1200)
    assert speech(mover)["announced"] == ["10 seconds left"]
    mover.evaluate(set_clock, 5000)
    other.evaluate(
        """() => { const S = window.rummykit.S;
             S.clock = { seat: 1 - S.you, endAt: performance.now() + 10400, duration: 45000 }; }"""
    )
    mover.wait_for_timeout(1200)
    assert speech(mover)["announced"] == ["10 seconds left"]
    assert speech(other)["announced"] == []
    for page in (mover, other):
        assert not js_errors(page), page.js_errors


def test_a_chosen_bot_level_survives_the_waiting_rooms_redraws(
    server: Server, browser: Any
) -> None:
    """The level picked for a seat is kept (and the focused select with it) when the room is
    drawn again as someone comes to watch, and the bot that joins is of that level."""
    ana = new_page(browser)
    code = create_room(ana, server.base, "rummy", 3, name="Ana")
    ana.select_option("[data-level-seat='1']", "hard")
    ana.evaluate(
        """() => { const sel = document.querySelector("[data-level-seat='1']");
             sel.focus(); window.kept = sel; }"""
    )
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/r/{code}")
    ana.wait_for_function(
        "() => window.rummykit.S.room && window.rummykit.S.room.spectators === 1"
    )
    ana.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
    kept = ana.evaluate(
        """() => { const sel = document.querySelector("[data-level-seat='1']");
             return { value: sel.value, same: sel === window.kept,
                      focused: document.activeElement === sel }; }"""
    )
    assert kept == {"value": "hard", "same": True, "focused": True}, kept
    ana.click("[data-action=add-bot][data-seat='1']")
    ana.wait_for_selector(".seat-row.bot[data-seat='1']")
    assert "hard" in ana.locator(".seat-row[data-seat='1']").inner_text()
    # seat 3's select was never touched: the default level
    assert ana.locator("[data-level-seat='2']").input_value() == "medium"
    assert not js_errors(ana), ana.js_errors


def test_the_lobby_keeps_what_is_being_typed(server: Server, browser: Any) -> None:
    """A lobby drawn again (a reconnection, the game list arriving) keeps the field being typed
    in, caret and all, and the text of a field typed in earlier; the forms send what the page's
    fields hold."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    page.fill("#name", "Zoé")
    page.click("#code")
    page.keyboard.type("abc")
    page.keyboard.press("ArrowLeft")
    page.evaluate(
        "() => { window.kept = document.activeElement; window.rummykit.actions.render(); }"
    )
    kept = page.evaluate(
        """() => { const code = document.getElementById('code');
             return { same: code === window.kept && document.activeElement === code,
                      value: code.value, caret: code.selectionStart,
                      name: document.getElementById('name').value }; }"""
    )
    assert kept == {"same": True, "value": "abc", "caret": 2, "name": "Zoé"}, kept
    page.keyboard.type("d")
    page.evaluate("() => window.rummykit.actions.render()")
    assert page.input_value("#code") == "abdc"
    # the name typed before the redraws is the one the room is made with
    page.click("[data-action=create]")
    page.wait_for_selector(".seat-row.mine")
    assert "Zoé" in page.locator(".seat-row.mine").inner_text()
    assert not js_errors(page), page.js_errors
