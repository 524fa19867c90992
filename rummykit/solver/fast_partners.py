"""The fast path's partner questions (step 4 of :mod:`rummykit.solver.fast`, and both
partners in one search). The rummy opening and the rummy penalty weigh cards alike but for low
aces and jokers: one's answer is the other's (:func:`_same_values`) or bounds it
(:func:`_seed`), and both can be found in one search (:func:`_solve_pair`, over chains valued
under both: :func:`_pair_chains`).

Apart because the shared search is a second copy of :func:`rummykit.solver.fast._solve`'s
steps on purpose (see :func:`_solve_pair`): a single question keeps its own, leaner search.
"""

from __future__ import annotations

from operator import mul
from typing import Final

from rummykit.solver.config import Config
from rummykit.solver.fast_bounds import _field_weights, _joker_tops, _Reached, hand_bound
from rummykit.solver.fast_candidates import (
    _ENTRIES,
    _SETS,
    _TABLES,
    Entry,
    Result,
    _chains,
    _entry,
    _items,
    _key_bounds,
    _set_table,
    _tables,
)
from rummykit.solver.fast_fields import STRUCT_LIMIT, Struct

#: Per (question, partner): how much more than the partner a natural card of each rank and
#: a joker can weigh in the question (0 when less), and whether any card can.
_SLACK: dict[tuple[Config, Config], tuple[list[int], int, bool]] = {}


def _slack(cfg: Config, hint: Config) -> tuple[list[int], int, bool]:
    got = _SLACK.get((cfg, hint))
    if got is None:
        rn = [max(0, a - b) for a, b in zip(cfg.run_nat, hint.run_nat, strict=True)]
        sn = [max(0, a - b) for a, b in zip(cfg.set_nat, hint.set_nat, strict=True)]
        per = [0] + [max(sn[r], rn[r - 1], rn[13] if r == 1 else 0) for r in range(1, 14)]
        dj = max(
            [0]
            + [a - b for a, b in zip(cfg.run_jok, hint.run_jok, strict=True)]
            + [a - b for a, b in zip(cfg.set_jok[1:], hint.set_jok[1:], strict=True)]
        )
        got = _SLACK[(cfg, hint)] = (per, dj, any(per))
    return got


def _seed(
    cfg: Config, hint: Config, res: Result, ranks: list[int], counts: list[int], jokers: int
) -> tuple[int, int]:
    """The value under ``cfg`` of the partner's arrangement ``res`` (its answer under
    ``hint``), spare jokers moved to its best slots under ``cfg``, and an upper bound on the
    answer: no arrangement is worth more under ``cfg`` than under ``hint`` plus what its
    cards can weigh more (the *slack*: the field cards and the jokers at their largest
    difference), so none beats the partner's score plus the slack.
    """
    per, dj, anyn = _slack(cfg, hint)
    bound = res[0] + dj * jokers
    if anyn:
        bound += sum(map(mul, counts, map(per.__getitem__, ranks)))
    table = _ENTRIES.get(cfg)
    if table is None or len(table) > STRUCT_LIMIT:
        table = _ENTRIES[cfg] = {}
    val = 0
    slots: list[int] = []
    for step in res[3]:
        vkey = step[0]
        e = table.get(vkey)
        if e is None:
            e = table[vkey] = _entry(cfg, vkey)
        val += e[2]
        slots += e[3]
    spare = res[4]
    if spare:
        slots.sort(reverse=True)
        val += sum(slots[:spare])
    return val, bound


#: Per pair of questions: the run places (bit ``p - 1``) and the set ranks (bit ``r``) where
#: a natural card weighs differently, and whether a joker ever does.
_DIFFER: dict[tuple[Config, Config], tuple[int, int, bool]] = {}


def _same_values(
    cfg: Config, other: Config, runs: list[tuple[int, int, int, int]], ranks: list[int],
    jokers: int,
) -> bool:
    """Whether every arrangement of the hand is worth the same under both questions: no
    joker weighs differently (or there are none), no run can cover a place where a card
    weighs differently, no rank with a different set weight is held."""
    got = _DIFFER.get((cfg, other))
    if got is None:
        got = _DIFFER[(cfg, other)] = (
            sum(1 << i for i in range(14) if cfg.run_nat[i] != other.run_nat[i]),
            sum(1 << r for r in range(1, 14) if cfg.set_nat[r] != other.set_nat[r]),
            cfg.run_jok != other.run_jok or cfg.set_jok[1:] != other.set_jok[1:],
        )
    places, setr, jok = got
    if jokers and jok:
        return False
    if places:
        for run in runs:
            if run[1] & places:
                return False
    if setr:
        for r in ranks:
            if setr >> r & 1:
                return False
    return True


