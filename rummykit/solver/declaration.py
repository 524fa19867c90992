"""The Indian declaration (:func:`declaration`): every card but one (or every card) melded,
with two sequences, one of them pure.

Apart because only Indian rummy asks it, with its own search for a card to leave out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card
from rummykit.errors import InvalidArgument, InvalidMeld, describe
from rummykit.melds import Meld, MeldRules, indian_penalty, make_meld
from rummykit.solver.answering import _left, _run
from rummykit.solver.profiles import F_PURE, F_SEQ
from rummykit.solver.questions import Arrangement, _given
from rummykit.solver.searches import BIG, _config, _two_sequences


def declaration(
    cards: Sequence[Card], melds: MeldRules, discard: bool = True, keep: Card | None = None
) -> Arrangement | None:
    """An Indian declaration: every card but one (``discard``) or every card melded, with at
    least two sequences, one of them pure. ``left`` holds the discard. None when impossible.
    ``keep``: a card that may not be the discard (the one just taken from the pile, when the
    rules forbid throwing it; with two copies in hand one of them may still go).
    """
    _given(cards)
    if type(melds) is not MeldRules:
        raise InvalidArgument(f"melds must be a MeldRules, not {describe(melds)}")
    if keep is not None and type(keep) is not Card:
        raise InvalidArgument(f"keep must be a Card or None, not {describe(keep)}")
    found = _declaration(cards, melds, discard)
    if (
        found is None or keep is None or not discard or keep not in found.left
        or list(cards).count(keep) > 1
    ):
        return found
    # The best declaration throws the card to keep: look for one that throws another.
    cfg = _config(melds, "count", False, BIG, F_SEQ | F_PURE)
    for leave in sorted(set(cards) - {keep}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        got = _run(cfg, rest, melds, _two_sequences)
        if got is not None and got[0] // BIG == len(rest):
            return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    return None


def _declaration(cards: Sequence[Card], melds: MeldRules, discard: bool) -> Arrangement | None:
    cfg = _config(melds, "count", False, BIG, F_SEQ | F_PURE)
    n = len(cards)
    want = n - 1 if discard else n
    got = _run(cfg, cards, melds, _two_sequences)
    if got is None or got[0] // BIG < want:
        return None
    if got[0] // BIG == want:
        return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    # All n cards meld: usually one card can simply be taken off a long meld.
    dropped = _drop_one(got[1], melds)
    if dropped is not None:
        return Arrangement(0, tuple(dropped), _left(cards, dropped))
    # Otherwise find a card to leave out (the highest penalty first).
    order = sorted(
        set(cards), key=lambda c: (-indian_penalty(c, melds.wild_rank), c.index)
    )
    for leave in order:
        rest = list(cards)
        rest.remove(leave)
        got = _run(cfg, rest, melds, _two_sequences)
        if got is not None and got[0] // BIG == n - 1:
            return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    return None


def _drop_one(ms: list[Meld], rules: MeldRules) -> list[Meld] | None:
    """The melds with one card taken off a meld of 4 or more, still two sequences one pure."""
    for i, m in enumerate(ms):
        n = len(m.cards)
        if n < 4:
            continue
        spots = (0, n - 1) if m.kind == "run" else range(n)
        for j in spots:
            try:
                smaller = make_meld(m.cards[:j] + m.cards[j + 1:], rules)
            except InvalidMeld:
                continue
            if smaller.kind == "set" and m.kind == "run":
                # Wild cards left without their run's real card read as a set in the order
                # they had, but may read as a run in the set's own order: read them again, so
                # that the meld is what its cards say (and a run counts as a sequence).
                smaller = make_meld(smaller.cards, rules)
            out = [*ms[:i], smaller, *ms[i + 1:]]
            runs = [x for x in out if x.kind == "run"]
            if len(runs) >= 2 and any(x.pure for x in runs):
                return out
    return None
