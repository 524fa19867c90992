"""Fast exact path for the questions without rule flags under rummy meld rules.

It answers what :func:`rummykit.solver.core.solve` answers for a question whose score is a sum
of per-card weights and whose rule accepts every arrangement (the rummy and Rami 51 opening and
close without a taken card, the rummy penalty), when melds need 2 real cards and jokers may not
stand side by side (rummy and the Rami variants), without wild ranks.

1. **Fields.** The cards that could be in some meld (a card of the same suit within two places,
   or of the same rank in another suit; without jokers: a run of three, a set of three suits)
   each get a 2-bit *field* (copies held) in one small int, suit by suit, in rank order. The
   other cards stay in hand whatever happens.
2. **Candidate melds.** A run is a *chain*: natural cards of one suit, each one or two places
   after the previous one (two places: a joker in the gap); a set is two or more suits of one
   rank. Each candidate is a bitmask of the fields it takes (one copy each), the jokers it
   needs at least (gaps; a run of two cards needs one at an end; a set of two suits, one), its
   value, and its *slots*: where a spare joker may still go (each end of a run, the fourth
   card of a set) with their values. Chains depend only on the suit's run places: they are
   kept per segment no chain crosses (and per cut of jokers), shifted into place, and their
   values per question; so the tables are shared from hand to hand. A hand's sets are built
   once for all its questions, their values looked up per question.
3. **Branch and bound.** The lowest card still held is either melded by a candidate whose
   lowest card it is, or stays in hand (every copy). Spare jokers are not placed during the
   search: the best slots of the chosen melds are kept (as many as jokers remain) and counted
   when the arrangement is complete. A branch stops when what it has, plus every card it still
   holds at its best weight (the cards that need a joker bring in at most the densest
   candidate's weight per joker left), plus the ``j`` jokers left at the ``j`` best places a
   joker can stand in the hand (next to a natural card of a run, beside as many jokers as
   natural copies; in a set of a rank, as many as its copies rounded down to even; never
   more than the best joker value of the hand each), cannot beat the best arrangement found;
   or when the same cards, jokers and slots were reached before with at least the same
   value. The search stops when it finds an arrangement worth the whole hand's bound (see
   :func:`_needy_ceiling` for hands with cards that only a joker can meld). When
   a set leaves too few cards of its rank for another set, the rank's cards that can only be
   in a set stay in hand at once (out of the bound, and states differing only in them are
   one); so do the cards that only a joker can meld once no joker is left. A state's first
   step leaves its bound test to the caller, which made the same test on choosing the meld.
4. **Partner answers.** The rummy opening and the rummy penalty weigh a melded card alike
   but for a low ace and a joker. When one of them is asked about a hand whose other answer
   is known: if no run of the hand can hold a low ace and it has no joker, every
   arrangement is worth the same under both and the other's answer is this one's (the
   search would go the same way). Otherwise the other's arrangement (spare jokers moved to
   the best slots) is a floor: only arrangements worth at least as much are searched; and
   the other's score plus what the hand's cards and jokers can weigh more is a ceiling: the
   search stops when it reaches it.

The answer is the first arrangement of the most value in search order, whatever the bounds:
a bound never cuts it, since until it is found everything found is worth less. So the answer
to a question is a function of the hand alone, not of what was asked before (the melds
reported among equals too).

Exact: every arrangement of the hand is a path (its melds taken lowest card first, spare jokers
in slots), a branch is dropped only when it cannot do strictly better than what is found, and
among arrangements of equal value the first found is kept.

This module holds the search (:func:`solve`, step 3) and the emptying and count of the fast
path's tables. Its parts are apart, a module each: a hand's fields and sets
(:mod:`~rummykit.solver.fast_fields`, step 1), the candidate melds and their values
(:mod:`~rummykit.solver.fast_candidates`, step 2), the bounds
(:mod:`~rummykit.solver.fast_bounds`) and the partner answers
(:mod:`~rummykit.solver.fast_partners`, step 4, and both partners in one search).
"""

from __future__ import annotations

from typing import Final

