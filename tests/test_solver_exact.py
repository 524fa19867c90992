"""The fast solver against the brute-force reference, on random small hands, every variant."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import JOKER, Card, card, parse_cards
from rummykit.melds import RUMMY_MELDS, Meld, MeldRules, indian_penalty, make_meld
from rummykit.solver import (
    INDIAN_PENALTY,
    RAMI51_OPENING,
    RAMI71_OPENING,
    RUMMY_OPENING,
    RUMMY_PENALTY,
    SIMPLE_OPENING,
    Arrangement,
    OpeningRule,
    PenaltyRule,
    api,
    best_close,
    best_opening,
    clear_tables,
    declaration,
    fast,
    least_penalty,
    opening_and_penalty,
    opening_points,
    penalty_points,
)
from tests import solver_reference as ref
from tests.hunt import scaled

# SOLVER_EXAMPLES=2000 python -m pytest tests/test_solver_exact.py  -- a longer hunt.
examples = scaled("SOLVER_EXAMPLES")


@st.composite
def hands(draw: st.DrawFn, max_size: int, jokers: int, wild_rank: int = 0) -> list[Card]:
    """A small hand; most are drawn from a narrow window of ranks and suits so that runs,
    sets and joker choices crowd in, some from the whole deck."""
    if draw(st.integers(0, 4)):
        low = draw(st.integers(1, 10))
        ranks = [r if r <= 13 else 1 for r in range(low, low + 5)]
        suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=3)))
    else:
        ranks = list(range(1, 14))
        suits = [0, 1, 2, 3]
    deck = [card(r, s) for r in ranks for s in suits for _ in range(2)]
    if wild_rank and draw(st.booleans()):
        deck += [card(wild_rank, s) for s in range(4) if deck.count(card(wild_rank, s)) < 2]
    deck += [JOKER] * jokers
    picks = draw(st.lists(st.integers(0, len(deck) - 1), unique=True, min_size=1,
                          max_size=max_size))
    return [deck[i] for i in picks]


def check_arrangement(cards: Sequence[Card], arr: Arrangement, rules: MeldRules) -> None:
    """The solver's melds are real melds made of the hand's cards; ``left`` is the rest."""
    for m in arr.melds:
        again = make_meld(m.cards, rules)
        assert again.kind == m.kind
        if not rules.wild_rank:
            assert again == m  # built directly, but exactly what make_meld gives
    # The rest in hand order, each melded card's first copy struck first.
    rest = list(cards)
    for m in arr.melds:
        for c in m.cards:
            assert c in rest, (cards, arr)
            rest.remove(c)
    assert arr.left == tuple(rest), (cards, arr)


def taken_of(cards: Sequence[Card], pick: int | None) -> Card | None:
    return None if pick is None else cards[pick % len(cards)]


VARIANTS: list[tuple[OpeningRule, ref.Variant]] = [
    (RUMMY_OPENING, ref.RUMMY),
    (RAMI51_OPENING, ref.RAMI51),
    (RAMI71_OPENING, ref.RAMI71),
    (SIMPLE_OPENING, ref.SIMPLE),
]


def check_opening_and_close(
    cards: Sequence[Card], rule: OpeningRule, v: ref.Variant, taken: Card | None
) -> None:
    melds_of: tuple[Meld, ...]
    if not rule.close_only:
        want = ref.best_opening(cards, v, RUMMY_MELDS, taken)
        got = best_opening(cards, rule, RUMMY_MELDS, taken)
        assert (got.points if got else None) == want, (cards, taken, got, want)
        assert opening_points(cards, rule, RUMMY_MELDS, taken) == want
        if got is not None:
            check_arrangement(cards, got, RUMMY_MELDS)
            melds_of = got.melds
            assert ref.structure_ok(melds_of, v, taken, False)
            assert ref.value(melds_of, v) == got.points
    want_close = ref.best_close(cards, v, RUMMY_MELDS, taken)
    close = best_close(cards, rule, RUMMY_MELDS, taken)
    if want_close is None:
        assert close is None, (cards, taken, close)
        return
    assert close is not None, (cards, taken, want_close)
    check_arrangement(cards, close, RUMMY_MELDS)
    assert ref.structure_ok(close.melds, v, taken, True)
    melded = len(cards) - len(close.left)
    assert (melded, close.points) == want_close, (cards, taken, close, want_close)


@examples(250)
@given(hands(max_size=9, jokers=4), st.none() | st.integers(0, 20))
def test_rummy_and_rami51(cards: list[Card], pick: int | None) -> None:
    taken = taken_of(cards, pick)
    for rule, v in VARIANTS[:2]:
        check_opening_and_close(cards, rule, v, taken)
    want = ref.rummy_least_penalty(cards, RUMMY_MELDS)
    got = least_penalty(cards)
    check_arrangement(cards, got, RUMMY_MELDS)
    assert got.points == want, (cards, got, want)
    assert penalty_points(cards) == want
    # The rummy opening and penalty each use the other's answer when it is known; the
    # answers (melds among equals too) must not depend on which was asked first.
    clear_tables()
    penalty_first = least_penalty(cards)
    opened_second = best_opening(cards)
    clear_tables()
    opened_first = best_opening(cards)
    penalty_second = least_penalty(cards)
    assert penalty_first == penalty_second, (cards, penalty_first, penalty_second)
    assert opened_first == opened_second, (cards, opened_first, opened_second)
    assert opened_first is not None
    assert opened_first.points == ref.best_opening(cards, ref.RUMMY, RUMMY_MELDS, None)
    check_arrangement(cards, opened_first, RUMMY_MELDS)
    assert penalty_first.points == want
    # Both at once (one search for the two questions): the same answers, melds included.
    clear_tables()
    assert opening_and_penalty(cards) == (opened_first, penalty_first), cards
    assert least_penalty(cards) == penalty_first


@examples(150)
@given(hands(max_size=9, jokers=4))
def test_joker_bound(cards: list[Card]) -> None:
    """The fast path's bounds hold for every arrangement of the hand: on what ``j`` jokers
    add (by the places they can stand), its opening value is at most its natural cards at
    their best weight plus that bound for its jokers; and the whole hand's bound when it
    holds cards that only a joker can meld."""
    cfg = api._config(RUMMY_MELDS, "open", False, 0, 0)
    vs, ms, jokers = api._hand(cards)[1]
    tops = fast._joker_tops(cfg, vs, jokers, 99)
    assert len(tops) == jokers + 1
    st = fast.structure(vs[0], vs[1], vs[2], vs[3], ms, jokers)
    _, _, remw, remw1 = fast._field_weights(st, fast._weights(cfg))
    # ``dm`` as large as any weight: the bound the search stops at, with the densest
    # candidate's weight per joker left free.
    whole = fast.hand_bound(cfg, st, tops, jokers, remw, remw1, 99)
    for melds in ref.arrangements(cards, RUMMY_MELDS):
        used = [c for m in melds for c in m.cards]
        nat = sum(11 if c.rank == 1 else min(c.rank, 10) for c in used if not c.is_joker)
        value = ref.value(melds, ref.RUMMY)
        assert value <= nat + tops[used.count(JOKER)], (cards, melds)
        assert value <= whole, (cards, melds, whole)


@examples(150)
@given(hands(max_size=9, jokers=4), st.sampled_from([5, 20, 99]))
def test_flat_joker_tops(cards: list[Card], jw: int) -> None:
    """Where every joker place is worth the same (the rummy penalty), what the jokers can
    add comes without walking the places for up to two jokers: the same as the walk."""
    cfg = api._penalty_search(RUMMY_PENALTY, RUMMY_MELDS)[0]
    vs, _, jokers = api._hand(cards)[1]
    got = fast._joker_tops(cfg, vs, jokers, jw)
    flat = fast._FLAT[cfg]
    assert flat == 20
    fast._FLAT[cfg] = 0  # the walk
    try:
        assert got == fast._joker_tops(cfg, vs, jokers, jw), (cards, jw)
    finally:
        fast._FLAT[cfg] = flat


#: A set that leaves one, two or three cards of its rank, with and without a joker to spare:
#: the rank's cards that can only be in a set are then dead or still alive (fast path, step 3).
SET_LEFTOVERS = [
    "7S 7H 7D 7C X X",
    "7S 7H 7D 7C X 2H 9D",
    "TS TH TD TC X 8C 8H 2H 3H",
    "QS QH QD QC QS QH X X 4C",
    "5S 5H 5D 5C 5S 6S 7S X 9D",
    "AS AH AD AC X 2S 3S KH KD",
    "9S 9H 9D 9C 9H 9D 4S",
    "KS KH KD KC KS X QS JS 3D",
]


@pytest.mark.parametrize("text", SET_LEFTOVERS)
def test_set_leftovers(text: str) -> None:
    cards = parse_cards(text)
    clear_tables()
    for rule, v in VARIANTS[:2]:
        check_opening_and_close(cards, rule, v, None)
    got = least_penalty(cards)
    check_arrangement(cards, got, RUMMY_MELDS)
    assert got.points == ref.rummy_least_penalty(cards, RUMMY_MELDS), (cards, got)


#: 14-card hands on which one search for both questions must keep apart what each has seen:
#: a state reached again is skipped only when neither answer can gain from it.
PAIRED = [
    "7S X X AS JH AD AH 6S 5D KH TH 5C 5S QH",
    "AD 6D KC X 2D TC 6H 9C QC 6C TC JC JC X",
    "8C 9C X X 9D 8H 8D JH QH 9D 9S KH 8S 9H",
]


@pytest.mark.parametrize("text", PAIRED)
def test_opening_and_penalty_together(text: str) -> None:
    cards = parse_cards(text)
    clear_tables()
    opened = best_opening(cards)
    clear_tables()
    penalty = least_penalty(cards)
    clear_tables()
    assert opening_and_penalty(cards) == (opened, penalty)


@examples(250)
@given(hands(max_size=9, jokers=2), st.none() | st.integers(0, 20))
def test_rami71_and_simple(cards: list[Card], pick: int | None) -> None:
    taken = taken_of(cards, pick)
    for rule, v in VARIANTS[2:]:
        check_opening_and_close(cards, rule, v, taken)


@st.composite
def opening_hands(draw: st.DrawFn) -> list[Card]:
    """A run and a set of natural cards, a few cards more and a joker or two: hands that can
    open with room for a joker beside their joker-free melds, or not."""
    suit, low = draw(st.integers(0, 3)), draw(st.integers(1, 11))
    run = [card(low + i, suit) for i in range(3)]
    rank = draw(st.integers(1, 13))
    group = [card(rank, s) for s in sorted(draw(st.sets(st.integers(0, 3), min_size=3,
                                                         max_size=3)))]
    extra = draw(hands(max_size=3, jokers=1))
    cards = run + group + extra + [JOKER]
    if any(cards.count(c) > 2 for c in cards if not c.is_joker):
        cards = run + group + [JOKER]
    return cards


@examples(150)
@given(opening_hands())
def test_a_taken_joker(cards: list[Card]) -> None:
    """A joker taken from the pile must be in the opening, also where jokers count zero
    (rami71) and melding it adds nothing to the score."""
    for rule, v in VARIANTS:
        check_opening_and_close(cards, rule, v, JOKER)


@examples(150)
@given(opening_hands(), st.integers(0, 20))
def test_a_taken_card_in_hands_that_open(cards: list[Card], pick: int) -> None:
    """The same hands, any of their cards the one taken from the pile."""
    taken = cards[pick % len(cards)]
    for rule, v in VARIANTS:
        check_opening_and_close(cards, rule, v, taken)


@st.composite
def indian_case(draw: st.DrawFn) -> tuple[list[Card], MeldRules]:
    wild = draw(st.integers(0, 13))
    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)
    return draw(hands(max_size=7, jokers=2, wild_rank=wild)), rules


def check_indian_penalty(cards: list[Card], rules: MeldRules) -> None:
    """The Indian least penalty (two sequences, one pure) against the reference."""
    want = ref.indian_least_penalty(cards, rules)
    got = least_penalty(cards, INDIAN_PENALTY, rules)
    check_arrangement(cards, got, rules)
    assert got.points == want, (cards, rules.wild_rank, got, want)
    assert penalty_points(cards, INDIAN_PENALTY, rules) == want
    if got.melds:
        assert ref.two_sequences(got.melds)


def check_declarations(cards: list[Card], rules: MeldRules) -> None:
    """Declarations with and without a discard against the reference."""
    for discard in (True, False):
        dec = declaration(cards, rules, discard)
        assert (dec is not None) == ref.can_declare(cards, rules, discard), (cards, discard)
        if dec is not None:
            check_arrangement(cards, dec, rules)
            assert len(dec.left) == (1 if discard else 0)
            assert ref.two_sequences(dec.melds)


@examples(150)
@given(indian_case())
def test_indian(case: tuple[list[Card], MeldRules]) -> None:
    cards, rules = case
    check_indian_penalty(cards, rules)
    check_declarations(cards, rules)


FREE_INDIAN = PenaltyRule(scoring="indian")


@st.composite
def indian_crowded(draw: st.DrawFn) -> tuple[list[Card], MeldRules]:
    """6 to 8 cards of which 2 to 4 are wild cards, plus up to 1 printed joker, the others
    from a narrow window of ranks in one or two suits: many ways to split the wild cards
    between natural and joker, which the search cuts down to a few (``api._wild_choices``).
    (Kept small: the reference's time grows fast with the jokers.)"""
    wild = draw(st.integers(1, 13))
    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)
    wilds = [card(wild, s) for s in range(4) for _ in range(2)]
    picks = draw(st.lists(st.integers(0, 7), unique=True, min_size=2, max_size=4))
    hand = [wilds[i] for i in picks] + [JOKER] * draw(st.integers(0, 1))
    low = draw(st.integers(max(1, wild - 4), min(10, wild + 2)) | st.integers(1, 10))
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=2)))
    others = [
        card(r if r <= 13 else 1, s) for r in range(low, low + 5) for s in suits for _ in range(2)
        if (r if r <= 13 else 1) != wild
    ]
    size = draw(st.integers(6, 8))
    more = draw(st.lists(st.integers(0, len(others) - 1), unique=True,
                         min_size=min(len(others), max(0, size - len(hand))),
                         max_size=min(len(others), max(0, size - len(hand)))))
    return hand + [others[i] for i in more], rules


@examples(60)
@given(indian_crowded())
def test_indian_crowded_wild_cards(case: tuple[list[Card], MeldRules]) -> None:
    cards, rules = case
    check_indian_penalty(cards, rules)
    # Without the two-sequence rule (the bots' measure): only the real-card minimum makes a
    # wild card's natural place matter.
    free = min(
        sum(indian_penalty(c, rules.wild_rank) for c in ref.left_of(cards, arr))
        for arr in ref.arrangements(cards, rules)
    )
    got_free = least_penalty(cards, FREE_INDIAN, rules)
    check_arrangement(cards, got_free, rules)
    assert got_free.points == free, (cards, rules.wild_rank, got_free, free)
    assert penalty_points(cards, FREE_INDIAN, rules) == free
    check_declarations(cards, rules)
