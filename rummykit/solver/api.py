"""The solver's questions: best opening, lay-everything close, least penalty, declaration.

Every function takes the hand as a sequence of :class:`~rummykit.cards.Card` and the variant's
:class:`~rummykit.melds.MeldRules`; answers are :class:`Arrangement` values whose melds are
real :class:`~rummykit.melds.Meld` objects (checked by :func:`~rummykit.melds.make_meld`).
These functions do not check that the hand could exist in a deck; the caller does
(:func:`rummykit.analysis.analyze` does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Final, Literal

from rummykit.cards import ACE, FACES, JOKER, ONLY_CARDS, Card, card, cards_argument
from rummykit.errors import InvalidArgument, InvalidHand, InvalidMeld, describe
from rummykit.melds import (
    RUMMY_MELDS,
    Meld,
    MeldRules,
    indian_penalty,
    make_meld,
    opening_value,
    rummy_penalty,
    set_meld,
)
from rummykit.solver import core, fast
from rummykit.solver.core import F_CM, F_CRC, F_CSET, F_PURE, F_SEQ, F_SET

#: Weight of a melded card when the question is "can everything (but one) be melded".
BIG: Final = 1000


@dataclass(frozen=True, slots=True)
class OpeningRule:
    """How a variant's first lay-down (its opening) is judged.

    - ``minimum``: points the opening must reach (0: no minimum).
    - ``jokers_zero``: jokers count nothing towards the minimum (``rami71``).
    - ``clean_run_and_set``: the lay-down needs a joker-free run and a joker-free set.
    - ``clean_run_without_taken``: with a taken card, one joker-free run must be made without
      it (``rami71``).
    - ``close_leaves``: how many cards a lay-everything close may leave in hand -- it ignores
      the minimum (``rummy``: 0 or 1; Rami: exactly 1, the discard).
    - ``close_only``: the only lay-down is the close (``simple``).
    - ``close_run_and_set``: a close needs a run and a set (``simple``).
    - ``keep``: cards an opening must leave in hand, 0 or 1 (Rami: 1, since a deal is won
      by discarding the last card; ``rummy`` may go out by laying every card).
    """

    minimum: int = 40
    jokers_zero: bool = False
    clean_run_and_set: bool = False
    clean_run_without_taken: bool = False
    close_leaves: tuple[int, ...] = (0, 1)
    close_only: bool = False
    close_run_and_set: bool = False
    keep: int = 0

    def __post_init__(self) -> None:
        # The rules layer makes one for every question of the opening meter: the types are
        # compared in one go, and looked at one by one only when they differ.
        if (
            tuple(map(type, _OPENING_FIELDS(self))) == _OPENING_TYPES
            and self.minimum >= 0
            and self.keep in (0, 1)
            and ONLY_INTS.issuperset(map(type, self.close_leaves))
            and min(self.close_leaves, default=0) >= 0
        ):
            return
        _whole(self, "minimum")
        _flags(self, "jokers_zero", "clean_run_and_set", "clean_run_without_taken",
               "close_only", "close_run_and_set")
        leaves = self.close_leaves
        if type(leaves) is not tuple or not all(type(n) is int and n >= 0 for n in leaves):
            raise InvalidArgument(
                f"OpeningRule close_leaves must be a tuple of card counts, not {describe(leaves)}"
            )
        if type(self.keep) is not int or self.keep not in (0, 1):
            raise InvalidArgument(
                f"OpeningRule keep: an opening keeps 0 or 1 card in hand, not {describe(self.keep)}"
            )


@dataclass(frozen=True, slots=True)
class PenaltyRule:
    """How cards left in hand are charged: ``rummy`` values (A 11, joker 20) or ``indian``
    values (J Q K A 10, jokers 0); with ``two_sequences`` melds count only when the
    arrangement holds two sequences, one of them pure; ``cap`` bounds the total.
    """

    scoring: Literal["rummy", "indian"] = "rummy"
    two_sequences: bool = False
    cap: int | None = None

    def __post_init__(self) -> None:
        if self.scoring not in ("rummy", "indian") or type(self.scoring) is not str:
            raise InvalidArgument(
                f"PenaltyRule scoring must be 'rummy' or 'indian', not {describe(self.scoring)}"
            )
        _flags(self, "two_sequences")
        if self.cap is not None:
            _whole(self, "cap")


_OPENING_FIELDS: Final = attrgetter(
    "minimum", "jokers_zero", "clean_run_and_set", "clean_run_without_taken", "close_leaves",
    "close_only", "close_run_and_set", "keep",
)
_OPENING_TYPES: Final = (int, bool, bool, bool, tuple, bool, bool, int)
ONLY_INTS: Final = frozenset({int})


# The rules are checked when made, and the functions below check that they were given rules
# (where a search is first set up for them, so a known rule costs nothing more): a wrong value
# would otherwise fail deep inside a search, or, for a rule used as a table key, not at all.


def _whole(rule: object, name: str) -> None:
    value = getattr(rule, name)
    if type(value) is not int or value < 0:
        raise InvalidArgument(
            f"{type(rule).__name__} {name} must be a whole number of 0 or more, not "
            f"{describe(value)}"
        )


def _flags(rule: object, *names: str) -> None:
    for name in names:
        value = getattr(rule, name)
        if type(value) is not bool:
            raise InvalidArgument(
                f"{type(rule).__name__} {name} must be True or False, not {describe(value)}"
            )


def _rules_given(rule: object, kind: type, melds: object) -> None:
    if type(rule) is not kind:
        raise InvalidArgument(f"rule must be of type {kind.__name__}, not {describe(rule)}")
    if type(melds) is not MeldRules:
        raise InvalidArgument(f"melds must be a MeldRules, not {describe(melds)}")


def _given(cards: Sequence[Card]) -> None:
    """Raise :class:`InvalidArgument` unless ``cards`` is a sequence of cards: the one check
    of a hand at each entry point, done in C in a few bytecodes whatever the hand's length
    (the slice refuses an iterator, which the check would otherwise use up, and a set)."""
    try:
        if ONLY_CARDS.issuperset(map(type, cards[:])):
            return
    except TypeError:
        pass
    cards_argument(cards, "cards")


RUMMY_OPENING: Final = OpeningRule(minimum=40)
RAMI51_OPENING: Final = OpeningRule(minimum=51, close_leaves=(1,), keep=1)
RAMI71_OPENING: Final = OpeningRule(
    minimum=71,
    jokers_zero=True,
    clean_run_and_set=True,
    clean_run_without_taken=True,
    close_leaves=(1,),
    keep=1,
)
SIMPLE_OPENING: Final = OpeningRule(
    minimum=0, close_leaves=(1,), close_only=True, close_run_and_set=True, keep=1
)
RUMMY_PENALTY: Final = PenaltyRule()
INDIAN_PENALTY: Final = PenaltyRule(scoring="indian", two_sequences=True, cap=80)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds taken from a hand and the cards left; ``points`` is what the question measures
    (opening value, or penalty of the cards left).
    """

    points: int
    melds: tuple[Meld, ...]
    left: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """``best``: the most valuable lay-down the opening rule's structure allows (whatever the
    minimum); ``close``: the best lay-everything close (which ignores the minimum).
    """

    rule: OpeningRule
    best: Arrangement | None
    close: Arrangement | None

    @property
    def valid(self) -> bool:
        """Whether the hand can open now: the best reaches the minimum, or it can close."""
        if self.close is not None:
            return True
        if self.rule.close_only or self.best is None or not self.best.melds:
            return False
        return self.best.points >= self.rule.minimum

    @property
    def lay(self) -> Arrangement | None:
        """What a one-tap Open lays: the best if it reaches the minimum, else the close."""
        if (
            not self.rule.close_only
            and self.best is not None
            and self.best.melds
            and self.best.points >= self.rule.minimum
        ):
            return self.best
        return self.close


