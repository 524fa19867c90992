"""What a hunt through whole games played with the keyboard only, and read as a screen reader
reads the page (its accessibility tree, the live region, the focus), found, each kept: the
focus lost to the page's start when an action took its own control away (Draw or Discard
pressed with Enter, a group's × ungrouping it); O laying the meter's opening when cards were
selected to open with (the selection's button carries the key); a seat's chip read "13 star 0"
(a name on a plain span is no name) and the winner's line of the end screen read "star"; the
card drawn from the stock, the opening meter reaching what an opening needs and one's own turn
played by the clock going unsaid."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_support import (
    CLOCK,
    MY_TURN_OR_OVER,
    Server,
    clock_lines,
    create_room,
    js_errors,
    new_page,
    play_against_bots,
    play_turn,
    play_until_over,
    running_server,
    speech,
    state,
    wait_change,
    watch_speech,
)

#: Where the keyboard focus is: the element's data-key, its class, or "body".
FOCUS = """() => { const a = document.activeElement;
  if (!a || a === document.body) return 'body';
  return a.dataset.key || a.id || a.className || a.tagName; }"""


@pytest.fixture(scope="module")
def planned() -> Iterator[Server]:
    """A server dealing the planned hands of tests/web_decks.py (rummy: the person holds
    KS KH KD and 9C TC JC, and a joker)."""
    with running_server(planned=True) as s:
        yield s


def focus(page: Any) -> str:
    where: str = page.evaluate(FOCUS)
    return where


def settled(page: Any) -> None:
    """A frame after the state in hand: the page is drawn and its focus placed."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def tab_to(page: Any, key: str, limit: int = 40) -> None:
    """Press Tab until the element of this data-key has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focus(page) == key:
            return
    raise AssertionError(f"Tab never reached {key}")


def said_card(page: Any, text: str) -> str:
    """A card as the page's words say it to a screen reader: "7♥", a joker by its name."""
    said: str = page.evaluate(
        """async (c) => { const cards = await import('/static/js/cards.js');
             const ui = await import('/static/js/ui.js'); return ui.spoken(cards.pretty(c)); }""",
        text,
    )
    return said


def select_by_keys(page: Any, texts: list[str]) -> list[str]:
    """Select these cards with the keyboard only (H, Home, arrows, Space); their ids."""
    chosen: list[str] = []
    for text in texts:
        ids: list[str] = page.evaluate("() => window.rummykit.S.arrangement.all()")
        card_id = next(i for i in ids if i.split("#")[0] == text and i not in chosen)
        page.keyboard.press("h")
        page.keyboard.press("Home")
        for _ in range(ids.index(card_id)):
            page.keyboard.press("ArrowRight")
        assert focus(page) == f"card-{card_id}"
        page.keyboard.press(" ")
        chosen.append(card_id)
    page.wait_for_function("n => window.rummykit.S.selected.size === n", arg=len(chosen))
    return chosen


