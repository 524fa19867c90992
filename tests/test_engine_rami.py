"""The Rami family (`rami51`, `rami71`, `simple`, 1 v 1 and 2 v 2): every worked check and
Decision of rami.md, on explicit decks."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.engine import Game
from rummykit.engine.scoring import DealResult, GameScore
from rummykit.errors import IllegalAction
from rummykit.melds import rummy_penalty
from rummykit.rules import make_rules
from tests.helpers import all_cards, build_deck, cards, full_deck, new_game, play, same

# 14 cards in melds worth 32 (below 51) and a KD to throw: a rami sec in rami51.
SEC51 = "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 4C KD"
SEC51_OPEN = "open AS 2S 3S 4S / AH 2H 3H / AD 2D 3D / AC 2C 3C 4C"
# The same with a joker-free set, for rami71 (and simple: a run and a set).
SEC71 = "AS 2S 3S 4S AH 2H 3H 5D 5H 5C AC 2C 3C 4C KD"
SEC71_OPEN = "open AS 2S 3S 4S / AH 2H 3H / 5H 5D 5C / AC 2C 3C 4C"
# 14 heavy cards: 4 jokers and 10 kings and queens = 80 + 100.
HEAVY180 = "X X X X KS KS KH KH JD JD QS QS QH QH"
# 14 cards without jokers for the 106-card decks: 14 tens.
HEAVY140 = "KS KS KH KH KD KC QS QS QH QH QD QD JS JS"


def penalty(text: str) -> int:
    return sum(rummy_penalty(c) for c in cards(text))


def refused(game: Game, action: str, match: str | None = None) -> None:
    before = game.record(), [game.view(s) for s in range(game.players)]
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)
    assert not game.is_legal(action)
    assert (game.record(), [game.view(s) for s in range(game.players)]) == before


# -- deck and deal ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players", "size", "stock"),
    [("rami51", 2, 108, 79), ("rami51", 4, 108, 51), ("rami71", 2, 106, 77),
     ("rami71", 4, 106, 49), ("simple", 2, 106, 77), ("simple", 4, 106, 49)],
)
def test_worked_check_deck_sizes_and_the_deal(
    variant: str, players: int, size: int, stock: int
) -> None:
    g = Game.new(variant, players, seed=1)
    assert sum(all_cards(g).values()) == size and all_cards(g) == full_deck(g)
    v = g.view(0)
    assert v["stock"] == stock
    assert v["pile"] == []
    assert [s["cards"] for s in v["seats"]] == [15 if s == 1 else 14 for s in range(players)]


def test_worked_check_first_turn_the_first_player_holds_15_and_only_discards() -> None:
    g = new_game("rami51", 2, {1: SEC51}, stock="9H")
    assert g.to_move == 1 and g.phase == "play"
    assert len(g.hand(1)) == 15
    assert g.view(1)["turn"]["drawn"] == "deal"
    refused(g, "draw", "already drawn")
    refused(g, "take", "already drawn")
    g.apply("discard KD")
    assert g.view(0)["pile"] == ["KD"]
    assert g.to_move == 0 and g.phase == "draw"
    g.apply("draw")
    assert parse_card("9H") in g.hand(0)


def test_decision_the_dealer_serves_themself_last_and_the_15th_card_goes_first() -> None:
    deck = build_deck("rami51", 4, {1: SEC51})
    g = Game.new("rami51", 4, deck=deck)
    assert same(g.hand(1), SEC51)
    assert deck[56] == parse_card("KD")
    assert g.hand(0)[-1] == deck[55]


def test_the_pile_starts_empty() -> None:
    g = Game.new("rami51", 2, seed=3)
    assert g.view(0)["pile"] == [] and g.public_view()["pile"] == []
    refused(g, "take")
    g.apply(f"discard {g.hand(1)[0].text}")
    assert len(g.view(0)["pile"]) == 1


def test_decision_partners_sit_opposite() -> None:
    g = Game.new("rami51", 4, seed=2)
    assert [s["team"] for s in g.view(0)["seats"]] == [0, 1, 0, 1]
    assert g.rules.teams and g.scores == [0, 0]
    assert not Game.new("rami51", 2, seed=2).rules.teams


# -- laying down ----------------------------------------------------------------------------------


def test_worked_check_51_threshold() -> None:
    hand = "TS JS QS KS AS 9H TH JH QH KH 2C 2D 5D 7C 8D"
    g = new_game("rami51", 2, {1: hand})
    refused(g, "open 9H TH JH QH KH", "worth 49; the minimum is 51")
    g.apply("open TS JS QS KS AS")
    assert g.view(0)["seats"][1]["opened"]


def test_decision_card_values_for_the_thresholds_are_rummy_opening_values() -> None:
    g = new_game("rami51", 2, {1: "AS AH AD 2C 3C 4C AH 2H 3H 8D 9D TD JD 7S 7C"})
    # A A A = 33, A 2 3 = 6 (ace low), 2C 3C 4C = 9: 48 < 51; with 8D-JD (37) it opens.
    refused(g, "open AS AH AD / AH 2H 3H / 2C 3C 4C", "worth 48")
    g.apply("open AS AH AD / 8D 9D TD JD")


def test_worked_check_rami71_62_without_the_joker_is_not_enough() -> None:
    hand = "KS KH X QS QH QD 3S 4S 5S 7H 8H 9H 2C 2D KD"
    g = new_game("rami71", 2, {1: hand})
    refused(g, "open KS KH X / QS QH QD / 3S 4S 5S", "worth 62 without jokers; the minimum is 71")
    g.apply("open KS KH X / QS QH QD / 3S 4S 5S / 7H 8H 9H")


def test_decision_rami71_needs_a_joker_free_run_and_set() -> None:
    hand = "KS KH KD QS QH QD JS JH JD 7H 8H 9H X 2C 5D"
    g = new_game("rami71", 2, {1: hand})
    refused(g, "open KS KH KD / QS QH QD / JS JH JD", "a run and a set without jokers")
    # The only run holds a joker: no joker-free run.
    refused(g, "open KS KH KD / QS QH QD / 7H X 9H", "without jokers")
    g.apply("open KS KH KD / QS QH QD / 7H 8H 9H")


def test_decision_rami71_a_joker_free_run_made_without_the_taken_card() -> None:
    hand0 = "3S 4S KS KH KD QS QH QD 7H 8H 9H 2C 2D JC"
    g = new_game("rami71", 2, {1: "5S " + SEC51.replace("KD", "9C").replace("AS ", ""),
                               0: hand0})
    g.apply("discard 5S")
    g.apply("take")
    refused(g, "open 3S 4S 5S / KS KH KD / QS QH QD",
            "one run without jokers must be made without the 5S")
    g.apply("open 3S 4S 5S / 7H 8H 9H / KS KH KD / QS QH QD")
    assert g.view(0)["turn"]["owes"] == []


def test_rami51_does_not_ask_for_a_run_without_the_taken_card() -> None:
    hand0 = "3S 4S KS KH KD QS QH QD 7H 8H 9H 2C 2D JC"
    g = new_game("rami51", 2, {1: "5S " + SEC51.replace("KD", "9C").replace("AS ", ""),
                               0: hand0})
    play(g, "discard 5S", "take", "open 3S 4S 5S / KS KH KD / QS QH QD")


def test_decision_a_taken_card_carries_the_rummy_duty_and_may_be_returned() -> None:
    hand0 = "3S 4S KS KH KD QS QH QD 7H 8H 9H 2C 2D JC"
    g = new_game("rami51", 2, {1: "5S " + SEC51.replace("KD", "9C").replace("AS ", ""),
                               0: hand0}, stock="6D")
    play(g, "discard 5S", "take")
    assert g.view(0)["turn"]["owes"] == ["5S"]
    refused(g, "discard JC", "lay the 5S")
    refused(g, "open KS KH KD / QS QH QD", "5S you took from the pile must be part of it")
    play(g, "return", "draw", "discard 6D")
    assert g.view(1)["pile"] == ["5S", "6D"]


def test_going_out_needs_a_discard_keep_one_card() -> None:
    hand = "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 4C 5C"
    g = new_game("rami51", 2, {1: hand})
    refused(g, "open AS 2S 3S 4S / AH 2H 3H / AD 2D 3D / AC 2C 3C 4C 5C", "keep a card")
    g.apply("open AS 2S 3S 4S / AH 2H 3H / AD 2D 3D / AC 2C 3C 4C")
    refused(g, "layoff 4 5C", "keep a card")
    g.apply("discard 5C")
    assert g.over is False and g.view(0)["results"][0]["winner"] == 1


def test_rami_sec_is_allowed_below_the_threshold_and_not_doubled() -> None:
    g = new_game("rami51", 2, {1: SEC51, 0: HEAVY180})
    refused(g, "open AS 2S 3S 4S / AH 2H 3H", "worth 16; the minimum is 51")
    play(g, SEC51_OPEN, "discard KD")
    r = g.view(0)["results"][0]
    assert penalty(HEAVY180) == 180
    assert (r["winner"], r["points"], r["double"], r["penalties"]) == (1, 180, False, [180, 0])
    assert g.scores == [180, 0] and not g.over and g.phase == "deal-over"


def test_rami71_rami_sec_still_needs_the_joker_free_run_and_set() -> None:
    g = new_game("rami71", 2, {1: SEC71, 0: HEAVY140})
    play(g, SEC71_OPEN, "discard KD")
    assert g.view(0)["results"][0]["points"] == 140


def test_rami71_lay_all_close_without_a_set_is_refused() -> None:
    hand = "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 4C KD"
    g = new_game("rami71", 2, {1: hand})
    refused(g, SEC51_OPEN, "a run and a set without jokers")


def test_close_after_laying_down_bit_by_bit() -> None:
    hand1 = "TS JS QS KS AS 2H 3H 4H 5D 5H 5C 8C 9C 7D 2D"
    hand0 = "2S 3S 4S 6H 6D 7S 8S 9H TH JH QD KC AD X"
    g = new_game("rami51", 2, {1: hand1, 0: hand0}, stock="9D 7C")
    play(g, "open TS JS QS KS AS", "discard 2D")
    play(g, "draw", "discard 9D")
    play(g, "draw", "meld 2H 3H 4H", "meld 5D 5H 5C", "meld 7C 8C 9C")
    assert g.hand(1) == cards("7D")
    g.apply("discard 7D")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["points"]) == (1, "discard", penalty(hand0))


def test_decision_after_laying_down_the_player_may_go_on_the_same_turn() -> None:
    hand = "TS JS QS KS AS 2H 3H 4H 5D 5H 5C 9S 7D 7C 2D"
    g = new_game("rami51", 2, {1: hand})
    play(g, "open TS JS QS KS AS", "meld 2H 3H 4H", "meld 5D 5H 5C", "layoff 1 9S")
    assert len(g.hand(1)) == 3
    g.apply("discard 2D")
    assert g.to_move == 0


# -- joker swaps ------------------------------------------------------------------------------

SWAP_HAND = "6S X 6D KS KH KD TH JH QH 6C 6H 7D 2C 9S 4D"


def test_worked_check_6S_X_6D_plus_6C_is_added_and_the_joker_stays() -> None:
    g = new_game("rami51", 2, {1: SWAP_HAND})
    g.apply("open 6S 6D X / KS KH KD / TH JH QH")
    refused(g, "swap 1 6C", "only as its fourth card")
    g.apply("layoff 1 6C")
    assert g.view(0)["table"][0]["cards"] == ["6S", "6D", "6C", "X"]
    assert "X" not in [c.text for c in g.hand(1)]


def test_a_full_set_with_two_jokers_refuses_a_swap_without_suggesting_a_lay_off() -> None:
    """In a set a joker is freed only by the card that makes it four natural cards; a set of
    four holding two jokers keeps them, and has no room for the card to be laid off."""
    hand1 = "6S 6H X X QS KS AS TH TD TC 2C 3C 4D 9H 8D"
    hand0 = "6D 7D 8C 9C 2S 3H 4S 5C QH QD QC JH JD JC"
    g = new_game("rami51", 2, {1: hand1, 0: hand0}, stock="7S 2H")
    play(g, "open 6S 6H X X / QS KS AS / TH TD TC", "discard 9H")
    play(g, "draw", "open QH QD QC / JH JD JC")
    refused(g, "swap 1 6D", "6D does not take the place of a joker in meld 1")
    refused(g, "layoff 1 6D")


def test_decision_after_6C_is_added_to_6S_X_6D_the_6H_frees_the_joker() -> None:
    g = new_game("rami51", 2, {1: SWAP_HAND})
    play(g, "open 6S 6D X / KS KH KD / TH JH QH", "layoff 1 6C", "swap 1 6H")
    assert g.view(0)["table"][0]["cards"] == ["6S", "6H", "6D", "6C"]
    assert parse_card("X") in g.hand(1)
    # No duty to lay the freed joker this turn (unlike rummy).
    assert g.view(1)["turn"]["owes"] == []
    g.apply("discard 2C")
    assert g.to_move == 0 and parse_card("X") in g.hand(1)


def test_worked_check_6S_6H_6D_X_and_6C_frees_the_joker() -> None:
    hand = "6S 6H 6D X KS KH KD TH JH QH 6C 7D 2C 9S 4D"
    g = new_game("rami51", 2, {1: hand})
    play(g, "open 6S 6H 6D X / KS KH KD / TH JH QH", "swap 1 6C")
    assert g.view(0)["table"][0]["cards"] == ["6S", "6H", "6D", "6C"]
    assert parse_card("X") in g.hand(1)


def test_run_joker_freed_by_the_exact_card() -> None:
    hand = "6D X 8D KS KH KD TH JH QH 7D 7H 2C 9S 4D 5S"
    g = new_game("rami51", 2, {1: hand})
    g.apply("open 6D X 8D / KS KH KD / TH JH QH")
    refused(g, "swap 1 7H", "does not take the place")
    g.apply("swap 1 7D")
    assert g.view(0)["table"][0]["cards"] == ["6D", "7D", "8D"]


def test_swap_needs_a_laid_down_player() -> None:
    g = new_game("rami51", 2, {1: SWAP_HAND, 0: "6C 6H 2S 3S 9C 9H 4C 5C 7S 8S JD QD KC AC"},
                 stock="2D")
    play(g, "open 6S 6D X / KS KH KD / TH JH QH", "layoff 1 6C", "discard 2C")
    g.apply("draw")
    refused(g, "swap 1 6H", "open first")


# -- teams ---------------------------------------------------------------------------------------


def _team_game(variant: str = "rami51") -> Game:
    first = "TS JS QS KS AS 2H 3H 4H 5D 5H 5C 9S 7D 7C 2D"
    partner = "2C 3C 4C 6S 6H 6D 8S 8H JD JH QC KC 9D 4S"
    rival = "2S 3S 4D 7S 7H 8C 9C TC JC QD KH AH AD 9H"
    return new_game(variant, 4, {1: first, 2: rival, 3: partner}, stock="3D 5S QS")


def test_partner_lays_down_without_the_threshold() -> None:
    g = _team_game()
    play(g, "open TS JS QS KS AS", "discard 2D")
    g.apply("draw")  # seat 2, a rival: still needs 51
    refused(g, "open 8C 9C TC", "worth 27; the minimum is 51")
    g.apply("discard 3D")
    g.apply("draw")  # seat 3, the partner of seat 1
    g.apply("open 2C 3C 4C")
    g.apply("meld 6S 6H 6D")
    assert g.view(0)["seats"][3]["opened"]


def test_the_view_gives_the_minimum_a_seat_needs_once_its_partner_laid_down() -> None:
    # The meter of seat 3 is enough at 27 once its partner (seat 1) has laid down: the view
    # said the minimum was still 51, and the page then explained the 27 as a close's.
    g = _team_game()
    assert g.view(3)["opening"]["minimum"] == 51
    assert g.view(3)["opening"]["partner_opened"] is False
    play(g, "open TS JS QS KS AS", "discard 2D")
    mine = g.view(3)["opening"]
    assert (mine["minimum"], mine["partner_opened"], mine["meter"]["enough"]) == (0, True, True)
    assert mine["meter"]["points"] == 27
    rival = g.view(2)["opening"]
    assert (rival["minimum"], rival["partner_opened"]) == (51, False)


def test_a_seat_freed_by_its_partner_is_told_to_lay_down_first_with_no_minimum() -> None:
    g = _team_game()
    play(g, "open TS JS QS KS AS", "discard 2D")
    g.apply("draw")  # seat 2, a rival: still told of the 51
    refused(g, "meld 8C 9C TC", "open first: your first melds must reach 51")
    play(g, "discard 3D", "draw")  # seat 3, the partner of seat 1
    refused(g, "layoff 1 9D", "^lay down first$")
    refused(g, "meld 2C 3C 4C", "^lay down first$")


def test_rami71_partner_still_needs_a_joker_free_run_and_set() -> None:
    first = "TS JS QS KS AS 2H 3H 4H 5D 5H 5C 9S 7D 7C 2D"
    g = new_game("rami71", 4, {1: first, 3: "2C 3C 4C 6S 6H 6D 8S 8H JD JH QC KC 9D 4S"},
                 stock="3D 5S QS")
    play(g, "open TS JS QS KS AS / 2H 3H 4H / 5D 5H 5C", "discard 2D")
    play(g, "draw", "discard 3D")
    g.apply("draw")
    refused(g, "open 2C 3C 4C", "a run and a set without jokers")
    g.apply("open 2C 3C 4C / 6S 6H 6D")


def test_team_scoring_only_the_rivals_pay_and_add_on_their_side() -> None:
    first = SEC51
    rival0 = "KS KH KD QS QH QD JS JH JD TS TH TD 9S 9H"
    rival2 = "2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H"
    partner = "6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9D 9C"
    g = new_game("rami51", 4, {1: first, 2: rival2, 3: partner, 0: rival0})
    play(g, SEC51_OPEN, "discard KD")
    r = g.view(0)["results"][0]
    p0, p2 = penalty(rival0), penalty(rival2)
    assert r["penalties"] == [p0, 0, p2, 0]
    assert r["points"] == p0 + p2
    assert g.scores == [p0 + p2, 0]


def test_worked_check_simple_2v2_the_losing_pair_takes_200() -> None:
    g = new_game("simple", 4, {1: SEC71})
    play(g, SEC71_OPEN, "discard KD")
    r = g.view(0)["results"][0]
    assert r["penalties"] == [100, 0, 100, 0] and r["points"] == 200
    assert g.scores == [200, 0]


def test_worked_check_simple_1v1_the_loser_takes_100() -> None:
    g = new_game("simple", 2, {1: SEC71, 0: HEAVY140})
    play(g, SEC71_OPEN, "discard KD")
    r = g.view(0)["results"][0]
    assert r["penalties"] == [100, 0] and g.scores == [100, 0]


# -- simple ---------------------------------------------------------------------------------------


def test_simple_lays_everything_but_one_at_once_with_a_run_and_a_set() -> None:
    g = new_game("simple", 2, {1: SEC71})
    refused(g, "open AS 2S 3S 4S / 5H 5D 5C", "leaves 8 cards")
    refused(g, "open AS 2S 3S 4S / AH 2H 3H / AC 2C 3C 4C / 5D 5H 5C KD", None)
    g2 = new_game("simple", 2, {1: "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 4C KD"})
    refused(g2, SEC51_OPEN, "one run and one set")
    play(g, SEC71_OPEN)
    refused(g, "layoff 1 KD", "not laid off")
    g.apply("discard KD")
    assert g.view(0)["results"][0]["winner"] == 1


def test_simple_has_no_meld_layoff_or_swap() -> None:
    g = new_game("simple", 2, {1: SEC71})
    refused(g, "meld AS 2S 3S", "only with the lay-down")
    refused(g, "layoff 1 AS", "not laid off")
    refused(g, "swap 1 AS", "not swapped")


# -- limits and the end of the game ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players", "limit"),
    [("simple", 4, 600), ("rami51", 4, 351), ("rami71", 4, 451),
     ("simple", 2, 300), ("rami51", 2, 251), ("rami71", 2, 251)],
)
def test_losing_limits(variant: str, players: int, limit: int) -> None:
    rules = make_rules(variant, players)
    assert rules.limit == limit
    score = GameScore(rules)
    pens = [0] * players
    pens[0] = limit - 1
    score.add(DealResult(1, 0, 1, "discard", limit - 1, False, False, tuple(pens), ()))
    assert not score.over
    pens[0] = 1
    score.add(DealResult(2, 1, 1, "discard", 1, False, False, tuple(pens), ()))
    # Side 0 reached its limit: it loses, the other side wins.
    assert score.over and score.winner == 1 and score.totals[0] == limit


def test_worked_check_rami51_1v1_a_player_reaching_251_loses() -> None:
    g = new_game("rami51", 2, {1: SEC51, 0: HEAVY180})
    play(g, SEC51_OPEN, "discard KD")
    assert g.scores == [180, 0]
    # Deal 2: seat 1 deals, seat 0 plays first and throws; seat 1 draws and lays all down.
    g.next_deal(build_deck("rami51", 2, {0: HEAVY180 + " 5S", 1: SEC51[:-3]},
                           dealer=1, stock="KD"))
    assert (g.view(0)["dealer"], g.to_move) == (1, 0)
    play(g, "discard 5S", "draw", SEC51_OPEN, "discard KD")
    assert g.scores == [360, 0] and g.over and g.winner == 1
    with pytest.raises(IllegalAction, match="over"):
        g.next_deal()
    assert Game.from_record(g.record()).view(0) == g.view(0)


def test_decision_the_deal_passes_simple_1v1_played_to_its_300_limit() -> None:
    g = new_game("simple", 2, {1: SEC71})
    play(g, SEC71_OPEN, "discard KD")
    dealers = [0]
    for deal, first in ((2, 0), (3, 1)):
        dealer = 1 - first
        loser_first = first == 0
        if loser_first:
            deck = build_deck("simple", 2, {0: "9S 9S " + "2D 7H 8D JS QH KC 4D 6D TS 9D 6H TC 6C",
                                            1: SEC71[:-3]}, dealer=dealer, stock="KD")
        else:
            deck = build_deck("simple", 2, {1: SEC71}, dealer=dealer)
        g.next_deal(deck)
        dealers.append(g.view(0)["dealer"])
        assert g.to_move == first
        if loser_first:
            play(g, "discard 9S", "draw")
        play(g, SEC71_OPEN, "discard KD")
        assert g.scores[0] == 100 * deal
    assert dealers == [0, 1, 0]
    assert g.over and g.winner == 1 and g.scores == [300, 0]


def test_decision_empty_stock_with_nothing_to_reshuffle_ends_with_no_winner() -> None:
    g = Game.new("rami51", 2, seed=6)
    d = g.deal
    # Engine-side set-up of the very rare position: an empty stock and nothing to rebuild.
    d.stock = []
    g.apply(f"discard {g.hand(1)[0].text}")
    assert g.deal.over
    r = g.view(0)["results"][0]
    assert (r["winner"], r["points"], r["penalties"]) == (None, 0, [0, 0])
    assert g.scores == [0, 0] and not g.over
    g.next_deal()
    assert g.view(0)["dealer"] == 1


def test_decision_the_stock_is_rebuilt_as_often_as_needed() -> None:
    g = Game.new("rami51", 2, seed=8)
    for _ in range(400):
        g.apply("timeout")
    assert not g.deal.over
    assert g.view(0)["restocks"] >= 4
    assert all_cards(g) == full_deck(g)


def test_decision_card_penalties_are_rummy_penalties() -> None:
    g = new_game("rami71", 2, {1: SEC71, 0: "X X 2S 3H 4D 5C 6S 7H 8D 9C TS JH QD KC"})
    play(g, SEC71_OPEN, "discard KD")
    assert g.view(0)["results"][0]["points"] == 40 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40


def test_a_swap_with_one_card_left_is_listed() -> None:
    from rummykit.engine import parse_action

    g = new_game("rami51", 2, {1: "6S 6H 6D X KS KH KD TH JH QH 9H 8H 7H KH 6C"})
    play(g, "open 6S 6H 6D X / KS KH KD / TH JH QH", "layoff 3 9H", "layoff 3 8H",
         "layoff 3 7H", "layoff 3 KH")
    assert g.hand(1) == cards("6C")
    assert g.is_legal("swap 1 6C")
    assert parse_action("swap 1 6C") in g.legal_actions()


@pytest.mark.parametrize("variant", ["rami51", "rami71", "simple"])
def test_decision_ace_low_or_high_no_wrap_and_rummy_joker_limits(variant: str) -> None:
    hand = "KS AS 2S 5H X X 8H 7S 7H 7D QC KC AC 9D 4C"
    g = new_game(variant, 2, {1: hand})
    refused(g, "open KS AS 2S / 7S 7H 7D / QC KC AC / 5H X X 8H")
    refused(g, "open 5H X X 8H / 7S 7H 7D")
    refused(g, "open X X 7S / QC KC AC")


def test_the_meter_offers_an_opening_that_keeps_a_card_when_the_whole_hand_melds() -> None:
    """A Rami deal is won by discarding, so the one-tap Open must leave a card: with fifteen
    cards that meld whole, it lays the best fourteen or fewer, and it is legal."""
    g = new_game("rami51", 2, {1: "KS KH KD 5H 6H 7H 2C 2D 2S 9C 9D 9H 4S 4C X"})
    meter = g.view(1)["opening"]["meter"]
    assert meter["points"] == 91 and meter["enough"] is True
    assert meter["action"] == "open 2S 2D 2C / 9H 9D 9C / KS KH KD X / 5H 6H 7H"
    g.apply(meter["action"])
    assert [c.text for c in g.hand(1)] == ["4S", "4C"]
