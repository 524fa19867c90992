"""The runs of one suit (profile engine, step 1 of :mod:`rummykit.solver.core`).

A suit is cut into segments no run can cross (:func:`_segments`); each is solved by recursion
on its lowest card (:func:`_runs`), whose runs are tabled by the places held above it
(:func:`_run_shapes`). The tables do not depend on the suit, so the four suits share them.

Apart because the runs of a suit depend only on the suit's cards, the jokers and the
question: the whole-hand search asks for them and joins them, nothing more.
"""

from __future__ import annotations

from typing import Final

from rummykit.solver.config import _CACHE_LIMIT, Config, _grow, _Shape
from rummykit.solver.profiles import (
    EMPTY,
    F_CM_ONE,
    F_CRC,
    F_PURE,
    Profile,
    combine,
    join_flags,
    merge_max,
    prune,
)


def suit_profile(cfg: Config, v: int, jcap: int, c_rank: int) -> Profile:
    """Best runs of one suit: ``v`` holds 2 bits per rank (rank ``r`` at bit ``2 * (r - 1)``).

    ``c_rank`` is the rank of the must-include card when it is of this suit (0 otherwise).
    Witness leaves are ``("R", start_place, length, joker_mask)``. The suit is cut into
    segments no run can cross (gaps wider than the jokers can bridge); each segment has its
    own cached table.
    """
    key = (v, jcap, c_rank)
    cache = cfg.suit_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    res: Profile = EMPTY
    for seg in _segments(v, jcap, cfg.adjacent):
        c = c_rank if c_rank and (seg >> (2 * (c_rank - 1))) & 3 else 0
        res = combine(res, _segment_profile(cfg, seg, jcap, c), jcap)
    if len(res) > 1:
        res = prune(res)
    _grow()
    cache[key] = res
    return res


_SEGMENTS: dict[tuple[int, int, bool], list[int]] = {}


def _segments(v: int, jcap: int, adjacent: bool) -> list[int]:
    """``v`` cut where no run can cross: a gap of ``gap`` empty places or more."""
    key = (v, jcap, adjacent)
    hit = _SEGMENTS.get(key)
    if hit is None:
        if len(_SEGMENTS) > _CACHE_LIMIT:
            _SEGMENTS.clear()
        hit = _SEGMENTS[key] = _cut(v, jcap, adjacent)
    return hit


def _cut(v: int, jcap: int, adjacent: bool) -> list[int]:
    gap = 1 if jcap == 0 else (jcap + 1 if adjacent else 2)
    segs: list[int] = []
    cur = 0
    empty = 0
    for r in range(13):
        bits = (v >> (2 * r)) & 3
        if bits:
            if cur and empty >= gap:
                segs.append(cur)
                cur = 0
            cur |= bits << (2 * r)
            empty = 0
        else:
            empty += 1
    if cur:
        segs.append(cur)
    # The ace reaches the king's side too: join the first and the last segment when the
    # gap from the king's side to the high ace is bridgeable.
    if len(segs) > 1 and v & 3:
        top = segs[-1]
        high = (top.bit_length() + 1) // 2  # highest rank present in the last segment
        if 14 - high <= gap:
            segs = [segs[0] | top, *segs[1:-1]]
    return segs


def _segment_profile(cfg: Config, v: int, jcap: int, c_rank: int) -> Profile:
    key = (v, jcap, c_rank)
    cache = cfg.seg_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    aces = v & 3
    rest = v & ~3
    if aces == 0:
        res = _runs(cfg, v, jcap, c_rank)
    else:
        res = {}
        for low in range(aces + 1):
            vec = rest | low | ((aces - low) << 26)
            res = merge_max(res, _runs(cfg, vec, jcap, c_rank))
        res = prune(res)
    _grow()
    cache[key] = res
    return res


def _runs(cfg: Config, vec: int, jcap: int, c_rank: int) -> Profile:
    """Runs over the 14 places (place ``i + 1`` at bits ``2i``; the ace split already made):
    the lowest card stays in hand, or it is the lowest natural card of a run
    (:func:`_run_shapes`), joined with the best runs of the cards that run leaves."""
    if vec == 0:
        return EMPTY
    key = (vec, jcap, c_rank)
    memo = cfg.run_cache
    hit = memo.get(key)
    if hit is not None:
        return hit
    low = ((vec & -vec).bit_length() - 1) >> 1
    rest0 = vec - (1 << (2 * low))
    res: Profile = dict(_runs(cfg, rest0, jcap, c_rank))
    get = res.get
    top = (jcap << 8) + 255
    for delta, jshift, row, score, leaf in _run_shapes(cfg, rest0, low, jcap, c_rank):
        sub = _runs(cfg, rest0 - delta, jcap, c_rank)
        if row is None:
            lim = top + 1 - jshift
            for k, (s, w) in sub.items():
                if k >= lim:
                    continue
                nk = k + jshift
                ns = s + score
                cur = get(nk)
                if cur is None or ns > cur[0]:
                    res[nk] = (ns, (leaf, w) if w is not None else leaf)
            continue
        for k, (s, w) in sub.items():
            nk = (k & ~255) + jshift
            if nk > top:
                continue
            nk |= row[k & 255]
            ns = s + score
            cur = get(nk)
            if cur is None or ns > cur[0]:
                res[nk] = (ns, (leaf, w) if w is not None else leaf)
    res = prune(res)
    _grow()
    memo[key] = res
    return res

