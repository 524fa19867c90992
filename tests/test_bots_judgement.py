"""The hand judgements behind the levels' choices (no timing, no games)."""

from __future__ import annotations

from collections import Counter

from rummykit.bots.hard import draw_gains
from rummykit.bots.policy import MEDIUM, evaluate
from rummykit.cards import make_deck, parse_cards
from rummykit.melds import RUMMY_MELDS, MeldRules

INDIAN = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=9)


def _race(text: str) -> float:
    return evaluate(parse_cards(text), INDIAN, True, MEDIUM)


def test_indian_hands_are_judged_by_distance_to_a_declaration() -> None:
    # A pure sequence beats the same points without one.
    assert _race("4H 5H 6H 2C 2D 7S 8S KD QC JS 3D 5C 6C") < _race(
        "4H 5D 6H 2C 2D 7S 8S KD QC JS 3D 5C 6C")
    # Fewer cards out of melds is better, whatever their points: two low singles cost more
    # than one high single.
    assert _race("4H 5H 6H 7C 8C TC 2S 2D 2H QS QD QH 3D") < _race(
        "4H 5H 6H 7C 8C TC 2S 2D 2H QS QD 3C 5D")
    # A wild nine fills the run partial first when a sequence is missing.
    assert _race("9D 4H 5H KS KD KC 2C 2D 2H JS JD JH 7C") < _race(
        "6D 4H 5H KS KD KC 2C 2D 2H JS JD JH 7C")


def test_the_next_draw_is_worth_more_when_the_hand_keeps_its_partials() -> None:
    hand = list(parse_cards("5H 6H KS KD 9C 2D JS"))
    live = Counter(c for c in make_deck(4) if c not in hand)
    gains = draw_gains(hand, list(parse_cards("5H JS")), live, RUMMY_MELDS)
    assert gains is not None
    keep_partials, break_partial = gains[1], gains[0]
    assert keep_partials > break_partial > 0
    assert draw_gains(hand, list(parse_cards("JS")), Counter(), RUMMY_MELDS) == [0.0]
