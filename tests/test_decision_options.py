"""Decisions that are ruleset options: each default keeps the rule book's reading, each
alternative changes the game as documented, and a record replays with the options it was
made with."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import Card, parse_card
from rummykit.engine import Game
from rummykit.engine.indian import loser_penalty, pure_sequences_saved
from rummykit.engine.scoring import DealResult, GameScore
from rummykit.errors import IllegalAction, InvalidRecord, RummyError
from rummykit.melds import MeldRules, indian_penalty
from rummykit.rules import make_rules
from tests import solver_reference as ref
from tests.helpers import all_cards, cards, full_deck, new_game, play
from tests.test_engine_properties import check_privacy
from tests.test_solver_exact import examples, hands

# Indian hands (sevens wild): a wrong declaration (sets and an impure sequence only).
WRONG = "KH KS KD KC QH QS QD JH JS JD 9C TC X"
WRONG_ACTION = "declare KS KH KD KC / QS QH QD / JS JH JD / 9C TC X"
# The rule book's valid declaration (sevens wild), after drawing KH.
DECL = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
DECLARE = "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD 7S"


def run_out(g: Game) -> None:
    """Automatic plays until the deal ends (a blocked or stock-out deal)."""
    for _ in range(2000):
        if g.deal.over:
            return
        g.apply("timeout")
    raise AssertionError("the deal never ended")


def play_out(g: Game) -> None:
    """Run a deal out: in Indian rummy (whose stock is rebuilt without end) past the first
    stock, then a drop."""
    if g.rules.lay_mode == "declare":
        for _ in range(100):
            g.apply("timeout")
        while not g.deal.over:
            g.apply("drop")
    else:
        run_out(g)


def wrong_declaration(players: int, options: dict[str, Any]) -> Game:
    g = new_game("indian", players, {1: WRONG}, indicator="7C", starter="2C",
                 stock="4C 8D 9D 3C", options=options)
    play(g, "draw", WRONG_ACTION)
    return g


# -- option values ------------------------------------------------------------------------------


def test_the_defaults_are_the_rule_books_readings() -> None:
    for variant in ("rummy", "rami51", "indian"):
        r = make_rules(variant, 2)
        assert (r.blocked_deal, r.dealer_after) == ("scored", "next")
        assert not r.wrong_declaration_ends and not r.indicator_in_stock
        assert r.loser_melds == "two_sequences" and r.restock_keeps_top
        assert r.timeout_discard == "drawn"


@pytest.mark.parametrize(("variant", "options", "reason"), [
    ("rummy", {"blocked_deal": "replayed"}, "choose one of scored, void"),
    ("rummy", {"dealer_after": "loser"}, "choose one of next, winner"),
    ("rummy", {"dealer_after": True}, "takes a str"),
    ("rami51", {"blocked_deal": "void"}, "belongs to rummy"),
    ("rummy", {"wrong_declaration_ends": True}, "belongs to indian"),
    ("simple", {"indicator_in_stock": True}, "belongs to indian"),
    ("indian", {"indicator_in_stock": "yes"}, "takes a bool"),
    ("indian", {"loser_melds": "sets"}, "choose one of two_sequences, pure_sequence, all_cards"),
    ("rummy", {"loser_melds": "all_cards"}, "belongs to indian"),
    # Every text field with a fixed set of values is checked, not only the new ones.
    ("rummy", {"swap": "banana"}, "choose one of any, fourth, none"),
    ("simple", {"timeout_discard": "lightest"}, "choose one of drawn, heaviest"),
    ("rami51", {"lay_mode": "deal"}, "choose one of open, close, declare"),
    ("rami51", {"length": "forever"}, "choose one of one-deal, to-200, to-limit"),
])
def test_bad_values_and_options_of_another_variant_are_refused(
    variant: str, options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(RummyError, match=reason):
        make_rules(variant, 2, options)


# -- rummy: blocked_deal ------------------------------------------------------------------------


def test_a_scored_blocked_deal_ends_a_one_deal_game() -> None:
    g = Game.new("rummy", 3, {"max_restocks": 0}, seed=11)
    run_out(g)
    r = g.results[0]
    assert r.blocked and r.winner == 2 and r.points == 51
    assert g.over and g.winner == 2


def test_a_void_blocked_deal_scores_nothing_and_the_same_dealer_deals_again() -> None:
    g = Game.new("rummy", 3, {"max_restocks": 0, "blocked_deal": "void"}, seed=11)
    run_out(g)
    r = g.view(0)["results"][0]
    assert (r["winner"], r["points"], r["blocked"], r["how"]) == (None, 0, True, "blocked")
    assert r["penalties"] == list(g.results[0].penalties) and sum(r["penalties"]) > 0
    # A one-deal game goes on: the void deal was not its scored deal.
    assert g.scores == [0, 0, 0] and not g.over and g.phase == "deal-over"
    g.next_deal()
    assert (g.deal.number, g.deal.dealer, g.to_move) == (2, 0, 1)


def test_a_void_blocked_deal_in_a_game_to_200_adds_nothing() -> None:
    g = Game.new("rummy", 3, {"length": "to-200", "max_restocks": 0, "blocked_deal": "void"},
                 seed=11)
    run_out(g)
    g.next_deal()
    run_out(g)
    assert [r.winner for r in g.results] == [None, None]
    assert [r.dealer for r in g.results] == [0, 0] and g.scores == [0, 0, 0]


# -- indian: wrong_declaration_ends ----------------------------------------------------------


def test_by_default_a_wrong_declaration_leaves_the_deal_going_on() -> None:
    g = wrong_declaration(3, {})
    assert not g.deal.over and g.to_move == 2


def test_a_wrong_declaration_can_end_the_deal_and_only_the_declarer_pays() -> None:
    g = wrong_declaration(3, {"wrong_declaration_ends": True})
    assert g.deal.over and g.phase == "deal-over"
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["penalties"], r["points"]) == (
        None, "wrong-declaration", [0, 80, 0], 80)
    assert g.view(2)["seats"][1]["out"] == "wrong-declaration"
    assert g.history()[-1] == {"seat": None, "action": "end", "winner": None}
    assert g.scores == [0, 80, 0] and not g.over  # pool 101: it adds up as any penalty
    g.next_deal()
    assert g.deal.dealer == 1


def test_two_players_a_wrong_declaration_ending_the_deal_gives_no_winner() -> None:
    default = wrong_declaration(2, {})
    assert default.results[0].winner == 0 and default.results[0].how == "last-player"
    g = wrong_declaration(2, {"wrong_declaration_ends": True})
    assert g.results[0].winner is None and g.results[0].penalties == (0, 80)


@pytest.mark.parametrize(("fmt", "over", "winner"), [("deals", False, None), ("points", True, 0)])
def test_deals_and_points_a_wrong_declaration_ending_the_deal_costs_the_declarer(
    fmt: str, over: bool, winner: int | None
) -> None:
    g = wrong_declaration(2, {"format": fmt, "wrong_declaration_ends": True})
    assert g.scores == [0, -80]
    assert (g.over, g.winner) == (over, winner)


# -- every game: dealer_after -------------------------------------------------------------------


def test_by_default_the_deal_passes_to_the_next_seat() -> None:
    g = Game.new("rummy", 3, {"length": "to-200", "max_restocks": 0}, seed=11)
    run_out(g)
    g.next_deal()
    assert g.deal.dealer == 1


def test_the_winner_of_a_deal_may_deal_the_next() -> None:
    g = Game.new("rummy", 3, {"length": "to-200", "max_restocks": 0, "dealer_after": "winner"},
                 seed=11)
    run_out(g)
    assert g.results[0].winner == 2
    g.next_deal()
    assert (g.deal.dealer, g.to_move) == (2, 0)


@pytest.mark.parametrize(("after", "dealers"), [("next", [1, 0, 1]), ("winner", [1, 1, 0])])
def test_who_deals_after_won_and_unwon_deals(after: str, dealers: list[int]) -> None:
    """Rami 1 v 1 units: seat 1 wins, nobody wins, seat 0 wins (with ``winner``, a deal
    nobody won is dealt again by the same dealer)."""
    score = GameScore(make_rules("rami51", 2, {"dealer_after": after}))
    seen = []
    for k, (winner, pens) in enumerate(((1, (10, 0)), (None, (0, 0)), (0, (0, 10))), 1):
        how = "no-winner" if winner is None else "discard"
        score.add(DealResult(k, score.dealer, winner, how, sum(pens), False, False, pens, ()))
        seen.append(score.dealer)
    assert seen == dealers and not score.over


def test_an_eliminated_dealer_passes_the_deal_on() -> None:
    rules = make_rules("indian", 3, {"dealer_after": "winner", "wrong_declaration_ends": True})
    score = GameScore(rules)
    score.add(DealResult(1, 0, 2, "declare", 80, False, False, (0, 0, 80), ()))
    assert score.dealer == 2
    # Nobody won (a wrong declaration by seat 2 ended it): seat 2 would deal again, but its
    # total went over 101.
    score.add(DealResult(2, 2, None, "wrong-declaration", 80, False, False, (0, 0, 80), ()))
    assert score.eliminated == [False, False, True] and score.dealer == 0


# -- indian: indicator_in_stock -----------------------------------------------------------------


def indicator_game(options: dict[str, Any]) -> Game:
    return new_game("indian", 2, {}, indicator="9D", starter="2C", options=options, seed=3)


def test_by_default_the_indicator_is_out_of_the_stock() -> None:
    assert indicator_game({}).view(0)["stock"] == 106 - 26 - 2


def test_the_indicator_may_lie_face_up_under_the_stock_and_be_drawn_last() -> None:
    g = indicator_game({"indicator_in_stock": True})
    assert g.view(0)["stock"] == 106 - 26 - 1
    draws = 0
    while g.view(0)["stock"] > 1:
        g.apply("timeout")
        draws += 1
        assert "drawn" not in g.history()[-1]  # the other stock cards stay unseen
    seat = g.to_move
    assert seat is not None and draws == 78
    held = g.hand(seat).count(parse_card("9D"))
    g.apply("draw")
    # Everyone saw it face up: the draw shows it, and it is an ordinary card in the hand.
    assert g.history()[-1] == {"seat": seat, "action": "draw", "card": "9D"}
    assert g.hand(seat).count(parse_card("9D")) == held + 1
    assert g.view(0)["indicator"] == "9D" and g.view(0)["wild_rank"] == 9
    g.apply("discard 9D")
    assert g.view(0)["restocks"] == 1  # the next turn rebuilt the stock from the pile
    # The face-up card is shown when the automatic play draws it too.
    g = indicator_game({"indicator_in_stock": True})
    for _ in range(79):
        g.apply("timeout")
    timeout, restock = g.history()[-2:]
    assert timeout["drawn"] == "9D" and restock["action"] == "restock"


@pytest.mark.parametrize("players", [2, 4])
def test_the_views_know_the_face_up_bottom_card_and_nothing_else_of_the_stock(
    players: int
) -> None:
    g = Game.new("indian", players, {"indicator_in_stock": True}, seed=8)
    rng = random.Random(8)
    check_privacy(g, rng)
    while g.view(0)["stock"] > 1:
        g.apply("timeout")
        if g.view(0)["stock"] % 7 == 0:
            check_privacy(g, rng)
    check_privacy(g, rng)  # the stock is the indicator alone
    g.apply("draw")
    check_privacy(g, rng)
    g.apply("timeout")
    assert g.view(0)["restocks"] == 1
    check_privacy(g, rng)


def test_a_draw_shows_no_card_before_the_last_one() -> None:
    g = indicator_game({"indicator_in_stock": True})
    play(g, "draw")
    assert g.history()[-1] == {"seat": 1, "action": "draw"}


# -- indian: loser_melds ----------------------------------------------------------------------

# A loser with two sequences, one pure (2S 3S 4S; JC X KC) and a set (5C 5D 5S): 8H 9H KD 9C
# are left, 36; every card counts 2+3+4+8+9+0+15+10+10+9+10 = 80.
TWO_SEQUENCES = "2S 3S 4S 8H 9H X 5C 5D 5S KD KC 9C JC"
# A loser with one pure sequence (2S 3S 4S) and sets only (5C 5D 5H; KD KC KH): every card
# counts, 84 (paid: 80); the pure sequence alone saves 9 of it, 75.
PURE_ALONE = "2S 3S 4S 5C 5D 5H KD KC KH 9C JC 8H 3D"


def loser_paid(loser: str, options: dict[str, Any]) -> int:
    g = new_game("indian", 2, {1: DECL, 0: loser}, indicator="7C", starter="2C",
                 stock="KH", options=options)
    play(g, "draw", DECLARE)
    paid: int = g.view(0)["results"][0]["penalties"][0]
    return paid


@pytest.mark.parametrize(("loser", "counted", "paid"), [
    (TWO_SEQUENCES, "two_sequences", 36),
    (TWO_SEQUENCES, "pure_sequence", 36),
    (TWO_SEQUENCES, "all_cards", 80),
    (PURE_ALONE, "two_sequences", 80),
    (PURE_ALONE, "pure_sequence", 75),
    (PURE_ALONE, "all_cards", 80),
])
def test_how_a_losers_hand_is_counted(loser: str, counted: str, paid: int) -> None:
    assert loser_paid(loser, {"loser_melds": counted}) == paid


def test_by_default_a_losers_melds_need_two_sequences() -> None:
    assert loser_paid(TWO_SEQUENCES, {}) == 36 and loser_paid(PURE_ALONE, {}) == 80


def test_every_card_counts_below_the_cap_too() -> None:
    # Two sequences and a set; every card at its value, the wild sevens and the joker 0.
    loser = "2S 3S 4S 7H 7D 5C 5D 5S X"
    hand = cards(loser)
    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=7)
    assert loser_penalty(hand, rules, "two_sequences") == 0
    assert loser_penalty(hand, rules, "all_cards") == 2 + 3 + 4 + 15 == 24


def test_pure_sequences_alone_use_aces_low_and_high_and_wild_cards_as_themselves() -> None:
    # QS KS AS and AS 2S 3S share no ace; 6D 7D 8D is pure with sevens wild (7D costs 0).
    assert pure_sequences_saved(cards("QS KS AS AS 2S 3S 6D 7D 8D X"), 7) == 45 + 14
    # Two copies of 5H 6H 7H beside 8H 9H TH: two runs, every card saved.
    assert pure_sequences_saved(cards("5H 6H 7H 8H 9H TH 5H 6H 7H"), 0) == 2 * 18 + 27
    # A run never wraps past the ace, and two cards are no run.
    assert pure_sequences_saved(cards("KC AC 2C 9D TD"), 0) == 0


def reference_pure_sequence(hand: list[Card], rules: MeldRules) -> int:
    """Every arrangement: with two sequences, one pure, all its melds save their cards;
    without, only its pure sequences."""
    def left(arr: tuple[Any, ...]) -> int:
        saving = arr if ref.two_sequences(arr) else [m for m in arr if m.kind == "run" and m.pure]
        return sum(indian_penalty(c, rules.wild_rank) for c in ref.left_of(hand, saving))
    return min(left(arr) for arr in ref.arrangements(hand, rules))


@examples(80)
@given(st.integers(0, 13).flatmap(
    lambda wild: st.tuples(st.just(wild), hands(max_size=8, jokers=2, wild_rank=wild))))
def test_pure_sequence_counting_against_every_arrangement(case: tuple[int, list[Card]]) -> None:
    wild, hand = case
    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)
    assert loser_penalty(hand, rules, "pure_sequence") == reference_pure_sequence(hand, rules)


# -- every game: restock_keeps_top ---------------------------------------------------------------


def to_first_restock(g: Game) -> int:
    """Automatic plays until the stock is first rebuilt; the pile's size just before."""
    while not g.deal.restocks:
        pile = len(g.deal.pile)
        g.apply("timeout")
    return pile + 1  # the last automatic play discarded onto it


