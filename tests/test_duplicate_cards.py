"""Two decks: every face exists twice, and the two copies look alike. Positions where a hand,
the table or the pile holds both copies of a face, each on an explicit deck.

Once a card of the taken card's face is laid, the taken card is on the table and the copy
left in hand is the player's own (`Game.kept_card`), with the taken card's duty or without it.
"""

from __future__ import annotations

import random

from rummykit.bots.observation import observe
from rummykit.bots.world import build_world
from rummykit.engine import Game
from tests.helpers import new_game, play, same

NO_DUTY = {"taken_card_duty": False}


def test_without_the_duty_an_opening_may_leave_the_twin_of_the_taken_card_to_discard() -> None:
    # House rule taken_card_duty off: the card taken may not be thrown that turn, but seat 1
    # holds its twin. The opening lays one 8C (the taken one) and leaves the other, below the
    # minimum as it leaves one card: that 8C is the player's own and goes out by discarding.
    g = new_game("rummy", 2, {1: "2S 3S 4S 2H 3H 4H 2D 3D 4D 5C 6C 7C 8C"}, starter="8C",
                 stock="KD", options=NO_DUTY)
    play(g, "take", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / 5C 6C 7C 8C")
    assert same(g.hand(1), "8C")
    assert g.kept_card() is None
    assert g.view(1)["turn"]["can"] == ["discard"]
    g.apply("discard 8C")
    assert Game.from_record(g.record()).view(0) == g.view(0)
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"]) == (1, "discard")


def test_without_the_duty_a_close_may_leave_the_twin_of_the_taken_card_to_discard() -> None:
    # simple: the close lays every card but one; seat 1 takes the 8C seat 0 threw, holding the
    # other, and closes with one of them in its run.
    hand = "2S 2H 2D 3S 3H 3D 4S 4H 4D 5C 6C 7C 8C 9C KD"
    g = new_game("simple", 2, {1: hand}, stock="8C", options=NO_DUTY)
    play(g, "discard KD", "draw", "discard 8C", "take")
    play(g, "open 2S 2H 2D / 3S 3H 3D / 4S 4H 4D / 5C 6C 7C 8C 9C")
    assert same(g.hand(1), "8C")
    assert "discard 8C" in [str(a) for a in g.legal_actions()]
    g.apply("discard 8C")
    assert g.view(0)["results"][0]["winner"] == 1


def test_a_bot_world_knows_the_taken_card_was_laid() -> None:
    # What a bot rebuilds from its observation keeps no card once a copy of the taken face is
    # laid, as the game does (with the duty and without it).
    for options in ({}, NO_DUTY):
        g = new_game("rummy", 2, {1: "2S 3S 4S 2H 3H 4H 2D 3D 4D 5C 6C 7C 8C"}, starter="8C",
                     stock="KD", options=options)
        play(g, "take", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / 5C 6C 7C 8C")
        world = build_world(observe(g, 1), random.Random(0))
        assert world.kept_card() is None, options
        assert world.is_legal("discard 8C"), options


def test_without_the_duty_a_swap_may_rely_on_laying_one_copy_and_discarding_the_other() -> None:
    # House rule taken_card_duty off, the freed joker's duty on (rummy). Seat 1 holds 4H and
    # KD and takes the other 4H. Swapping KD for the joker of KS KH KC X frees a joker whose
    # only place is after a 4H laid on AH 2H X (X 3C 4C X and the full set take none); the 4H
    # left is then the player's own and may be discarded, so the swap keeps a way to finish.
    hand = "KS KH KC X AH 2H X X 3C 4C X 4H KD"
    g = new_game("rummy", 2, {1: hand}, starter="JD", stock="QC 4H", options=NO_DUTY)
    play(g, "draw", "open KS KH KC X / AH 2H X / X 3C 4C X", "discard QC")
    play(g, "draw", "discard 4H", "take")
    assert same(g.hand(1), "4H 4H KD")
    assert "swap 1 KD" in [str(a) for a in g.legal_actions()]
    play(g, "swap 1 KD", "layoff 2 4H", "layoff 2 X high", "discard 4H")
    assert g.view(0)["results"][0]["winner"] == 1
