"""The terms of the solver's questions: the opening and penalty rules (:class:`OpeningRule`,
:class:`PenaltyRule`, and each variant's), the answers (:class:`Arrangement`,
:class:`OpeningResult`), and the checks of the arguments, once per call.

Apart because every question uses them and callers outside the solver (the rules layer, the
engine, the bots) hold these objects; nothing here searches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Final, Literal

from rummykit.cards import ONLY_CARDS, Card, cards_argument
from rummykit.errors import InvalidArgument, InvalidHand, describe
from rummykit.melds import Meld, MeldRules


@dataclass(frozen=True, slots=True)
class OpeningRule:
    """How a variant's first lay-down (its opening) is judged.

    - ``minimum``: points the opening must reach (0: no minimum).
    - ``jokers_zero``: jokers count nothing towards the minimum (``rami71``).
    - ``clean_run_and_set``: the lay-down needs a joker-free run and a joker-free set.
    - ``clean_run_without_taken``: with a taken card, one joker-free run must be made without
      it (``rami71``).
    - ``close_leaves``: how many cards a lay-everything close may leave in hand -- it ignores
      the minimum (``rummy``: 0 or 1; Rami: exactly 1, the discard).
    - ``close_only``: the only lay-down is the close (``simple``).
    - ``close_run_and_set``: a close needs a run and a set (``simple``).
    - ``keep``: cards an opening must leave in hand, 0 or 1 (Rami: 1, since a deal is won
      by discarding the last card; ``rummy`` may go out by laying every card).
    """

    minimum: int = 40
    jokers_zero: bool = False
    clean_run_and_set: bool = False
    clean_run_without_taken: bool = False
    close_leaves: tuple[int, ...] = (0, 1)
    close_only: bool = False
    close_run_and_set: bool = False
    keep: int = 0

    def __post_init__(self) -> None:
        # The rules layer makes one for every question of the opening meter: the types are
        # compared in one go, and looked at one by one only when they differ.
        if (
            tuple(map(type, _OPENING_FIELDS(self))) == _OPENING_TYPES
            and self.minimum >= 0
            and self.keep in (0, 1)
            and ONLY_INTS.issuperset(map(type, self.close_leaves))
            and min(self.close_leaves, default=0) >= 0
        ):
            return
        _whole(self, "minimum")
        _flags(self, "jokers_zero", "clean_run_and_set", "clean_run_without_taken",
               "close_only", "close_run_and_set")
        leaves = self.close_leaves
        if type(leaves) is not tuple or not all(type(n) is int and n >= 0 for n in leaves):
            raise InvalidArgument(
                f"OpeningRule close_leaves must be a tuple of card counts, not {describe(leaves)}"
            )
        if type(self.keep) is not int or self.keep not in (0, 1):
            raise InvalidArgument(
                f"OpeningRule keep: an opening keeps 0 or 1 card in hand, not {describe(self.keep)}"
            )


@dataclass(frozen=True, slots=True)
class PenaltyRule:
    """How cards left in hand are charged: ``rummy`` values (A 11, joker 20) or ``indian``
    values (J Q K A 10, jokers 0); with ``two_sequences`` melds count only when the
    arrangement holds two sequences, one of them pure; ``cap`` bounds the total.
    """

    scoring: Literal["rummy", "indian"] = "rummy"
    two_sequences: bool = False
    cap: int | None = None

    def __post_init__(self) -> None:
        if self.scoring not in ("rummy", "indian") or type(self.scoring) is not str:
            raise InvalidArgument(
                f"PenaltyRule scoring must be 'rummy' or 'indian', not {describe(self.scoring)}"
            )
        _flags(self, "two_sequences")
        if self.cap is not None:
            _whole(self, "cap")


_OPENING_FIELDS: Final = attrgetter(
    "minimum", "jokers_zero", "clean_run_and_set", "clean_run_without_taken", "close_leaves",
    "close_only", "close_run_and_set", "keep",
)
_OPENING_TYPES: Final = (int, bool, bool, bool, tuple, bool, bool, int)
ONLY_INTS: Final = frozenset({int})


# The rules are checked when made, and the functions below check that they were given rules
# (where a search is first set up for them, so a known rule costs nothing more): a wrong value
# would otherwise fail deep inside a search, or, for a rule used as a table key, not at all.


def _whole(rule: object, name: str) -> None:
    value = getattr(rule, name)
    if type(value) is not int or value < 0:
        raise InvalidArgument(
            f"{type(rule).__name__} {name} must be a whole number of 0 or more, not "
            f"{describe(value)}"
        )


def _flags(rule: object, *names: str) -> None:
    for name in names:
        value = getattr(rule, name)
        if type(value) is not bool:
            raise InvalidArgument(
                f"{type(rule).__name__} {name} must be True or False, not {describe(value)}"
            )


def _rules_given(rule: object, kind: type, melds: object) -> None:
    if type(rule) is not kind:
        raise InvalidArgument(f"rule must be of type {kind.__name__}, not {describe(rule)}")
    if type(melds) is not MeldRules:
        raise InvalidArgument(f"melds must be a MeldRules, not {describe(melds)}")


def _given(cards: Sequence[Card]) -> None:
    """Raise :class:`InvalidArgument` unless ``cards`` is a sequence of cards: the one check
    of a hand at each entry point, done in C in a few bytecodes whatever the hand's length
    (the slice refuses an iterator, which the check would otherwise use up, and a set)."""
    try:
        if ONLY_CARDS.issuperset(map(type, cards[:])):
            return
    except TypeError:
        pass
    cards_argument(cards, "cards")


RUMMY_OPENING: Final = OpeningRule(minimum=40)
RAMI51_OPENING: Final = OpeningRule(minimum=51, close_leaves=(1,), keep=1)
RAMI71_OPENING: Final = OpeningRule(
    minimum=71,
    jokers_zero=True,
    clean_run_and_set=True,
    clean_run_without_taken=True,
    close_leaves=(1,),
    keep=1,
)
SIMPLE_OPENING: Final = OpeningRule(
    minimum=0, close_leaves=(1,), close_only=True, close_run_and_set=True, keep=1
)
RUMMY_PENALTY: Final = PenaltyRule()
INDIAN_PENALTY: Final = PenaltyRule(scoring="indian", two_sequences=True, cap=80)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds taken from a hand and the cards left; ``points`` is what the question measures
    (opening value, or penalty of the cards left).
    """

    points: int
    melds: tuple[Meld, ...]
    left: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """``best``: the most valuable lay-down the opening rule's structure allows (whatever the
    minimum); ``close``: the best lay-everything close (which ignores the minimum).
    """

    rule: OpeningRule
    best: Arrangement | None
    close: Arrangement | None

    @property
    def valid(self) -> bool:
        """Whether the hand can open now: the best reaches the minimum, or it can close."""
        if self.close is not None:
            return True
        if self.rule.close_only or self.best is None or not self.best.melds:
            return False
        return self.best.points >= self.rule.minimum

    @property
    def lay(self) -> Arrangement | None:
        """What a one-tap Open lays: the best if it reaches the minimum, else the close."""
        if (
            not self.rule.close_only
            and self.best is not None
            and self.best.melds
            and self.best.points >= self.rule.minimum
        ):
            return self.best
        return self.close


def _check_must(cards: Sequence[Card], must: Card | None) -> None:
    if must is None:
        return
    if type(must) is not Card:
        raise InvalidArgument(f"must_include must be a Card or None, not {describe(must)}")
    if must not in cards:
        raise InvalidHand(f"the card that must be included, {must.text}, is not in the hand")
