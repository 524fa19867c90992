"""The fast path's bounds (step 3 of :mod:`rummykit.solver.fast`): what the cards a branch
still holds can weigh (:func:`_field_weights`), the most ``j`` jokers can add
(:func:`_joker_tops`), and the whole hand's bound (:func:`hand_bound`), which ends a search
that reaches it (:class:`_Reached`).

Apart because both searches (one question, or two partners at once) cut their branches with
them, and each is a proof of its own: never below what an arrangement can reach.
"""

from __future__ import annotations

from operator import add, mul
from typing import Final

from rummykit.solver.config import Config
from rummykit.solver.fast_fields import _ONES, Struct

FieldWeights = tuple[list[int], list[int], int, int]
#: The last hand's field weights: (its structure, the best weights, the field weights).
_NO_FW: Final[tuple[object, object, FieldWeights]] = ((), (), ([], [], 0, 0))
_LAST_FW: list[tuple[object, object, FieldWeights]] = [_NO_FW]


def _field_weights(st: Struct, wr: list[int]) -> FieldWeights:
    """(by the position of a field's lowest bit held: the weight of its copies, of its
    needy copies (so a needy card's own weight is at its field's bit ``2k``); the weight of
    every field card, of the needy ones) for the hand of ``st`` under the best weights
    ``wr``. The questions about a hand come together and the opening and the penalty share
    ``wr``: the last one is kept."""
    last = _LAST_FW[0]
    if last[0] is st and last[1] is wr:
        return last[2]
    (ranks, counts), _, _, _, only, _ = st
    nf = len(ranks)
    wf = list(map(wr.__getitem__, ranks))
    remw = sum(map(mul, counts, wf))
    # A field holds 1 or 2 copies: bit 2k alone, or bit 2k + 1 alone.
    wfb = [0] * (2 * nf)
    wfb[0::2] = wf
    wfb[1::2] = map(add, wf, wf)
    # The cards that need a joker: together they bring in at most ``dm`` per joker.
    if 2 * only.bit_count() > nf:
        # With jokers most fields often need one (nearly every run place is in no natural run
        # of three): every field's weights, less the few others'.
        wfb1 = wfb[:]
        remw1 = remw
        x = _ONES[nf] & ~only
        while x:
            b = x & -x
            x ^= b
            p = b.bit_length() - 1
            wfb1[p] = wfb1[p + 1] = 0
            remw1 -= counts[p >> 1] * wf[p >> 1]
    else:
        wfb1 = [0] * (2 * nf)
        remw1 = 0
        x = only
        while x:
            b = x & -x
            x ^= b
            p = b.bit_length() - 1
            w = wf[p >> 1]
            wfb1[p] = w
            wfb1[p + 1] = w + w
            remw1 += counts[p >> 1] * w
    got = (wfb, wfb1, remw, remw1)
    _LAST_FW[0] = (st, wr, got)
    return got


#: Per question: every place a joker can stand, best value first: ``(value, suit, shift,
#: shift)`` for a run place (the shifts of its two neighbour ranks in the suit vector; 40 for
#: no neighbour), ``(value, 4, shift, 0)`` for a set of a rank.
_SPOTS: dict[Config, list[tuple[int, int, int, int]]] = {}
#: Per question: the value of every place a joker can stand when they are all alike, else 0.
_FLAT: dict[Config, int] = {}