from rummykit.solver.config import Config
from rummykit.solver.fast_bounds import (
    _FLAT,
    _LAST_FW,
    _NEAR,
    _NO_FW,
    _SPOTS,
    _field_weights,
    _joker_tops,
    _Reached,
    hand_bound,
)
from rummykit.solver.fast_candidates import (
    _CHAIN_ENTRIES,
    _CHAINS,
    _ENTRIES,
    _SETS,
    _TABLES,
    _WR,
    Cand,
    Entry,
    Result,
    _chain_entries,
    _items,
    _key_bounds,
    _set_table,
    _tables,
    _weights,
    item,
)
from rummykit.solver.fast_fields import _STRUCT, _SUIT, STRUCT_LIMIT, structure
from rummykit.solver.fast_partners import (
    _DIFFER,
    _PAIR_CHAINS,
    _SLACK,
    _same_values,
    _seed,
    _solve_pair,
)

#: what the solver's other modules and the tests use from here (a hand's structure, the
#: bounds and the melds of an answer, now in their own modules, stay importable from here)
__all__ = [
    "PAIR_JOKERS", "_FLAT", "_field_weights", "_joker_tops", "_weights", "clear", "entries",
    "hand_bound", "item", "solve", "structure",
]


#: Up to this many jokers a hand's partner questions share one search; with more, the
#: second question's own search, bounded by the first's answer, does less work.
PAIR_JOKERS: Final = 2
_RESULTS: dict[Config, dict[tuple[int, int, int, int, int], Result]] = {}


def clear() -> None:
    """Forget the cached candidates and values."""
    _STRUCT.clear()
    _SUIT.clear()
    _RESULTS.clear()
    _CHAINS.clear()
    _ENTRIES.clear()
    _CHAIN_ENTRIES.clear()
    _PAIR_CHAINS.clear()
    _TABLES.clear()
    _WR.clear()
    _SPOTS.clear()
    _FLAT.clear()
    _NEAR.clear()
    _SLACK.clear()
    _DIFFER.clear()
    _SETS.clear()
    _LAST_FW[0] = _NO_FW


def entries() -> int:
    return (
        len(_STRUCT) + len(_SUIT) + len(_CHAINS) + sum(len(v) for v in _ENTRIES.values())
        + sum(len(v) for v in _RESULTS.values())
        + sum(len(v) for v in _CHAIN_ENTRIES.values())
        + sum(len(v) for v in _PAIR_CHAINS.values())
        + sum(len(t) + len(b) + len(lo) + len(hi) for t, b, lo, hi in _SETS.values())
    )


def solve(cfg: Config, v: list[int], m: list[int], jokers: int, pair: bool = False) -> Result:
    """``(score, jokers used, melds, ...)`` of the best arrangement; melds are keys of
    :func:`item`. Answers are kept (the engine asks about one hand several times a turn).
    When a partner question (``cfg.partners``) was answered on the same hand, its answer is
    this one's or bounds the search (see :func:`_same_values` and :func:`_seed`). With
    ``pair``, a caller that will ask the partner question next, both are answered at once
    (see :func:`_solve_pair`).
    """
    results = _RESULTS.get(cfg)
    if results is None:
        results = _RESULTS[cfg] = {}
    rkey = (v[0], v[1], v[2], v[3], jokers)
    got = results.get(rkey)
    if got is None:
        if len(results) > STRUCT_LIMIT:
            results.clear()
        hint = None
        for other in cfg.partners:
            known = _RESULTS.get(other)
            res = known.get(rkey) if known is not None else None
            if res is not None:
                hint = (other, res)
                break
        if pair and hint is None and cfg.partners and jokers <= PAIR_JOKERS:
            # Neither answer is known: one search answers both (they come together). When
            # every arrangement weighs the same under both, that is one plain search.
            other = cfg.partners[0]
            # A new hand, nearly always: :func:`structure` looks its table up itself.
            st = structure(v[0], v[1], v[2], v[3], m, jokers)
            if _same_values(cfg, other, st[1], st[0][0], jokers):
                got = res2 = _solve(cfg, v, m, jokers, None)
            else:
                got, res2 = _solve_pair(cfg, other, v, jokers, st)
            results[rkey] = got
            known = _RESULTS.get(other)
            if known is None:
                known = _RESULTS[other] = {}
            elif len(known) > STRUCT_LIMIT:
                known.clear()
            known[rkey] = res2
        else:
            got = results[rkey] = _solve(cfg, v, m, jokers, hint)
    return got


