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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Final

from rummykit.melds import MeldRules, lone_set_writable

# -- flags ----------------------------------------------------------------------------------
# A flag word describes an arrangement's structure; it never exceeds 8 bits.
#: Number of runs (sequences), capped at 2 (bits 0-1).
F_SEQ: Final = 0x03
#: A joker-free run (in rami71 with a taken card: a joker-free run without that card).
F_PURE: Final = 0x04
#: A set.
F_SET: Final = 0x08
#: A joker-free set.
F_CSET: Final = 0x10
#: Copies of the must-include card that are melded, capped at 2 (bits 5-6); when it is a
#: joker, the jokers melded (:class:`Config` ``joker_must``).
F_CM: Final = 0x60
F_CM_ONE: Final = 0x20
#: A joker-free run holding the must-include card.
F_CRC: Final = 0x80
_BITS: Final = F_PURE | F_SET | F_CSET | F_CRC

Witness = object
Profile = dict[int, tuple[int, Witness]]
"""Key ``jokers << 8 | flags`` to ``(score, witness)``; a witness is nested tuples."""

EMPTY: Final[Profile] = {0: (0, None)}
#: Entries all the cached tables may hold together before they are emptied (about 30 MB).
TABLE_LIMIT: Final = 60_000
_CACHE_LIMIT: Final = TABLE_LIMIT
_stored = [0]


def _grow() -> None:
    """Count one more cached entry (:func:`solve` empties the tables past the limit)."""
    _stored[0] += 1


def join_flags(a: int, b: int) -> int:
    """The flags of two disjoint parts of an arrangement taken together."""
    if not a:
        return b
    if not b:
        return a
    s = (a & 3) + (b & 3)
    c = ((a >> 5) & 3) + ((b >> 5) & 3)
    return ((a | b) & _BITS) | (2 if s > 2 else s) | ((2 if c > 2 else c) << 5)


def flags_ge(a: int, b: int) -> bool:
    """Whether flags ``a`` are at least as good as ``b`` (every rule is monotone in them)."""
    return (
        (a & 3) >= (b & 3)
        and ((a >> 5) & 3) >= ((b >> 5) & 3)
        and not (b & _BITS & ~a)
    )


class Config:
    """Weights, meld limits and tracked flags of one question (shared, with its caches).

    ``run_nat[i]`` / ``run_jok[i]``: weight of a natural card / a joker at run place ``i + 1``
    (place 14 is the high ace); ``set_nat[r]`` / ``set_jok[r]``: weight of a natural card / a
    joker in a set of rank ``r``. ``fmask`` keeps only the flags the question needs;
    ``c_split`` makes a joker-free run holding the must-include card set :data:`F_CRC` instead
    of :data:`F_PURE`. ``joker_must``: the must-include card is a joker, so :data:`F_CM`
    counts the jokers melded: an entry with fewer jokers then never beats one that melds the
    taken joker (without the flag it would, at no less score, and the answer could be lost).
    """

    __slots__ = (
        "_join",
        "adjacent",
        "c_split",
        "fast",
        "fmask",
        "joker_must",
        "max_pre",
        "min_real",
        "partners",
        "rank_cache",
        "result_cache",
        "run_cache",
        "run_jok",
        "run_nat",
        "seg_cache",
        "set_cache",
        "set_jok",
        "set_min",
        "set_nat",
        "shape_cache",
        "singles",
        "suit_cache",
        "wrap_cache",
    )

    def __init__(
        self,
        min_real: int,
        adjacent: bool,
        run_nat: tuple[int, ...],
        run_jok: tuple[int, ...],
        set_nat: tuple[int, ...],
        set_jok: tuple[int, ...],
        fmask: int,
        c_split: bool,
        joker_must: bool = False,
    ) -> None:
        self.min_real = min_real
        self.adjacent = adjacent
        self.run_nat = run_nat
        self.run_jok = run_jok
        self.set_nat = set_nat
        self.set_jok = set_jok
        self.fmask = fmask
        self.c_split = c_split
        self.joker_must = joker_must
        self.singles = _singles(min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask)
        #: The fewest natural cards some set of this question needs.
        self.set_min = min_real if any(self.singles) else max(min_real, 2)
        self.fast = False
        #: Questions on the same hand whose answers seed this one's (fast path).
        self.partners: tuple[Config, ...] = ()
        self.max_pre = 13 if adjacent else 1
        self.run_cache: dict[tuple[int, int, int], Profile] = {}
        self.shape_cache: dict[tuple[int, int, int, int], list[_Shape]] = {}
        self.suit_cache: dict[tuple[int, int, int], Profile] = {}
        self.seg_cache: dict[tuple[int, int, int], Profile] = {}
        self.rank_cache: dict[tuple[int, tuple[int, ...], int, int, int], _RankOptions] = {}
        self.wrap_cache: dict[tuple[int, int, int, int], Profile] = {}
        self.set_cache: dict[tuple[int, tuple[int, ...], int, int], Profile] = {}
        self.result_cache: dict[tuple[object, ...], tuple[int, int, Witness] | None] = {}
        self._join: dict[tuple[int, int], int] = {}

    def clear(self) -> None:
        self.run_cache.clear()
        self.shape_cache.clear()
        self.suit_cache.clear()
        self.seg_cache.clear()
        self.rank_cache.clear()
        self.wrap_cache.clear()
        self.set_cache.clear()
        self.result_cache.clear()

    def table_entries(self) -> int:
        return (
            len(self.run_cache) + len(self.shape_cache) + len(self.suit_cache) + len(self.seg_cache)
            + len(self.set_cache) + len(self.rank_cache) + len(self.wrap_cache)
            + len(self.result_cache)
        )


