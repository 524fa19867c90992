"""Whether a turn that owes cards to the table can still be finished.

Under ``taken_card_duty`` the card taken from the pile must be laid in the turn it was taken,
and under ``freed_joker_duty`` so must a joker freed by a swap; no discard comes before. A move
that leaves the turn with no way to meet those duties would leave the player nothing but the
clock's automatic play, so the engine refuses it: it asks :func:`can_finish` about the state
after the move.

The answer comes from a small exact search over the moves that can matter, not from every
legal sequence of the turn:

- the owed card laid off, swapped for a joker, or laid in a new meld of the hand's cards of
  its suit and rank (and jokers);
- the hand's cards of its suit laid off on the table's runs of that suit first (the cards in
  between, ``8H`` on ``5H 6H 7H`` before an owed ``9H``);
- jokers laid off on any meld, or in a new meld of any of the hand's cards (a freed joker's
  place, or a gap of the owed card's run);
- a real card laid off at a run's end held by a joker (room for a joker beside it), or, where a
  set's joker is freed only as its fourth card (Rami), on a three-card set with one joker;
- swaps, which bring a joker to the hand.

Any other move lays a card that can go neither near the owed card nor beside a joker, nor
make a joker free to swap: it cannot make room for either, and laying it only takes a card
the player might keep to discard.
A meld laid without the owed card and later grown to take it is the same as laying it at once
with the owed card. So the search answers exactly for the laying variants' meld rules (one
reading per group of cards, as :func:`rummykit.engine.legal.candidate_melds` gives them).

A state is finished when nothing is owed and a card may be discarded (not the one just taken
from the pile and kept, see ``Game.kept_card``: none once a card of its face is laid), or when
the hand is empty where going out by laying is allowed. The search gives up after
:data:`NODE_BUDGET` states and then answers ``True``: the engine refuses only moves it knows to
be hopeless.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from rummykit.cards import JOKER, Card
from rummykit.engine.legal import candidate_melds
from rummykit.melds import Meld, MeldRules, make_meld

#: States the search visits at most before it answers ``True`` (unknown counts as possible).
NODE_BUDGET: Final = 2000

Hand = tuple[Card, ...]
Table = tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class TurnRules:
    """What the search needs of a ruleset."""

    melds: MeldRules
    layoffs: bool
    #: ``"any"``, ``"fourth"`` (a set's joker leaves only as its fourth card) or ``"none"``.
    swap: str
    #: Whether a joker freed by a swap must be laid this turn.
    freed_joker_duty: bool
    #: Cards that must stay in hand after a lay (1 where a deal is won by discarding).
    keep: int
    #: Whether new melds may be laid after opening.
    new_melds: bool
    #: Whether the card taken from the pile may be thrown in the same turn.
    discard_taken: bool


def can_finish(
    hand: Sequence[Card],
    table: Sequence[Meld],
    owed: Card | None,
    freed: int,
    took: Card | None,
    rules: TurnRules,
) -> bool:
    """Whether a turn with ``hand`` and ``table``, the taken card ``owed`` (or None) and
    ``freed`` freed jokers still to lay, can reach a discard or going out by legal moves.
    ``took`` is the card taken from the pile this turn (what may not be thrown)."""
    key = tuple(sorted(hand, key=_index))
    return _solve(key, tuple(table), owed, freed, took, rules)


def _index(c: Card) -> int:
    return c.index


@lru_cache(maxsize=8192)
def _solve(hand: Hand, table: Table, owed: Card | None, freed: int, took: Card | None,
           rules: TurnRules) -> bool:
    search = _Search(rules)
    found = search.reach(hand, table, owed, freed, took)
    return found or search.nodes > NODE_BUDGET


class _Search:
    def __init__(self, rules: TurnRules) -> None:
        self.rules = rules
        self.nodes = 0
        self.seen: set[tuple[Hand, Table, Card | None, int, Card | None]] = set()

    def reach(self, hand: Hand, table: Table, owed: Card | None, freed: int,
              took: Card | None) -> bool:
        if owed is None and not freed and self._done(hand, took):
            return True
        state = (hand, table, owed, freed, took)
        if state in self.seen:
            return False
        self.seen.add(state)
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            return False
        return any(
            self.reach(h, t, o, f, None if took in laid else took)
            for h, t, o, f, laid in self._moves(hand, table, owed, freed)
        )

    def _done(self, hand: Hand, took: Card | None) -> bool:
        if not hand:
            return self.rules.keep == 0
        # ``took`` is None once a copy of its face is laid (see Game.kept_card).
        kept = (
            None
            if took is None or self.rules.discard_taken or hand.count(took) != 1
            else took
        )
        return any(c is not kept for c in hand)

    def _moves(
        self, hand: Hand, table: Table, owed: Card | None, freed: int
    ) -> Iterator[tuple[Hand, Table, Card | None, int, tuple[Card, ...]]]:
        """The states one useful move away, each with the cards the move laid."""
        rules = self.rules
        mr = rules.melds
        jokers_owed = freed > 0 or (owed is not None and mr.is_joker(owed))
        suit = -2 if owed is None or mr.is_joker(owed) else owed.suit
        faces = sorted(set(hand), key=_index)
        holds_joker = any(mr.is_joker(c) for c in hand)
        can_lay = len(hand) - 1 >= rules.keep
        # The owed card itself first: most positions are answered by its first move.
        if owed is not None and owed in hand:
            order = [owed, *(c for c in faces if c is not owed)]
        else:
            order = faces
        for c in order:
            joker = mr.is_joker(c)
            for n, m in enumerate(table):
                if can_lay and rules.layoffs:
                    for end in m.layoff_ends(c, mr):
                        if self._useful_layoff(c, joker, m, end, owed, suit, jokers_owed,
                                               holds_joker):
                            grown = m.add(c, end, mr)
                            yield _lay(hand, (c,), _put(table, n, grown), owed, freed)
                if rules.swap != "none" and not joker:
                    i = m.swap_index(c, mr, rules.swap == "fourth")
                    if i is not None:
                        after, joker_card = m.swapped(i, c)
                        rest, left, still = _take(hand, [c], owed, freed)
                        back = tuple(sorted((*rest, joker_card), key=_index))
                        yield (back, _put(table, n, after), left,
                               still + (1 if rules.freed_joker_duty else 0), (c,))
        if rules.new_melds:
            yield from self._new_melds(hand, table, owed, freed, jokers_owed)

    def _useful_layoff(self, c: Card, joker: bool, m: Meld, end: str | None,
                       owed: Card | None, suit: int, jokers_owed: bool,
                       holds_joker: bool) -> bool:
        if c is owed:
            return True
        run_of_owed = m.kind == "run" and m.suit == suit
        if joker:
            return jokers_owed or run_of_owed
        if run_of_owed and c.suit == suit:
            return True
        if self.rules.swap == "fourth" and m.kind == "set":
            # Rami frees a set's joker only as the fourth card of the set: a real card laid
            # on a three-card set with one joker lets a later swap free it.
            return len(m.cards) == 3 and m.joker_count == 1
        # A real card at a run's end held by a joker makes room for another joker there.
        return holds_joker and m.kind == "run" and (
            (end == "low" and m.jokers[0]) or (end == "high" and m.jokers[-1])
        )

    def _new_melds(
        self, hand: Hand, table: Table, owed: Card | None, freed: int, jokers_owed: bool
    ) -> Iterator[tuple[Hand, Table, Card | None, int, tuple[Card, ...]]]:
        rules = self.rules
        mr = rules.melds
        # A dict keeps one copy of a group found both ways, in a stable order.
        groups: dict[tuple[Card, ...], None] = {}
        if owed is not None and not mr.is_joker(owed):
            near = [c for c in hand if mr.is_joker(c) or c.suit == owed.suit
                    or c.rank == owed.rank]
            groups.update((g, None) for g in candidate_melds(near, mr) if owed in g)
        if jokers_owed:
            groups.update((g, None) for g in candidate_melds(list(hand), mr)
                          if any(mr.is_joker(c) for c in g))
        for g in sorted(groups, key=len):
            if len(hand) - len(g) < rules.keep:
                continue
            yield _lay(hand, g, (*table, make_meld(g, mr)), owed, freed)


def _put(table: Table, n: int, meld: Meld) -> Table:
    return (*table[:n], meld, *table[n + 1 :])


def _take(hand: Hand, cards: Sequence[Card], owed: Card | None,
          freed: int) -> tuple[list[Card], Card | None, int]:
    """The hand without ``cards``, and what is still owed once they are laid (as
    ``Game._laid`` counts it: the owed card first, then freed jokers)."""
    rest = Counter(hand)
    for c in cards:
        rest[c] -= 1
        if c is owed:
            owed = None
        elif c is JOKER and freed:
            freed -= 1
    return sorted(rest.elements(), key=_index), owed, freed


def _lay(hand: Hand, cards: tuple[Card, ...], table: Table, owed: Card | None,
         freed: int) -> tuple[Hand, Table, Card | None, int, tuple[Card, ...]]:
    rest, owed, freed = _take(hand, cards, owed, freed)
    return tuple(rest), table, owed, freed, cards
