"""Every error rummykit raises for bad input is a ``ValueError`` subclass with a reason."""

from __future__ import annotations


class RummyError(ValueError):
    """Base of every rummykit error: the message says what was wrong and why."""


class InvalidNotation(RummyError):
    """Text that is not a card, a meld, an action or a record."""


class InvalidMeld(RummyError):
    """Cards that do not form a meld under the rules in force."""


class InvalidHand(RummyError):
    """A hand that cannot exist (a third copy of a card, a fifth joker, a wrong size)."""


class IllegalAction(RummyError):
    """An action the rules refuse in the current state; the state is left untouched."""


class InvalidRecord(RummyError):
    """A game record that is not valid JSON, lacks fields or does not replay."""


class UnknownVariant(RummyError):
    """A variant name that no ruleset carries."""


class InvalidArgument(RummyError):
    """An argument of the Python API of the wrong type or shape (``Game.new("rummy",
    players="2")``, ``parse_card(None)``): the message names the argument and what it takes.
    A ``ValueError`` like every rummykit error, so one ``except ValueError`` catches bad input
    of every kind; nothing was changed when it is raised."""


def describe(value: object) -> str:
    """A value as an error message shows it: its type and a short repr."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"