#: A chain under two questions: a :data:`Cand` followed by the second question's value, slot
#: values and entry.
PairCand = tuple[int, int, int, int, tuple[int, ...], int, Entry, int, tuple[int, ...], Entry]
#: The chains of :func:`_chain_entries` under two questions (as there, by lowest field), each
#: question's best joker value and the most natural weight one needed joker brings in.
PairChains = tuple[list[tuple[int, list[PairCand]]], int, int, int]
#: Per pair of questions, by (run places, jokers).
_PAIR_CHAINS: dict[tuple[Config, Config], dict[tuple[int, int], PairChains]] = {}


def _pair_chains(cfg: Config, other: Config, rc: int, jc: int) -> PairChains:
    """The chains of a segment (see :func:`_chain_entries`) with both questions' values.

    Built from :func:`_chains` directly, not from each question's :func:`_chain_entries`
    (one pass over the chains instead of three: a new segment is met by about one hand in
    two, and this was a twelfth of a median hand's work). The natural bound weight and the
    jokers needed are the same under both (partners weigh natural cards alike at their
    best), so one most natural weight per needed joker serves both."""
    per = _PAIR_CHAINS.get((cfg, other))
    if per is None:
        per = _PAIR_CHAINS[(cfg, other)] = {}
    hit = per.get((rc, jc))
    if hit is None:
        ta = _ENTRIES.get(cfg)
        if ta is None or len(ta) > STRUCT_LIMIT:
            ta = _ENTRIES[cfg] = {}
        tb = _ENTRIES.get(other)
        if tb is None or len(tb) > STRUCT_LIMIT:
            tb = _ENTRIES[other] = {}
        jwa = jwb = dm = 0
        groups = []
        # As in :func:`_chain_entries`: tabled from place 1, moved to the segment's places.
        d = 0 if rc & 0x2000 else (rc & -rc).bit_length() - 1
        for i, grp in enumerate(_chains(rc >> d, jc)):
            if not grp:
                continue
            out = []
            for t, vkey in grp:
                vkey += 17 * d
                a = ta.get(vkey)
                if a is None:
                    a = ta[vkey] = _entry(cfg, vkey)
                b = tb.get(vkey)
                if b is None:
                    b = tb[vkey] = _entry(other, vkey)
                out.append((t, a[1], a[0], a[2], a[3], vkey, a, b[2], b[3], b))
                if a[4] > jwa:
                    jwa = a[4]
                if b[4] > jwb:
                    jwb = b[4]
                if a[1] and -(-a[0] // a[1]) > dm:
                    dm = -(-a[0] // a[1])
            groups.append((i, out))
        if len(per) > STRUCT_LIMIT:
            per.clear()
        hit = per[(rc, jc)] = (groups, jwa, jwb, dm)
    return hit


#: More than any score: a best at its bound is beaten by nothing.
_NEVER: Final = 1 << 62


def _solve_pair(
    cfg: Config, other: Config, v: list[int], jokers: int, st: Struct
) -> tuple[Result, Result]:
    """The answers of two partner questions in one search: a branch is cut only when it can
    beat neither best, a state is skipped only when reached before with no less under both;
    so each answer is the first arrangement of its most value in search order, as its own
    search finds it.

    Its search is :func:`_solve`'s with two values, two slot lists and two bounds per step.
    It is a second copy on purpose: run with one question, it would cost the single
    questions (the bots ask thousands a move) the second question's bookkeeping at every
    step; a change to one search's steps belongs in both. ``st``: the hand's
    :func:`structure`, which the caller has at hand."""
    (ranks, _), runs, setb, full, only, setkey = st
    if not full:
        return (0, 0, [], [], 0), (0, 0, [], [], 0)
    wr = (_TABLES.get(cfg) or _tables(cfg))[0]
    if (_TABLES.get(other) or _tables(other))[0] is not wr:
        raise AssertionError("partner questions weigh natural cards alike at their best")
    nf = len(ranks)
    runb: list[tuple[list[PairCand], int, int] | None] = [None] * nf
    jwa = jwb = dm = 0
    pairs = _PAIR_CHAINS.get((cfg, other)) or {}
    for s, rc, jc, off in runs:
        groups, ja, jb, da = pairs.get((rc, jc)) or _pair_chains(cfg, other, rc, jc)
        if ja > jwa:
            jwa = ja
        if jb > jwb:
            jwb = jb
        if da > dm:
            dm = da
        sh = 2 * off
        for i, grp in groups:
            runb[off + i] = (grp, sh, s)
    # The set tables and bounds looked up here, not through a function (two calls a hand).
    stab, sbounds, _, _ = _SETS.get(cfg) or _set_table(cfg)
    sja, sda = sbounds.get(setkey) or _key_bounds(cfg, setkey)
    stab2, sbounds, _, _ = _SETS.get(other) or _set_table(other)
    sjb, sdb = sbounds.get(setkey) or _key_bounds(other, setkey)
    if sja > jwa:
        jwa = sja
    if sjb > jwb:
        jwb = sjb
    if sda > dm:
        dm = sda
    if sdb > dm:
        dm = sdb
    wfb, wfb1, remw, remw1 = _field_weights(st, wr)
    jta = _joker_tops(cfg, v, jokers, jwa) if jokers > 1 else [0, jwa]
    jtb = _joker_tops(other, v, jokers, jwb) if jokers > 1 else [0, jwb]
    besta = bestb = -1
    # What a branch must beat: the best so far, or nothing once a best is at its bound.
    lima = limb = -1
    patha: list[tuple[int, int, Entry, Entry]] = []
    pathb: list[tuple[int, int, Entry, Entry]] = []
    lefta = leftb = sparea = spareb = 0
    topa = hand_bound(cfg, st, jta, jokers, remw, remw1, dm)
    topb = hand_bound(other, st, jtb, jokers, remw, remw1, dm)
    path: list[tuple[int, int, Entry, Entry]] = []
    seen: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}
    keep = ~(only | only << 1)

    def search(
        rem: int, jl: int, ca: int, cb: int, remw: int, remw1: int,
        ta: tuple[int, ...], tb: tuple[int, ...],
    ) -> None:
        nonlocal besta, bestb, lima, limb, patha, pathb, lefta, leftb, sparea, spareb
        if jl:
            key = (rem, jl, ta, tb)
            got = seen.get(key)
            if got is not None and got[0] >= ca and got[1] >= cb:
                return
            seen[key] = (ca, cb) if got is None else (max(ca, got[0]), max(cb, got[1]))
            ja = jta[jl]
            jb = jtb[jl]
            jd = jl * dm
            # As in :func:`_solve`: the caller tested the first step's bound, and with no
            # joker left it took the cards that need one out of the state.
            if remw1 > jd:
                r = remw - remw1 + jd
                if ca + r + ja <= lima and cb + r + jb <= limb:
                    return
        else:
            ja = jb = jd = 0
        if rem:
            while True:
                low = rem & -rem
                p = low.bit_length() - 1
                k = p >> 1
                pres = rem | (rem >> 1)
                rb = runb[k]
                if rb is not None:
                    grp, sh, su = rb
                    p2 = pres >> sh
                    for t, need, cw, va, sa, vkey, e, vb, sb2, e2 in grp:
                        if t & p2 == t and need <= jl:
                            j2 = jl - need
                            w = remw - cw
                            if ca + va + w + jta[j2] <= lima and cb + vb + w + jtb[j2] <= limb:
                                continue
                            t <<= sh
                            if not j2:
                                ta2: tuple[int, ...] = ()
                                tb2: tuple[int, ...] = ()
                            else:
                                if sa:
                                    ta2 = (
                                        tuple(sorted(ta + sa, reverse=True)[:j2]) if ta else sa[:j2]
                                    )
                                else:
                                    ta2 = ta[:j2]
                                if sb2:
                                    tb2 = (
                                        tuple(sorted(tb + sb2, reverse=True)[:j2]) if tb
                                        else sb2[:j2]
                                    )
                                else:
                                    tb2 = tb[:j2]
                            needy = t & only
                            c1 = 0
                            while needy:
                                b = needy & -needy
                                needy ^= b
                                c1 += wfb1[b.bit_length() - 1]
                            r2 = rem - t
                            if not j2 and remw1 > c1:
                                # As in :func:`_solve`: the cards that need a joker leave here.
                                w -= remw1 - c1
                                if ca + va + w <= lima and cb + vb + w <= limb:
                                    continue
                                r2 &= keep
                                c1 = remw1
                            path.append((vkey, su, e, e2))
                            search(r2, j2, ca + va, cb + vb, w, remw1 - c1, ta2, tb2)  # noqa: F821
                            path.pop()
                sb = setb[k]
                if sb is not None:
                    for cons, need, sr, so, si in sb:
                        if cons & pres == cons and need <= jl:
                            cw, va, sa, vkey, e = stab[si]
                            _, vb, sb2, _, e2 = stab2[si]
                            j2 = jl - need
                            w2 = remw - cw
                            if ca + va + w2 + jta[j2] <= lima and cb + vb + w2 + jtb[j2] <= limb:
                                continue
                            if not j2:
                                ta2 = ()
                                tb2 = ()
                            else:
                                if sa:
                                    ta2 = (
                                        tuple(sorted(ta + sa, reverse=True)[:j2]) if ta else sa[:j2]
                                    )
                                else:
                                    ta2 = ta[:j2]
                                if sb2:
                                    tb2 = (
                                        tuple(sorted(tb + sb2, reverse=True)[:j2]) if tb
                                        else sb2[:j2]
                                    )
                                else:
                                    tb2 = tb[:j2]
                            needy = cons & only  # as in :func:`_solve`
                            c1 = needy.bit_count() * wr[si & 15] if needy else 0
                            r2 = rem - cons
                            if so:
                                left = (r2 | (r2 >> 1)) & sr
                                x = left & (left - 1)
                                if not x or (not j2 and not x & (x - 1)):
                                    dead = left & so
                                    while dead:
                                        b = dead & -dead
                                        dead ^= b
                                        q = b.bit_length() - 1
                                        if not r2 & b:
                                            q += 1
                                        r2 &= ~(b | (b << 1))
                                        w2 -= wfb[q]
                                        c1 += wfb1[q]
                                    if (
                                        ca + va + w2 + jta[j2] <= lima
                                        and cb + vb + w2 + jtb[j2] <= limb
                                    ):
                                        continue
                            if not j2 and remw1 > c1:
                                w2 -= remw1 - c1
                                if ca + va + w2 <= lima and cb + vb + w2 <= limb:
                                    continue
                                r2 &= keep
                                c1 = remw1
                            path.append((vkey, 0, e, e2))
                            search(r2, j2, ca + va, cb + vb, w2, remw1 - c1, ta2, tb2)  # noqa: F821
                            path.pop()
                rem -= low
                if not rem:
                    break
                remw -= wfb[p]
                remw1 -= wfb1[p]
                r = remw - remw1 + jd if remw1 > jd else remw
                if ca + r + ja <= lima and cb + r + jb <= limb:
                    return
        ca += sum(ta)
        cb += sum(tb)
        if ca > besta:
            besta = lima = ca
            if ca == topa:
                lima = _NEVER
            patha = path[:]
            lefta = jl
            sparea = len(ta)
        if cb > bestb:
            bestb = limb = cb
            if cb == topb:
                limb = _NEVER
            pathb = path[:]
            leftb = jl
            spareb = len(tb)
        if lima == limb == _NEVER:
            raise _Reached

    try:  # noqa: SIM105
        search(full, jokers, 0, 0, remw, remw1, (), ())
    except _Reached:
        pass
    del search
    # The paths are kept as they are (a hint reads only their variant keys): most answers
    # place no spare joker, and their keys come from the paths directly.
    if sparea:
        ka = _items([(a, b, c) for a, b, c, _ in patha], sparea)
    else:
        ka = [vkey << 6 | suit << 2 | e[5] for vkey, suit, e, _ in patha]
    if spareb:
        kb = _items([(a, b, d) for a, b, _, d in pathb], spareb)
    else:
        kb = [vkey << 6 | suit << 2 | e[5] for vkey, suit, _, e in pathb]
    return (
        (besta, jokers - lefta + sparea, ka, patha, sparea),
        (bestb, jokers - leftb + spareb, kb, pathb, spareb),
    )
