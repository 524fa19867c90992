"""What a hunt through the page on touch screens, and for people who need it to adapt, found,
each kept: a double tap on a button that made a move making a second move with the control the
redraw put under the finger; a card lifted by a hover that a phone keeps after a tap, and
transitions left running under ``prefers-reduced-motion``; in forced colours (Windows' high
contrast) the selected cards, the stock one may press, the bars of the clock and of the
opening meter and the player to move shown by nothing but the colours the system replaces."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from tests.test_web_rami import DRAW, _finish
from tests.web_support import js_errors, play_against_bots, state, wait_change, watched_page

# What the page sends: the actions, in order (set before the page's own code).
SENT_JS = """(() => { window.sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const m = JSON.parse(data); if (m.type === 'action') window.sent.push(m.action); }
    catch (e) { /* not ours to judge */ }
    return send.call(this, data);
  };
})();"""

# Every control one may tap smaller than WCAG 2.5.8's 24 by 24 CSS px, and the page's width
# beyond the screen's (a sideways scroll).
TARGETS_JS = """() => {
  const small = [...document.querySelectorAll('button, a[href], select, input, summary')]
    .filter((e) => !e.closest('.visually-hidden, [hidden], dialog:not([open])') && e.offsetParent)
    .map((e) => [e.dataset.action || e.dataset.id || e.textContent.trim().slice(0, 20),
                 e.getBoundingClientRect()])
    .filter(([, r]) => r.width && (r.width < 24 || r.height < 24))
    .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
  return { small, sideways: document.documentElement.scrollWidth - innerWidth };
}"""


def touch_page(browser: Any, width: int, height: int, locale: str = "en-US", **options: Any) -> Any:
    """A page of a phone or tablet: touch, a mobile viewport (no hover), two device pixels a
    CSS pixel."""
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        locale=locale,
        **options,
    )
    return watched_page(ctx)


def centre(page: Any, selector: str, scroll: bool = True) -> tuple[float, float]:
    if scroll:
        page.locator(selector).first.scroll_into_view_if_needed()
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def second_tap(page: Any, x: float, y: float) -> None:
    """The second tap of a double tap: a press the browser counts as the second (the click's
    ``detail`` 2, as Chromium counts two quick taps of a finger at one place). Made with the
    press's count given, not with two taps timed: the first tap's move and redraw come between,
    and on a busy machine they could outlast the platform's double-tap time."""
    page.mouse.move(x, y)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)


