"""The view gives what the page must not work out from the rules itself."""

from __future__ import annotations

from rummykit.engine import Game


def test_an_indian_view_says_what_a_wrong_declaration_costs() -> None:
    """The page's warning before a wrong declaration said "80 points" as fixed text; the cost
    is a ruleset value (a house rule may change it), so every Indian view carries it."""
    for options, cost in ((None, 80), ({"wrong_declaration": 60}, 60)):
        game = Game.new("indian", 2, options, seed=3)
        for view in (game.view(0), game.view(1), game.public_view()):
            assert view["wrong_declaration"] == cost, (options, view["seat"])


def test_other_variants_views_have_no_wrong_declaration_cost() -> None:
    game = Game.new("rummy", 2, None, seed=3)
    assert "wrong_declaration" not in game.view(0)
