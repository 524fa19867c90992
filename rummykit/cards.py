"""Cards, decks and their text notation.

A card is written rank then suit: ``7H``, ``TS`` (``10S`` accepted), ``QC``, ``AS``; a printed
joker is ``X`` (``*`` accepted). Suit symbols ``♠ ♥ ♦ ♣`` are accepted and case does not matter.
Each face exists once as a Python object, so cards compare by identity and hash by a stable
index (iteration order never depends on memory addresses).

>>> Card('10h')
Card('TH')
>>> format_cards(parse_cards('7♠ x qd'))
'7S X QD'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from rummykit.errors import InvalidArgument, InvalidHand, InvalidNotation, describe

RANK_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
JOKER_RANK: Final = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

_SYMBOL_TO_SUIT = {s: i for i, s in enumerate(SUIT_SYMBOLS)}


class Card:
    """One face of the deck: ``rank`` 1 (ace) to 13 (king) and ``suit`` 0-3 (S H D C), or a joker
    with ``rank`` 0 and ``suit`` -1. ``Card('7H')`` parses notation and returns the shared object.
    """

    __slots__ = ("index", "rank", "suit", "text")
    rank: int
    suit: int
    index: int
    text: str

    def __new__(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def _make(cls, rank: int, suit: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", 52 if rank == JOKER_RANK else suit * 13 + rank - 1)
        text = "X" if rank == JOKER_RANK else RANK_CHARS[rank - 1] + SUIT_CHARS[suit]
        object.__setattr__(card, "text", text)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.text,))

    def __hash__(self) -> int:
        return self.index

    # Cards order by index (suit, then rank; the joker last) under every comparison; a value
    # that is no card gives NotImplemented, so Python raises its TypeError.
    def __lt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index >= other.index

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    @property
    def is_joker(self) -> bool:
        """A printed joker (wild ranks of Indian rummy are decided by the game, not the card)."""
        return self.rank == JOKER_RANK

    def pretty(self) -> str:
        """The card with its suit symbol, for people: ``7♥``, ``10♠``, ``🃏`` for a joker."""
        if self.rank == JOKER_RANK:
            return "🃏"
        rank = "10" if self.rank == 10 else RANK_CHARS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]


JOKER: Final = Card._make(JOKER_RANK, -1)
#: Every face: ``FACES[card.index] is card``; index 52 is the joker.
FACES: Final[tuple[Card, ...]] = tuple(
    [Card._make(rank, suit) for suit in range(4) for rank in range(1, 14)] + [JOKER]
)


def card(rank: int, suit: int) -> Card:
    """The card of a rank (1-13; 14 means a high ace) and a suit (0-3)."""
    if rank == 14:
        rank = ACE
    # No check of the types up front: the legal actions and the solver call this in their
    # inner loops with whole numbers. A try block costs nothing until it catches (Python 3.11).
    try:
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise InvalidNotation(f"no card has rank {rank} and suit {suit}")
        return FACES[suit * 13 + rank - 1]
    except TypeError:
        raise InvalidArgument(
            f"card takes a rank and a suit as whole numbers, not {describe(rank)} and "
            f"{describe(suit)}"
        ) from None


def parse_card(text: str) -> Card:
    """Parse one card in any accepted spelling; raise :class:`InvalidNotation` naming the fault
    (:class:`InvalidArgument` for a value that is not text at all)."""
    if not isinstance(text, str):
        raise InvalidArgument(f"a card must be text like '7H' or 'X', not {describe(text)}")
    raw = text.strip()
    if raw.isascii():
        t = raw.upper()
    else:
        # Only ASCII letters change case: str.upper() turns the long s "ſ" into "S", and
        # "7ſ" is no card.
        t = "".join(ch.upper() if ch.isascii() else ch for ch in raw)
        # Phones and emoji keyboards type a suit symbol followed by a variation selector
        # (U+FE0F/U+FE0E, "♥️"): the same symbol, shown in colour or in text.
        t = t.rstrip("\ufe0f\ufe0e")
    if t in ("X", "*", "\U0001F0CF"):  # 🃏: what :attr:`Card.pretty` shows for a joker
        return JOKER
    if len(t) < 2:
        raise InvalidNotation(f"{raw!r} is not a card: a card is a rank and a suit, like 7H or X")
    rank_text, suit_text = t[:-1], t[-1]
    if suit_text not in SUIT_CHARS or len(rank_text) != 1:
        _one_card_only(raw)
    if suit_text in SUIT_CHARS:
        suit = SUIT_CHARS.index(suit_text)
    elif suit_text in _SYMBOL_TO_SUIT:
        suit = _SYMBOL_TO_SUIT[suit_text]
    else:
        raise InvalidNotation(f"{raw!r} is not a card: unknown suit {suit_text!r} (use S H D C)")
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        raise InvalidNotation(
            f"{raw!r} is not a card: unknown rank {rank_text!r} (use A 2-9 T J Q K)"
        )
    return FACES[suit * 13 + RANK_CHARS.index(rank_text)]


def _one_card_only(raw: str) -> None:
    """Refuse text holding several cards ('7H 8H' read as one card had the rank '7H 8')."""
    parts = raw.replace(",", " ").split()
    if len(parts) < 2:
        return
    try:
        for part in parts:
            parse_card(part)
    except InvalidNotation:
        return  # not cards either ('7 H'): the fault of the whole is told
    raise InvalidNotation(
        f"{raw!r} is not a card: it holds {len(parts)} cards (parse_cards reads several)"
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces (commas are accepted too)."""
    if not isinstance(text, str):
        raise InvalidArgument(f"cards must be text like '7H 8H X', not {describe(text)}")
    return tuple(parse_card(part) for part in text.replace(",", " ").split())


