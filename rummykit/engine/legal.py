"""Enumerating legal actions.

Every candidate comes from the hand and the table, and each is confirmed through the same
validation :meth:`Game.check` uses, so the list can never disagree with the checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from rummykit.cards import JOKER, Card, card
from rummykit.engine.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Group,
    Layoff,
    NewMeld,
    Open,
    Return,
    Swap,
    Take,
    Timeout,
    canonical_group,
)
from rummykit.errors import RummyError
from rummykit.melds import MeldRules, make_meld

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def candidate_melds(hand: list[Card], rules: MeldRules) -> list[Group]:
    """Every distinct valid meld (as a canonical group of cards) the hand can form."""
    counts = Counter(hand)
    jokerish = sorted(c for c in counts if rules.is_joker(c))
    found: dict[Group, None] = {}

    def joker_fills(k: int, used: Counter[Card]) -> list[tuple[Card, ...]]:
        pool = [c for c in jokerish if counts[c] - used[c] > 0]
        fills = []
        for combo in combinations_with_replacement(pool, k):
            need = Counter(combo)
            if all(counts[c] - used[c] >= n for c, n in need.items()):
                fills.append(combo)
        return fills

    def emit(cards: tuple[Card, ...]) -> None:
        try:
            make_meld(cards, rules)
        except RummyError:
            return
        found.setdefault(canonical_group(cards), None)

    # Sets.
    for rank in range(1, 14):
        suits = sorted({c.suit for c in counts if c.rank == rank})
        for size in range(0, min(4, len(suits)) + 1):
            for chosen in combinations(suits, size):
                naturals = tuple(card(rank, s) for s in chosen)
                used = Counter(naturals)
                for k in range(max(0, 3 - size), rules.max_set - size + 1):
                    if size + k < 3:
                        continue
                    for fill in joker_fills(k, used) if k else [()]:
                        emit(naturals + fill)
    # Runs: walk the places, each either its natural card (if held) or a joker.
    for suit in range(4):
        for start in range(1, 13):
            _runs(start, suit, counts, rules, joker_fills, emit)
    return list(found)


def _runs(start, suit, counts, rules, joker_fills, emit):  # type: ignore[no-untyped-def]
    max_len = min(rules.max_run, 15 - start)
    total_jokers = sum(n for c, n in counts.items() if rules.is_joker(c))

    # slots: True = joker slot, else the natural card
    def walk(i: int, slots: list[Card | None], jokers: int) -> None:
        if len(slots) >= 3:
            used = Counter(c for c in slots if c is not None)
            for fill in joker_fills(jokers, used) if jokers else [()]:
                it = iter(fill)
                emit(tuple(c if c is not None else next(it) for c in slots))
        if len(slots) >= max_len:
            return
        place = card(start + i, suit)
        if counts[place] > 0:
            walk(i + 1, [*slots, place], jokers)
        if not rules.adjacent_jokers and slots and slots[-1] is None:
            return
        if jokers < total_jokers:
            walk(i + 1, [*slots, None], jokers + 1)

    walk(0, [], 0)


def iter_legal(game: Game) -> Iterator[Action]:
    d = game.deal
    if game.over or d.over:
        return
    rules = game.rules
    seat = d.turn
    hand = d.hands[seat]
    simple: list[Action] = [Draw(), Take(), Return(), Drop()]
    for act in simple:
        if game.is_legal(act):
            yield act
    if d.phase != "play":
        yield Timeout()
        return
    for c in sorted(set(hand)):
        act = Discard(c)
        if game.is_legal(act):
            yield act
    mr = d.meld_rules
    if rules.lay_mode in ("open", "close") and not d.opened[seat]:
        yield from _opens(game, candidate_melds(hand, mr))
    elif rules.lay_mode == "open":
        for g in candidate_melds(hand, mr):
            act = NewMeld(g)
            if game.is_legal(act):
                yield act
    if d.opened[seat] and (rules.layoffs or rules.swap != "none"):
        faces = sorted(set(hand))
        for n in range(1, len(d.table) + 1):
            for c in faces:
                if rules.layoffs:
                    for end in ("low", "high", None):
                        act2 = Layoff(n, c, end)  # type: ignore[arg-type]
                        if game.is_legal(act2):
                            yield act2
                if rules.swap != "none":
                    act3 = Swap(n, c)
                    if game.is_legal(act3):
                        yield act3
    if rules.lay_mode == "declare":
        from rummykit.engine.indian import find_declaration

        found = find_declaration(hand, mr)
        if found is not None:
            yield Declare(tuple(found[1]))
    yield Timeout()


def _opens(game: Game, melds: list[Group]) -> Iterator[Action]:
    d = game.deal
    counts = Counter(d.hands[d.turn])

    def walk(i: int, chosen: list[Group], left: Counter[Card]) -> Iterator[Action]:
        if chosen:
            act = Open(tuple(chosen))
            if game.is_legal(act):
                yield act
        for j in range(i, len(melds)):
            need = Counter(melds[j])
            if all(left[c] >= n for c, n in need.items()):
                yield from walk(j, [*chosen, melds[j]], left - need)

    yield from walk(0, [], counts)


__all__ = ["JOKER", "candidate_melds", "iter_legal"]
