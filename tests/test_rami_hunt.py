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



def test_the_history_says_a_lay_down_was_a_close() -> None:
    """A Rami close lays every card but one, below the minimum if need be (`lay_all_close`):
    its event read as any opening, and the log said *Bot 2 opened: …* for 46 points at a table
    of 51. An opening that keeps more cards is no close."""
    g = new_game("rami51", 2, {1: "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C KC"})
    g.apply("open 2S 3S 4S 5S / 2H 3H 4H 5H / 2D 3D 4D / 2C 3C 4C")
    assert [c.text for c in g.hand(1)] == ["KC"]
    assert g.history()[-1] == {
        "seat": 1,
        "action": "open",
        "melds": ["2S 3S 4S 5S", "2H 3H 4H 5H", "2D 3D 4D", "2C 3C 4C"],
        "close": True,
    }
    opening = new_game("rami51", 2, {1: "KS KH KD QS QH QD 2C 5D 9H 7S 4C JD 3H 6S 8C"})
    opening.apply("open KS KH KD / QS QH QD")
    assert "close" not in opening.history()[-1]
    # simple's only lay-down is the close
    simple = new_game("simple", 2, {1: "2S 3S 4S 5S 7H 7D 7C 2D 3D 4D 9C 9H 9S 9D KC"})
    simple.apply("open 2S 3S 4S 5S / 7H 7D 7C / 2D 3D 4D / 9S 9H 9D 9C")
    assert simple.history()[-1]["close"] is True


def test_the_view_gives_the_total_that_loses_a_rami_game() -> None:
    """Nothing at the table said at what total a Rami game is lost (the page's scores panel
    says it from here)."""
    limits = {
        (variant, n): Game.new(variant, n, seed=1).public_view().get("limit")
        for variant in ("rami51", "rami71", "simple", "rummy", "indian")
        for n in (2, 4)
    }
    assert limits == {
        ("rami51", 2): 251, ("rami51", 4): 351, ("rami71", 2): 251, ("rami71", 4): 451,
        ("simple", 2): 300, ("simple", 4): 600, ("rummy", 2): None, ("rummy", 4): None,
        # an Indian pool's limit has the pool's own meaning (out past it): test_web_targets.py
        ("indian", 2): 101, ("indian", 4): 101,
    }
    assert Game.new("rami51", 2, {"limit": 500}, seed=1).view(1)["limit"] == 500
