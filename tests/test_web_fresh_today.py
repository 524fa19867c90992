"""What a fresh look at the day's changes found in the page (a past deal's results looked
back at, the people's marks told apart), each kept as a test. The table is drawn from engine
views by the page's own code, as in test_web_past_deals.py."""

from __future__ import annotations

from typing import Any

from tests.web_support import modules_page  # noqa: F401 -- the module's `page`


def test_a_numbered_mark_does_not_match_a_name_s_two_letters(page: Any) -> None:
    """Ana, Ana and a player named "A2": the Anas were numbered A1 and A2, and "A2"'s two
    characters made A2 as well (two alike). Each mark now differs; the day's cases stay."""
    marks = page.evaluate("""async (cases) => {
      const { seatMarks } = await import('/static/js/lobby.js');
      return cases.map((names) => Object.fromEntries(seatMarks(names.map((name, seat) =>
        (name === 'BOT' ? { seat, kind: 'bot', name: 'Bot' } : { seat, kind: 'human', name })))));
    }""", [["Ana", "Ana", "A2"], ["Ana", "Alberto", "BOT", "Ben"], ["Ana", "ana", "Alberto"],
           ["Bo", "B1", "Bob"]])
    assert marks[0] == {"0": "A1", "1": "A2", "2": "A3"}, marks
    assert marks[1] == {"0": "An", "1": "Al", "3": "B"}, marks
    assert marks[2] == {"0": "A1", "1": "A2", "2": "Al"}, marks
    for m in marks:
        assert len(set(m.values())) == len(m), m
