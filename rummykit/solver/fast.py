"""Fast exact path for the questions without rule flags under rummy meld rules.

It answers what :func:`rummykit.solver.core.solve` answers for a question whose score is a sum
of per-card weights and whose rule accepts every arrangement (the rummy and Rami 51 opening and
close without a taken card, the rummy penalty), when melds need 2 real cards and jokers may not
stand side by side (rummy and the Rami variants), without wild ranks.

1. **Candidate melds.** The cards that could be in any meld (a card of the same suit within two
   places, or of the same rank in another suit; without jokers: a third card) each get a 2-bit
   *field* (copies held) in one small int, ranks in order. A run is a *chain*: natural cards
   of one suit, each one or two places after the previous one (two places: a joker in the gap);
   a set is two or more suits of one rank. Each candidate is a bitmask of the fields it takes
   (one copy each), the jokers it needs at least (gaps; a run of two cards needs one at an
   end; a set of two, one), its value, and its optional *slots*: the places a spare joker may
   still take (each end of a run, the fourth card of a set), with their values.
2. **Branch and bound.** The lowest card still held is either melded by a candidate whose
   lowest card it is, or stays in hand (every copy). Spare jokers are not placed during the
   search: the slots of the chosen melds are kept (the best ones, as many as jokers remain),
   and an arrangement's value counts them at the end. A branch stops when its value so far, all
   the cards it still holds at their best weight and every remaining joker at the best joker
   weight of the hand cannot beat the best arrangement found; or when the same cards, jokers
   and slots were reached before with at least the same value.

Exact: every arrangement of the hand is a path (its melds taken lowest card first, spare jokers
in slots), a branch is dropped only when it cannot do strictly better than what is found, and
among arrangements of equal value the first found is kept.
"""

from __future__ import annotations

from typing import Final

from rummykit.solver.core import Config

Item = tuple[object, ...]
#: See :func:`_entry`.
Entry = tuple[int, int, int, tuple[int, ...], int, int, tuple[int, ...]]

_LOW: Final = 0x5555555555555555
#: Hands whose candidates are kept (a structure is a few hundred bytes to a few kB).
STRUCT_LIMIT: Final = 20_000
#: (fields (rank, copies), runs per suit (suit, run mask, first field, shift), sets, all cards)
Struct = tuple[
    list[tuple[int, int]], list[tuple[int, int, int, int]], list[tuple[int, int, int]], int
]
_STRUCT: dict[tuple[int, int, int, int, int], Struct] = {}
#: Chains of a suit by (places that can be in a run, jokers): by lowest local field,
#: (fields taken counted from the suit's first field, variant key), biggest first.
_CHAINS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
_ENTRIES: dict[Config, dict[int, Entry]] = {}
_CHAIN_ENTRIES: dict[
    Config, dict[tuple[int, int], tuple[list[list[tuple[int, int, Entry]]], int]]
] = {}
_WEIGHTS: dict[Config, list[int]] = {}


def clear() -> None:
    """Forget the cached candidates and values."""
    _STRUCT.clear()
    _CHAINS.clear()
    _ENTRIES.clear()
    _CHAIN_ENTRIES.clear()


def entries() -> int:
    return (
        len(_STRUCT) + len(_CHAINS) + sum(len(v) for v in _ENTRIES.values())
        + sum(len(v) for v in _CHAIN_ENTRIES.values())
    )


def _below(mask: int, r: int) -> int:
    """How many ranks of ``mask`` are below rank ``r``."""
    return (mask & ((1 << (r - 1)) - 1)).bit_count()


