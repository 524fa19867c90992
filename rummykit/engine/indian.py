"""Indian rummy's declarations and the losers' least penalty."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rummykit.cards import ACE, Card, card
from rummykit.engine.actions import Group
from rummykit.errors import InvalidMeld
from rummykit.melds import MeldRules, indian_penalty, make_meld
from rummykit.rules import LoserMelds
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


def loser_penalty(
    hand: Sequence[Card], rules: MeldRules, counted: LoserMelds = "two_sequences"
) -> int:
    """A loser's penalty before the cap, as the ruleset's ``loser_melds`` counts the hand:
    ``two_sequences``, melds count only with two sequences, one pure (the least penalty);
    ``pure_sequence``, the same, and without them the pure sequences alone still save their
    cards; ``all_cards``, every card counts."""
    total = sum(indian_penalty(c, rules.wild_rank) for c in hand)
    if counted == "all_cards":
        return total
    points = least_penalty(hand, _LOSER, rules).points
    if counted == "pure_sequence":
        points = min(points, total - pure_sequences_saved(hand, rules.wild_rank))
    return points


def pure_sequences_saved(hand: Sequence[Card], wild_rank: int) -> int:
    """The most penalty that pure sequences alone (runs without jokers; a wild-rank card may
    stand as its own natural card) can take out of ``hand``. Runs never mix suits, so each
    suit is searched apart, for every way of using its aces low or high."""
    saved = 0
    for suit in range(4):
        counts = [0] * 14
        for c in hand:
            if c.suit == suit:
                counts[c.rank] += 1
        weights = [indian_penalty(card(r, suit), wild_rank) for r in range(1, 14)]
        best = 0
        for low in range(counts[ACE] + 1):
            for high in range(counts[ACE] - low + 1):
                # Places 1 to 14: the ace low, 2 to K, the ace high. A run over all 14
                # places saves what two shorter runs over them save, so the 13-card limit
                # of a run changes nothing here.
                avail = [low, *counts[2:], high]
                best = max(best, _runs_saved(avail, [*weights, weights[0]]))
        saved += best
    return saved


def _runs_saved(avail: Sequence[int], weights: Sequence[int]) -> int:
    """The most weight that disjoint runs of at least three consecutive places can cover,
    with ``avail[p]`` cards of weight ``weights[p]`` at place ``p``. A scan over the places
    whose state is the lengths of the runs still open (capped at 3: long enough to end)."""
    states: dict[tuple[int, ...], int] = {(): 0}
    for n, w in zip(avail, weights, strict=True):
        nxt: dict[tuple[int, ...], int] = {}
        for state, value in states.items():
            for used in range(n + 1):
                for keep in range(min(len(state), used) + 1):
                    for going in combinations(range(len(state)), keep):
                        if any(state[i] < 3 for i in range(len(state)) if i not in going):
                            continue  # a run shorter than three cannot end here
                        key = tuple(
                            sorted([min(state[i] + 1, 3) for i in going] + [1] * (used - keep))
                        )
                        got = value + used * w
                        if nxt.get(key, -1) < got:
                            nxt[key] = got
        states = nxt
    return max(v for state, v in states.items() if all(length >= 3 for length in state))


def find_declaration(
    hand: Sequence[Card], rules: MeldRules, keep: Card | None = None
) -> tuple[Card, list[Group]] | None:
    """A valid declaration of all cards but one: the card to discard (never ``keep``, the
    card just taken from the pile when it may not be thrown) and the melds."""
    found = declaration(hand, rules, keep=keep)
    if found is None or len(found.left) != 1:
        return None
    return found.left[0], [m.cards for m in found.melds]