def finger_drag(page: Any, source: str, target: str) -> None:
    """A finger's drag from one element to another (touch events, as a phone sends them: the
    browser decides whether the page scrolls or the page's pointer events follow the finger)."""
    page.evaluate("() => scrollTo(0, 0)")
    (ax, ay), (bx, by) = centre(page, source, scroll=False), centre(page, target, scroll=False)
    assert 0 < ay < page.viewport_size["height"] and 0 < by < page.viewport_size["height"]
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": ax, "y": ay}]})
    for i in range(1, 13):
        point = {"x": ax + (bx - ax) * i / 12, "y": ay + (by - ay) * i / 12}
        cdp.send(touch, {"type": "touchMove", "touchPoints": [point]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_the_stock_and_the_pile_dragged_by_a_finger(server: Any, browser: Any) -> None:
    """The stock or the pile dragged into the hand draws or takes: with a finger the browser
    took the drag for a scroll of the page and cancelled it (only a mouse could), since the
    piles, unlike the hand's cards, let the page pan."""
    page = touch_page(browser, 390, 844, locale="es-ES")
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    assert "take" in s["can"], s
    finger_drag(page, "[data-action=pile]", ".hand")
    wait_change(page, s["version"])
    s = state(page)
    assert s["phase"] == "play" and "return" in s["can"], s
    # given back with its key: a tap made at once after a synthetic drag is taken by the
    # emulated touch screen for the second tap of a double tap, and no click comes
    page.keyboard.press("r")
    wait_change(page, s["version"])
    s = state(page)
    assert s["phase"] == "draw", s
    finger_drag(page, "[data-action=draw-stock]", ".hand")
    wait_change(page, s["version"])
    s = state(page)
    assert s["phase"] == "play" and "return" not in s["can"], s
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_double_tap_makes_one_move(server: Any, browser: Any) -> None:
    """On a 320 px phone: Take tapped twice took the discard and gave it back (Return comes
    where Take was), and Draw tapped twice with a card selected drew and discarded that card
    (Discard, enabled by the selection, comes where Draw was). The second tap of a double tap
    after a move is no move; single taps right after still are. Every control is at least
    24 by 24 px, and nothing scrolls sideways."""
    page = touch_page(browser, 320, 568)
    page.add_init_script(SENT_JS)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    assert "take" in s["can"] and "draw" in s["can"], s
    targets = page.evaluate(TARGETS_JS)
    assert targets == {"small": [], "sideways": 0}, targets

    x, y = centre(page, "[data-action=take]")
    page.touchscreen.tap(x, y)
    wait_change(page, s["version"])
    assert page.locator("[data-action=return-btn]").count() == 1
    second_tap(page, x, y)
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.evaluate("() => window.sent") == ["take"]
    s = state(page)
    assert s["phase"] == "play" and "return" in s["can"], s

    # single taps right after still play: Return, then Draw with a card selected
    page.locator("[data-action=return-btn]").tap()
    wait_change(page, s["version"])
    s = state(page)
    chosen = s["hand"][0][0]
    page.locator(f".hand-card[data-id='{chosen}']").tap()
    page.wait_for_function("() => window.rummykit.S.selected.size === 1")
    x, y = centre(page, "[data-action=draw]")
    page.touchscreen.tap(x, y)
    wait_change(page, s["version"])
    assert page.locator("[data-action=discard]:not([disabled])").count() == 1
    second_tap(page, x, y)
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.evaluate("() => window.sent") == ["take", "return", "draw"]
    s = state(page)
    assert s["myTurn"] and s["phase"] == "play", s
    assert chosen in [card_id for card_id, _ in s["hand"]]
    targets = page.evaluate(TARGETS_JS)
    assert targets == {"small": [], "sideways": 0}, targets

    page.locator("[data-action=discard]").tap()
    wait_change(page, s["version"])
    assert page.evaluate("() => window.sent")[-1].startswith("discard ")
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_a_double_tap_on_drop_is_asked_and_not_answered(server: Any, browser: Any) -> None:
    """Indian rummy's Drop asks first (it costs 20 points); on a phone its question's
    *Drop (−20)* lies where Drop was tapped, and the second tap of a double tap answered it:
    the player dropped out of the deal without being asked. The second tap after a tap that
    opened a question is dropped, as after one that made a move."""
    page = touch_page(browser, 390, 844)
    page.add_init_script(SENT_JS)
    play_against_bots(page, server.base, "indian", 2)
    assert "drop" in state(page)["can"]
    x, y = centre(page, "[data-action=drop]")
    page.touchscreen.tap(x, y)
    page.wait_for_selector("#confirm[open]")
    # the second tap lands on the answer: where Drop was, on the phones it was seen on (the
    # table's layout moves it by a few pixels from one change to the next, so the test taps
    # the answer itself; the press is counted as a second one all the same)
    box = page.locator("#confirm-ok").bounding_box()
    assert box
    second_tap(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.locator("#confirm[open]").count() == 1
    assert page.evaluate("() => window.sent") == []
    page.locator("#confirm-cancel").tap()
    page.wait_for_selector("#confirm:not([open])", state="attached")
    assert page.evaluate("() => window.sent") == [] and "drop" in state(page)["can"]
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_no_hover_lift_and_no_motion_on_a_touch_screen(server: Any, browser: Any) -> None:
    """A phone keeps :hover on the last thing tapped: a card deselected stayed lifted by the
    hover's 4 px, as if half chosen; hover effects are for screens with a hover. Under
    ``prefers-reduced-motion`` nothing moves by a transition or an animation (the clock's bar
    and the Open button stopped, but every tap slid the hand's cards)."""
    page = touch_page(browser, 360, 740, reduced_motion="reduce")
    play_against_bots(page, server.base, "rami51", 4)
    card = ".hand-card:not(.selected)"
    page.locator(card).first.scroll_into_view_if_needed()
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": card})["nodeId"]
    cdp.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": ["hover"]})
    assert page.evaluate("s => document.querySelector(s).matches(':hover')", card)
    # where a transition runs (motion not reduced), the lift it ends at
    lift = page.evaluate(
        """async (s) => { const e = document.querySelector(s);
             await Promise.all(e.getAnimations().map((a) => a.finished));
             return getComputedStyle(e).transform; }""",
        card,
    )
    assert lift in ("none", "matrix(1, 0, 0, 1, 0, 0)"), lift
    cdp.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": []})

    page.locator(card).first.tap()
    page.wait_for_function("() => window.rummykit.S.selected.size === 1")
    moving = page.evaluate(
        """() => [...document.querySelectorAll('*')].flatMap((e) =>
             [null, '::before', '::after'].map((p) => [e, p, getComputedStyle(e, p)]))
           .filter(([, , cs]) => cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0)
                              || cs.animationName !== 'none')
           .map(([e, p, cs]) => `${e.tagName}.${e.className}${p || ''}: ${cs.transitionProperty}`
                                + ` ${cs.transitionDuration} ${cs.animationName}`)"""
    )
    assert moving == [], moving
    assert not js_errors(page), page.js_errors
    page.context.close()


# In forced colours: what tells each thing apart, as the page draws it. Canvas is measured on an
# element of the system's colour, since the page's own colours are replaced.
FORCED_JS = """() => {
  const probe = document.createElement('div');
  probe.style.background = 'Canvas';
  document.body.append(probe);
  const canvas = getComputedStyle(probe).backgroundColor;
  probe.remove();
  const css = (sel) => getComputedStyle(document.querySelector(sel));
  const line = (sel) => { const cs = css(sel); return `${cs.outlineStyle} ${cs.outlineWidth}`; };
  const chip = document.querySelector('.seat-chip');
  chip.classList.remove('turn');
  const idleChip = line('.seat-chip');
  chip.classList.add('turn');
  const turnChip = line('.seat-chip');
  chip.classList.remove('turn');
  const suits = (cls) => [...document.querySelectorAll(`.hand-card.${cls} .suit`)]
    .map((e) => [e.textContent, getComputedStyle(e).color, e.getBoundingClientRect().width > 0]);
  return {
    canvas,
    selected: line('.hand-card.selected'),
    unselected: line('.hand-card:not(.selected)'),
    stockLive: line('.stack.stock.live .card'),
    clockBar: css('.status .clock-bar span').backgroundColor,
    meterFill: css('.meter-fill').backgroundColor,
    idleChip, turnChip,
    red: suits('suit-h').concat(suits('suit-d')),
    black: suits('suit-s').concat(suits('suit-c')),
  };
}"""


def test_forced_colours_keep_what_colour_alone_showed(server: Any, browser: Any) -> None:
    """Windows' high contrast replaces the page's colours and drops its shadows: the selected
    cards were told by their lift alone, the stock one may draw from, the player to move and
    the keyboard's focus by nothing, and the clock's and the opening meter's bars were white on
    white. Each has an
    outline or a fill of the system's colours now; the suits, all of the text colour there,
    are told by their symbols, which stay."""
    page = touch_page(browser, 390, 844, forced_colors="active", color_scheme="dark")
    play_against_bots(page, server.base, "rami51", 2)
    s = state(page)
    assert "draw" in s["can"] and not s["opened"], s
    page.locator(f".hand-card[data-id='{s['hand'][0][0]}']").tap()
    page.wait_for_function("() => window.rummykit.S.selected.size === 1")
    seen = page.evaluate(FORCED_JS)
    assert seen["selected"].startswith("solid"), seen
    assert seen["unselected"].startswith("none"), seen
    assert seen["stockLive"].startswith("solid"), seen
    assert seen["turnChip"].startswith("solid") and seen["idleChip"].startswith("none"), seen
    assert seen["clockBar"] != seen["canvas"] and seen["meterFill"] != seen["canvas"], seen
    for text, _, shown in seen["red"] + seen["black"]:
        assert text in "♠♥♦♣" and text and shown, seen
    # the keyboard's place: the page's ring is a box-shadow, which forced colours drop
    page.locator("[data-action=draw]").focus()
    page.keyboard.press("Tab")
    ring = page.evaluate(
        """() => { const a = document.activeElement; const cs = getComputedStyle(a);
                   return [a.dataset.action, a.matches(':focus-visible'), cs.outlineStyle]; }"""
    )
    assert ring[1:] == [True, "solid"], ring
    assert not js_errors(page), page.js_errors
    page.context.close()


# A notched phone held sideways (the notch on one side, the rounded corners, the home bar).
INSETS = {"top": 0, "right": 47, "bottom": 21, "left": 47}

# Every control and card drawn (the skip link, parked off the screen, aside) outside the safe
# area's sides; the toast's foot; the top bar's edges; the page's width beyond the screen's.
UNSAFE_JS = """([left, right, bottom]) => {
  const out = [...document.querySelectorAll('button, select, a[href], .card')]
    .filter((e) => e.offsetParent && !e.closest('.visually-hidden') && !e.matches('.skip'))
    .map((e) => [e.dataset.action || e.dataset.id || e.className, e.getBoundingClientRect()])
    .filter(([, r]) => r.left < left || r.right > innerWidth - right)
    .map(([name, r]) => `${name} ${Math.round(r.left)}-${Math.round(r.right)}`);
  const toast = document.getElementById('toast').getBoundingClientRect();
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  return { out, toastFoot: innerHeight - toast.bottom >= bottom, barEdges: [bar.left, bar.right],
           sideways: document.documentElement.scrollWidth - innerWidth };
}"""


def test_a_notched_phone_held_sideways_keeps_the_page_in_its_safe_area(
    server: Any, browser: Any
) -> None:
    """The page asks to be laid under a notched phone's edges (``viewport-fit=cover``) and
    kept nothing out of them: held sideways, the name, the help button, the hand's tools and
    cards went under the notch and the rounded corners, the toast near the home bar. Its
    contents keep to the safe area now (``env(safe-area-inset-*)``), the top bar's colour
    alone runs to the edges."""
    page = touch_page(browser, 844, 390, locale="fr-FR")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": INSETS})
    play_against_bots(page, server.base, "rami51", 2)
    page.evaluate(
        """async () => { const ui = await import('/static/js/ui.js');
             ui.toast('Un message assez long pour traverser tout l’écran d’un téléphone', 'error',
                      60000); }"""
    )
    sides = [INSETS["left"], INSETS["right"], INSETS["bottom"]]
    for where in ("0", "document.body.scrollHeight"):
        page.evaluate(f"() => scrollTo(0, {where})")
        seen = page.evaluate(UNSAFE_JS, sides)
        assert seen == {"out": [], "toastFoot": True, "barEdges": [0, 844], "sideways": 0}, seen
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_the_readers_default_font_size_is_followed(server: Any, browser: Any) -> None:
    """A reader who set a larger default font size (the browser's settings: 24 px, Chrome's
    "very large") got the page's 16 px all the same: every size was in px. The sizes are in
    rem now, so the text grows, and on a 320 px French phone the lobby's form (its name field
    was as wide as twenty letters of the larger font) and the table stay within the screen."""
    page = touch_page(browser, 320, 568, locale="fr-FR")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    page.goto(server.base + "/")
    page.wait_for_selector("[data-action=create]:not([disabled])")
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.panel h2')).fontSize"
    ) == ("30px")
    wide = "() => document.querySelector('.create').getBoundingClientRect().right"
    assert page.evaluate(wide) <= 320 and page.evaluate(TARGETS_JS)["sideways"] == 0
    play_against_bots(page, server.base, "rami51", 4)
    sizes = page.evaluate(
        """() => ['.status', '[data-action=draw]', '.stack-label', '.log']
             .map((s) => getComputedStyle(document.querySelector(s)).fontSize)"""
    )
    assert sizes == ["24px", "24px", "18px", "19.5px"], sizes
    targets = page.evaluate(TARGETS_JS)
    assert targets == {"small": [], "sideways": 0}, targets
    assert not js_errors(page), page.js_errors
    page.context.close()


LOG_SCROLL = "() => document.querySelector('.log').scrollTop"


def test_the_log_keeps_its_place_through_redraws_and_a_turn_of_the_phone(
    server: Any, browser: Any
) -> None:
    """The table is drawn anew at every move of the others and every card tapped, and the log
    (newest first, scrolling within 260 px at a phone's foot) went back to its newest line
    each time: reading older moves, a reader lost their place. Its scroll is kept now; and a
    phone turned sideways mid-turn keeps the cards selected and the one focused."""
    page = touch_page(browser, 390, 844)
    play_against_bots(page, server.base, "rummy", 2)
    page.evaluate(
        """() => { const S = window.rummykit.S;
             S.log = [...S.log, ...Array.from({ length: 12 }, (_, i) =>
               ({ seat: 1, text: `Bot 2 (medium) drew from the stock and thought, ${i}` }))];
             window.rummykit.actions.render(); }"""
    )
    log = page.locator(".log")
    log.scroll_into_view_if_needed()
    room = (
        "() => { const l = document.querySelector('.log');"
        " return l.scrollHeight - l.clientHeight; }"
    )
    assert page.evaluate(room) > 60, page.evaluate(room)
    page.evaluate("() => { document.querySelector('.log').scrollTop = 60; }")
    assert page.evaluate(LOG_SCROLL) == 60
    hand = state(page)["hand"]
    first, second = (f".hand-card[data-id='{card_id}']" for card_id, _ in hand[:2])
    page.locator(first).tap()
    page.wait_for_function("() => window.rummykit.S.selected.size === 1")
    assert page.evaluate(LOG_SCROLL) == 60
    page.locator(second).tap()
    page.wait_for_function("() => window.rummykit.S.selected.size === 2")
    page.locator(second).focus()

    page.set_viewport_size({"width": 844, "height": 390})
    turned = page.evaluate(LOG_SCROLL)
    page.evaluate("() => window.rummykit.actions.render()")
    assert page.evaluate(LOG_SCROLL) == turned
    assert page.locator(".hand-card.selected").count() == 2
    assert page.evaluate("() => document.activeElement.dataset.id") == hand[1][0]
    assert page.evaluate(TARGETS_JS)["sideways"] == 0
    assert not js_errors(page), page.js_errors
    page.context.close()


# The end screen drawn by the page's code: the results' table against its box, and the cells of
# its last column past the box's edge (cut off there).
RESULTS_JS = """() => {
  const box = document.querySelector('#drawn .table-scroll');
  const edge = box.getBoundingClientRect().right;
  const last = [...document.querySelectorAll('#drawn .results tr > :last-child')];
  return { over: box.scrollWidth - box.clientWidth,
           outside: last.filter((c) => c.getBoundingClientRect().right > edge + 0.5)
             .map((c) => c.textContent) };
}"""


def test_a_2v2_games_end_keeps_its_totals_on_a_320_px_phone(server: Any, browser: Any) -> None:
    """At the end of a Rami 2 v 2 game on a 320 px phone in French, the last column's head,
    *Total de l’équipe*, kept *l’équipe* whole and the table was wider than its card: the
    sides' totals were cut at the card's edge (a sideways scroll inside it to read them). The
    column heads are smaller on a phone, and the table fits, in every language."""
    game = Game.new("rami71", 4, seed=5)
    for deal in range(40):
        _finish(game, 5 + deal)
        if game.over:
            break
        game.next_deal()
    assert game.over
    page = touch_page(browser, 320, 640)
    page.goto(server.base + "/")
    page.wait_for_selector(".lobby")
    for lang in ("fr", "es", "en"):
        page.evaluate(DRAW, [lang, game.view(0), "medium"])
        seen = page.evaluate(RESULTS_JS)
        assert seen == {"over": 0, "outside": []}, (lang, seen)
    assert not js_errors(page), page.js_errors
    page.context.close()


# The declaration check's texts: how much of each is cut off (its width beyond its box).
CUT_JS = """() => [...document.querySelectorAll('.meter.declaration :is(.decl, .meter-hint)')]
  .map((e) => e.scrollWidth - e.clientWidth)"""


def test_the_declaration_check_shows_its_whole_reason_to_a_finger(
    server: Any, browser: Any
) -> None:
    """On a phone held sideways Indian rummy's declaration check keeps to one line (so the
    turn's buttons stay on the first screen), cut short, its whole reason in its title: a
    hover shows it, a finger cannot. Tapped, the check shows its whole reason, through the
    redraws that follow; a tap elsewhere folds it again."""
    page = touch_page(browser, 844, 390, locale="fr-FR")
    play_against_bots(page, server.base, "indian", 2)
    s = state(page)
    page.locator("[data-action=draw]").tap()
    wait_change(page, s["version"])
    cut = page.evaluate(CUT_JS)
    assert cut and max(cut) > 0, cut  # French reasons are long: this one is cut
    page.locator(".meter.declaration").tap()
    assert max(page.evaluate(CUT_JS)) <= 0, page.evaluate(CUT_JS)
    page.evaluate("() => window.rummykit.actions.render()")
    assert max(page.evaluate(CUT_JS)) <= 0, page.evaluate(CUT_JS)
    page.locator(".felt").tap()
    assert max(page.evaluate(CUT_JS)) > 0
    assert not js_errors(page), page.js_errors
    page.context.close()
