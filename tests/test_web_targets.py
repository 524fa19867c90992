"""What the game is played to, said at the table (docs/web.md): an Indian pool's elimination
total, an Indian game's count of deals, a `rummy` game's target, from the engine's view (a house
rule may change any of them); and the dealer's short mark and the meter's "Show me", which only
a tooltip explained, which no phone shows. The views are checked plainly; the page draws the
table with its own code from the engine's views."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from tests.helpers import new_game, play
from tests.test_web_rami import DRAW_TABLE
from tests.web_support import (
    PHONE,
    modules_page,  # noqa: F401 -- the module's `page`
)

SIDEWAYS = {"width": 844, "height": 390}

# The table of ``view`` drawn by js/table.js into a root of its own (the lobby's view is hidden)
# for a person named Ana and medium bots; returns what the tests read of it.
DRAW = "async ([lang, view]) => { const level = 'medium';" + DRAW_TABLE + """
  const goal = root.querySelector('.scores [data-goal]');
  const legend = root.querySelector('.scores [data-dealer-legend]');
  const badge = root.querySelector('.badge.dealer');
  const seen = badge ? [...badge.childNodes].filter((n) => n.nodeType === 1
    && n.getAttribute('aria-hidden') === 'true').map((n) => n.textContent).join('') : null;
  const read = badge ? [...badge.querySelectorAll('.visually-hidden')].map((n) => n.textContent)
    .join('') : null;
  return { goal: goal ? goal.textContent : null, legend: legend ? legend.textContent : null,
           seen, read, width: document.documentElement.scrollWidth };
}"""


def draw(page: Any, lang: str, view: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRAW, [lang, view])
    return result


def test_a_pools_view_carries_its_limit() -> None:
    for fmt, limit in (("pool101", 101), ("pool201", 201)):
        game = Game.new("indian", 3, {"format": fmt}, seed=1)
        assert game.public_view()["limit"] == game.view(0)["limit"] == limit
        assert "deal_count" not in game.view(0) and "target" not in game.view(0)
    house = Game.new("indian", 2, {"format": "pool101", "limit": 150}, seed=1)
    assert house.public_view()["limit"] == 150


def test_an_indian_game_of_deals_counts_them_in_its_view() -> None:
    game = Game.new("indian", 2, {"format": "deals", "deals": 2}, seed=1)
    assert "limit" not in game.view(0)
    assert game.view(0)["deal_count"] == {"played": 0, "total": 2}
    play(game, "drop")
    assert game.public_view()["deal_count"] == {"played": 1, "total": 2}
    game.next_deal()
    play(game, "drop")
    assert game.over and game.public_view()["deal_count"] == {"played": 2, "total": 2}
    points = Game.new("indian", 2, {"format": "points"}, seed=1)
    assert points.public_view()["deal_count"] == {"played": 0, "total": 1}


def test_a_rummy_game_to_200_carries_its_target() -> None:
    game = Game.new("rummy", 2, {"length": "to-200"}, seed=1)
    assert game.public_view()["target"] == game.view(1)["target"] == 200
    house = Game.new("rummy", 2, {"length": "to-200", "target": 300}, seed=1)
    assert house.view(0)["target"] == 300
    one = Game.new("rummy", 2, seed=1).view(0)
    assert not {"target", "limit", "deal_count"} & set(one)


def test_the_scores_panel_says_what_the_game_is_played_to(page: Any) -> None:
    """A pool's total, the deals of a game of deals and a rummy game's target were said only in
    the lobby (the format's name at most, wrong under a house rule): the scores panel says
    them, in every language; a one-deal rummy game has no such line."""
    page.set_viewport_size({"width": 1280, "height": 800})
    pool = Game.new("indian", 3, seed=1).view(0)
    assert draw(page, "en", pool)["goal"] == "Pool: a player is out past 101\u00a0points."
    pool201 = Game.new("indian", 2, {"format": "pool201"}, seed=1).view(0)
    assert draw(page, "es", pool201)["goal"] == (
        "Pool: queda eliminado quien pasa de 201\u00a0puntos."
    )
    house = Game.new("indian", 2, {"limit": 150}, seed=1).view(0)
    assert draw(page, "fr", house)["goal"] == (
        "Pool\u00a0: un joueur est éliminé au-delà de 150\u00a0points."
    )
    deals = Game.new("indian", 2, {"format": "deals", "deals": 3}, seed=1)
    assert draw(page, "en", deals.view(0))["goal"] == "Deal 1 of 3."
    play(deals, "drop")  # the deal is over: it has counted
    assert draw(page, "fr", deals.public_view())["goal"] == "Donne 1 sur 3."
    deals.next_deal()
    assert draw(page, "es", deals.view(1))["goal"] == "Mano 2 de 3."
    points = Game.new("indian", 2, {"format": "points"}, seed=1).view(0)
    assert draw(page, "en", points)["goal"] == "A game of one deal: its winner wins the game."
    to_200 = Game.new("rummy", 3, {"length": "to-200"}, seed=1).view(0)
    for lang, words in (
        ("en", "Game to 200\u00a0points: the first to reach them wins."),
        ("es", "Partida a 200\u00a0puntos: gana el primero que los alcanza."),
        ("fr", "Partie en 200\u00a0points\u00a0: le premier à les atteindre gagne."),
    ):
        assert draw(page, lang, to_200)["goal"] == words
    assert draw(page, "en", Game.new("rummy", 2, seed=1).view(0))["goal"] is None
    # Rami keeps its own words for its limit
    rami = draw(page, "en", Game.new("rami51", 2, seed=1).view(0))
    assert rami["goal"] == "A player loses the game at 251\u00a0points."


# Ana (seat 1, after the dealer, seat 0) holds a set and a run: the meter has a lay-down to show
SHOWN = "KS KH KD 5H 6H 7H 2C 9D JC 3S 8S 4D TC"


def test_the_dealer_mark_and_show_me_are_explained_without_hover(page: Any) -> None:
    """The dealer's "D" ("R" in Spanish) and the meter's "Show me" were explained only by a
    title, which no phone shows and a screen reader may not read: the mark reads "Dealer", the
    scores panel says what it means, the button's name says what it does and a tap says what
    it did; the sideways phone's layout keeps to its width."""
    game = new_game("rummy", 2, {1: SHOWN}, options={"opening": 30})
    view = game.view(1)
    assert view["dealer"] == 0
    for size in (PHONE, SIDEWAYS):
        page.set_viewport_size(size)
        for lang, short, word, legend in (
            ("en", "D", "Dealer", "Dealer (D): Bot 1 ("),
            ("es", "R", "Reparte", "Reparte (R): Bot 1 ("),
            ("fr", "D", "Donneur", "Donneur (D)\u00a0: Robot 1 ("),
        ):
            drawn = draw(page, lang, view)
            assert (drawn["seen"], drawn["read"]) == (short, word), lang
            assert drawn["legend"].startswith(legend), (lang, drawn["legend"])
            assert drawn["width"] <= size["width"], (lang, size)
    page.evaluate("async () => (await import('/static/js/i18n.js')).loadLanguage('en')")
    draw(page, "en", view)
    button = page.get_by_role(
        "button", name="Show me: Arrange the hand into the lay-down the meter counts"
    )
    assert button.count() == 1
    button.click()
    toast = page.locator("#toast")
    assert toast.is_visible()
    assert toast.text_content() == "Your hand is arranged into the lay-down the meter counts."
