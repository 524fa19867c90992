"""The page under its own Content-Security-Policy (``SecurityHeaders`` in server/websec.py): no
inline script or style attribute is needed, so the browser refuses nothing the page does, and
the styles the page sets from numbers (the lobby's fanned cards, the opening meter) still
apply. A style written as an attribute (``style="width:40%"``) was refused by the policy and
the meter stayed empty."""

from __future__ import annotations

from typing import Any

from tests.web_support import js_errors, new_page, play_against_bots

#: Every policy violation the page meets, kept by the page itself from its first script on.
WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`
  );
});"""


def test_the_page_does_nothing_its_policy_refuses(server: Any, browser: Any) -> None:
    page = new_page(browser)
    page.add_init_script(WATCH)
    answer = page.goto(server.base + "/")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "style-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    page.wait_for_selector(".hero-card")
    # the fanned cards of the lobby: each placed by its own --i
    lefts = page.eval_on_selector_all(".hero-card", "cs => cs.map(c => getComputedStyle(c).left)")
    assert len(set(lefts)) == len(lefts) > 1, lefts
    play_against_bots(page, server.base, "rummy", 2)  # the WebSocket under connect-src
    # no points yet draws it 0 wide (hidden): attached is enough; a refused style has no width
    page.wait_for_selector(".meter-fill", state="attached")
    width = page.eval_on_selector(".meter-fill", "e => e.style.width")
    assert width.endswith("%"), width
    page.locator("#help-btn").click()  # the help's markup is set as HTML
    page.wait_for_selector("#help-body kbd")
    assert not js_errors(page), page.js_errors
    assert page.evaluate("() => window.__violations") == []
    assert not [line for line in page.console_lines if "Content Security Policy" in line]
    page.context.close()
