"""What a hand can do, variant by variant: best opening, best close, least penalty, declaration.

>>> a = analyze("KS KH KD 5H 6H 7H", "rummy")
>>> a.to_json()["opening"]["points"]
48
>>> analyze("KS KH X QS QH QD 3S 4S 5S", "rami71").opening.best.points
62
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, check_cards_exist, parse_card, parse_cards
from rummykit.errors import InvalidHand, RummyError, UnknownVariant
from rummykit.melds import Meld, MeldRules
from rummykit.rules import VARIANTS, Ruleset, make_rules
from rummykit.solver import (
    RUMMY_PENALTY,
    Arrangement,
    OpeningResult,
    OpeningRule,
    PenaltyRule,
    declaration,
    least_penalty,
    opening,
    opening_and_penalty,
)

__all__ = ["VARIANTS", "Analysis", "VariantSolving", "analyze", "variant_solving"]


@dataclass(frozen=True, slots=True)
class VariantSolving:
    """What the solver needs to know of a variant, read from its ruleset
    (:func:`rummykit.rules.make_rules`, the one source of truth)."""

    opening: OpeningRule | None
    penalty: PenaltyRule
    jokers: int
    min_cards: int
    max_cards: int
    melds: MeldRules
    indian: bool = False


def _solving(rules: Ruleset) -> VariantSolving:
    declare = rules.lay_mode == "declare"
    if rules.scoring == "indian":
        penalty = PenaltyRule(scoring="indian", two_sequences=True, cap=rules.cap or None)
    else:
        penalty = RUMMY_PENALTY
    return VariantSolving(
        opening=None if declare else rules.opening_rule(),
        penalty=penalty,
        jokers=rules.jokers,
        # A hand holds up to the deal plus the card drawn; one that declares holds at least
        # the deal, any other may be down to its last card.
        min_cards=rules.hand_size if declare else 1,
        max_cards=rules.hand_size + 1,
        melds=rules.meld_rules,
        indian=rules.scoring == "indian",
    )


_SOLVING: dict[str, VariantSolving] = {}

@dataclass(frozen=True, slots=True)
class Analysis:
    """The answers for one hand. ``opening`` is None in ``indian`` (no opening there);
    ``declaration`` is None outside ``indian`` -- and in ``indian`` when no declaration exists
    (``declaration_reason`` then says why).
    """

    variant: str
    hand: tuple[Card, ...]
    opening: OpeningResult | None
    penalty: Arrangement
    declaration: Arrangement | None = None
    declaration_reason: str | None = None
    wild_rank: int = 0
    must_include: Card | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``rummykit analyze`` (see docs/solver.md)."""
        out: dict[str, Any] = {"opening": None}
        o = self.opening
        if o is not None:
            best = o.best
            out["opening"] = {
                "points": best.points if best else 0,
                "melds": _melds(best.melds) if best else [],
                "minimum": o.rule.minimum,
                "valid": o.valid,
                "close": _arrangement(o.close) if o.close else None,
                "reason": self.opening_reason(),
            }
        out["penalty"] = _arrangement(self.penalty)
        if self.variant == "indian":
            d = self.declaration
            out["declaration"] = {
                "valid": d is not None,
                "discard": d.left[0].text if d is not None and d.left else None,
                "melds": _melds(d.melds) if d is not None else [],
                "reason": self.declaration_reason,
            }
        return out

    def opening_reason(self) -> str | None:
        """Why the hand cannot open now (None when it can)."""
        o = self.opening
        if o is None or o.valid:
            return None
        rule = o.rule
        if rule.close_only:
            need = "every card but one in melds, with a run and a set"
            return f"no close: {need}" + _taken_note(self)
        if o.best is None:
            if rule.clean_run_and_set:
                if self.must_include is not None:
                    c = self.must_include.text
                    return (
                        f"no lay-down holding {c} with a joker-free set and a joker-free run "
                        f"made without {c}"
                    )
                return "no lay-down with a joker-free run and a joker-free set"
            return f"the taken card {_text(self.must_include)} cannot be part of any meld"
        if not o.best.melds:
            return "no meld in this hand"
        if self.must_include is not None:
            what = "points without jokers" if rule.jokers_zero else "points"
            return (
                f"the best opening holding {self.must_include.text} is {o.best.points} {what}, "
                f"below the minimum {rule.minimum}"
            )
        what = "points without jokers" if rule.jokers_zero else "points"
        return f"the best opening is {o.best.points} {what}, below the minimum {rule.minimum}"