def _joker_tops(cfg: Config, v: list[int], jokers: int, jw: int) -> list[int]:
    """``out[j]``: the most ``j`` jokers can add to an arrangement of the hand (``j`` up to
    ``jokers``), and never more than ``j`` times ``jw``.

    A joker in a run stands next to a natural card of it (no two jokers side by side), and
    runs share no card: at a place, at most as many jokers as natural copies held beside it.
    A set holds at least two natural cards and at most two jokers: at most as many jokers in
    the sets of a rank as its copies held, rounded down to even. So ``j`` jokers stand at
    ``j`` of these places at best, the most valuable ones (a bound, not an arrangement).
    """
    spots = _SPOTS.get(cfg)
    if spots is None:
        found = []
        for s in range(4):
            for p in range(1, 15):
                lo = 2 * (p - 2) if p >= 2 else 40
                hi = 2 * (p if p <= 12 else 0) if p <= 13 else 40
                found.append((cfg.run_jok[p - 1], s, lo, hi))
        for r in range(1, 14):
            found.append((cfg.set_jok[r], 4, 2 * r - 2, 0))
        found.sort(key=lambda x: -x[0])
        spots = _SPOTS[cfg] = found
        _FLAT[cfg] = found[0][0] if found[0][0] == found[-1][0] else 0
    flat = _FLAT[cfg]
    if flat and jokers <= 2 and (v[0] or v[1] or v[2] or v[3]):
        # Every place is worth ``flat`` (the rummy penalty's jokers), and a natural card has
        # two run places beside it (an ace: places 2 and 13), so the walk below would place
        # both jokers at its first places held.
        f = flat if flat < jw else jw
        return [0, f, f + f][: jokers + 1]
    out = [0]
    total = 0
    left = jokers
    v0, v1, v2, v3 = v
    for val, s, a, b in spots:
        if s < 4:
            x = v[s]
            c = (x >> a & 3) + (x >> b & 3)
        else:
            c = ((v0 >> a & 3) + (v1 >> a & 3) + (v2 >> a & 3) + (v3 >> a & 3)) & ~1
        while c and left:
            total += val
            out.append(total)
            c -= 1
            left -= 1
        if not left:
            break
    out += [total] * left
    return [t if t < j * jw else j * jw for j, t in enumerate(out)]


#: Per question: by rank, the best value of a joker within two run places of a card of the
#: rank (the ace at both ends) or in a set of it.
_NEAR: dict[Config, list[int]] = {}


def _needy_ceiling(
    cfg: Config, st: Struct, jt: list[int], jokers: int, sure: int, needy: int
) -> int:
    """The whole hand's bound when it holds cards that can only be melded with a joker
    (weighing ``needy``; the other field cards ``sure``) and every joker could meld them.

    Such a card is in no natural run of three nor set of three suits, so a meld holding it
    holds a joker in a set of its rank or within two places of it in a run (its joker-free
    stretch has at most two cards). So either none is melded, and the jokers add at most
    ``jt[jokers]``; or ``q >= 1`` melds hold them, with ``q`` jokers at most the best such
    value each and the others at most ``jt[jokers - q]``.
    """
    near = _NEAR.get(cfg)
    if near is None:
        near = [0] * 14
        for r in range(1, 14):
            places = [p for p in range(r - 2, r + 3) if 1 <= p <= 14 and p != r]
            if r == 1:
                places += [12, 13]
            near[r] = max([cfg.set_jok[r]] + [cfg.run_jok[p - 1] for p in places])
        _NEAR[cfg] = near
    (ranks, _), _, _, _, only, _ = st
    jn = 0
    x = only
    while x:
        b = x & -x
        x ^= b
        w = near[ranks[(b.bit_length() - 1) >> 1]]
        if w > jn:
            jn = w
    most = jt[jokers]
    for q in range(1, jokers + 1):
        t = needy + q * jn + jt[jokers - q]
        if t > most:
            most = t
    return sure + most


def hand_bound(
    cfg: Config, st: Struct, jt: list[int], jokers: int, remw: int, remw1: int, dm: int
) -> int:
    """The first state's bound: no arrangement of the hand is worth more. ``remw`` weighs
    its field cards at their best (``remw1`` of it the cards that only a joker can meld),
    ``jt`` is :func:`_joker_tops`, ``dm`` the most such cards one joker brings in."""
    if remw1 > jokers * dm:
        return remw - remw1 + jokers * dm + jt[jokers]
    if remw1 and jokers:
        return _needy_ceiling(cfg, st, jt, jokers, remw - remw1, remw1)
    return remw + jt[jokers]


class _Reached(Exception):
    """The search found an arrangement at the upper bound: nothing can beat it."""