def _singles(
    min_real: int,
    adjacent: bool,
    run_nat: tuple[int, ...],
    run_jok: tuple[int, ...],
    set_nat: tuple[int, ...],
    set_jok: tuple[int, ...],
    fmask: int,
) -> tuple[int, ...]:
    """Per rank (index ``r``), the joker counts ``m`` (bit ``m``) with which a set of one
    natural card and ``m`` jokers is worth searching (``min_real`` 1 only).

    Such a set is never needed when the same cards make a run at least as good: the card at
    its place and the jokers beside it (within the places 1 to 14 and the joker limits),
    weighing at least as much, with one more run and no worse flags -- unless the question
    tracks a set (:data:`F_SET`), which the run does not give. The search then leaves such
    sets out, so that a rank whose cards are all of one suit has no set choice at all; without
    that, with one real card a meld and two jokers or more, every card of a dense suit was a
    set choice and the search walked every subset of the suit (an 18-card rummy hand of one
    whole suit and four jokers took 13 s). A set every order of whose cards reads as a run
    (:func:`rummykit.melds.lone_set_writable`) is left out in every question: the engine
    reads its text as the run.
    """
    if min_real != 1:
        return (0,) * 14
    rules = MeldRules(min_real=1, adjacent_jokers=adjacent)
    out = [0]
    for r in range(1, 14):
        # A set that every order of its cards makes a run (make_meld reads those first) is
        # no set: the engine would read its text as the run.
        writable = 0
        for m in (2, 3):
            if lone_set_writable(r, m + 1, rules):
                writable |= 1 << m
        if fmask & F_SET:
            out.append(writable)
            continue
        mask = 0
        for m in (2, 3):
            if not writable >> m & 1:
                continue
            need = set_nat[r] + m * set_jok[r]
            best = None
            for p in ((1, 14) if r == 1 else (r,)):
                for start in range(p - m, p + 1):
                    if start < 1 or start + m > 14:
                        continue
                    jokers = [q for q in range(start, start + m + 1) if q != p]
                    if not adjacent and any(q + 1 in jokers for q in jokers):
                        continue
                    score = run_nat[p - 1] + sum(run_jok[q - 1] for q in jokers)
                    if best is None or score > best:
                        best = score
            if best is None or best < need:
                mask |= 1 << m
        out.append(mask)
    return tuple(out)


_CONFIGS: dict[tuple[object, ...], Config] = {}


def config(
    min_real: int,
    adjacent: bool,
    run_nat: tuple[int, ...],
    run_jok: tuple[int, ...],
    set_nat: tuple[int, ...],
    set_jok: tuple[int, ...],
    fmask: int,
    c_split: bool = False,
    joker_must: bool = False,
) -> Config:
    """The shared :class:`Config` of these parameters (its tables persist between calls)."""
    key = (min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split, joker_must)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = Config(
            min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split, joker_must
        )
    return cfg


def all_configs() -> list[Config]:
    return list(_CONFIGS.values())


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


