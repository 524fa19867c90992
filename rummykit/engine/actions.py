"""Actions as small immutable values with a text notation that round-trips.

>>> a = parse_action('layoff 2 ah low')
>>> a
Layoff(2, Card('AH'), 'low')
>>> str(a), parse_action(str(a)) == a
('layoff 2 AH low', True)
>>> str(parse_action('open 7h x 7s / 5H 6H 7H'))
'open 7S 7H X / 5H 6H 7H'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rummykit.cards import JOKER, ONLY_CARDS, Card, cards_argument, format_cards, parse_cards
from rummykit.errors import InvalidArgument, InvalidNotation, describe

Group = tuple[Card, ...]


def canonical_group(cards: Group) -> Group:
    """A group whose real cards share one rank in several suits is a set: its order does not
    matter, so it is written with real cards by suit, then jokers. Runs keep their order."""
    real = [c for c in cards if c is not JOKER]
    if len(real) >= 2 and len({c.rank for c in real}) == 1 and len({c.suit for c in real}) > 1:
        return (*sorted(real, key=lambda c: c.suit), *[c for c in cards if c is JOKER])
    return cards


# An action built in Python (not parsed) is checked where the engine validates it (check,
# is_legal and apply), not when it is made: the legal actions make thousands of them. A
# meld's cards are made a tuple when it is made, which refuses what is no sequence then.


def _not_groups(groups: object, verb: str) -> None:
    """Raise :class:`InvalidArgument` unless ``groups`` is a sequence of card sequences (after
    making an action failed on them; when they are right the failure is another)."""
    if not isinstance(groups, Sequence) or isinstance(groups, str):
        raise InvalidArgument(f"{verb} takes its melds as card tuples, not {describe(groups)}")
    for group in groups:
        cards_argument(group, f"{verb}'s cards")


def _text(card: object) -> str:
    """A card's notation; any other value (an action made in Python with the wrong values,
    which the engine refuses) as its repr, so that printing the action does not fail."""
    return card.text if type(card) is Card else repr(card)


def _texts(cards: Sequence[object]) -> str:
    return " ".join(map(_text, cards))


class Action:
    """Base of every action. ``str(action)`` is its notation."""

    __slots__ = ()
    verb: ClassVar[str]

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def __repr__(self) -> str:
        return "Draw()"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Take(Action):
    verb: ClassVar[str] = "take"

    def __repr__(self) -> str:
        return "Take()"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Return(Action):
    verb: ClassVar[str] = "return"

    def __repr__(self) -> str:
        return "Return()"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Drop(Action):
    verb: ClassVar[str] = "drop"

    def __repr__(self) -> str:
        return "Drop()"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    verb: ClassVar[str] = "timeout"

    def __repr__(self) -> str:
        return "Timeout()"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Discard(Action):
    card: Card
    verb: ClassVar[str] = "discard"

    def __repr__(self) -> str:
        return f"Discard({self.card!r})"

    def __str__(self) -> str:
        card = self.card  # inline _text: every discard is formatted for the record
        return f"discard {card.text if type(card) is Card else repr(card)}"


@dataclass(frozen=True, slots=True)
class NewMeld(Action):
    """``meld M``: lay one new meld after opening."""

    cards: Group
    verb: ClassVar[str] = "meld"

    def __post_init__(self) -> None:
        try:
            cards = canonical_group(tuple(self.cards))
        except (TypeError, AttributeError):
            _not_groups((self.cards,), "meld")
            raise
        object.__setattr__(self, "cards", cards)

    def __repr__(self) -> str:
        if not ONLY_CARDS.issuperset(map(type, self.cards)):
            return f"NewMeld({self.cards!r})"  # made with other values: shown as they are
        return f"NewMeld(parse_cards({format_cards(self.cards)!r}))"

    def __str__(self) -> str:
        return f"meld {_texts(self.cards)}"


@dataclass(frozen=True, slots=True, eq=False)
class Open(Action):
    """``open M / M / …``: several melds laid in one action. Two opens are equal when they lay
    the same melds, in whatever order (the order still numbers the table melds)."""

    melds: tuple[Group, ...]
    verb: ClassVar[str] = "open"

    def __post_init__(self) -> None:
        try:
            melds = tuple(canonical_group(tuple(m)) for m in self.melds)
        except (TypeError, AttributeError):
            _not_groups(self.melds, self.verb)
            raise
        object.__setattr__(self, "melds", melds)

    def key(self) -> tuple[tuple[int, ...], ...]:
        """The melds laid, whatever their order: what ``==`` and ``hash`` compare."""
        return tuple(sorted(tuple(c.index for c in m) for m in self.melds))

    def __eq__(self, other: object) -> bool:
        # NotImplemented for what is no lay-down of this kind, so that the other operand's own
        # __eq__ is asked too (a plain False would shut it out)
        if type(other) is not type(self):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.verb, self.key()))

    def __repr__(self) -> str:
        if not all(ONLY_CARDS.issuperset(map(type, m)) for m in self.melds):
            return f"{type(self).__name__}({self.melds!r})"  # made with other values
        groups = [f"parse_cards({format_cards(m)!r})" for m in self.melds]
        # A tuple of one needs its comma, an empty one must not have it: "(,)" is no Python.
        inner = f"{groups[0]}," if len(groups) == 1 else ", ".join(groups)
        return f"{type(self).__name__}(({inner}))"

    def __str__(self) -> str:
        return f"{self.verb} " + " / ".join(_texts(m) for m in self.melds)


# repr=False: Open's repr, under this class's name (the dataclass would write one of its own).
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Declare(Open):
    """``declare M / M / …`` (Indian rummy): the card of the 14 not listed is discarded."""

    verb: ClassVar[str] = "declare"


class _Numbered(Action):
    """An action on a table meld by number. Equality also compares the numbers' types:
    ``True == 1`` in Python, yet ``Layoff(True, c)`` is refused where ``Layoff(1, c)`` is
    legal, and the two must not stand for each other in a set of legal actions."""

    __slots__ = ()
    number: int

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented  # as a lay-down's (Open.__eq__)
        return type(other.number) is type(self.number) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((self.verb, type(self.number), self._key()))


@dataclass(frozen=True, slots=True, eq=False)
class Layoff(_Numbered):
    number: int
    card: Card
    end: Literal["low", "high"] | None = None
    verb: ClassVar[str] = "layoff"

    def _key(self) -> tuple[object, ...]:
        return (self.number, self.card, self.end)

    def __repr__(self) -> str:
        end = f", {self.end!r}" if self.end else ""
        return f"Layoff({self.number!r}, {self.card!r}{end})"

    def __str__(self) -> str:
        end = f" {self.end}" if self.end else ""
        return f"layoff {self.number} {_text(self.card)}{end}"


@dataclass(frozen=True, slots=True, eq=False)
class Swap(_Numbered):
    number: int
    card: Card
    verb: ClassVar[str] = "swap"

    def _key(self) -> tuple[object, ...]:
        return (self.number, self.card)

    def __repr__(self) -> str:
        return f"Swap({self.number!r}, {self.card!r})"

    def __str__(self) -> str:
        return f"swap {self.number} {_text(self.card)}"


_SIMPLE: dict[str, Action] = {
    "draw": Draw(),
    "take": Take(),
    "return": Return(),
    "drop": Drop(),
    "timeout": Timeout(),
}
VERBS = ("draw", "take", "return", "open", "meld", "layoff", "swap", "discard", "declare",
         "drop", "timeout")


#: Digits a table meld number may have: no table holds a billion melds, and int() refuses
#: strings of over 4300 digits with a plain ValueError.
MAX_NUMBER_DIGITS = 9


def _card_field(value: object, verb: str) -> None:
    if type(value) is not Card:
        raise InvalidArgument(f"{verb} takes a Card, not {describe(value)}")


def _number_field(value: object, verb: str) -> None:
    if type(value) is not int:
        raise InvalidArgument(f"{verb} takes a table meld number (int), not {describe(value)}")


def _groups_field(groups: tuple[Group, ...], verb: str) -> None:
    for group in groups:
        if not ONLY_CARDS.issuperset(map(type, group)):
            _not_groups(groups, verb)


def _check_discard(act: Discard) -> None:
    _card_field(act.card, "discard")


def _check_layoff(act: Layoff) -> None:
    _number_field(act.number, "layoff")
    _card_field(act.card, "layoff")
    if act.end not in (None, "low", "high"):
        raise InvalidArgument(f"layoff end must be 'low', 'high' or None, not {describe(act.end)}")


def _check_swap(act: Swap) -> None:
    _number_field(act.number, "swap")
    _card_field(act.card, "swap")


def refuse_fields(act: Action) -> None:
    """Raise :class:`InvalidArgument` naming the value of ``act`` of the wrong type; the
    engine's validators call it when their quick check of the types fails."""
    check = _FIELD_CHECKS.get(type(act))
    if check is not None:
        check(act)


