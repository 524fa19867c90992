"""rami71 without the taken card's duty: the bots weigh a take as the engine judges the lay.

The joker-free run must do without the taken card only when that card is owed to the table
(the duty on, the book's rule); without the duty the engine lets the run hold it, so a card
that completes the hand's only clean run is worth taking.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummykit.bots import make_bot, observe
from rummykit.engine import Game
from tests.helpers import build_deck

HAND = "KS KD KC 9C 9D 9S QH JH 2C 4D 6S 8C 3H 5S"


def _offered(options: dict[str, Any]) -> Game:
    # Seat 1 throws the TH: with it the QH JH make the only joker-free run (87 with the sets).
    deck = build_deck("rami71", 2, {0: HAND, 1: "TH"}, options=options)
    game = Game.new("rami71", 2, options, deck=deck)
    game.apply("discard TH")
    return game


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_without_the_duty_the_bots_take_the_card_their_clean_run_needs(level: str) -> None:
    game = _offered({"taken_card_duty": False})
    bot = make_bot(level, 0.05)
    assert bot.choose(observe(game, 0), random.Random(1)) == "take"
    game.apply("take")
    act = bot.choose(observe(game, 0), random.Random(1))
    assert act == game.view(0)["opening"]["meter"]["action"]
    game.apply(act)
    assert game.deal.opened[0] and len(game.hand(0)) == 6


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_with_the_duty_the_clean_run_may_not_hold_the_taken_card(level: str) -> None:
    game = _offered({})
    assert make_bot(level, 0.05).choose(observe(game, 0), random.Random(1)) == "draw"
    game.apply("take")
    assert not game.view(0)["opening"]["meter"]["enough"]
