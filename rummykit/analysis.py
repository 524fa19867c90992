"""What a hand can do, variant by variant: best opening, best close, least penalty, declaration.

>>> a = analyze("KS KH KD 5H 6H 7H", "rummy")
>>> a.to_json()["opening"]["points"]
48
>>> analyze("KS KH X QS QH QD 3S 4S 5S", "rami71").opening.best.points  # keeps a card
42
>>> analyze("KS KH KD X 5H 6H 7H 2C 9D", "rami51", options={"jokers_zero": True}).applied
(('jokers_zero', True),)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, get_args, get_type_hints

from rummykit.cards import Card, cards_argument, check_cards_exist, parse_card, parse_cards
from rummykit.errors import InvalidArgument, InvalidHand, RummyError, UnknownVariant, describe
from rummykit.melds import Meld, MeldRules, indian_penalty
from rummykit.rules import VARIANTS, LoserMelds, Ruleset, make_rules, option_schema
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

__all__ = [
    "VARIANTS",
    "Analysis",
    "AnalysisRules",
    "VariantSolving",
    "analysis_rules",
    "analyze",
    "answer_rules",
    "variant_solving",
]


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
    #: Indian: how a loser's hand is counted (``Ruleset.loser_melds``).
    loser_melds: LoserMelds = "two_sequences"


def _solving(rules: Ruleset) -> VariantSolving:
    declare = rules.lay_mode == "declare"
    if rules.scoring == "indian":
        # The engine charges min(cap, penalty): a house cap applies to the analysis too.
        penalty = PenaltyRule(scoring="indian", two_sequences=True, cap=rules.cap)
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
        loser_melds=rules.loser_melds,
    )


_SOLVING: dict[str, VariantSolving] = {}



@dataclass(frozen=True, slots=True)
class AnalysisRules:
    """The rules an analysis runs under: the solver parameters, and of the options given,
    those that change them (``applied``, as given) and those that change nothing the
    analysis answers (``no_effect``: valid room options or house rules all the same)."""

    spec: VariantSolving
    applied: tuple[tuple[str, Any], ...] = ()
    no_effect: tuple[str, ...] = ()


def _ruleset(variant: str, given: Mapping[str, Any]) -> Ruleset:
    opts = dict(given)
    if "opening" in opts:
        minimum = opts.pop("opening")
        if variant == "indian":
            raise RummyError("indian has no opening minimum: nothing is laid during play")
        if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 0:
            raise RummyError(f"opening minimum {minimum!r} is not a number of points")
        if make_rules(variant).lay_mode == "close":
            raise RummyError(f"{variant} has no opening minimum: its only lay-down is the close")
        if "opening_minimum" in opts:
            raise RummyError(
                "option 'opening' and house rule 'opening_minimum' set the same rule: give one"
            )
        # Any minimum, not only a room's choices: the analysis takes it as a house rule.
        opts["opening_minimum"] = minimum
    # make_rules refuses what would make another game (lay_mode, scoring) and fields the
    # variant has no use for (an opening minimum in simple, whose solver close has none).
    return make_rules(variant, options=opts)


@lru_cache(maxsize=64)
def _rules_for(variant: str, key: tuple[tuple[str, str, Any], ...]) -> AnalysisRules:
    # The key holds each value's type: True == 1 would otherwise share an entry.
    items = [(name, value) for name, _, value in key]
    given = dict(items)
    spec = _solving(_ruleset(variant, given))
    applied: list[tuple[str, Any]] = []
    no_effect: list[str] = []
    for name, value in items:
        # Leave-one-out: a rule applies when the answers' parameters change without it
        # (one rule may only matter with another, such as small_opening without lay_all_close).
        rest = {k: v for k, v in given.items() if k != name}
        try:
            same = _solving(_ruleset(variant, rest)) == spec
        except RummyError:
            same = False  # the others alone are no valid table (hands too big for the deck)
        if same:
            no_effect.append(name)
        else:
            applied.append((name, value))
    return AnalysisRules(spec, tuple(applied), tuple(no_effect))


def analysis_rules(variant: str, options: Mapping[str, Any] | None = None) -> AnalysisRules:
    """The rules :func:`analyze` runs under for ``variant`` with room options and house rules
    ``options`` (what ``make_rules`` accepts; ``"opening"`` takes any minimum, in the Rami
    variants too). Raises :class:`UnknownVariant` or :class:`RummyError` naming a bad one."""
    if not isinstance(variant, str) or variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise UnknownVariant(f"unknown variant {variant!r}: choose one of {known}")
    if options is not None and not isinstance(options, Mapping):
        raise InvalidArgument(
            f"options must be a mapping of option names to values (a dict) or None, not "
            f"{describe(options)}"
        )
    if not options:
        return AnalysisRules(variant_solving(variant))
    if not all(isinstance(k, str) for k in options):
        raise RummyError("option names are text")
    key = tuple((k, type(v).__name__, v) for k, v in sorted(options.items(), key=_name))
    try:
        return _rules_for(variant, key)
    except TypeError:
        # An unhashable value (a list...) is no rule value either: make_rules says why.
        return _rules_for.__wrapped__(variant, key)


def _name(item: tuple[str, Any]) -> str:
    return item[0]


def _probe_values(variant: str, name: str) -> list[Any]:
    """Values other than the default to try for a rule (room option or ruleset field)."""
    if name == "opening":
        return [make_rules(variant).opening_minimum + 1]
    schema = option_schema(variant).get(name)
    if schema is not None and isinstance(schema["values"], list):
        return [v for v in schema["values"] if v != schema["default"]]
    default = schema["default"] if schema is not None else getattr(make_rules(variant), name)
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        return [default + 1, default - 1]
    return [v for v in get_args(get_type_hints(Ruleset)[name]) if v != default]


def answer_rules(variant: str) -> tuple[str, ...]:
    """The room options and house rules of ``variant`` that can change what :func:`analyze`
    answers (see :func:`_answer_rules`)."""
    # The cache below hashes its argument: a list would fail there with a TypeError.
    variant_solving(variant)
    return _answer_rules(variant)


@cache
def _answer_rules(variant: str) -> tuple[str, ...]:
    """The room options and house rules of ``variant`` that can change what :func:`analyze`
    answers (the others are accepted and change nothing). Found by trying each one's other
    values, so it follows the code (a value ``make_rules`` refuses, such as another
    ``lay_mode``, is skipped)."""
    base = variant_solving(variant)
    names = [*option_schema(variant), "opening"]
    names += [f.name for f in dataclasses.fields(Ruleset)
              if f.name not in ("variant", "players", "house")]
    out: list[str] = []
    for name in dict.fromkeys(names):
        for value in _probe_values(variant, name):
            try:
                if analysis_rules(variant, {name: value}).spec != base:
                    out.append(name)
                    break
            except RummyError:
                continue
    return tuple(out)


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
    #: The options given that change the answers (name and value, as given) ...
    applied: tuple[tuple[str, Any], ...] = ()
    #: ... and those that change nothing here (valid room options or house rules).
    no_effect: tuple[str, ...] = ()

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
        if self.applied or self.no_effect:
            out["rules"] = {"applied": dict(self.applied), "no_effect": list(self.no_effect)}
        return out

    def opening_reason(self) -> str | None:
        """Why the hand cannot open now (None when it can)."""
        o = self.opening
        if o is None or o.valid:
            return None
        rule = o.rule
        if rule.close_only:
            clean = "joker-free " if rule.clean_run_and_set else ""
            need = f"every card but one in melds, with a {clean}run and a {clean}set"
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

    ``hand``: cards or their notation. ``options``: the room's options and house rules, as
    :func:`rummykit.rules.make_rules` takes them (see :func:`analysis_rules`); ``"opening"``
    sets any minimum (in the Rami variants too). Those that change nothing the analysis
    answers are accepted and reported in ``Analysis.no_effect``. ``must_include``: the card
    taken from the pile, which must be inside the opening or close. ``wild_rank``: Indian
    rummy's wild rank (1-13; 1 when the indicator is a printed joker; 0 for none).

    Raises :class:`InvalidHand` for a hand no deck of the variant can hold or of the wrong
    size, :class:`UnknownVariant` for an unknown variant, :class:`RummyError` for bad options,
    :class:`InvalidArgument` for an argument of the wrong type.
    """
    ruling = analysis_rules(variant, options)
    spec = ruling.spec
    if type(wild_rank) is not int:
        # A value of the wrong type is the caller's mistake, as a hand or options of the wrong
        # type are (docs/engine.md, Errors); a number out of range is a wild rank that is none.
        raise InvalidArgument(
            f"wild_rank must be a whole number (int), the wild rank from 1 (aces) to 13 (kings) "
            f"or 0 for none, not {describe(wild_rank)}"
        )
    if not 0 <= wild_rank <= 13:
        raise RummyError(f"wild rank {wild_rank!r} is not a rank: use 1 (aces) to 13 (kings)")
    cards = parse_cards(hand) if isinstance(hand, str) else cards_argument(hand, "hand")
    n = len(cards)
    if not spec.min_cards <= n <= spec.max_cards:
        sizes = (
            f"{spec.min_cards} or {spec.max_cards}"
            if spec.max_cards == spec.min_cards + 1
            else f"{spec.min_cards} to {spec.max_cards}"
        )
        article = "an" if variant[0] in "aeiou" else "a"
        raise InvalidHand(f"{article} {variant} hand holds {sizes} cards; this one holds {n}")
    check_cards_exist(cards, spec.jokers)
    if wild_rank and not spec.indian:
        raise RummyError(f"{variant} has no wild rank: wild cards exist only in indian")
    taken: Card | None = None
    if must_include is not None:
        if spec.opening is None:
            raise RummyError(f"{variant} has no opening: a must-include card does not apply")
        if isinstance(must_include, str):
            taken = parse_card(must_include)
        elif type(must_include) is Card:
            taken = must_include
        else:
            raise InvalidArgument(
                f"must_include must be a Card, its text or None, not {describe(must_include)}"
            )
        if taken not in cards:
            raise InvalidHand(f"the taken card {taken.text} is not in the hand")
    applied, no_effect = ruling.applied, ruling.no_effect
    if spec.indian:
        rules = dataclasses.replace(spec.melds, wild_rank=wild_rank)
        penalty = _loser_penalty(cards, spec, rules)
        dec = declaration(cards, rules, discard=n == spec.min_cards + 1)
        reason = None
        if dec is None:
            k = spec.min_cards
            reason = (
                f"no {k} of these cards form melds with two sequences, one of them pure"
                if n == k + 1
                else f"these {k} cards do not all form melds with two sequences, one of them pure"
            )
        return Analysis(variant, cards, None, penalty, dec, reason, wild_rank,
                        applied=applied, no_effect=no_effect)
    rule = spec.opening
    assert rule is not None
    if taken is None:
        # One search answers the opening and the penalty where they are partners (rummy).
        penalty = opening_and_penalty(cards, rule, spec.penalty, spec.melds)[1]
    else:
        penalty = least_penalty(cards, spec.penalty, spec.melds)
    result = opening(cards, rule, spec.melds, taken)
    return Analysis(variant, cards, result, penalty, must_include=taken, applied=applied,
                    no_effect=no_effect)


