"""easy, a beginner, lays only new melds -- until the stock has been rebuilt: a table of
players who never lay off may never go out, and with Rami's unlimited restocks a table of easy
bots played one deal for ever (rami71, four easy bots: four deals of eleven never ended)."""

from __future__ import annotations

from rummykit.bots import choose_action
from rummykit.engine import Game
from tests.helpers import new_game, play

SEAT0 = "9H 2S 3S 8D 5C 6C AD JD 4C 2D TS 5S 8C KC"


def test_easy_lays_off_only_once_the_stock_has_been_rebuilt() -> None:
    g = new_game("rami51", 2, {1: "KS KH KD QS QH QD 4H 5H 6H 7H 9C TC JC 2C 3H", 0: SEAT0},
                 stock="4D 6D 7D 8S")
    play(g, "open KS KH KD / QS QH QD / 4H 5H 6H 7H / 9C TC JC", "discard 2C",
         "draw", "discard 9H", "draw")
    assert sorted(g.view(1)["hand"]) == ["3H", "6D"]
    assert choose_action(g.view(1), list(g.history()), "easy", 1).startswith("discard")
    assert choose_action(g.view(1), list(g.history()), "medium", 1).startswith("layoff 3 3H")
    g.deal.restocks = 1  # as after a rebuilt stock: the view says so
    assert g.view(1)["restocks"] == 1
    assert choose_action(g.view(1), list(g.history()), "easy", 1) in (
        "layoff 3 3H", "layoff 3 3H low"
    )


def test_a_table_of_easy_bots_finishes_its_deals() -> None:
    g = Game.new("rami71", players=4, seed=0)
    for _ in range(3):  # the third deal never ended
        steps = 0
        while g.to_move is not None:
            seat = g.to_move
            g.apply(choose_action(g.view(seat), list(g.history()), "easy", 0))
            steps += 1
            assert steps < 2000, "the deal goes on for ever"
        g.next_deal()