#: The one type a card has: ``ONLY_CARDS.issuperset(map(type, cards))`` checks a whole hand
#: in C, at the cost of a few bytecodes whatever its length.
ONLY_CARDS: Final = frozenset({Card})


def cards_argument(cards: object, name: str) -> tuple[Card, ...]:
    """``cards`` as a tuple, or :class:`InvalidArgument` naming the argument ``name`` when it
    is not a sequence of :class:`Card` (text must be parsed first: ``parse_cards``)."""
    if isinstance(cards, Sequence) and not isinstance(cards, str | bytes):
        got = tuple(cards)
        if ONLY_CARDS.issuperset(map(type, got)):
            return got
        bad = next(c for c in got if type(c) is not Card)
        raise InvalidArgument(
            f"{name} must hold Card values (parse_cards makes them from text), not {describe(bad)}"
        )
    raise InvalidArgument(f"{name} must be a sequence of Card, not {describe(cards)}")


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical notation of a list of cards, separated by spaces."""
    # Wrong values are caught as they fail (no check in the way of every action's text).
    try:
        return " ".join(c.text for c in cards)
    except (AttributeError, TypeError):
        raise _not_cards(cards) from None


def pretty_cards(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, for people."""
    try:
        return " ".join(c.pretty() for c in cards)
    except (AttributeError, TypeError):
        raise _not_cards(cards) from None


def _not_cards(cards: object) -> InvalidArgument:
    try:
        cards_argument(cards, "cards")
    except InvalidArgument as exc:
        return exc
    return InvalidArgument(f"cards must be Card values, not {describe(cards)}")


def make_deck(jokers: int, copies: int = 2) -> list[Card]:
    """An unshuffled deck: ``copies`` of every face (suit by suit, A to K) then the jokers."""
    if type(jokers) is not int or type(copies) is not int or jokers < 0 or copies < 0:
        raise InvalidArgument(
            f"jokers and copies must be whole numbers of 0 or more, not {describe(jokers)} "
            f"and {describe(copies)}"
        )
    return [face for face in FACES[:52] for _ in range(copies)] + [JOKER] * jokers


def check_cards_exist(cards: Sequence[Card], jokers: int, copies: int = 2) -> None:
    """Raise :class:`InvalidHand` if ``cards`` hold more copies of a face than the deck has."""
    cards = cards_argument(cards, "cards")
    if type(jokers) is not int or type(copies) is not int:
        raise InvalidArgument(
            f"jokers and copies must be whole numbers, not {describe(jokers)} and "
            f"{describe(copies)}"
        )
    counts = Counter(cards)
    for face, n in sorted(counts.items()):
        limit = jokers if face is JOKER else copies
        if n > limit:
            what = "joker" if face is JOKER else f"copy of {face.text}"
            raise InvalidHand(
                f"{_ordinal(limit + 1)} {what}: the deck holds only {limit}"
                if limit
                else f"{face.text}: the deck holds no {what}"
            )


def _ordinal(n: int) -> str:
    return {1: "a first", 2: "a second", 3: "a third", 4: "a fourth", 5: "a fifth"}.get(
        n, f"a {n}th"
    )


def sort_key_suit(c: Card) -> tuple[int, int]:
    """Sort by suit then rank, jokers last."""
    try:
        return (c.suit if c.rank else 4, c.rank)
    except AttributeError:
        raise _not_cards((c,)) from None


def sort_key_rank(c: Card) -> tuple[int, int]:
    """Sort by rank then suit, jokers last."""
    try:
        return (c.rank if c.rank else 14, c.suit)
    except AttributeError:
        raise _not_cards((c,)) from None
