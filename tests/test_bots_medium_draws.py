"""medium's race judgement in ``simple`` and Indian rummy: the draws a hand still needs and
its outs (no timing, no games)."""

from __future__ import annotations

from collections import Counter

from rummykit.bots.draws import INDIAN_DRAWS, SIMPLE_DRAWS, draws_needed
from rummykit.bots.policy import draws_discard
from rummykit.cards import Card, make_deck, parse_card, parse_cards
from rummykit.melds import RUMMY_MELDS, MeldRules

INDIAN = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=9)


def _simple(text: str, spare: int = 0) -> tuple[int, set[str]]:
    need, outs, _ = draws_needed(parse_cards(text), RUMMY_MELDS, SIMPLE_DRAWS, spare)
    return need, {c.text for c in make_deck(0, 1) if outs >> c.index & 1}


def test_a_melded_hand_needs_no_draw_and_each_missing_card_costs_one() -> None:
    assert _simple("3S 4S 5S 7H 7D 7C 9H TH JH QH 2C 3C 4C 5C")[0] == 0
    # One card short of the close: its missing card is an out, the loose card is not.
    need, outs = _simple("3S 4S 5S 7H 7D 7C 9H TH JH QH 2C 3C 4C 9D")
    assert need == 1
    assert {"5C", "AC", "8H", "KH", "2S", "6S", "7S"} <= outs
    assert "9S" not in outs
    # A gap and a pair: two draws, and the gap card and the set's suits are outs.
    need, outs = _simple("3S 4S 6S 7H 7D 9C 9H TH JH QH 2C 3C 4C KD")
    assert need == 2
    assert {"5S", "7S", "7C"} <= outs


def test_a_simple_close_needs_a_run_and_a_set() -> None:
    # Fourteen cards in runs only: one run must give way to a set.
    runs_only = "AS 2S 3S 4S 5H 6H 7H 8H 9D TD JD QD 2C 3C"
    assert _simple(runs_only)[0] > 0
    assert _simple("AS 2S 3S 4S 5H 6H 7H 8H 9D TD JD 2C 2D 2H")[0] == 0


def test_a_spare_card_is_the_discard() -> None:
    # Fifteen cards, fourteen melded: nothing left to draw once one card may go.
    assert _simple("3S 4S 5S 7H 7D 7C 9H TH JH QH 2C 3C 4C 5C KD", spare=1)[0] == 0


def test_an_indian_declaration_needs_a_pure_sequence_drawn_not_jokered() -> None:
    # Nines are wild. 4H 5H 9, 7C 8C 9, TD 9 QD and four twos would meld every card, but no
    # sequence is pure: the JD must still be drawn.
    hand = parse_cards("9S 9H 9D 4H 5H 7C 8C TD QD 2S 2H 2D 2C")
    need, outs, _ = draws_needed(hand, INDIAN, INDIAN_DRAWS)
    assert need == 1
    assert outs >> parse_card("JD").index & 1
    pure = parse_cards("9S 9H 4H 5H 7C 8C TD JD QD 2S 2H 2D 2C")
    assert draws_needed(pure, INDIAN, INDIAN_DRAWS)[0] == 0
    # A wild card may stand as itself in the pure sequence (7H 8H 9H).
    as_itself = parse_cards("7H 8H 9H 2S 3S 9S KD KC KH 5C 5D 5S 5H")
    assert draws_needed(as_itself, INDIAN, INDIAN_DRAWS)[0] == 0
    # Too many partials for thirteen cards: two of the four must give way or be drawn.
    crowded = parse_cards("9S 9H 4H 5H 7C 8C TD JD 2S 2H 2D KS KC")
    assert draws_needed(crowded, INDIAN, INDIAN_DRAWS)[0] == 2


def test_the_discard_keeps_partials_and_throws_a_loose_card() -> None:
    # Easy would throw a king (the heaviest card out of a meld); the race keeps KD QD (a
    # card short of a run) and throws one of the cards nothing in the hand waits for.
    hand = list(parse_cards("3S 4S 5S 7H 7D 7C 9H TH JH KD QD 2C 8S 4D AH"))
    live = Counter(c for c in make_deck(2) if c not in hand)
    got = draws_discard(hand, sorted(set(hand)), RUMMY_MELDS, SIMPLE_DRAWS, live, False)
    assert got.text in ("2C", "8S", "4D", "AH")


def test_dead_outs_do_not_count() -> None:
    # Six loose cards; the one whose partners are all seen (both copies) goes first.
    hand = list(parse_cards("3S 4S 5S 7H 7D 7C 9H TH JH QS 8D 2C KC 4H AD"))
    live = Counter(c for c in make_deck(2) if c not in hand)
    cands = sorted(set(hand))
    assert draws_discard(hand, cands, RUMMY_MELDS, SIMPLE_DRAWS, live, False) is not (
        parse_card("8D"))
    dead: Counter[Card] = Counter(live)
    for t in ("6D", "7D", "9D", "TD", "8S", "8H", "8C"):
        dead[parse_card(t)] = 0
    assert draws_discard(hand, cands, RUMMY_MELDS, SIMPLE_DRAWS, dead, False) is parse_card("8D")
