"""The solver's questions in one place: best opening, lay-everything close, least penalty,
declaration (what :mod:`rummykit.solver` exports), and the emptying and count of every table.

Every function takes the hand as a sequence of :class:`~rummykit.cards.Card` and the variant's
:class:`~rummykit.melds.MeldRules`; answers are :class:`Arrangement` values whose melds are
real :class:`~rummykit.melds.Meld` objects (checked by :func:`~rummykit.melds.make_meld`).
These functions do not check that the hand could exist in a deck; the caller does
(:func:`rummykit.analysis.analyze` does).

The questions are in their own modules (``docs/solver.md``, *The solver's modules*): this
one gathers them for the importers and holds what spans them all.
"""

from __future__ import annotations

from rummykit.solver import core, fast
from rummykit.solver.answering import _FAST_MELDS, _MELDS
from rummykit.solver.declaration import declaration
from rummykit.solver.hand import _LAST, _NO_HAND, _hand
from rummykit.solver.openings import best_close, best_opening, opening, opening_points
from rummykit.solver.penalty import card_penalty, least_penalty, opening_and_penalty, penalty_points
from rummykit.solver.questions import (
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
)
from rummykit.solver.searches import BIG, _config, _penalty_search
from rummykit.solver.wild import _wild_choices

#: what rummykit.solver, the bots and the tests import from here (the questions, now in
#: their own modules, stay importable from here)
__all__ = [
    "BIG", "INDIAN_PENALTY", "RAMI51_OPENING", "RAMI71_OPENING", "RUMMY_OPENING",
    "RUMMY_PENALTY", "SIMPLE_OPENING", "Arrangement", "OpeningResult", "OpeningRule",
    "PenaltyRule", "_config", "_hand", "_penalty_search", "_wild_choices", "best_close",
    "best_opening", "card_penalty", "clear_tables", "declaration", "least_penalty", "opening",
    "opening_and_penalty", "opening_points", "penalty_points", "table_entries",
]


def clear_tables() -> None:
    """Forget the cached tables (they rebuild as needed)."""
    core.clear_all()
    fast.clear()
    _MELDS.clear()
    _FAST_MELDS.clear()
    _LAST[0] = _NO_HAND


def table_entries() -> int:
    """How many entries the cached tables hold now."""
    return core.entries() + fast.entries() + len(_MELDS) + len(_FAST_MELDS)
