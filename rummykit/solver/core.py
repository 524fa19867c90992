"""The search engine behind the solver: per-suit run tables, per-rank set options, profiles.

A hand is four suit vectors (the count, 0 to 2, of every rank of the suit) and a number of
jokers. Runs live inside one suit; sets live inside one rank; jokers are a count shared by all.
The engine therefore

1. solves the runs of one suit exactly, segment by segment (parts of the suit no run can
   cross), once per distinct segment (the tables do not depend on the suit, so the four suits
   share them), giving a *profile*: for every number of jokers used and every combination of
   the rule flags (how many runs, a joker-free run, ...), the best score and one arrangement
   reaching it (its *witness*);
2. decides, rank by rank, which run-capable cards are kept for sets -- only for ranks where a
   card could be in a run and in a set; other ranks are solved on their own. A segment is
   solved as soon as the last rank touching it is decided, and the search is memoized on the
   segments still open (a frontier search);
3. joins the profiles of the sets and of the segments, keeping the joker total within the
   hand's jokers, and keeps the best entry the rule accepts.

Scores are sums of per-card weights (opening values, penalties, or a large constant per card
when what matters is melding everything), so one engine answers every question. Everything
here is exact: no heuristic ever drops an arrangement that could be better.

This module holds the search over the whole hand (:func:`solve`: steps 2 and 3), the runs of
wild cards alone (:func:`wild_runs`), the melds of a witness (:func:`flatten`), and the
emptying and count of every table of the engine. What it joins is apart, a module each: the
flags and profiles (:mod:`~rummykit.solver.profiles`), a question's configuration
(:mod:`~rummykit.solver.config`), the runs of a suit (:mod:`~rummykit.solver.runs`) and the
sets of a rank (:mod:`~rummykit.solver.sets`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.solver.config import (
    _CACHE_LIMIT,
    _CONFIGS,
    TABLE_LIMIT,
    Config,
    _grow,
    _stored,
    config,
)
from rummykit.solver.profiles import (
    EMPTY,
    F_CM,
    F_CM_ONE,
    F_CRC,
    F_CSET,
    F_PURE,
    F_SEQ,
    F_SET,
    Profile,
    Witness,
    combine,
    merge_max,
    prune,
)
from rummykit.solver.runs import _SEGMENTS, _join_row, _run_shapes, _segments, suit_profile
from rummykit.solver.sets import _PATTERNS, _rank_options

#: what the solver's other modules and the tests use from here (the flags, a question's
#: configuration and the run tables, now in their own modules, stay importable from here)
__all__ = [
    "F_CM", "F_CM_ONE", "F_CRC", "F_CSET", "F_PURE", "F_SEQ", "F_SET", "TABLE_LIMIT", "Config",
    "_join_row", "_run_shapes", "clear_all", "config", "entries", "flatten", "solve",
    "wild_runs",
]


def clear_all() -> None:
    """Empty every cached table (they refill as needed)."""
    for cfg in _CONFIGS.values():
        cfg.clear()
    _SEGMENTS.clear()
    _STILL.clear()
    _PATTERNS.clear()
    _stored[0] = 0


def entries() -> int:
    """Entries held by the cached tables."""
    return (
        sum(cfg.table_entries() for cfg in _CONFIGS.values())
        + len(_SEGMENTS) + len(_STILL) + len(_PATTERNS)
    )


def _capable_mask(m: int, jokers: int, min_real: int, adjacent: bool) -> int:
    """Ranks (bit ``r - 1``) among the ranks held ``m`` whose cards could stand in a run."""
    if not m:
        return 0
    m14 = m | ((m & 1) << 13)  # places 1..14 at bits 0..13, the ace at both ends
    if jokers == 0:
        w = m14 & (m14 >> 1) & (m14 >> 2)
        cap = (w | (w << 1) | (w << 2)) & m14
    elif min_real <= 1 and jokers >= 2:
        cap = m14
    else:
        reach = (jokers if adjacent else 1) + 1
        near = 0
        for d in range(1, reach + 1):
            near |= (m14 << d) | (m14 >> d)
        cap = m14 & near
    return (cap | (cap >> 13)) & 0x1FFF


Accept = Callable[[int], bool]


def spread(mask: int) -> int:
    """A 13-bit rank mask to the 2-bit-per-rank layout (each rank's field all ones)."""
    x = mask
    x = (x | (x << 8)) & 0x00FF00FF
    x = (x | (x << 4)) & 0x0F0F0F0F
    x = (x | (x << 2)) & 0x33333333
    x = (x | (x << 1)) & 0x55555555
    return x * 3


def solve(
    cfg: Config,
    vs_all: Sequence[int],
    masks: Sequence[int],
    jokers: int,
    accept: Accept,
    must: tuple[int, int] | None = None,
    anchors: int = 0,
) -> tuple[int, int, Witness] | None:
    """The best accepted arrangement of a hand: ``vs_all[suit]`` holds 2 bits per rank (the
    copies held, rank ``r`` at bit ``2 * (r - 1)``), ``masks[suit]`` the ranks held (bit
    ``r - 1``), plus ``jokers`` jokers; ``accept`` sees the key ``jokers_used << 8 | flags``.
    ``must`` is the (rank, suit) of the must-include card. Returns ``(score, key, witness)``
    or None when no arrangement is accepted.

    ``anchors``: how many of the jokers are wild cards that may also stand as the one real
    card of a run made otherwise of jokers (:func:`wild_runs`; the caller makes sure such a
    card weighs what a joker weighs, see ``wild._wild_choices``).

    Answers are cached (the engine asks about the same hand several times a turn: opening
    meter, legal actions, the one-tap Open, the bots).
    """
    rkey = (vs_all[0], vs_all[1], vs_all[2], vs_all[3], jokers, must, accept, anchors)
    cache = cfg.result_cache
    if rkey in cache:
        return cache[rkey]
    if _stored[0] > TABLE_LIMIT:
        # Emptied between questions, never in the middle of a search, which would then
        # rebuild what it had just made (one Indian question took 84 ms that way, not 1.5).
        clear_all()
    got = _solve(cfg, vs_all, masks, jokers, accept, must, anchors)
    _grow()
    cache[rkey] = got
    return got


def wild_runs(cfg: Config, jokers: int, anchors: int) -> Profile:
    """Runs made of wild cards and jokers only, outside the suits: each run has one wild card
    standing at its own place (its one real card) and jokers around it, so a run of ``k``
    cards uses ``k`` of the jokers (the wild card among them) and weighs ``k`` joker weights.
    Witness leaves are ``("V", lengths)``; the caller picks the wild cards when it builds
    the melds.

    At most two such runs: two of them that are not the only runs of the arrangement join
    into one (at most 13 cards, since ``jokers <= 13``) without lowering the run count, which
    the flags cap at 2; without :data:`F_SEQ` in the flags, any two join.
    """
    w = cfg.run_jok[0]
    res: Profile = {0: (0, None)}
    if anchors >= 1:
        for k in range(3, jokers + 1):
            res[(k << 8) | (1 & cfg.fmask)] = (k * w, ("V", (k,)))
    if anchors >= 2 and cfg.fmask & F_SEQ:
        for k in range(6, jokers + 1):
            res[(k << 8) | 2] = (k * w, ("V", (3, k - 3)))
    return res


def _solve(
    cfg: Config,
    vs_all: Sequence[int],
    masks: Sequence[int],
    jokers: int,
    accept: Accept,
    must: tuple[int, int] | None,
    anchors: int,
) -> tuple[int, int, Witness] | None:
    c_rank, c_suit = must if must else (0, -1)
    min_real = cfg.min_real
    adjacent = cfg.adjacent
    m0, m1, m2, m3 = masks
    capm = [
        _capable_mask(m0, jokers, min_real, adjacent),
        _capable_mask(m1, jokers, min_real, adjacent),
        _capable_mask(m2, jokers, min_real, adjacent),
        _capable_mask(m3, jokers, min_real, adjacent),
    ]
    vs = [vs_all[s] & spread(capm[s]) for s in range(4)]
    need = max(cfg.set_min, 3 - jokers, 1)
    if need == 1:
        pot = m0 | m1 | m2 | m3
    elif need == 2:
        pot = (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
    else:
        pot = (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))

    indep: Profile = EMPTY
    if anchors:
        indep = wild_runs(cfg, jokers, anchors)
    branching: list[list[tuple[tuple[int, int, int, int], Profile]]] = []
    branch_rank: list[int] = []
    while pot:
        low = pot & -pot
        pot ^= low
        r = low.bit_length()
        shift = 2 * (r - 1)
        col = (
            (vs_all[0] >> shift) & 3,
            (vs_all[1] >> shift) & 3,
            (vs_all[2] >> shift) & 3,
            (vs_all[3] >> shift) & 3,
        )
        b = r - 1
        capbits = (
            (capm[0] >> b & 1) | (capm[1] >> b & 1) << 1 | (capm[2] >> b & 1) << 2
            | (capm[3] >> b & 1) << 3
        )
        alone, options = _rank_options(
            cfg, r, col, capbits, jokers, c_suit if r == c_rank else -1
        )
        if options is None:
            assert alone is not None
            indep = combine(indep, alone, jokers)
        else:
            branching.append(options)
            branch_rank.append(r)
    if len(indep) > 1:
        indep = prune(indep)

    # Cut every suit into segments no run crosses. A branching rank only touches the
    # segments holding it, so the ranks are decided in order and a segment is solved as
    # soon as its last branching rank is decided (a frontier search, memoized on the
    # residuals of the segments still open).
    nb = len(branching)
    if nb == 0:
        total = indep
        for s in range(4):
            if vs[s]:
                p = _wrapped(cfg, s, vs[s], jokers, c_rank if s == c_suit else 0)
                total = combine(total, p, jokers)
        return _best(total, accept)
    seg_suit: list[int] = []
    seg_vec: list[int] = []
    seg_c: list[int] = []
    for s in range(4):
        if not vs[s]:
            continue
        for seg in _segments(vs[s], jokers, adjacent):
            seg_suit.append(s)
            seg_vec.append(seg)
            has_c = s == c_suit and (seg >> (2 * (c_rank - 1))) & 3
            seg_c.append(c_rank if has_c else 0)
    first = [nb] * len(seg_vec)
    last = [-1] * len(seg_vec)
    # touches[i]: (suit, segment) pairs rank i may change.
    touches: list[list[tuple[int, int]]] = []
    fulls: list[tuple[int, ...]] = []
    for i, options in enumerate(branching):
        here: list[tuple[int, int]] = []
        full = tuple(max(d[s] for d, _ in options) for s in range(4))
        fulls.append(full)
        bits = 3 << (2 * (branch_rank[i] - 1))
        for s in range(4):
            if full[s]:
                for k, seg in enumerate(seg_vec):
                    if seg_suit[k] == s and seg & bits:
                        here.append((s, k))
                        first[k] = min(first[k], i)
                        last[k] = max(last[k], i)
        touches.append(here)
    closing: list[list[int]] = [[] for _ in range(nb)]
    for k in range(len(seg_vec)):
        if last[k] < 0:
            indep = combine(indep, _wrapped(cfg, seg_suit[k], seg_vec[k], jokers, seg_c[k]),
                            jokers)
        else:
            closing[last[k]].append(k)
    open_at = [
        [k for k in range(len(seg_vec)) if first[k] < i <= last[k]] for i in range(nb + 1)
    ]
    flagless = not cfg.fmask
    jlim = jokers << 8
    memo: dict[tuple[int, ...], Profile] = {}
    wmemo: dict[tuple[int, ...], Profile] = {}

    def closed(i: int, t: tuple[int, ...]) -> Profile:
        """The runs of the segments closing at rank ``i``, joined (prefixes shared: the
        choices of one rank often leave the first segments alike)."""
        ks = closing[i]
        if len(ks) == 1:
            k = ks[0]
            return _wrapped(cfg, seg_suit[k], t[k], jokers, seg_c[k])
        w = EMPTY
        key: tuple[int, ...] = (i,)
        for k in ks:
            key = (*key, t[k])
            hit = wmemo.get(key)
            if hit is None:
                hit = wmemo[key] = combine(
                    w, _wrapped(cfg, seg_suit[k], t[k], jokers, seg_c[k]), jokers
                )
            w = hit
        return w

    def rec(i: int, resid: tuple[int, ...]) -> Profile:
        if i == nb:
            return EMPTY
        key = (i, *(resid[k] for k in open_at[i]))
        hit = memo.get(key)
        if hit is not None:
            return hit
        options = branching[i]
        r = branch_rank[i]
        full = fulls[i]
        forced = [
            s for s, k in touches[i]
            if not _still_capable(resid[k], r, jokers, min_real, adjacent)
        ]
        if forced:
            # Those cards can no longer be in any run: whatever the choice, take them out
            # of the suits (they are in a set or stay in hand) and merge equal choices.
            merged: dict[tuple[int, int, int, int], Profile] = {}
            for d, p in options:
                d2 = (
                    full[0] if 0 in forced else d[0],
                    full[1] if 1 in forced else d[1],
                    full[2] if 2 in forced else d[2],
                    full[3] if 3 in forced else d[3],
                )
                prev = merged.get(d2)
                merged[d2] = p if prev is None else merge_max(prev, p)
            options = list(merged.items())
        out: Profile = {}
        cl = closing[i]
        bound: Profile | None = None
        if flagless and len(options) > 1 and i + 1 < nb:
            # Bound: a choice keeping cards for sets leaves the runs a subset of what the
            # smallest choice leaves them, so its runs are no better than the smallest
            # choice's. A choice whose sets joined with those runs cannot beat what the
            # choices before it reach (for every number of jokers) changes nothing: skip it.
            # (Only where a skip saves the search of the ranks after this one.)
            d0 = options[0][0]
            for d, _ in options:
                d0 = (min(d0[0], d[0]), min(d0[1], d[1]), min(d0[2], d[2]), min(d0[3], d[3]))
            new = list(resid)
            for s, k in touches[i]:
                new[k] -= d0[s]
            t0 = tuple(new)
            bound = rec(i + 1, t0)  # noqa: F821 (its cell is emptied below)
            if cl:
                bound = combine(closed(i, t0), bound, jokers)
            kb0 = min(bound)
            b0 = bound[kb0][0]
        for delta, p in options:
            if bound is not None and out:
                # Cheap test first: the pair with the fewest jokers must already be matched.
                kp = min(p)
                if kp + kb0 <= jlim and p[kp][0] + b0 <= max(
                    [v[0] for v in out.values()]
                ) and _covered(
                    combine(p, bound, jokers), out, jokers
                ):
                    continue
            new = list(resid)
            for s, k in touches[i]:
                new[k] -= delta[s]
            t = tuple(new)
            if cl:
                p = combine(p, closed(i, t), jokers)
            p = combine(p, rec(i + 1, t), jokers)  # noqa: F821 (its cell is emptied below)
            out = merge_max(out, p) if out else p
        if len(out) > 1:
            out = prune(out)
        memo[key] = out
        return out

    total = combine(indep, rec(0, tuple(seg_vec)), jokers)
    del rec  # empties the self-referencing cell (no cycle left for the collector)
    return _best(total, accept)


def _covered(p: Profile, out: Profile, jmax: int) -> bool:
    """Whether every entry of ``p`` (flagless) is matched by an entry of ``out`` using no more
    jokers with at least its score (then merging ``p`` into ``out`` changes nothing once
    pruned)."""
    env = [-1] * (jmax + 1)
    for k, v in out.items():
        env[k >> 8] = max(env[k >> 8], v[0])
    top = -1
    for j in range(jmax + 1):
        if env[j] > top:
            top = env[j]
        env[j] = top
    return all(v[0] <= env[k >> 8] for k, v in p.items())


_STILL: dict[tuple[int, int, int, int, bool], bool] = {}


def _still_capable(v: int, r: int, jokers: int, min_real: int, adjacent: bool) -> bool:
    """Whether a card of rank ``r`` could still be in a run of the cards ``v`` (one suit)."""
    if jokers >= 2 and min_real <= 1:
        return True
    key = (v, r, jokers, min_real, adjacent)
    hit = _STILL.get(key)
    if hit is None:
        if len(_STILL) > _CACHE_LIMIT:
            _STILL.clear()
        hit = _STILL[key] = _capable_now(v, r, jokers, adjacent)
    return hit


def _capable_now(v: int, r: int, jokers: int, adjacent: bool) -> bool:
    # presence of places 1..14 at bits 0..13 (the ace at both ends), this card's own copies
    # included (they never make a neighbour: neighbours are at other places)
    m = 0
    x = v
    b = 0
    while x:
        if x & 3:
            m |= 1 << b
        x >>= 2
        b += 1
    m |= (m & 1) << 13
    if jokers == 0:
        w = m & (m >> 1) & (m >> 2)
        covered = w | (w << 1) | (w << 2)
    else:
        reach = (jokers if adjacent else 1) + 1
        covered = 0
        for d in range(1, reach + 1):
            covered |= (m << d) | (m >> d)
    places = (1 << (r - 1)) | ((1 << 13) if r == 1 else 0)
    return bool(covered & places)


def _best(total: Profile, accept: Accept) -> tuple[int, int, Witness] | None:
    best: tuple[int, int, Witness] | None = None
    for k, (sc, w) in total.items():
        if (best is None or sc > best[0]) and accept(k):
            best = (sc, k, w)
    return best


def _wrapped(cfg: Config, suit: int, v: int, jokers: int, c_rank: int) -> Profile:
    """The runs profile of part of a suit, witnesses tagged with the suit."""
    if not v:
        return EMPTY
    key = (suit, v, jokers, c_rank)
    hit = cfg.wrap_cache.get(key)
    if hit is None:
        p = suit_profile(cfg, v, jokers, c_rank)
        hit = {k: (x, ("S", suit, y) if y is not None else None) for k, (x, y) in p.items()}
        _grow()
        cfg.wrap_cache[key] = hit
    return hit


def flatten(w: Witness) -> list[tuple[object, ...]]:
    """The melds of a witness: ``("R", suit, start, length, mask)``, ``("T", rank, plan)`` and
    ``("V", lengths)`` (:func:`wild_runs`)."""
    out: list[tuple[object, ...]] = []
    stack: list[tuple[Witness, int]] = [(w, -1)]
    pop = stack.pop
    push = stack.append
    while stack:
        node, suit = pop()
        if node is None:
            continue
        head = node[0]  # type: ignore[index]
        if head == "R":
            out.append(("R", suit, node[1], node[2], node[3]))  # type: ignore[index]
        elif head == "T" or head == "V":
            out.append(node)  # type: ignore[arg-type]
        elif head == "S":
            push((node[2], node[1]))  # type: ignore[index]
        else:
            push((node[1], suit))  # type: ignore[index]
            push((head, suit))
    return out
