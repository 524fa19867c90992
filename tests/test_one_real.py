"""Melds of one real card and jokers (Indian rummy, house rule ``min_real`` 1): the solver counts
them as the engine reads their text, and writes them so that they read back.

Such cards read as a run when any order does (``make_meld`` prefers the run): ``AH X X`` is the
run A-2-3, ``X AH X`` the set of aces, and every order of ``5H X X`` is a run when jokers may
stand side by side. A set the engine cannot read is no set for the solver either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

import pytest

from rummykit.cards import JOKER, Card, card, format_cards, make_deck, parse_cards
from rummykit.engine.actions import Open
from rummykit.engine.indian import declaration_problem
from rummykit.engine.legal import candidate_melds, iter_legal
from rummykit.errors import InvalidMeld
from rummykit.melds import Meld, MeldRules, lone_set_writable, make_meld, set_meld
from rummykit.rules import make_rules
from rummykit.solver import (
    RAMI51_OPENING,
    RAMI71_OPENING,
    RUMMY_OPENING,
    SIMPLE_OPENING,
    Arrangement,
    best_close,
    best_opening,
    declaration,
    least_penalty,
    opening,
)
from tests import solver_reference as ref
from tests.helpers import new_game

ADJACENT = MeldRules(min_real=1, adjacent_jokers=True)
APART = MeldRules(min_real=1, adjacent_jokers=False)


def reads_back(m: Meld, rules: MeldRules) -> None:
    """The meld's text reads back as the very meld (kind, rank, places, value)."""
    back = make_meld(parse_cards(format_cards(m.cards)), rules)
    assert back == m, f"{m!r} reads back as {back!r}"


def test_set_of_aces_is_written_as_it_reads() -> None:
    got = best_opening(parse_cards("AH X X"), RUMMY_OPENING, ADJACENT)
    assert got is not None and got.points == 33
    (m,) = got.melds
    assert (m.kind, str(m)) == ("set", "X AH X")
    reads_back(m, ADJACENT)
    # Four cards: the ace may stand second or third.
    got = best_opening(parse_cards("AS X X X"), RUMMY_OPENING, ADJACENT)
    assert got is not None and got.points == 44 and str(got.melds[0]) == "X AS X X"
    reads_back(got.melds[0], ADJACENT)


def test_no_set_that_only_reads_as_a_run() -> None:
    # Every order of 5H X X is a run: the solver lays the run 5-6-7 (18), not a set (15).
    got = best_opening(parse_cards("5H X X"), RUMMY_OPENING, ADJACENT)
    assert got is not None and [(m.kind, str(m)) for m in got.melds] == [("run", "5H X X")]
    assert got.points == 18
    # A set the question needs (rami71's joker-free set aside, a close needing a set) cannot
    # be one of those either: with jokers side by side forbidden the set 5H X X reads back.
    close = make_rules("simple", options={"min_real": 1, "adjacent_jokers": True}).opening_rule()
    assert best_close(parse_cards("5H X X 7S 8S 9S 3C"), close, ADJACENT) is None
    close_apart = make_rules("simple", options={"min_real": 1}).opening_rule()
    got = best_close(parse_cards("5H X X 7S 8S 9S 3C"), close_apart, APART)
    assert got is not None and {str(m) for m in got.melds} == {"5H X X", "7S 8S 9S"}
    assert [str(c) for c in got.left] == ["3C"]
    for m in got.melds:
        reads_back(m, APART)


def _orders_reading_as_set(real: Card, jokers: Sequence[Card], rules: MeldRules) -> bool:
    for order in set(permutations((real, *jokers))):
        try:
            m = make_meld(order, rules)
        except InvalidMeld:
            continue
        if m.kind == "set" and m.rank == real.rank and m.joker_count == len(jokers):
            return True
    return False


@pytest.mark.parametrize("adjacent", [True, False])
def test_lone_set_writable_is_the_engine_reading(adjacent: bool) -> None:
    rules = MeldRules(min_real=1, adjacent_jokers=adjacent)
    for rank in range(1, 14):
        for size in (3, 4):
            real = card(rank, 1)
            jokers = [JOKER] * (size - 1)
            want = _orders_reading_as_set(real, jokers, rules)
            assert lone_set_writable(rank, size, rules) is want, (rank, size)
            if want:
                # and the canonical order is one of those that read back
                reads_back(set_meld((real, *jokers), (False,) + (True,) * (size - 1), rank,
                                    rules), rules)
    if adjacent:
        writable = [r for r in range(1, 14) if lone_set_writable(r, 3, rules)]
        assert writable == [1, 2, 13]


@pytest.mark.parametrize("adjacent", [True, False])
def test_wild_cards_of_the_suit_still_read_back(adjacent: bool) -> None:
    # Wild cards of the real card's suit at their own place are no jokers in a run: an order
    # that would read as the run must not be the one written.
    for wild in range(1, 14):
        rules = MeldRules(min_real=1, adjacent_jokers=adjacent, wild_rank=wild)
        for rank in range(1, 14):
            if rank == wild:
                continue
            real = card(rank, 0)
            pool = [JOKER, card(wild, 0), card(wild, 2)]
            for a in pool:
                for b in pool:
                    if not _orders_reading_as_set(real, [a, b], rules):
                        continue
                    m = set_meld((real, a, b), (False, True, True), rank, rules)
                    reads_back(m, rules)