def test_the_focus_stays_at_the_table_when_an_action_takes_its_control_away(
    server: Server, browser: Any
) -> None:
    """Draw pressed with Enter goes, and so does Discard once the card is gone, and a group's ×
    with its group: the focus fell to the page's start, where Tab began again at the top bar and
    a screen reader lost its place. It goes to the hand."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    tab_to(page, "act-draw")
    page.keyboard.press("Enter")
    wait_change(page, s["version"])
    settled(page)
    assert focus(page).startswith("card-"), focus(page)
    # two cards grouped, then ungrouped with the group's ×, reached by Tab from the hand
    select_by_keys(page, [t for _, t in state(page)["hand"][:2]])
    page.keyboard.press("g")
    page.wait_for_selector(".hand .group-x")
    page.keyboard.press("h")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('group-x')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('.hand .group-x')")
    settled(page)
    assert focus(page).startswith("card-") or focus(page) == "hand", focus(page)
    # a card selected with the keys, and Discard pressed with Enter
    s = state(page)
    select_by_keys(page, [next(t for _, t in reversed(s["hand"]) if t != "X")])
    tab_to(page, "act-discard")
    page.keyboard.press("Enter")
    wait_change(page, s["version"])
    settled(page)
    assert focus(page).startswith("card-"), focus(page)
    assert not js_errors(page), page.js_errors
    page.context.close()


def test_o_opens_with_the_selected_cards(planned: Server, browser: Any) -> None:
    """Cards selected to open with, O pressed: the selection's Open button carries the key
    (aria-keyshortcuts), yet O laid the meter's opening, three melds and the joker, not the two
    chosen. Before it, D said nothing of the card drawn (only outlined in the hand), nor that
    the meter had reached what an opening needs (a bar turned green, an Open button)."""
    page = new_page(browser)
    play_against_bots(page, planned.base, "rummy", 2)
    s = state(page)
    assert not s["meterAction"], s
    watch_speech(page)
    page.keyboard.press("d")
    wait_change(page, s["version"])
    page.wait_for_function(MY_TURN_OR_OVER)
    s = state(page)
    assert s["meterAction"] and "open" in s["can"], s
    drawn = page.evaluate(
        "() => [...window.rummykit.S.arrangement.fresh].map(id => id.split('#')[0])"
    )
    assert len(drawn) == 1, drawn
    points = page.evaluate("() => window.rummykit.S.view.opening.meter.points")
    page.wait_for_function("() => window.announced.length > 0")
    said = speech(page)["announced"]
    card = said_card(page, drawn[0])
    assert said == [f"You drew {card}. You can open: {points}\u00a0points"], said
    # the meter's opening lays a third meld (with the joker): not what is chosen below
    assert s["meterAction"].count("/") == 2 and "X" in s["meterAction"], s["meterAction"]
    # each meld a group (G), then all six selected: every group is one meld of the opening
    for meld in (["KS", "KH", "KD"], ["9C", "TC", "JC"]):
        select_by_keys(page, meld)
        page.keyboard.press("g")
        page.wait_for_function("() => window.rummykit.S.selected.size === 0")
    select_by_keys(page, ["KS", "KH", "KD", "9C", "TC", "JC"])
    assert page.get_attribute("[data-action=open]", "aria-keyshortcuts") == "O"
    page.keyboard.press("o")
    wait_change(page, s["version"])
    s = state(page)
    laid = sorted(sorted(m["cards"]) for m in s["table"] if m["owner"] == 0)
    assert laid == [["9C", "JC", "TC"], ["KD", "KH", "KS"]], s["table"]
    assert "X" in {t for _, t in s["hand"]}, s["hand"]
    page.context.close()


@pytest.mark.parametrize("locale", ["es-ES", "en-US", "fr-FR"])
def test_a_seats_chip_says_its_cards_and_score_in_words(
    server: Server, browser: Any, locale: str
) -> None:
    """The other seat's chip is read as its name, its cards in hand and its score: the count's
    name sat on a plain span (no role, so no name: read "13") and the score's star, drawn by
    CSS, was read ("star 0"); so were the star before the end screen's winner and the turn
    clock's sign."""
    page = new_page(browser, locale=locale)
    play_against_bots(page, server.base, "rummy", 2)
    words = {
        "es-ES": ("cartas en la mano", "Puntos"),
        "en-US": ("cards in hand", "Score"),
        "fr-FR": ("cartes en main", "Score"),
    }[locale]
    chip = page.locator(".seat-chip[data-seat='1']").aria_snapshot()
    cards = page.evaluate("() => window.rummykit.S.view.seats[1].cards")
    assert f"{cards} {words[0]}" in chip, chip
    assert words[1] in chip and "★" not in chip, chip
    # the turn clock's sign is seen, not read
    status = page.locator(".status").aria_snapshot()
    assert "◷" not in status and page.locator(".my-clock").inner_text().strip(), status
    sign = page.evaluate(
        "() => getComputedStyle(document.querySelector('.my-clock'), '::before').content"
    )
    assert "◷" in sign, sign
    page.evaluate(
        """() => { const p = document.createElement('p'); p.className = 'end-champion';
             p.id = 'champion-test'; p.textContent = 'Ana'; document.body.append(p); }"""
    )
    assert page.locator("#champion-test").aria_snapshot() == "- paragraph: Ana"
    page.context.close()


