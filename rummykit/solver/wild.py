"""Indian wild cards: the splits of a hand's wild cards between natural cards and jokers
that a search must try (:func:`_wild_choices`), the best answer over them
(:func:`_wild_best`), and the runs of wild cards alone made melds of their suits
(:func:`_wild_runs`).

Apart because only a question with a wild rank comes here (the profile engine's: the fast
path has no wild rank).
"""

from __future__ import annotations

from rummykit.cards import ACE, JOKER, Card, card
from rummykit.solver import core
from rummykit.solver.hand import _Encoded
from rummykit.solver.profiles import F_PURE, F_SEQ
from rummykit.solver.searches import Accept


def _pool_choices(enc: _Encoded, wild_rank: int) -> list[tuple[list[int], list[int], list[Card]]]:
    """Every way of sending wild cards to the joker pool (the others stay natural)."""
    vs, ms, printed = enc
    shift = 2 * wild_rank - 2
    out: list[tuple[list[int], list[int], list[Card]]] = [(vs, ms, [JOKER] * printed)]
    for s in range(4):
        n = (vs[s] >> shift) & 3
        if not n:
            continue
        grown = []
        for v2, m2, pool in out:
            for t in range(1, n + 1):
                v3 = list(v2)
                m3 = list(m2)
                v3[s] -= t << shift
                if t == n:
                    m3[s] &= ~(1 << (wild_rank - 1))
                grown.append((v3, m3, pool + [card(wild_rank, s)] * t))
        out += grown
    return out


_Choice = tuple[list[int], list[int], list[Card], int]
"""Suit vectors, rank masks, the joker pool and how many of its wild cards may anchor a run
of jokers (:func:`core.wild_runs`)."""

#: Per configuration: whether :func:`_wild_choices` may cut the splits down (see there).
_WILD_AS_JOKER: dict[core.Config, bool] = {}


def _wild_as_joker(cfg: core.Config, wild_rank: int) -> bool:
    """Whether the question meets the conditions of :func:`_wild_choices`'s rewriting."""
    hit = _WILD_AS_JOKER.get(cfg)
    if hit is None:
        w = cfg.run_jok[0]
        places = (0, 13) if wild_rank == ACE else (wild_rank - 1,)
        hit = _WILD_AS_JOKER[cfg] = (
            cfg.min_real == 1
            and cfg.adjacent
            and not cfg.fmask & ~(F_SEQ | F_PURE)
            and all(x == w for x in cfg.run_jok)
            and all(x == w for x in cfg.set_jok[1:])
            and all(cfg.run_nat[i] == w for i in places)
            and cfg.set_nat[wild_rank] == w
        )
    return hit


def _wild_choices(
    cfg: core.Config, enc: _Encoded, wild_rank: int, target: tuple[int, int] | None
) -> list[_Choice]:
    """The splits of the wild cards between natural and joker that the search must try.

    Every split (:func:`_pool_choices`) is exact but there are up to 81. When a wild card
    standing at its own place weighs what a joker weighs (Indian penalties: both 0; melding
    everything: both one card), a meld needs one real card (adjacent jokers allowed) and the
    question tracks only the run count and a pure run, a best arrangement can be rewritten so
    that its only natural wild cards are (1) at most one, in one pure run, and (2) one in each
    run made otherwise of jokers; then the splits "every wild card a joker" and "one wild card
    of suit s natural" suffice, the runs of (2) being :func:`core.wild_runs`. Rewriting (same
    score, flags no worse, and every rule here is monotone in the flags):

    - a natural wild card in a run holding another real card becomes a joker at its place:
      the run keeps its real card, its score, its place as a run; only its purity can go,
      and one pure run is all the flags record (keep the wild card natural in that one);
    - a set of the wild rank (all its cards wild) becomes a run of the same cards: one of
      them at its own place in its suit, the others jokers around it (at most 4 cards fit
      under the ace): the same score, one more run, the set is not tracked;
    - a run whose only real card is a wild card keeps it; which wild card it is does not
      matter (the pool's cards are all jokers alike), so the search counts those runs apart
      from the suits, each using a wild card of the pool;
    - a natural wild card left in hand weighs nothing, like a joker left in hand.

    Otherwise (or with more than 13 jokers, where :func:`core.wild_runs` could not join two
    runs) every split is tried.
    """
    vs, ms, printed = enc
    shift = 2 * wild_rank - 2
    counts = [(v >> shift) & 3 for v in vs]
    if not any(counts):
        return [(vs, ms, [JOKER] * printed, 0)]
    if (
        target is not None
        or printed + sum(counts) > 13
        or not _wild_as_joker(cfg, wild_rank)
    ):
        return [(v, m, pool, 0) for v, m, pool in _pool_choices(enc, wild_rank)]
    bit = 1 << (wild_rank - 1)
    base_vs = [vs[s] - (counts[s] << shift) for s in range(4)]
    base_ms = [m & ~bit for m in ms]
    wilds = [card(wild_rank, s) for s in range(4) for _ in range(counts[s])]
    out: list[_Choice] = [(base_vs, base_ms, [JOKER] * printed + wilds, len(wilds))]
    if cfg.fmask & F_PURE:
        places = (1, 14) if wild_rank == ACE else (wild_rank,)
        for s in range(4):
            if counts[s] and _pure_through(base_ms[s], places):
                v2 = list(base_vs)
                m2 = list(base_ms)
                v2[s] += 1 << shift
                m2[s] |= bit
                rest = list(wilds)
                rest.remove(card(wild_rank, s))
                out.append((v2, m2, [JOKER] * printed + rest, len(rest)))
    return out