# -- profiles -------------------------------------------------------------------------------


def prune(p: Profile) -> Profile:
    """Drop entries another entry beats (no more jokers, flags at least as good, score)."""
    if len(p) < 2:
        return p
    flagless = True
    for k in p:
        if k & 255:
            flagless = False
            break
    if flagless:
        # No flags: keep an entry only if it beats every entry using fewer jokers.
        out: Profile = {}
        top = -1
        for k in sorted(p):
            v = p[k]
            if v[0] > top:
                out[k] = v
                top = v[0]
        return out
    items = sorted(p.items(), key=lambda kv: (-kv[1][0], kv[0] >> 8))
    kept: Profile = {}
    # Per flags kept: the fewest jokers kept with them (a later entry with the same flags
    # is kept only with fewer jokers) and which flags they are at least as good as.
    front: dict[int, tuple[int, bytes]] = {}
    for k, v in items:
        j = k >> 8
        f = k & 255
        for j2, ge in front.values():
            if j2 <= j and ge[f]:
                break
        else:
            kept[k] = v
            front[f] = (j, _ge_row(f))
    return kept


_GE_ROWS: dict[int, bytes] = {}


def _ge_row(a: int) -> bytes:
    """``flags_ge(a, b)`` for every ``b``."""
    row = _GE_ROWS.get(a)
    if row is None:
        row = _GE_ROWS[a] = bytes(flags_ge(a, b) for b in range(256))
    return row


def combine(a: Profile, b: Profile, jmax: int) -> Profile:
    """Every way of taking one entry of ``a`` and one of ``b`` (disjoint parts)."""
    if len(b) == 1 and 0 in b:
        sb, wb = b[0]
        if wb is None:
            return a
        return {k: (s + sb, wb if w is None else (w, wb)) for k, (s, w) in a.items()}
    if len(a) == 1 and 0 in a:
        sa, wa = a[0]
        if wa is None:
            return b
        return {k: (s + sa, wa if w is None else (wa, w)) for k, (s, w) in b.items()}
    out: Profile = {}
    get = out.get
    jlim = jmax << 8
    for ka, (sa, wa) in a.items():
        fa = ka & 255
        if not fa:
            # No flags on this side: the key of the pair is the sum of the keys.
            lim = jlim - ka + 256
            for kb, (sb, wb) in b.items():
                if kb >= lim:
                    continue
                k = ka + kb
                s = sa + sb
                cur = get(k)
                if cur is None or s > cur[0]:
                    out[k] = (s, wb if wa is None else (wa if wb is None else (wa, wb)))
            continue
        ja = ka & ~255
        for kb, (sb, wb) in b.items():
            j = ja + (kb & ~255)
            if j > jlim:
                continue
            fb = kb & 255
            k = j | (fb if not fa else (fa if not fb else join_flags(fa, fb)))
            s = sa + sb
            cur = out.get(k)
            if cur is None or s > cur[0]:
                out[k] = (s, wb if wa is None else (wa if wb is None else (wa, wb)))
    return out


def merge_max(a: Profile, b: Profile) -> Profile:
    """Pointwise best of two alternatives."""
    out = dict(a)
    for k, v in b.items():
        cur = out.get(k)
        if cur is None or v[0] > cur[0]:
            out[k] = v
    return out


# -- runs of one suit -----------------------------------------------------------------------


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


_Shape = tuple[int, int, tuple[int, ...] | None, int, tuple[str, int, int, int]]
"""A run from the lowest card: (the other natural cards it takes, ``jokers << 8``, the
row of :func:`_join_row` of its flags or None without flags, its score, its witness leaf)."""

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


# -- sets of one rank -----------------------------------------------------------------------

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


# -- the whole hand -------------------------------------------------------------------------


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


_GUARD: Final = 0o4444

_RankOptions = tuple[Profile | None, list[tuple[tuple[int, int, int, int], Profile]] | None]


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
    card weighs what a joker weighs, see ``api._wild_choices``).

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


def _sub_vectors(col: tuple[int, int, int, int]) -> Iterator[tuple[int, ...]]:
    """Every non-zero vector below ``col`` (component-wise)."""
    for a in range(col[0] + 1):
        for b in range(col[1] + 1):
            for c in range(col[2] + 1):
                for d in range(col[3] + 1):
                    if a or b or c or d:
                        yield (a, b, c, d)


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
