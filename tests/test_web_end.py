"""End screens, the keyboard focus and what screen readers are told (docs/web.md, *End
screens*): two people and a spectator at an Indian rummy table of two deals, each deal ended
by a drop, so every end comes when the test makes it come."""

from __future__ import annotations

from typing import Any

from tests.web_support import (
    MY_TURN_OR_OVER,
    Server,
    ends_seen,
    js_errors,
    mover_and_other,
    speech,
    tap,
    two_people_and_a_spectator,
    watch_ends,
    watch_speech,
)

# the live region's old words for an end, in English (the pages' language here)
END_WORDS = {"The deal is over", "Game over"}


def drop(page: Any) -> None:
    """Drop out of the deal on the page (its button, then the question's OK)."""
    page.wait_for_function(MY_TURN_OR_OVER)
    page.click("[data-action=drop]")
    page.click("#confirm-ok")


def focus_key(page: Any) -> str | None:
    """The ``data-key`` of the focused element, if it is still in the page's table."""
    key: str | None = page.evaluate(
        """() => { const a = document.activeElement;
                   return a && a.isConnected && a.closest('.table-view') ? a.dataset.key || null
                     : null; }"""
    )
    return key


def test_end_focus_with_a_dialog_open_and_a_spectator(server: Server, browser: Any) -> None:
    """Each end is said once (the focus on its title, no live announcement besides); an end
    that comes while the help is open takes the focus as the help closes; a spectator's focus,
    handed back when the end screen goes, is on the status line and stays there."""
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "indian", {"format": "deals"})
    pages = (ana, ben, watcher)
    for page in pages:
        watch_ends(page)
        watch_speech(page)

    # deal 1 ends by a drop; deal 2 follows after the server's short pause
    mover, _ = mover_and_other(ana, ben)
    drop(mover)
    for page in pages:
        page.wait_for_function(
            "() => { const v = window.rummykit.S.view; return v.deal === 2 && !!v.turn; }"
        )
        seen = ends_seen(page)
        assert [e["end"] for e in seen] == ["deal"], seen
        assert seen[0]["focus"] == "end-title", seen
        # the end screen gone, its focus is back on the table: a player's hand, and the
        # status line of the spectator, who has no hand
        after = str(seen[0]["after"])
        assert ("status" if page is watcher else "hand-card") in after, seen
    # the status line keeps the focus through the redraws that follow (a draw here)
    mover, other = mover_and_other(ana, ben)
    version = watcher.evaluate("() => window.rummykit.S.state.version")
    tap(mover, "[data-action=draw]")
    watcher.wait_for_function("v => window.rummykit.S.state.version > v", arg=version)
    assert focus_key(watcher) == "status"

    # the other player reads the help when the game ends: the focus stays in it, and the end
    # screen takes it as the help closes (not at some later redraw: none comes after the end)
    other.click("#help-btn")
    other.wait_for_selector("#help[open]")
    mover.wait_for_function(
        "() => window.rummykit.S.view.turn.phase !== 'draw' && !window.rummykit.S.pending"
    )
    drop(mover)
    other.wait_for_function("() => !!window.rummykit.S.gameOver")
    other.wait_for_selector("[data-end=game]")
    assert other.evaluate("() => !!document.activeElement.closest('#help')")
    other.evaluate(
        """() => { const help = document.getElementById('help');
             // where the focus is once the page's own "close" listeners have run
             window.helpClosed = new Promise((done) => help.addEventListener('close',
               () => setTimeout(() => done(document.activeElement.id)), { once: true })); }"""
    )
    other.keyboard.press("Escape")
    assert other.evaluate("() => window.helpClosed") == "end-title"
    for page in (mover, watcher):
        page.wait_for_function("() => !!window.rummykit.S.gameOver")
        assert page.evaluate("() => document.activeElement.id") == "end-title"

    # every end was said once on every page: the focus came to its title once, and the live
    # region never said it as well
    for page in pages:
        said = speech(page)
        assert said["end_title_focus"] == ["Deal 1 is over", "Game over"], said
        assert not END_WORDS & set(said["announced"]), said
        assert not js_errors(page), page.js_errors
        page.context.close()