def _pure_through(m: int, places: tuple[int, ...]) -> bool:
    """Whether the ranks ``m`` of a suit (the wild rank left out) could make a pure run
    through one of ``places`` (the wild rank's): it holds 3 places or more, so two of its
    natural cards sit next to the place or one on each side. (A run holds the wild rank's
    place once: runs have at most 13 cards.) Otherwise no pure run needs that suit's wild
    card natural, and its split is not tried."""
    m14 = (m | (m & 1) << 13) << 2  # place p (1 to 14, the ace at both ends) at bit p + 1
    for p in places:
        near = (m14 >> (p - 1)) & 0b11011  # places p - 2, p - 1, p + 1, p + 2 at bits 0, 1, 3, 4
        if near & 0b11 == 0b11 or near & 0b1010 == 0b1010 or near & 0b11000 == 0b11000:
            return True
    return False


def _wild_best(
    cfg: core.Config,
    enc: _Encoded,
    wild_rank: int,
    accept: Accept,
    target: tuple[int, int] | None,
) -> tuple[int, object, list[Card]] | None:
    """The best accepted (score, witness, joker pool) over the splits of the wild cards.
    It stops early at a score no arrangement can beat (every card melded at its best
    weight: a declaration of every card, or a penalty question where every card melds)."""
    choices = _wild_choices(cfg, enc, wild_rank, target)
    if len(choices) == 1:
        vs2, ms2, pool, anchors = choices[0]
        got = core.solve(cfg, vs2, ms2, len(pool), accept, target, anchors)
        return None if got is None else (got[0], got[2], pool)
    vs, _, printed = enc
    jw = max(max(cfg.run_jok), max(cfg.set_jok), 0)
    top = printed * jw
    for r in range(1, 14):
        shift = 2 * r - 2
        n = sum((v >> shift) & 3 for v in vs)
        if n:
            w = max(cfg.run_nat[r - 1], cfg.set_nat[r], cfg.run_nat[13] if r == ACE else 0, 0)
            top += n * (max(w, jw) if r == wild_rank else w)
    best: tuple[int, object, list[Card]] | None = None
    for vs2, ms2, pool, anchors in choices:
        got = core.solve(cfg, vs2, ms2, len(pool), accept, target, anchors)
        if got is not None and (best is None or got[0] > best[0]):
            best = (got[0], got[2], pool)
            if got[0] >= top:
                break
    return best


def _wild_runs(
    items: list[tuple[object, ...]], pool: list[Card], wild_rank: int
) -> tuple[list[tuple[object, ...]], list[Card]]:
    """The witness items with each run of :func:`core.wild_runs` made a run of its own
    wild card's suit (taken out of the pool), and the pool left for the other jokers."""
    if not any(item[0] == "V" for item in items):
        return items, pool
    pool = list(pool)
    out: list[tuple[object, ...]] = []
    for item in items:
        if item[0] != "V":
            out.append(item)
            continue
        lengths = item[1]
        assert isinstance(lengths, tuple)
        for k in lengths:
            anchor = next(c for c in pool if c.rank == wild_rank)
            pool.remove(anchor)
            start = min(wild_rank, 15 - k)
            mask = ((1 << k) - 1) & ~(1 << (wild_rank - start))
            out.append(("R", anchor.suit, start, k, mask))
    return out, pool