# -- hands ----------------------------------------------------------------------------------

_Encoded = tuple[list[int], list[int], int]
"""Suit vectors (2 bits per rank), rank masks per suit, printed jokers."""

_Hand = tuple[tuple[Card, ...], _Encoded, int, bytes, int]
"""The cards, their encoding, their rummy penalty, their indices (as bytes, in hand order)
and their count vector (:data:`_COUNT`'s, summed)."""

#: The last hand read (the questions about one hand come together); read and replaced as a
#: whole.
_NO_HAND: Final[_Hand] = ((), ([0, 0, 0, 0], [0, 0, 0, 0], 0), 0, b"", 0)
_LAST: list[_Hand] = [_NO_HAND]

_L128: Final = (1 << 128) - 1
#: A card's count vector by index: suit ``s`` in bits ``32 s`` on, 2 bits per rank; the
#: jokers counted from bit 128.
_COUNT: Final = [1 << (32 * c.suit + 2 * c.rank - 2) for c in FACES[:52]] + [1 << 128]
#: One card's share of the packed sum by index: its count vector with the jokers counted from
#: bit 160 instead, and its rummy penalty from bit 128 (32 bits: a hand's total cannot reach
#: them).
_ADD: Final = [
    (x >> 128 << 160 | x & _L128) + (rummy_penalty(c) << 128)
    for x, c in zip(_COUNT, FACES, strict=True)
]
#: The cards by index (a list: its ``__getitem__`` is called faster than a tuple's).
_FACES: Final = list(FACES)
_INDEX: Final = attrgetter("index")
_L32: Final = (1 << 32) - 1
_LOWS: Final = 0x55555555555555555555555555555555
_HIGHS: Final = _LOWS << 1
_C1: Final = 0x33333333333333333333333333333333
_C2: Final = 0x0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F
_C3: Final = 0x00FF00FF00FF00FF00FF00FF00FF00FF
_C4: Final = 0x0000FFFF0000FFFF0000FFFF0000FFFF


