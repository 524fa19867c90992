"""rummykit: the rummy family (rummy, Rami 51/71/simple, Indian rummy) — rules engine, exact
hand solver, computer players, game server and web client.

>>> from rummykit import Game, analyze
>>> analyze("KS KH KD 5H 6H 7H").opening.best.points
48
"""

# First: a Ctrl-C while the command imports the rest ends it quietly (see the module).
from rummykit import _startup  # noqa: F401
from rummykit.analysis import Analysis, analyze
from rummykit.cards import Card, parse_cards
from rummykit.engine import Game, parse_action
from rummykit.errors import (
    IllegalAction,
    InvalidArgument,
    InvalidHand,
    InvalidMeld,
    InvalidNotation,
    InvalidRecord,
    RummyError,
    UnknownVariant,
)
from rummykit.melds import Meld, make_meld
from rummykit.rules import VARIANTS, make_rules

__all__ = [
    "VARIANTS",
    "Analysis",
    "Card",
    "Game",
    "IllegalAction",
    "InvalidArgument",
    "InvalidHand",
    "InvalidMeld",
    "InvalidNotation",
    "InvalidRecord",
    "Meld",
    "RummyError",
    "UnknownVariant",
    "analyze",
    "make_meld",
    "make_rules",
    "parse_action",
    "parse_cards",
]
