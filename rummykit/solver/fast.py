"""Prototype fast path v2."""

from __future__ import annotations

from typing import Final

from rummykit.solver.core import Config

Item = tuple[object, ...]
Variant = tuple[int, int, int]
Skel = tuple[int, int, int, int]

LOW: Final = 0x5555555555555555
_STRUCT: dict[tuple[int, int, int, int, int], tuple[list[tuple[int, int]], list[Skel]]] = {}
_VAR: dict[Config, dict[int, tuple[int, tuple[Variant, ...], int]]] = {}



class Budget(Exception):
    pass


def structure(
    v0: int, v1: int, v2: int, v3: int, m: tuple[int, int, int, int], jokers: int
) -> tuple[list[tuple[int, int]], list[Skel]]:
    """Fields (rank, count) and skeletons (cons, low field, vkey, suit)."""
    key = (v0, v1, v2, v3, jokers)
    hit = _STRUCT.get(key)
    if hit is not None:
        return hit
    if len(_STRUCT) > 20_000:
        _STRUCT.clear()
    m0, m1, m2, m3 = m
    if jokers:
        setcap = (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
    else:
        setcap = (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))
    runcap = []
    for ms in m:
        m14 = ms | ((ms & 1) << 13)
        if jokers:
            c = m14 & ((m14 << 1) | (m14 >> 1) | (m14 << 2) | (m14 >> 2))
        else:
            w = m14 & (m14 >> 1) & (m14 >> 2)
            c = (w | (w << 1) | (w << 2)) & m14
        runcap.append(c)
    cap = [((runcap[s] | (runcap[s] >> 13)) & 0x1FFF) | (setcap & m[s]) for s in range(4)]
    fields: list[tuple[int, int]] = []
    sks: list[Skel] = []
    anyc = cap[0] | cap[1] | cap[2] | cap[3]
    if not anyc:
        res = (fields, sks)
        _STRUCT[key] = res
        return res
    vs = (v0, v1, v2, v3)
    # units[s][p]: the field unit of the card at place p (1..14) of suit s
    units = [[0] * 16 for _ in range(4)]
    fidx = [[0] * 16 for _ in range(4)]
    x = anyc
    while x:
        b = x & -x
        x ^= b
        r = b.bit_length()
        sh = 2 * r - 2
        for s in range(4):
            if cap[s] & b:
                k = len(fields)
                fields.append((r, (vs[s] >> sh) & 3))
                u = 1 << (2 * k)
                units[s][r] = u
                fidx[s][r] = k
                if r == 1:
                    units[s][14] = u
                    fidx[s][14] = k
    # runs
    for s in range(4):
        rc = runcap[s]
        if not rc:
            continue
        us = units[s]
        fs = fidx[s]
        x = rc
        while x:
            b = x & -x
            x ^= b
            a = b.bit_length()
            lim = a + 12
            if jokers:
                stack = [(a, us[a], 0, 0)]
                while stack:
                    last, cons, gm, g = stack.pop()
                    if last != a:
                        sks.append((cons, fs[a] if a != 14 else fs[14], a | last << 4 | gm << 8, s))
                    b1 = last + 1
                    if b1 <= lim and rc >> (b1 - 1) & 1:
                        stack.append((b1, cons + us[b1], gm, g))
                    b2 = last + 2
                    if g < jokers and b2 <= lim and rc >> (b2 - 1) & 1:
                        stack.append((b2, cons + us[b2], gm | 1 << (b1 - a), g + 1))
            else:
                cons = us[a]
                last = a + 1
                while last <= lim and rc >> (last - 1) & 1:
                    cons += us[last]
                    if last - a >= 2:
                        sks.append((cons, fs[a], a | last << 4, s))
                    last += 1
    # sets
    x = setcap
    while x:
        b = x & -x
        x ^= b
        r = b.bit_length()
        suits = [s for s in range(4) if m[s] & b]
        n = len(suits)
        for mask in range(3, 1 << n):
            if mask & (mask - 1) == 0:
                continue
            k = 0
            cons = 0
            low = -1
            su = 0
            for i in range(n):
                if mask >> i & 1:
                    s = suits[i]
                    k += 1
                    cons += units[s][r]
                    su |= 1 << s
                    if low < 0:
                        low = fidx[s][r]
            if k == 2 and not jokers:
                continue
            sks.append((cons, low, -(r | k << 4), su))
    # the lowest field of every skeleton
    out = []
    for cons, _, vkey, info in sks:
        low = ((cons & -cons).bit_length() - 1) >> 1
        out.append((cons, low, vkey, info))
    out.sort(key=lambda e: -e[0].bit_count())
    res = (fields, out)
    _STRUCT[key] = res
    return res


