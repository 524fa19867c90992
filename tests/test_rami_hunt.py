"""What a hunt through the Rami family (`rami51`, `rami71`, `simple`) played on the page found
in the engine's views (the page's side: tests/test_web_rami.py)."""

from __future__ import annotations

from rummykit.engine import Game
from tests.helpers import new_game, play

# seat 1 is first (15 cards): two joker-free runs worth 90 and no set at all
RUNS = "9H TH JH QH KH 9S TS JS QS 2C 3D 4C 5D 6C 8D"


def test_the_view_says_what_shape_a_first_lay_down_needs() -> None:
    """In rami71 the meter counts only lay-downs with a joker-free run and a joker-free set:
    a hand of two runs worth 90 showed *0 / 71*, and nothing in the view let the page say why."""
    g = new_game("rami71", 2, {1: RUNS})
    opening = g.view(1)["opening"]
    assert opening["meter"]["points"] == 0 and not opening["meter"]["enough"]
    assert opening["needs"] == "clean-run-and-set"
    # the other variants: simple's close needs a run and a set; rami51 and rummy no shape
    assert Game.new("simple", 2, seed=1).view(0)["opening"]["needs"] == "run-and-set"
    assert Game.new("simple", 4, seed=1).view(0)["opening"]["needs"] == "run-and-set"
    assert Game.new("rami51", 2, seed=1).view(0)["opening"]["needs"] is None
    assert Game.new("rummy", 2, seed=1).view(0)["opening"]["needs"] is None
    # a house rule asks for the shape elsewhere, and the view follows it
    house = Game.new("rami51", 2, {"clean_run_and_set": True}, seed=1)
    assert house.view(0)["opening"]["needs"] == "clean-run-and-set"


def test_the_view_says_the_clean_run_does_without_the_card_taken() -> None:
    """With the discard taken in rami71 the joker-free run must be made without it: the view
    said only that the card must be in the lay-down (`must_include`)."""
    g = new_game("rami71", 2, {1: RUNS, 0: "8C 8H 2S 3S 4S"})
    play(g, "discard 8D", "take")
    opening = g.view(0)["opening"]
    assert opening["must_include"] == "8D"
    assert opening["needs"] == "clean-run-and-set-without-taken"
    # the other seat is not told of it, and without the duty nothing is owed
    assert g.view(1)["opening"]["needs"] == "clean-run-and-set"
    free = new_game("rami71", 2, {1: RUNS}, options={"taken_card_duty": False})
    play(free, "discard 8D", "take")
    assert free.view(0)["opening"]["needs"] == "clean-run-and-set"


def test_a_seat_freed_of_the_minimum_still_needs_the_clean_run_and_set() -> None:
    """Rami 71 2 v 2: once the partner has laid down the seat needs no minimum, and the page
    said just that; the joker-free run and set are still needed (docs/rules.md)."""
    first = "TS JS QS KS AS KH KD KC 2H 3H 4H 5D 9C 7D 2D"
    g = new_game("rami71", 4, {1: first}, stock="3D 5S QS")
    play(g, "open TS JS QS KS AS / KH KD KC", "discard 2D")
    mine = g.view(3)["opening"]
    assert (mine["minimum"], mine["partner_opened"]) == (0, True)
    assert mine["needs"] == "clean-run-and-set"
    assert g.view(2)["opening"]["needs"] == "clean-run-and-set"
