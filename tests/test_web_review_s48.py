"""What a fresh look at the web client's last round (people's marks, the table placed part by
part, the alerts of the page) found, each kept (docs/web.md)."""

from __future__ import annotations

from typing import Any

from tests.test_web_marks import MARKS_OF, four_owners
from tests.test_web_past_deals import MARKS, draw
from tests.test_web_touch import touch_page
from tests.web_support import (
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    play_against_bots,
)


def test_marks_drawn_alike_in_another_script_are_told_apart(page: Any) -> None:
    """A Greek or Cyrillic initial drawn as a Latin one counted as a letter of its own: Bob and
    Вера were both "B", Ana and Аня both "A", and Вера beside a bot read as the bots' avatar
    "B"; they are marked as people of one initial are (two letters, or numbered), the letters
    folded as the server folds a name it compares with the bots' (``LOOK_ALIKES``)."""
    cases = {
        "en": [
            (["Bob", "Вера"], {"0": "Bo", "1": "Ве"}),
            (["Вера", "BOT"], {"0": "Ве"}),
            (["Ana", "Аня", "BOT"], {"0": "An", "1": "Ан"}),
            # "Be" and "Ве" are drawn alike too: numbered
            (["Bea", "Вера", "BOT"], {"0": "B1", "1": "В2"}),
            (["Βασίλης", "BOT", "Ana"], {"0": "Βα", "2": "A"}),
            (["Olga", "Оля", "Ολγα"], {"0": "Ol", "1": "Ол", "2": "Ολ"}),
            # a Latin small capital, drawn as a small B
            (["ʙen", "BOT"], {"0": "ʙe"}),
        ],
        "fr": [(["Pia", "Рита", "BOT"], {"0": "Pi", "1": "Ри"})],
    }
    for lang, tables in cases.items():
        got = page.evaluate(MARKS_OF, [lang, [names for names, _ in tables]])
        assert got == [marks for _, marks in tables], (lang, got)
    # at the table on a phone: the avatars and the marks under each seat's meld
    view = four_owners(page)
    draw(page, "en", view, 0, ["Bob", "Вера", "BOT", "Ana"])
    marks = page.evaluate(MARKS)
    assert marks == {"avatars": {"1": "Ве", "2": "B", "3": "A"},
                     "melds": ["Bo", "Ве", "B3", "A"]}, marks


# The first line of the log wholly in sight: its text and how far below the log's top it
# starts, in whole pixels; and where the line of that text is now.
IN_SIGHT_JS = """() => { const box = document.querySelector('.log');
  const top = box.getBoundingClientRect().top;
  const line = [...box.children].find((l) => l.getBoundingClientRect().top >= top);
  return [line.textContent, Math.round(line.getBoundingClientRect().top - top)]; }"""
NOW_JS = """(text) => { const box = document.querySelector('.log');
  const line = [...box.children].find((l) => l.textContent === text);
  const top = box.getBoundingClientRect().top;
  return [text, Math.round(line.getBoundingClientRect().top - top)]; }"""
# another's move as the page draws it: a line more in the log, a card more on the pile
MOVE_JS = """(n) => { const S = window.rummykit.S;
  S.log = [...S.log, { seat: 1, text: `Bot 2 (medium) moved, ${n}` }];
  S.view = { ...S.view, pile: [...S.view.pile, n % 2 ? '9C' : '4D'] };
  window.rummykit.actions.render(); }"""


def test_a_scrolled_log_keeps_the_line_read(server: Any, browser: Any) -> None:
    """The log, newest first, kept its scroll through a redraw, but each move of the others
    came above the line being read: at the same scroll the reader saw the line before it, a
    line further at each move. The line first in sight stays where it stood, in a log drawn
    anew and in one holding the keyboard focus."""
    page = touch_page(browser, 390, 844)
    play_against_bots(page, server.base, "rummy", 2)
    page.evaluate(
        """() => { const S = window.rummykit.S;
             S.log = [...S.log, ...Array.from({ length: 8 }, (_, i) =>
               ({ seat: 1, text: `Bot 2 (medium) drew from the stock, ${i}` }))];
             window.rummykit.actions.render(); }"""
    )
    page.locator(".log").scroll_into_view_if_needed()
    # it keeps twelve lines: a few lines' scroll
    room = page.evaluate("() => { const b = document.querySelector('.log');"
                         " return b.scrollHeight - b.clientHeight; }")
    assert room > 40, room
    for n, focus in enumerate((False, True)):
        if focus:
            page.focus(".log")
        page.evaluate("() => { document.querySelector('.log').scrollTop = 10; }")
        read = page.evaluate(IN_SIGHT_JS)
        page.evaluate(MOVE_JS, n)
        now = page.evaluate(NOW_JS, read[0])
        assert now == read, (focus, read, now)
    assert page.evaluate("() => document.activeElement.matches('.log')")
    assert not js_errors(page), page.js_errors
    page.context.close()
