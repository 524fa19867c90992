"""The search engine behind the solver: per-suit run tables, per-rank set options, profiles.

A hand is four suit vectors (the count, 0 to 2, of every rank of the suit) and a number of
jokers. Runs live inside one suit; sets live inside one rank; jokers are a count shared by all.
The engine therefore

1. solves the runs of one suit exactly, once per distinct suit vector (the table does not
   depend on the suit, so the four suits share it), giving a *profile*: for every number of
   jokers used and every combination of the rule flags (how many runs, a joker-free run, ...),
   the best score and one arrangement reaching it (its *witness*);
2. enumerates, rank by rank, which cards go into sets -- only for ranks where a card could
   also be in a run; ranks whose cards cannot be in any run are solved on their own;
3. joins the profiles of the sets and of the four suits, keeping the joker total within the
   hand's jokers, and keeps the best entry the rule accepts.

Scores are sums of per-card weights (opening values, penalties, or a large constant per card
when what matters is melding everything), so one engine answers every question. Everything
here is exact: no heuristic ever drops an arrangement that could be better.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Final

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
#: Copies of the must-include card that are melded, capped at 2 (bits 5-6).
F_CM: Final = 0x60
F_CM_ONE: Final = 0x20
#: A joker-free run holding the must-include card.
F_CRC: Final = 0x80
_BITS: Final = F_PURE | F_SET | F_CSET | F_CRC

Witness = object
Profile = dict[int, tuple[int, Witness]]
"""Key ``jokers << 8 | flags`` to ``(score, witness)``; a witness is nested tuples."""

EMPTY: Final[Profile] = {0: (0, None)}
_CACHE_LIMIT: Final = 200_000


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
    of :data:`F_PURE`.
    """

    __slots__ = (
        "_join",
        "adjacent",
        "c_split",
        "fmask",
        "max_pre",
        "min_real",
        "run_cache",
        "run_jok",
        "run_nat",
        "set_cache",
        "set_jok",
        "set_nat",
        "suit_cache",
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
    ) -> None:
        self.min_real = min_real
        self.adjacent = adjacent
        self.run_nat = run_nat
        self.run_jok = run_jok
        self.set_nat = set_nat
        self.set_jok = set_jok
        self.fmask = fmask
        self.c_split = c_split
        self.max_pre = 13 if adjacent else 1
        self.run_cache: dict[tuple[int, int, int], Profile] = {}
        self.suit_cache: dict[tuple[int, int, int], Profile] = {}
        self.set_cache: dict[tuple[int, tuple[int, ...], int, int], Profile] = {}
        self._join: dict[tuple[int, int], int] = {}

    def clear(self) -> None:
        self.run_cache.clear()
        self.suit_cache.clear()
        self.set_cache.clear()

    def table_entries(self) -> int:
        return len(self.run_cache) + len(self.suit_cache) + len(self.set_cache)


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
) -> Config:
    """The shared :class:`Config` of these parameters (its tables persist between calls)."""
    key = (min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = Config(
            min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split
        )
    return cfg


def all_configs() -> list[Config]:
    return list(_CONFIGS.values())


# -- profiles -------------------------------------------------------------------------------


def prune(p: Profile) -> Profile:
    """Drop entries another entry beats (no more jokers, flags at least as good, score)."""
    if len(p) < 2:
        return p
    items = sorted(p.items(), key=lambda kv: (-kv[1][0], kv[0] >> 8))
    kept: list[tuple[int, tuple[int, Witness]]] = []
    for k, v in items:
        j, f = k >> 8, k & 255
        if any((k2 >> 8) <= j and flags_ge(k2 & 255, f) for k2, _ in kept):
            continue
        kept.append((k, v))
    return dict(kept)


def combine(a: Profile, b: Profile, jmax: int) -> Profile:
    """Every way of taking one entry of ``a`` and one of ``b`` (disjoint parts)."""
    if len(b) == 1 and 0 in b:
        sb, wb = b[0]
        if wb is None:
            return a
        return {k: (s + sb, (w, wb)) for k, (s, w) in a.items()}
    if len(a) == 1 and 0 in a:
        sa, wa = a[0]
        if wa is None:
            return b
        return {k: (s + sa, (wa, w)) for k, (s, w) in b.items()}
    out: Profile = {}
    jlim = jmax << 8
    for ka, (sa, wa) in a.items():
        ja = ka & ~255
        fa = ka & 255
        for kb, (sb, wb) in b.items():
            j = ja + (kb & ~255)
            if j > jlim:
                continue
            k = j | join_flags(fa, kb & 255)
            s = sa + sb
            cur = out.get(k)
            if cur is None or s > cur[0]:
                out[k] = (s, (wa, wb))
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
    Witness leaves are ``("R", start_place, length, joker_mask)``.
    """
    key = (v, jcap, c_rank)
    cache = cfg.suit_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    if len(cache) > _CACHE_LIMIT:
        cfg.clear()
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
    cache[key] = res
    return res


def _runs(cfg: Config, vec: int, jcap: int, c_rank: int) -> Profile:
    """Runs over the 14 places (place ``i + 1`` at bits ``2i``; the ace split already made)."""
    if vec == 0:
        return EMPTY
    key = (vec, jcap, c_rank)
    memo = cfg.run_cache
    hit = memo.get(key)
    if hit is not None:
        return hit
    low = ((vec & -vec).bit_length() - 1) >> 1
    res: Profile = dict(_runs(cfg, vec - (1 << (2 * low)), jcap, c_rank))
    min_real = cfg.min_real
    adjacent = cfg.adjacent
    run_nat = cfg.run_nat
    run_jok = cfg.run_jok
    fmask = cfg.fmask
    c_split = cfg.c_split
    c_places = (c_rank - 1, 13) if c_rank == 1 else ((c_rank - 1,) if c_rank else ())

    def close(
        rest: int, start: int, length: int, jk: int, score: int, mask: int, has_c: bool
    ) -> None:
        flags = 1
        if jk == 0:
            flags |= F_CRC if (has_c and c_split) else F_PURE
        if has_c:
            flags |= F_CM_ONE
        flags &= fmask
        leaf = ("R", start + 1, length, mask)
        sub = _runs(cfg, rest, jcap - jk, c_rank)
        jshift = jk << 8
        for k, (s, w) in sub.items():
            nk = (k & ~255) + jshift | join_flags(flags, k & 255)
            ns = s + score
            cur = res.get(nk)
            if cur is None or ns > cur[0]:
                res[nk] = (ns, (leaf, w) if w is not None else leaf)

    def extend(
        q: int,
        rest: int,
        start: int,
        length: int,
        nat: int,
        jk: int,
        last_joker: bool,
        score: int,
        mask: int,
        has_c: bool,
    ) -> None:
        if length >= 3 and nat >= min_real:
            close(rest, start, length, jk, score, mask, has_c)
        if q > 13 or length >= 13:
            return
        bit = 1 << (2 * q)
        if rest & (3 * bit):
            extend(
                q + 1, rest - bit, start, length + 1, nat + 1, jk, False,
                score + run_nat[q], mask, has_c or q in c_places,
            )
        if jk < jcap and (adjacent or not last_joker):
            extend(
                q + 1, rest, start, length + 1, nat, jk + 1, True,
                score + run_jok[q], mask | (1 << (q - start)), has_c,
            )

    rest0 = vec - (1 << (2 * low))
    has_c0 = low in c_places
    for pre in range(min(cfg.max_pre, jcap, low) + 1):
        start = low - pre
        pre_score = sum(run_jok[start:low])
        extend(
            low + 1, rest0, start, pre + 1, 1, pre, False,
            pre_score + run_nat[low], (1 << pre) - 1, has_c0,
        )
    res = prune(res)
    if len(memo) > _CACHE_LIMIT:
        memo.clear()
    memo[key] = res
    return res


# -- sets of one rank -----------------------------------------------------------------------

SetPlan = tuple[tuple[tuple[int, ...], int], ...]
"""The sets of one rank: (suits of the natural cards, jokers) for each set."""

_PATTERNS: dict[tuple[int, tuple[int, ...]], dict[tuple[int, bool], SetPlan]] = {}


def set_patterns(min_real: int, u: tuple[int, ...]) -> dict[tuple[int, bool], SetPlan]:
    """Ways to put the natural cards ``u`` (copies per suit) of one rank into sets, by
    (jokers needed, whether a joker-free set is among them), one plan each.
    """
    key = (min_real, u)
    hit = _PATTERNS.get(key)
    if hit is not None:
        return hit
    out: dict[tuple[int, bool], SetPlan] = {}
    for groups in _partitions(list(u)):
        ranges = [range(max(0, 3 - len(g)), 4 - len(g) + 1) for g in groups]
        for ms in _product(ranges):
            clean = any(len(g) >= 3 and m == 0 for g, m in zip(groups, ms, strict=True))
            k = (sum(ms), clean)
            if k not in out:
                out[k] = tuple(zip(groups, ms, strict=True))
    if min_real > 1:
        out = {
            k: plan for k, plan in out.items() if all(len(g) >= min_real for g, _ in plan)
        }
    _PATTERNS[key] = out
    return out


def _product(ranges: Sequence[range]) -> Iterator[tuple[int, ...]]:
    if not ranges:
        yield ()
        return
    for x in ranges[0]:
        for tail in _product(ranges[1:]):
            yield (x, *tail)


def _partitions(u: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Partitions of a multiset of suits into groups of distinct suits."""
    first = next((s for s in range(4) if u[s]), None)
    if first is None:
        yield []
        return
    others = [s for s in range(first + 1, 4) if u[s]]
    for mask in range(1 << len(others)):
        group = (first, *(others[i] for i in range(len(others)) if mask >> i & 1))
        for s in group:
            u[s] -= 1
        for tail in _partitions(u):
            yield [group, *tail]
        for s in group:
            u[s] += 1


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
    for (m, clean), plan in set_patterns(cfg.min_real, u).items():
        if m > jcap:
            continue
        flags = (flags0 | (F_CSET if clean else 0)) & cfg.fmask
        k = (m << 8) | flags
        s = n * cfg.set_nat[rank] + m * cfg.set_jok[rank]
        cur = res.get(k)
        if cur is None or s > cur[0]:
            res[k] = (s, ("T", rank, plan))
    res = prune(res)
    cfg.set_cache[key] = res
    return res


# -- the whole hand -------------------------------------------------------------------------


def _capable(counts: Sequence[int], jokers: int, min_real: int, adjacent: bool) -> list[bool]:
    """For each rank 1-13 of one suit: whether a card of that rank could stand in a run."""
    present = [False] * 16  # places 1..14 at indices 1..14
    for r in range(1, 14):
        if counts[r]:
            present[r] = True
    present[14] = present[1]
    out = [False] * 14
    for r in range(1, 14):
        if not counts[r]:
            continue
        places = (1, 14) if r == 1 else (r,)
        ok = False
        for p in places:
            if jokers == 0:
                for a in range(max(1, p - 2), min(p, 12) + 1):
                    if present[a] and present[a + 1] and present[a + 2]:
                        ok = True
            elif min_real <= 1 and jokers >= 2:
                ok = True
            else:
                reach = (jokers if adjacent else 1) + 1
                for d in range(1, reach + 1):
                    if (p - d >= 1 and present[p - d]) or (p + d <= 14 and present[p + d]):
                        ok = True
        out[r] = ok
    return out


Accept = Callable[[int], bool]


def solve(
    cfg: Config,
    counts: Sequence[Sequence[int]],
    jokers: int,
    accept: Accept,
    must: tuple[int, int] | None = None,
) -> tuple[int, int, Witness] | None:
    """The best accepted arrangement of a hand: ``counts[suit][rank]`` (rank 1-13, 0 to 2)
    and ``jokers`` jokers; ``accept`` sees the key ``jokers_used << 8 | flags``. ``must`` is
    the (rank, suit) of the must-include card. Returns ``(score, key, witness)`` or None when
    no arrangement is accepted.
    """
    c_rank, c_suit = must if must else (0, -1)
    min_real = cfg.min_real
    cap = [_capable(counts[s], jokers, min_real, cfg.adjacent) for s in range(4)]
    vs = [0, 0, 0, 0]
    for s in range(4):
        cs = counts[s]
        cp = cap[s]
        v = 0
        for r in range(1, 14):
            if cp[r]:
                v |= cs[r] << (2 * (r - 1))
        vs[s] = v

    indep: Profile = EMPTY
    branching: list[list[tuple[tuple[int, int, int, int], Profile]]] = []
    for r in range(1, 14):
        col = (counts[0][r], counts[1][r], counts[2][r], counts[3][r])
        suits = sum(1 for x in col if x)
        if suits < min_real or suits + jokers < 3:
            continue
        c_s = c_suit if r == c_rank else -1
        # Options with the same effect on the suit vectors (the same run-capable cards
        # taken) are merged: only their best profile matters.
        by_delta: dict[tuple[int, int, int, int], Profile] = {}
        shift = 2 * (r - 1)
        for u in _sub_vectors(col):
            p = set_profile(cfg, r, u, jokers, c_s)
            if not p:
                continue
            delta = (
                (u[0] << shift) if cap[0][r] else 0,
                (u[1] << shift) if cap[1][r] else 0,
                (u[2] << shift) if cap[2][r] else 0,
                (u[3] << shift) if cap[3][r] else 0,
            )
            prev = by_delta.get(delta)
            by_delta[delta] = p if prev is None else merge_max(prev, p)
        if not by_delta:
            continue
        zero = (0, 0, 0, 0)
        by_delta[zero] = merge_max(by_delta[zero], EMPTY) if zero in by_delta else EMPTY
        if len(by_delta) == 1:
            indep = prune(combine(indep, prune(by_delta[zero]), jokers))
        else:
            branching.append([(d, prune(p)) for d, p in by_delta.items()])

    best: list[tuple[int, int, Witness] | None] = [None]
    c_ranks = [c_rank if s == c_suit else 0 for s in range(4)]

    def leaf(acc: Profile, v0: int, v1: int, v2: int, v3: int) -> None:
        for s, v in ((0, v0), (1, v1), (2, v2), (3, v3)):
            if v:
                p = suit_profile(cfg, v, jokers, c_ranks[s])
                if len(p) == 1 and 0 in p:
                    sc, w = p[0]
                    if w is not None:
                        acc = {k: (x + sc, (y, ("S", s, w))) for k, (x, y) in acc.items()}
                else:
                    acc = combine(acc, {k: (x, ("S", s, y)) for k, (x, y) in p.items()}, jokers)
        b = best[0]
        for k, (sc, w) in acc.items():
            if (b is None or sc > b[0]) and accept(k):
                b = (sc, k, w)
        best[0] = b

    def dfs(i: int, acc: Profile, v0: int, v1: int, v2: int, v3: int) -> None:
        if i == len(branching):
            leaf(acc, v0, v1, v2, v3)
            return
        for (d0, d1, d2, d3), p in branching[i]:
            dfs(i + 1, combine(acc, p, jokers), v0 - d0, v1 - d1, v2 - d2, v3 - d3)

    dfs(0, indep, vs[0], vs[1], vs[2], vs[3])
    return best[0]


def _sub_vectors(col: tuple[int, int, int, int]) -> Iterator[tuple[int, ...]]:
    """Every non-zero vector below ``col`` (component-wise)."""
    for a in range(col[0] + 1):
        for b in range(col[1] + 1):
            for c in range(col[2] + 1):
                for d in range(col[3] + 1):
                    if a or b or c or d:
                        yield (a, b, c, d)


def flatten(w: Witness) -> list[tuple[object, ...]]:
    """The melds of a witness: ``("R", suit, start, length, mask)`` and ``("T", rank, plan)``."""
    out: list[tuple[object, ...]] = []
    stack: list[tuple[Witness, int]] = [(w, -1)]
    while stack:
        node, suit = stack.pop()
        if node is None:
            continue
        assert isinstance(node, tuple)
        head = node[0]
        if head == "R":
            out.append(("R", suit, node[1], node[2], node[3]))
        elif head == "T":
            out.append(node)
        elif head == "S":
            stack.append((node[2], node[1]))
        else:
            stack.append((node[1], suit))
            stack.append((node[0], suit))
    return out
