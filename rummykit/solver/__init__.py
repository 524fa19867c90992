"""Exact hand solver: best opening, lay-everything close, least penalty, Indian declaration.

Pure computation over :mod:`rummykit.cards` and :mod:`rummykit.melds`: no I/O, no randomness.
See ``docs/solver.md`` for how it works and what it guarantees.
"""

from rummykit.solver.api import (
    INDIAN_PENALTY,
    RAMI51_OPENING,
    RAMI71_OPENING,
    RUMMY_OPENING,
    RUMMY_PENALTY,
    SIMPLE_OPENING,
    Arrangement,
    OpeningResult,
    OpeningRule,
    PenaltyRule,
    best_close,
    best_opening,
    card_penalty,
    clear_tables,
    declaration,
    least_penalty,
    opening,
    opening_and_penalty,
    opening_points,
    penalty_points,
    table_entries,
)

__all__ = [
    "INDIAN_PENALTY",
    "RAMI51_OPENING",
    "RAMI71_OPENING",
    "RUMMY_OPENING",
    "RUMMY_PENALTY",
    "SIMPLE_OPENING",
    "Arrangement",
    "OpeningResult",
    "OpeningRule",
    "PenaltyRule",
    "best_close",
    "best_opening",
    "card_penalty",
    "clear_tables",
    "declaration",
    "least_penalty",
    "opening",
    "opening_and_penalty",
    "opening_points",
    "penalty_points",
    "table_entries",
]