def structure(
    v0: int, v1: int, v2: int, v3: int, m: tuple[int, int, int, int] | list[int], jokers: int
) -> Struct:
    """The fields and candidates of a hand: ``v*`` are the suit vectors (2 bits per rank),
    ``m`` the rank masks per suit. Fields go suit by suit: the cards that can be in a run by
    rank, then those that can only be in a set.
    """
    key = (v0, v1, v2, v3, jokers)
    hit = _STRUCT.get(key)
    if hit is not None:
        return hit
    if len(_STRUCT) > STRUCT_LIMIT:
        _STRUCT.clear()
    m0, m1, m2, m3 = m
    if jokers:
        setcap = (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
    else:
        setcap = (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))
    fields: list[tuple[int, int]] = []
    runs: list[tuple[int, int, int, int]] = []
    sets: list[tuple[int, int, int]] = []
    first = [0, 0, 0, 0]
    rmask = [0, 0, 0, 0]
    vs = (v0, v1, v2, v3)
    for s in range(4):
        ms = m[s]
        if not ms:
            continue
        m14 = ms | ((ms & 1) << 13)
        if jokers:
            rc = m14 & ((m14 << 1) | (m14 >> 1) | (m14 << 2) | (m14 >> 2))
        else:
            w = m14 & (m14 >> 1) & (m14 >> 2)
            rc = (w | (w << 1) | (w << 2)) & m14
        rr = (rc | (rc >> 13)) & 0x1FFF
        only = setcap & ms & ~rr
        if not (rr | only):
            continue
        off = len(fields)
        first[s] = off
        rmask[s] = rr
        v = vs[s]
        x = rr
        while x:
            b = x & -x
            x ^= b
            fields.append((b.bit_length(), (v >> (2 * b.bit_length() - 2)) & 3))
        x = only
        while x:
            b = x & -x
            x ^= b
            fields.append((b.bit_length(), (v >> (2 * b.bit_length() - 2)) & 3))
        if rc:
            runs.append((s, rc, off, 2 * off))
    if not fields:
        res = _STRUCT[key] = (fields, runs, sets, 0)
        return res
    x = setcap
    while x:
        b = x & -x
        x ^= b
        r = b.bit_length()
        su = []
        for s in range(4):
            if m[s] & b:
                rr = rmask[s]
                if rr & b:
                    i = first[s] + _below(rr, r)
                else:
                    i = first[s] + rr.bit_count() + _below(setcap & m[s] & ~rr, r)
                su.append((s, i))
        n = len(su)
        for mask in range(3, 1 << n):
            if not mask & (mask - 1):
                continue  # one suit
            k = mask.bit_count()
            if k == 2 and not jokers:
                continue
            cons = bits = 0
            low = 99
            for i in range(n):
                if mask >> i & 1:
                    s, f = su[i]
                    cons += 1 << (2 * f)
                    bits |= 1 << s
                    if f < low:
                        low = f
            sets.append((cons, low, -(r | k << 4 | bits << 7)))
    sets.sort(key=_set_size)
    full = 0
    for i, (_, n) in enumerate(fields):
        full += n << (2 * i)
    res = _STRUCT[key] = (fields, runs, sets, full)
    return res


def _set_size(c: tuple[int, int, int]) -> int:
    return -c[0].bit_count()


def _chains(rc: int, jokers: int) -> list[list[tuple[int, int]]]:
    """The chains of a suit whose run places are ``rc`` (place ``p`` at bit ``p - 1``)."""
    key = (rc, jokers)
    hit = _CHAINS.get(key)
    if hit is not None:
        return hit
    rr = (rc | (rc >> 13)) & 0x1FFF
    us = [0] * 16
    for p in range(1, 15):
        if rc >> (p - 1) & 1:
            us[p] = 1 << (2 * _below(rr, p if p <= 13 else 1))
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
    groups: list[list[tuple[int, int]]] = [[] for _ in range(rr.bit_count())]
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
) -> tuple[list[list[tuple[int, int, Entry]]], int]:
    """The chains of :func:`_chains` with their values under ``cfg``, and the best joker value
    among them."""
    per = _CHAIN_ENTRIES.get(cfg)
    if per is None:
        per = _CHAIN_ENTRIES[cfg] = {}
    key = (rc, jokers)
    hit = per.get(key)
    if hit is not None:
        return hit
    table = _ENTRIES.get(cfg)
    if table is None:
        table = _ENTRIES[cfg] = {}
    jw = 0
    groups = []
    for grp in _chains(rc, jokers):
        out = []
        for t, vkey in grp:
            e = table.get(vkey)
            if e is None:
                e = table[vkey] = _entry(cfg, vkey)
            out.append((t, vkey, e))
            if e[4] > jw:
                jw = e[4]
        groups.append(out)
    if len(per) > STRUCT_LIMIT:
        per.clear()
    hit = per[key] = (groups, jw)
    return hit


