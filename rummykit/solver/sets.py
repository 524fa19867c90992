"""The sets of one rank and a rank's set choices (profile engine, step 2 of
:mod:`rummykit.solver.core`).

:func:`set_patterns` splits a rank's natural cards into sets, :func:`set_profile` weighs them
under a question, and :func:`_rank_options` gives a rank's choices: which of its cards that
could be in a run are kept for sets.

Apart because they depend on one rank's cards alone: the whole-hand search branches on the
choices and joins them with the runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from rummykit.solver.config import Config, _grow, _RankOptions
from rummykit.solver.profiles import EMPTY, F_CM_ONE, F_CSET, F_SET, Profile, merge_max, prune

SetPlan = tuple[tuple[tuple[int, ...], int], ...]
"""The sets of one rank: (suits of the natural cards, jokers) for each set."""

_PATTERNS: dict[tuple[int, tuple[int, ...], int], dict[tuple[int, bool], SetPlan]] = {}


def set_patterns(
    min_real: int, u: tuple[int, ...], singles: int = 0b1100
) -> dict[tuple[int, bool], SetPlan]:
    """Ways to put the natural cards ``u`` (copies per suit) of one rank into sets, by
    (jokers needed, whether a joker-free set is among them), one plan each. A set of one
    natural card takes ``m`` jokers only where ``singles`` has bit ``m`` (:func:`_singles`).
    """
    key = (min_real, u, singles)
    hit = _PATTERNS.get(key)
    if hit is not None:
        return hit
    out: dict[tuple[int, bool], SetPlan] = {}
    first = next((s for s in range(4) if u[s]), None)
    if first is None:
        out[(0, False)] = ()
    else:
        others = [s for s in range(first + 1, 4) if u[s]]
        for mask in range(1 << len(others)):
            group = (first, *(others[i] for i in range(len(others)) if mask >> i & 1))
            k = len(group)
            if k < min_real:
                continue
            rest = list(u)
            for s in group:
                rest[s] -= 1
            tails = set_patterns(min_real, tuple(rest), singles)
            for m in range(max(0, 3 - k), 4 - k + 1):
                if k == 1 and not singles >> m & 1:
                    continue
                clean = k >= 3 and m == 0
                for (tm, tclean), plan in tails.items():
                    key2 = (m + tm, clean or tclean)
                    if key2 not in out:
                        out[key2] = ((group, m), *plan)
    _PATTERNS[key] = out
    return out


def set_profile(cfg: Config, rank: int, u: tuple[int, ...], jcap: int, c_suit: int) -> Profile:
    """Sets of rank ``rank`` using exactly the natural cards ``u``; ``c_suit`` is the suit of
    the must-include card when it has this rank (-1 otherwise). Witness leaves are
    ``("T", rank, plan)``.
    """
    key = (rank, u, jcap, c_suit)
    hit = cfg.set_cache.get(key)
    if hit is not None:
        return hit
    n = sum(u)
    flags0 = F_SET
    if c_suit >= 0 and u[c_suit]:
        flags0 |= F_CM_ONE * min(u[c_suit], 2)
    res: Profile = {}
    for (m, clean), plan in set_patterns(cfg.min_real, u, cfg.singles[rank]).items():
        if m > jcap:
            continue
        flags = flags0 | (F_CSET if clean else 0)
        if m and cfg.joker_must:
            flags |= F_CM_ONE * min(m, 2)
        flags &= cfg.fmask
        k = (m << 8) | flags
        s = n * cfg.set_nat[rank] + m * cfg.set_jok[rank]
        cur = res.get(k)
        if cur is None or s > cur[0]:
            res[k] = (s, ("T", rank, plan))
    res = prune(res)
    _grow()
    cfg.set_cache[key] = res
    return res


_GUARD: Final = 0o4444


def _rank_options(
    cfg: Config, r: int, col: tuple[int, int, int, int], capbits: int, jokers: int, c_s: int
) -> _RankOptions:
    """The set choices of rank ``r`` (natural cards ``col`` per suit; ``capbits``: suits
    whose card could be in a run). Choices with the same effect on the suit vectors are
    merged. Returns ``(profile, None)`` when the choice touches no run-capable card, else
    ``(None, [(delta per suit, profile), ...])``.
    """
    key = (r, col, capbits, jokers, c_s)
    hit = cfg.rank_cache.get(key)
    if hit is not None:
        return hit
    by_delta: dict[tuple[int, int, int, int], Profile] = {}
    shift = 2 * (r - 1)
    for u in _sub_vectors(col):
        p = set_profile(cfg, r, u, jokers, c_s)
        if not p:
            continue
        delta = (
            (u[0] << shift) if capbits & 1 else 0,
            (u[1] << shift) if capbits & 2 else 0,
            (u[2] << shift) if capbits & 4 else 0,
            (u[3] << shift) if capbits & 8 else 0,
        )
        prev = by_delta.get(delta)
        by_delta[delta] = p if prev is None else merge_max(prev, p)
    zero = (0, 0, 0, 0)
    by_delta[zero] = merge_max(by_delta[zero], EMPTY) if zero in by_delta else EMPTY
    res: _RankOptions
    if len(by_delta) == 1:
        res = (prune(by_delta[zero]), None)
    else:
        # A choice means "these run-capable cards are kept for sets" (some may stay in
        # hand), so each choice also offers every smaller choice's sets: the profiles grow
        # with the choice, which lets the search drop choices that cannot matter.
        items = list(by_delta.items())
        # Deltas packed 3 bits per suit (copies 0-2, guard bit 4): d2 <= d component-wise
        # exactly when ((d | guard) - d2) keeps every guard bit.
        packed = [
            (d[0] >> shift) | (d[1] >> shift) << 3 | (d[2] >> shift) << 6
            | (d[3] >> shift) << 9
            for d, _ in items
        ]
        opts = []
        for i, (d, _) in enumerate(items):
            pd = packed[i] | _GUARD
            merged: Profile = {}
            for j, (_, p2) in enumerate(items):
                if (pd - packed[j]) & _GUARD == _GUARD:
                    merged = merge_max(merged, p2) if merged else dict(p2)
            opts.append((d, prune(merged)))
        # A choice that keeps more cards for sets without better sets is never needed: the
        # smaller choice leaves those cards to the runs.
        scores = [{k: v[0] for k, v in p.items()} for _, p in opts]
        kept = []
        for i, (d, p) in enumerate(opts):
            pd = packed[i] | _GUARD
            sc = scores[i]
            if not any(
                j != i and (pd - packed[j]) & _GUARD == _GUARD and scores[j] == sc
                for j in range(len(opts))
            ):
                kept.append((d, p))
        res = (None, kept) if len(kept) > 1 else (kept[0][1], None)
    _grow()
    cfg.rank_cache[key] = res
    return res


def _sub_vectors(col: tuple[int, int, int, int]) -> Iterator[tuple[int, ...]]:
    """Every non-zero vector below ``col`` (component-wise)."""
    for a in range(col[0] + 1):
        for b in range(col[1] + 1):
            for c in range(col[2] + 1):
                for d in range(col[3] + 1):
                    if a or b or c or d:
                        yield (a, b, c, d)
