"""medium's race judgement in ``simple`` and Indian rummy: the draws a hand still needs and
its outs (no timing, no games)."""

from __future__ import annotations

from collections import Counter

from rummykit.bots.draws import INDIAN_DRAWS, SIMPLE_DRAWS, draws_needed
from rummykit.bots.policy import draws_discard
from rummykit.cards import Card, make_deck, parse_card, parse_cards
from rummykit.melds import RUMMY_MELDS, MeldRules
from rummykit.solver import SIMPLE_OPENING, OpeningRule, best_close

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


#: Fourteen cards melded whole with a run and a set: ready, the next draw is the discard.
_ALL_FOURTEEN = OpeningRule(minimum=0, close_leaves=(0,), close_only=True,
                            close_run_and_set=True)


def _solver_need(text: str) -> int:
    """The solver's answer for a ``simple`` hand of fourteen: 0 when it melds whole, 1 when
    some drawn card lets it close, else 2 (two or more)."""
    hand = parse_cards(text)
    if best_close(hand, _ALL_FOURTEEN, RUMMY_MELDS) is not None:
        return 0
    for c in sorted(set(make_deck(2))):
        if hand.count(c) < 2 and best_close([*hand, c], SIMPLE_OPENING, RUMMY_MELDS):
            return 1
    return 2


def test_simple_jokers_keep_the_meld_limits() -> None:
    # Two jokers may not stand side by side (3S X X 6S) nor carry a single card (KC X X):
    # each hand needs a draw, where jokers without those limits would meld every card.
    for text in ("3S 6S X X 7H 8H 9H KC KD KS 2D 3D 4D 5D",
                 "AS 2S 3S 4S 5H 6H 7H 8H 9D TD JD KC X X",
                 "3S 4S 5S 6S 7H 8H 9H TH KC KD KS 2C X X"):
        assert _simple(text)[0] == _solver_need(text) == 1, text
    # The same jokers where the limits allow them: ready.
    for text in ("3S 5S X 7H 9H X KC KD KS 2D 3D 4D 5D 6D",
                 "3S 4S 5S 7H 8H 9H KC KD KS 2D 3D 4D X X"):
        assert _simple(text)[0] == _solver_need(text) == 0, text
    # One joker in a gap of two ranks, the other card drawn: 4S and 5S are the outs.
    outs = _simple("3S 6S X X 7H 8H 9H KC KD KS 2D 3D 4D 5D")[1]
    assert {"4S", "5S"} <= outs


def test_a_long_block_gives_up_a_card() -> None:
    # Four blocks hold every card and one still misses the 8C: drawing it, the 5S (or the
    # 9H) comes off a run of four, so the hand is one draw from closing, not two.
    text = "AS 5S 6S 7S 8S 6H 7H 8H 9H AD AC 6C 7C 9C"
    need, outs = _simple(text)
    assert need == _solver_need(text) == 1
    assert "8C" in outs
    # Runs only and a set still to make: the KC and one joker start it (not two jokers), a
    # drawn card completes it and a card comes off the run of four.
    text = "AS 2S 3S 4S 5H 6H 7H 8H 9D TD JD KC X X"
    assert _simple(text)[0] == _solver_need(text) == 1


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
