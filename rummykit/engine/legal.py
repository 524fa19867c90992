"""Enumerating legal actions.

Each verb is enumerated straight from the hand and the table with the same meld arithmetic the
checks use; compound lay-downs (``open``) go through the same lay-down rules the ``open`` check
applies (``checks.lay_down_rules``), and melds, lay-offs and swaps while a taken card is owed
go through the check that it keeps a place (``duties.owed_place_left``), as they do while a freed
joker is owed (``duties.freed_place_left``). The property tests
hold the list and the checks to each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from rummykit.cards import FACES, JOKER, Card, card
from rummykit.engine import checks, duties
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
)
from rummykit.errors import IllegalAction
from rummykit.melds import Meld, MeldRules, make_meld, set_meld
from rummykit.solver import Arrangement, OpeningRule, opening

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def candidate_melds(hand: list[Card], rules: MeldRules) -> tuple[Group, ...]:
    """Every distinct valid meld (a canonical group of cards) the hand can form, jokers put in
    any place the limits allow. Printed jokers only: Indian rummy lays nothing on a table."""
    if rules.wild_rank:
        raise ValueError("candidate_melds does not enumerate wild ranks")
    return _candidates(tuple(sorted(c.index for c in hand)), rules)


@lru_cache(maxsize=4096)
def _candidates(key: tuple[int, ...], rules: MeldRules) -> tuple[Group, ...]:
    counts = Counter(FACES[i] for i in key)
    jokers = counts[JOKER]
    out: list[Group] = []
    for rank in range(1, 14):
        suits = [s for s in range(4) if counts[card(rank, s)]]
        for size in range(max(rules.min_real, 1), min(len(suits), rules.max_set) + 1):
            for chosen in combinations(suits, size):
                reals = tuple(card(rank, s) for s in chosen)
                for k in range(max(0, 3 - size), min(jokers, rules.max_set - size) + 1):
                    if size == 1:
                        # In the order that reads as the set when one does ("X AH X"; every
                        # order of "5H X X" reads as a run, which the runs below give).
                        out.append(set_meld(
                            reals + (JOKER,) * k, (False,) + (True,) * k, rank, rules
                        ).cards)
                    else:
                        out.append(reals + (JOKER,) * k)
    for suit in range(4):
        held = [False] * 15
        for r in range(1, 14):
            held[r] = counts[card(r, suit)] > 0
        held[14] = held[1]
        for start in range(1, 13):
            _runs(start, suit, held, jokers, rules, out)
    return tuple(out)


def _runs(
    start: int, suit: int, held: list[bool], jokers: int, rules: MeldRules, out: list[Group]
) -> None:
    _walk_runs(
        start, (), 0, 0, False, min(rules.max_run, 15 - start), suit, held, jokers, rules, out
    )


# Module-level recursion (not a nested function that calls itself): a self-referencing closure
# is a reference cycle that only the garbage collector frees, and a long-running server feels
# every collection as latency.
def _walk_runs(
    r: int,
    slots: tuple[Card, ...],
    used: int,
    real: int,
    last_joker: bool,
    max_len: int,
    suit: int,
    held: list[bool],
    jokers: int,
    rules: MeldRules,
    out: list[Group],
) -> None:
    n = len(slots)
    if n >= 3 and real >= rules.min_real:
        out.append(slots)
    if n >= max_len:
        return
    if held[r]:
        _walk_runs(
            r + 1,
            (*slots, card(r, suit)),
            used,
            real + 1,
            False,
            max_len,
            suit,
            held,
            jokers,
            rules,
            out,
        )
    if used < jokers and (rules.adjacent_jokers or not last_joker):
        _walk_runs(
            r + 1, (*slots, JOKER), used + 1, real, True, max_len, suit, held, jokers, rules, out
        )


def iter_legal(game: Game, one_open: bool = False) -> Iterator[Action]:
    """Every legal action of the player to move; with ``one_open``, at most one ``open`` (for
    callers that ask which verbs are available, not every way to lay down)."""
    d = game.deal
    if game.over or d.over:
        return
    rules = game.rules
    seat = d.turn
    hand = d.hands[seat]
    mr = d.meld_rules
    if d.phase == "draw":
        yield Draw()
        if game.is_legal(Take()):
            yield Take()
        if rules.lay_mode == "declare":
            yield Drop()
        yield Timeout()
        return
    if game.is_legal(Return()):
        yield Return()
    faces = sorted(set(hand))
    if d.owed is None and not d.freed:
        kept = game.kept_card()
        for c in faces:
            if c is not kept:
                yield Discard(c)
    opened = d.opened[seat]
    keep = 0 if rules.out_by_laying else 1
    # The card just taken that may not be thrown and is not owed (taken_card_duty off) cannot
    # be the one card kept to discard (see duties.keep_one).
    lone = game.kept_card() if keep and d.owed is None and not d.freed else None
    # Where the last card may be laid to go out, that card may be left alone only with a way
    # to lay it (see duties.lone_kept_place_left).
    alone = not keep and d.owed is None and game.kept_card() is not None
    if rules.lay_mode in ("open", "close") and not opened:
        rule = game.opening_rule(seat)
        result = opening(hand, rule, mr, d.owed)
        if result.valid:
            if one_open:
                # The solver's lay-down (the meter's one-tap open) when legal: walking the
                # combinations of candidate melds for a first one the lay-down rules accept
                # took seconds on a plain rami71 hand with two jokers (every view asks).
                first = _solver_open(game, result.lay) or _solver_open(
                    game, _kept_lay(game, hand, rule, mr)
                ) or next(_opens(game, candidate_melds(hand, mr)), None)
                if first is not None:
                    yield first
            else:
                yield from _opens(game, candidate_melds(hand, mr))
    elif rules.lay_mode == "open":
        table = [tm.meld for tm in d.table]
        for g in candidate_melds(hand, mr):
            if len(hand) - len(g) < keep or (
                lone is not None and len(hand) - len(g) == 1 and lone not in g
            ):
                continue
            if d.owed is not None or d.freed or (alone and len(hand) - len(g) == 1):
                after = [*table, make_meld(g, mr)]
                if (d.owed is not None and not duties.owed_place_left(rules, d, g, after)) or (
                    d.freed and not duties.freed_place_left(rules, d, g, after)
                ) or not duties.lone_kept_place_left(rules, d, g, after):
                    continue
            yield NewMeld(g)
    if opened and (rules.layoffs or rules.swap != "none"):
        fourth = rules.swap == "fourth"
        can_layoff = rules.layoffs and len(hand) - 1 >= keep  # a swap keeps the hand's size
        # While a card is owed (the one taken from the pile, a freed joker), a lay-off or a
        # swap that would leave it no way to be laid is not listed: each is judged on the
        # table after it, as checks.check_layoff and checks.check_swap judge it.
        owing = d.owed is not None or bool(d.freed)
        swap_judged = d.owed is not None or rules.freed_joker_duty
        for n, tm in enumerate(d.table, 1):
            meld = tm.meld
            for c in faces:
                if can_layoff and not (lone is not None and len(hand) == 2 and c is not lone):
                    ends = meld.layoff_ends(c, mr)
                    fits = ends
                    if owing or (alone and len(hand) == 2):
                        fits = tuple(e for e in ends if _places_left(
                            game, [c], checks.table_with(game, n, meld.add(c, e, mr))
                        ))
                    if len(ends) == 1 and fits:
                        yield Layoff(n, c)
                        if ends[0] is not None:
                            yield Layoff(n, c, ends[0])
                    else:  # both ends of a run fit: the action names one
                        for e in fits:
                            yield Layoff(n, c, e)
                if rules.swap != "none":
                    i = meld.swap_index(c, mr, fourth)
                    if i is not None and (
                        not swap_judged
                        or _places_left(
                            game, [c], checks.table_with(game, n, meld.swapped(i, c)[0]), 1
                        )
                    ):
                        yield Swap(n, c)
    if rules.lay_mode == "declare":
        from rummykit.engine.indian import find_declaration

        found = find_declaration(hand, mr, game.kept_card())
        if found is not None:
            yield Declare(tuple(found[1]))
        yield Drop()
    yield Timeout()


def _solver_open(game: Game, lay: Arrangement | None) -> Open | None:
    """The lay-down ``lay`` as an ``open`` when it is legal now."""
    if lay is None or not lay.melds:
        return None
    action = Open(tuple(m.cards for m in lay.melds))
    return action if game.is_legal(action) else None


def _kept_lay(
    game: Game, hand: list[Card], rule: OpeningRule, mr: MeldRules
) -> Arrangement | None:
    """The solver's lay-down that does not leave alone the card just taken that may not be
    thrown (as the meter falls back to it)."""
    kept = game.kept_card()
    if kept is None:
        return None
    return opening(hand, rule, mr, game.deal.owed, kept).lay


def _places_left(game: Game, laying: list[Card], after: list[Meld], freeing: int = 0) -> bool:
    """Whether the card taken from the pile and the freed jokers keep a place once ``laying``
    is laid and, by a swap, ``freeing`` jokers come to the hand, ``after`` being the table's
    melds after the move: the checks of ``checks.check_layoff`` and ``checks.check_swap``,
    which count a swap's joker as freed for the freed joker's duty only under
    ``freed_joker_duty``."""
    rules, d = game.rules, game.deal
    freed = freeing if rules.freed_joker_duty else 0
    return (
        duties.owed_place_left(rules, d, laying, after, freeing)
        and (not (d.freed or freed) or duties.freed_place_left(rules, d, laying, after, freed))
        and (freeing > 0 or duties.lone_kept_place_left(rules, d, laying, after))
    )


def _opens(game: Game, groups: tuple[Group, ...]) -> Iterator[Action]:
    """Every combination of candidate melds the lay-down rules accept (one order each)."""
    d = game.deal
    melds = [make_meld(g, d.meld_rules) for g in groups]
    needs = [Counter(g) for g in groups]
    yield from _walk_opens(game, groups, melds, needs, 0, [], Counter(d.hands[d.turn]))


def _walk_opens(
    game: Game,
    groups: tuple[Group, ...],
    melds: list[Meld],
    needs: list[Counter[Card]],
    i: int,
    chosen: list[int],
    left: Counter[Card],
) -> Iterator[Action]:
    if chosen:
        laid = [c for k in chosen for c in groups[k]]
        try:
            checks.lay_down_rules(game, [melds[k] for k in chosen], laid)
        except IllegalAction:
            pass
        else:
            yield Open(tuple(groups[k] for k in chosen))
    for j in range(i, len(groups)):
        need = needs[j]
        if all(left[c] >= n for c, n in need.items()):
            yield from _walk_opens(game, groups, melds, needs, j, [*chosen, j], left - need)
