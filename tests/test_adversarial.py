"""Crafted inputs that must cost no more than ordinary ones: the solver's worst hands under
the house rules, and what a record or a client can make the engine and the server do.

Every test counts work (table entries made, states searched, bytes, items) or checks a
refusal; none times anything (``scripts/bench_adversarial.py`` times the same inputs).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.analysis import analyze
from rummykit.cards import JOKER, Card, card, parse_cards
from rummykit.melds import MeldRules
from rummykit.solver import (
    RUMMY_OPENING,
    RUMMY_PENALTY,
    SIMPLE_OPENING,
    best_close,
    best_opening,
    clear_tables,
    core,
    least_penalty,
)
from tests import solver_reference as ref
from tests.hunt import scaled

examples = scaled("SOLVER_EXAMPLES")

#: The house rules that let one real card make a meld with jokers side by side, with every
#: printed joker and card a house rule allows.
LOOSE = {"jokers": 8, "hand_size": 17, "min_real": 1, "adjacent_jokers": True}


@pytest.fixture
def entries(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the solver's table entries made (its unit of work) from empty tables."""
    made = [0]
    grow = core._grow

    def counted() -> None:
        made[0] += 1
        grow()

    clear_tables()
    monkeypatch.setattr(core, "_grow", counted)
    yield made
    clear_tables()


def test_one_real_card_sets_do_not_make_a_dense_suit_branch(entries: list[int]) -> None:
    """With one real card a meld, a card and two jokers made a set, so every card of a
    dense suit was a set choice and the search walked the suit's subsets: this hand (a whole
    suit and three jokers) made over 100,000 table entries and took 13 s. A set of one real
    card is searched only where no run of the same cards weighs as much (the high ace of
    the opening)."""
    hand = "TH 2H 3H 4H 5H 6H 7H 8H 9H AC AH JH KC KH QH X X X"
    a = analyze(hand, "rummy", options=LOOSE)
    assert a.opening is not None and a.opening.best is not None
    assert a.opening.best.points == 148
    assert a.penalty.points == 0
    assert entries[0] < 30_000


@st.composite
def loose_hands(draw: st.DrawFn) -> tuple[list[Card], MeldRules]:
    """Small hands of a narrow window with up to three jokers, under one real card a meld."""
    rules = MeldRules(min_real=1, adjacent_jokers=draw(st.booleans()))
    low = draw(st.integers(1, 11))
    ranks = [r if r <= 13 else 1 for r in range(low, low + 4)]
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=2)))
    deck = [card(r, s) for r in ranks for s in suits for _ in range(2)]
    picks = draw(st.lists(st.integers(0, len(deck) - 1), unique=True, min_size=1, max_size=5))
    return [deck[i] for i in picks] + [JOKER] * draw(st.integers(0, 3)), rules


def _check_loose(cards: Sequence[Card], rules: MeldRules) -> None:
    clear_tables()
    got = best_opening(cards, RUMMY_OPENING, rules)
    assert (got.points if got else None) == ref.best_opening(cards, ref.RUMMY, rules)
    for rule, v in ((RUMMY_OPENING, ref.RUMMY), (SIMPLE_OPENING, ref.SIMPLE)):
        close = best_close(cards, rule, rules)
        want = ref.best_close(cards, v, rules)
        assert (None if close is None else (len(cards) - len(close.left), close.points)) == want
    assert least_penalty(cards, RUMMY_PENALTY, rules).points == ref.rummy_least_penalty(
        cards, rules
    )


@examples(120)
@given(loose_hands())
def test_one_real_card_answers_match_the_reference(case: tuple[list[Card], MeldRules]) -> None:
    """The sets of one real card left out of the search change no answer: the opening (its
    high ace keeps them), the closes (simple's needs a set) and the penalty."""
    _check_loose(*case)


@pytest.mark.parametrize(
    "hand",
    [
        "QH X X 2C",
        "KH X X X 2C",
        "5H X X 4C 4D",
    ],
)
@pytest.mark.parametrize("adjacent", [True, False])
def test_one_real_card_sets_that_matter(hand: str, adjacent: bool) -> None:
    _check_loose(parse_cards(hand), MeldRules(min_real=1, adjacent_jokers=adjacent))