def _solve(
    cfg: Config, v: list[int], m: list[int], jokers: int,
    hint: tuple[Config, Result] | None,
) -> Result:
    # The tables' hits are looked up here, not through their functions: a Python call costs
    # several hundred instructions, and a short search's setup makes a dozen of them.
    st = _STRUCT.get((v[0], v[1], v[2], v[3], jokers)) or structure(
        v[0], v[1], v[2], v[3], m, jokers
    )
    (ranks, counts), runs, setb, full, only, setkey = st
    if not full:
        return 0, 0, [], [], 0
    seed = None
    if hint is not None:
        other, res = hint
        if _same_values(cfg, other, runs, ranks, jokers):
            # Every candidate of this hand weighs the same under both questions: the search
            # would go exactly as the partner's did.
            return res
        seed = _seed(cfg, other, res, ranks, counts, jokers)
    wr = (_TABLES.get(cfg) or _tables(cfg))[0]
    nf = len(ranks)
    # At each field: the chains whose lowest card it is (templates of its suit, shifted); the
    # sets whose lowest card it is come with the hand's structure, their values from ``stab``.
    runb: list[tuple[list[Cand], int, int] | None] = [None] * nf
    jw = dm = 0
    chains = _CHAIN_ENTRIES.get(cfg) or {}
    for s, rc, jc, off in runs:
        groups, jm, dmax = chains.get((rc, jc)) or _chain_entries(cfg, rc, jc)
        if jm > jw:
            jw = jm
        if dmax > dm:
            dm = dmax
        sh = 2 * off
        for i, grp in groups:
            runb[off + i] = (grp, sh, s)
    stab, sbounds, _, _ = _SETS.get(cfg) or _set_table(cfg)
    sjw, sdm = sbounds.get(setkey) or _key_bounds(cfg, setkey)
    if sjw > jw:
        jw = sjw
    if sdm > dm:
        dm = sdm
    wfb, wfb1, remw, remw1 = _field_weights(st, wr)
    # What the jokers left can add: by the places they can stand when there are two or more
    # (with one, that is the best joker value ``jw`` nearly always).
    jt = _joker_tops(cfg, v, jokers, jw) if jokers > 1 else [0, jw]
    best = -1
    best_path: list[tuple[int, int, Entry]] = []
    best_left = best_spare = 0
    # The search stops at the bound of the whole hand (the first state's) or, with a
    # partner's answer, at the partner's bound if lower; and with a partner's answer only
    # arrangements worth at least its arrangement are searched. The answer is still the
    # first arrangement of the most value in search order, as without either (what is cut
    # could not reach that value), so it does not depend on what was asked before.
    top_value = hand_bound(cfg, st, jt, jokers, remw, remw1, dm)
    if seed is not None:
        best = seed[0] - 1
        if seed[1] < top_value:
            top_value = seed[1]
    path: list[tuple[int, int, Entry]] = []
    seen: dict[tuple[int, int, tuple[int, ...]], int] = {}
    keep = ~(only | only << 1)  # every field but those of the cards that need a joker

    def search(
        rem: int, jl: int, cur: int, remw: int, remw1: int, top: tuple[int, ...]
    ) -> None:
        nonlocal best, best_path, best_left, best_spare
        if jl:
            key = (rem, jl, top)
            if seen.get(key, -1) >= cur:
                return
            seen[key] = cur
            jj = jt[jl]
            jd = jl * dm
            # The caller tested this state's bound before calling (the first state's cannot
            # cut), as the first step would: it is tighter only when the cards that only a
            # joker can meld weigh more than the jokers left can meld.
            if remw1 > jd and cur + remw - remw1 + jd + jj <= best:
                return
        else:
            # No joker left: the caller took the cards that need one out of the state (see
            # below), so ``remw1`` is 0 and the bound is the caller's.
            jj = jd = 0
        if rem:
            while True:
                low = rem & -rem
                p = low.bit_length() - 1
                k = p >> 1
                # Candidates take the low bits of fields: no need to mask the high ones.
                pres = rem | (rem >> 1)
                rb = runb[k]
                if rb is not None:
                    grp, sh, su = rb
                    p2 = pres >> sh
                    for t, need, cw, val, slots, vkey, e in grp:
                        if t & p2 == t and need <= jl:
                            j2 = jl - need
                            if cur + val + remw - cw + jt[j2] <= best:
                                continue
                            t <<= sh
                            # After the meld: the best ``j2`` free slots (its slots joined to
                            # ``top``, best first) and the weight of its cards that can only be
                            # melded with a joker (inline: the search's innermost step).
                            if not j2:
                                t2: tuple[int, ...] = ()
                            elif slots:
                                t2 = tuple(sorted(top + slots, reverse=True)[:j2]) if top else (
                                    slots[:j2]
                                )
                            else:
                                t2 = top[:j2]
                            needy = t & only
                            c1 = 0
                            while needy:
                                b = needy & -needy
                                needy ^= b
                                c1 += wfb1[b.bit_length() - 1]
                            r2 = rem - t
                            w = remw - cw
                            if not j2 and remw1 > c1:
                                # No joker left: the cards that need one stay in hand. They
                                # leave the next state here (nothing can meld them, so its
                                # steps at their fields would only repeat its bound), and
                                # the bound they lower is tested here rather than by a call.
                                w -= remw1 - c1
                                if cur + val + w <= best:
                                    continue
                                r2 &= keep
                                c1 = remw1
                            path.append((vkey, su, e))
                            search(r2, j2, cur + val, w, remw1 - c1, t2)  # noqa: F821 (its cell is emptied below)
                            path.pop()
                sb = setb[k]
                if sb is not None:
                    for cons, need, sr, so, si in sb:
                        if cons & pres == cons and need <= jl:
                            cw, val, slots, vkey, e = stab[si]
                            j2 = jl - need
                            if cur + val + remw - cw + jt[j2] <= best:
                                continue
                            # The runs' step above, inline again (a call here costs more than
                            # the step itself).
                            if not j2:
                                t2 = ()
                            elif slots:
                                t2 = tuple(sorted(top + slots, reverse=True)[:j2]) if top else (
                                    slots[:j2]
                                )
                            else:
                                t2 = top[:j2]
                            # A set's cards are of one rank (``si & 15``), alike in weight:
                            # its needy ones weigh that weight each (no walk).
                            needy = cons & only
                            c1 = needy.bit_count() * wr[si & 15] if needy else 0
                            r2 = rem - cons
                            w2 = remw - cw
                            if so:
                                # The rank's cards that can only be in a set are dead when
                                # too few of its fields are left for another set: they stay
                                # in hand (out of the bound and of the state).
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
                                    # They lowered the bound: tested here, since the next
                                    # state leaves its first step's test to its caller.
                                    if cur + val + w2 + jt[j2] <= best:
                                        continue
                            if not j2 and remw1 > c1:
                                # As for the runs: the cards that need a joker leave here.
                                w2 -= remw1 - c1
                                if cur + val + w2 <= best:
                                    continue
                                r2 &= keep
                                c1 = remw1
                            path.append((vkey, 0, e))
                            search(r2, j2, cur + val, w2, remw1 - c1, t2)  # noqa: F821 (its cell is emptied below)
                            path.pop()
                # Every copy of this card stays in hand (its field is its lowest bit alone).
                rem -= low
                if not rem:
                    break
                remw -= wfb[p]
                remw1 -= wfb1[p]
                if remw1 > jd:
                    if cur + remw - remw1 + jd + jj <= best:
                        return
                elif cur + remw + jj <= best:
                    return
        cur += sum(top)
        if cur > best:
            best = cur
            best_path = path[:]
            best_left = jl
            best_spare = len(top)
            if cur == top_value:
                raise _Reached

    # A try statement, not contextlib.suppress: free when nothing is raised, where the
    # context manager makes three Python calls (1.7 % of the median hand's instructions).
    try:  # noqa: SIM105
        search(full, jokers, 0, remw, remw1, ())
    except _Reached:
        pass
    if seed is not None and best < seed[0]:
        raise AssertionError("the partner's arrangement was not found again")
    # The closure refers to itself through its cell: emptying the cell frees it without the
    # garbage collector (a server feels every collection as latency).
    del search
    return (
        best, jokers - best_left + best_spare, _items(best_path, best_spare), best_path,
        best_spare,
    )