def test_ones_own_turn_played_by_the_clock_is_said(browser: Any) -> None:
    """The clock ran out on one's own turn and the game drew and discarded: the log said so,
    the live region did not (one's own moves go unsaid), and a screen reader's player heard
    the other's moves and *Your turn* again with no word of why the turn had passed."""
    with running_server(clock_scale=0.1) as server:
        page = new_page(browser)
        play_against_bots(page, server.base, "rummy", 2)
        watch_speech(page)
        _, ran_out = clock_lines(page, 1)
        assert ran_out[0].startswith("Ana ran out of time"), ran_out
        page.wait_for_function("w => window.announced.some(a => a.includes(w))", arg=CLOCK)
        said = [a for a in speech(page)["announced"] if CLOCK in a]
        # a joker shows "★" in the log (its name there for screen readers only) and is said
        line = ran_out[0].replace("★Joker", "Joker")
        assert said and said[0].startswith(line), said
        page.context.close()


def test_a_valid_declaration_is_said_as_it_comes(planned: Server, browser: Any) -> None:
    """The Indian declaration check finding a valid declaration turns its line green; nothing
    said it, so a screen reader's player played on past a won deal. It is said once, with the
    card drawn; then Declare, reached with Tab and confirmed from the keyboard, wins."""
    page = new_page(browser, locale="es-ES")
    play_against_bots(page, planned.base, "indian", 2, {"format": "points"}, level="easy")
    s = state(page)
    watch_speech(page)
    page.keyboard.press("d")
    wait_change(page, s["version"])
    s = state(page)
    assert s["declaration"] and s["declaration"]["valid"], s
    page.wait_for_function("() => window.announced.length > 0")
    said = speech(page)["announced"]
    assert len(said) == 1 and said[0].startswith("Has robado "), said
    card = said_card(page, s["declaration"]["discard"])
    assert said[0].endswith(f". Puedes declarar: termina descartando {card}."), said
    tab_to(page, "act-declare")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm[open]")
    page.keyboard.press("Tab")
    assert focus(page) == "confirm-ok"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-end=game]")
    page.wait_for_function("() => document.activeElement.id === 'end-title'")
    assert "Ganas la partida" in page.locator(".overlay").aria_snapshot()
    page.context.close()


