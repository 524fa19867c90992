"""hard's judgement of an opened hand: cards left to go out and the outs to the table."""

from __future__ import annotations

from collections import Counter

from rummykit.bots.hard import open_score, table_outs
from rummykit.cards import parse_cards
from rummykit.melds import RUMMY_MELDS, make_meld


def test_an_opened_hand_counts_cards_and_the_outs_to_the_table() -> None:
    table = [make_meld(parse_cards("5H 6H 7H"))]
    # 9H is one card (8H) from laying off; TH is not.
    assert table_outs(parse_cards("9H")[0], table, None) == 2
    assert table_outs(parse_cards("TH")[0], table, None) == 0
    assert table_outs(parse_cards("3H")[0], table, Counter(parse_cards("4H"))) == 1
    assert open_score(parse_cards("9H 2C"), table, None, RUMMY_MELDS) < open_score(
        parse_cards("TH 2C"), table, None, RUMMY_MELDS)
    # Judged by cards, not points: one king left beats two low cards.
    assert open_score(parse_cards("KC"), table, None, RUMMY_MELDS) < open_score(
        parse_cards("2C 4D"), table, None, RUMMY_MELDS)
