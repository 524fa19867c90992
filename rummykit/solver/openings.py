"""The opening questions: the best opening (:func:`best_opening`), the lay-everything close
(:func:`best_close`), both for the opening meter (:func:`opening`), the points only
(:func:`opening_points`), and the cases where a card must stay in hand (``keep``, the card
just taken; a Rami opening that would lay every card).

Apart from the penalty and the declaration: an
:class:`~rummykit.solver.questions.OpeningRule` judges these.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from rummykit.cards import Card
from rummykit.errors import InvalidArgument, InvalidHand, describe
from rummykit.melds import RUMMY_MELDS, Meld, MeldRules
from rummykit.solver.answering import _fast_answer, _left, _run, _score
from rummykit.solver.questions import (
    RUMMY_OPENING,
    Arrangement,
    OpeningResult,
    OpeningRule,
    _check_must,
    _given,
    _rules_given,
)
from rummykit.solver.searches import BIG, _opening_search


def best_opening(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> Arrangement | None:
    """The most valuable lay-down meeting the rule's structure (joker-free run and set,
    taken card inside) and leaving ``rule.keep`` cards, whatever the minimum; None when no
    lay-down meets the structure. Without structure demands the answer is never None
    (possibly no melds, 0 points).

    ``keep``: a card that may not be thrown this turn (the one just taken from the pile,
    when it is not owed to the table): a lay-down may not leave it as the only card in hand,
    so the answer lays it or leaves another card beside it (see :func:`_checked_keep`).
    """
    _given(cards)
    _check_must(cards, must_include)
    if keep is not None:
        keep = _checked_keep(cards, must_include, keep)
    got = _best_opening(cards, rule, melds, must_include)
    if keep is not None and got is not None and got.melds and (
        got.left == (keep,) or (rule.keep and not got.left)
    ):
        return _opening_keeping(cards, rule, melds, keep)
    if rule.keep and got is not None and not got.left:
        return _keeping_one(cards, rule, melds, must_include)
    return got


def _checked_keep(cards: Sequence[Card], must: Card | None, keep: Card) -> Card | None:
    """``keep`` checked (a card of the hand), or None where it does not constrain: held twice
    (one copy may go: the other one stays), or the card the lay-down must include anyway."""
    if type(keep) is not Card:
        raise InvalidArgument(f"keep must be a Card or None, not {describe(keep)}")
    count = list(cards).count(keep)
    if not count:
        raise InvalidHand(f"the card to keep, {keep.text}, is not in the hand")
    if count > 1 or keep is must:
        return None
    if must is not None:
        # Not asked by the engine: a card owed to the table is the card taken, the one kept.
        raise InvalidArgument(
            f"keep ({keep.text}) and must_include ({must.text}) must be the same card when both "
            "are given: the card taken from the pile is the one a lay-down must include"
        )
    return keep


def _opening_keeping(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, keep: Card
) -> Arrangement | None:
    """The best opening that does not leave ``keep`` alone in hand (nor, under
    ``rule.keep``, an empty hand), when the best of all does: every such opening lays
    ``keep``, or leaves it with some other card ``c``, and is then an opening of the hand
    without ``c``; so the best is the best of those questions (the first among equals: the
    one laying ``keep``, then ``c`` in index order). Rare: only a card just taken that
    completes nothing, beside a hand that melds whole."""
    best = best_opening(cards, _laid_freely(rule), melds, keep)
    for leave in sorted(set(cards) - {keep}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        got = _best_opening(rest, rule, melds, None)
        if got is not None and got.melds and (best is None or got.points > best.points):
            best = got
    if best is None:
        # No lay-down at all: as for a hand without one, no melds where the rule takes that.
        _, accept = _opening_search(rule, melds, None)
        return Arrangement(0, (), tuple(cards)) if accept(0) else None
    return Arrangement(best.points, best.melds, _left(cards, best.melds))


def _best_opening(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must_include: Card | None
) -> Arrangement | None:
    """:func:`best_opening` whatever it leaves in hand."""
    cfg, accept = _opening_search(rule, melds, must_include)
    # The score is the melds' opening value (the tests check it against Meld.value).
    if cfg.fast and must_include is None:
        score, fms, left, _, _ = _fast_answer(cfg, cards, melds)
        return Arrangement(score, fms, left)
    got = _run(cfg, cards, melds, accept, must_include)
    if got is None:
        return None
    score, ms = got
    return Arrangement(score, tuple(ms), _left(cards, ms))


def _keeping_one(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must_include: Card | None
) -> Arrangement | None:
    """The best opening leaving a card, when the best of all lays every card: an opening
    that leaves some card ``c`` is an opening of the other cards, so the best one is the
    best over each card left out in turn (the first in index order among equals). Rare: a
    hand that melds whole, in a variant that wins by discarding."""
    best: Arrangement | None = None
    for rest in _each_left_out(cards):
        if must_include is not None and must_include not in rest:
            continue
        got = _best_opening(rest, rule, melds, must_include)
        if got is not None and (best is None or got.points > best.points):
            best = got
    if best is None:
        return None
    return Arrangement(best.points, best.melds, _left(cards, best.melds))


def _each_left_out(cards: Sequence[Card]) -> Iterator[list[Card]]:
    """The hand without one card, for each of its cards in index order (a copy held twice
    once): where the best of all melds every card and one must stay in hand."""
    for leave in sorted(set(cards), key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        yield rest


def opening_points(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
) -> int | None:
    """``best_opening(...).points`` without building the melds (the opening meter)."""
    _given(cards)
    _rules_given(rule, OpeningRule, melds)
    if rule.keep:
        # Whether the best lays every card needs its melds.
        got = best_opening(cards, rule, melds, must_include)
        return None if got is None else got.points
    _check_must(cards, must_include)
    cfg, accept = _opening_search(rule, melds, must_include)
    return _score(cfg, cards, melds, accept, must_include)


def best_close(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> Arrangement | None:
    """The lay-everything close: all cards but ``rule.close_leaves`` melded at once, meeting
    the structure rules; the most cards melded first, then the most points. None if none.
    ``keep``: as for :func:`best_opening`, a card the close may not leave alone in hand.
    """
    _given(cards)
    _check_must(cards, must_include)
    if keep is not None:
        return _close_keeping(cards, rule, melds, must_include, keep)
    cfg, accept = _opening_search(rule, melds, must_include, BIG)
    n = len(cards)
    got = _run(cfg, cards, melds, accept, must_include)
    if got is None:
        return None
    score, ms = got
    melded = score // BIG
    if not ms:
        return None  # a close lays at least one meld
    if n - melded in rule.close_leaves:
        return _close_of(cards, ms, rule)
    if melded != n or 1 not in rule.close_leaves:
        return None
    # Everything melds but the rule wants one card left: leave out each card in turn.
    best: tuple[int, list[Meld]] | None = None
    for rest in _each_left_out(cards):
        got = _run(cfg, rest, melds, accept, must_include)
        if got is not None and got[0] // BIG == n - 1 and (best is None or got[0] > best[0]):
            best = got
    if best is None:
        return None
    return _close_of(cards, best[1], rule)


def _close_keeping(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must: Card | None, keep: Card
) -> Arrangement | None:
    """:func:`best_close` with a card ``keep`` it may not leave alone in hand."""
    kept = _checked_keep(cards, must, keep)
    got = best_close(cards, rule, melds, must)
    if kept is None or got is None or got.left != (kept,):
        return got
    # The best close melds every card but ``kept``: a close laying it and leaving one other
    # card, if any, melds as many and is the answer; only where a close may leave two cards
    # or more (a house rule) can one melding fewer be the best.
    best = best_close(cards, _laid_freely(rule), melds, kept)
    if (best is not None and len(best.left) == 1) or max(rule.close_leaves, default=0) < 2:
        return best
    # The closes leaving ``keep`` and other cards (a house rule lets a close leave two or
    # more): each leaves some card ``c`` and is a close of the hand without ``c`` leaving
    # one card fewer.
    shifted = _close_shifted(rule)
    for leave in sorted(set(cards) - {kept}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        other = best_close(rest, shifted, melds)
        if other is not None and (
            best is None or (len(other.left) + 1, -other.points) < (len(best.left), -best.points)
        ):
            best = Arrangement(other.points, other.melds, _left(cards, other.melds))
    return best


def _close_shifted(rule: OpeningRule) -> OpeningRule:
    """``rule`` for a hand one card short, that card staying in hand: its close leaves one
    card fewer."""
    return _derived(rule, "shifted", close_leaves=tuple(n - 1 for n in rule.close_leaves if n))


def _laid_freely(rule: OpeningRule) -> OpeningRule:
    """``rule`` for a lay-down that must include a card it is free to lay anywhere: the card
    kept (not owed to the table) is no taken card that a joker-free run must do without
    (``clean_run_without_taken`` holds a card owed, as the engine judges it)."""
    if not rule.clean_run_without_taken:
        return rule
    return _derived(rule, "free", clean_run_without_taken=False)


def _derived(rule: OpeningRule, what: str, **changes: object) -> OpeningRule:
    # Made once per rule: the searches are tabled by the rule's identity.
    hit = _DERIVED.get((rule, what))
    if hit is None:
        hit = _DERIVED[rule, what] = replace(rule, **changes)  # type: ignore[arg-type]
    return hit


_DERIVED: dict[tuple[OpeningRule, str], OpeningRule] = {}


def _close_of(cards: Sequence[Card], ms: list[Meld], rule: OpeningRule) -> Arrangement:
    points = sum(m.value(rule.jokers_zero) for m in ms)
    return Arrangement(points, tuple(ms), _left(cards, ms))


def opening(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> OpeningResult:
    """Both answers of the opening meter: the best lay-down and the best close; with
    ``keep`` (the card just taken from the pile, which may not be thrown), those that do not
    leave it alone in hand (see :func:`best_opening`)."""
    close = best_close(cards, rule, melds, must_include, keep)
    best = close if rule.close_only else best_opening(cards, rule, melds, must_include, keep)
    return OpeningResult(rule, best, close)
