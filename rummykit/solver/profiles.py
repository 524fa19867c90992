"""Flags and profiles: what every table of the profile engine holds, and their algebra.

A *profile* maps ``jokers used << 8 | flags`` to the best score and one arrangement reaching
it (its *witness*); a flag word describes the arrangement's structure (runs, a joker-free run,
sets, copies of the must-include card melded). :func:`combine` joins the profiles of two
disjoint parts of a hand, :func:`merge_max` keeps the better of two alternatives and
:func:`prune` drops the entries another one beats.

Apart because every part of the profile engine (the runs of a suit, the sets of a rank, the
whole hand) builds profiles, and none of this depends on a question or a hand.
"""

from __future__ import annotations

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
