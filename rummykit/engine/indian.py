"""Indian rummy's declarations and the losers' least penalty."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from rummykit.cards import Card, format_cards
from rummykit.engine.actions import Group
from rummykit.errors import InvalidMeld
from rummykit.melds import MeldRules, indian_penalty, make_meld


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


def _melds(hand: Sequence[Card], rules: MeldRules) -> list[tuple[Group, str]]:
    from rummykit.engine.legal import candidate_melds

    out = []
    for g in candidate_melds(list(hand), rules):
        out.append((g, group_kind(g, rules)))
    return out


def _search(
    hand: Sequence[Card], rules: MeldRules, count_cards: bool = False
) -> tuple[int, list[Group]] | None:
    """The least penalty of the cards left out of melds among arrangements with two sequences,
    one pure, and those melds; None when no such arrangement exists."""
    melds = _melds(hand, rules)
    faces = sorted(set(hand))
    index = {c: i for i, c in enumerate(faces)}
    by_first: dict[int, list[tuple[tuple[int, ...], str, Group]]] = {}
    for g, kind in melds:
        need = [0] * len(faces)
        for c in g:
            need[index[c]] += 1
        first = min(index[c] for c in g)
        by_first.setdefault(first, []).append((tuple(need), kind, g))
    pen = [1 if count_cards else indian_penalty(c, rules.wild_rank) for c in faces]

    @cache
    def best(left: tuple[int, ...], runs: int, pure: bool) -> tuple[int, tuple[Group, ...]] | None:
        i = next((k for k, n in enumerate(left) if n), -1)
        if i < 0:
            return (0, ()) if runs >= 2 and pure else None
        options: list[tuple[int, tuple[Group, ...]]] = []
        rest = list(left)
        rest[i] -= 1
        r = best(tuple(rest), runs, pure)
        if r is not None:
            options.append((r[0] + pen[i], r[1]))
        for need, kind, g in by_first.get(i, ()):
            if all(a >= b for a, b in zip(left, need, strict=True)):
                after = tuple(a - b for a, b in zip(left, need, strict=True))
                r = best(after, min(2, runs + (kind != "set")), pure or kind == "pure")
                if r is not None:
                    options.append((r[0], (g, *r[1])))
        return min(options, key=lambda o: o[0]) if options else None

    counts = Counter(hand)
    found = best(tuple(counts[c] for c in faces), 0, False)
    if found is None:
        return None
    return found[0], list(found[1])


def loser_penalty(hand: Sequence[Card], rules: MeldRules) -> int:
    """A loser's penalty before the cap: melds count only with two sequences, one pure."""
    full = sum(indian_penalty(c, rules.wild_rank) for c in hand)
    found = _search(hand, rules)
    return full if found is None else min(full, found[0])


def find_declaration(hand: Sequence[Card], rules: MeldRules) -> tuple[Card, list[Group]] | None:
    """A valid declaration of all cards but one: the card to discard and the melds."""
    for c in sorted(set(hand), key=lambda c: -indian_penalty(c, rules.wild_rank)):
        rest = list(hand)
        rest.remove(c)
        found = _search(rest, rules, count_cards=True)
        if found is not None and found[0] == 0:
            return c, found[1]
    return None


def describe_declaration(groups: Sequence[Group]) -> str:
    return "declare " + " / ".join(format_cards(g) for g in groups)
