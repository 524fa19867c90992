"""Indian rummy's declarations and the losers' least penalty."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card
from rummykit.engine.actions import Group
from rummykit.errors import InvalidMeld
from rummykit.melds import MeldRules, make_meld
from rummykit.solver import PenaltyRule, declaration, least_penalty


def group_kind(cards: Sequence[Card], rules: MeldRules) -> str:
    """``"pure"`` (a sequence without jokers), ``"run"``, ``"set"``; raise ``InvalidMeld``."""
    meld = make_meld(cards, rules)
    if meld.kind == "run":
        return "pure" if meld.pure else "run"
    return "set"


def declaration_problem(groups: Sequence[Group], rules: MeldRules) -> str | None:
    """Why these groups are not a valid declaration, or None when they are."""
    runs = pure = 0
    for g in groups:
        try:
            kind = group_kind(g, rules)
        except InvalidMeld as exc:
            return str(exc)
        runs += kind != "set"
        pure += kind == "pure"
    if runs < 2:
        return "a declaration needs at least two sequences"
    if not pure:
        return "a declaration needs a pure sequence (one without jokers)"
    return None


_LOSER = PenaltyRule(scoring="indian", two_sequences=True, cap=None)


def loser_penalty(hand: Sequence[Card], rules: MeldRules) -> int:
    """A loser's penalty before the cap: melds count only with two sequences, one pure."""
    return least_penalty(hand, _LOSER, rules).points


def find_declaration(
    hand: Sequence[Card], rules: MeldRules, keep: Card | None = None
) -> tuple[Card, list[Group]] | None:
    """A valid declaration of all cards but one: the card to discard (never ``keep``, the
    card just taken from the pile when it may not be thrown) and the melds."""
    found = declaration(hand, rules, keep=keep)
    if found is None or len(found.left) != 1:
        return None
    return found.left[0], [m.cards for m in found.melds]