@pytest.mark.parametrize(("variant", "players"), [("rummy", 3), ("rami51", 2), ("indian", 4)])
def test_by_default_a_restock_leaves_the_piles_top_card(variant: str, players: int) -> None:
    g = Game.new(variant, players, seed=4)
    pile = to_first_restock(g)
    v = g.view(0)
    assert (v["stock"], v["pile"]) == (pile - 1, [g.history()[-2]["card"]])


@pytest.mark.parametrize(("variant", "players"), [("rummy", 3), ("rami51", 2), ("indian", 4)])
def test_a_restock_may_turn_the_whole_pile_over(variant: str, players: int) -> None:
    g = Game.new(variant, players, {"restock_keeps_top": False}, seed=4)
    pile = to_first_restock(g)
    v = g.view(0)
    assert (v["stock"], v["pile"]) == (pile, [])
    assert g.history()[-1] == {"seat": None, "action": "restock", "stock": pile}
    # Nothing to take: the next player draws from the stock.
    with pytest.raises(IllegalAction, match="the discard pile is empty"):
        g.apply("take")
    assert not any(a.verb == "take" for a in g.legal_actions())
    check_privacy(g, random.Random(4))
    assert all_cards(g) == full_deck(g)
    g.apply("draw")
    check_privacy(g, random.Random(5))
    g.apply("timeout")
    assert len(g.view(0)["pile"]) == 1 and all_cards(g) == full_deck(g)


