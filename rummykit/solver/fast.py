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
"""

from __future__ import annotations

from operator import add, mul
from typing import Final

from rummykit.solver.core import Config

Item = tuple[object, ...]
#: See :func:`_entry`.
Entry = tuple[int, int, int, tuple[int, ...], int, int, tuple[int, ...]]
#: A candidate in the search: (fields taken, jokers needed, natural bound weight, value, slot
#: values, variant key, entry).
Cand = tuple[int, int, int, int, tuple[int, ...], int, Entry]
#: A set in the search: (fields taken, jokers needed, the fields of its rank, those that can
#: only be in a set, index in the question's :func:`_set_table`). The values are looked up
#: per question, so a hand's sets are built once for all its questions.
SetCand = tuple[int, int, int, int, int]
#: A set's values under a question: (natural bound weight, value, slot values, variant key,
#: entry).
SetValues = tuple[int, int, tuple[int, ...], int, Entry]
#: A solved question: (score, jokers used, melds, the path of candidates, spare jokers
#: placed in slots). The path's steps start with (variant key, suit, entry); a shared search's
#: hold both questions' entries.
Result = tuple[
    int, int, list[int],
    list[tuple[int, int, Entry]] | list[tuple[int, int, Entry, Entry]], int,
]

#: Up to this many jokers a hand's partner questions share one search; with more, the
#: second question's own search, bounded by the first's answer, does less work.
PAIR_JOKERS: Final = 2
#: Hands whose candidates are kept (a structure is a few hundred bytes to a few kB).
STRUCT_LIMIT: Final = 20_000
#: ((rank, copies) of the fields), chain tables (suit, run places, jokers, first field), by
#: field the sets whose lowest field it is, all cards, the cards that need a joker to be
#: melded, the ranks that can be in a set (bit ``r``; bit 0: the hand has jokers; 0: none))
Struct = tuple[
    tuple[list[int], list[int]], list[tuple[int, int, int, int]],
    list[list[SetCand] | None], int, int, int,
]
_STRUCT: dict[tuple[int, int, int, int, int], Struct] = {}
#: Chains of a suit by (places that can be in a run, jokers): by lowest local field,
#: (fields taken counted from the suit's first field, variant key), biggest first.
_CHAINS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
_ENTRIES: dict[Config, dict[int, Entry]] = {}
_RESULTS: dict[Config, dict[tuple[int, int, int, int, int], Result]] = {}
_CHAIN_ENTRIES: dict[
    Config, dict[tuple[int, int], tuple[list[tuple[int, list[Cand]]], int, int]]
] = {}


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


#: By 7 bits of a rank mask: its ranks (entry ``x | 0x80``: ``x`` holds ranks 8 to 13).
_RANKS7: Final = [
    tuple(r + 1 + (7 if x & 0x80 else 0) for r in range(7) if x >> r & 1) for x in range(256)
]
#: By number of fields (at most 52): their lowest bits.
_ONES: Final = [((1 << 2 * n) - 1) // 3 for n in range(53)]
#: The suits of a 4-bit mask.
_SUITS: Final = [tuple(t for t in range(4) if here >> t & 1) for here in range(16)]
#: The suits of a mask of two suits (else empty).
_PAIRS: Final = [s if len(s) == 2 else () for s in _SUITS]
#: A suit's run places (the ace at bit 0), their number and ranks, its segments no chain
#: crosses (run places, the most jokers a chain of them can hold (99: any number, the ace at
#: both ends), the segment's first field counted from the suit's), the run places in no run
#: of three and their fields counted from the suit's first.
SuitRuns = tuple[int, int, tuple[int, ...], tuple[tuple[int, int, int], ...], int, int]
#: By suit rank mask and whether the hand has jokers (bit 13): :data:`SuitRuns` (at most
#: 2 ** 14 entries; a suit's masks recur from hand to hand).
_SUIT: dict[int, SuitRuns] = {}


def structure(
    v0: int, v1: int, v2: int, v3: int, m: tuple[int, int, int, int] | list[int], jokers: int
) -> Struct:
    """The fields and candidates of a hand: ``v*`` are the suit vectors (2 bits per rank),
    ``m`` the rank masks per suit. Fields go suit by suit: the cards that can be in a run by
    rank, then those that can only be in a set. What depends on one suit alone comes from
    :func:`_suit`.
    """
    key = (v0, v1, v2, v3, jokers)
    hit = _STRUCT.get(key)
    if hit is not None:
        return hit
    if len(_STRUCT) > STRUCT_LIMIT:
        _STRUCT.clear()
    m0, m1, m2, m3 = m
    # Cards that can be in a meld without jokers (a run of three, a set of three suits).
    set0 = (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))
    if jokers:
        setcap = (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
        jf = 0x2000
    else:
        setcap = set0
        jf = 0
    ranks: list[int] = []
    runs: list[tuple[int, int, int, int]] = []
    # ``twice``: the fields of the cards held twice (their second copies); ``off``: the
    # suit's first field.
    twice = only = sob = off = 0
    first = [0, 0, 0, 0]  # by suit: its first field
    suits = _SUIT
    for s, ms, v in (0, m0, v0), (1, m1, v1), (2, m2, v2), (3, m3, v3):
        if not ms:
            continue
        rr, nr, rk, segs, lone, lonef = suits.get(ms | jf) or _suit(ms | jf)
        sonly = setcap & ms & ~rr
        first[s] = off
        if rr:
            ranks += rk
            for seg, nb, rel in segs:
                # A chain of n places has at most n - 1 gaps: more jokers change nothing.
                runs.append((s, seg, jokers if jokers < nb else nb, off + rel))
            if lone:
                # The run places in no run of three need a joker to be melded, unless they
                # are in a set of three suits.
                x = lone & set0
                while x:
                    b = x & -x
                    x ^= b
                    lonef -= 1 << 2 * (rr & (b - 1)).bit_count()
                only |= lonef << 2 * off
        if sonly:
            ranks += _RANKS7[sonly & 0x7F]
            ranks += _RANKS7[sonly >> 7 | 0x80]
            # The fields of the cards that can only be in a set (after the suit's others).
            f = _ONES[sonly.bit_count()]
            sob |= f << 2 * (off + nr)
            if jokers:
                # They need a joker unless in a set of three suits.
                x = sonly & set0
                while x:
                    b = x & -x
                    x ^= b
                    f -= 1 << 2 * (sonly & (b - 1)).bit_count()
                only |= f << 2 * (off + nr)
        d = v & 0x2AAAAAA
        while d:
            # A card held twice: its field's second copy.
            b = d & -d
            d ^= b
            b = 1 << (b.bit_length() >> 1) - 1  # its rank's bit
            if b & rr:
                twice |= 1 << 2 * (off + (rr & (b - 1)).bit_count())
            elif b & sonly:
                twice |= 1 << 2 * (off + nr + (sonly & (b - 1)).bit_count())
        off += nr + sonly.bit_count() if sonly else nr
    full = _ONES[off] + twice
    counts = [1] * off
    while twice:
        b = twice & -twice
        twice ^= b
        counts[b.bit_length() >> 1] = 2
    setb: list[list[SetCand] | None] = [None] * off
    if setcap:
        subsets = _SUBSETS[1 if jokers else 0]
        index = ranks.index
        x = setcap
        while x:
            b = x & -x
            x ^= b
            r = b.bit_length()
            here = (m0 & b and 1) | (m1 & b and 2) | (m2 & b and 4) | (m3 & b and 8)
            pair = _PAIRS[here]
            if pair:
                # Two suits (most set ranks of a hand with jokers; without, a set needs three
                # suits): one set, with a joker.
                t0, t1 = pair
                i = index(r, first[t0])
                sr = (1 << 2 * i) + (1 << 2 * index(r, first[t1]))
                setb[i] = [(sr, 1, sr, sr & sob, r | 32 | here << 7)]
                continue
            u = [0, 0, 0, 0, 0]
            sr = 0
            for t in _SUITS[here]:
                # Each rank is at most once among the fields of a suit.
                ut = u[t] = 1 << 2 * index(r, first[t])
                sr += ut
            so = sr & sob
            for t0, grp in subsets[here]:
                u0 = u[t0]
                lst = setb[(u0.bit_length() - 1) >> 1] = []
                for x1, x2, vk, need in grp:
                    lst.append((sr - u[x1] - u[x2], need, sr, so, r | vk))
    setkey = (setcap << 1 | (1 if jokers else 0)) if setcap else 0
    res = _STRUCT[key] = ((ranks, counts), runs, setb, full, only, setkey)
    return res


def _suit(key: int) -> SuitRuns:
    """What the run places of a suit depend on: its rank mask and whether the hand has jokers
    (bit 13 of ``key``). See :data:`SuitRuns`."""
    ms = key & 0x1FFF
    m14 = ms | ((ms & 1) << 13)
    w = m14 & (m14 >> 1) & (m14 >> 2)
    c = (w | (w << 1) | (w << 2)) & m14
    jokers = key >> 13
    rc = m14 & ((m14 << 1) | (m14 >> 1) | (m14 << 2) | (m14 >> 2)) if jokers else c
    rr = (rc | (rc >> 13)) & 0x1FFF
    segs: list[tuple[int, int, int]] = []
    if rc & 0x2000:
        # The ace at both ends: the suit's chains in one table (every joker may count).
        segs.append((rc, 99, 0))
    elif rc:
        # Segments no chain crosses (two empty places; without jokers, one), each with its
        # own table (they recur from hand to hand): they start at the run places with no
        # run place one (with jokers, two) below.
        x = rc & ~((rc << 1) | (rc << 2)) if jokers else rc & ~(rc << 1)
        low = x & -x
        x ^= low
        while True:
            nxt = x & -x
            seg = rc & (nxt - low) if nxt else rc & -low
            segs.append((seg, seg.bit_count() - 1, (rr & (low - 1)).bit_count()))
            if not nxt:
                break
            x ^= nxt
            low = nxt
    # The run places in no run of three, and their fields counted from the suit's first.
    lone = rr & ~((c | (c >> 13)) & 0x1FFF) if jokers else 0
    lonef = 0
    x = lone
    while x:
        b = x & -x
        x ^= b
        lonef |= 1 << 2 * (rr & (b - 1)).bit_count()
    got = _SUIT[key] = (
        rr, rr.bit_count(), _RANKS7[rr & 0x7F] + _RANKS7[rr >> 7 | 0x80], tuple(segs), lone,
        lonef,
    )
    return got


def _subsets(here: int, jokers: int) -> list[tuple[int, list[tuple[int, int, int, int]]]]:
    """The sets of the suits ``here`` (a 4-bit mask), biggest first (two suits need a
    joker), grouped by their lowest suit (in the order of their first set): the suits of
    ``here`` they leave out, padded to two with 4 (no suit), ``size << 4 | suits << 7`` and
    the jokers they need."""
    out = []
    for bits in range(16):
        n = bits.bit_count()
        if bits & ~here or n < (2 if jokers else 3):
            continue
        t0 = (bits & -bits).bit_length() - 1
        x1, x2 = ([t for t in range(4) if (here & ~bits) >> t & 1] + [4, 4])[:2]
        out.append((-n, bits, t0, (x1, x2, n << 4 | bits << 7, 1 if n == 2 else 0)))
    out.sort()
    groups: dict[int, list[tuple[int, int, int, int]]] = {}
    for _, _, t0, rest in out:
        groups.setdefault(t0, []).append(rest)
    return list(groups.items())


_SUBSETS: Final = [[_subsets(here, j) for here in range(16)] for j in (0, 1)]


def _chains(rc: int, jokers: int) -> list[list[tuple[int, int]]]:
    """The chains of a suit whose run places are ``rc`` (place ``p`` at bit ``p - 1``)."""
    key = (rc, jokers)
    hit = _CHAINS.get(key)
    if hit is not None:
        return hit
    us = [0] * 16
    u = 1
    x = (rc | (rc >> 13)) & 0x1FFF  # the ranks: the ace is the first field
    while x:
        b = x & -x
        x ^= b
        us[b.bit_length()] = u
        u <<= 2
    if rc & 0x2000:
        us[14] = us[1]
    nfield = (u.bit_length() - 1) >> 1
    found: list[tuple[int, int]] = []
    add = found.append
    x = rc
    while x:
        b = x & -x
        x ^= b
        a = b.bit_length()
        lim = a + 12  # a run holds at most 13 places
        if jokers:
            stack = [(a, us[a], 0, 0)]
            while stack:
                last, cons, gm, g = stack.pop()
                if last != a:
                    add((cons, a | last << 4 | gm << 8))
                b1 = last + 1
                if b1 <= lim and rc >> last & 1:
                    stack.append((b1, cons + us[b1], gm, g))
                b2 = last + 2
                if g < jokers and b2 <= lim and rc >> b1 & 1:
                    stack.append((b2, cons + us[b2], gm | 1 << (b1 - a), g + 1))
        else:
            cons = us[a]
            last = a + 1
            while last <= lim and rc >> (last - 1) & 1:
                cons += us[last]
                if last - a >= 2:
                    add((cons, a | last << 4))
                last += 1
    found.sort(key=_chain_size)
    groups: list[list[tuple[int, int]]] = [[] for _ in range(nfield)]
    for c in found:
        t = c[0]
        groups[((t & -t).bit_length() - 1) >> 1].append(c)
    if len(_CHAINS) > STRUCT_LIMIT:
        _CHAINS.clear()
    _CHAINS[key] = groups
    return groups


def _chain_size(c: tuple[int, int]) -> int:
    return -c[0].bit_count()


def _chain_entries(
    cfg: Config, rc: int, jokers: int
) -> tuple[list[tuple[int, list[Cand]]], int, int]:
    """The chains of :func:`_chains` with their values under ``cfg`` (by lowest field, counted
    from the segment's first, the fields no chain starts at left out), the best joker value
    among them and the most natural weight one needed joker can bring in (rounded up)."""
    per = _CHAIN_ENTRIES.get(cfg)
    if per is None:
        per = _CHAIN_ENTRIES[cfg] = {}
    key = (rc, jokers)
    hit = per.get(key)
    if hit is not None:
        return hit
    table = _ENTRIES.get(cfg)
    if table is None or len(table) > STRUCT_LIMIT:
        table = _ENTRIES[cfg] = {}
    jw = dm = 0
    groups = []
    # Chains do not depend on where a segment lies (the ace at both ends aside): they are
    # tabled from place 1 and moved to the segment's places (``17 d``: ``d`` added to both
    # places of the key).
    d = 0 if rc & 0x2000 else (rc & -rc).bit_length() - 1
    for i, grp in enumerate(_chains(rc >> d, jokers)):
        if not grp:
            continue
        out = []
        for t, vkey in grp:
            vkey += 17 * d
            e = table.get(vkey)
            if e is None:
                e = table[vkey] = _entry(cfg, vkey)
            out.append((t, e[1], e[0], e[2], e[3], vkey, e))
            if e[4] > jw:
                jw = e[4]
            if e[1] and -(-e[0] // e[1]) > dm:
                dm = -(-e[0] // e[1])
        groups.append((i, out))
    if len(per) > STRUCT_LIMIT:
        per.clear()
    hit = per[key] = (groups, jw, dm)
    return hit


def _weights(cfg: Config) -> list[int]:
    """The best weight a natural card of each rank can get in a meld."""
    return _tables(cfg)[0]


_TABLES: dict[Config, tuple[list[int], list[int], list[int]]] = {}


def _tables(cfg: Config) -> tuple[list[int], list[int], list[int]]:
    """(best weight per rank, prefix sums over places of the natural run weights and of the
    best weights: entry ``p`` sums places 1 to ``p``)."""
    hit = _TABLES.get(cfg)
    if hit is None:
        wr = [0] * 14
        for r in range(1, 14):
            wr[r] = max(cfg.set_nat[r], cfg.run_nat[r - 1], cfg.run_nat[13] if r == 1 else 0)
        natp = [0] * 15
        wrp = [0] * 15
        for p in range(1, 15):
            natp[p] = natp[p - 1] + cfg.run_nat[p - 1]
            wrp[p] = wrp[p - 1] + wr[p if p <= 13 else 1]
        # Questions whose best weights agree share one list (the rummy opening and penalty
        # do): their per-hand field weights are then computed once (:func:`_field_weights`).
        wr = _WR.setdefault(tuple(wr), wr)
        hit = _TABLES[cfg] = (wr, natp, wrp)
    return hit


_WR: dict[tuple[int, ...], list[int]] = {}
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


def _run_parts(cfg: Config, vkey: int) -> tuple[int, int, int, int, int, list[tuple[int, int]]]:
    """A chain's (natural bound weight, jokers needed, value, base end jokers (bit 0 low, bit 1
    high), best joker value, slots (value, end bit) best first).
    """
    wr, natp, wrp = _tables(cfg)
    a = vkey & 15
    last = (vkey >> 4) & 15
    gm = vkey >> 8
    nat = cfg.run_nat
    jok = cfg.run_jok
    val = natp[last] - natp[a - 1]
    cw = wrp[last] - wrp[a - 1]
    g = jmax = 0
    while gm:
        b = gm & -gm
        gm ^= b
        p = a + b.bit_length() - 1
        j = jok[p - 1]
        val += j - nat[p - 1]
        cw -= wr[p if p <= 13 else 1]
        g += 1
        if j > jmax:
            jmax = j
    length = last - a + 1
    lo = jok[a - 2] if a >= 2 else -1
    hi = jok[last] if last <= 13 else -1
    # the better end first (the low one among equals)
    if hi > lo:
        ends = [(hi, 2), (lo, 1)] if lo >= 0 else [(hi, 2)]
    else:
        ends = [(lo, 1), (hi, 2)] if hi >= 0 else [(lo, 1)]
    base = 0
    if length == 2:
        # Two adjacent cards need a joker at an end: the better one.
        v, e = ends.pop(0)
        val += v
        g += 1
        base = e
        if v > jmax:
            jmax = v
        length = 3
    slots = ends[: 13 - length]
    for v, _ in slots:
        if v > jmax:
            jmax = v
    return cw, g, val, base, jmax, slots


def _entry(cfg: Config, vkey: int) -> Entry:
    """The values of a candidate under ``cfg``: ``(natural bound weight, jokers needed, value,
    slot values best first, best joker value, base (run: end jokers, bit 0 low, bit 1 high;
    set: jokers), slot tags (run: end bit; set: 1))``.
    """
    if vkey >= 0:
        cw, g, val, base, jmax, slots = _run_parts(cfg, vkey)
        return (
            cw, g, val, tuple([v for v, _ in slots]), jmax, base, tuple([e for _, e in slots])
        )
    r = (-vkey) & 15
    k = ((-vkey) >> 4) & 7
    w = k * _weights(cfg)[r]
    nat = k * cfg.set_nat[r]
    jw = cfg.set_jok[r]
    if k == 2:
        return w, 1, nat + jw, (jw,), jw, 1, (1,)
    if k == 3:
        return w, 0, nat, (jw,), jw, 0, (1,)
    return w, 0, nat, (), 0, 0, ()


class _SetTable(dict[int, SetValues]):
    """A question's set values by set index ``rank | size << 4 | suits << 7``, each made when
    the search first reads it (at most 13 ranks times 11 sets of suits, and a hand reads
    few: tables cleared before every hand stay cheap)."""

    __slots__ = ("cfg",)

    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.cfg = cfg

    def __missing__(self, si: int) -> SetValues:
        e = _entry(self.cfg, -si)
        got = self[si] = (e[0], e[2], e[3], -si, e)
        return got


#: Per question: its :class:`_SetTable`; by the key of a hand's set ranks (see :data:`Struct`;
#: at most 2 ** 14 keys) the best joker value of its sets and the most natural weight one
#: needed joker brings in with them (:func:`_set_bounds`); and the same by the key's ranks 1 to
#: 7 with jokers (bits 1 to 7) and by its ranks 8 to 13 (bits 8 to 13). Both are maxima over
#: the ranks, so a key met for the first time (most hands meet one) is the larger of its two
#: halves', of at most 192 keys.
SetBounds = dict[int, tuple[int, int]]
_SETS: dict[Config, tuple[_SetTable, SetBounds, SetBounds, SetBounds]] = {}


def _set_table(cfg: Config) -> tuple[_SetTable, SetBounds, SetBounds, SetBounds]:
    got = _SETS.get(cfg)
    if got is None:
        # Set key 0: no rank can be in a set.
        got = _SETS[cfg] = (_SetTable(cfg), {0: (0, 0)}, {}, {})
    return got


def _set_bounds(cfg: Config, key: int) -> tuple[int, int]:
    """(best joker value, most natural weight one needed joker brings in) among the sets of a
    hand whose set key (see :data:`Struct`) is ``key``. Every rank that can be in a set has a
    set of two suits when the hand has jokers (one joker needed, two natural cards at their
    best weight), else one of three suits: both hold a joker at their best value."""
    wr = _weights(cfg)
    jw = dm = 0
    x = key & ~1
    while x:
        b = x & -x
        x ^= b
        r = b.bit_length() - 1
        if cfg.set_jok[r] > jw:
            jw = cfg.set_jok[r]
        if key & 1 and 2 * wr[r] > dm:
            dm = 2 * wr[r]
    return jw, dm


def _key_bounds(cfg: Config, setkey: int) -> tuple[int, int]:
    """For a hand's set key met for the first time under ``cfg``: the best joker value of its
    sets and the most natural weight one needed joker brings in with them (:func:`_set_bounds`,
    from the two halves of the key, each kept), kept per key."""
    _, sbounds, low, high = _set_table(cfg)
    k = setkey & 0xFE
    a = low.get(k)
    if a is None:
        a = low[k] = _set_bounds(cfg, k | 1)
    k = setkey >> 8
    b = high.get(k)
    if b is None:
        b = high[k] = _set_bounds(cfg, k << 8 | 1)
    got = sbounds[setkey] = (
        a[0] if a[0] > b[0] else b[0],
        (a[1] if a[1] > b[1] else b[1]) if setkey & 1 else 0,
    )
    return got


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


def _items(path: list[tuple[int, int, Entry]], spare: int) -> list[int]:
    """The melds of a path, ``spare`` jokers in its best slots, as keys ``vkey << 6 | suit << 2
    | base`` (``base``: a run's end jokers, a set's jokers; see :func:`item`): ints, so that
    the built melds are looked up without building anything."""
    if not spare:
        return [vkey << 6 | suit << 2 | e[5] for vkey, suit, e in path]
    base = [e[5] for _, _, e in path]
    slots: list[tuple[int, int, int]] = []  # (-value, meld, tag)
    for i, (_, _, e) in enumerate(path):
        for v, tag in zip(e[3], e[6], strict=True):
            slots.append((-v, i, tag))
    slots.sort()
    for _, i, tag in slots[:spare]:
        base[i] = base[i] | tag if path[i][0] >= 0 else base[i] + 1
    return [vkey << 6 | suit << 2 | b for (vkey, suit, _), b in zip(path, base, strict=True)]


def item(key: int) -> Item:
    """The meld of a key of :func:`_items`: ``("R", suit, start, length, joker mask)`` or
    ``("T", rank, ((suits, jokers),))``."""
    vkey = key >> 6
    suit = (key >> 2) & 3
    base = key & 3
    if vkey >= 0:
        a = vkey & 15
        last = (vkey >> 4) & 15
        lo = base & 1
        hi = base >> 1
        ln = last - a + 1 + lo + hi
        mask = ((vkey >> 8) << lo) | lo | (hi << (ln - 1))
        return ("R", suit, a - lo, ln, mask)
    bits = (-vkey) >> 7
    suits = tuple([s for s in range(4) if bits >> s & 1])
    return ("T", (-vkey) & 15, ((suits, base),))


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
