"""Cards, notation and melds: the common ground and the meld tables of the rule book."""

from __future__ import annotations

import pytest

from rummykit.cards import JOKER, Card, format_cards, make_deck, parse_card, parse_cards
from rummykit.errors import InvalidMeld, InvalidNotation
from rummykit.melds import (
    MeldRules,
    indian_penalty,
    make_meld,
    parse_meld,
    rummy_penalty,
)
from rummykit.rules import make_rules

INDIAN = MeldRules(min_real=1, adjacent_jokers=True)


def indian(wild: str) -> MeldRules:
    return MeldRules(min_real=1, adjacent_jokers=True, wild_rank=parse_card(wild + "S").rank)


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canon"),
    [("7H", "7H"), ("TS", "TS"), ("10S", "TS"), ("qc", "QC"), ("as", "AS"), ("X", "X"),
     ("*", "X"), ("x", "X"), ("7♠", "7S"), ("10♥", "TH"), ("k♦", "KD"), ("2♣", "2C"),
     ("7\u2665\ufe0f", "7H"), ("q\u2660\ufe0e", "QS"), ("\U0001F0CF", "X")],
)
def test_card_spellings_parse_to_the_canonical_form(text: str, canon: str) -> None:
    assert parse_card(text).text == canon
    assert format_cards(parse_cards(text)) == canon


def test_a_list_of_cards_round_trips() -> None:
    text = "7S 7H X TS QC AD 2C"
    assert format_cards(parse_cards(text)) == text
    assert format_cards(parse_cards("7♠ 7h * 10s qc ad 2♣")) == text
    # what the command line shows people reads back too
    assert parse_cards(" ".join(c.pretty() for c in parse_cards(text))) == parse_cards(text)


@pytest.mark.parametrize("bad", ["7", "1S", "11H", "7Z", "ZZ", "XX", "0S", ""])
def test_bad_cards_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(InvalidNotation) as exc:
        parse_card(bad)
    assert str(exc.value)


def test_cards_are_shared_objects() -> None:
    assert Card("10h") is parse_card("TH")
    assert parse_card("X") is JOKER


@pytest.mark.parametrize(("jokers", "size"), [(4, 108), (2, 106)])
def test_double_deck_with_jokers(jokers: int, size: int) -> None:
    deck = make_deck(jokers)
    assert len(deck) == size
    assert deck.count(JOKER) == jokers
    assert all(deck.count(c) == 2 for c in set(deck) if c is not JOKER)
    assert len(set(deck)) == 53


@pytest.mark.parametrize(
    ("variant", "size"),
    [("rummy", 108), ("rami51", 108), ("rami71", 106), ("simple", 106), ("indian", 106)],
)
def test_deck_size_of_each_variant(variant: str, size: int) -> None:
    assert make_rules(variant, 2).deck_size == size


# -- melds: rummy.md table ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("7S 7H 7D", "set", 21),
        ("5H 6H 7H", "run", 18),
        ("AC 2C 3C", "run", 6),
        ("QS KS AS", "run", 31),
        ("KS KH KD", "set", 30),
        ("AS AH AD", "set", 33),
        ("7S 7H X X", "set", 28),
        ("5H X 7H X 9H", "run", 35),
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "run", 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40 + 11),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "run", 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40),
    ],
)
def test_rummy_valid_melds_and_opening_values(text: str, kind: str, value: int) -> None:
    m = parse_meld(text)
    assert m.kind == kind
    assert m.value() == value


def test_worked_check_7S_7H_X_X_is_a_legal_set_worth_28() -> None:
    m = parse_meld("7S 7H X X")
    assert (m.kind, m.value()) == ("set", 28)


def test_worked_check_5H_X_7H_X_9H_is_a_run_worth_35_and_5H_X_X_8H_is_not_a_meld() -> None:
    assert parse_meld("5H X 7H X 9H").value() == 35
    with pytest.raises(InvalidMeld, match="side by side"):
        parse_meld("5H X X 8H")


def test_too_few_cards_name_the_cards_or_say_there_are_none() -> None:
    with pytest.raises(InvalidMeld, match=r"^7S 7H: a meld needs at least 3 cards$"):
        make_meld(parse_cards("7S 7H"))
    with pytest.raises(InvalidMeld, match=r"^no cards: a meld needs at least 3 cards$"):
        make_meld(())


def test_worked_check_7S_7S_7D_is_not_a_meld() -> None:
    with pytest.raises(InvalidMeld, match="7S 7S 7D: the suit S appears twice"):
        parse_meld("7S 7S 7D")


def test_worked_check_KS_AS_2S_is_not_a_meld_runs_never_wrap() -> None:
    with pytest.raises(InvalidMeld):
        parse_meld("KS AS 2S")


def test_worked_check_best_opening_sums_KKK_and_567_to_48() -> None:
    assert parse_meld("KS KH KD").value() + parse_meld("5H 6H 7H").value() == 48


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("7S 7H", "at least 3"),
        ("7S 7H 7D 7C 7S", "at most 4"),
        ("7S 7H X X X", "at most 4"),
        ("7S X X", "real cards"),
        ("X X X", "real cards"),
        ("5H X X", "real cards"),
        ("5H 6S 7H", "neither"),
        ("5H 7H 8H", "cannot follow"),
        ("KS AS 2S", ""),
        ("X AS 2S", "below the ace"),
        ("QS KS AS X", "past the ace"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "at most 13"),
    ],
)
def test_rummy_invalid_melds_say_why(text: str, why: str) -> None:
    with pytest.raises(InvalidMeld) as exc:
        parse_meld(text)
    assert why in str(exc.value)
    assert str(exc.value).startswith(format_cards(parse_cards(text)))


