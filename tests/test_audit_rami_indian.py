"""Rule-book conformance of `rami51`, `rami71`, `simple` and `indian` where an audit found the
engine wrong; each position is spelled out here."""

from __future__ import annotations

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