def _hand(cards: Iterable[Card]) -> _Hand:
    key = tuple(cards)
    last = _LAST[0]
    if last[0] == key:
        return last
    indices = bytes([c.index for c in key])
    # All cards added at once: 2 bits per card, suit by suit, the penalty and the jokers on
    # top.
    v = sum(map(_ADD.__getitem__, indices))
    printed = v >> 160
    total = (v >> 128) & _L32
    v &= _L128
    count = v | printed << 128
    # A third copy shows as a field 3; a fourth or more carries into the next field and
    # loses count.
    if v & (v >> 1) & _LOWS or (
        (v & _LOWS).bit_count() + 2 * (v & _HIGHS).bit_count() + printed != len(key)
    ):
        _encode_slow(key)
    # Rank masks: each field's presence bit, compacted lane by lane.
    x = (v | (v >> 1)) & _LOWS
    x = (x | (x >> 1)) & _C1
    x = (x | (x >> 2)) & _C2
    x = (x | (x >> 4)) & _C3
    x = (x | (x >> 8)) & _C4
    hand = (
        key,
        (
            [v & 0x3FFFFFF, (v >> 32) & 0x3FFFFFF, (v >> 64) & 0x3FFFFFF, (v >> 96) & 0x3FFFFFF],
            [x & 0x1FFF, (x >> 32) & 0x1FFF, (x >> 64) & 0x1FFF, (x >> 96) & 0x1FFF],
            printed,
        ),
        total,
        indices,
        count,
    )
    _LAST[0] = hand
    return hand


def _encode_slow(key: tuple[Card, ...]) -> None:
    """Card by card: raises on the first third copy."""
    vs = [0, 0, 0, 0]
    for c in key:
        r = c.rank
        if r:
            s = c.suit
            if (vs[s] >> (2 * r - 2)) & 3 == 2:
                raise InvalidHand(f"a third copy of {c.text}: the deck holds only 2")
            vs[s] += 1 << (2 * r - 2)
    raise AssertionError("hand encoding: a card counted wrong")


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


# -- weights --------------------------------------------------------------------------------


def _rank_of_place(i: int) -> int:
    return ACE if i == 13 else i + 1


