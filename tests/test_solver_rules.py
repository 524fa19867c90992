"""The rule book's worked checks and hand-made cases, through the solver and ``analyze``."""

from __future__ import annotations

import pytest

from rummykit import analysis, solver
from rummykit.analysis import analyze
from rummykit.cards import JOKER, Card, parse_cards
from rummykit.errors import InvalidHand, InvalidNotation, RummyError, UnknownVariant
from rummykit.melds import RUMMY_MELDS, MeldRules
from rummykit.solver import (
    INDIAN_PENALTY,
    RAMI51_OPENING,
    RAMI71_OPENING,
    OpeningRule,
    best_close,
    best_opening,
    declaration,
    least_penalty,
    opening_and_penalty,
)


def H(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def opening_points(text: str, variant: str = "rummy", **kw: object) -> int:
    return int(analyze(text, variant, **kw).to_json()["opening"]["points"])  # type: ignore[arg-type]


# -- rummy ----------------------------------------------------------------------------------


def test_book_kings_and_hearts_48() -> None:
    a = analyze("KS KH KD 5H 6H 7H")
    j = a.to_json()
    assert j["opening"]["points"] == 48
    assert sorted(map(sorted, j["opening"]["melds"])) == [["5H", "6H", "7H"], ["KD", "KH", "KS"]]
    assert j["opening"]["valid"] is True  # 48 >= 40
    assert analyze("KS KH KD 5H 6H 7H", options={"opening": 51}).opening is not None


def test_book_three_aces_33() -> None:
    assert opening_points("AS AH AD") == 33


def test_book_ace_values_in_runs() -> None:
    assert opening_points("QS KS AS") == 31
    assert opening_points("AC 2C 3C") == 6


def test_book_jokers_in_melds() -> None:
    assert opening_points("7S 7H X X") == 28
    assert opening_points("5H X 7H X 9H") == 35
    assert opening_points("5H X X 8H") == 0  # not a meld
    assert opening_points("7S 7S 7D") == 0
    assert opening_points("KS AS 2S") == 0


def test_joker_takes_the_best_place() -> None:
    # 5H 6H X: the joker is worth most as 7H (18), not 4H (15).
    assert opening_points("5H 6H X") == 18
    assert opening_points("QS KS X") == 31  # the joker is the high ace


def test_opening_minimum_and_small_opening_exception() -> None:
    a = analyze("2S 3S 4S 9C KD")  # 9 points, no close
    j = a.to_json()["opening"]
    assert j["points"] == 9 and j["valid"] is False and j["close"] is None
    assert "below the minimum 40" in j["reason"]
    # Everything but one card melds: the minimum does not apply.
    j = analyze("2S 3S 4S 5H 5D 5C KD").to_json()["opening"]
    assert j["points"] == 24 and j["valid"] is True
    assert j["close"] == {"points": 24, "melds": j["close"]["melds"], "left": ["KD"]}


def test_a_close_lays_something() -> None:
    for variant in ("rummy", "rami51", "rami71", "simple"):
        j = analyze("7H", variant).to_json()["opening"]
        assert j["close"] is None and j["valid"] is False and j["melds"] == []
    j = analyze("7H 8C").to_json()["opening"]
    assert j["close"] is None and j["valid"] is False


def test_no_close_when_the_rule_allows_none() -> None:
    rule = OpeningRule(minimum=40, close_leaves=())
    assert best_close(H("2S 3S 4S 5S"), rule) is None
    assert best_close(H("2S 3S 4S 5S 9C"), rule) is None
    assert best_close(H("2S 3S 4S 5S"), OpeningRule(minimum=40, close_leaves=(1,))) is not None


def test_must_include() -> None:
    hand = "KS KH KD 5H 6H 7H 2C 3C 4C"
    assert opening_points(hand) == 57
    assert opening_points(hand, must_include="2C") == 57
    a = analyze("KS KH KD 9C", must_include="9C")
    j = a.to_json()["opening"]
    assert j["points"] == 0 and j["valid"] is False and "9C" in j["reason"]
    # the taken card forces a weaker arrangement: 7H must be in the opening
    assert opening_points("7S 7H 7D 5H 6H", must_include="5H") == 18
    assert opening_points("7S 7H 7D 5H 6H") == 21
    with pytest.raises(InvalidHand, match="not in the hand"):
        analyze("KS KH KD", must_include="2C")


def test_rummy_penalty() -> None:
    # book: rivals keep K 7 (17), A X 3 (34), 4 4 Q (18)
    assert least_penalty(H("KS 7H")).points == 17
    assert least_penalty(H("AS X 3D")).points == 34
    assert least_penalty(H("4S 4H QD")).points == 18
    p = least_penalty(H("KS KH KD 5H 6H 7H 9C X"))
    assert p.points == 9  # the joker joins a meld
    assert [c.text for c in p.left] == ["9C"]


def test_cards_left_in_hand_order_first_copy_struck_first() -> None:
    """A melded card with a copy to spare leaves the second copy, in its place; copies all
    melded (jokers too) leave none."""
    for ask in (best_opening, least_penalty):
        one = ask(H("4S KD 2S 3S 4S 9C"))
        assert one is not None and [c.text for c in one.left] == ["KD", "4S", "9C"]
        both = ask(H("4S KD 2S 3S 4S 5S 6S 9C"))
        assert both is not None and [c.text for c in both.left] == ["KD", "9C"]
    jokers = least_penalty(H("X KD 2S 3S X 9C 9D 9H 9S"))
    assert [c.text for c in jokers.left] == ["KD"]


def test_a_meld_of_a_card_the_hand_lacks_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Melds that take a card the hand lacks raise, even when the hand's spare copy of
    another melded card makes the number of cards struck right (2S 3S 4S 5S melded from a
    hand holding 4S twice and no 5S)."""
    from rummykit.melds import make_meld
    from rummykit.solver import answering

    wrong = make_meld(H("2S 3S 4S 5S"), RUMMY_MELDS)
    monkeypatch.setattr(
        answering, "_fast_melds",
        lambda keys, rules: ((wrong,), bytes(c.index for c in wrong.cards)),
    )
    for ask in (best_opening, least_penalty):
        with pytest.raises(AssertionError, match="not in the hand"):
            ask(H("4S KD 2S 3S 4S 9C"))


# -- rami -----------------------------------------------------------------------------------


def test_book_rami71_62_not_enough() -> None:
    a = analyze("KS KH X QS QH QD 3S 4S 5S 9C 8D", "rami71")
    assert a.opening is not None and a.opening.best is not None
    assert a.opening.best.points == 62
    assert a.opening.best.left == H("9C 8D")
    # Two cards left: no lay-everything close either.
    assert a.opening.close is None
    assert a.opening.valid is False


def test_rami_opening_keeps_a_card_to_discard() -> None:
    """A Rami deal is won by discarding the last card, so an opening may not lay every card:
    when the whole hand melds, the best opening is the best that leaves a card."""
    a = analyze("KS KH X QS QH QD 3S 4S 5S", "rami71")
    assert a.opening is not None and a.opening.best is not None
    assert a.opening.best.points == 42
    assert a.opening.best.left == H("KS KH X")
    hand = H("KS KH KD 5H 6H 7H 2C 2D 2S 9C 9D 9H 4S 4C X")
    got = best_opening(hand, RAMI51_OPENING)
    assert got is not None and got.points == 91 and got.left == H("4S 4C")
    assert solver.opening_points(hand, RAMI51_OPENING) == 91
    assert opening_and_penalty(hand, RAMI51_OPENING)[0] == got
    # rummy may go out by laying every card.
    assert best_opening(hand).left == ()  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="0 or 1"):
        OpeningRule(keep=2)


def test_rami71_needs_clean_run_and_set() -> None:
    assert best_opening(H("KS KH X 3S 4S 5S"), RAMI71_OPENING) is None
    assert best_opening(H("KS KH KD 3S X 5S"), RAMI71_OPENING) is None
    got = best_opening(H("KS KH KD 3S 4S 5S X"), RAMI71_OPENING)
    assert got is not None and got.points == 42


def test_rami71_clean_run_without_taken_card() -> None:
    hand = "KS KH KD 3S 4S 5S 9H TH JH 2D"
    assert opening_points(hand, "rami71", must_include="4S") == 71
    # the only clean run holds the taken card: not allowed
    assert analyze("KS KH KD 3S 4S 5S", "rami71", must_include="4S").opening.best is None  # type: ignore[union-attr]
    # two copies: the taken 4S goes in one clean run, the other run is made without it
    a = analyze("KS KH KD 3S 4S 5S 4S 5S 6S 2D", "rami71", must_include="4S")
    assert a.opening is not None and a.opening.best is not None
    assert a.opening.best.points == 30 + 12 + 15


def test_rami_fifteen_cards() -> None:
    # the first player's 15 cards: everything melds, so one card must stay out to discard
    hand = "2S 3S 4S 5S 6S 7H 7D 7C 9D 9C 9H JH QH KH AH"
    a = analyze(hand, "rami51")
    assert a.opening is not None and a.opening.close is not None
    assert len(a.opening.close.left) == 1
    # and so does the best opening: 2S stays (3S-6S is worth 18 without it)
    assert a.opening.best is not None and a.opening.best.points == 18 + 21 + 27 + 41
    assert a.opening.best.left == H("2S")
    j = analyze(hand, "simple").to_json()["opening"]
    assert j["valid"] is True and len(j["close"]["left"]) == 1


def test_rami51_and_simple_close() -> None:
    j = analyze("2S 3S 4S 5H 5D 5C KD", "rami51").to_json()["opening"]
    assert j["valid"] is True and j["close"]["left"] == ["KD"]
    # rami needs a card to discard: everything melding is no close unless one can stay out
    j = analyze("2S 3S 4S 5S 5H 5D 5C", "rami51").to_json()["opening"]
    assert j["close"] is not None and len(j["close"]["left"]) == 1
    j = analyze("2S 3S 4S 5H 5D 5C", "rami51").to_json()["opening"]
    assert j["close"] is None and j["valid"] is False
    j = analyze("2S 3S 4S 5H 5D 5C KD", "simple").to_json()["opening"]
    assert j["valid"] is True and j["close"]["left"] == ["KD"]
    j = analyze("2S 3S 4S 5S 6S 7S KD", "simple").to_json()["opening"]
    assert j["valid"] is False  # no set


# -- indian ---------------------------------------------------------------------------------

SEVENS = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=7)


def test_book_indian_declaration_example() -> None:
    hand = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S KH"
    j = analyze(hand, "indian", wild_rank=7).to_json()
    assert j["opening"] is None
    assert j["declaration"]["valid"] is True
    assert j["declaration"]["discard"] == "KH"
    assert j["declaration"]["reason"] is None


def test_indian_declaration_keeps_a_card_in_its_melds() -> None:
    hand = H("2H 3H 4H 5H 9S TS JS AD 2D 3D QC QH QD AH")
    ah = H("AH")[0]
    first = declaration(hand, SEVENS)
    assert first is not None and first.left == (ah,)
    kept = declaration(hand, SEVENS, keep=ah)
    assert kept is not None and ah not in kept.left and len(kept.left) == 1
    assert sum(len(m.cards) for m in kept.melds) == 13
    # with two copies of the card, one of them may still go
    twice = H("2H 3H 4H AH 9S TS JS AD 2D 3D QC QH QD AH")
    two = declaration(twice, SEVENS, keep=ah)
    assert two is not None and two.left == (ah,)
    # a card that cannot be melded: no declaration keeps it
    assert declaration(H("2H 3H 4H 9S TS JS AD 2D 3D QC QH QD 8C KD"), SEVENS,
                       keep=H("KD")[0]) is None


def test_indian_declaration_needs_a_pure_sequence() -> None:
    # sets and impure sequences only: wrong declaration
    hand = H("4H X 6H 9S 7C JS QC QH QD KS KH KD 2C 8D")
    assert declaration(hand, SEVENS) is None
    j = analyze(hand, "indian", wild_rank=7).to_json()
    assert j["declaration"]["valid"] is False and j["declaration"]["discard"] is None
    assert "pure" in j["declaration"]["reason"]
    # one pure, one impure sequence, the rest sets: valid
    hand = H("4H 5H 6H 9S 7C JS QC QH QD KS KH KD KC")
    dec = declaration(hand, SEVENS, discard=False)
    assert dec is not None


def test_indian_wild_card_as_itself_keeps_a_sequence_pure() -> None:
    hand = H("6D 7D 8D 9S X JS QC QH QD KS KH KD KC 5C")
    dec = declaration(hand, SEVENS)
    assert dec is not None
    assert any(m.pure and m.kind == "run" for m in dec.melds)


def test_indian_wild_cards_alone_make_a_sequence() -> None:
    # Wild cards with no other real card: one stands as itself, the others as jokers around
    # it, so they make an (impure) sequence, the second one beside a pure sequence.
    for text in ("2S 3S 4S 7H 7D 7C", "2S 3S 4S 7H 7D 7C 7S", "2S 3S 4S 7H X X"):
        hand = H(text)
        dec = declaration(hand, SEVENS, discard=False)
        assert dec is not None, text
        assert [m.kind for m in dec.melds] == ["run", "run"], text
        assert least_penalty(hand, INDIAN_PENALTY, SEVENS).points == 0
    # two runs of wild cards alone, no pure sequence: no declaration, every card counts
    hand = H("7H 7D 7C 7S 7H X 2C")
    assert declaration(hand, SEVENS, discard=False) is None
    assert least_penalty(hand, INDIAN_PENALTY, SEVENS).points == 2


def test_indian_wild_card_natural_in_the_pure_sequence_only() -> None:
    # 7S stands as itself in the pure 5S 6S 7S; its twin is the joker of 9H TH 7S.
    hand = H("5S 6S 7S 7S 9H TH")
    dec = declaration(hand, SEVENS, discard=False)
    assert dec is not None
    assert sorted(m.pure for m in dec.melds) == [False, True]
    assert least_penalty(hand, INDIAN_PENALTY, SEVENS).points == 0
    # no natural neighbours for a pure sequence through 7S: nothing melds
    hand = H("4S 6S 7S 7S 9H TH")
    assert declaration(hand, SEVENS, discard=False) is None
    assert least_penalty(hand, INDIAN_PENALTY, SEVENS).points == 4 + 6 + 9 + 10


def test_indian_joker_indicator_makes_aces_wild() -> None:
    aces = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=1)
    # the AS is a joker: 3S 4S AS is an impure sequence (AS standing for 5S)
    hand = H("3S 4S AS 9H TH JH QC QH QD KS KH KD KC")
    assert declaration(hand, aces, discard=False) is not None
    assert declaration(hand, MeldRules(min_real=1, adjacent_jokers=True), discard=False) is None


def test_indian_penalty_cap_and_rule() -> None:
    # 13 high cards, no pure sequence: everything counts, capped at 80
    hand = "KS KH KD KC JS JH JD JC 9S 9H 9D 9C 7S"
    j = analyze(hand, "indian", wild_rank=2).to_json()
    assert j["penalty"]["points"] == 80
    assert j["penalty"]["melds"] == []
    # with two sequences, one pure, melds count
    p = least_penalty(H("4H 5H 6H 9S TS X QC QH QD KS KH 2C 3D"), INDIAN_PENALTY, SEVENS)
    assert p.points == 10 + 10 + 2 + 3
    # melds of a loser without two sequences do not count
    p = least_penalty(H("4H 5H 6H QC QH QD KS KH KD 2C 3D 4S 5C"), INDIAN_PENALTY, SEVENS)
    assert p.points == min(80, 15 + 30 + 30 + 2 + 3 + 4 + 5)


def test_indian_jokers_free_and_aces_ten() -> None:
    p = least_penalty(H("AS X 7C 2D"), INDIAN_PENALTY, SEVENS)
    assert p.points == 12


# -- errors ---------------------------------------------------------------------------------


def test_errors() -> None:
    with pytest.raises(InvalidHand, match="third copy of 7H"):
        analyze("7H 7H 7H")
    with pytest.raises(InvalidHand, match="fifth joker"):
        analyze("X X X X X")
    analyze("X X X X")  # four jokers exist in rummy
    for variant in ("rami71", "simple"):
        with pytest.raises(InvalidHand, match="third joker"):
            analyze("X X X", variant)
    with pytest.raises(InvalidHand, match="third joker"):
        analyze("X X X 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "indian")
    with pytest.raises(InvalidHand, match="13 or 14 cards"):
        analyze("2S 3S 4S", "indian")
    with pytest.raises(InvalidHand, match="1 to 14 cards"):
        analyze(" ".join(["2S"] * 2 + ["3S"] * 2 + ["4S"] * 2 + ["5S"] * 2 + ["6S"] * 2
                         + ["7S"] * 2 + ["8S"] * 2 + ["9S"]))
    with pytest.raises(InvalidHand):
        analyze("")
    with pytest.raises(UnknownVariant, match="unknown variant 'gin'"):
        analyze("2S", "gin")
    with pytest.raises(InvalidNotation):
        analyze("2S 1Z")
    with pytest.raises(RummyError, match="wild"):
        analyze("2S", "rummy", wild_rank=7)
    with pytest.raises(RummyError):
        analyze("2S", "rummy", options={"opening": "lots"})
    with pytest.raises(RummyError, match="no opening"):
        analyze("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "indian", options={"opening": 40})
    assert analyze("2S", "rummy", options={"opening": 30, "clock": 45}).opening is not None
    assert set(analysis.VARIANTS) == {"rummy", "rami51", "rami71", "simple", "indian"}
    # the solver's own functions refuse a third copy too (their tables hold 0 to 2 copies)
    with pytest.raises(InvalidHand, match="third copy of 7H"):
        least_penalty(H("7H 7H 7H"))


def test_rami71_opening_with_a_taken_joker() -> None:
    """A joker taken from the pile goes into the opening; jokers count zero in rami71, so
    the opening is worth what its natural cards are."""
    hand = H("KS KH KD QS QH QD 3S 4S 5S 9C 2D 7H X")
    res = solver.opening(hand, RAMI71_OPENING, RUMMY_MELDS, JOKER)
    assert res.valid and res.best is not None
    assert res.best.points == 72
    assert any(JOKER in m.cards for m in res.best.melds)
    assert solver.opening_points(hand, RAMI71_OPENING, RUMMY_MELDS, JOKER) == 72
    assert opening_points("KS KH KD QS QH QD 3S 4S 5S 9C 2D 7H X", "rami71", must_include="X") == 72
    # In rummy too: with all four aces held, the set that melds the taken joker (AH AD AC X,
    # 44) was beaten by the four natural aces (44, no joker) and the hand could not open.
    rummy = solver.best_opening(H("AS 2S X AH AD AC"), must_include=JOKER)
    assert rummy is not None and rummy.points == 44
    assert any(JOKER in m.cards for m in rummy.melds)


def test_tables_are_emptied_between_questions_not_during_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past their bound the solver's tables are emptied before the next question, so a
    search never loses, halfway, the tables it is building; the answers stay the same."""
    from rummykit.solver import clear_tables, core, table_entries

    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=11)
    hand = H("9H 8H 5H 5H TH 7H 7H 8H JC JH JS JS 6H")
    clear_tables()
    want = least_penalty(hand, INDIAN_PENALTY, rules)
    clear_tables()
    monkeypatch.setattr(core, "TABLE_LIMIT", 10)
    assert least_penalty(hand, INDIAN_PENALTY, rules) == want
    grown = table_entries()
    assert grown > 10  # the whole search's tables, kept until the next question
    least_penalty(H("2C 3C 4C 9D 9S 9H KD QD JD 5S 5S 6S 7S"), INDIAN_PENALTY, rules)
    assert table_entries() < grown
    clear_tables()
