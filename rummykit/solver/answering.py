"""A question answered on a hand: by the fast path or the profile engine, wild cards tried
both ways (:func:`_run`, :func:`_score`, :func:`_fast_answer`), and the answer's melds and
cards left built from what the search found (:func:`_build`, :func:`_fast_melds`,
:func:`_left`), the melds cached.

Apart because every question (opening, close, penalty, declaration) comes through it: it is
where the engines' answers become :class:`~rummykit.melds.Meld` objects and cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import Final

from rummykit.cards import FACES, JOKER, Card
from rummykit.melds import Meld, MeldRules, make_meld, set_meld
from rummykit.solver import core, fast
from rummykit.solver.hand import _COUNT, _FACES, _Hand, _hand
from rummykit.solver.searches import Accept
from rummykit.solver.wild import _wild_best, _wild_runs


def _run(
    cfg: core.Config,
    cards: Sequence[Card],
    melds: MeldRules,
    accept: Accept,
    must: Card | None = None,
) -> tuple[int, list[Meld]] | None:
    """Best accepted score of the hand and its melds (wild cards tried both ways)."""
    enc = _hand(cards)[1]
    target = None if must is None or must.is_joker else (must.rank, must.suit)
    if not melds.wild_rank:
        vs, ms, printed = enc
        if cfg.fast and must is None:
            res = fast.solve(cfg, vs, ms, printed)
            return res[0], list(_fast_melds(res[2], melds)[0])
        got = core.solve(cfg, vs, ms, printed, accept, target)
        if got is None:
            return None
        return got[0], _build(core.flatten(got[2]), [JOKER] * printed, melds)
    best = _wild_best(cfg, enc, melds.wild_rank, accept, target)
    if best is None:
        return None
    items, pool = _wild_runs(core.flatten(best[1]), best[2], melds.wild_rank)
    return best[0], _build(items, pool, melds)


def _score(
    cfg: core.Config,
    cards: Sequence[Card],
    melds: MeldRules,
    accept: Accept,
    must: Card | None = None,
) -> int | None:
    """Best accepted score only (no melds built)."""
    enc = _hand(cards)[1]
    target = None if must is None or must.is_joker else (must.rank, must.suit)
    if not melds.wild_rank:
        vs, ms, printed = enc
        if cfg.fast and must is None:
            return fast.solve(cfg, vs, ms, printed)[0]
        got = core.solve(cfg, vs, ms, printed, accept, target)
        return None if got is None else got[0]
    best = _wild_best(cfg, enc, melds.wild_rank, accept, target)
    return None if best is None else best[0]


#: Melds built from witness items (printed jokers only), bounded.
_MELDS: dict[tuple[object, ...], list[Meld]] = {}
MELD_CACHE_LIMIT: Final = 20_000


def _build(items: list[tuple[object, ...]], pool: list[Card], rules: MeldRules) -> list[Meld]:
    """The melds of a witness. Without wild cards they are built directly (exactly what
    :func:`make_meld` gives); with wild cards :func:`make_meld` reads them.
    """
    out: list[Meld] = []
    if not rules.wild_rank:
        # Printed jokers only: a meld is a function of its item (shared, immutable).
        cache = _MELDS
        for item in items:
            hit = cache.get(item)
            if hit is None:
                if len(cache) > MELD_CACHE_LIMIT:
                    cache.clear()
                hit = cache[item] = _build_each([item], [JOKER] * 13, rules)
            out += hit
        if len(out) > 1:
            out.sort(key=_meld_order)
        return out
    out = _build_each(items, pool, rules)
    if len(out) > 1:
        out.sort(key=_meld_order)
    return out


#: Melds of the fast path by key (:func:`fast_candidates.item`): (place in the answer's order,
#: meld, its cards' indices), bounded.
_FAST_MELDS: dict[int, tuple[int, Meld, bytes]] = {}


def _fast_melds(keys: list[int], rules: MeldRules) -> tuple[tuple[Meld, ...], bytes]:
    """The melds of a fast-path answer, in answer order, and their cards' indices (built
    once per key: a meld is a function of its key)."""
    cache = _FAST_MELDS
    try:
        got = list(map(cache.__getitem__, keys))
    except KeyError:
        if len(cache) > MELD_CACHE_LIMIT:
            cache.clear()
        for key in keys:
            if key not in cache:
                m = _build_each([fast.item(key)], [JOKER] * 13, rules)[0]
                cache[key] = (_meld_order(m), m, bytes([c.index for c in m.cards]))
        got = list(map(cache.__getitem__, keys))
    if len(got) > 1:
        got.sort(key=_FIRST)
    elif not got:
        return (), b""
    _, melds, cards = zip(*got, strict=True)
    return melds, b"".join(cards)


_FIRST: Final = itemgetter(0)


#: A fast-path answer already built: its melds' keys (:func:`fast_candidates.item`), melds and
#: cards left.
_Built = tuple[list[int], tuple[Meld, ...], tuple[Card, ...]]


def _fast_answer(
    cfg: core.Config, cards: Sequence[Card], rules: MeldRules, pair: bool = False,
    known: _Built | None = None,
) -> tuple[int, tuple[Meld, ...], tuple[Card, ...], _Hand, list[int]]:
    """(score, melds, cards left, the hand read, the melds' keys) of a fast-path question
    (``pair``: its partner's answer is wanted next, see :func:`fast.solve`; ``known``: the
    partner's answer on the same hand, whose melds and cards left are this one's when it
    melds the same keys, as the rummy opening and penalty do on most hands).

    The cards left: every copy of each melded card struck from the hand's indices at once, in
    C. That is the answer exactly when what is kept and what is melded make the hand (as
    multisets; then each melded card has as many copies melded as held, and striking the
    first copies first strikes them all): when they hold as many cards as the hand and their
    count vectors sum to the hand's. (Equal sums with equal counts mean equal multisets: a
    field of 4 copies or more would carry, and a carry turns 4 counted into 1, so the counts
    would differ.) Otherwise (a melded card with a copy to spare, or melds holding a card the
    hand lacks) card by card (:func:`_strike`, which raises on the latter: the number of cards
    struck alone could not tell a wrong meld from a copy to spare).
    """
    hand = _hand(cards)
    vs, ms, printed = hand[1]
    res = fast.solve(cfg, vs, ms, printed, pair)
    keys = res[2]
    if known is not None and keys == known[0]:
        # A meld is a function of its key, and the cards left of the melds and the hand.
        return res[0], known[1], known[2], hand, keys
    melds, melded = _fast_melds(keys, rules)
    indices = hand[3]
    kept = indices.translate(None, melded)
    if len(kept) + len(melded) == len(indices) and (
        sum(map(_COUNT.__getitem__, kept + melded)) == hand[4]
    ):
        left = tuple(map(_FACES.__getitem__, kept))
    else:
        left = _strike(cards, indices, melded)
    return res[0], melds, left, hand, keys


def _build_each(items: list[tuple[object, ...]], pool: list[Card], rules: MeldRules) -> list[Meld]:
    jokers = iter(pool)
    direct = not rules.wild_rank
    out: list[Meld] = []
    for item in items:
        if item[0] == "R":
            _, suit, start, length, mask = item
            assert isinstance(suit, int) and isinstance(start, int)
            assert isinstance(length, int) and isinstance(mask, int)
            base = suit * 13 - 1
            if direct and not mask:
                cards = tuple([FACES[base + p] for p in range(start, start + length)])
                if start + length == 15:  # ends on the high ace
                    cards = (*cards[:-1], FACES[base + 1])
                out.append(Meld("run", cards, start, suit, (False,) * length))
                continue
            # The faces read by index, as above (a call of ``card`` per card cost more than
            # the rest of the meld).
            cards = tuple([
                next(jokers) if mask >> i & 1 else FACES[base + start + i] for i in range(length)
            ])
            if start + length == 15 and not mask >> (length - 1) & 1:  # a high ace
                cards = (*cards[:-1], FACES[base + 1])
            if direct:
                flags = tuple([mask >> i & 1 == 1 for i in range(length)])
                out.append(Meld("run", cards, start, suit, flags))
            else:
                out.append(make_meld(cards, rules))
            continue
        _, rank, plan = item
        assert isinstance(rank, int) and isinstance(plan, tuple)
        for suits, m in plan:
            group = tuple([FACES[s * 13 - 1 + rank] for s in suits]) + tuple(
                [next(jokers) for _ in range(m)]
            )
            flags = (False,) * len(suits) + (True,) * m
            if m and len(suits) == 1:
                # One real card and jokers: in the order that reads back as the set (make_meld
                # would read "AH X X" as the run A-2-3).
                meld = set_meld(group, flags, rank, rules)
                out.append(meld if direct else make_meld(meld.cards, rules))
            elif direct:
                out.append(Meld("set", group, rank, -1, flags))
            else:
                out.append(make_meld(group, rules))
    return out


def _meld_order(m: Meld) -> int:
    """The answer's order: sets before runs, then by suit, rank, length and first card, packed
    in an int (ints compare faster than tuples; every field is below 256)."""
    return (
        (((m.kind == "run") << 8 | (m.suit + 1)) << 8 | m.rank) << 8 | len(m.cards)
    ) << 8 | m.cards[0].index


#: Keeps a card whose index byte is not :data:`_GONE`.
_GONE: Final = 255
_KEEP: Final = bytes([1] * 255 + [0])


def _left(cards: Sequence[Card], melds: Sequence[Meld]) -> tuple[Card, ...]:
    """The cards not in ``melds``, in hand order, each melded card's first copy struck
    first."""
    if not melds:
        return tuple(cards)
    melded = b"".join([bytes([c.index for c in m.cards]) for m in melds])
    return _strike(cards, bytes([c.index for c in cards]), melded)


def _strike(cards: Sequence[Card], indices: bytes, melded: bytes) -> tuple[Card, ...]:
    """The cards (their ``indices``) less the ``melded`` ones, a melded index struck out of
    the hand's, first copy first (the byte operations run in C); raises when the hand lacks
    a melded card."""
    marks = bytearray(indices)
    find = marks.index
    try:
        for i in melded:
            marks[find(i)] = _GONE
    except ValueError:
        raise AssertionError("solver melded cards that are not in the hand") from None
    return tuple(compress(cards, marks.translate(_KEEP)))
