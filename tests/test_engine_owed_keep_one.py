"""Where a card must stay to discard (Rami: no going out by laying), a move that would leave in
hand only the card taken from the pile -- which must be laid this turn and cannot be laid as
the last card -- is refused: the turn could not be finished (before, the player was left with
only the clock's `timeout`)."""

from __future__ import annotations

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction
from tests.helpers import new_game, play

SEAT0 = "9H 2S 3S 8D 5C 6C AD JD 4C 2D TS 5S 8C KC"
KEEP_ONE = "no place to go: a card must stay in your hand to discard"


def listed(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_laying_off_all_but_the_taken_card_is_refused_and_it_can_be_returned() -> None:
    g = new_game("rami51", 2, {1: "KS KH KD QS QH QD 4H 5H 6H 7H 9C TC JC 2C 3H", 0: SEAT0},
                 stock="4D 6D 7D 8S")
    play(g, "open KS KH KD / QS QH QD / 4H 5H 6H 7H / 9C TC JC", "discard 2C",
         "draw", "discard 9H", "take")
    assert g.view(1)["hand"] == ["3H", "9H"]
    before = (g.view(0), g.view(1), g.record())
    with pytest.raises(IllegalAction, match=f"the 9H you took from the pile with {KEEP_ONE}"):
        g.apply("layoff 3 3H")
    assert (g.view(0), g.view(1), g.record()) == before
    assert not any(a.startswith("layoff") for a in listed(g))
    play(g, "return")


def test_a_swap_brings_its_joker_to_the_hand() -> None:
    # The swapped joker stays in hand: 7H and X are two cards, so the swap is allowed. Laying
    # the X off then leaves the 7H alone, but the 7H can still take the joker's place again and
    # the joker comes back to be discarded; laying the 7H off leaves the X to discard.
    g = new_game("rami51", 2, {1: "KS KH KD 6S 6H 6D X 4H 5H 6H 9C TC JC 2C 6C", 0: SEAT0},
                 stock="7H 4D 7D 8S")
    play(g, "open KS KH KD / 6S 6H 6D X / 4H 5H 6H / 9C TC JC", "discard 2C",
         "draw", "discard 7H", "take")
    assert g.view(1)["hand"] == ["6C", "7H"]
    assert "swap 2 6C" in listed(g)
    play(g, "swap 2 6C")
    assert sorted(g.view(1)["hand"]) == ["7H", "X"]
    assert "layoff 3 X high" in listed(g)
    again = Game.from_record(g.record())
    play(again, "layoff 3 X high", "swap 3 7H", "discard X")
    assert again.view(1)["hand"] == []
    play(g, "layoff 3 7H", "discard X")
    assert g.view(1)["hand"] == []


def test_a_freed_joker_under_the_duty_needs_a_card_to_keep_too() -> None:
    # House rule: Rami's freed joker must go back on the table this turn. Swapping the last
    # card but one for it would leave the joker and nothing to keep.
    g = new_game("rami51", 2, {1: "KS KH KD 6S 6H 6D X 4H 5H 6H 9C TC JC 2C 6C", 0: SEAT0},
                 stock="4D 7H 7D 8S", options={"freed_joker_duty": True})
    play(g, "open KS KH KD / 6S 6H 6D X / 4H 5H 6H / 9C TC JC", "discard 2C",
         "draw", "discard 8D", "draw")
    assert sorted(g.view(1)["hand"]) == ["6C", "7H"]
    play(g, "swap 2 6C")  # the X and the 7H: the X is laid, the 7H kept
    with pytest.raises(IllegalAction, match=f"the freed joker with {KEEP_ONE}"):
        g.apply("layoff 3 7H")
    play(g, "layoff 3 X high", "discard 7H")