def _taken_note(a: Analysis) -> str:
    return f" holding the taken card {a.must_include.text}" if a.must_include else ""


def _text(c: Card | None) -> str:
    return c.text if c is not None else "?"


def _melds(melds: Sequence[Meld]) -> list[list[str]]:
    return [[c.text for c in m.cards] for m in melds]


def _arrangement(a: Arrangement) -> dict[str, Any]:
    return {"points": a.points, "melds": _melds(a.melds), "left": [c.text for c in a.left]}


def variant_solving(variant: str) -> VariantSolving:
    """The solver parameters of a variant; :class:`UnknownVariant` names the known ones."""
    if not isinstance(variant, str) or variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise UnknownVariant(f"unknown variant {variant!r}: choose one of {known}")
    spec = _SOLVING.get(variant)
    if spec is None:
        spec = _SOLVING[variant] = _solving(make_rules(variant))
    return spec


def analyze(
    hand: str | Sequence[Card],
    variant: str = "rummy",
    *,
    options: Mapping[str, Any] | None = None,
    must_include: str | Card | None = None,
    wild_rank: int = 0,
) -> Analysis:
    """Analyse a hand for a variant.

    ``hand``: cards or their notation. ``options``: room options; ``"opening"`` sets the
    minimum (rummy 30/40/51; the Rami variants accept it too as a house rule), other keys are
    ignored. ``must_include``: the card taken from the pile, which must be inside the
    opening or close. ``wild_rank``: Indian rummy's wild rank (1-13; 1 when the indicator is a
    printed joker; 0 for none).

    Raises :class:`InvalidHand` for a hand no deck of the variant can hold or of the wrong
    size, :class:`UnknownVariant` for an unknown variant, :class:`RummyError` for bad options.
    """
    spec = variant_solving(variant)
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    n = len(cards)
    if not spec.min_cards <= n <= spec.max_cards:
        sizes = (
            f"{spec.min_cards} or {spec.max_cards}"
            if spec.max_cards == spec.min_cards + 1
            else f"{spec.min_cards} to {spec.max_cards}"
        )
        raise InvalidHand(f"a {variant} hand holds {sizes} cards; this one holds {n}")
    check_cards_exist(cards, spec.jokers)
    if not isinstance(wild_rank, int) or isinstance(wild_rank, bool) or not 0 <= wild_rank <= 13:
        raise RummyError(f"wild rank {wild_rank!r} is not a rank: use 1 (aces) to 13 (kings)")
    if wild_rank and not spec.indian:
        raise RummyError(f"{variant} has no wild rank: wild cards exist only in indian")
    taken: Card | None = None
    if must_include is not None:
        if spec.opening is None:
            raise RummyError(f"{variant} has no opening: a must-include card does not apply")
        taken = parse_card(must_include) if isinstance(must_include, str) else must_include
        if taken not in cards:
            raise InvalidHand(f"the taken card {taken.text} is not in the hand")
    if spec.indian:
        if options and "opening" in options:
            raise RummyError("indian has no opening minimum: nothing is laid during play")
        rules = dataclasses.replace(spec.melds, wild_rank=wild_rank)
        penalty = least_penalty(cards, spec.penalty, rules)
        dec = declaration(cards, rules, discard=n == 14)
        reason = None
        if dec is None:
            k = 13
            reason = (
                f"no {k} of these cards form melds with two sequences, one of them pure"
                if n == 14
                else "these 13 cards do not all form melds with two sequences, one of them pure"
            )
        return Analysis(variant, cards, None, penalty, dec, reason, wild_rank)
    rule = spec.opening
    assert rule is not None
    if options and "opening" in options:
        minimum = options["opening"]
        if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 0:
            raise RummyError(f"opening minimum {minimum!r} is not a number of points")
        if rule.close_only:
            raise RummyError(f"{variant} has no opening minimum: its only lay-down is the close")
        # The analysis takes any minimum, as a house rule of the variant's ruleset.
        rule = make_rules(variant, options={"opening_minimum": minimum}).opening_rule()
    if taken is None:
        # One search answers the opening and the penalty where they are partners (rummy).
        penalty = opening_and_penalty(cards, rule, spec.penalty, spec.melds)[1]
    else:
        penalty = least_penalty(cards, spec.penalty, spec.melds)
    result = opening(cards, rule, spec.melds, taken)
    return Analysis(variant, cards, result, penalty, must_include=taken)
