"""`rummy`: every worked check and every Decision of rummy.md, on explicit decks."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.engine import Game
from rummykit.engine.scoring import score_deal
from rummykit.errors import IllegalAction, RummyError
from rummykit.melds import rummy_penalty
from tests.helpers import all_cards, build_deck, cards, full_deck, new_game, play, same

# Seat 1 plays first (seat 0 deals). A hand that opens K K K + 5H 6H 7H (48) and can meld more.
OPENER = "KS KH KD 5H 6H 7H 2C 3C 4C 9D 9S 9H 5C"
# A hand of 13 known cards worth 60 in penalties.
HEAVY60 = "2S 3S 4S 2H 3H 4H 2D 3D 4D 6C 3C 4C X"
# Thirteen cards that all meld with a drawn 5C (A-5 of clubs): open everything, out at once.
ALL_OUT = "2S 3S 4S 2H 3H 4H 2D 3D 4D AC 2C 3C 4C"


def penalty(text: str) -> int:
    return sum(rummy_penalty(c) for c in cards(text))


def rummy(hands: dict[int, str], players: int = 2, **kw: object) -> Game:
    return new_game("rummy", players, hands, **kw)  # type: ignore[arg-type]


def refused(game: Game, action: str, match: str | None = None) -> None:
    before = game.record(), [game.view(s) for s in range(game.players)]
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)
    assert not game.is_legal(action)
    assert (game.record(), [game.view(s) for s in range(game.players)]) == before


# -- cards and deal -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 81), (3, 68), (4, 55), (5, 42), (6, 29)])
def test_worked_check_stock_after_the_deal(players: int, stock: int) -> None:
    g = Game.new("rummy", players, seed=players)
    assert g.view(0)["stock"] == stock
    assert all(len(g.hand(s)) == 13 for s in range(players))
    assert len(g.view(0)["pile"]) == 1
    assert sum(all_cards(g).values()) == 108


def test_dealing_one_card_at_a_time_starting_after_the_dealer() -> None:
    deck = build_deck("rummy", 3, {1: OPENER}, starter="8H", stock="QD")
    g = Game.new("rummy", 3, deck=deck)
    assert deck[0] == parse_card("KS") and deck[3] == parse_card("KH")
    assert same(g.hand(1), OPENER)
    assert g.view(0)["pile"] == ["8H"]
    assert g.to_move == 1
    g.apply("draw")
    assert parse_card("QD") in g.hand(1)


def test_decision_seat_0_deals_the_first_deal_and_the_next_seat_plays_first() -> None:
    g = Game.new("rummy", 4, seed=3)
    assert g.view(2)["dealer"] == 0
    assert g.to_move == 1


def test_default_options_and_room_options() -> None:
    g = Game.new("rummy", 2, seed=1)
    assert g.view(0)["options"] == {"opening": 40, "clock": 45, "length": "one-deal"}
    with pytest.raises(RummyError):
        Game.new("rummy", 2, {"opening": 35})
    with pytest.raises(RummyError):
        Game.new("rummy", 7)
    with pytest.raises(RummyError):
        Game.new("rummy", 2, {"bogus": 1})


def test_a_deck_must_hold_every_card_once() -> None:
    deck = build_deck("rummy", 2, {})
    with pytest.raises(RummyError, match="108"):
        Game.new("rummy", 2, deck=deck[:-1])
    with pytest.raises(RummyError):
        Game.new("rummy", 2, deck=[*deck[:-1], parse_card("7H")])


# -- opening --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("minimum", "ok"), [(30, True), (40, True), (51, False)])
def test_worked_check_KKK_and_567_open_48_at_30_and_40_not_51(minimum: int, ok: bool) -> None:
    g = rummy({1: OPENER}, options={"opening": minimum}, starter="QC", stock="8S")
    g.apply("draw")
    act = "open KS KH KD / 5H 6H 7H"
    if ok:
        g.apply(act)
        assert g.view(1)["seats"][1]["opened"]
        assert [m["cards"] for m in g.view(0)["table"]] == [["KS", "KH", "KD"], ["5H", "6H", "7H"]]
    else:
        refused(g, act, "worth 48; the minimum is 51")


def test_opening_meter_shows_the_best_opening() -> None:
    g = rummy({1: OPENER}, starter="QC", stock="8S")
    g.apply("draw")
    meter = g.view(1)["opening"]["meter"]
    assert meter["points"] >= 48 and meter["enough"]
    assert meter["action"] is not None and g.is_legal(meter["action"])


def test_three_aces_open_33() -> None:
    g = rummy({1: "AS AH AD QS QH QD 2C 3C 7H 9D 9S 5H 5C"}, options={"opening": 30},
              starter="QC", stock="8S")
    play(g, "draw", "open AS AH AD")
    assert g.view(0)["seats"][1]["opened"]


def test_opening_below_the_minimum_is_refused_and_does_not_carry_over() -> None:
    g = rummy({1: OPENER}, starter="QC", stock="8S 8C JD")
    g.apply("draw")
    refused(g, "open KS KH KD", "worth 30; the minimum is 40")
    refused(g, "open 5H 6H 7H", "worth 18")
    play(g, "discard 8S", "draw", "discard 8C", "draw")
    # The next turn the 30 of the last turn counts for nothing.
    refused(g, "open 2C 3C 4C", "worth 9")
    g.apply("open KS KH KD / 5H 6H 7H / 2C 3C 4C")


def test_before_opening_no_meld_layoff_or_swap() -> None:
    g = rummy({1: OPENER, 0: "7S 7D X 2D 3D 4D 8C 9C TC JC QC KC AC"}, starter="QS",
              stock="8S 8D")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard 8S")
    # Seat 0 has not opened.
    g.apply("draw")
    refused(g, "meld 2D 3D 4D", "open first")
    refused(g, "layoff 2 8D", "open first")
    refused(g, "layoff 1 KC", "open first")


def test_decision_the_opening_lays_new_melds_only() -> None:
    g = rummy({1: OPENER}, starter="QC", stock="8H")
    g.apply("draw")
    # 8H would extend 5H 6H 7H, but an opening is melds: a group of one card is not a meld.
    refused(g, "open KS KH KD / 5H 6H 7H / 8H")
    play(g, "open KS KH KD / 5H 6H 7H", "layoff 2 8H")
    assert g.view(0)["table"][1]["cards"] == ["5H", "6H", "7H", "8H"]


def test_after_opening_new_melds_need_no_minimum_even_the_same_turn() -> None:
    g = rummy({1: OPENER}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "meld 2C 3C 4C", "layoff 3 5C")
    assert g.view(0)["table"][2]["cards"] == ["2C", "3C", "4C", "5C"]


# -- the taken card -----------------------------------------------------------------------------


def test_taken_card_must_be_laid_before_any_discard() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD")
    g.apply("take")
    view = g.view(1)
    assert view["turn"]["owes"] == ["8H"] and view["turn"]["taken"] == "8H"
    assert view["opening"]["must_include"] == "8H"
    refused(g, "discard 8H", "lay the 8H")
    refused(g, "discard 9D", "lay the 8H")


def test_taken_card_must_be_inside_the_opening() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD")
    g.apply("take")
    refused(g, "open KS KH KD / 5H 6H 7H", "8H you took from the pile must be part of it")
    g.apply("open KS KH KD / 5H 6H 7H 8H")
    assert g.view(1)["turn"]["owes"] == []
    g.apply("discard 9D")
    assert g.to_move == 0


def test_taken_card_laid_off_after_opening_clears_the_duty() -> None:
    g = rummy({1: OPENER}, starter="QD", stock="8S 8H")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard 8S")
    # Seat 0 has not opened: a taken 8S would have to be in its opening; it returns it.
    g.apply("take")
    refused(g, "discard 8S", "lay the 8S")
    play(g, "return", "draw", "discard 8H")
    g.apply("take")
    refused(g, "discard 9D", "lay the 8H")
    g.apply("layoff 2 8H")
    assert g.view(1)["turn"]["owes"] == []
    g.apply("discard 9D")


def test_return_puts_the_taken_card_back_and_the_player_draws() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD")
    play(g, "take", "return")
    assert g.view(0)["pile"] == ["8H"]
    assert g.phase == "draw"
    refused(g, "take", "draw from the stock")
    refused(g, "return")
    g.apply("draw")
    assert parse_card("QD") in g.hand(1)
    # A card drawn from the stock carries no duty: discard it at once.
    g.apply("discard QD")
    assert g.to_move == 0


def test_return_only_before_anything_else() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD")
    play(g, "take", "open KS KH KD / 5H 6H 7H 8H")
    refused(g, "return", "before anything else")
    g2 = rummy({1: OPENER}, starter="8H", stock="QD")
    g2.apply("draw")
    refused(g2, "return", "just taken")


def test_only_the_top_card_of_the_pile_is_taken() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD JD")
    play(g, "draw", "discard QD", "take")
    assert parse_card("QD") in g.hand(0)
    assert g.view(0)["pile"] == ["8H"]


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    g = rummy({1: OPENER}, starter="8H", stock="QD")
    play(g, "draw", "discard QD")
    assert g.view(0)["pile"] == ["8H", "QD"]


# -- jokers: limits, layoffs, swaps ------------------------------------------------------------


def test_decision_a_joker_laid_off_on_a_run_must_say_which_end() -> None:
    g = rummy({1: "KS KH KD 5H 6H 7H X X 4C 9D 9S 9H 5C"}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH KD / 5H 6H 7H")
    refused(g, "layoff 2 X", "say low or high")
    g.apply("layoff 2 X low")
    assert g.view(0)["table"][1]["cards"] == ["X", "5H", "6H", "7H"]
    # Two jokers never side by side in a run.
    refused(g, "layoff 2 X low", "does not fit")
    g.apply("layoff 2 X high")
    assert g.view(0)["table"][1]["cards"] == ["X", "5H", "6H", "7H", "X"]


def test_decision_a_joker_laid_off_on_a_set_within_the_limits() -> None:
    g = rummy({1: "KS KH KD 5H 6H 7H X X 4C 9D 9S 9H 5C"}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "layoff 1 X")
    assert g.view(0)["table"][0]["cards"] == ["KS", "KH", "KD", "X"]
    refused(g, "layoff 1 X", "does not fit")


def test_decision_an_ace_on_a_2_to_K_run_must_say_which_end() -> None:
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 5C"
    g = rummy({1: hand}, starter="QC", stock="AS")
    play(g, "draw", "open 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    refused(g, "layoff 1 AS", "say low or high")
    g.apply("layoff 1 AS high")
    assert g.view(0)["table"][0]["cards"][-1] == "AS"


def test_decision_no_discard_while_a_freed_joker_is_in_hand() -> None:
    g = rummy({1: "KS KH X 5H 6H 7H KD 2C 3C 4C 9S 9H 9D"}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH X / 5H 6H 7H", "swap 1 KD")
    assert g.view(0)["table"][0]["cards"] == ["KS", "KH", "KD"]
    assert g.view(1)["turn"]["owes"] == ["X"]
    refused(g, "discard 8S", "freed joker")
    g.apply("layoff 2 X high")
    assert g.view(1)["turn"]["owes"] == []
    g.apply("discard 8S")


def test_swap_in_a_run_takes_the_exact_card() -> None:
    g = rummy({1: "KS KH KD 5H X 7H 6H 6S 3C 4C 9S 9H 9D"}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH KD / 5H X 7H")
    refused(g, "swap 2 6S", "does not take the place")
    g.apply("swap 2 6H")
    assert g.view(0)["table"][1]["cards"] == ["5H", "6H", "7H"]
    g.apply("meld 9S 9H 9D X")


def test_swap_in_a_set_takes_a_missing_suit_of_its_rank() -> None:
    g = rummy({1: "KS KH X 5H 6H 7H KD KC 3C 4C 9S 9H 9D"}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH X / 5H 6H 7H")
    refused(g, "swap 1 9S", "does not take the place")
    g.apply("swap 1 KC")
    assert g.view(0)["table"][0]["cards"] == ["KS", "KH", "KC"]


def test_worked_checks_two_joker_limits_on_the_table() -> None:
    g = rummy({1: "7S 7H X X 5H 6H QH 2C 3C 4C 9S 9H 9D"}, starter="QC", stock="8S")
    g.apply("draw")
    refused(g, "open 5H X X 8H")
    refused(g, "open 7S 7S 7D")
    g.apply("open 7S 7H X X / 9S 9H 9D")
    assert g.view(0)["table"][0]["cards"] == ["7S", "7H", "X", "X"]


# -- going out and scoring -----------------------------------------------------------------------

RIVAL69 = "TS JS QS KS AS KH 7C AD X 3S 4D 4C QH"  # opens the run TS-AS (51), keeps 69


def test_worked_check_69_and_rummy_de_mano_138() -> None:
    g = rummy({1: RIVAL69, 0: ALL_OUT}, starter="QC", stock="9C 5C")
    play(g, "draw", "open TS JS QS KS AS", "discard 9C")
    assert penalty("KH 7C AD X 3S 4D 4C QH") == 69
    play(g, "draw", "open AC 2C 3C 4C 5C / 2S 3S 4S / 2H 3H 4H / 2D 3D 4D")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["points"], r["double"], r["blocked"]) == (0, 138, True, False)
    assert r["how"] == "open"
    assert g.over and g.winner == 0 and g.scores == [138, 0]


def test_worked_check_69_plain_when_the_winner_opened_in_an_earlier_turn() -> None:
    g = rummy({1: RIVAL69, 0: "KC KH KD 5C 6C 7C 2H 3H 4H 2D 3D 4D 9S"}, starter="QC",
              stock="9C JC 8D 8C")
    play(g, "draw", "open TS JS QS KS AS", "discard 9C")
    play(g, "draw", "open KC KH KD / 5C 6C 7C", "discard JC")
    play(g, "draw", "discard 8D")
    play(g, "draw", "meld 2H 3H 4H", "meld 2D 3D 4D", "layoff 3 8C")
    assert g.hand(0) == cards("9S")
    g.apply("discard 9S")
    r = g.view(1)["results"][0]
    assert (r["winner"], r["points"], r["double"], r["how"]) == (0, 69, False, "discard")


@pytest.mark.parametrize("last", ["layoff", "meld"])
def test_going_out_by_laying_the_last_card(last: str) -> None:
    g = rummy({1: OPENER, 0: HEAVY60}, starter="QC", stock="8S 8D KC")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard 8S")
    play(g, "draw", "discard 8D")
    play(g, "draw", "meld 2C 3C 4C", "layoff 1 KC")
    if last == "layoff":
        play(g, "meld 9S 9H 9D", "layoff 3 5C")
    else:
        play(g, "layoff 3 5C", "meld 9S 9H 9D")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["points"], r["double"]) == (1, last, 60, False)
    assert g.phase == "game-over" and g.to_move is None
    with pytest.raises(IllegalAction, match="over"):
        g.apply("draw")


def test_exception_an_opening_leaving_one_card_ignores_the_minimum_and_doubles() -> None:
    g = rummy({1: ALL_OUT, 0: HEAVY60}, starter="QC", stock="KD")
    g.apply("draw")
    # 9 + 9 + 9 + 10 = 37 < 40, but it leaves one card.
    refused(g, "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D", "worth 27")
    g.apply("open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C")
    g.apply("discard KD")
    r = g.view(1)["results"][0]
    assert (r["winner"], r["points"], r["double"], r["how"]) == (1, 120, True, "discard")


def test_exception_an_opening_leaving_no_card_goes_out_at_once() -> None:
    g = rummy({1: ALL_OUT, 0: HEAVY60}, starter="QC", stock="5C")
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    r = g.view(1)["results"][0]
    assert (r["winner"], r["points"], r["double"], r["how"]) == (1, 120, True, "open")


def test_rivals_melds_on_the_table_take_nothing_off() -> None:
    g = rummy({1: OPENER, 0: "KC KH KD 5C 6C 7C 2H 3H 4H 2D 3D 4D 9S"}, starter="QC",
              stock="8S JC 8D")
    play(g, "draw", "open KS KH KD / 5H 6H 7H", "discard 8S")
    play(g, "draw", "open KC KH KD / 5C 6C 7C", "discard JC")
    play(g, "draw", "meld 2C 3C 4C", "layoff 5 5C", "meld 9S 9H 9D", "discard 8D")
    # Seat 1 is out; seat 0 pays only for the 7 cards in hand, not its melds on the table.
    assert g.over
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["double"]) == (1, "discard", False)
    assert r["points"] == penalty("2H 3H 4H 2D 3D 4D 9S") == 27


# -- scoring unit checks -----------------------------------------------------------------------


def _score(hands: list[str], winner: int | None, opened_at_start: bool = True) -> object:
    g = Game.new("rummy", len(hands), seed=1)
    d = g.deal
    d.hands = [cards(h) for h in hands]
    d.opened_at_start = opened_at_start
    return score_deal(g.rules, d, winner, "discard" if winner is not None else "blocked")


def test_worked_check_rivals_keep_17_34_18_winner_scores_69_or_138() -> None:
    plain = _score(["", "KH 7C", "AD X 3S", "4D 4C QH"], 0, True)
    assert plain.points == 69 and not plain.double  # type: ignore[attr-defined]
    mano = _score(["", "KH 7C", "AD X 3S", "4D 4C QH"], 0, False)
    assert mano.points == 138 and mano.double  # type: ignore[attr-defined]


def test_worked_check_three_rivals_keeping_4_22_24_give_50() -> None:
    r = _score(["", "4S", "TS TH 2D", "KS AS 3D"], 0)
    assert r.points == 50  # type: ignore[attr-defined]


def test_worked_check_blocked_25_17_24_the_17_wins_and_scores_15() -> None:
    r = _score(["2S 2H 3S 3H 4D 4H 7C", "2D 2C 2D 2C 3D 3C 3D", "4S 4C 4S 4C 3S 3H 2S"], None)
    assert r.penalties == (25, 17, 24)  # type: ignore[attr-defined]
    assert (r.winner, r.points, r.blocked, r.double) == (1, 15, True, False)  # type: ignore[attr-defined]


def test_blocked_tie_goes_to_the_lowest_seat() -> None:
    r = _score(["KS", "TD", "9C 2C", "5S 5H"], None)
    # 10, 10, 11, 10: seats 0, 1 and 3 tie; seat 0 wins and scores 0 + 0 + 1 + 0.
    assert (r.winner, r.points) == (0, 1)  # type: ignore[attr-defined]


# -- stock running out: rebuilt at most twice, then blocked ------------------------------------

BLOCK_HANDS = {
    1: "KS KH KD QS QH QD 2S 2H 3S 3H 4D 4H 7C",  # keeps 25
    2: "JS JH JD TS TH TD 2D 2C 2D 2C 3D 3C 3D",  # keeps 17
    0: "9S 9H 9D 8S 8H 8D 4S 4C 4S 4C 3S 3H 2S",  # keeps 24
}


def _run_to_block(g: Game, watch: list[tuple[int, int, int]] | None = None) -> None:
    for _ in range(2000):
        if g.deal.over:
            return
        before = g.view(0)["stock"]
        g.apply("timeout")
        v = g.view(0)
        if watch is not None and before == 1:
            watch.append((v["stock"], v["restocks"], len(v["pile"])))
    raise AssertionError("the deal never ended")


def test_worked_check_blocked_deal_in_play_hands_25_17_24() -> None:
    g = new_game("rummy", 3, BLOCK_HANDS, starter="5S")
    play(g, "draw", "open KS KH KD / QS QH QD", "timeout")
    play(g, "draw", "open JS JH JD / TS TH TD", "timeout")
    play(g, "draw", "open 9S 9H 9D / 8S 8H 8D", "timeout")
    watch: list[tuple[int, int, int]] = []
    _run_to_block(g, watch)
    # Decision: checked as soon as the previous turn ends: a rebuilt stock at once, the pile
    # keeping only its top card; the third time the deal is blocked.
    assert [w[1] for w in watch] == [1, 2, 2]
    assert all(w[2] == 1 for w in watch[:2])
    r = g.view(0)["results"][0]
    assert r["penalties"] == [24, 25, 17]  # seats 0, 1, 2
    assert (r["winner"], r["points"], r["blocked"], r["double"]) == (2, 15, True, False)
    assert g.over and g.winner == 2
    assert g.view(1)["restocks"] == 2
    # The record replays, rebuilt stocks included.
    again = Game.from_record(g.record())
    assert again.view(0) == g.view(0)


def test_blocked_deal_is_never_doubled_even_if_nobody_opened() -> None:
    g = Game.new("rummy", 2, {"max_restocks": 0}, seed=5)
    _run_to_block(g)
    r = g.view(0)["results"][0]
    assert r["blocked"] and not r["double"]
    pens = r["penalties"]
    assert r["winner"] == pens.index(min(pens))
    assert r["points"] == sum(p - min(pens) for p in pens)


def test_stock_rebuilt_from_pile_but_top_card() -> None:
    g = Game.new("rummy", 2, seed=9)
    for _ in range(81):
        g.apply("timeout")
    v = g.view(0)
    # 81 draws emptied the stock; the pile (starter + 81 discards) but its top is the new stock.
    assert (v["restocks"], v["stock"], len(v["pile"])) == (1, 81, 1)
    assert v["pile"] == [g.deal.actions and g.history()[-2]["card"]]
    assert sum(all_cards(g).values()) == 108 and all_cards(g) == full_deck(g)


def test_the_stock_is_rebuilt_twice_and_a_third_run_out_blocks_the_deal() -> None:
    """By default the pile becomes the stock at most twice a deal; the third time the stock
    runs out the deal is blocked."""
    g = Game.new("rummy", 2, seed=5)
    rebuilt: list[int] = []
    while not g.deal.over and len(rebuilt) < 4 * 81:
        g.apply("timeout")
        rebuilt.append(g.view(0)["restocks"])
    # 81 draws empty the first stock, 81 each of the two rebuilt ones (pile but its top).
    assert len(rebuilt) == 3 * 81 and rebuilt.count(0) == 80 and rebuilt[-1] == 2
    assert g.view(0)["results"][0]["blocked"]


def test_blocked_when_the_pile_is_too_small_to_rebuild() -> None:
    g = Game.new("rummy", 2, seed=4)
    d = g.deal
    # Engine-side set-up of a rare position: one card left in the stock, an empty pile.
    d.pile, d.stock = [], d.stock[-1:]
    play(g, "draw")
    g.apply(f"discard {g.hand(1)[0].text}")
    assert g.deal.over
    assert g.view(0)["results"][0]["blocked"]


# -- game length and the dealer ------------------------------------------------------------------


def test_one_deal_the_first_scored_deal_ends_the_game() -> None:
    g = rummy({1: ALL_OUT, 0: HEAVY60}, starter="QC", stock="5C")
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    assert g.over and g.winner == 1 and g.phase == "game-over"
    with pytest.raises(IllegalAction, match="over"):
        g.next_deal()


def test_to_200_only_the_winner_scores_and_the_dealer_moves() -> None:
    opts = {"length": "to-200"}
    g = rummy({1: ALL_OUT, 0: HEAVY60}, options=opts, starter="QC", stock="5C")
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    assert g.scores == [0, 120] and not g.over and g.phase == "deal-over"
    with pytest.raises(IllegalAction):
        g.apply("draw")
    g.next_deal(build_deck("rummy", 2, {0: ALL_OUT, 1: HEAVY60}, dealer=1, starter="QC",
                           stock="5C"))
    v = g.view(0)
    assert (v["deal"], v["dealer"], g.to_move) == (2, 1, 0)
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    assert g.scores == [120, 120] and not g.over
    g.next_deal(build_deck("rummy", 2, {1: ALL_OUT, 0: HEAVY60}, dealer=0, starter="QC",
                           stock="5C"))
    assert (g.view(1)["dealer"], g.to_move) == (0, 1)
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    assert g.scores == [120, 240] and g.over and g.winner == 1
    assert [r["dealer"] for r in g.view(0)["results"]] == [0, 1, 0]
    assert Game.from_record(g.record()).view(1) == g.view(1)


def test_decision_a_blocked_deal_is_a_scored_deal_and_the_deal_passes() -> None:
    g = Game.new("rummy", 3, {"length": "to-200", "max_restocks": 0}, seed=11)
    _run_to_block(g)
    r = g.view(0)["results"][0]
    assert r["blocked"]
    assert g.scores[r["winner"]] == r["points"]
    g.next_deal()
    assert g.view(0)["dealer"] == 1 and g.to_move == 2


def test_to_200_seeded_deals_rotate_the_dealer_over_several_deals() -> None:
    g = Game.new("rummy", 3, {"length": "to-200", "max_restocks": 0}, seed=2)
    dealers: list[int] = []
    while not g.over and len(dealers) < 6:
        dealers.append(g.view(0)["dealer"])
        _run_to_block(g)
        if not g.over:
            g.next_deal()
    assert dealers[:4] == [0, 1, 2, 0][: len(dealers[:4])]


def test_decision_the_stock_is_checked_as_soon_as_the_previous_turn_ends() -> None:
    g = Game.new("rummy", 2, {"max_restocks": 1}, seed=12)
    for _ in range(80):
        g.apply("timeout")
    assert g.view(0)["stock"] == 1 and g.view(0)["restocks"] == 0
    g.apply("timeout")  # draws the last card and discards: the next turn rebuilds at once
    v = g.view(0)
    assert (v["stock"], v["restocks"], len(v["pile"]), g.phase) == (81, 1, 1, "draw")
    for _ in range(81):
        g.apply("timeout")
    # Out again and no rebuild left: blocked before the next player does anything.
    assert g.deal.over and g.view(0)["results"][0]["blocked"]


def test_runs_are_written_low_to_high() -> None:
    g = rummy({1: OPENER}, starter="QC", stock="8S")
    g.apply("draw")
    refused(g, "open KS KH KD / 7H 6H 5H", "cannot follow")
    g.apply("open KD KS KH / 5H 6H 7H")
    assert g.view(0)["table"][0]["cards"] == ["KS", "KH", "KD"]


@pytest.mark.parametrize(
    ("hand", "points"),
    [("KS KH KD 5H 6H 7H 2C 4D 9S JC 8D 3S TC", 48),
     ("AS AH AD 2C 4D 9S JC 8D 3S TC 6H QH 5C", 33)],
)
def test_worked_check_best_opening_on_the_meter(hand: str, points: int) -> None:
    g = rummy({1: hand}, starter="2H", stock="QD")
    meter = g.view(1)["opening"]["meter"]
    assert meter["points"] == points
    g.apply("draw")
    meter = g.view(1)["opening"]["meter"]
    assert meter["points"] == points
    assert meter["enough"] == (points >= 40)
    if points >= 40:
        assert g.is_legal(meter["action"])


def test_a_joker_on_the_pile_may_be_taken_and_must_be_laid() -> None:
    g = rummy({1: OPENER}, starter="X", stock="QD")
    g.apply("take")
    refused(g, "discard 9D", "lay the X")
    refused(g, "open KS KH KD / 5H 6H 7H", "X you took")
    g.apply("open KS KH KD / 5H 6H 7H X")
    g.apply("discard 9D")


def test_two_freed_jokers_are_both_owed() -> None:
    hand = "KS KH X 5H X 7H KD 6H 3C 4C 9S 9H 9D"
    g = rummy({1: hand}, starter="QC", stock="8S")
    play(g, "draw", "open KS KH X / 5H X 7H", "swap 1 KD", "swap 2 6H")
    assert g.view(1)["turn"]["owes"] == ["X", "X"]
    g.apply("meld 9S 9H 9D X")
    assert g.view(1)["turn"]["owes"] == ["X"]
    refused(g, "discard 8S", "freed joker")
    g.apply("layoff 2 X high")
    g.apply("discard 8S")


def test_going_out_by_laying_off_a_freed_joker() -> None:
    hand = "KS KH X 5H 6H 7H KD 2C 3C 4C 9S 9H 9D"
    g = rummy({1: hand, 0: HEAVY60}, starter="QC", stock="8H")
    play(g, "draw", "open KS KH X / 5H 6H 7H / 2C 3C 4C / 9S 9H 9D", "swap 1 KD")
    assert same(g.hand(1), "8H X")
    play(g, "layoff 2 8H", "layoff 2 X high")
    r = g.view(0)["results"][0]
    assert (r["winner"], r["how"], r["double"], r["points"]) == (1, "layoff", True, 120)
