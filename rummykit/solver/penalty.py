"""The penalty questions: the least penalty (:func:`least_penalty`, and the points only:
:func:`penalty_points`), one card's penalty (:func:`card_penalty`), and the opening and the
penalty found in one search (:func:`opening_and_penalty`).

Apart from the openings: a :class:`~rummykit.solver.questions.PenaltyRule` judges these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rummykit.cards import FACES, Card
from rummykit.melds import RUMMY_MELDS, MeldRules, indian_penalty, rummy_penalty
from rummykit.solver import core
from rummykit.solver.answering import _Built, _fast_answer, _left, _run, _score
from rummykit.solver.hand import _INDEX, _hand
from rummykit.solver.openings import best_opening
from rummykit.solver.questions import (
    RUMMY_OPENING,
    RUMMY_PENALTY,
    Arrangement,
    OpeningRule,
    PenaltyRule,
    _given,
    _rules_given,
)
from rummykit.solver.searches import _opening_search, _penalty_search

_RUMMY_PENALTIES: Final = tuple(rummy_penalty(c) for c in FACES)


def card_penalty(c: Card, rule: PenaltyRule, wild_rank: int = 0) -> int:
    """The penalty of one card left in hand under ``rule``."""
    if type(c) is not Card or type(rule) is not PenaltyRule:
        # Checked here, not in the loops that sum a hand (they index by card).
        _given((c,))
        _rules_given(rule, PenaltyRule, RUMMY_MELDS)
    if rule.scoring == "indian":
        return indian_penalty(c, wild_rank)
    return _RUMMY_PENALTIES[c.index]


def _penalty_sum(cards: Iterable[Card], rule: PenaltyRule, wild_rank: int) -> int:
    if rule.scoring == "indian":
        return sum(indian_penalty(c, wild_rank) for c in cards)
    return sum(map(_RUMMY_PENALTIES.__getitem__, map(_INDEX, cards)))


def least_penalty(
    cards: Sequence[Card],
    rule: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> Arrangement:
    """The arrangement leaving the least penalty; ``points`` is that penalty (capped)."""
    _given(cards)
    cfg, accept = _penalty_search(rule, melds)
    if cfg.fast:
        return _fast_penalty(cfg, cards, rule, melds)
    got = _run(cfg, cards, melds, accept)
    ms = tuple(got[1]) if got is not None else ()
    left = _left(cards, ms)
    # What the cards left weigh.
    points = _penalty_sum(left, rule, melds.wild_rank)
    if rule.cap is not None:
        points = min(points, rule.cap)
    return Arrangement(points, ms, left)


def _fast_penalty(
    cfg: core.Config, cards: Sequence[Card], rule: PenaltyRule, melds: MeldRules,
    known: _Built | None = None,
) -> Arrangement:
    """:func:`least_penalty` on the fast path (``known``: see :func:`_fast_answer`)."""
    # The search scored what the melds save (every card melded at its penalty): the cards
    # left weigh the rest of the hand.
    saved, ms, left, hand, _ = _fast_answer(cfg, cards, melds, False, known)
    total = hand[2] if rule.scoring == "rummy" else _penalty_sum(cards, rule, melds.wild_rank)
    points = total - saved
    if rule.cap is not None:
        points = min(points, rule.cap)
    return Arrangement(points, ms, left)


def penalty_points(
    cards: Sequence[Card],
    rule: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> int:
    """``least_penalty(...).points`` without building the melds (end-of-deal scoring)."""
    _given(cards)
    _rules_given(rule, PenaltyRule, melds)
    if rule.scoring == "rummy":
        total = _hand(cards)[2]  # read with the hand (the search reads it again for free)
    else:
        total = _penalty_sum(cards, rule, melds.wild_rank)
    cfg, accept = _penalty_search(rule, melds)
    got = _score(cfg, cards, melds, accept)
    points = total - (got or 0)
    return points if rule.cap is None else min(points, rule.cap)


def opening_and_penalty(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    penalty: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> tuple[Arrangement | None, Arrangement]:
    """``(best_opening(cards, rule, melds), least_penalty(cards, penalty, melds))``: the same
    answers, found in one search when the two questions weigh cards alike but for low aces
    and jokers (the rummy opening and penalty), which costs less than two."""
    _given(cards)
    ocfg, _ = _opening_search(rule, melds, None)
    pcfg, _ = _penalty_search(penalty, melds)
    if pcfg not in ocfg.partners or rule.keep:
        return best_opening(cards, rule, melds), least_penalty(cards, penalty, melds)
    # The opening's search answers the penalty too (``pair``); the penalty then reads it.
    score, oms, oleft, _, keys = _fast_answer(ocfg, cards, melds, True)
    return (
        Arrangement(score, oms, oleft),
        _fast_penalty(pcfg, cards, penalty, melds, (keys, oms, oleft)),
    )