def _weights(
    kind: str, jokers_zero: bool, wild_rank: int, big: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(run_nat, run_jok, set_nat, set_jok) for ``kind`` 'open', 'rummy', 'indian' or
    'count'."""
    if kind == "open":
        run_nat = [opening_value(i + 1) for i in range(14)]
        run_jok = [0 if jokers_zero else v for v in run_nat]
        set_nat = [0] + [11 if r == ACE else min(r, 10) for r in range(1, 14)]
        set_jok = [0 if jokers_zero else v for v in set_nat]
    elif kind == "rummy":
        run_nat = [rummy_penalty(card(_rank_of_place(i), 0)) for i in range(14)]
        run_jok = [20] * 14
        set_nat = [0] + [rummy_penalty(card(r, 0)) for r in range(1, 14)]
        set_jok = [20] * 14
    elif kind == "indian":
        run_nat = [indian_penalty(card(_rank_of_place(i), 0), wild_rank) for i in range(14)]
        run_jok = [0] * 14
        set_nat = [0] + [indian_penalty(card(r, 0), wild_rank) for r in range(1, 14)]
        set_jok = [0] * 14
    else:  # "count": only the number of cards melded matters
        run_nat = run_jok = [0] * 14
        set_nat = set_jok = [0] * 14
    return (
        tuple(x + big for x in run_nat),
        tuple(x + big for x in run_jok),
        tuple([0] + [x + big for x in set_nat[1:]]),
        tuple([0] + [x + big for x in set_jok[1:]]),
    )


_PARTNER: Final = {"open": "rummy", "rummy": "open"}
_CONFIG_CACHE: dict[tuple[int, bool, int, str, bool, int, int, bool, bool], core.Config] = {}


def _config(melds: MeldRules, kind: str, jokers_zero: bool, big: int, fmask: int,
            c_split: bool = False, joker_must: bool = False) -> core.Config:
    key = (
        melds.min_real, melds.adjacent_jokers, melds.wild_rank, kind, jokers_zero, big, fmask,
        c_split, joker_must,
    )
    cfg = _CONFIG_CACHE.get(key)
    if cfg is None:
        w = _weights(kind, jokers_zero, melds.wild_rank, big)
        cfg = _CONFIG_CACHE[key] = core.config(
            melds.min_real, melds.adjacent_jokers, w[0], w[1], w[2], w[3], fmask, c_split,
            joker_must,
        )
        cfg.fast = (
            not fmask and melds.min_real == 2 and not melds.adjacent_jokers
            and not melds.wild_rank
        )
        if cfg.fast and not big and not jokers_zero and kind in _PARTNER:
            # The opening and the penalty weigh cards alike but for low aces and jokers:
            # whichever is asked second about a hand starts from the other's answer.
            other = _config(melds, _PARTNER[kind], False, 0, 0)
            cfg.partners = (other,)
            other.partners = (cfg,)
    return cfg


Accept = Callable[[int], bool]

#: Question set-ups (configuration, acceptance test) by the identity of the objects asking
#: (rules, taken card; ``big``): hashing the rule dataclasses costs more than the rest of a
#: look-up. The entry keeps its objects alive, so their ids are not reused while it lives;
#: the rules are immutable, so the same objects ask the same question. Bounded.
_SEARCHES: dict[tuple[int, ...], tuple[core.Config, Accept, tuple[object, ...]]] = {}
SEARCH_LIMIT: Final = 256


def _searched(
    key: tuple[int, ...], objects: tuple[object, ...], cfg: core.Config, accept: Accept
) -> tuple[core.Config, Accept, tuple[object, ...]]:
    if len(_SEARCHES) >= SEARCH_LIMIT:
        _SEARCHES.clear()
    hit = _SEARCHES[key] = (cfg, accept, objects)
    return hit


def _accept_all(key: int) -> bool:
    return True


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


#: Melds of the fast path by key (:func:`fast.item`): (place in the answer's order, meld, its
#: cards' indices), bounded.
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


#: A fast-path answer already built: its melds' keys (:func:`fast.item`), melds and cards left.
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


def _check_must(cards: Sequence[Card], must: Card | None) -> None:
    if must is None:
        return
    if type(must) is not Card:
        raise InvalidArgument(f"must_include must be a Card or None, not {describe(must)}")
    if must not in cards:
        raise InvalidHand(f"the card that must be included, {must.text}, is not in the hand")


# -- openings -------------------------------------------------------------------------------


_ACCEPTS: dict[tuple[OpeningRule, int], tuple[int, bool, Accept]] = {}


def _opening_accept(rule: OpeningRule, must: Card | None) -> tuple[int, bool, Accept]:
    """(flags to track, c_split, accept) for the structure of an opening or close."""
    kind = 0 if must is None else (2 if must.is_joker else 1)
    hit = _ACCEPTS.get((rule, kind))
    if hit is None:
        hit = _ACCEPTS[(rule, kind)] = _make_accept(rule, kind)
    return hit


def _make_accept(rule: OpeningRule, kind: int) -> tuple[int, bool, Accept]:
    need_clean = rule.clean_run_and_set
    need_run_set = rule.close_run_and_set
    fmask = 0
    if need_clean:
        fmask |= F_PURE | F_CSET
    if need_run_set:
        fmask |= F_SEQ | F_SET
    natural_must = kind == 1
    joker_must = kind == 2
    if natural_must or joker_must:
        # Copies of the taken card melded; of a taken joker, jokers melded (core.Config).
        fmask |= F_CM
    c_split = need_clean and natural_must and rule.clean_run_without_taken
    if c_split:
        fmask |= F_CRC

    def accept(key: int) -> bool:
        f = key & 255
        if not f & F_CM and (natural_must or joker_must):
            return False
        if need_run_set and not (f & F_SEQ and f & F_SET):
            return False
        if need_clean:
            if not f & F_CSET:
                return False
            if c_split:
                # A joker-free run without the taken card, or one holding a copy of it
                # while the other melded copy can be the taken one.
                return bool(f & F_PURE) or bool(f & F_CRC and (f & F_CM) >> 5 >= 2)
            return bool(f & F_PURE)
        return True

    return fmask, c_split, accept


def best_opening(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> Arrangement | None:
    """The most valuable lay-down meeting the rule's structure (joker-free run and set,
    taken card inside) and leaving ``rule.keep`` cards, whatever the minimum; None when no
    lay-down meets the structure. Without structure demands the answer is never None
    (possibly no melds, 0 points).

    ``keep``: a card that may not be thrown this turn (the one just taken from the pile,
    when it is not owed to the table): a lay-down may not leave it as the only card in hand,
    so the answer lays it or leaves another card beside it (see :func:`_checked_keep`).
    """
    _given(cards)
    _check_must(cards, must_include)
    if keep is not None:
        keep = _checked_keep(cards, must_include, keep)
    got = _best_opening(cards, rule, melds, must_include)
    if keep is not None and got is not None and got.melds and (
        got.left == (keep,) or (rule.keep and not got.left)
    ):
        return _opening_keeping(cards, rule, melds, keep)
    if rule.keep and got is not None and not got.left:
        return _keeping_one(cards, rule, melds, must_include)
    return got


def _checked_keep(cards: Sequence[Card], must: Card | None, keep: Card) -> Card | None:
    """``keep`` checked (a card of the hand), or None where it does not constrain: held twice
    (one copy may go: the other one stays), or the card the lay-down must include anyway."""
    if type(keep) is not Card:
        raise InvalidArgument(f"keep must be a Card or None, not {describe(keep)}")
    count = list(cards).count(keep)
    if not count:
        raise InvalidHand(f"the card to keep, {keep.text}, is not in the hand")
    if count > 1 or keep is must:
        return None
    if must is not None:
        # Not asked by the engine: a card owed to the table is the card taken, the one kept.
        raise InvalidArgument(
            f"keep ({keep.text}) and must_include ({must.text}) must be the same card when both "
            "are given: the card taken from the pile is the one a lay-down must include"
        )
    return keep


def _opening_keeping(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, keep: Card
) -> Arrangement | None:
    """The best opening that does not leave ``keep`` alone in hand (nor, under
    ``rule.keep``, an empty hand), when the best of all does: every such opening lays
    ``keep``, or leaves it with some other card ``c``, and is then an opening of the hand
    without ``c``; so the best is the best of those questions (the first among equals: the
    one laying ``keep``, then ``c`` in index order). Rare: only a card just taken that
    completes nothing, beside a hand that melds whole."""
    best = best_opening(cards, _laid_freely(rule), melds, keep)
    for leave in sorted(set(cards) - {keep}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        got = _best_opening(rest, rule, melds, None)
        if got is not None and got.melds and (best is None or got.points > best.points):
            best = got
    if best is None:
        # No lay-down at all: as for a hand without one, no melds where the rule takes that.
        _, accept = _opening_search(rule, melds, None)
        return Arrangement(0, (), tuple(cards)) if accept(0) else None
    return Arrangement(best.points, best.melds, _left(cards, best.melds))


def _best_opening(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must_include: Card | None
) -> Arrangement | None:
    """:func:`best_opening` whatever it leaves in hand."""
    cfg, accept = _opening_search(rule, melds, must_include)
    # The score is the melds' opening value (the tests check it against Meld.value).
    if cfg.fast and must_include is None:
        score, fms, left, _, _ = _fast_answer(cfg, cards, melds)
        return Arrangement(score, fms, left)
    got = _run(cfg, cards, melds, accept, must_include)
    if got is None:
        return None
    score, ms = got
    return Arrangement(score, tuple(ms), _left(cards, ms))


def _keeping_one(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must_include: Card | None
) -> Arrangement | None:
    """The best opening leaving a card, when the best of all lays every card: an opening
    that leaves some card ``c`` is an opening of the other cards, so the best one is the
    best over each card left out in turn (the first in index order among equals). Rare: a
    hand that melds whole, in a variant that wins by discarding."""
    best: Arrangement | None = None
    for rest in _each_left_out(cards):
        if must_include is not None and must_include not in rest:
            continue
        got = _best_opening(rest, rule, melds, must_include)
        if got is not None and (best is None or got.points > best.points):
            best = got
    if best is None:
        return None
    return Arrangement(best.points, best.melds, _left(cards, best.melds))


def _each_left_out(cards: Sequence[Card]) -> Iterator[list[Card]]:
    """The hand without one card, for each of its cards in index order (a copy held twice
    once): where the best of all melds every card and one must stay in hand."""
    for leave in sorted(set(cards), key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        yield rest


def opening_points(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
) -> int | None:
    """``best_opening(...).points`` without building the melds (the opening meter)."""
    _given(cards)
    _rules_given(rule, OpeningRule, melds)
    if rule.keep:
        # Whether the best lays every card needs its melds.
        got = best_opening(cards, rule, melds, must_include)
        return None if got is None else got.points
    _check_must(cards, must_include)
    cfg, accept = _opening_search(rule, melds, must_include)
    return _score(cfg, cards, melds, accept, must_include)


def _opening_search(
    rule: OpeningRule, melds: MeldRules, must: Card | None, big: int = 0
) -> tuple[core.Config, Accept]:
    """The search configuration and acceptance test of an opening (``big`` 0) or close
    (``big`` :data:`BIG`) question."""
    key = (id(rule), id(melds), id(must), big)
    hit = _SEARCHES.get(key)
    if hit is None:
        _rules_given(rule, OpeningRule, melds)
        fmask, c_split, accept = _opening_accept(rule, must)
        joker_must = must is not None and must.is_joker
        cfg = _config(melds, "open", rule.jokers_zero, big, fmask, c_split, joker_must)
        hit = _searched(key, (rule, melds, must), cfg, accept)
    return hit[0], hit[1]


def best_close(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> Arrangement | None:
    """The lay-everything close: all cards but ``rule.close_leaves`` melded at once, meeting
    the structure rules; the most cards melded first, then the most points. None if none.
    ``keep``: as for :func:`best_opening`, a card the close may not leave alone in hand.
    """
    _given(cards)
    _check_must(cards, must_include)
    if keep is not None:
        return _close_keeping(cards, rule, melds, must_include, keep)
    cfg, accept = _opening_search(rule, melds, must_include, BIG)
    n = len(cards)
    got = _run(cfg, cards, melds, accept, must_include)
    if got is None:
        return None
    score, ms = got
    melded = score // BIG
    if not ms:
        return None  # a close lays at least one meld
    if n - melded in rule.close_leaves:
        return _close_of(cards, ms, rule)
    if melded != n or 1 not in rule.close_leaves:
        return None
    # Everything melds but the rule wants one card left: leave out each card in turn.
    best: tuple[int, list[Meld]] | None = None
    for rest in _each_left_out(cards):
        got = _run(cfg, rest, melds, accept, must_include)
        if got is not None and got[0] // BIG == n - 1 and (best is None or got[0] > best[0]):
            best = got
    if best is None:
        return None
    return _close_of(cards, best[1], rule)


def _close_keeping(
    cards: Sequence[Card], rule: OpeningRule, melds: MeldRules, must: Card | None, keep: Card
) -> Arrangement | None:
    """:func:`best_close` with a card ``keep`` it may not leave alone in hand."""
    kept = _checked_keep(cards, must, keep)
    got = best_close(cards, rule, melds, must)
    if kept is None or got is None or got.left != (kept,):
        return got
    # The best close melds every card but ``kept``: a close laying it and leaving one other
    # card, if any, melds as many and is the answer; only where a close may leave two cards
    # or more (a house rule) can one melding fewer be the best.
    best = best_close(cards, _laid_freely(rule), melds, kept)
    if (best is not None and len(best.left) == 1) or max(rule.close_leaves, default=0) < 2:
        return best
    # The closes leaving ``keep`` and other cards (a house rule lets a close leave two or
    # more): each leaves some card ``c`` and is a close of the hand without ``c`` leaving
    # one card fewer.
    shifted = _close_shifted(rule)
    for leave in sorted(set(cards) - {kept}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        other = best_close(rest, shifted, melds)
        if other is not None and (
            best is None or (len(other.left) + 1, -other.points) < (len(best.left), -best.points)
        ):
            best = Arrangement(other.points, other.melds, _left(cards, other.melds))
    return best


def _close_shifted(rule: OpeningRule) -> OpeningRule:
    """``rule`` for a hand one card short, that card staying in hand: its close leaves one
    card fewer."""
    return _derived(rule, "shifted", close_leaves=tuple(n - 1 for n in rule.close_leaves if n))


def _laid_freely(rule: OpeningRule) -> OpeningRule:
    """``rule`` for a lay-down that must include a card it is free to lay anywhere: the card
    kept (not owed to the table) is no taken card that a joker-free run must do without
    (``clean_run_without_taken`` holds a card owed, as the engine judges it)."""
    if not rule.clean_run_without_taken:
        return rule
    return _derived(rule, "free", clean_run_without_taken=False)


def _derived(rule: OpeningRule, what: str, **changes: object) -> OpeningRule:
    # Made once per rule: the searches are tabled by the rule's identity.
    hit = _DERIVED.get((rule, what))
    if hit is None:
        hit = _DERIVED[rule, what] = replace(rule, **changes)  # type: ignore[arg-type]
    return hit


_DERIVED: dict[tuple[OpeningRule, str], OpeningRule] = {}


def _close_of(cards: Sequence[Card], ms: list[Meld], rule: OpeningRule) -> Arrangement:
    points = sum(m.value(rule.jokers_zero) for m in ms)
    return Arrangement(points, tuple(ms), _left(cards, ms))


def opening(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    melds: MeldRules = RUMMY_MELDS,
    must_include: Card | None = None,
    keep: Card | None = None,
) -> OpeningResult:
    """Both answers of the opening meter: the best lay-down and the best close; with
    ``keep`` (the card just taken from the pile, which may not be thrown), those that do not
    leave it alone in hand (see :func:`best_opening`)."""
    close = best_close(cards, rule, melds, must_include, keep)
    best = close if rule.close_only else best_opening(cards, rule, melds, must_include, keep)
    return OpeningResult(rule, best, close)


# -- penalty and declaration ----------------------------------------------------------------


def _two_sequences(key: int) -> bool:
    f = key & 255
    return (f & F_SEQ) >= 2 and bool(f & F_PURE)


_RUMMY_PENALTIES: Final = tuple(rummy_penalty(c) for c in FACES)


def card_penalty(c: Card, rule: PenaltyRule, wild_rank: int = 0) -> int:
    """The penalty of one card left in hand under ``rule``."""
    if type(c) is not Card or type(rule) is not PenaltyRule:
        # Checked here, not in the loops that sum a hand (they index by card).
        _given((c,))
        _rules_given(rule, PenaltyRule, RUMMY_MELDS)
    if rule.scoring == "indian":
        return indian_penalty(c, wild_rank)
    return _RUMMY_PENALTIES[c.index]


def _penalty_sum(cards: Iterable[Card], rule: PenaltyRule, wild_rank: int) -> int:
    if rule.scoring == "indian":
        return sum(indian_penalty(c, wild_rank) for c in cards)
    return sum(map(_RUMMY_PENALTIES.__getitem__, map(_INDEX, cards)))


def _penalty_search(rule: PenaltyRule, melds: MeldRules) -> tuple[core.Config, Accept]:
    """The search configuration and acceptance test of a least-penalty question."""
    key = (id(rule), id(melds))
    hit = _SEARCHES.get(key)
    if hit is None:
        _rules_given(rule, PenaltyRule, melds)
        fmask, accept = (F_SEQ | F_PURE, _two_sequences) if rule.two_sequences else (0, _accept_all)
        hit = _searched(key, (rule, melds), _config(melds, rule.scoring, False, 0, fmask), accept)
    return hit[0], hit[1]


def least_penalty(
    cards: Sequence[Card],
    rule: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> Arrangement:
    """The arrangement leaving the least penalty; ``points`` is that penalty (capped)."""
    _given(cards)
    cfg, accept = _penalty_search(rule, melds)
    if cfg.fast:
        return _fast_penalty(cfg, cards, rule, melds)
    got = _run(cfg, cards, melds, accept)
    ms = tuple(got[1]) if got is not None else ()
    left = _left(cards, ms)
    # What the cards left weigh.
    points = _penalty_sum(left, rule, melds.wild_rank)
    if rule.cap is not None:
        points = min(points, rule.cap)
    return Arrangement(points, ms, left)


def _fast_penalty(
    cfg: core.Config, cards: Sequence[Card], rule: PenaltyRule, melds: MeldRules,
    known: _Built | None = None,
) -> Arrangement:
    """:func:`least_penalty` on the fast path (``known``: see :func:`_fast_answer`)."""
    # The search scored what the melds save (every card melded at its penalty): the cards
    # left weigh the rest of the hand.
    saved, ms, left, hand, _ = _fast_answer(cfg, cards, melds, False, known)
    total = hand[2] if rule.scoring == "rummy" else _penalty_sum(cards, rule, melds.wild_rank)
    points = total - saved
    if rule.cap is not None:
        points = min(points, rule.cap)
    return Arrangement(points, ms, left)


def penalty_points(
    cards: Sequence[Card],
    rule: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> int:
    """``least_penalty(...).points`` without building the melds (end-of-deal scoring)."""
    _given(cards)
    _rules_given(rule, PenaltyRule, melds)
    if rule.scoring == "rummy":
        total = _hand(cards)[2]  # read with the hand (the search reads it again for free)
    else:
        total = _penalty_sum(cards, rule, melds.wild_rank)
    cfg, accept = _penalty_search(rule, melds)
    got = _score(cfg, cards, melds, accept)
    points = total - (got or 0)
    return points if rule.cap is None else min(points, rule.cap)


def opening_and_penalty(
    cards: Sequence[Card],
    rule: OpeningRule = RUMMY_OPENING,
    penalty: PenaltyRule = RUMMY_PENALTY,
    melds: MeldRules = RUMMY_MELDS,
) -> tuple[Arrangement | None, Arrangement]:
    """``(best_opening(cards, rule, melds), least_penalty(cards, penalty, melds))``: the same
    answers, found in one search when the two questions weigh cards alike but for low aces
    and jokers (the rummy opening and penalty), which costs less than two."""
    _given(cards)
    ocfg, _ = _opening_search(rule, melds, None)
    pcfg, _ = _penalty_search(penalty, melds)
    if pcfg not in ocfg.partners or rule.keep:
        return best_opening(cards, rule, melds), least_penalty(cards, penalty, melds)
    # The opening's search answers the penalty too (``pair``); the penalty then reads it.
    score, oms, oleft, _, keys = _fast_answer(ocfg, cards, melds, True)
    return (
        Arrangement(score, oms, oleft),
        _fast_penalty(pcfg, cards, penalty, melds, (keys, oms, oleft)),
    )


def declaration(
    cards: Sequence[Card], melds: MeldRules, discard: bool = True, keep: Card | None = None
) -> Arrangement | None:
    """An Indian declaration: every card but one (``discard``) or every card melded, with at
    least two sequences, one of them pure. ``left`` holds the discard. None when impossible.
    ``keep``: a card that may not be the discard (the one just taken from the pile, when the
    rules forbid throwing it; with two copies in hand one of them may still go).
    """
    _given(cards)
    if type(melds) is not MeldRules:
        raise InvalidArgument(f"melds must be a MeldRules, not {describe(melds)}")
    if keep is not None and type(keep) is not Card:
        raise InvalidArgument(f"keep must be a Card or None, not {describe(keep)}")
    found = _declaration(cards, melds, discard)
    if (
        found is None or keep is None or not discard or keep not in found.left
        or list(cards).count(keep) > 1
    ):
        return found
    # The best declaration throws the card to keep: look for one that throws another.
    cfg = _config(melds, "count", False, BIG, F_SEQ | F_PURE)
    for leave in sorted(set(cards) - {keep}, key=lambda c: c.index):
        rest = list(cards)
        rest.remove(leave)
        got = _run(cfg, rest, melds, _two_sequences)
        if got is not None and got[0] // BIG == len(rest):
            return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    return None


def _declaration(cards: Sequence[Card], melds: MeldRules, discard: bool) -> Arrangement | None:
    cfg = _config(melds, "count", False, BIG, F_SEQ | F_PURE)
    n = len(cards)
    want = n - 1 if discard else n
    got = _run(cfg, cards, melds, _two_sequences)
    if got is None or got[0] // BIG < want:
        return None
    if got[0] // BIG == want:
        return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    # All n cards meld: usually one card can simply be taken off a long meld.
    dropped = _drop_one(got[1], melds)
    if dropped is not None:
        return Arrangement(0, tuple(dropped), _left(cards, dropped))
    # Otherwise find a card to leave out (the highest penalty first).
    order = sorted(
        set(cards), key=lambda c: (-indian_penalty(c, melds.wild_rank), c.index)
    )
    for leave in order:
        rest = list(cards)
        rest.remove(leave)
        got = _run(cfg, rest, melds, _two_sequences)
        if got is not None and got[0] // BIG == n - 1:
            return Arrangement(0, tuple(got[1]), _left(cards, got[1]))
    return None


def _drop_one(ms: list[Meld], rules: MeldRules) -> list[Meld] | None:
    """The melds with one card taken off a meld of 4 or more, still two sequences one pure."""
    for i, m in enumerate(ms):
        n = len(m.cards)
        if n < 4:
            continue
        spots = (0, n - 1) if m.kind == "run" else range(n)
        for j in spots:
            try:
                smaller = make_meld(m.cards[:j] + m.cards[j + 1:], rules)
            except InvalidMeld:
                continue
            if smaller.kind == "set" and m.kind == "run":
                # Wild cards left without their run's real card read as a set in the order
                # they had, but may read as a run in the set's own order: read them again, so
                # that the meld is what its cards say (and a run counts as a sequence).
                smaller = make_meld(smaller.cards, rules)
            out = [*ms[:i], smaller, *ms[i + 1:]]
            runs = [x for x in out if x.kind == "run"]
            if len(runs) >= 2 and any(x.pure for x in runs):
                return out
    return None


def clear_tables() -> None:
    """Forget the cached tables (they rebuild as needed)."""
    core.clear_all()
    fast.clear()
    _MELDS.clear()
    _FAST_MELDS.clear()
    _LAST[0] = _NO_HAND


def table_entries() -> int:
    """How many entries the cached tables hold now."""
    return core.entries() + fast.entries() + len(_MELDS) + len(_FAST_MELDS)
