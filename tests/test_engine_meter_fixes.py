"""The opening meter, the bots' opening and the end of a game, fixed: the solver's openings
that may not leave the card just taken alone in hand (``keep``), and what the meter shows."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rummykit.bots import make_bot, observe
from rummykit.cards import JOKER, Card, card, parse_cards
from rummykit.engine import Game, meter, parse_action
from rummykit.errors import InvalidArgument, InvalidHand
from rummykit.melds import RUMMY_MELDS, Meld
from rummykit.rules import make_rules
from rummykit.solver import (
    RAMI51_OPENING,
    RAMI71_OPENING,
    RUMMY_OPENING,
    SIMPLE_OPENING,
    OpeningRule,
    best_close,
    best_opening,
    opening,
)
from tests import solver_reference as ref
from tests.helpers import build_deck
from tests.hunt import scaled
from tests.test_solver_exact import check_arrangement
from tests.test_web_hunt import _twins_in_hand
from tests.web_support import Server, js_errors

examples = scaled("SOLVER_EXAMPLES")

# -- the solver's ``keep`` ------------------------------------------------------------------

#: A close may leave up to two cards (the house rule ``small_opening`` 2).
SMALL2_OPENING = OpeningRule(minimum=40, close_leaves=(0, 1, 2))

KEEP_VARIANTS: list[tuple[OpeningRule, ref.Variant]] = [
    (RUMMY_OPENING, ref.RUMMY),
    (RAMI51_OPENING, ref.RAMI51),
    (RAMI71_OPENING, ref.RAMI71),
    (SIMPLE_OPENING, ref.SIMPLE),
    (SMALL2_OPENING, ref.Variant(40, leaves=(0, 1, 2))),
]


@st.composite
def melded_hands(draw: st.DrawFn) -> tuple[list[Card], Card]:
    """A run, a set and a card or two more, and the card just taken: hands that often meld
    every card but the taken one, where ``keep`` matters."""
    suit, low = draw(st.integers(0, 3)), draw(st.integers(1, 10))
    run = [card(low + i, suit) for i in range(draw(st.integers(3, 4)))]
    rank = draw(st.integers(1, 13))
    group = [card(rank, s) for s in sorted(draw(st.sets(st.integers(0, 3), min_size=3,
                                                         max_size=3)))]
    near = st.builds(card, st.integers(max(1, low - 1), min(13, low + 4)), st.integers(0, 3))
    anywhere = st.builds(card, st.integers(1, 13), st.integers(0, 3))
    extra = draw(st.lists(near | anywhere | st.just(JOKER), max_size=2))
    taken = draw(near | anywhere)
    cards = run + group + extra + [taken]
    if any(cards.count(c) > 2 for c in cards if not c.is_joker):
        cards = run + group + [taken]
    assume(all(cards.count(c) <= 2 for c in cards if not c.is_joker))
    return cards, taken


def _alone(cards: Sequence[Card], melds: Sequence[Meld], keep: Card) -> bool:
    return bool(melds) and ref.left_of(cards, melds) == [keep]


def _want_opening(cards: Sequence[Card], v: ref.Variant, keep: Card) -> int | None:
    best = None
    for arr in ref.arrangements(cards, RUMMY_MELDS):
        melded = sum(len(m) for m in arr)
        if (
            len(cards) - melded >= v.keep
            and structure_ok(arr, v)
            and not _alone(cards, arr, keep)
        ):
            x = ref.value(arr, v)
            best = x if best is None else max(best, x)
    return best


def _want_close(cards: Sequence[Card], v: ref.Variant, keep: Card) -> tuple[int, int] | None:
    best = None
    n = len(cards)
    for arr in ref.arrangements(cards, RUMMY_MELDS):
        melded = sum(len(m) for m in arr)
        if (
            arr and n - melded in v.leaves and ref.structure_ok(arr, v, None, True)
            and not _alone(cards, arr, keep)
        ):
            x = (melded, ref.value(arr, v))
            best = x if best is None else max(best, x)
    return best


def structure_ok(melds: Sequence[Meld], v: ref.Variant) -> bool:
    return ref.structure_ok(melds, v, None, False)


@examples(200)
@given(melded_hands())
def test_keep_against_the_reference(case: tuple[list[Card], Card]) -> None:
    """The best opening and close that do not leave the kept card alone in hand, against
    every arrangement of the hand; a card held twice is no constraint (one copy may go)."""
    cards, keep = case
    for rule, v in KEEP_VARIANTS:
        twice = cards.count(keep) > 1
        if not rule.close_only:
            got = best_opening(cards, rule, RUMMY_MELDS, None, keep)
            want = (
                ref.best_opening(cards, v, RUMMY_MELDS) if twice
                else _want_opening(cards, v, keep)
            )
            assert (got.points if got else None) == want, (cards, keep, rule, got)
            if got is not None:
                check_arrangement(cards, got, RUMMY_MELDS)
                assert twice or not _alone(cards, got.melds, keep)
                assert structure_ok(got.melds, v)
        close = best_close(cards, rule, RUMMY_MELDS, None, keep)
        want_close = (
            ref.best_close(cards, v, RUMMY_MELDS) if twice else _want_close(cards, v, keep)
        )
        if want_close is None:
            assert close is None, (cards, keep, rule, close)
            continue
        assert close is not None, (cards, keep, rule, want_close)
        assert (len(cards) - len(close.left), close.points) == want_close, (cards, keep, rule)
        check_arrangement(cards, close, RUMMY_MELDS)
        assert twice or not _alone(cards, close.melds, keep)
        assert ref.structure_ok(close.melds, v, None, True)


def _texts(melds: Sequence[Meld]) -> list[str]:
    return sorted(" ".join(c.text for c in m.cards) for m in melds)


def test_keep_lays_the_card_or_leaves_another_beside_it() -> None:
    # Everything but the 7H melds (72); laid, it leaves the second TH instead (69).
    cards = list(parse_cards("8H 9H TH JH QH 5H 5D 5S TH 7H"))
    keep = card(7, 1)
    free = opening(cards, RAMI51_OPENING, RUMMY_MELDS)
    assert free.close is not None and free.close.left == (keep,)
    kept = opening(cards, RAMI51_OPENING, RUMMY_MELDS, None, keep)
    assert kept.close is not None and kept.close.points == 69
    assert _texts(kept.close.melds) == ["5S 5H 5D", "7H 8H 9H", "TH JH QH"]
    assert kept.close.left == (card(10, 1),)
    assert kept.best == kept.close and kept.lay == kept.close
    # Where nothing can take the kept card, the best keeps another card beside it.
    cards = list(parse_cards("2H 3H 4H 5H 6S 6D 6C 9C TC JC QD QS QH 8D"))
    got = best_opening(cards, RUMMY_OPENING, RUMMY_MELDS, None, card(8, 2))
    assert got is not None and got.points == 89 and got.left == (card(2, 1), card(8, 2))
    assert best_close(cards, RUMMY_OPENING, RUMMY_MELDS, None, card(8, 2)) is None


def test_keep_is_checked() -> None:
    cards = list(parse_cards("2H 3H 4H 8D"))
    with pytest.raises(InvalidArgument, match="keep must be a Card"):
        best_opening(cards, RUMMY_OPENING, RUMMY_MELDS, None, "8D")  # type: ignore[arg-type]
    with pytest.raises(InvalidHand, match="the card to keep, 9D, is not in the hand"):
        opening(cards, RUMMY_OPENING, RUMMY_MELDS, None, card(9, 2))
    with pytest.raises(InvalidArgument, match="must be the same card"):
        best_close(cards, RUMMY_OPENING, RUMMY_MELDS, card(2, 1), card(8, 2))
    # The card the lay-down must include is laid anyway.
    assert opening(cards, RUMMY_OPENING, RUMMY_MELDS, card(8, 2), card(8, 2)) == opening(
        cards, RUMMY_OPENING, RUMMY_MELDS, card(8, 2)
    )


# -- the meter asks the solver ----------------------------------------------------------------

NO_DUTY = {"taken_card_duty": False}


def _taken(variant: str, hand: str, starter: str, options: dict[str, Any]) -> Game:
    deck = build_deck(variant, 2, {1: hand}, starter=starter, options=options)
    game = Game.new(variant, 2, options, deck=deck)
    game.apply("take")
    return game


def test_the_meter_asks_the_solver_once_more_when_its_best_lay_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _taken("rummy", "2H 3H 4H 5H 6S 6D 6C 9C TC JC QD QS QH", "8D", NO_DUTY)
    asked: list[Card | None] = []

    def counted(*args: Any) -> Any:
        asked.append(args[4] if len(args) > 4 else None)
        return opening(*args)

    monkeypatch.setattr(meter, "opening", counted)
    shown = meter.opening_meter(game, 1)
    # Once as it is, once with the taken 8D kept (it re-searched once per card of the hand).
    assert asked == [None, card(8, 2)]
    assert shown["points"] == 89 and shown["enough"]
    assert game.is_legal(shown["action"])


def test_rami71_meter_lays_the_kept_card_in_its_clean_run() -> None:
    # rami71 without the taken card's duty: every card but the 8H just taken melds (so it may
    # not stay alone); laid in the run 8H-QH it leaves the KS to discard, 134. The 8H is owed
    # to nobody, so the joker-free run may hold it (the engine asks that only of a card
    # owed): the meter used to look for openings without such a run, and showed 127.
    deck = build_deck(
        "rami71", 2, {0: "QH QD QC KS KD KC 9D 9H 9S TH JH QH KH 9C", 1: "8H"}, options=NO_DUTY
    )
    game = Game.new("rami71", 2, NO_DUTY, deck=deck)
    game.apply("discard 8H")
    game.apply("take")
    shown = game.view(0)["opening"]["meter"]
    assert shown["points"] == 134 and shown["enough"]
    assert ["8H", "9H", "TH", "JH", "QH"] in shown["melds"]
    game.apply(shown["action"])
    assert [c.text for c in game.hand(0)] == ["KS"]


# -- the bots open as the meter does ---------------------------------------------------------


def _rami71_taken() -> Game:
    deck = build_deck(
        "rami71", 2, {0: "QH QD QC KS KD KC 9D 9H 9S TH JH QH KH 9C", 1: "8H"}, options=NO_DUTY
    )
    game = Game.new("rami71", 2, NO_DUTY, deck=deck)
    game.apply("discard 8H")
    return game


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_open_with_the_best_legal_lay_when_the_best_is_refused(level: str) -> None:
    # The best lay (91) would leave only the 8D just taken: refused. The bots laid the biggest
    # melds of it that were legal (77, keeping 2H-5H); the best legal opening is 89.
    game = _taken("rummy", "2H 3H 4H 5H 6S 6D 6C 9C TC JC QD QS QH", "8D", NO_DUTY)
    act = make_bot(level, 0.05).choose(observe(game, 1), random.Random(1))
    assert parse_action(act) == parse_action(game.view(1)["opening"]["meter"]["action"])
    game.apply(act)
    assert sorted(c.text for c in game.hand(1)) == ["2H", "8D"]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_rami71_bots_take_and_lay_all_but_one(level: str) -> None:
    # medium takes the 8H to open with it, then laid 9S-9C / KS-KC / TH JH QH (the best
    # lay's legal part, four cards left) where the meter's lay leaves only the KS: rami sec.
    game = _rami71_taken()
    bot = make_bot(level, 0.05)
    assert bot.choose(observe(game, 0), random.Random(1)) == "take"
    game.apply("take")
    act = bot.choose(observe(game, 0), random.Random(1))
    assert act == game.view(0)["opening"]["meter"]["action"]
    game.apply(act)
    assert bot.choose(observe(game, 0), random.Random(1)) == "discard KS"
    game.apply("discard KS")
    assert game.view(0)["results"][-1]["winner"] == 0


# -- the meter's points are what its action lays ---------------------------------------------


def _open_groups(action: str) -> list[list[str]]:
    return sorted(sorted(g.split()) for g in action[len("open "):].split(" / "))


def test_rami71_meter_points_are_those_of_the_close_it_lays() -> None:
    # The best opening is worth 63, under 71; the close (all but the TH, rami sec) is worth
    # 35 and is the one-tap open. The meter used to show 63 and the best opening's melds on
    # a button laying 35.
    deck = build_deck("rami71", 2, {1: "3H 3S 3D 3C AD 2D 3D 4D AH 2H 3H 4H AS 2S"}, extra="TH")
    game = Game.new("rami71", 2, deck=deck)
    best = opening(game.hand(1), RAMI71_OPENING, RUMMY_MELDS)
    assert best.best is not None and best.best.points == 63
    shown = game.view(1)["opening"]["meter"]
    assert shown["enough"] and shown["action"] is not None
    assert shown["points"] == 35
    assert sorted(sorted(g) for g in shown["melds"]) == _open_groups(shown["action"])
    game.apply(shown["action"])
    assert [c.text for c in game.hand(1)] == ["TH"]


def test_rummy_meter_points_are_those_of_the_close_it_lays() -> None:
    # Going out ignores the minimum of 40: before its draw the hand can lay all but the 3C
    # (33; the best opening, 34, keeps three cards), after drawing the 5H all but the 3C
    # again (38; best 39). The meter's points and melds are that close's, on the seat's turn
    # (its one-tap open) and before it.
    hand = "AD 2D 3D 4D AS 2S 3S 4S 2H 3H 4H 3C 4C"
    deck = build_deck("rummy", 2, {1: hand}, stock="5H")
    game = Game.new("rummy", 2, deck=deck)
    before = game.view(1)["opening"]["meter"]
    assert before["enough"] and before["action"] is None
    assert before["points"] == 33 and len(before["melds"]) == 4
    game.apply("draw")
    shown = game.view(1)["opening"]["meter"]
    assert shown["enough"] and shown["action"] is not None
    assert shown["points"] == 38
    assert sorted(sorted(g) for g in shown["melds"]) == _open_groups(shown["action"])
    game.apply(shown["action"])
    assert [c.text for c in game.hand(1)] == ["3C"]


def test_a_meter_not_enough_shows_the_best_legal_opening_below_the_minimum() -> None:
    # All 13 dealt cards lay 41 but would leave the KD just taken alone; a lay keeping a card
    # beside it is at most 39: not enough, and the meter shows that 39 (it showed 0).
    game = _taken("rummy", "2C 3C 4C 2D 3D 4D 2S 3S 4S 2H 3H 4H 5H", "KD", NO_DUTY)
    shown = game.view(1)["opening"]["meter"]
    assert not shown["enough"] and shown["action"] is None
    assert shown["points"] == 39



def test_the_page_says_when_the_meter_is_enough_below_the_minimum(
    planned_server: Server, browser: Any
) -> None:
    """The page shows the meter's points as the engine gives them (no figure of its own),
    and says a close needs no minimum when they are enough below it."""
    page, _ = _twins_in_hand(planned_server, browser)

    def shown(points: int, enough: bool) -> Any:
        meter = {"points": points, "melds": [["5H", "6H", "7H"]], "enough": enough,
                 "action": "open 5H 6H 7H"}
        return page.evaluate(
            """(meter) => { const { S, actions } = window.rummykit;
              S.view.opening.minimum = 40; S.view.opening.meter = meter; actions.render();
              return [document.querySelector('.meter-value').dataset.meter,
                      !!document.querySelector('[data-hint=no-minimum]')]; }""",
            meter,
        )

    assert shown(18, True) == ["18", True]
    assert shown(45, True) == ["45", False]
    assert shown(18, False) == ["18", False]
    assert js_errors(page) == []
    page.context.close()


# -- Indian rummy: a deal whose stock ran out ------------------------------------------------

# The rule book's declaration with sevens wild (see tests/test_engine_indian.py).
DECL = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
DECLARE = "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD 7S"


def _run_out(game: Game) -> None:
    for _ in range(3000):
        if game.deal.over:
            return
        game.apply("timeout")  # draws and discards: never declares nor drops
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_indian_stock_runs_out_only_under_a_house_rule(players: int) -> None:
    """Between turns every seat holds its hand size, and the indicator lies aside: when the
    stock runs out the pile holds every other card, 106 - 13 x players - 1 >= 27, and is
    reshuffled into a new stock, its top card staying. Only a bounded ``max_restocks`` (or a
    table leaving a single card out of the hands, below) ends a deal that way."""
    rules = make_rules("indian", players)
    assert rules.max_restocks == -1 and rules.restock_keeps_top
    assert rules.deck_size - players * rules.hand_size - 1 >= 27
    game = Game.new("indian", players, seed=players)
    while game.deal.restocks < 2:
        game.apply("timeout")
    assert not game.deal.over


def test_a_table_of_six_hands_of_17_without_jokers_runs_out() -> None:
    # 102 cards in hands and the indicator aside leave one card of the 104: the stock.
    options = {"hand_size": 17, "jokers": 0, "starter": False, "format": "points"}
    game = Game.new("indian", 6, options, seed=1)
    assert game.view(0)["stock"] == 1
    _run_out(game)
    assert [(r.winner, r.how) for r in game.results] == [(None, "no-winner")]
    assert not game.over


def test_indian_points_a_deal_nobody_won_is_played_again() -> None:
    # The stock ran out (no more than one rebuild, a house rule): the one-deal game went to
    # seat 0 on totals all 0. The deal counts for nothing: the next deal's winner wins.
    options = {"format": "points", "max_restocks": 0}
    game = Game.new("indian", 2, options, seed=3)
    _run_out(game)
    r = game.view(0)["results"][0]
    assert (r["winner"], r["how"], r["penalties"], r["points"]) == (None, "no-winner", [0, 0], 0)
    assert not game.over and game.winner is None and game.phase == "deal-over"
    dealer = game.score.dealer  # the next seat deals, as after any deal
    assert dealer == 1
    game.next_deal(build_deck("indian", 2, {1: DECL}, dealer=dealer, indicator="7C",
                              starter="2C", stock="5C KH", options=options))
    assert game.to_move == 0
    for action in ("draw", "discard 5C", "draw", DECLARE):
        game.apply(action)
    assert game.over and game.winner == 1 and game.scores == [0, game.results[1].points]


def test_indian_deals_a_deal_nobody_won_is_not_one_of_them() -> None:
    # Two deals whose stock ran out ended a two-deal game on totals all 0: seat 0 won it.
    game = Game.new("indian", 3, {"format": "deals", "deals": 2, "max_restocks": 0}, seed=5)
    for _ in range(2):
        _run_out(game)
        assert game.results[-1].how == "no-winner"
        assert not game.over
        game.next_deal()
    assert game.deal.number == 3 and game.scores == [0, 0, 0]


def test_indian_pool_a_deal_nobody_won_adds_nothing() -> None:
    game = Game.new("indian", 2, {"format": "pool101", "max_restocks": 0}, seed=5)
    _run_out(game)
    assert game.results[-1].how == "no-winner"
    assert game.scores == [0, 0] and not game.over
