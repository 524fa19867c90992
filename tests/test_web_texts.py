"""What the page says of a deal's end and of a wrong declaration, run in Chromium on the
engine's own results and views: the words must state what the engine did, in every language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.engine import Game
from tests.test_decision_options import run_out, wrong_declaration
from tests.web_support import js_errors, lobby_page

SAY = """async ([lang, view, results]) => {
  const i18n = await import('/static/js/i18n.js');
  const { wrongDeclarationCost } = await import('/static/js/moves.js');
  const { dealSummary } = await import('/static/js/results.js');
  await i18n.loadLanguage(lang);
  const S = { you: 0, room: null, view };
  return { warning: wrongDeclarationCost(view),
           deals: results.map((r) => dealSummary(S, r)) };
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with lobby_page() as p:
        yield p
        assert js_errors(p) == []


def say(page: Any, lang: str, game: Game) -> dict[str, Any]:
    view = game.view(0)
    result: dict[str, Any] = page.evaluate(SAY, [lang, view, view["results"]])
    return result


def test_a_wrong_declaration_that_ends_the_deal_is_told_so(page: Any) -> None:
    """Under wrong_declaration_ends the warning said "you leave the deal" (the deal ends), and
    the deal's line "Nobody wins this deal. The others pay 80 points." (only the declarer
    paid, and nobody collected)."""
    ends = wrong_declaration(3, {"wrong_declaration_ends": True})
    r = ends.results[0]
    assert r.winner is None and r.points == ends.rules.wrong_declaration
    en = say(page, "en", ends)
    assert en["warning"] == "A wrong declaration costs 80 points and ends the deal: nobody wins it."
    assert en["deals"] == ["Nobody wins this deal. The wrong declaration costs 80\u00a0points."]
    es = say(page, "es", ends)
    assert "termina la mano" in es["warning"] and "Los demás" not in es["deals"][0]
    fr = say(page, "fr", ends)
    assert "termine la donne" in fr["warning"] and "Les autres" not in fr["deals"][0]
    # by default the declarer leaves and the deal goes on: the warning says so
    stays = wrong_declaration(3, {})
    assert not stays.deal.over
    assert say(page, "en", stays)["warning"] == (
        "A wrong declaration costs 80 points and you leave the deal."
    )


@pytest.mark.parametrize(
    ("variant", "players", "options", "seed"),
    [
        ("rami51", 2, {"max_restocks": 0}, 3),  # the stock ran out: nobody pays
        ("rummy", 3, {"max_restocks": 0, "blocked_deal": "void"}, 11),  # a void blocked deal
    ],
)
def test_a_deal_nobody_won_says_no_more(
    page: Any, variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """It read "Nobody wins this deal. The others pay 0 points." ("Points: 0." in rummy)."""
    g = Game.new(variant, players, options, seed=seed)
    run_out(g)
    assert g.results[0].winner is None and g.results[0].points == 0
    for lang, line in (("en", "Nobody wins this deal."), ("es", "Nadie gana esta mano."),
                       ("fr", "Personne ne gagne cette donne.")):
        assert say(page, lang, g)["deals"] == [line]
