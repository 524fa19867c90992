"""The fast path's candidate melds and their values under a question (step 2 of
:mod:`rummykit.solver.fast`), and the melds of an answer.

Chains (runs) are tabled by a segment's shape (:func:`_chains`) and valued per question
(:func:`_chain_entries`, :func:`_entry`); a set's values are looked up per question
(:class:`_SetTable`), with bounds over a hand's set ranks (:func:`_key_bounds`). An answer's
melds are ints (:func:`_items`), read back as melds by :func:`item`.

Apart because these tables are shared from hand to hand and by both searches (one question,
or two partners at once).
"""

from __future__ import annotations

from rummykit.solver.config import Config
from rummykit.solver.fast_fields import STRUCT_LIMIT

Item = tuple[object, ...]
#: See :func:`_entry`.
Entry = tuple[int, int, int, tuple[int, ...], int, int, tuple[int, ...]]
#: A candidate in the search: (fields taken, jokers needed, natural bound weight, value, slot
#: values, variant key, entry).
Cand = tuple[int, int, int, int, tuple[int, ...], int, Entry]
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
#: Chains of a suit by (places that can be in a run, jokers): by lowest local field,
#: (fields taken counted from the suit's first field, variant key), biggest first.
_CHAINS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
_ENTRIES: dict[Config, dict[int, Entry]] = {}
_CHAIN_ENTRIES: dict[
    Config, dict[tuple[int, int], tuple[list[tuple[int, list[Cand]]], int, int]]
] = {}


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
