"""Bots meet the duty of a card taken from the pile, or give it back: they never leave
themselves a turn whose only move is the clock's ``timeout``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit.bots import choose_action, make_bot, observe
from rummykit.engine import Game
from rummykit.errors import IllegalAction

POSITIONS = Path(__file__).parent / "positions"


def _position() -> Game:
    # rami71, seat 0 has opened and just took 5D from the pile holding 3D 4D: the run
    # 3D 4D 5D would leave no card to discard, and laying off 4D first would strand the 5D.
    # Found in a seeded medium v easy tournament, where the bot answered `timeout`.
    text = (POSITIONS / "rami71-taken-card-needs-return.json").read_text()
    return Game.from_record(text)


def test_the_position_leaves_only_the_return() -> None:
    game = _position()
    assert game.to_move == 0
    assert sorted(game.view(0)["hand"]) == ["3D", "4D", "5D"]
    # The lay-off that would strand the 5D is refused by the engine (it used to be legal
    # and leave nothing but the clock's timeout).
    assert sorted(str(a) for a in game.iter_legal_actions()) == ["return", "timeout"]
    with pytest.raises(IllegalAction, match="leave the 5D you took from the pile with no place"):
        game.check("layoff 5 4D")


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_give_the_card_back(level: str) -> None:
    game = _position()
    act = make_bot(level, 0.05).choose(observe(game, 0), random.Random(1))
    assert act == "return"
    game.apply(act)
    # The turn goes on normally: a draw from the stock.
    assert "draw" in {str(a) for a in game.iter_legal_actions()}


def test_server_entry_point_gives_the_card_back() -> None:
    game = _position()
    assert choose_action(game.view(0), game.history(), "medium", seed=3) == "return"
