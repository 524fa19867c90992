"""A question's search set-up: the weights of its kind (opening values, penalties, cards
melded), its shared :class:`~rummykit.solver.config.Config` (with its fast-path partner), and
the acceptance test of the rule's structure; set-ups are tabled by the identity of the
objects asking (:func:`_opening_search`, :func:`_penalty_search`).

Apart because it depends on the question's rules, not on the hand: each question is set up
here once, then only looked up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rummykit.cards import ACE, Card, card
from rummykit.melds import MeldRules, indian_penalty, opening_value, rummy_penalty
from rummykit.solver import core
from rummykit.solver.profiles import F_CM, F_CRC, F_CSET, F_PURE, F_SEQ, F_SET
from rummykit.solver.questions import OpeningRule, PenaltyRule, _rules_given

#: Weight of a melded card when the question is "can everything (but one) be melded".
BIG: Final = 1000


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


# -- penalty and declaration ----------------------------------------------------------------


def _two_sequences(key: int) -> bool:
    f = key & 255
    return (f & F_SEQ) >= 2 and bool(f & F_PURE)


def _penalty_search(rule: PenaltyRule, melds: MeldRules) -> tuple[core.Config, Accept]:
    """The search configuration and acceptance test of a least-penalty question."""
    key = (id(rule), id(melds))
    hit = _SEARCHES.get(key)
    if hit is None:
        _rules_given(rule, PenaltyRule, melds)
        fmask, accept = (F_SEQ | F_PURE, _two_sequences) if rule.two_sequences else (0, _accept_all)
        hit = _searched(key, (rule, melds), _config(melds, rule.scoring, False, 0, fmask), accept)
    return hit[0], hit[1]