@pytest.mark.parametrize(("keeps_top", "blocked"), [(True, True), (False, False)])
def test_a_single_card_pile_rebuilds_the_stock_only_when_all_of_it_goes(
    keeps_top: bool, blocked: bool
) -> None:
    g = Game.new("rummy", 2, {"restock_keeps_top": keeps_top}, seed=4)
    d = g.deal
    # Engine-side set-up of a rare position: one card left in the stock, an empty pile.
    d.pile, d.stock = [], d.stock[-1:]
    play(g, "draw")
    thrown = g.hand(1)[0]
    g.apply(f"discard {thrown.text}")
    assert g.deal.over == blocked
    if not blocked:
        v = g.view(0)
        assert (v["stock"], v["pile"], v["restocks"], g.to_move) == (1, [], 1, 0)
        assert g.deal.stock == [thrown]


# -- every game: timeout_discard ------------------------------------------------------------------

OPENER = "KS KH KD 5H 6H 7H 2C 3C 4C 9D 9S 9H 5C"


@pytest.mark.parametrize(("rule", "drawn", "thrown"), [
    ("drawn", "2D", "2D"),
    ("heaviest", "2D", "KS"),  # kings 10 (the highest rank of the highest penalty), spades first
    ("heaviest", "AD", "AD"),  # the drawn card is the heaviest (11)
    ("drawn", "X", "X"),
    ("heaviest", "X", "KS"),  # never a joker
])
def test_what_the_automatic_play_discards(rule: str, drawn: str, thrown: str) -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="QC", stock=drawn,
                 options={"timeout_discard": rule})
    g.apply("timeout")
    assert g.history()[-1] == {"seat": 1, "action": "timeout", "undone": False, "draw": True,
                               "card": thrown}
    assert g.view(0)["pile"] == ["QC", thrown]


