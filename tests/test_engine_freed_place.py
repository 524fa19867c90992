"""`rummy`: a joker freed by a swap must go back on the table in the same turn, and no discard
comes before it: a swap, meld or lay-off that would leave it no place at all is refused (a
decision, listed in docs/rules.md), so a player cannot lock their own turn."""

from __future__ import annotations

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction
from tests.helpers import new_game, play

NO_PLACE = "that would leave the freed joker with no place to go"
NO_LAYOFFS = (
    "nothing may be laid off at this table and no two cards left in your hand could meld with it"
)


def opened(hand: str, opening: str, drawn: str) -> Game:
    g = new_game("rummy", 2, {1: hand}, starter="QC", stock=drawn)
    play(g, "draw", f"open {opening}")
    return g


def listed(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_a_swap_whose_joker_could_go_nowhere_is_refused_and_changes_nothing() -> None:
    # Two full sets on the table and 2S 5H 9D JC 3C in hand: the X that 7C would free could
    # neither be laid off nor melded.
    g = opened("KS KH KD KC 7S 7H 7D X 7C 2S 5H 9D JC", "KS KH KD KC / 7S 7H 7D X", "3C")
    before = (g.view(0), g.view(1), g.record())
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("swap 2 7C")
    assert (g.view(0), g.view(1), g.record()) == before
    assert not g.is_legal("swap 2 7C")
    assert not any(a.startswith("swap") for a in listed(g))
    assert "swap" not in g.view(1)["turn"]["can"]
    g.apply("discard 3C")  # the turn goes on as if the swap had never been offered


def test_two_cards_in_hand_that_could_meld_with_it_are_a_place() -> None:
    g = opened("KS KH KD KC 7S 7H 7D X 7C 2S 5H 9D JC", "KS KH KD KC / 7S 7H 7D X", "4H")
    assert "swap 2 7C" in listed(g)
    play(g, "swap 2 7C", "meld 4H 5H X", "discard JC")
    assert g.view(0)["table"][2]["cards"] == ["4H", "5H", "X"]


def test_a_meld_or_lay_off_that_would_take_its_last_place_is_refused() -> None:
    # The freed X has a place while the set of queens has room for a fourth card.
    g = opened("KS KH KD KC 7S 7H 7D X 7C QS QH QD QC", "KS KH KD KC / 7S 7H 7D X / QS QH QD",
               "3D")
    g.apply("swap 2 7C")
    assert g.view(1)["turn"]["owes"] == ["X"]
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("layoff 3 QC")
    assert "layoff 3 QC" not in listed(g) and "layoff 3 X" in listed(g)
    play(g, "layoff 3 X", "discard 3D")
    # A full set melded from the hand is no place either; three of its cards are.
    g = opened("KS KH KD KC 7S 7H 7D X 7C 5S 5H 5D 5C", "KS KH KD KC / 7S 7H 7D X", "2H")
    g.apply("swap 2 7C")
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("meld 5S 5H 5D 5C")
    assert "meld 5S 5H 5D 5C" not in listed(g) and "meld 5S 5H 5D" in listed(g)
    play(g, "meld 5S 5H 5D", "layoff 3 X", "discard 2H")


def test_laying_the_freed_joker_itself_is_always_allowed() -> None:
    g = opened("KS KH KD KC 7S 7H 7D X 7C QS QH QD QC", "KS KH KD KC / 7S 7H 7D X / QS QH QD",
               "3D")
    g.apply("swap 2 7C")
    assert g.is_legal("layoff 3 X")


@pytest.mark.parametrize(("drawn", "allowed"), [("4H", True), ("JC", False)])
def test_a_run_ending_in_a_joker_is_a_place_with_the_card_beside_it_in_hand(
    drawn: str, allowed: bool
) -> None:
    # AH 2H X (the X standing for 3H) takes no second joker beside the first; with 4H laid
    # after it, a joker fits at 5H.
    g = opened("KS KH KD KC AH 2H X 7S 7H 7D X 7C 9D", "KS KH KD KC / AH 2H X / 7S 7H 7D X",
               drawn)
    assert g.is_legal("swap 3 7C") == allowed
    if allowed:
        play(g, "swap 3 7C", "layoff 2 4H", "layoff 2 X", "discard 9D")


def test_without_the_duty_a_freed_joker_needs_no_place() -> None:
    g = new_game("rummy", 2, {1: "KS KH KD KC 7S 7H 7D X 7C 2S 5H 9D JC"}, starter="QC",
                 stock="3C", options={"freed_joker_duty": False})
    play(g, "draw", "open KS KH KD KC / 7S 7H 7D X", "swap 2 7C", "discard 3C")
    assert "X" in g.view(1)["hand"]


def test_without_lay_offs_the_table_is_no_place() -> None:
    """Under the house rule ``layoffs`` off the freed joker goes only into a new meld: a swap
    counted the set of queens as its place, and left the player (a bot, in a hunt) with only
    ``timeout``."""
    hand, opening = "KS KH KD KC 7S 7H 7D X 7C QS QH QD 2C", "KS KH KD KC / 7S 7H 7D X / QS QH QD"
    g = opened(hand, opening, "3D")
    assert "swap 2 7C" in listed(g)
    g = new_game("rummy", 2, {1: hand}, starter="QC", stock="3D", options={"layoffs": False})
    play(g, "draw", f"open {opening}")
    # The reason names no table meld: none could take the joker at this table.
    with pytest.raises(IllegalAction, match=f"{NO_PLACE}: {NO_LAYOFFS}$"):
        g.apply("swap 2 7C")
    assert not any(a.startswith("swap") for a in listed(g))
