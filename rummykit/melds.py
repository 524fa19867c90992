"""Melds: sets and runs, their joker places, values and penalties.

A *set* is 3 or 4 cards of one rank in different suits; a *run* is consecutive ranks of one
suit, written low to high, the ace low (A-2-3) or high (Q-K-A) but never both, never wrapping.
A joker stands for the exact card of its place. How many jokers a meld may hold and whether two
may stand side by side depend on the variant: :class:`MeldRules` carries those limits.

>>> m = make_meld(parse_cards('5H X 7H X 9H'))
>>> m.kind, m.value()
('run', 35)
>>> make_meld(parse_cards('7S 7S 7D'))
Traceback (most recent call last):
...
rummykit.errors.InvalidMeld: 7S 7S 7D: the suit S appears twice
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from operator import attrgetter
from typing import Final, Literal

from rummykit.cards import (
    ACE,
    JOKER_RANK,
    ONLY_CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    card,
    cards_argument,
    format_cards,
    parse_cards,
)
from rummykit.errors import InvalidArgument, InvalidMeld, describe

End = Literal["low", "high"]


_MELD_FIELDS: Final = attrgetter("min_real", "adjacent_jokers", "max_set", "max_run", "wild_rank")
_MELD_TYPES: Final = (int, bool, int, int, int)


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The meld limits of a variant (and, in Indian rummy, of a deal: its wild rank)."""

    #: Cards of a meld that must be real (not standing in for another card).
    min_real: int = 2
    #: Whether two jokers may stand side by side in a run.
    adjacent_jokers: bool = False
    max_set: int = 4
    max_run: int = 13
    #: A rank whose every card is a joker too (Indian rummy's wild joker); 0 for none.
    wild_rank: int = 0

    def __post_init__(self) -> None:
        # Checked once when made: every meld check reads them. The types are compared in one
        # go (a deal makes these), and looked at one by one only when they differ.
        if (
            tuple(map(type, _MELD_FIELDS(self))) == _MELD_TYPES
            and 0 <= self.wild_rank <= 13
            and 1 <= self.min_real <= 3
            and self.max_set == 4
            and self.max_run == 13
        ):
            return
        for name in ("min_real", "max_set", "max_run", "wild_rank"):
            value = getattr(self, name)
            if type(value) is not int:
                raise InvalidArgument(
                    f"MeldRules {name} must be a whole number, not {describe(value)}"
                )
        if not 0 <= self.wild_rank <= 13:
            raise InvalidArgument(
                f"MeldRules wild_rank must be a rank from 1 to 13, or 0 for none, not "
                f"{self.wild_rank}"
            )
        if type(self.adjacent_jokers) is not bool:
            raise InvalidArgument(
                f"MeldRules adjacent_jokers must be True or False, not "
                f"{describe(self.adjacent_jokers)}"
            )
        # Other values gave answers that disagree: the solver reads min_real 0 as 1 and knows
        # no other set or run limit, so it laid melds make_meld refuses.
        if not 1 <= self.min_real <= 3:
            raise InvalidArgument(
                f"MeldRules min_real must be 1 to 3 (the real cards every meld needs), not "
                f"{self.min_real}"
            )
        if (self.max_set, self.max_run) != (4, 13):
            raise InvalidArgument(
                f"MeldRules max_set must be 4 and max_run 13 (a set of the four suits, a run "
                f"from ace to ace: the solver knows no other limits), not {self.max_set} and "
                f"{self.max_run}"
            )

    def is_joker(self, c: Card) -> bool:
        """Whether ``c`` may stand in for another card under these rules."""
        return c.rank == JOKER_RANK or c.rank == self.wild_rank


RUMMY_MELDS: Final = MeldRules()


def opening_value(rank: int) -> int:
    """The value of a place of rank ``rank`` (1 = low ace, 14 = high ace) in an opening."""
    # Called only when tables are built, so the check costs nothing that matters; a float or
    # a bool would otherwise give a value no place has (7.5) or pass for a rank (True).
    if type(rank) is not int or not 1 <= rank <= 14:
        raise InvalidArgument(f"rank must be a place's rank from 1 to 14, not {describe(rank)}")
    if rank == 1:
        return 1
    if rank == 14:
        return 11
    return min(rank, 10)


def rummy_penalty(c: Card) -> int:
    """Penalty of a card left in hand in ``rummy`` and the Rami family."""
    try:
        rank = c.rank
    except AttributeError:
        raise InvalidArgument(f"a penalty is that of a Card, not {describe(c)}") from None
    if rank == JOKER_RANK:
        return 20
    if rank == ACE:
        return 11
    return min(rank, 10)


