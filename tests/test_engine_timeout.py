"""The automatic play (`timeout`) of the rule book's README, for every variant."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.engine import Game
from tests.helpers import cards, new_game, play, same

OPENER = "KS KH KD 5H 6H 7H 2C 3C 4C 9D 9S 9H 5C"


def last_timeout(g: Game) -> dict[str, object]:
    return next(e for e in reversed(g.history()) if e["action"] == "timeout")


# -- rummy -------------------------------------------------------------------------------------


def test_not_drawn_draws_from_the_stock_and_discards_that_card() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="QC", stock="AS")
    g.apply("timeout")
    assert same(g.hand(1), OPENER)
    assert g.view(0)["pile"] == ["QC", "AS"]
    e = last_timeout(g)
    assert (e["draw"], e["undone"], e["card"]) == (True, False, "AS")
    assert g.to_move == 0 and g.phase == "draw"


def test_drawn_card_still_in_hand_is_discarded() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="QC", stock="2D")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "timeout")
    assert g.view(0)["pile"] == ["QC", "2D"]
    assert g.view(0)["seats"][1]["opened"]  # nothing owed: the opening stays
    assert last_timeout(g)["draw"] is False


def test_drawn_card_laid_the_highest_penalty_non_joker_goes() -> None:
    hand = "KS KH KD 5H 6H 7H 2C 3C 4C X AD 9S 9H"
    g = new_game("rummy", 2, {1: hand}, starter="QC", stock="8H")
    play(g, "draw", "open KS KH KD / 5H 6H 7H 8H", "timeout")
    # X (20) is a joker; AD (11) is the highest penalty.
    assert g.view(0)["pile"][-1] == "AD"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Ties on penalty 10: the highest rank (K), then the first suit S H D C.
        ("KS KH KD 5H 6H 7H 2C 3C 4C QS KC JD TH", "KC"),
        ("KS KH KD 5H 6H 7H 2C 3C 4C QS QC QH TD", "QS"),
        ("KS KH KD 5H 6H 7H 2C 3C 4C TD TC TH 9C", "TH"),
    ],
)
def test_ties_highest_rank_then_first_suit(hand: str, expected: str) -> None:
    g = new_game("rummy", 2, {1: hand}, starter="QD", stock="8H")
    play(g, "draw", "open KS KH KD / 5H 6H 7H 8H", "timeout")
    assert g.view(0)["pile"][-1] == expected


def test_a_hand_of_jokers_only_discards_a_joker() -> None:
    g = new_game("rummy", 2, {1: "2S 3S 4S 2H 3H 4H 2D 3D 4D 5C 6C X X"}, starter="QD",
                 stock="7C")
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / 5C 6C 7C", "timeout")
    assert g.view(0)["pile"][-1] == "X" and g.hand(1) == cards("X")


def test_owed_taken_card_everything_is_undone_then_draw_and_discard() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="8H", stock="JD")
    before = g.view(0)
    g.apply("take")
    g.apply("timeout")
    assert same(g.hand(1), OPENER)
    v = g.view(0)
    assert v["pile"] == ["8H", "JD"] and v["stock"] == before["stock"] - 1
    assert v["table"] == [] and not v["seats"][1]["opened"]
    e = last_timeout(g)
    assert (e["undone"], e["draw"], e["card"]) == (True, True, "JD")


def test_owed_taken_card_after_an_opening_undoes_the_opening_too() -> None:
    hand = "KS KH KD 5H 6H 7H 2C 3C 4C 9D 9S 9H JS"
    g = new_game("rummy", 2, {1: hand}, starter="JH", stock="QD")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard QD")
    g.apply("draw")
    g.apply("timeout")
    # Seat 1 takes the pile top (TS: 9S and JS could still meld with it), lays other cards,
    # still owes it: everything is undone.
    top = g.view(1)["pile"][-1]
    g.apply("take")
    g.apply("meld 2C 3C 4C")
    assert g.view(1)["turn"]["owes"] == [top]
    table_before = len(g.view(1)["table"])
    g.apply("timeout")
    v = g.view(1)
    assert len(v["table"]) == table_before - 1
    assert v["pile"][-2] == top
    assert last_timeout(g)["undone"] is True


def test_owed_freed_joker_undoes_the_swap_and_the_opening() -> None:
    hand = "KS KH X 5H 6H 7H KD 2C 3C 4C 9S 9H 9D"
    g = new_game("rummy", 2, {1: hand}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH X / 5H 6H 7H", "swap 1 KD")
    assert g.view(1)["turn"]["owes"] == ["X"]
    g.apply("timeout")
    v = g.view(1)
    assert v["table"] == [] and not v["seats"][1]["opened"]
    # Undone back to the start of the turn, the 8S drawn (again: the stock gives the same
    # card) and thrown.
    assert same(g.hand(1), hand) and v["pile"] == ["QC", "8S"] and v["stock"] == 80
    e = last_timeout(g)
    assert (e["undone"], e["card"]) == (True, "8S")


def test_timeout_never_lays_down_even_with_an_opening_in_hand() -> None:
    g = new_game("rummy", 2, {1: "2S 3S 4S 2H 3H 4H 2D 3D 4D AC 2C 3C 4C"}, starter="QD",
                 stock="5C")
    g.apply("timeout")
    assert g.view(0)["table"] == [] and len(g.hand(1)) == 13
    assert not g.deal.over


def test_timeout_after_return_draws() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="8H", stock="JD")
    play(g, "take", "return", "timeout")
    assert g.view(0)["pile"] == ["8H", "JD"] and same(g.hand(1), OPENER)


def test_decision_records_show_timeouts_as_ordinary_actions_and_replay() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="8H", stock="JD")
    play(g, "take", "timeout", "timeout")
    assert g.record()["deals"][0]["actions"] == ["take", "timeout", "timeout"]
    assert Game.from_record(g.record()).view(1) == g.view(1)


# -- Rami ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["rami51", "rami71", "simple"])
def test_rami_first_turn_the_15th_card_player_discards_the_highest(variant: str) -> None:
    hand = "2S 3S 4S 2H 3H 4H 2D 3D 4D AC 2C 3C 4C KD KH"
    g = new_game(variant, 2, {1: hand})
    g.apply("timeout")
    e = last_timeout(g)
    assert (e["draw"], e["card"]) == (False, "AC")
    assert len(g.hand(1)) == 14


def test_rami_owed_taken_card_is_undone() -> None:
    hand0 = "3S 4S KS KH KD QS QH QD 7H 8H 9H 2C 2D JC"
    g = new_game("rami51", 2, {1: "5S AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 9C", 0: hand0},
                 stock="6D")
    play(g, "discard 5S", "take", "timeout")
    assert same(g.hand(0), hand0)
    assert g.view(0)["pile"] == ["5S", "6D"]
    assert last_timeout(g)["undone"] is True


def test_rami_freed_joker_is_not_owed_and_the_swap_stays() -> None:
    hand = "6S 6H 6D X KS KH KD TH JH QH 6C 7D 2C 9S 4D"
    g = new_game("rami51", 2, {1: hand})
    play(g, "open 6S 6H 6D X / KS KH KD / TH JH QH", "swap 1 6C", "timeout")
    assert g.view(0)["table"][0]["cards"] == ["6S", "6H", "6D", "6C"]
    assert parse_card("X") in g.hand(1)
    # Highest penalty non-joker of X 7D 2C 9S 4D: 9S.
    assert last_timeout(g)["card"] == "9S"


# -- Indian --------------------------------------------------------------------------------------


def test_indian_never_declares_nor_drops() -> None:
    decl = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
    g = new_game("indian", 2, {1: decl}, indicator="7C", starter="2C", stock="KH")
    g.apply("timeout")
    assert not g.deal.over and g.view(0)["seats"][1]["out"] is None
    assert g.view(0)["pile"][-1] == "KH"


def test_indian_skips_printed_and_wild_jokers() -> None:
    # Kings wild: KS KH and X are jokers; the highest other card is QD (10, rank Q).
    hand = "KS KH X QD 2S 3S 5H 6H 8D 9C 4C 3D 2H"
    g = new_game("indian", 2, {1: hand}, indicator="KC", starter="AS")
    play(g, "take", "timeout")
    e = last_timeout(g)
    assert (e["draw"], e["undone"]) == (False, False)
    # AS was taken from the pile (the engine never lets it be thrown back the same turn).
    assert e["card"] == "QD"


def test_indian_ace_counts_high_among_tens() -> None:
    hand = "KS AH QD 2S 3S 5H 6H 8D 9C 4C 3D 2H JC"
    g = new_game("indian", 2, {1: hand}, indicator="7C", starter="5D", stock="2D")
    play(g, "draw", "discard 2D")
    g.apply("timeout")  # seat 0 draws and throws
    # Seat 1 takes the pile top (which it may not throw back) and times out: among the tens
    # KS AH QD JC the ace counts high.
    play(g, "take", "timeout")
    assert last_timeout(g)["card"] == "AH"


@pytest.mark.parametrize("variant", ["rummy", "rami51", "rami71", "simple", "indian"])
def test_decision_every_game_has_the_same_clock_and_automatic_play(variant: str) -> None:
    g = Game.new(variant, 2, {"clock": 30}, seed=21)
    assert g.view(0)["options"]["clock"] == 30
    for _ in range(6):
        seat = g.to_move
        assert seat is not None
        before = len(g.hand(seat))
        pile = len(g.view(0)["pile"])
        g.apply("timeout")
        e = last_timeout(g)
        # One card in (unless the 15th card was dealt), one card out, nothing laid.
        assert len(g.hand(seat)) == before - (0 if e["draw"] else 1)
        assert g.view(0)["pile"][-1] == e["card"] and len(g.view(0)["pile"]) == pile + 1
        assert g.view(0)["table"] == []