def _weights(cfg: Config) -> list[int]:
    """The best weight a natural card of each rank can get in a meld."""
    hit = _WEIGHTS.get(cfg)
    if hit is None:
        hit = [0] * 14
        for r in range(1, 14):
            hit[r] = max(cfg.set_nat[r], cfg.run_nat[r - 1], cfg.run_nat[13] if r == 1 else 0)
        _WEIGHTS[cfg] = hit
    return hit


def _run_parts(cfg: Config, vkey: int) -> tuple[int, int, int, int, int, list[tuple[int, int]]]:
    """A chain's (natural bound weight, jokers needed, value, base end jokers (bit 0 low, bit 1
    high), best joker value, slots (value, end bit) best first).
    """
    wr = _weights(cfg)
    a = vkey & 15
    last = (vkey >> 4) & 15
    gm = vkey >> 8
    nat = cfg.run_nat
    jok = cfg.run_jok
    val = cw = g = jmax = 0
    for p in range(a, last + 1):
        if gm >> (p - a) & 1:
            val += jok[p - 1]
            g += 1
            jmax = max(jmax, jok[p - 1])
        else:
            val += nat[p - 1]
            cw += wr[p if p <= 13 else 1]
    length = last - a + 1
    ends: list[tuple[int, int]] = []
    if a >= 2:
        ends.append((jok[a - 2], 1))
    if last <= 13:
        ends.append((jok[last], 2))
    ends.sort(key=lambda e: -e[0])  # the better end first (the low one among equals)
    base = 0
    if length == 2:
        # Two adjacent cards need a joker at an end: the better one.
        v, e = ends.pop(0)
        val += v
        g += 1
        base = e
        jmax = max(jmax, v)
        length = 3
    room = 13 - length
    slots = ends[:room]
    for v, _ in slots:
        jmax = max(jmax, v)
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


