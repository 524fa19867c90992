"""Actions on a table meld compare their numbers' types: ``True == 1`` in Python, but the engine
refuses ``Layoff(True, c)`` where ``Layoff(1, c)`` is legal, so the two must not be equal."""

from __future__ import annotations

import pickle

import pytest

from rummykit.bots import make_bot, play_turn
from rummykit.cards import parse_card
from rummykit.engine import Game
from rummykit.engine.actions import Layoff, Swap, parse_action
from rummykit.errors import InvalidArgument

SEVEN = parse_card("7H")


@pytest.mark.parametrize("odd", [True, 1.0])
def test_a_number_of_another_type_is_another_action(odd: object) -> None:
    assert Layoff(odd, SEVEN) != Layoff(1, SEVEN)  # type: ignore[arg-type]
    assert Swap(odd, SEVEN) != Swap(1, SEVEN)  # type: ignore[arg-type]
    assert len({Layoff(1, SEVEN), Layoff(odd, SEVEN)}) == 2  # type: ignore[arg-type]


def test_equal_actions_stay_equal_and_hash_alike() -> None:
    assert Layoff(1, SEVEN) == parse_action("layoff 1 7H")
    assert hash(Layoff(1, SEVEN, "low")) == hash(parse_action("layoff 1 7h low"))
    assert Layoff(1, SEVEN) != Layoff(1, SEVEN, "low")
    assert Layoff(1, SEVEN) != Layoff(2, SEVEN)
    assert Swap(3, SEVEN) == parse_action("swap 3 7H")
    assert Swap(1, SEVEN) != Layoff(1, SEVEN)
    assert pickle.loads(pickle.dumps(Layoff(2, SEVEN, "high"))) == Layoff(2, SEVEN, "high")


def test_the_refused_spelling_is_not_among_the_legal_actions() -> None:
    game = Game.new("rummy", players=2, seed=3)
    bot = make_bot("medium")
    layoffs: list[Layoff] = []
    while not layoffs:
        assert not game.over, "no layoff came up: pick another seed"
        play_turn(game, game.deal.turn, bot)
        layoffs = [a for a in game.legal_actions() if isinstance(a, Layoff)]
    legal = set(game.legal_actions())
    for act in layoffs:
        assert type(act.number) is int
        odd = Layoff(True if act.number == 1 else float(act.number), act.card, act.end)  # type: ignore[arg-type]
        assert odd not in legal
        with pytest.raises(InvalidArgument, match="table meld number"):
            game.is_legal(odd)


def test_an_action_compared_with_another_type_lets_that_type_answer() -> None:
    """Open, Declare, Layoff and Swap answered False to anything of another type, which shut
    out the other operand's own ``__eq__`` (Python asks it only on NotImplemented); the
    dataclass actions (NewMeld, Discard, …) already let it answer."""
    from rummykit.engine import Declare, Open

    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    meld = (SEVEN, parse_card("7S"), parse_card("7D"))
    for action in (Layoff(1, SEVEN), Swap(1, SEVEN), Open((meld,)), Declare((meld,))):
        assert action.__eq__(Anything()) is NotImplemented, action
        assert action == Anything(), action
        assert action != "layoff 1 7H" and action != 1, action