def _loser_penalty(cards: Sequence[Card], spec: VariantSolving, rules: MeldRules) -> Arrangement:
    """The least penalty as the room's ``loser_melds`` counts a loser's hand (the same
    number as the engine's ``loser_penalty``, capped), with the melds that save cards."""
    cap = spec.penalty.cap
    total = sum(indian_penalty(c, rules.wild_rank) for c in cards)
    if spec.loser_melds == "all_cards":
        return Arrangement(total if cap is None else min(total, cap), (), tuple(cards))
    best = least_penalty(cards, spec.penalty, rules)
    if spec.loser_melds == "pure_sequence":
        pure = _pure_sequences(cards, rules.wild_rank)
        if cap is not None:
            pure = dataclasses.replace(pure, points=min(pure.points, cap))
        if pure.points < best.points:
            return pure
    return best


_SUIT_RUNS = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=0)
_FACE_VALUES = PenaltyRule(scoring="indian")


def _pure_sequences(cards: Sequence[Card], wild_rank: int) -> Arrangement:
    """The arrangement in pure sequences alone (no joker; a wild card only as its own
    natural card) that leaves the least penalty, uncapped. Suit by suit, the solver without
    a wild rank can make nothing but pure runs of one suit; it weighs a wild card at its face
    value instead of 0, so it is asked once per number of the suit's wild cards it may use,
    and each answer is reweighed (the best of them is the best with the true weights)."""
    melds: list[Meld] = []
    for suit in range(4):
        own = [c for c in cards if not c.is_joker and c.suit == suit]
        wild = [c for c in own if c.rank == wild_rank]
        plain = [c for c in own if c.rank != wild_rank]
        best: tuple[int, tuple[Meld, ...]] = (0, ())
        for k in range(len(wild) + 1):
            arr = least_penalty([*plain, *wild[:k]], _FACE_VALUES, _SUIT_RUNS)
            saved = sum(indian_penalty(c, wild_rank) for m in arr.melds for c in m.cards)
            if saved > best[0]:
                best = (saved, arr.melds)
        melds.extend(best[1])
    left = list(cards)
    for m in melds:
        for c in m.cards:
            left.remove(c)
    points = sum(indian_penalty(c, wild_rank) for c in left)
    return Arrangement(points, tuple(melds), tuple(left))
