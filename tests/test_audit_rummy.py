"""`rummy`: positions where the engine disagreed with the rule book, found by a conformance
audit, each spelled out on an explicit deck.

Two decks mean every face exists twice. A card taken from the pile must be laid this turn;
once one copy of its face is laid, the duty is met and the copy still in hand is the player's
own card of the other deck, which may be discarded like any other.
"""

from __future__ import annotations

from rummykit.engine import Game
from tests.helpers import new_game, play, same


def rummy(hands: dict[int, str], **kw: object) -> Game:
    return new_game("rummy", 2, hands, **kw)  # type: ignore[arg-type]


def test_the_twin_of_a_taken_card_may_be_discarded_once_the_taken_card_is_laid() -> None:
    # Seat 1 opens K K K + 5H 6H 7H + 2C 3C 4C and keeps 8H, 9S, 9D; seat 0 throws the other
    # 8H, which seat 1 takes and lays off on 5H 6H 7H.
    g = rummy({1: "KS KH KD 5H 6H 7H 2C 3C 4C 8H 9S 9D JC"}, starter="QC", stock="QD 8H")
    play(g, "draw", "open KS KH KD / 5H 6H 7H / 2C 3C 4C", "discard QD")
    play(g, "draw", "discard 8H", "take", "layoff 2 8H")
    assert g.view(1)["turn"]["owes"] == []
    assert same(g.hand(1), "8H 9S 9D JC")
    assert "discard" in g.view(1)["turn"]["can"]
    assert "discard 8H" in [str(a) for a in g.legal_actions()]
    g.apply("discard 8H")
    assert g.view(0)["pile"][-1] == "8H" and g.to_move == 0


def test_an_opening_that_leaves_only_the_twin_of_the_taken_card_goes_out_by_discarding() -> None:
    # Seat 1 holds 8C and takes the other 8C: the opening lays one of them and leaves one card,
    # so the minimum does not apply (27 + 26 here); that last card is then discarded to go out,
    # and the deal scores double.
    g = rummy({1: "2S 3S 4S 2H 3H 4H 2D 3D 4D 5C 6C 7C 8C"}, starter="8C", stock="KD")
    play(g, "take", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / 5C 6C 7C 8C")
    assert same(g.hand(1), "8C")
    assert g.view(1)["turn"]["can"] == ["discard"]
    g.apply("discard 8C")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["double"]) == (1, "discard", True)
    assert g.over


def test_a_swap_may_leave_the_twin_of_the_laid_taken_card_as_the_last_discard() -> None:
    # Seat 1 has opened and holds 8H KD. It takes the other 8H and lays it off on 5H 6H 7H,
    # swaps KD for the joker of KS KH X and lays the joker off after 8H: the 8H left in hand is
    # its own, and discarding it ends the deal.
    hand = "KS KH X 5H 6H 7H 2C 3C 4C 5C 6C 8H KD"
    g = rummy({1: hand}, starter="JD", stock="QC 8H")
    play(g, "draw", "open KS KH X / 5H 6H 7H / 2C 3C 4C 5C 6C", "discard QC")
    play(g, "draw", "discard 8H", "take", "layoff 2 8H")
    assert same(g.hand(1), "8H KD")
    assert "swap 1 KD" in [str(a) for a in g.legal_actions()]
    play(g, "swap 1 KD", "layoff 2 X high", "discard 8H")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["double"]) == (1, "discard", False)


def test_a_swap_before_laying_the_taken_card_may_leave_its_twin_as_the_last_discard() -> None:
    # The same position, the swap first: the taken 8H and the freed joker are both owed, and
    # once both are laid the 8H left in hand may be discarded.
    hand = "KS KH X 5H 6H 7H 2C 3C 4C 5C 6C 8H KD"
    g = rummy({1: hand}, starter="JD", stock="QC 8H")
    play(g, "draw", "open KS KH X / 5H 6H 7H / 2C 3C 4C 5C 6C", "discard QC")
    play(g, "draw", "discard 8H", "take")
    assert "swap 1 KD" in [str(a) for a in g.legal_actions()]
    play(g, "swap 1 KD", "layoff 2 8H", "layoff 2 X high", "discard 8H")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["double"]) == (1, "discard", False)