def test_the_focus_stays_in_a_waiting_room_as_bots_sit_and_at_the_table_they_start(
    server: Server, browser: Any
) -> None:
    """*Add a bot* pressed with Enter: its button goes, and the focus fell to the page's start
    at every bot, and at the table the last one started. It goes to the next seat's button, then
    to the hand. Each seat's controls are named with their seat ("Seat 3: Add a bot"): three
    alike said nothing of which seat each filled."""
    page = new_page(browser, locale="fr-FR")
    create_room(page, server.base, "rami51", 4)
    names = page.locator("[data-action=add-bot]").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    assert names == [f"Place {n}\u00a0: Ajouter un robot" for n in (2, 3, 4)], names
    levels = page.locator("select.bot-level").evaluate_all(
        "ss => ss.map(s => s.getAttribute('aria-label'))"
    )
    assert levels == [f"Place {n}\u00a0: Niveau du robot" for n in (2, 3, 4)], levels
    tab_to(page, "bot-1")
    for seat in (1, 2, 3):
        assert focus(page) == f"bot-{seat}"
        page.keyboard.press("Enter")
        if seat < 3:
            page.wait_for_selector(f"[data-action=remove-bot][data-seat='{seat}']")
            settled(page)
    page.wait_for_selector(".table-view")
    page.wait_for_function("() => document.activeElement.classList.contains('hand-card')")
    page.context.close()
    # a waiting room left with its Leave: the focus goes to the lobby's Create
    page = new_page(browser)
    create_room(page, server.base, "rummy", 2)
    page.locator("[data-action=leave]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".lobby")
    page.wait_for_function("() => document.activeElement.dataset.action === 'create'")
    page.context.close()


def test_rematch_asked_keeps_the_focus_on_the_end_screen(planned: Server, browser: Any) -> None:
    """Rematch pressed with Enter is disabled while the other person decides: the focus fell to
    the page's start. It goes to the end screen's title."""
    ana = new_page(browser)
    code = create_room(ana, planned.base, "rummy", 2)
    ben = new_page(browser)
    ben.goto(f"{planned.base}/r/{code}")
    ben.click("[data-action=sit]")
    for page in (ana, ben):
        page.wait_for_selector(".table-view")
    for _ in range(40):
        for page, passive in ((ana, False), (ben, True)):
            page.wait_for_function(
                """() => { const S = window.rummykit.S; const v = S.view;
                  return S.gameOver || (v && v.over) || (v && v.turn && v.turn.seat === S.you
                    && !S.pending) || (v && v.turn && v.turn.seat !== S.you); }"""
            )
            if state(page)["myTurn"] and not state(page)["over"]:
                play_turn(page, passive=passive)
        if state(ana)["over"]:
            break
    ana.wait_for_selector("[data-end=game]")
    ana.wait_for_function("() => document.activeElement.id === 'end-title'")
    tab_to(ana, "rematch")
    ana.keyboard.press("Enter")
    ana.wait_for_selector("[data-action=rematch][disabled]")
    settled(ana)
    assert focus(ana) == "end-title", focus(ana)
    ana.context.close()
    ben.context.close()


def test_the_pile_says_what_pressing_it_does(server: Server, browser: Any) -> None:
    """The stock's name says it draws; the pile's said only what lay on it, though pressing it
    takes that card, or discards the selected one."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    top = said_card(page, s["pile"][-1])
    pile = page.locator("[data-action=pile]")
    assert (pile.get_attribute("aria-label") or "").endswith(f"): Take {top}"), s
    page.keyboard.press("d")
    wait_change(page, s["version"])
    assert "): " not in (pile.get_attribute("aria-label") or "")
    card = state(page)["hand"][0][1]
    select_by_keys(page, [card])
    shown = said_card(page, card)
    assert (pile.get_attribute("aria-label") or "").endswith(f"): Discard {shown}")
    page.context.close()


def test_a_meld_the_selected_card_fits_says_so(server: Server, browser: Any) -> None:
    """With one card selected, the melds it fits are outlined, which a screen reader cannot
    see: going from meld to meld with Tab, every one sounded alike. The name of one it fits
    says so (a synthetic table: the melds the card fits are the page's own hint)."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    page.keyboard.press("d")
    wait_change(page, s["version"])
    card = next(t for _, t in state(page)["hand"] if t != "X")
    rank, suit = card[0], card[1]
    others = [rank + x for x in "SHDC" if x != suit]
    page.evaluate(
        """([fits, other]) => { const S = window.rummykit.S; const v = S.view;
             S.view = { ...v, turn: { ...v.turn, can: [...v.turn.can, 'layoff'] }, table: [
               { number: 1, kind: 'set', cards: fits, owner: 1 },
               { number: 2, kind: 'set', cards: other, owner: 1 }] };
             window.rummykit.actions.render(); }""",
        [others, ["QS", "QH", "QD"] if rank != "Q" else ["KS", "KH", "KD"]],
    )
    select_by_keys(page, [card])
    shown = said_card(page, card)
    assert page.locator(".meld-tile.fits").count() == 1
    fits = page.locator("[data-meld='1']").get_attribute("aria-label") or ""
    assert fits.endswith(f". {shown} goes here"), fits
    assert "goes here" not in (page.locator("[data-meld='2']").get_attribute("aria-label") or "")
    page.context.close()


def test_a_key_whose_move_wants_another_selection_says_so(server: Server, browser: Any) -> None:
    """X with no card selected, or 1 with two (or the meld pressed), did nothing: the button it
    stands for is seen disabled, but nothing was said. The toast (an alert) says what to
    select."""
    page = new_page(browser)
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    page.keyboard.press("d")
    wait_change(page, s["version"])
    toast = page.locator("#toast")
    page.keyboard.press("h")
    page.keyboard.press("x")
    page.wait_for_selector("#toast:not([hidden])")
    assert toast.inner_text() == "Select exactly one card to discard."
    assert toast.get_attribute("role") == "alert"
    page.evaluate(
        """() => { const S = window.rummykit.S; const v = S.view;
             S.view = { ...v, turn: { ...v.turn, can: [...v.turn.can, 'layoff'] },
               table: [{ number: 1, kind: 'set', cards: ['QS', 'QH', 'QD'], owner: 1 }] };
             window.rummykit.actions.render(); }"""
    )
    select_by_keys(page, [t for _, t in state(page)["hand"][:2]])
    page.keyboard.press("1")
    page.wait_for_function(
        "t => document.getElementById('toast').textContent === t",
        arg="Select exactly one card to lay off.",
    )
    assert not page.locator("#choose[open]").count()
    # and so does the meld itself, pressed with Enter
    page.evaluate("() => { document.getElementById('toast').textContent = ''; }")
    tab_to(page, "meld-1")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "t => document.getElementById('toast').textContent === t",
        arg="Select exactly one card to lay off.",
    )
    page.context.close()


def test_the_table_under_a_whole_end_screen_is_out_of_the_keyboards_reach(
    planned: Server, browser: Any
) -> None:
    """Shift+Tab from an end screen's title went into the dimmed table behind it (the log, the
    hand, the sorts, each under the screen). It goes to the top bar; Tab goes through the
    screen's buttons to it; set aside (*Show the table*) the table is reachable again."""
    page = new_page(browser)
    play_against_bots(page, planned.base, "rami51", 2)
    play_until_over(page)
    page.wait_for_function("() => document.activeElement.id === 'end-title'")
    page.keyboard.press("Shift+Tab")
    assert focus(page) == "help-btn"
    page.keyboard.press("Tab")
    assert focus(page) == "end-peek"
    page.keyboard.press("Shift+Tab")
    assert focus(page) == "help-btn"
    # its buttons: Show the table, the record, watching the game again, Rematch, Say…, the
    # lobby; then out of the table
    inside = []
    for _ in range(7):
        page.keyboard.press("Tab")
        inside.append(page.evaluate("() => !!document.activeElement.closest('.overlay')"))
    assert inside == [True, True, True, True, True, True, False], inside
    assert page.evaluate("() => !document.activeElement.closest('.board, .side')")
    tab_to(page, "end-peek")
    page.keyboard.press("Enter")
    page.wait_for_selector(".overlay.peek")
    assert not page.evaluate("() => document.querySelector('.board').inert")
    tab_to(page, "log")
    page.context.close()


def test_a_card_owed_is_said_as_it_comes(server: Server, browser: Any) -> None:
    """The discard taken must be laid before the turn ends: the status line says so, but it is
    no live region, and T said nothing of it (a refusal at the discard said it first)."""
    page = new_page(browser, locale="fr-FR")
    play_against_bots(page, server.base, "rummy", 2)
    s = state(page)
    assert "take" in s["can"], s
    top = said_card(page, s["pile"][-1])
    watch_speech(page)
    page.keyboard.press("t")
    wait_change(page, s["version"])
    assert state(page)["owes"] == [s["pile"][-1]], state(page)
    page.wait_for_function("() => window.announced.length > 0")
    said = speech(page)["announced"]
    # (an opening the card makes possible follows it)
    assert len(said) == 1 and said[0].startswith(
        f"Posez {top} avant de défausser, ou rendez-la à la défausse."
    ), said
    page.context.close()


def test_simple_ramis_lay_down_is_said_as_no_opening(planned: Server, browser: Any) -> None:
    """Simple Rami has no opening (its button says *Lay all down*): the meter reaching its
    lay-down is said so, not as an opening of so many points."""
    page = new_page(browser, locale="fr-FR")
    play_against_bots(page, planned.base, "simple", 2)
    s = state(page)
    watch_speech(page)
    assert not s["meterAction"], s
    page.keyboard.press("d")
    wait_change(page, s["version"])
    assert state(page)["meterAction"], state(page)
    # the meter's line, whichever it says (the bot's move and "À vous", said just before the
    # draw, may come first)
    page.wait_for_function(
        "() => window.announced.some((a) => a.includes('tout poser') || a.includes('ouvrir'))"
    )
    said = " ".join(speech(page)["announced"])
    assert "Vous pouvez tout poser" in said and "ouvrir" not in said, said
    page.context.close()