def indian_penalty(c: Card, wild_rank: int = 0) -> int:
    """Penalty of a card left in hand in Indian rummy: J Q K A 10, jokers (printed, wild) 0."""
    try:
        rank = c.rank
    except AttributeError:
        raise InvalidArgument(f"a penalty is that of a Card, not {describe(c)}") from None
    if rank in (JOKER_RANK, wild_rank):
        return 0
    if type(wild_rank) is not int or not 0 <= wild_rank <= 13:
        # Checked after the common answer: a wrong wild rank would silently count the
        # wild cards at their face value.
        raise InvalidArgument(
            f"wild_rank must be a rank from 1 to 13 or 0 (none), not {describe(wild_rank)}"
        )
    if rank == ACE:
        return 10
    return min(rank, 10)


RUMMY_PENALTY: Final = tuple(rummy_penalty(c) for c in (card(r, 0) for r in range(1, 14)))
INDIAN_PENALTY: Final = tuple(indian_penalty(c) for c in (card(r, 0) for r in range(1, 14)))


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld. ``cards`` keep the run order (low to high); a set's cards are in canonical
    order (real cards by suit, then jokers; a lone real card stands where no run could hold it,
    as in ``X AH X``). ``rank`` is a set's rank or the rank of a run's
    first place (1-12; a high ace is 14); ``suit`` is a run's suit (-1 for a set). ``jokers``
    marks the places held by a card standing in for another.
    """

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    rank: int
    suit: int
    jokers: tuple[bool, ...]

    def __repr__(self) -> str:
        short = f"make_meld(parse_cards({format_cards(self.cards)!r}))"
        # The short form validates under the default rules: a meld of looser rules (Indian
        # rummy's jokers side by side, a wild rank) is written field by field to evaluate back.
        try:
            if make_meld(self.cards) == self:
                return short
        except InvalidMeld:
            pass
        return f"Meld({self.kind!r}, {self.cards!r}, {self.rank}, {self.suit}, {self.jokers!r})"

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def pure(self) -> bool:
        """True when no card stands in for another."""
        return not any(self.jokers)

    @property
    def joker_count(self) -> int:
        """How many places a card standing in for another holds."""
        return sum(self.jokers)

    @property
    def high(self) -> int:
        """Rank of a run's last place (14 for a high ace)."""
        return self.rank + len(self.cards) - 1

    def missing_suits(self) -> tuple[int, ...]:
        """A set's suits not held by a real card (what its jokers may stand for)."""
        have = {c.suit for c, j in zip(self.cards, self.jokers, strict=True) if not j}
        return tuple(s for s in range(4) if s not in have)

    def place(self, i: int) -> Card | None:
        """The card place ``i`` of a run stands for (None in a set)."""
        if self.kind != "run":
            return None
        if type(i) is not int or not 0 <= i < len(self.cards):
            raise InvalidArgument(
                f"i must be a place of {self} from 0 to {len(self.cards) - 1}, not {describe(i)}"
            )
        return card(self.rank + i, self.suit)

    def value(self, jokers_zero: bool = False) -> int:
        """Opening value: a set is its rank's value times its size; a run adds its places.
        With ``jokers_zero`` (``rami71``), places held by jokers count nothing.
        """
        if self.kind == "set":
            each = 11 if self.rank == ACE else min(self.rank, 10)
            n = len(self.cards) - (self.joker_count if jokers_zero else 0)
            return each * n
        return sum(
            opening_value(self.rank + i)
            for i, j in enumerate(self.jokers)
            if not (jokers_zero and j)
        )

    # -- growing and swapping -------------------------------------------------------------

    def layoff_ends(self, c: Card, rules: MeldRules = RUMMY_MELDS) -> tuple[End | None, ...]:
        """Where ``c`` can be laid off: for a run ``('low',)``, ``('high',)``, both or none; for
        a set ``(None,)`` when it fits (a set has no ends) or none.
        """
        # The legal actions ask this of every card and meld: wrong arguments are caught as
        # they fail, not checked on the way in.
        try:
            n = len(self.cards)
            if self.kind == "set":
                if n >= rules.max_set:
                    return ()
                if c.rank == self.rank and c.suit in self.missing_suits():
                    return (None,)
                if rules.is_joker(c) and n - self.joker_count >= rules.min_real:
                    return (None,)
                return ()
            if n >= rules.max_run:
                return ()
            ends: list[End] = []
            if self.rank > 1 and self._fits_place(c, self.rank - 1, rules, self.jokers[0]):
                ends.append("low")
            if self.high < 14 and self._fits_place(c, self.high + 1, rules, self.jokers[-1]):
                ends.append("high")
            return tuple(ends)
        except AttributeError:
            _card_and_rules(c, rules)
            raise

    def _natural_at(self, c: Card, rank: int) -> bool:
        return c.suit == self.suit and c.rank == (ACE if rank == 14 else rank)

    def _fits_place(self, c: Card, rank: int, rules: MeldRules, neighbour_joker: bool) -> bool:
        if self._natural_at(c, rank):
            return True
        if not rules.is_joker(c):
            return False
        if neighbour_joker and not rules.adjacent_jokers:
            return False
        return len(self.cards) - self.joker_count >= rules.min_real

    def add(self, c: Card, end: End | None = None, rules: MeldRules = RUMMY_MELDS) -> Meld:
        """The meld with ``c`` laid off; ``end`` is required when both ends of a run fit.
        Raise :class:`InvalidMeld` with the reason when it does not fit.
        """
        ends = self.layoff_ends(c, rules)
        if not ends:
            raise InvalidMeld(f"{c.text} does not fit {self}")
        if self.kind == "set":
            if end is not None:
                raise InvalidMeld(f"{self} is a set: it has no {end} end")
            return make_meld((*self.cards, c), rules)
        if end is None:
            if len(ends) > 1:
                raise InvalidMeld(f"{c.text} fits both ends of {self}: say low or high")
            end = ends[0]
        if end not in ends:
            raise InvalidMeld(f"{c.text} does not fit the {end} end of {self}")
        if end == "low":
            joker = not self._natural_at(c, self.rank - 1)
            return Meld("run", (c, *self.cards), self.rank - 1, self.suit, (joker, *self.jokers))
        joker = not self._natural_at(c, self.high + 1)
        return Meld("run", (*self.cards, c), self.rank, self.suit, (*self.jokers, joker))

    def swap_index(self, c: Card, rules: MeldRules, fourth_only: bool = False) -> int | None:
        """The place of a joker that real card ``c`` may take, or None. With ``fourth_only``
        (Rami), a set's joker can be freed only when it is the one joker of a 4-card set.
        """
        try:
            if rules.is_joker(c):
                return None
        except AttributeError:
            _card_and_rules(c, rules)
            raise
        if self.kind == "run":
            for i, j in enumerate(self.jokers):
                if j:
                    r = self.rank + i
                    if c.suit == self.suit and c.rank == (ACE if r == 14 else r):
                        return i
            return None
        if c.rank != self.rank or c.suit not in self.missing_suits() or not any(self.jokers):
            return None
        if fourth_only and (len(self.cards) != 4 or self.joker_count != 1):
            return None
        return self.jokers.index(True)

    def swap(self, i: int, c: Card) -> tuple[Meld, Card]:
        """The meld with real card ``c`` at joker place ``i``, and the freed card; raise
        :class:`InvalidMeld` when place ``i`` holds no joker or ``c`` is not its card."""
        if type(i) is not int or not 0 <= i < len(self.cards):
            raise InvalidArgument(
                f"i must be a place of {self} from 0 to {len(self.cards) - 1}, not {describe(i)}"
            )
        if type(c) is not Card:
            raise InvalidArgument(f"c must be a Card, not {describe(c)}")
        if not self.jokers[i]:
            raise InvalidMeld(f"place {i} of {self} holds no joker to swap")
        natural = self.place(i) if self.kind == "run" else None
        if c is not natural and (
            self.kind == "run" or c.rank != self.rank or c.suit not in self.missing_suits()
        ):
            raise InvalidMeld(f"{c.text} cannot take the joker at place {i} of {self}")
        return self.swapped(i, c)

    def swapped(self, i: int, c: Card) -> tuple[Meld, Card]:
        """:meth:`swap` unchecked, for callers that found ``i`` with :meth:`swap_index` (the
        engine, whose legal actions try every swap)."""
        freed = self.cards[i]
        cards = list(self.cards)
        cards[i] = c
        jokers = list(self.jokers)
        jokers[i] = False
        if self.kind == "set":
            return _canonical_set(cards, jokers, self.rank), freed
        return Meld("run", tuple(cards), self.rank, self.suit, tuple(jokers)), freed


