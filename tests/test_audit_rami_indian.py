"""Rule-book conformance of `rami51`, `rami71`, `simple` and `indian` where an audit found the
engine wrong; each position is spelled out here."""

from __future__ import annotations

import random

from rummykit.bots import make_bot
from rummykit.bots.base import play_deal
from rummykit.engine.game import Game
from tests.helpers import new_game, play

# Sevens are wild (indicator 7C). Seat 1 holds three pure sequences and a set with a wild
# seven, draws a KH and throws it: a valid declaration.
WINNER = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
DECLARE = "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD 7S"
# Seat 0's thirteen cards meld whole too (2S 3S 4S and 8H 9H TH pure, 5C 5D 5S, KS KD KC and
# a wild 7D beside them): a loser who pays nothing.
MELDS_WHOLE = "2S 3S 4S 8H 9H TH 5C 5D 5S KD KC KS 7D"


def test_indian_points_format_the_winner_of_the_deal_wins_the_game_even_at_0() -> None:
    """The points format is one deal whose winner collects the losers' points: when the loser
    pays 0, the game still goes to the player who declared, not to the lowest seat."""
    g = new_game("indian", 2, {1: WINNER, 0: MELDS_WHOLE}, indicator="7C", starter="2C",
                 stock="KH", options={"format": "points"})
    play(g, "draw", DECLARE)
    result = g.view(0)["results"][0]
    assert (result["winner"], result["penalties"]) == (1, [0, 0])
    assert g.scores == [0, 0]
    assert g.over and g.winner == 1
    assert g.view(0)["winner"] == 1


def test_the_view_names_a_pool_player_out_as_soon_as_the_deal_is_scored() -> None:
    """Pool 101, three seats, bots to the end: after each deal the view's `eliminated` is the
    seats whose total passed 101 (the game's winner aside), the same for every seat and for a
    spectator, from the pause before the next deal on."""
    game = Game.new("indian", 3, {"format": "pool101"}, seed=7)
    bots = [make_bot("medium") for _ in range(3)]
    seen_out = False
    while not game.over:
        assert play_deal(game, bots, random.Random(1))
        expected = [s for s in range(3) if game.score.totals[s] > 101 and s != game.winner]
        views = [game.view(0), game.view(1), game.view(2), game.public_view()]
        assert all(v["eliminated"] == expected for v in views), (views[0]["scores"], expected)
        seen_out = seen_out or bool(expected)
        if not game.over:
            game.next_deal()
    assert seen_out