def solve(cfg: Config, v: list[int], m: list[int], jokers: int) -> tuple[int, int, list[Item]]:
    """``(score, jokers used, melds)`` of the best arrangement; melds are ``("R", suit, start,
    length, joker mask)`` and ``("T", rank, ((suits, jokers),))``.
    """
    fields, runs, sets, full = structure(v[0], v[1], v[2], v[3], m, jokers)
    if not full:
        return 0, 0, []
    wr = _weights(cfg)
    nf = len(fields)
    # At each field: the chains whose lowest card it is (templates of its suit, shifted) and
    # the sets whose lowest card it is.
    runb: list[tuple[list[tuple[int, int, Entry]], int, int] | None] = [None] * nf
    setb: list[list[tuple[int, int, Entry]] | None] = [None] * nf
    jw = 0
    for s, rc, off, sh in runs:
        groups, jm = _chain_entries(cfg, rc, jokers)
        if jm > jw:
            jw = jm
        i = off
        for grp in groups:
            if grp:
                runb[i] = (grp, sh, s)
            i += 1
    if sets:
        table = _ENTRIES.get(cfg)
        if table is None:
            table = _ENTRIES[cfg] = {}
        for cons, low, vkey in sets:
            e = table.get(vkey)
            if e is None:
                e = table[vkey] = _entry(cfg, vkey)
            lst = setb[low]
            if lst is None:
                setb[low] = [(cons, vkey, e)]
            else:
                lst.append((cons, vkey, e))
            if e[4] > jw:
                jw = e[4]
    wf = [wr[r] for r, _ in fields]
    remw = 0
    for r, n in fields:
        remw += n * wr[r]
    best = -1
    best_path: list[tuple[int, int, Entry]] = []
    best_left = best_spare = 0
    path: list[tuple[int, int, Entry]] = []
    seen: dict[tuple[int, int, tuple[int, ...]], int] = {}

    def search(rem: int, jl: int, cur: int, remw: int, top: tuple[int, ...]) -> None:
        nonlocal best, best_path, best_left, best_spare
        if jl:
            key = (rem, jl, top)
            if seen.get(key, -1) >= cur:
                return
            seen[key] = cur
        while rem:
            if cur + remw + jl * jw <= best:
                return
            k = ((rem & -rem).bit_length() - 1) >> 1
            pres = (rem | (rem >> 1)) & _LOW
            rb = runb[k]
            if rb is not None:
                grp, sh, su = rb
                p2 = pres >> sh
                for t, vkey, e in grp:
                    if t & p2 == t and e[1] <= jl:
                        cw, need, val, slots = e[0], e[1], e[2], e[3]
                        j2 = jl - need
                        if cur + val + remw - cw + j2 * jw <= best:
                            continue
                        if slots and j2:
                            t2 = tuple(sorted(top + slots, reverse=True)[:j2])
                        elif len(top) > j2:
                            t2 = top[:j2]
                        else:
                            t2 = top
                        path.append((vkey, su, e))
                        search(rem - (t << sh), j2, cur + val, remw - cw, t2)
                        path.pop()
            sb = setb[k]
            if sb is not None:
                for cons, vkey, e in sb:
                    if cons & pres == cons and e[1] <= jl:
                        cw, need, val, slots = e[0], e[1], e[2], e[3]
                        j2 = jl - need
                        if cur + val + remw - cw + j2 * jw <= best:
                            continue
                        if slots and j2:
                            t2 = tuple(sorted(top + slots, reverse=True)[:j2])
                        elif len(top) > j2:
                            t2 = top[:j2]
                        else:
                            t2 = top
                        path.append((vkey, 0, e))
                        search(rem - cons, j2, cur + val, remw - cw, t2)
                        path.pop()
            # Every copy of this card stays in hand.
            n = (rem >> (2 * k)) & 3
            rem -= n << (2 * k)
            remw -= n * wf[k]
        cur += sum(top)
        if cur > best:
            best = cur
            best_path = path[:]
            best_left = jl
            best_spare = len(top)

    search(full, jokers, 0, remw, ())
    return best, jokers - best_left + best_spare, _items(best_path, best_spare)


def _items(path: list[tuple[int, int, Entry]], spare: int) -> list[Item]:
    """The melds of a path, ``spare`` jokers in its best slots."""
    base = [e[5] for _, _, e in path]
    if spare:
        slots: list[tuple[int, int, int]] = []  # (-value, meld, tag)
        for i, (_, _, e) in enumerate(path):
            for v, tag in zip(e[3], e[6], strict=True):
                slots.append((-v, i, tag))
        slots.sort()
        for _, i, tag in slots[:spare]:
            base[i] = base[i] | tag if path[i][0] >= 0 else base[i] + 1
    items: list[Item] = []
    for i, (vkey, suit, _) in enumerate(path):
        if vkey >= 0:
            a = vkey & 15
            last = (vkey >> 4) & 15
            lo = base[i] & 1
            hi = base[i] >> 1
            ln = last - a + 1 + lo + hi
            mask = ((vkey >> 8) << lo) | lo | (hi << (ln - 1))
            items.append(("R", suit, a - lo, ln, mask))
        else:
            bits = (-vkey) >> 7
            suits = tuple([s for s in range(4) if bits >> s & 1])
            items.append(("T", (-vkey) & 15, ((suits, base[i]),)))
    return items