@pytest.mark.parametrize(("rule", "thrown"), [("drawn", "7D"), ("heaviest", "AH")])
def test_indian_the_heaviest_skips_a_drawn_wild_joker(rule: str, thrown: str) -> None:
    hand = "KS AH QD 2S 3S 5H 6H 8D 9C 4C 3D 2H JC"
    g = new_game("indian", 2, {1: hand}, indicator="7C", starter="5D", stock="7D",
                 options={"timeout_discard": rule})
    play(g, "draw", "timeout")
    assert g.view(0)["pile"][-1] == thrown


def test_a_timeout_after_a_draw_throws_the_heaviest_by_the_same_rule() -> None:
    g = new_game("rummy", 2, {1: OPENER}, starter="QC", stock="2D",
                 options={"timeout_discard": "heaviest"})
    play(g, "draw", "timeout")
    assert g.history()[-1]["card"] == "KS" and cards("2D")[0] in g.hand(1)


# -- records ------------------------------------------------------------------------------------

ROUND_TRIPS = [
    ("rummy", 3, {"length": "to-200", "max_restocks": 0, "blocked_deal": "void"}, 11),
    ("rummy", 3, {"length": "to-200", "max_restocks": 0, "dealer_after": "winner"}, 11),
    ("indian", 2, {"format": "deals", "indicator_in_stock": True}, 3),
    ("indian", 3, {"format": "deals", "loser_melds": "all_cards"}, 5),
    ("rummy", 2, {"length": "to-200", "restock_keeps_top": False}, 9),
    ("indian", 2, {"format": "deals", "restock_keeps_top": False}, 3),
    ("rummy", 3, {"length": "to-200", "timeout_discard": "heaviest"}, 11),
]