def test_a_joker_stands_for_the_card_of_its_place() -> None:
    assert parse_meld("5H X 7H").place(1) == parse_card("6H")
    assert parse_meld("5H 6H X").place(2) == parse_card("7H")
    assert parse_meld("X 5H 6H").place(0) == parse_card("4H")


def test_a_joker_in_a_set_stands_for_a_missing_suit() -> None:
    assert parse_meld("6S X 6D").missing_suits() == (1, 3)


def test_a_set_order_does_not_matter() -> None:
    assert parse_meld("7D X 7S").cards == parse_meld("7S 7D X").cards


def test_ace_low_or_high_never_both() -> None:
    assert parse_meld("AC 2C 3C").value() == 6
    assert parse_meld("QC KC AC").value() == 31
    with pytest.raises(InvalidMeld):
        parse_meld("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")


def test_a_set_never_holds_more_than_four_or_a_suit_twice() -> None:
    with pytest.raises(InvalidMeld):
        parse_meld("7S 7H 7D 7C 7H")
    with pytest.raises(InvalidMeld):
        parse_meld("7S 7H 7H X")


# -- layoff ends and swaps ------------------------------------------------------------------


def test_a_joker_laid_off_on_a_run_fits_both_ends() -> None:
    assert parse_meld("5H 6H 7H").layoff_ends(JOKER) == ("low", "high")
    with pytest.raises(InvalidMeld, match="say low or high"):
        parse_meld("5H 6H 7H").add(JOKER)
    assert str(parse_meld("5H 6H 7H").add(JOKER, "low")) == "X 5H 6H 7H"


def test_an_ace_on_a_2_to_K_run_fits_both_ends() -> None:
    run = parse_meld("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    assert run.layoff_ends(parse_card("AS")) == ("low", "high")
    with pytest.raises(InvalidMeld, match="say low or high"):
        run.add(parse_card("AS"))
    assert run.add(parse_card("AS"), "high").value() == run.value() + 11
    assert run.add(parse_card("AS"), "low").value() == run.value() + 1


def test_rami_layoff_examples() -> None:
    assert str(parse_meld("7S 8S 9S").add(parse_card("TS"))) == "7S 8S 9S TS"
    assert len(parse_meld("KS KH KD").add(parse_card("KC"))) == 4


def test_a_joker_is_not_laid_next_to_a_joker() -> None:
    assert parse_meld("5H 6H X").layoff_ends(JOKER) == ("low",)


def test_swap_index_run_and_set() -> None:
    rules = MeldRules()
    assert parse_meld("6D X 8D").swap_index(parse_card("7D"), rules) == 1
    assert parse_meld("6D X 8D").swap_index(parse_card("7H"), rules) is None
    assert parse_meld("6S X 6D").swap_index(parse_card("6C"), rules) is not None
    # Rami: only the fourth card of a set frees its joker.
    assert parse_meld("6S X 6D").swap_index(parse_card("6C"), rules, fourth_only=True) is None
    assert parse_meld("6S 6H 6D X").swap_index(parse_card("6C"), rules, fourth_only=True) == 3


# -- penalties --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "rummy", "indian_points"),
    [("2S", 2, 2), ("9H", 9, 9), ("TD", 10, 10), ("JC", 10, 10), ("QS", 10, 10),
     ("KH", 10, 10), ("AD", 11, 10), ("X", 20, 0)],
)
def test_penalty_tables(card: str, rummy: int, indian_points: int) -> None:
    c = parse_card(card)
    assert rummy_penalty(c) == rummy
    assert indian_penalty(c) == indian_points


def test_indian_wild_rank_costs_nothing() -> None:
    assert indian_penalty(parse_card("7D"), wild_rank=7) == 0


# -- Indian melds --------------------------------------------------------------------------------


def test_indian_pure_and_impure_sequences() -> None:
    assert make_meld(parse_cards("4H 5H 6H"), INDIAN).pure
    impure = make_meld(parse_cards("9S X JS"), INDIAN)
    assert impure.kind == "run" and not impure.pure


def test_indian_wild_card_as_its_natural_self_keeps_a_sequence_pure() -> None:
    m = make_meld(parse_cards("6D 7D 8D"), indian("7"))
    assert m.kind == "run" and m.pure


def test_indian_any_number_of_jokers_but_one_real_card() -> None:
    # One real card and jokers read as a run when they can (documented in melds.make_meld).
    assert make_meld(parse_cards("QC X X"), INDIAN).kind == "run"
    assert make_meld(parse_cards("QC QH X X"), INDIAN).kind == "set"
    assert make_meld(parse_cards("4H X X X"), INDIAN).kind == "run"
    with pytest.raises(InvalidMeld, match="not a joker"):
        make_meld(parse_cards("X X X"), INDIAN)
    # Wild-rank cards may stand as their natural selves: 7S 8S(7D) 9S(X) has one real card.
    assert make_meld(parse_cards("7S 7D X"), indian("7")).kind == "run"


def test_indian_worked_checks_K_A_2_is_not_a_sequence_and_KH_KH_KS_is_not_a_set() -> None:
    with pytest.raises(InvalidMeld):
        make_meld(parse_cards("KH AH 2H"), INDIAN)
    with pytest.raises(InvalidMeld, match="appears twice"):
        make_meld(parse_cards("KH KH KS"), INDIAN)


def test_indian_set_with_a_wild_joker() -> None:
    m = make_meld(parse_cards("QC QH QD 7S"), indian("7"))
    assert m.kind == "set" and not m.pure