def _card_and_rules(c: object, rules: object) -> None:
    """Raise :class:`InvalidArgument` for a card or meld rules of the wrong type (after a
    method failed on them; when both are right the failure is the method's own)."""
    if type(c) is not Card:
        raise InvalidArgument(f"c must be a Card, not {describe(c)}")
    if type(rules) is not MeldRules:
        raise InvalidArgument(f"rules must be a MeldRules, not {describe(rules)}")


def _canonical_set(
    cards: Sequence[Card], jokers: Sequence[bool], rank: int, rules: MeldRules | None = None
) -> Meld:
    pairs = sorted(zip(cards, jokers, strict=True), key=lambda p: (p[1], p[0].suit, p[0].rank))
    if len(pairs) - sum(jokers) == 1:
        # One real card and jokers (Indian rummy, house rule min_real 1) may also read as a
        # run, which make_meld prefers: "AH X X" is A-2-3. The real card goes to the first
        # place where no run can hold it ("X AH X"), so that the text reads back as this set.
        # (With jokers side by side forbidden every place may fit: the order then stays, and
        # the run its jokers would make is refused.)
        n = len(pairs)
        at = next((i for i in range(n) if not _run_fits(rank, i, n)), 0)
        pairs.insert(at, pairs.pop(0))
        if rules is not None and rules.wild_rank and _reads_as_run(pairs, rules):
            # A wild card of the real card's suit at its own place is no joker in a run,
            # which can then be legal: another order may still read as the set.
            pairs = next(
                (list(p) for p in permutations(pairs) if not _reads_as_run(p, rules)), pairs
            )
    return Meld(
        "set", tuple(p[0] for p in pairs), rank, -1, tuple(p[1] for p in pairs)
    )


