"""Bad text fed to every public parser of the notation (cards, melds, actions, hands) is refused
with the documented ``ValueError`` subclass and a message naming the fault, never a crash of
another kind; every notation round-trips, and the value types' ``repr`` evaluates back.

``FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz_*.py`` runs a longer hunt.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from rummykit import InvalidHand, InvalidMeld, InvalidNotation, RummyError, analyze
from rummykit.cards import (
    FACES,
    JOKER,
    Card,
    format_cards,
    parse_card,
    parse_cards,
    pretty_cards,
)
from rummykit.engine import Game
from rummykit.engine.actions import (
    Declare,
    Discard,
    Draw,
    Drop,
    Layoff,
    NewMeld,
    Open,
    Return,
    Swap,
    Take,
    Timeout,
    parse_action,
)
from rummykit.melds import RUMMY_MELDS, Meld, MeldRules, make_meld, parse_meld
from tests.hunt import scaled

examples = scaled("FUZZ_EXAMPLES")


VALID = [
    "7H", "TS", "10s", "qd", "X", "*", "7♠", "7♥️", "🃏",
    "KS KH KD 5H 6H 7H", "7h, x, 7s",
    "draw", "take", "return", "drop", "timeout", "discard 7H",
    "open 7S 7H X / 5H 6H 7H", "meld 5H 6H 7H", "layoff 2 AH low", "swap 1 TH",
    "declare 5H 6H 7H / KS KH KD / 2C 3C 4C 5C",
]
# Pieces that tend to break parsers: separators, digits of other scripts, huge numbers,
# characters whose upper case is ASCII, control characters.
ODD = [
    "", " ", "\t", "\n", "\x00", "\u00a0", "\u2003", "\ufe0f", ",", "/", "//", "-", "0", "00",
    "1" * 5000, "²", "٣", "ſ", "ß", "ı", "ﬀ", "K", "♤", "🂡", "\ud800", "10", "1O", "low",
    "HIGH", "middle", "X", "x", "*", "AH", "7♥", "-1", "+1", "1e9", "\\", "'", '"',
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid line, then truncated, doubled, re-cased, re-spaced or with odd pieces put in."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.integers(0, 6))
        words = text.split(" ")
        if how == 0:
            text = text[: draw(st.integers(0, len(text)))]
        elif how == 1:
            i = draw(st.integers(0, len(words) - 1))
            words.insert(i, words[i])
            text = " ".join(words)
        elif how == 2:
            text = text.lower() if draw(st.booleans()) else text.swapcase()
        elif how == 3:
            text = draw(st.sampled_from([" ", "  ", "\t", "\u3000", "\r\n"])).join(words)
        elif how == 4:
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(ODD)) + text[i:]
        elif how == 5:
            i = draw(st.integers(0, len(words) - 1))
            words[i] = draw(st.sampled_from(ODD))
            text = " ".join(words)
        else:
            text = text + draw(st.sampled_from(ODD))
    return text


garbage = st.one_of(st.text(max_size=40), mutated())


def refused_or_parsed(
    parse: Callable[[str], object], text: str, errors: tuple[type[RummyError], ...]
) -> None:
    """``parse(text)`` succeeds or raises one of ``errors`` with a message that says why."""
    try:
        parse(text)
    except errors as exc:
        assert str(exc).strip(), f"{text!r}: an empty message"
        assert "index out of range" not in str(exc) and "invalid literal" not in str(exc)


@examples(300)
@given(garbage)
def test_cards_from_any_text_parse_or_say_why(text: str) -> None:
    refused_or_parsed(parse_card, text, (InvalidNotation,))
    refused_or_parsed(parse_cards, text, (InvalidNotation,))


@examples(300)
@given(garbage)
def test_melds_from_any_text_parse_or_say_why(text: str) -> None:
    refused_or_parsed(parse_meld, text, (InvalidNotation, InvalidMeld))
    indian = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=7)
    refused_or_parsed(lambda t: parse_meld(t, indian), text, (InvalidNotation, InvalidMeld))


@examples(400)
@given(garbage)
def test_actions_from_any_text_parse_or_say_why(text: str) -> None:
    refused_or_parsed(parse_action, text, (InvalidNotation,))


@examples(150)
@given(garbage, st.sampled_from(["rummy", "rami51", "indian"]))
def test_hands_from_any_text_analyse_or_say_why(text: str, variant: str) -> None:
    refused_or_parsed(lambda t: analyze(t, variant), text, (InvalidNotation, InvalidHand))


@examples(200)
@given(garbage)
def test_any_text_applied_to_a_game_is_refused_and_changes_nothing(text: str) -> None:
    game = Game.new("rummy", 2, seed=3)
    game.apply("draw")
    before = (game.version, game.record(), game.view(game.to_move or 0))
    try:
        game.apply(text)
    except RummyError as exc:
        assert str(exc).strip()
        assert (game.version, game.record(), game.view(game.to_move or 0)) == before
        return
    assert game.version == before[0] + 1


def test_a_huge_meld_number_is_bad_notation() -> None:
    with pytest.raises(InvalidNotation, match="table meld number"):
        parse_action("layoff " + "1" * 5000 + " AH")
    with pytest.raises(InvalidNotation, match="at most 9 digits"):
        parse_action("swap 1000000000 AH")
    assert parse_action("swap 000999999999 AH") == Swap(999_999_999, Card("AH"))


@pytest.mark.parametrize("text", ["7ſ", "Aſ", "ſ7", "ıS"])
def test_a_letter_whose_upper_case_is_ascii_is_not_a_card(text: str) -> None:
    # str.upper() turns the long s into S and the dotless i into I.
    with pytest.raises(InvalidNotation, match="is not a card"):
        parse_card(text)


# -- round trips ----------------------------------------------------------------------------

faces = st.sampled_from(FACES)


@examples(200)
@given(st.lists(faces, max_size=20))
def test_cards_round_trip(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert format_cards(parse_cards(text)) == text
    # What the command line shows people reads back too.
    assert parse_cards(pretty_cards(cards)) == tuple(cards)
    for c in cards:
        assert eval(repr(c)) is c


@st.composite
def melds(draw: st.DrawFn, rules: MeldRules) -> Meld:
    """A valid meld: a run or a set of real cards, some places then taken by jokers."""
    suit = draw(st.integers(0, 3))
    if draw(st.booleans()):
        n = draw(st.integers(3, 13))
        start = draw(st.integers(1, 15 - n))
        cards = [FACES[suit * 13 + (start + i - 1) % 13] for i in range(n)]
    else:
        rank = draw(st.integers(1, 13))
        suits = draw(st.permutations(range(4)))[: draw(st.integers(3, 4))]
        cards = [FACES[s * 13 + rank - 1] for s in suits]
    for i in draw(st.lists(st.integers(0, len(cards) - 1), max_size=3)):
        cards[i] = JOKER
    try:
        return make_meld(cards, rules)
    except InvalidMeld:
        reject()  # too many jokers, or two side by side


@examples(200)
@given(melds(RUMMY_MELDS))
def test_melds_round_trip(meld: Meld) -> None:
    assert parse_meld(str(meld)) == meld
    assert str(parse_meld(str(meld))) == str(meld)
    assert eval(repr(meld)) == meld


INDIAN_MELDS = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=7)


@examples(150)
@given(melds(INDIAN_MELDS))
def test_indian_melds_round_trip_under_their_rules(meld: Meld) -> None:
    assert parse_meld(str(meld), INDIAN_MELDS) == meld
    assert eval(repr(meld)) == meld


def test_the_repr_of_a_meld_of_looser_rules_evaluates_back() -> None:
    meld = parse_meld("X X 3S", INDIAN_MELDS)
    assert repr(meld) == (
        "Meld('run', (Card('X'), Card('X'), Card('3S')), 1, 0, (True, True, False))"
    )
    assert eval(repr(meld)) == meld
    assert repr(parse_meld("5H X 7H")) == "make_meld(parse_cards('5H X 7H'))"


@pytest.mark.parametrize(("text", "canon"), [("X AH X", "X AH X"), ("X X AH X", "X AH X X"),
                                            ("KH X X", "KH X X")])
def test_a_set_of_one_real_card_reads_back_as_a_set(text: str, canon: str) -> None:
    # Written real card first, "AH X X" would read back as the run A-2-3.
    meld = parse_meld(text, INDIAN_MELDS)
    assert (meld.kind, str(meld)) == ("set", canon)
    assert parse_meld(str(meld), INDIAN_MELDS) == meld


groups = st.builds(lambda m: m.cards, melds(RUMMY_MELDS))
numbers = st.integers(1, 10**9 - 1)
actions = st.one_of(
    st.sampled_from([Draw(), Take(), Return(), Drop(), Timeout()]),
    st.builds(Discard, faces),
    st.builds(NewMeld, groups),
    st.builds(Open, st.lists(groups, min_size=1, max_size=4).map(tuple)),
    st.builds(Declare, st.lists(groups, min_size=1, max_size=4).map(tuple)),
    st.builds(Layoff, numbers, faces, st.sampled_from([None, "low", "high"])),
    st.builds(Swap, numbers, faces),
)


@examples(300)
@given(actions)
def test_actions_round_trip(action: object) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text
    assert eval(repr(action)) == action
