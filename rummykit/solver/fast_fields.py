"""A hand's fields and sets on the fast path (step 1 of :mod:`rummykit.solver.fast`).

:func:`structure` gives a hand's fields (the cards that could be in some meld, 2 bits each),
the chain tables its suits' segments use, its sets by lowest field and the cards that only a
joker can meld; what one suit gives is tabled by its ranks held (:func:`_suit`).

Apart because it depends on the hand alone, not on the question: every question about a hand
(the opening and the penalty come together) reads the same structure.
"""

from __future__ import annotations

from typing import Final

#: A set in the search: (fields taken, jokers needed, the fields of its rank, those that can
#: only be in a set, index in the question's :func:`_set_table`). The values are looked up
#: per question, so a hand's sets are built once for all its questions.
SetCand = tuple[int, int, int, int, int]
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