def _reads_as_run(pairs: Sequence[tuple[Card, bool]], rules: MeldRules) -> bool:
    """Whether make_meld reads these cards of a set of one real card as a run."""
    cards = tuple(p[0] for p in pairs)
    fixed = [c for c in cards if not rules.is_joker(c)]
    try:
        _make_run(cards, fixed, rules, "")
    except InvalidMeld:
        return False
    return True


def _run_fits(rank: int, i: int, n: int) -> bool:
    """Whether a run of ``n`` places can hold a card of ``rank`` at place ``i``."""
    starts = (1 - i, 14 - i) if rank == ACE else (rank - i,)
    return any(start >= 1 and start + n - 1 <= 14 for start in starts)


def lone_set_writable(rank: int, size: int, rules: MeldRules) -> bool:
    """Whether a set of ``size`` cards, one real card of rank ``rank`` and the rest jokers, can
    be written so that :func:`make_meld` reads it as that set: with jokers side by side
    allowed, only when some place of a run of ``size`` cannot hold the rank (a set of three
    aces, twos or kings; of four aces, twos, threes, queens or kings). Any other order of such
    cards reads as a run, which make_meld prefers.
    """
    if not rules.adjacent_jokers:
        return True
    return not all(_run_fits(rank, i, size) for i in range(size))


def set_meld(
    cards: Sequence[Card], jokers: Sequence[bool], rank: int, rules: MeldRules
) -> Meld:
    """The set of rank ``rank`` of ``cards`` (``jokers`` marking those standing in for another),
    its cards in the order that reads back as it (:func:`make_meld`), unchecked."""
    return _canonical_set(cards, jokers, rank, rules)


def make_meld(cards: Sequence[Card], rules: MeldRules = RUMMY_MELDS) -> Meld:
    """Validate ``cards`` as a meld; raise :class:`InvalidMeld` with the reason.

    When the cards read both as a set and as a run (possible only with wild cards), the run is
    chosen: it is worth at least as much and counts as a sequence in Indian rummy.
    """
    if type(rules) is not MeldRules:
        raise InvalidArgument(f"rules must be a MeldRules, not {describe(rules)}")
    # One check in C for the common case; cards_argument says what is wrong otherwise.
    try:
        got = tuple(cards)
        whole = ONLY_CARDS.issuperset(map(type, got))
    except TypeError:
        whole = False
    if not whole:
        got = cards_argument(cards, "a meld's cards")
    cards = got
    text = format_cards(cards)
    n = len(cards)
    if n < 3:
        raise InvalidMeld(f"{text or 'no cards'}: a meld needs at least 3 cards")
    fixed = [c for c in cards if not rules.is_joker(c)]
    same_suit = len({c.suit for c in fixed}) <= 1
    same_rank = len({c.rank for c in fixed}) <= 1
    if not same_suit and not same_rank:
        raise InvalidMeld(f"{text}: neither one rank (a set) nor one suit (a run)")
    if same_suit:
        try:
            return _make_run(cards, fixed, rules, text)
        except InvalidMeld:
            if not same_rank:
                raise
            # One rank and one suit at once (few real cards): the set may still hold.
            try:
                return _make_set(cards, fixed, rules, text)
            except InvalidMeld:
                if len(fixed) >= 2:
                    raise
            raise
    return _make_set(cards, fixed, rules, text)


