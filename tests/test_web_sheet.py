"""The game's score sheet in the scores panel (docs/web.md): the totals after each deal, from
the engine's ``results[].totals``, drawn by the page's own code from engine views."""

from __future__ import annotations

from typing import Any

from tests.helpers import medium_game
from tests.test_web_rami import DRAW_TABLE
from tests.web_support import (
    PHONE,
    modules_page,  # noqa: F401 -- the module's `page`
)

DRAW = "async ([lang, view]) => { const level = 'medium';" + DRAW_TABLE + """
  const sheet = root.querySelector('.scores .sheet');
  if (!sheet) return { sheet: null, width: document.documentElement.scrollWidth };
  const cells = (row) => [...row.children].map((c) => c.textContent);
  // the title above the sheet's box names the table (aria-labelledby)
  const title = document.getElementById(sheet.getAttribute('aria-labelledby'));
  return { sheet: { caption: title.textContent,
                    head: cells(sheet.querySelector('thead tr')),
                    rows: [...sheet.querySelectorAll('tbody tr')].map(cells) },
           width: document.documentElement.scrollWidth };
}"""


def draw(page: Any, lang: str, view: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRAW, [lang, view])
    return result


def test_the_totals_after_each_deal(page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    game = medium_game("rummy", 3, 3, options={"length": "to-200"}, deal_next=False)
    view = game.view(1)  # Ana is seat 1 in the drawing
    drawn = draw(page, "en", view)["sheet"]
    assert drawn["caption"] == "Score sheet: the totals after each deal"
    assert drawn["head"] == ["Deal", "Bot 1 (medium)", "You (Ana)", "Bot 3 (medium)"]
    expected = [[str(r["deal"]), *map(str, r["totals"])] for r in view["results"]]
    assert drawn["rows"] == expected
    # the last row is the game's totals now
    assert [int(x) for x in drawn["rows"][-1][1:]] == game.scores
    assert draw(page, "fr", view)["sheet"]["head"][0] == "Donne"


def test_none_for_a_single_deal_and_sides_in_two_v_two(page: Any) -> None:
    page.set_viewport_size(PHONE)
    one = medium_game("rami51", 2, 1, deal_next=False)
    assert draw(page, "en", one.view(1))["sheet"] is None  # the totals above say it all
    teams = medium_game("rami51", 4, 2, deal_next=False)
    drawn = draw(page, "es", teams.view(1))
    assert drawn["sheet"]["head"] == [
        "Mano", "Bot 1 (medio) y Bot 3 (medio)", "Tú (Ana) y Bot 4 (medio)"
    ]
    assert [row[1:] for row in drawn["sheet"]["rows"]] == [
        [str(x) for x in r.totals] for r in teams.results
    ]
    # six seats on a phone: the sheet scrolls in its box, the page does not
    six = medium_game("indian", 6, 2, options={"format": "pool101"}, deal_next=False)
    drawn = draw(page, "fr", six.view(1))
    assert len(drawn["sheet"]["head"]) == 7
    assert drawn["width"] <= PHONE["width"]
