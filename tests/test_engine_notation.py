"""The action notation of the rule book's text formats: every verb round-trips through its
canonical text, and bad lines are refused with an ``InvalidNotation`` naming the fault."""

from __future__ import annotations

import pytest

from rummykit.engine import parse_action
from rummykit.errors import InvalidNotation


@pytest.mark.parametrize(
    ("text", "canon"),
    [
        ("draw", "draw"),
        ("take", "take"),
        ("return", "return"),
        ("open KS KH KD / 5H 6H 7H", "open KS KH KD / 5H 6H 7H"),
        ("meld 5h 6h 7h", "meld 5H 6H 7H"),
        ("layoff 2 AH", "layoff 2 AH"),
        ("layoff 2 ah LOW", "layoff 2 AH low"),
        ("layoff 1 X high", "layoff 1 X high"),
        ("swap 1 10h", "swap 1 TH"),
        ("discard 7♥", "discard 7H"),
        ("discard\t7H", "discard 7H"),
        ("layoff\t2  AH", "layoff 2 AH"),
        ("declare 5H 6H 7H / KS KH KD / 2C 3C 4C 5C", "declare 5H 6H 7H / KS KH KD / 2C 3C 4C 5C"),
        ("drop", "drop"),
        ("timeout", "timeout"),
    ],
)
def test_every_verb_formats_to_its_canonical_text_and_back(text: str, canon: str) -> None:
    action = parse_action(text)
    assert str(action) == canon
    assert parse_action(canon) == action


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("layoff ² AH", "table meld number"),
        ("swap ٣ 7H", "table meld number"),
        ("layoff 0 AH", "table meld number"),
        ("layoff 1 ,", "exactly one card"),
        ("swap 1 ,", "exactly one card"),
        ("layoff 1 AH,KH", "exactly one card"),
        ("swap 1 7H,8H low", "swap N CARD"),
        ("layoff 1 AH middle", "low or high"),
        ("discard 7H 8H", "exactly one card"),
        ("draw 1", "nothing after it"),
        ("open KS KH KD /", "melds separated by /"),
        ("meld 5H 6H / 7H", "one meld"),
        ("pass", "unknown action"),
    ],
)
def test_bad_action_lines_are_refused_naming_the_fault(text: str, says: str) -> None:
    with pytest.raises(InvalidNotation, match=says):
        parse_action(text)