def _too_few_real(text: str, rules: MeldRules) -> InvalidMeld:
    if rules.min_real == 1:
        return InvalidMeld(f"{text}: a meld needs at least one card that is not a joker")
    return InvalidMeld(
        f"{text}: too many jokers: a meld needs at least {rules.min_real} real cards"
    )


def _make_set(
    cards: tuple[Card, ...], fixed: list[Card], rules: MeldRules, text: str
) -> Meld:
    n = len(cards)
    if n > rules.max_set:
        raise InvalidMeld(f"{text}: a set has at most {rules.max_set} cards")
    if fixed:
        rank = fixed[0].rank
    elif rules.wild_rank:
        rank = rules.wild_rank
    else:
        raise _too_few_real(text, rules)
    seen: set[int] = set()
    jokers: list[bool] = []
    for c in cards:
        natural = c.rank == rank and c.suit not in seen
        if c.rank == rank and c.suit in seen and not rules.is_joker(c):
            raise InvalidMeld(f"{text}: the suit {SUIT_CHARS[c.suit]} appears twice")
        if natural:
            seen.add(c.suit)
        jokers.append(not natural)
    if n - sum(jokers) < rules.min_real:
        raise _too_few_real(text, rules)
    return _canonical_set(cards, jokers, rank, rules)


def _make_run(
    cards: tuple[Card, ...], fixed: list[Card], rules: MeldRules, text: str
) -> Meld:
    n = len(cards)
    if n > rules.max_run:
        raise InvalidMeld(f"{text}: a run has at most {rules.max_run} cards")
    # Candidate anchors: the first fixed card decides the start (an ace tries low and high);
    # with wild cards only, every wild card is tried as its natural self.
    candidates: list[tuple[int, int]] = []
    anchors = [(i, c) for i, c in enumerate(cards) if not rules.is_joker(c)][:1]
    if not anchors:
        anchors = [(i, c) for i, c in enumerate(cards) if c.rank != JOKER_RANK]
    for i, c in anchors:
        for r in ((1, 14) if c.rank == ACE else (c.rank,)):
            if (r - i, c.suit) not in candidates:
                candidates.append((r - i, c.suit))
    if not candidates:
        raise _too_few_real(text, rules)
    best: Meld | None = None
    error = ""
    for start, suit in candidates:
        try:
            meld = _run_at(cards, start, suit, rules, text)
        except InvalidMeld as exc:
            error = error or str(exc)
            continue
        if best is None or meld.joker_count < best.joker_count:
            best = meld
    if best is None:
        raise InvalidMeld(error)
    return best


def _rank_text(r: int) -> str:
    return RANK_CHARS[(r - 1) % 13]


def _run_at(
    cards: tuple[Card, ...], start: int, suit: int, rules: MeldRules, text: str
) -> Meld:
    n = len(cards)
    if start < 1:
        raise InvalidMeld(f"{text}: nothing comes below the ace in a run")
    if start + n - 1 > 14:
        raise InvalidMeld(f"{text}: a run cannot go past the ace (runs never wrap)")
    jokers: list[bool] = []
    for i, c in enumerate(cards):
        r = start + i
        if c.suit == suit and c.rank == (ACE if r == 14 else r):
            jokers.append(False)
        elif rules.is_joker(c):
            jokers.append(True)
        else:
            prev = cards[i - 1].text if i else None
            if prev is None:
                raise InvalidMeld(f"{text}: {c.text} cannot start this run")
            raise InvalidMeld(f"{text}: {c.text} cannot follow {prev} in a run")
    if n - sum(jokers) < rules.min_real:
        raise _too_few_real(text, rules)
    if not rules.adjacent_jokers:
        for i in range(1, n):
            if jokers[i] and jokers[i - 1]:
                raise InvalidMeld(f"{text}: two jokers side by side")
    return Meld("run", cards, start, suit, tuple(jokers))


def parse_meld(text: str, rules: MeldRules = RUMMY_MELDS) -> Meld:
    """Parse and validate a meld written in notation."""
    if not isinstance(text, str):
        raise InvalidArgument(f"a meld must be text like '7H 8H 9H', not {describe(text)}")
    return make_meld(parse_cards(text), rules)