_JOIN_ROWS: dict[int, tuple[int, ...]] = {}


def _join_row(a: int) -> tuple[int, ...]:
    """``join_flags(a, b)`` for every ``b`` (one look-up per entry joined to a run)."""
    row = _JOIN_ROWS.get(a)
    if row is None:
        row = _JOIN_ROWS[a] = tuple(join_flags(a, b) for b in range(256))
    return row


def _run_shapes(cfg: Config, rest0: int, low: int, jcap: int, c_rank: int) -> list[_Shape]:
    """The runs whose lowest natural card is the one at place ``low + 1`` (taken out of the
    cards ``rest0`` already), in the order the search joins them. A run takes one card per
    place, so they depend only on the places above ``low`` held in ``rest0``, not on how
    many copies: many of the residual cards a dense suit leaves share them (tabled per
    question, since scores and flags are the question's).

    A run grows place by place with a natural card or a joker (within the joker limits),
    optionally with jokers before it."""
    above = (rest0 | rest0 >> 1) & _PLACES & -(4 << (2 * low))  # places above ``low``
    key = (above, low, jcap, c_rank)
    cache = cfg.shape_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    min_real = cfg.min_real
    adjacent = cfg.adjacent
    run_nat = cfg.run_nat
    run_jok = cfg.run_jok
    fmask = cfg.fmask
    c_split = cfg.c_split
    joker_must = cfg.joker_must
    c_places = (c_rank - 1, 13) if c_rank == 1 else ((c_rank - 1,) if c_rank else ())
    # With jokers side by side allowed and weighing alike at every place, a run opening with
    # jokers that has room above it is the run starting at its first natural card with those
    # jokers moved to its top end: the same cards, score and flags (only the witness
    # differs), which the search also finds. Only runs pushed against the top need them.
    slide = adjacent and min(run_jok) == max(run_jok)
    # Jokers weighing nothing besides (the Indian penalty): a run ending with a joker is
    # worth no more than the run without it, which uses fewer jokers (and is as long as 3
    # cards when this one is longer), with flags no worse.
    trim = slide and max(run_jok) <= 0
    out: list[_Shape] = []

    def close(taken: int, start: int, length: int, jk: int, score: int, mask: int,
              has_c: bool) -> None:
        if slide and mask & 1 and start + length + (mask ^ (mask + 1)).bit_length() <= 15:
            return
        if trim and length > 3 and mask >> (length - 1):
            return
        flags = 1
        if jk == 0:
            flags |= F_CRC if (has_c and c_split) else F_PURE
        elif joker_must:
            flags |= F_CM_ONE * min(jk, 2)
        if has_c:
            flags |= F_CM_ONE
        flags &= fmask
        out.append((taken, jk << 8, _join_row(flags) if flags else None, score,
                    ("R", start + 1, length, mask)))

    def extend(
        q: int,
        taken: int,
        start: int,
        length: int,
        nat: int,
        jk: int,
        last_joker: bool,
        score: int,
        mask: int,
        has_c: bool,
        tgt: int,
    ) -> None:
        if tgt >= q:
            # A run opening with jokers is closed only when it reaches place ``tgt + 1``
            # (pushed against the top, see ``slide``): stop when the jokers left cannot
            # fill the places missing up to there.
            held = (above >> (2 * q)) & ((1 << (2 * (tgt - q + 1))) - 1)
            if tgt - q + 1 - held.bit_count() > jcap - jk:
                return
        if length >= 3 and nat >= min_real:
            close(taken, start, length, jk, score, mask, has_c)
            if trim and not above >> (2 * q):
                # Only jokers can follow: every longer run ends with one (``trim``).
                return
        if q > 13 or length >= 13:
            return
        if above >> (2 * q) & 1:
            extend(  # noqa: F821 (its cell is emptied below)
                q + 1, taken + (1 << (2 * q)), start, length + 1, nat + 1, jk, False,
                score + run_nat[q], mask, has_c or q in c_places, tgt,
            )
        if jk < jcap and (adjacent or not last_joker):
            extend(  # noqa: F821 (its cell is emptied below)
                q + 1, taken, start, length + 1, nat, jk + 1, True,
                score + run_jok[q], mask | (1 << (q - start)), has_c, tgt,
            )

    has_c0 = low in c_places
    for pre in range(min(cfg.max_pre, jcap, low) + 1):
        if slide and pre and low < 2:
            break  # 13 places from ``low - pre`` stop short of the top (see ``tgt``)
        start = low - pre
        pre_score = sum(run_jok[start:low])
        extend(
            low + 1, 0, start, pre + 1, 1, pre, False,
            pre_score + run_nat[low], (1 << pre) - 1, has_c0,
            14 - pre if slide and pre else 0,
        )
    # ``extend`` refers to itself through its cell: emptying the cell frees both helpers
    # without the garbage collector (a server feels every collection as latency).
    del extend
    _grow()
    cache[key] = out
    return out


#: The low bit of each of the 14 places' 2-bit fields.
_PLACES: Final = 0x5555555
