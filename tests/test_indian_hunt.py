"""What a hunt through Indian rummy played on the page found in the engine's views."""

from __future__ import annotations

from rummykit.engine import Game


def _play_to_the_indicator(game: Game) -> str:
    """Draw and discard the drawn card until the draw that empties the first stock; return
    the card that draw took (the indicator lying face up under the stock)."""
    d = game.deal
    while True:
        game.apply("draw")
        card = d.hands[d.turn][-1].text
        if not d.stock:
            return card
        game.apply(f"discard {card}")


def test_the_view_says_when_the_indicator_under_the_stock_is_drawn() -> None:
    """Under indicator_in_stock the view kept "indicator" and nothing said it had left the
    table: the page showed the card beside the stock while a player held it."""
    game = Game.new("indian", 2, {"indicator_in_stock": True}, seed=1)
    indicator = game.view(0)["indicator"]
    assert [game.view(s)["indicator_drawn"] for s in (0, 1)] == [False] * 2
    drawn = _play_to_the_indicator(game)
    assert drawn == indicator
    assert game.history()[-1] == {"seat": game.deal.turn, "action": "draw", "card": indicator}
    for seat in (0, 1):
        view = game.view(seat)
        # still the wild rank's card, now drawn
        assert view["indicator"] == indicator and view["indicator_drawn"] is True
    game.apply(f"discard {drawn}")  # the pile becomes a new stock: the indicator stays drawn
    assert game.deal.restocks == 1 and game.view(0)["indicator_drawn"] is True


def test_an_indicator_set_aside_is_never_drawn() -> None:
    """By default the indicator lies aside for the whole deal, and in other variants there is
    none: the flag stays false."""
    game = Game.new("indian", 2, seed=1)
    assert game.view(0)["indicator"] is not None
    assert game.view(0)["indicator_drawn"] is False
    assert Game.new("rummy", 2, seed=1).view(0)["indicator_drawn"] is False
