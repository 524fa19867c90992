"""The opening meter agrees with the legal moves when its best lay is refused now: without the
taken card's duty, a lay that leaves only the card just taken from the pile (which may not be
thrown that turn) is illegal, so the meter offers the best legal opening, or none."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from rummykit.engine.actions import Open
from tests.helpers import build_deck

OPTIONS = {"taken_card_duty": False}


def _taken(hand: str, starter: str) -> Game:
    deck = build_deck("rummy", 2, {1: hand}, starter=starter, options=OPTIONS)
    game = Game.new("rummy", 2, OPTIONS, deck=deck)
    game.apply("take")
    return game


def _meter(game: Game) -> dict[str, Any]:
    meter: dict[str, Any] = game.view(1)["opening"]["meter"]
    return meter


def test_meter_offers_the_best_legal_open_when_its_best_lay_would_strand_the_taken_card() -> None:
    # Every dealt card melds: laying them all (91) would leave only the 8D just taken.
    game = _taken("2H 3H 4H 5H 6S 6D 6C 9C TC JC QD QS QH", "8D")
    assert "open" in game.view(1)["turn"]["can"]
    meter = _meter(game)
    assert meter["enough"] is True
    assert meter["action"] is not None
    assert game.is_legal(meter["action"])
    # The 2H stays with the 8D: the best legal lay is worth 89, and the meter shows it.
    assert meter["points"] == 89
    laid = sorted(sorted(g) for g in meter["melds"])
    assert laid == sorted(sorted(p.split()) for p in meter["action"][len("open "):].split(" / "))
    assert all("2H" not in g for g in meter["melds"])
    game.apply(meter["action"])
    assert game.deal.opened[1]
    assert sorted(c.text for c in game.hand(1)) == ["2H", "8D"]


def test_meter_is_not_enough_when_no_legal_open_reaches_the_minimum() -> None:
    # All 13 dealt cards lay 41, but any lay keeping a card beside the taken KD is under 40.
    game = _taken("2C 3C 4C 2D 3D 4D 2S 3S 4S 2H 3H 4H 5H", "KD")
    assert not any(isinstance(a, Open) for a in game.legal_actions())
    assert "open" not in game.view(1)["turn"]["can"]
    meter = _meter(game)
    assert meter["enough"] is False
    assert meter["action"] is None