@pytest.mark.parametrize(("variant", "players", "options", "seed"), ROUND_TRIPS)
def test_a_record_replays_with_the_options_it_was_made_with(
    variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    g = Game.new(variant, players, options, seed=seed)
    for _ in range(2):
        play_out(g)
        if g.over:
            break
        g.next_deal()
    rec = g.record()
    assert {k: rec["options"][k] for k in options} == options
    again = Game.from_record(json.loads(json.dumps(rec)))
    assert again.record() == rec
    assert [again.view(s) for s in range(players)] == [g.view(s) for s in range(players)]


@pytest.mark.parametrize(("variant", "players", "options", "seed"), ROUND_TRIPS[:2])
def test_a_record_stripped_of_its_option_does_not_replay(
    variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    g = Game.new(variant, players, options, seed=seed)
    run_out(g)
    g.next_deal()
    rec = g.record()
    name = next(k for k in options if k in ("blocked_deal", "dealer_after"))
    del rec["options"][name]
    with pytest.raises(InvalidRecord, match="deal 2"):
        Game.from_record(rec)


def test_a_record_of_whole_pile_restocks_does_not_replay_without_its_option() -> None:
    g = Game.new("rummy", 2, {"restock_keeps_top": False}, seed=9)
    to_first_restock(g)
    rec = g.record()
    del rec["options"]["restock_keeps_top"]
    with pytest.raises(InvalidRecord, match="rebuilt stock 1 does not hold the cards"):
        Game.from_record(rec)


def test_a_record_of_automatic_plays_replays_otherwise_without_its_option() -> None:
    g = Game.new("rummy", 2, {"timeout_discard": "heaviest"}, seed=9)
    for _ in range(6):
        g.apply("timeout")
    rec = g.record()
    del rec["options"]["timeout_discard"]
    assert Game.from_record(rec).view(0)["pile"] != g.view(0)["pile"]


def test_a_record_of_a_wrong_declaration_ending_the_deal_replays() -> None:
    g = wrong_declaration(3, {"wrong_declaration_ends": True})
    g.next_deal()
    rec = g.record()
    assert Game.from_record(rec).record() == rec
    del rec["options"]["wrong_declaration_ends"]
    with pytest.raises(InvalidRecord, match="deal 2 starts before deal 1 is over"):
        Game.from_record(rec)