_FIELD_CHECKS: dict[type, Callable[[Any], None]] = {
    Discard: _check_discard,
    Layoff: _check_layoff,
    Swap: _check_swap,
    NewMeld: lambda act: _groups_field((act.cards,), "meld"),
    Open: lambda act: _groups_field(act.melds, "open"),
    Declare: lambda act: _groups_field(act.melds, "declare"),
}


def _number(text: str, line: str) -> int:
    digits = text.lstrip("0")
    # isdigit() alone admits other scripts' digits and superscripts, which int() refuses.
    if not (text.isascii() and text.isdigit()) or not digits:
        raise InvalidNotation(f"{line!r}: {text!r} is not a table meld number (1, 2, 3…)")
    if len(digits) > MAX_NUMBER_DIGITS:
        raise InvalidNotation(
            f"{text[:12]}…: a table meld number has at most {MAX_NUMBER_DIGITS} digits"
        )
    return int(digits)


def parse_action(text: str) -> Action:
    """Parse one action line; raise :class:`InvalidNotation` saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidArgument(f"an action must be text like 'discard 7H', not {describe(text)}")
    line = text.strip()
    if not line:
        raise InvalidNotation("empty action")
    # Any whitespace ends the verb, as it separates the cards.
    verb, *more = line.split(None, 1)
    verb = verb.lower()
    rest = more[0].strip() if more else ""
    if verb in _SIMPLE:
        if rest:
            raise InvalidNotation(f"{line!r}: {verb} takes nothing after it")
        return _SIMPLE[verb]
    if verb == "discard":
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise InvalidNotation(f"{line!r}: discard takes exactly one card")
        return Discard(cards[0])
    if verb in ("open", "declare"):
        groups = [parse_cards(g) for g in rest.split("/")]
        if not rest or any(not g for g in groups):
            raise InvalidNotation(f"{line!r}: {verb} needs melds separated by /")
        return Open(tuple(groups)) if verb == "open" else Declare(tuple(groups))
    if verb == "meld":
        if "/" in rest:
            raise InvalidNotation(f"{line!r}: meld lays one meld (open lays several)")
        cards = parse_cards(rest)
        if not cards:
            raise InvalidNotation(f"{line!r}: meld needs its cards")
        return NewMeld(cards)
    if verb in ("layoff", "swap"):
        parts = rest.split()
        want = "layoff N CARD [low|high]" if verb == "layoff" else "swap N CARD"
        if len(parts) < 2 or len(parts) > (3 if verb == "layoff" else 2):
            raise InvalidNotation(f"{line!r}: write {want}")
        number = _number(parts[0], line)
        # Commas separate cards, so "AH,KH" is two cards where one is wanted.
        cards = parse_cards(parts[1])
        if len(cards) != 1:
            raise InvalidNotation(f"{line!r}: {verb} takes exactly one card ({want})")
        card = cards[0]
        if verb == "swap":
            return Swap(number, card)
        end = parts[2].lower() if len(parts) == 3 else None
        if end not in (None, "low", "high"):
            raise InvalidNotation(f"{line!r}: the end is low or high, not {parts[2]!r}")
        return Layoff(number, card, end)  # type: ignore[arg-type]
    raise InvalidNotation(f"{line!r}: unknown action {verb!r} (actions: {', '.join(VERBS)})")


#: The kinds of action the engine plays (no subclass: the engine knows the rules of these).
_KINDS: frozenset[type] = frozenset(
    (Draw, Take, Return, Drop, Timeout, Discard, NewMeld, Open, Declare, Layoff, Swap)
)
_KIND_NAMES: tuple[str, ...] = tuple(sorted(k.__name__ for k in _KINDS))


def as_action(action: Action | str) -> Action:
    """Accept an action or its text (the values of an action made in Python are checked by
    the engine's validator of its kind: see :func:`refuse_fields`)."""
    if type(action) in _KINDS:
        return action  # type: ignore[return-value]  # one of the kinds, all Actions
    if isinstance(action, Action):
        # The base class (whose str() fails: it has no verb) or a class of one's own: the
        # engine knows the rules of its own kinds only.
        raise InvalidArgument(
            f"action must be one of the engine's kinds ({', '.join(_KIND_NAMES)}), or its "
            f"text, not the class {type(action).__name__}"
        )
    if isinstance(action, str):
        return parse_action(action)
    raise InvalidArgument(
        f"action must be an Action or its text like 'discard 7H', not {describe(action)}"
    )
