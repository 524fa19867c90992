"""`indian`: every worked check and Decision of indian.md, on explicit decks."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.engine import Game
from rummykit.engine.scoring import DealResult, GameScore
from rummykit.errors import IllegalAction, RummyError
from rummykit.melds import indian_penalty
from rummykit.rules import make_rules
from tests.helpers import all_cards, build_deck, cards, full_deck, new_game, play

# The rule book's example with sevens wild: three pure sequences and Q Q Q + 7S; a drawn KH
# is the discard.
DECL = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
DECLARE = "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD 7S"
# Losers without a pure sequence, 13 high cards: capped at 80 (126 and 98 uncapped).
CAP_A = "KS KH KD KC QS QH QD QC 9S 9H 9D 9C TD"
CAP_B = "8S 8H 8D 8C JS JH JD JC 6S 6H 6D 6C 2C"
# Sets and an impure sequence only: a wrong declaration.
WRONG = "KH KS KD KC QH QS QD JH JS JD 9C TC X"
WRONG_ACTION = "declare KS KH KD KC / QS QH QD / JS JH JD / 9C TC X"


def refused(game: Game, action: str, match: str | None = None) -> None:
    before = game.record(), [game.view(s) for s in range(game.players)]
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)
    assert not game.is_legal(action)
    assert (game.record(), [game.view(s) for s in range(game.players)]) == before


def indian(hands: dict[int, str], players: int = 2, indicator: str = "7C", starter: str = "2C",
           **kw: object) -> Game:
    return new_game("indian", players, hands, indicator=indicator, starter=starter,
                    **kw)  # type: ignore[arg-type]


# -- cards and deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_worked_check_106_cards_and_the_deal(players: int) -> None:
    g = Game.new("indian", players, seed=players)
    assert sum(all_cards(g).values()) == 106 and all_cards(g) == full_deck(g)
    v = g.view(0)
    assert v["stock"] == 106 - 13 * players - 2
    assert len(v["pile"]) == 1 and v["indicator"] is not None
    assert all(s["cards"] == 13 for s in v["seats"])
    assert g.to_move == 1


def test_the_indicator_names_the_wild_rank_and_is_public() -> None:
    g = indian({1: DECL}, indicator="7C")
    for v in (g.view(0), g.view(1), g.public_view()):
        assert v["indicator"] == "7C" and v["wild_rank"] == 7


def test_worked_check_a_printed_joker_indicator_makes_the_aces_wild() -> None:
    g = indian({1: DECL}, indicator="X")
    assert g.view(0)["wild_rank"] == 1
    assert g.deal.meld_rules.is_joker(parse_card("AD"))


def test_decision_the_indicator_is_never_drawn_even_when_the_stock_runs_out() -> None:
    g = indian({}, indicator="9D", seed=3)
    for _ in range(250):
        g.apply("timeout")
    v = g.view(0)
    assert v["restocks"] >= 2 and v["indicator"] == "9D"
    assert all_cards(g) == full_deck(g)
    assert g.deal.indicator == parse_card("9D")


def test_decision_empty_stock_the_pile_top_stays_as_the_new_pile() -> None:
    g = Game.new("indian", 2, seed=4)
    for _ in range(78):
        g.apply("timeout")
    v = g.view(0)
    last = g.history()[-2]
    assert last["action"] == "timeout" and v["restocks"] == 1
    assert v["pile"] == [last["card"]] and v["stock"] == 78


def test_nothing_is_laid_on_the_table() -> None:
    g = indian({1: DECL}, stock="KH")
    g.apply("draw")
    refused(g, "open 4H 5H 6H", "declare instead")
    refused(g, "meld 4H 5H 6H")
    refused(g, "layoff 1 4H")
    refused(g, "swap 1 4H")
    refused(g, "return")


# -- jokers from the pile ------------------------------------------------------------------------


@pytest.mark.parametrize("starter", ["X", "7D"])
def test_decision_a_joker_on_the_pile_is_taken_only_when_the_room_allows_it(starter: str) -> None:
    g = indian({1: DECL}, starter=starter)
    refused(g, "take", "does not let jokers be taken")
    g.apply("draw")
    allowed = indian({1: DECL}, starter=starter, options={"jokers_from_discard": True})
    allowed.apply("take")
    assert parse_card(starter) in allowed.hand(1)


def test_an_ordinary_card_on_the_pile_may_be_taken() -> None:
    g = indian({1: DECL}, starter="KH")
    g.apply("take")
    assert parse_card("KH") in g.hand(1)


def test_decision_a_declaration_may_not_throw_the_card_just_taken() -> None:
    # As a discard may not be the card just taken from the pile (house rule
    # `discard_taken`, off), a declaration may not throw it either.
    g = indian({1: DECL}, starter="KH")
    g.apply("take")
    refused(g, DECLARE, "KH was just taken from the pile: declare with it in a meld")
    decl = g.view(1)["declaration"]
    assert not decl["valid"] and decl["action"] is None
    assert not any(a.verb == "declare" for a in g.iter_legal_actions())
    allowed = indian({1: DECL}, starter="KH", options={"discard_taken": True})
    allowed.apply("take")
    assert allowed.view(1)["declaration"]["discard"] == "KH"
    allowed.apply(DECLARE)
    assert allowed.view(0)["results"][0]["winner"] == 1


def test_a_declaration_with_the_card_just_taken_throws_another() -> None:
    # The solver's first answer for these 14 cards throws AH (2H..5H is a sequence already);
    # with AH just taken, the view and the legal moves meld it and throw 5H instead.
    g = indian({1: "2H 3H 4H 5H 9S TS JS AD 2D 3D QC QH QD"}, starter="AH")
    g.apply("take")
    decl = g.view(1)["declaration"]
    assert decl["valid"] and decl["discard"] == "5H"
    listed = [str(a) for a in g.iter_legal_actions() if a.verb == "declare"]
    assert listed and all("AH" in a.split() for a in listed)
    assert g.is_legal(decl["action"])
    g.apply(decl["action"])
    assert g.view(0)["results"][0]["winner"] == 1


# -- declaring ---------------------------------------------------------------------------------


def test_worked_check_valid_declaration_from_the_rule_book_example() -> None:
    g = indian({1: DECL, 0: CAP_A}, stock="KH")
    g.apply("draw")
    decl = g.view(1)["declaration"]
    assert decl["valid"] and decl["reason"] is None and decl["discard"] == "KH"
    assert g.is_legal(decl["action"])
    assert g.view(0)["declaration"] is None
    g.apply(DECLARE)
    r = g.view(0)["results"][0]
    assert r["winner"] == 1 and r["penalties"] == [80, 0] and r["points"] == 80
    assert g.view(0)["pile"][-1] == "KH"


def test_declare_needs_13_of_the_14_cards_and_held_cards() -> None:
    g = indian({1: DECL}, stock="KH")
    refused(g, DECLARE, "draw or take")
    g.apply("draw")
    refused(g, "declare 4H 5H 6H / 9S TS JS", "shows 13 cards")
    refused(g, "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD KS", "do not hold KS")


def test_worked_check_sets_and_impure_sequences_only_is_a_wrong_declaration_80() -> None:
    g = indian({1: WRONG}, stock="4C")
    g.apply("draw")
    assert not g.view(1)["declaration"]["valid"]
    assert g.view(1)["declaration"]["reason"]
    g.apply(WRONG_ACTION)
    # Two players: only seat 0 is left, it wins the deal.
    r = g.view(0)["results"][0]
    assert (r["winner"], r["penalties"], r["how"]) == (0, [0, 80], "last-player")


def test_decision_wrong_declaration_the_deal_goes_on_without_the_declarer() -> None:
    g = indian({1: WRONG}, players=3, stock="4C 8D 9D 3C")
    play(g, "draw", WRONG_ACTION)
    v = g.view(0)
    assert v["seats"][1]["out"] == "wrong-declaration"
    assert not g.deal.over and g.to_move == 2
    assert v["pile"][-1] == "4C"
    play(g, "draw", "discard 8D", "draw", "discard 9D")
    assert g.to_move == 2  # seat 1 takes no further part
    g.apply("drop")  # after its first draw: 40
    r = g.view(0)["results"][0]
    assert (r["winner"], r["penalties"], r["points"]) == (0, [0, 80, 40], 120)


def test_a_declaration_with_a_group_that_is_no_meld_is_wrong() -> None:
    g = indian({1: DECL}, stock="KH")
    g.apply("draw")
    g.apply("declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH KH 7S")
    r = g.view(0)["results"][0]
    assert r["penalties"][1] == 80 and r["winner"] == 0


def test_two_sequences_needed_one_pure() -> None:
    # One pure sequence and sets only: wrong.
    hand = "4H 5H 6H QC QH QD KS KH KD 9S 9H 9C 9D"
    g = indian({1: hand}, indicator="5C", stock="2D")
    play(g, "draw", "declare 4H 5H 6H / QC QH QD / KS KH KD / 9S 9H 9D 9C")
    assert g.view(0)["results"][0]["penalties"][1] == 80
    assert "two sequences" in g.history()[-2]["reason"]
    # Two sequences, none pure: wrong.
    hand = "4H X 6H 9S X JS QC QH QD KS KH KD KC"
    g = indian({1: hand}, indicator="5C", stock="2D")
    play(g, "draw", "declare 4H X 6H / 9S X JS / QC QH QD / KS KH KD KC")
    assert g.view(0)["results"][0]["penalties"][1] == 80
    assert "pure" in g.history()[-2]["reason"]


def test_decision_a_wild_card_as_its_natural_self_keeps_a_sequence_pure() -> None:
    # Sevens wild: 6D 7D 8D is pure, 9S X JS impure: a valid declaration.
    hand = "6D 7D 8D 9S X JS QC QH QD KS KH KD KC"
    g = indian({1: hand}, indicator="7C", stock="2D")
    play(g, "draw", "declare 6D 7D 8D / 9S X JS / QC QH QD / KS KH KD KC")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"]) == (1, "declare")


def test_worked_check_drop_before_the_first_draw_costs_20() -> None:
    g = indian({1: DECL})
    g.apply("drop")
    r = g.view(0)["results"][0]
    # Decision: every player but one has dropped: that player wins the deal and scores 0.
    assert (r["winner"], r["penalties"], r["how"]) == (0, [0, 20], "last-player")


def test_worked_check_drop_later_costs_40() -> None:
    g = indian({1: DECL}, players=3, stock="KH 8D 9D 3C")
    play(g, "draw", "discard KH")
    g.apply("drop")  # seat 2 before its first draw
    play(g, "draw", "discard 8D")
    assert g.to_move == 1
    g.apply("drop")  # seat 1 after its first draw
    r = g.view(0)["results"][0]
    assert (r["winner"], r["penalties"]) == (0, [0, 40, 20])
    assert g.view(1)["seats"][1]["out"] == "dropped"


def test_drop_is_also_legal_after_drawing_in_the_same_turn() -> None:
    g = indian({1: DECL}, players=3, stock="KH")
    play(g, "draw", "drop")
    assert g.view(0)["seats"][1]["out"] == "dropped"


# -- scoring a deal ------------------------------------------------------------------------------


def test_decision_card_points_2_to_10_face_JQKA_10_jokers_0() -> None:
    assert [indian_penalty(c) for c in cards("2S 9H TD JC QS KH AD X")] == [
        2, 9, 10, 10, 10, 10, 10, 0]
    assert indian_penalty(parse_card("7D"), wild_rank=7) == 0


def test_decision_a_losers_melds_count_with_two_sequences_one_pure_least_penalty() -> None:
    # 2S 3S 4S pure, JC X KC impure, 5C 5D 5S a set: 8H 9H KD 9C are left = 36.
    loser = "2S 3S 4S 8H 9H X 5C 5D 5S KD KC 9C JC"
    g = indian({1: DECL, 0: loser}, stock="KH")
    play(g, "draw", DECLARE)
    assert g.view(0)["results"][0]["penalties"] == [36, 0]


def test_decision_a_loser_without_two_sequences_counts_every_card() -> None:
    # One pure sequence and sets: the melds count for nothing: 2+3+4+5*3+10*3+9+10+8 = 81 -> 80
    loser = "2S 3S 4S 5C 5D 5H KD KC KH 9C JC 8H 3D"
    g = indian({1: DECL, 0: loser}, stock="KH")
    play(g, "draw", DECLARE)
    every = 2 + 3 + 4 + 15 + 30 + 9 + 10 + 8 + 3
    assert g.view(0)["results"][0]["penalties"] == [min(80, every), 0]


def test_worked_check_a_loser_with_no_pure_sequence_and_13_high_cards_pays_80() -> None:
    g = indian({1: DECL, 0: CAP_A}, stock="KH")
    play(g, "draw", DECLARE)
    assert g.view(0)["results"][0]["penalties"] == [80, 0]


def test_wild_jokers_cost_nothing_in_a_losers_hand() -> None:
    loser = "7S 7H X 2D 3C 4H 6S 8C TD JH QS KH AC"
    g = indian({1: DECL, 0: loser}, indicator="7C", stock="KH")
    play(g, "draw", DECLARE)
    # No pure sequence: every card counts, jokers (7S 7H X) 0: 2+3+4+6+8+10*5 = 73.
    assert g.view(0)["results"][0]["penalties"] == [73, 0]


# -- formats ------------------------------------------------------------------------------------


def test_decision_2_to_6_players_and_the_room_options() -> None:
    g = Game.new("indian", 3, seed=1)
    assert g.view(0)["options"] == {"format": "pool101", "deals": 2,
                                    "jokers_from_discard": False, "clock": 45}
    with pytest.raises(RummyError):
        Game.new("indian", 3, {"format": "pool301"})
    with pytest.raises(RummyError):
        Game.new("indian", 1)
    with pytest.raises(RummyError):
        Game.new("indian", 7)


def _decl_deal(g: Game, first: int, losers: dict[int, str], dealer: int,
               seats: list[int] | None = None) -> None:
    hands = {first: DECL, **losers}
    g.next_deal(build_deck("indian", g.players, hands, dealer=dealer, indicator="7C",
                           starter="2C", stock="KH", seats=seats))
    assert g.to_move == first
    play(g, "draw", DECLARE)


def test_pool101_full_game_with_eliminations() -> None:
    g = indian({1: DECL, 2: CAP_A, 0: CAP_B}, players=3, stock="KH")
    play(g, "draw", DECLARE)
    assert g.scores == [80, 0, 80] and not g.over
    # Deal 2: seat 1 deals, seat 2 declares; seats 0 and 1 pay 80.
    _decl_deal(g, 2, {0: CAP_A, 1: CAP_B}, dealer=1)
    assert g.scores == [160, 80, 80]
    assert not g.over and g.score.eliminated == [True, False, False]
    # Deal 3: seat 2 deals (seat 0 is out), seat 1 plays first.
    _decl_deal(g, 1, {2: CAP_A}, dealer=2, seats=[1, 2])
    v = g.view(1)
    assert v["seats"][0]["out"] == "eliminated" and v["seats"][0]["cards"] == 0
    assert v["results"][2]["penalties"] == [0, 0, 80]
    assert g.scores == [160, 80, 160]
    assert g.over and g.winner == 1
    assert Game.from_record(g.record()).view(2) == g.view(2)


def test_pool_limits_go_over_not_reach() -> None:
    for fmt, limit in (("pool101", 101), ("pool201", 201)):
        rules = make_rules("indian", 3, {"format": fmt})
        assert rules.limit == limit
        score = GameScore(rules)
        score.add(DealResult(1, 0, 1, "declare", limit, False, False, (limit, 0, 0), ()))
        assert score.eliminated == [False, False, False] and not score.over
        score.add(DealResult(2, 1, 2, "declare", 1, False, False, (1, 0, 0), ()))
        assert score.eliminated == [True, False, False] and not score.over


def test_decision_if_every_remaining_player_would_be_eliminated_the_lowest_total_wins() -> None:
    # A deal's winner scores 0 and stays under the limit, so in play this needs a deal with no
    # winner that still charges everyone: a unit check of the rule on the totals.
    score = GameScore(make_rules("indian", 3, {"format": "pool101"}))
    score.add(DealResult(1, 0, 1, "declare", 180, False, False, (100, 0, 80), ()))
    assert not score.over
    score.add(DealResult(2, 1, None, "no-winner", 0, False, False, (2, 110, 30), ()))
    assert score.totals == [102, 110, 110]
    assert score.over and score.winner == 0


def test_decision_deals_format_the_winner_collects_the_most_wins_after_two_deals() -> None:
    opts = {"format": "deals"}
    g = indian({1: DECL, 2: CAP_A, 0: CAP_B}, players=3, stock="KH", options=opts)
    play(g, "draw", DECLARE)
    assert g.scores == [0, 160, 0] and not g.over
    loser37 = "2S 3S 4S 8H 9H X 5C 5D 5S KD KC 9C JC"
    g.next_deal(build_deck("indian", 3, {2: DECL, 1: CAP_A, 0: loser37}, dealer=1,
                           indicator="7C", starter="2C", stock="KH"))
    assert g.to_move == 2
    play(g, "draw", DECLARE)
    r = g.view(0)["results"][1]
    assert (r["winner"], r["penalties"], r["points"]) == (2, [36, 80, 0], 116)
    assert g.scores == [0, 160, 116]
    assert g.over and g.winner == 1


def test_decision_points_format_one_deal_the_winner_collects_the_sum() -> None:
    g = indian({1: DECL, 2: CAP_A, 0: CAP_B}, players=3, stock="KH",
               options={"format": "points"})
    play(g, "draw", DECLARE)
    assert g.scores == [0, 160, 0]
    assert g.over and g.winner == 1
    with pytest.raises(IllegalAction, match="over"):
        g.next_deal()


def test_per_seat_penalties_in_the_results() -> None:
    g = indian({1: DECL, 2: CAP_A, 0: "2S 3S 4S 8H 9H X 5C 5D 5S KD KC 9C JC"}, players=3,
               stock="KH")
    play(g, "draw", DECLARE)
    assert g.view(2)["results"][0]["penalties"] == [36, 0, 80]


def test_a_valid_declaration_after_a_wrong_one_ends_the_deal() -> None:
    # Seat 2 holds no sequence and no set: 2+5+8+3+6+9+4+10+2+6+8+5+3 = 71.
    loser = "2S 5S 8S 3H 6H 9H 4D TD 2C 6C 8C 5D 3C"
    g = indian({1: WRONG, 2: loser, 0: DECL}, players=3, stock="4C 8D KH")
    play(g, "draw", WRONG_ACTION, "draw", "discard 8D", "draw", DECLARE)
    r = g.view(0)["results"][0]
    assert (r["winner"], r["penalties"], r["points"]) == (0, [0, 80, 71], 151)
    assert g.view(2)["seats"][1]["out"] == "wrong-declaration"
