"""A card taken from the pile must be laid in the same turn, and no discard comes before it:
a move that would leave it no place at all is refused (a decision, listed in docs/rules.md),
so a player cannot lock their own turn."""

from __future__ import annotations

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction
from tests.helpers import new_game, play

SEAT0 = "TS 2D 3D 8C 8D AH AC 4H 6D 7D 9C KC KD"


def taking_ts(hand: str, opening: str) -> Game:
    """Seat 1 opens with ``opening``, then takes the TS seat 0 throws."""
    g = new_game("rummy", 2, {0: SEAT0, 1: hand}, starter="KH", stock="QD 8S")
    play(g, "draw", f"open {opening}", "discard QD", "draw", "discard TS", "take")
    assert g.view(1)["turn"]["owes"] == ["TS"]
    return g


def test_laying_off_the_card_the_taken_one_needs_is_refused_and_changes_nothing() -> None:
    # JS and QS are what TS can meld with; JS could go on the set of jacks.
    g = taking_ts("JH JD JC 5H 6H 7H 2C 3C 4C JS QS 9D 5C", "JH JD JC / 5H 6H 7H")
    before = (g.view(0), g.view(1))
    with pytest.raises(IllegalAction,
                       match="leave the TS you took from the pile with no place to go"):
        g.apply("layoff 1 JS")
    assert (g.view(0), g.view(1)) == before
    assert not g.is_legal("layoff 1 JS")
    listed = [str(a) for a in g.legal_actions()]
    assert "layoff 1 JS" not in listed
    assert "meld TS JS QS" in listed and "meld 2C 3C 4C" in listed
    # Laid with its partners first, the duty is met and JS's place no longer matters.
    play(g, "meld TS JS QS")
    assert g.view(1)["turn"]["owes"] == []


def test_a_meld_that_leaves_one_partner_is_refused_two_partners_are_enough() -> None:
    g = taking_ts("JH JD JC 5H 6H 7H 2C 3C 4C 9S JS 9D 5C", "JH JD JC / 5H 6H 7H")
    assert g.is_legal("meld 2C 3C 4C")  # 9S TS JS can still be laid
    g = taking_ts("JH JD JC 5H 6H 7H 2C 3C 4C 9S 9H 9D 5C", "JH JD JC / 5H 6H 7H")
    assert not g.is_legal("meld 2C 3C 4C")  # only 9S is left for TS
    assert not g.is_legal("meld 9S 9H 9D")  # and without the nines nothing is
    # TS cannot be laid at all: it may only go back (or the clock undoes the turn).
    assert [str(a) for a in g.legal_actions()] == ["return", "timeout"]


def test_a_meld_on_the_table_of_its_suit_keeps_every_move_open() -> None:
    # TS can go on 7S 8S 9S whatever else is laid.
    g = taking_ts("JH JD JC 7S 8S 9S 2C 3C 4C JS QS 9D 5C", "JH JD JC / 7S 8S 9S")
    assert g.is_legal("layoff 1 JS")
    play(g, "layoff 1 JS", "layoff 2 TS")
    assert g.view(1)["turn"]["owes"] == []


def test_a_swap_counts_the_joker_it_frees() -> None:
    # Only QS can meld with TS, but swapping 7H for the joker of 5H 6H X frees a joker that
    # makes TS X QS: the swap is a place, before or after the clubs are laid.
    g = taking_ts("JH JD JC 5H 6H X 7H QS 9D 5C 2C 3C 4C", "JH JD JC / 5H 6H X")
    listed = [str(a) for a in g.legal_actions()]
    assert "swap 2 7H" in listed and "meld 2C 3C 4C" in listed
    play(g, "meld 2C 3C 4C", "swap 2 7H", "meld TS X QS")
    assert g.view(1)["turn"]["owes"] == []


def test_a_joker_taken_from_the_pile_has_a_place_on_any_meld() -> None:
    """A joker stands for any card, so once taken from the pile it can go on any meld of the
    table: the player may lay other cards first and lay the joker before discarding."""
    seat0 = "X 2D 3D 8C 8D AH AC 4H 6D 7D 9C KC QS"
    g = new_game("rummy", 2, {0: seat0, 1: "KS KH KD 5H 6H 7H 8H 4S 9S 2C 3C 5C TC"},
                 starter="JH", stock="QD 8S")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard QD", "draw", "discard X", "take")
    assert g.view(1)["turn"]["owes"] == ["X"]
    assert g.is_legal("layoff 2 8H")
    assert "layoff 2 8H" in [str(a) for a in g.legal_actions()]
    play(g, "layoff 2 8H")
    with pytest.raises(IllegalAction, match="lay the X"):
        g.apply("discard 9S")
    play(g, "layoff 1 X", "discard 9S")
