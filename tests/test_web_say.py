"""Quick messages at the table (docs/web.md, *Quick messages*): fixed phrases a seated person
sends, shown to each reader in their own language, and turned off in the settings."""

from __future__ import annotations

from typing import Any

from tests.web_support import Server, js_errors, two_people_and_a_spectator


def say(page: Any, phrase: str) -> None:
    """Say a phrase from the log panel's button and its dialog."""
    page.click("[data-action=say]")
    page.wait_for_selector("#choose[open]")
    page.click(f"#choose-body [data-value={phrase}]")


def chip_said(page: Any, seat: int) -> str | None:
    said: str | None = page.evaluate(
        "(s) => { const e = document.querySelector(`.seat-chip[data-seat='${s}'] .said`);"
        " return e ? e.dataset.said + '|' + e.textContent : null; }",
        seat,
    )
    return said


def log_lines(page: Any) -> list[str]:
    lines: list[str] = page.eval_on_selector_all(
        ".log li.said-line", "els => els.map(e => e.textContent)"
    )
    return lines


def test_quick_messages(server: Server, browser: Any) -> None:
    ana, ben, watcher = two_people_and_a_spectator(server, browser, "rummy")
    # Ben reads the page in Spanish: a phrase is shown in each reader's own language
    ben.select_option("#lang", "es")
    ben.wait_for_function("() => document.documentElement.lang === 'es'")
    assert watcher.query_selector("[data-action=say]") is None  # a spectator only watches

    say(ana, "good_luck")
    ben.wait_for_function("() => !!document.querySelector(\".seat-chip[data-seat='0'] .said\")")
    assert chip_said(ben, 0) == "good_luck|«¡Suerte!»"
    assert log_lines(ben) == ["Ana: «¡Suerte!»"]
    # the status line keeps telling the other's last move, not the message
    assert "Suerte" not in ben.inner_text(".status")
    watcher.wait_for_function("() => !!document.querySelector(\".seat-chip[data-seat='0'] .said\")")
    assert chip_said(watcher, 0) == "good_luck|“Good luck!”"
    ana.wait_for_function("() => document.querySelectorAll('.log li.said-line').length === 1")
    assert log_lines(ana) == ["You (Ana): “Good luck!”"]
    # Ben answers; the bubble goes from the chip after a few seconds, the log keeps the line
    say(ben, "thanks")
    ana.wait_for_function("() => !!document.querySelector(\".seat-chip[data-seat='1'] .said\")")
    assert chip_said(ana, 1) == "thanks|“Thanks!”"
    ana.wait_for_selector(".seat-chip[data-seat='1'] .said", state="detached", timeout=20000)
    assert log_lines(ana)[0] == "Ben: “Thanks!”"  # the newest first

    # Ben turns them off: Ana's next one reaches the spectator, not him
    ben.click("#settings-btn")
    ben.wait_for_selector("#settings[open]")
    ben.uncheck("#opt-quick")
    ben.keyboard.press("Escape")
    # the messages that reach Ben's page, counted before it handles them
    ben.evaluate(
        """() => { const c = window.rummykit.S.conn; const handle = c.onMessage;
                   window.saids = 0;
                   c.onMessage = (m) => {
                     if (m.type === "said") window.saids += 1;
                     handle(m);
                   }; }"""
    )
    say(ana, "well_played")
    watcher.wait_for_function(
        "() => document.querySelector(\".seat-chip[data-seat='0'] .said\")?.dataset.said"
        " === 'well_played'"
    )
    ben.wait_for_function("() => window.saids === 1")
    assert chip_said(ben, 0) is None and len(log_lines(ben)) == 2
    # too many in a row: the server refuses the fourth within ten seconds, and the page says so
    # (sent at once: the messages before are too far apart on a loaded machine to count)
    ana.evaluate(
        """() => { for (const p of ["oops", "bye", "hello", "thanks"])
                     window.rummykit.S.conn.send({ type: "say", phrase: p }, false); }"""
    )
    ana.wait_for_selector("#toast:not([hidden])")
    assert "Wait a few seconds" in ana.inner_text("#toast")
    for page in (ana, ben, watcher):
        assert not js_errors(page), page.js_errors
        page.context.close()