def _variants(cfg: Config, vkey: int) -> tuple[int, tuple[Variant, ...], int]:
    """(bound weight of the naturals, variants (jokers, value, ext) best first)."""
    out: dict[int, tuple[int, int]] = {}
    wr = _wmax(cfg)
    if vkey >= 0:
        a = vkey & 15
        last = (vkey >> 4) & 15
        gm = vkey >> 8
        nat = cfg.run_nat
        jok = cfg.run_jok
        base = 0
        cw = 0
        g = 0
        for p in range(a, last + 1):
            if gm >> (p - a) & 1:
                base += jok[p - 1]
                g += 1
            else:
                base += nat[p - 1]
                cw += wr[p if p <= 13 else 1]
        length = last - a + 1
        jmax = 0
        for p in range(a, last + 1):
            if gm >> (p - a) & 1:
                jmax = max(jmax, jok[p - 1])
        if a >= 2:
            jmax = max(jmax, jok[a - 2])
        if last <= 13:
            jmax = max(jmax, jok[last])
        for lo in (0, 1):
            if lo and a < 2:
                continue
            for hi in (0, 1):
                if hi and last > 13:
                    continue
                ln = length + lo + hi
                if ln < 3 or ln > 13:
                    continue
                j = g + lo + hi
                val = base + (jok[a - 2] if lo else 0) + (jok[last] if hi else 0)
                cur = out.get(j)
                if cur is None or val > cur[0]:
                    out[j] = (val, lo | hi << 1)
    else:
        r = (-vkey) & 15
        k = (-vkey) >> 4
        cw = k * wr[r]
        jmax = cfg.set_jok[r] if k < 4 else 0
        for mm in range(max(0, 3 - k), 4 - k + 1):
            out[mm] = (k * cfg.set_nat[r] + mm * cfg.set_jok[r], mm)
    res: list[Variant] = []
    top = -1
    for j in sorted(out):
        val, ext = out[j]
        if val > top:
            res.append((j, val, ext))
            top = val
    res.sort(key=lambda x: -x[1])
    return cw, tuple(res), jmax


_WMAX: dict[int, tuple[list[int], int]] = {}


def _wmax(cfg: Config) -> list[int]:
    hit = _WMAX.get(id(cfg))
    if hit is None:
        wr = [0] * 14
        for r in range(1, 14):
            w = max(cfg.set_nat[r], cfg.run_nat[r - 1])
            if r == 1:
                w = max(w, cfg.run_nat[13])
            wr[r] = w
        jw = max(max(cfg.run_jok), max(cfg.set_jok[1:]))
        hit = _WMAX[id(cfg)] = (wr, jw)
    return hit[0]


def solve(
    cfg: Config, v: list[int], m: list[int], jokers: int, budget: int = 1 << 30
) -> tuple[int, int, list[Item]]:
    fields, sks = structure(v[0], v[1], v[2], v[3], (m[0], m[1], m[2], m[3]), jokers)
    if not sks:
        return 0, 0, []
    _wmax(cfg)
    wr = _WMAX[id(cfg)][0]
    vc = _VAR.get(cfg)
    if vc is None:
        vc = _VAR[cfg] = {}
    nf = len(fields)
    by_low: list[list[tuple[int, int, tuple[Variant, ...], int, int]]] = [[] for _ in range(nf)]
    used = 0
    jw = 0
    for cons, low, vkey, info in sks:
        e = vc.get(vkey)
        if e is None:
            e = vc[vkey] = _variants(cfg, vkey)
        if e[1]:
            by_low[low].append((cons, e[0], e[1], vkey, info))
            used |= cons
            if e[2] > jw:
                jw = e[2]
    rem = 0
    remw = 0
    wf = [0] * nf
    for k in range(nf):
        if used >> (2 * k) & 1:
            r, n = fields[k]
            w = wr[r]
            wf[k] = w
            rem += n << (2 * k)
            remw += n * w
    best = [-1, 0]
    bestpath: list[list[tuple[int, int, int]]] = [[]]
    path: list[tuple[int, int, int]] = []
    nodes = [0]

    seen: dict[int, int] = {}

    def search(rem: int, jl: int, cur: int, remw: int) -> None:
        if cur + remw + jl * jw <= best[0]:
            return
        sk = rem << 3 | jl
        if seen.get(sk, -1) >= cur:
            return
        seen[sk] = cur
        nodes[0] += 1
        if not rem:
            if cur > best[0]:
                best[0] = cur
                best[1] = jokers - jl
                bestpath[0] = list(path)
            return
        low = rem & -rem
        k = (low.bit_length() - 1) >> 1
        pres = (rem | (rem >> 1)) & LOW
        for cons, cw, variants, vkey, info in by_low[k]:
            if cons & pres == cons:
                r2 = rem - cons
                w2 = remw - cw
                for jn, val, ext in variants:
                    if jn <= jl:
                        path.append((vkey, info, ext))
                        search(r2, jl - jn, cur + val, w2)
                        path.pop()
        n = (rem >> (2 * k)) & 3
        search(rem - (n << (2 * k)), jl, cur, remw - n * wf[k])

    search(rem, jokers, 0, remw)
    items: list[Item] = []
    for vkey, info, ext in bestpath[0]:
        if vkey >= 0:
            a = vkey & 15
            last = (vkey >> 4) & 15
            gm = vkey >> 8
            lo = ext & 1
            hi = ext >> 1
            ln = last - a + 1 + lo + hi
            mask = (gm << lo) | lo | (hi << (ln - 1))
            items.append(("R", info, a - lo, ln, mask))
        else:
            r = (-vkey) & 15
            suits = tuple(s for s in range(4) if info >> s & 1)
            items.append(("T", r, ((suits, ext),)))
    return best[0], best[1], items



def clear() -> None:
    _STRUCT.clear()
    _VAR.clear()


def entries() -> int:
    return len(_STRUCT) + sum(len(v) for v in _VAR.values())
