"""What a fresh look at the web client's last round (people's marks, the table placed part by
part, the alerts of the page) found, each kept (docs/web.md)."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from tests.test_web_marks import MARKS_OF
from tests.test_web_past_deals import MARKS, draw
from tests.web_support import (
    modules_page,  # noqa: F401 -- the module's `page`
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
    page.set_viewport_size({"width": 390, "height": 844})
    view = Game.new("rummy", players=4, seed=3).view(0)
    view["table"] = [{"number": n + 1, "kind": "set", "cards": ["7H", "7S", "7D"], "owner": n}
                     for n in range(4)]
    draw(page, "en", view, 0, ["Bob", "Вера", "BOT", "Ana"])
    marks = page.evaluate(MARKS)
    assert marks == {"avatars": {"1": "Ве", "2": "B", "3": "A"},
                     "melds": ["Bo", "Ве", "B3", "A"]}, marks
