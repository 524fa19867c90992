"""A hand read for the searches (:func:`_hand`): its suit vectors, rank masks and printed
jokers, its rummy penalty, its cards' indices and its count vector, in one pass done mostly
in C. The last hand read is kept: the questions about a hand come together.

Apart because both engines and the answers' cards left read it, and it is the first cost of
every question.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Final

from rummykit.cards import FACES, Card
from rummykit.errors import InvalidHand
from rummykit.melds import rummy_penalty

_Encoded = tuple[list[int], list[int], int]
"""Suit vectors (2 bits per rank), rank masks per suit, printed jokers."""

_Hand = tuple[tuple[Card, ...], _Encoded, int, bytes, int]
"""The cards, their encoding, their rummy penalty, their indices (as bytes, in hand order)
and their count vector (:data:`_COUNT`'s, summed)."""

#: The last hand read (the questions about one hand come together); read and replaced as a
#: whole.
_NO_HAND: Final[_Hand] = ((), ([0, 0, 0, 0], [0, 0, 0, 0], 0), 0, b"", 0)
_LAST: list[_Hand] = [_NO_HAND]

_L128: Final = (1 << 128) - 1
#: A card's count vector by index: suit ``s`` in bits ``32 s`` on, 2 bits per rank; the
#: jokers counted from bit 128.
_COUNT: Final = [1 << (32 * c.suit + 2 * c.rank - 2) for c in FACES[:52]] + [1 << 128]
#: One card's share of the packed sum by index: its count vector with the jokers counted from
#: bit 160 instead, and its rummy penalty from bit 128 (32 bits: a hand's total cannot reach
#: them).
_ADD: Final = [
    (x >> 128 << 160 | x & _L128) + (rummy_penalty(c) << 128)
    for x, c in zip(_COUNT, FACES, strict=True)
]
#: The cards by index (a list: its ``__getitem__`` is called faster than a tuple's).
_FACES: Final = list(FACES)
_INDEX: Final = attrgetter("index")
_L32: Final = (1 << 32) - 1
_LOWS: Final = 0x55555555555555555555555555555555
_HIGHS: Final = _LOWS << 1
_C1: Final = 0x33333333333333333333333333333333
_C2: Final = 0x0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F
_C3: Final = 0x00FF00FF00FF00FF00FF00FF00FF00FF
_C4: Final = 0x0000FFFF0000FFFF0000FFFF0000FFFF


def _hand(cards: Iterable[Card]) -> _Hand:
    key = tuple(cards)
    last = _LAST[0]
    if last[0] == key:
        return last
    indices = bytes([c.index for c in key])
    # All cards added at once: 2 bits per card, suit by suit, the penalty and the jokers on
    # top.
    v = sum(map(_ADD.__getitem__, indices))
    printed = v >> 160
    total = (v >> 128) & _L32
    v &= _L128
    count = v | printed << 128
    # A third copy shows as a field 3; a fourth or more carries into the next field and
    # loses count.
    if v & (v >> 1) & _LOWS or (
        (v & _LOWS).bit_count() + 2 * (v & _HIGHS).bit_count() + printed != len(key)
    ):
        _encode_slow(key)
    # Rank masks: each field's presence bit, compacted lane by lane.
    x = (v | (v >> 1)) & _LOWS
    x = (x | (x >> 1)) & _C1
    x = (x | (x >> 2)) & _C2
    x = (x | (x >> 4)) & _C3
    x = (x | (x >> 8)) & _C4
    hand = (
        key,
        (
            [v & 0x3FFFFFF, (v >> 32) & 0x3FFFFFF, (v >> 64) & 0x3FFFFFF, (v >> 96) & 0x3FFFFFF],
            [x & 0x1FFF, (x >> 32) & 0x1FFF, (x >> 64) & 0x1FFF, (x >> 96) & 0x1FFF],
            printed,
        ),
        total,
        indices,
        count,
    )
    _LAST[0] = hand
    return hand


def _encode_slow(key: tuple[Card, ...]) -> None:
    """Card by card: raises on the first third copy."""
    vs = [0, 0, 0, 0]
    for c in key:
        r = c.rank
        if r:
            s = c.suit
            if (vs[s] >> (2 * r - 2)) & 3 == 2:
                raise InvalidHand(f"a third copy of {c.text}: the deck holds only 2")
            vs[s] += 1 << (2 * r - 2)
    raise AssertionError("hand encoding: a card counted wrong")