def test_one_tap_open_lays_what_the_meter_counts() -> None:
    # The meter counted X AH X / KS KD KC (63); the engine read the solver's AH X X as the run
    # A-2-3, refused that lay-down, and its one-tap open laid 3S X X / KS KD KC (42) instead.
    options = {"min_real": 1, "adjacent_jokers": True}
    game = new_game(
        "rummy", 2, {1: "AH X X KS KD KC 2C 5D 7S 9H TD 3S 4C"}, options=options, stock=["8C"]
    )
    game.apply("draw")
    seat = game.deal.turn
    meter = opening(game.deal.hands[seat], game.opening_rule(seat), game.deal.meld_rules)
    assert meter.valid and meter.lay is not None and meter.lay.points == 63
    (action,) = [a for a in iter_legal(game, one_open=True) if isinstance(a, Open)]
    assert str(action) == "open X AH X / KS KD KC"
    game.apply(action)
    assert sum(tm.meld.value() for tm in game.deal.table) == 63


def test_engine_lists_the_set_of_aces() -> None:
    groups = {format_cards(g) for g in candidate_melds(list(parse_cards("AH X X")), ADJACENT)}
    kinds = {make_meld(parse_cards(g), ADJACENT).kind for g in groups}
    assert "X AH X" in groups and kinds == {"set", "run"}


def _hands(seed: int, count: int) -> list[list[Card]]:
    rng = random.Random(seed)
    deck = make_deck(8, 2)
    plain = [c for c in deck if c.rank != JOKER.rank]
    out = []
    for _ in range(count):
        n = rng.randint(3, 14)
        jokers = min(n, rng.choice((1, 2, 2, 3, 3, 4, 5)))
        out.append(rng.sample(plain, n - jokers) + [JOKER] * jokers)
    return out


def _check_lay_down(arr: Arrangement | None, rules: MeldRules, jokers_zero: bool) -> None:
    if arr is None:
        return
    for m in arr.melds:
        reads_back(m, rules)
    engine = sum(make_meld(parse_cards(str(m)), rules).value(jokers_zero) for m in arr.melds)
    assert arr.points == engine, (arr, engine)


@pytest.mark.parametrize("variant", ["rummy", "rami51", "rami71", "simple"])
@pytest.mark.parametrize("adjacent", [True, False])
def test_lay_downs_read_back(variant: str, adjacent: bool) -> None:
    options = {"min_real": 1, "adjacent_jokers": adjacent}
    table = make_rules(variant, options=options)
    rules = table.meld_rules
    rule = table.opening_rule()
    for hand in _hands(hash((variant, adjacent)) & 0xFFFF, 150):
        _check_lay_down(best_opening(hand, rule, rules), rules, rule.jokers_zero)
        _check_lay_down(best_close(hand, rule, rules), rules, rule.jokers_zero)
        for m in least_penalty(hand, melds=rules).melds:
            reads_back(m, rules)


@pytest.mark.parametrize("adjacent", [True, False])
def test_declarations_read_back(adjacent: bool) -> None:
    rng = random.Random(43 + adjacent)
    for hand in _hands(7 + adjacent, 150):
        wild = rng.randint(0, 13)
        rules = MeldRules(min_real=1, adjacent_jokers=adjacent, wild_rank=wild)
        for discard in (False, True):
            got = declaration(hand, rules, discard=discard)
            if got is not None:
                for m in got.melds:
                    reads_back(m, rules)
                assert declaration_problem([m.cards for m in got.melds], rules) is None
        for m in least_penalty(hand, melds=rules).melds:
            reads_back(m, rules)


@pytest.mark.parametrize("adjacent", [True, False])
def test_the_brute_force_agrees(adjacent: bool) -> None:
    # The reference lays every order of a set's cards and keeps what make_meld reads.
    rules = MeldRules(min_real=1, adjacent_jokers=adjacent)
    variants = [
        (RUMMY_OPENING, ref.RUMMY), (RAMI51_OPENING, ref.RAMI51), (RAMI71_OPENING, ref.RAMI71),
        (SIMPLE_OPENING, ref.SIMPLE),
    ]
    hands = [list(parse_cards(h)) for h in ("AH X X", "AH AD X X 5C", "KS X X 2D X", "QH X X X")]
    hands += [h for h in _hands(99 + adjacent, 200) if len(h) <= 7]
    for hand in hands:
        for rule, v in variants:
            if not rule.close_only:
                got = best_opening(hand, rule, rules)
                want = ref.best_opening(hand, v, rules)
                assert (got.points if got else None) == want, (format_cards(hand), rule, got)
            close = best_close(hand, rule, rules)
            want_close = ref.best_close(hand, v, rules)
            pair = (sum(map(len, close.melds)), close.points) if close else None
            assert pair == want_close, (
                format_cards(hand), rule, close
            )
