"""`rummy`: a joker taken from the pile must be laid in the same turn, and no discard comes
before it: a meld, lay-off or swap that would leave it no place at all is refused (a decision,
listed in docs/rules.md). Its place is judged as a freed joker's is, on the table after the
move: a table meld that takes a joker, a run ending in a joker whose next card is in hand, or
two real cards left in hand that could meld with it."""

from __future__ import annotations

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction
from tests.helpers import new_game, play

NO_PLACE = (
    "that would leave the X you took from the pile with no place to go: no meld on the table "
    "could take it and no two cards left in your hand could meld with it"
)
SEAT0 = "X 2D 3D 8D 4S 6D 9C TC QS AS 3S 4D TD"


def taking_joker(hand: str, opening: str, drawn: str = "3C") -> Game:
    """Seat 1 opens with ``opening`` (after drawing and throwing ``drawn``), then takes the X
    seat 0 throws."""
    g = new_game("rummy", 2, {0: SEAT0, 1: hand}, starter="JH", stock=f"{drawn} 8S")
    play(g, "draw", f"open {opening}", f"discard {drawn}", "draw", "discard X", "take")
    assert g.view(1)["turn"]["owes"] == ["X"]
    return g


def listed(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_laying_off_the_fourth_card_of_its_only_place_is_refused_and_changes_nothing() -> None:
    # The set of sevens is the only meld that takes a joker; with 7C it is full, and 2S 5H 9D
    # JC QD could not meld with the X.
    g = taking_joker("KS KH KD KC 7S 7H 7D 7C 2S 5H 9D JC QD", "KS KH KD KC / 7S 7H 7D")
    before = (g.view(0), g.view(1), g.record())
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("layoff 2 7C")
    assert (g.view(0), g.view(1), g.record()) == before
    assert not g.is_legal("layoff 2 7C")
    assert "layoff 2 7C" not in listed(g) and "layoff 2 X" in listed(g)
    play(g, "layoff 2 X", "discard 2S")  # laid first, it no longer needs a place


def test_two_cards_left_in_hand_that_could_meld_with_it_are_a_place() -> None:
    g = taking_joker("KS KH KD KC 7S 7H 7D 7C 2S 5H 9D 6H QD", "KS KH KD KC / 7S 7H 7D")
    assert "layoff 2 7C" in listed(g)
    play(g, "layoff 2 7C", "meld 5H 6H X", "discard 2S")
    assert g.view(0)["table"][2]["cards"] == ["5H", "6H", "X"]


def test_a_meld_that_takes_its_last_place_is_refused_one_that_makes_a_place_is_not() -> None:
    # Four kings on the table; only the fives could meld with the X. A full set of fives is no
    # place, three of them are.
    g = taking_joker("KS KH KD KC 5S 5H 5D 5C 2S 9D JC 7H QD", "KS KH KD KC")
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("meld 5S 5H 5D 5C")
    assert "meld 5S 5H 5D 5C" not in listed(g) and "meld 5S 5H 5D" in listed(g)
    play(g, "meld 5S 5H 5D", "layoff 2 X", "discard 2S")


def test_a_swap_that_takes_the_last_card_it_could_meld_with_is_refused() -> None:
    # The table's sets are full; 7C and 8C are what the X could meld with, and the joker the
    # swap frees is no real card to meld with.
    g = taking_joker("KS KH KD KC 7S 7H 7D X 7C 8C 2S 5H JD", "KS KH KD KC / 7S 7H 7D X")
    with pytest.raises(IllegalAction, match=NO_PLACE):
        g.apply("swap 2 7C")
    assert not any(a.startswith("swap") for a in listed(g))
    assert "meld 7C 8C X" in listed(g)


@pytest.mark.parametrize(("kept", "allowed"), [("4H", True), ("9D", False)])
def test_a_run_ending_in_a_joker_is_a_place_with_the_card_beside_it_in_hand(
    kept: str, allowed: bool
) -> None:
    # AH 2H X (the X standing for 3H) takes no second joker beside the first; with 4H laid
    # after it, a joker fits at 5H. Filling the set of sevens takes the only other place.
    g = taking_joker(f"KS KH KD KC AH 2H X 7S 7H 7D 7C {kept} JC",
                     "KS KH KD KC / AH 2H X / 7S 7H 7D")
    assert g.is_legal("layoff 3 7C") == allowed
    assert ("layoff 3 7C" in listed(g)) == allowed
    if allowed:
        play(g, "layoff 3 7C", "layoff 2 4H", "layoff 2 X", "discard JC")


@pytest.mark.parametrize(("hand", "opening"), [
    ("KS KH KD KC 7S 7H 7D 7C 2S 5H 9D JC QD", "KS KH KD KC / 7S 7H 7D"),
    ("KS KH KD KC 7S 7H 7D 7C 2S 5H 9D 6H QD", "KS KH KD KC / 7S 7H 7D"),
    ("KS KH KD KC 7S 7H 7D X 7C 8C 2S 5H JD", "KS KH KD KC / 7S 7H 7D X"),
    ("KS KH KD KC AH 2H X 7S 7H 7D 7C 4H JC", "KS KH KD KC / AH 2H X / 7S 7H 7D"),
    ("KS KH KD KC AH 2H X 7S 7H 7D 7C 9D JC", "KS KH KD KC / AH 2H X / 7S 7H 7D"),
])
def test_the_listed_lay_offs_and_swaps_are_the_legal_ones(hand: str, opening: str) -> None:
    g = taking_joker(hand, opening)
    offered = set(listed(g))
    for n in range(1, len(g.view(1)["table"]) + 1):
        for c in sorted({c.text for c in g.hand(1)}):
            for act in (f"layoff {n} {c}", f"layoff {n} {c} low", f"layoff {n} {c} high",
                        f"swap {n} {c}"):
                assert g.is_legal(act) == (act in offered), act


def test_without_lay_offs_the_reason_names_no_table_meld() -> None:
    """Under the house rule ``layoffs`` off the table is no place at all: the refusal says so
    rather than that no meld on it could take the joker."""
    g = new_game("rummy", 2, {0: SEAT0, 1: "KS KH KD KC 5S 5H 5D 5C 2S 9D JC 7H QD"},
                 starter="JH", stock="3C 8S", options={"layoffs": False})
    play(g, "draw", "open KS KH KD KC", "discard 3C", "draw", "discard X", "take")
    with pytest.raises(IllegalAction) as refused:
        g.apply("meld 5S 5H 5D 5C")
    assert str(refused.value) == (
        "that would leave the X you took from the pile with no place to go: nothing may be "
        "laid off at this table and no two cards left in your hand could meld with it"
    )
