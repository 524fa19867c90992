"""The turn's duties: the cards the player to move must lay or keep before the turn may end.

A duty is a card the turn owes the table, or may not give up, until it is met:

- the card taken from the pile, under ``taken_card_duty`` (``DealState.owed``): it must be laid
  this turn, before any discard;
- a joker freed by a swap, under ``freed_joker_duty`` (``DealState.freed`` counts them): it
  must go back on the table this turn;
- the card just taken from the pile may not be thrown this turn (:func:`kept_card`), duty or
  not, unless the rules allow it or the hand holds its twin;
- where a deal is won by discarding, a card must stay in hand to discard.

A meld, lay-off or swap that would leave a duty no way to be met is refused with the reason
(the ``*_keeps_a_place`` checks and :func:`keep_one`, which raise :class:`IllegalAction`), and
not listed among the legal actions (the ``*_place_left`` tests, which answer): the player would
be left with nothing but ``timeout``. Whether a way is left is the search of
:mod:`rummykit.engine.place`. Every function reads the deal of the player to move and the
ruleset, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import ACE, JOKER, Card, card
from rummykit.engine.place import TurnRules, can_finish
from rummykit.engine.state import DealState
from rummykit.errors import IllegalAction
from rummykit.melds import Meld
from rummykit.rules import Ruleset

#: Why a card owed to the table this turn would have no place once nothing else is left to
#: keep (see no_card_to_keep).
_KEEP_ONE: Final = "a card must stay in your hand to discard"
#: Why a joker that must be laid this turn would have no place (see joker_place_left).
_NO_JOKER_PLACE: Final = (
    "no meld on the table could take it and no two cards left in your hand could meld with it"
)
#: The same under the house rule ``layoffs`` off, where no table meld is looked at at all.
_NO_JOKER_PLACE_NO_LAYOFFS: Final = (
    "nothing may be laid off at this table and no two cards left in your hand could meld with it"
)
#: Why a card owed this turn would have no place when no simpler reason holds: the search of
#: rummykit.engine.place found no sequence of moves that lays it and ends the turn.
_NO_WAY: Final = "no sequence of moves left could lay it this turn"


def kept_card(rules: Ruleset, d: DealState) -> Card | None:
    """The card the player to move may not throw this turn (``Game.kept_card``)."""
    # Once a copy of its face is laid the taken card is on the table (the two decks' copies
    # look alike), and a copy left in hand is the player's own of the other deck. Under the
    # duty that is when nothing is owed any more.
    if d.took is None or d.took_laid:
        return None
    return kept_after_take(rules, d.hands[d.turn], d.took)


def kept_after_take(rules: Ruleset, hand: Sequence[Card], taken: Card) -> Card | None:
    """What :func:`kept_card` would be with ``hand`` (``taken`` included) after taking
    ``taken`` from the pile."""
    if rules.discard_taken or hand.count(taken) != 1:
        return None
    return taken


def keep_one(rules: Ruleset, d: DealState, laying: Sequence[Card]) -> None:
    """Refuse laying ``laying`` where it leaves no card to discard, or leaves only the card
    just taken, which may not be thrown (a deal won by discarding)."""
    if rules.out_by_laying:
        return
    left = len(d.hands[d.turn]) - len(laying)
    if left < 1:
        raise IllegalAction("you must keep a card to discard: a deal is won by discarding")
    kept = kept_unless_laid(rules, d, laying)
    if left == 1 and kept is not None and d.owed is None and not d.freed:
        # Without the taken card's duty (a card owed is judged with its place), the card
        # just taken may still not be thrown: alone in hand it would leave no discard.
        raise IllegalAction(
            f"that would leave only the {kept.text} you took from the pile, which you may "
            f"not discard this turn: {_KEEP_ONE}"
        )


def kept_unless_laid(rules: Ruleset, d: DealState, laying: Sequence[Card]) -> Card | None:
    """The card just taken that may not be thrown (:func:`kept_card`) and is not owed to
    the table, if ``laying`` leaves it in hand (its only copy there: it is kept)."""
    kept = kept_card(rules, d)
    if kept is None or kept is d.owed or kept in laying:
        return None
    return kept


def lone_kept_keeps_a_place(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld]
) -> None:
    """Refuse the move :func:`lone_kept_place_left` says no to, saying why."""
    if not lone_kept_place_left(rules, d, laying, table):
        kept = kept_unless_laid(rules, d, laying)
        assert kept is not None
        raise IllegalAction(
            f"that would leave the {kept.text} you took from the pile with no place to go: "
            f"{_NO_WAY}"
        )


def lone_kept_place_left(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld]
) -> bool:
    """Where a deal may be won by laying the last card (no card need stay to discard),
    whether a move that leaves only the card just taken, which may not be thrown and is
    not owed (``taken_card_duty`` off), leaves it a way to be laid, ``table`` being the
    table's melds after the move: that card can then only go out by being laid."""
    if not rules.out_by_laying:
        return True  # keep_one refuses the move
    kept = kept_unless_laid(rules, d, laying)
    if kept is None or len(d.hands[d.turn]) - len(laying) != 1:
        return True
    return can_finish([kept], table, kept, 0, kept, turn_rules(rules, d))


def owed_keeps_a_place(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld], jokers: int = 0
) -> None:
    """Refuse the move :func:`owed_place_left` says no to, with the simplest reason that
    holds."""
    owed = d.owed
    if owed is None or owed_place_left(rules, d, laying, table, jokers):
        return
    if no_card_to_keep(rules, d, laying, jokers):
        why = _KEEP_ONE
    elif d.meld_rules.is_joker(owed) and not joker_place_left(
        rules, d, hand_without(d, laying), table
    ):
        why = no_joker_place(rules)
    elif turn_can_finish(rules, d, (), [tm.meld for tm in d.table], 0, with_freed=False):
        why = "lay it first"
    else:
        # Hopeless since the take (only ``return`` is left): laying it first is no advice.
        why = _NO_WAY
    raise IllegalAction(
        f"that would leave the {owed.text} you took from the pile with no place to go: {why}"
    )


def owed_place_left(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld], jokers: int = 0
) -> bool:
    """Whether the card taken from the pile can still be laid this turn once ``laying``
    is laid and ``jokers`` are freed (a swap's joker comes to the hand), ``table`` being
    the table's melds after the move: some sequence of legal moves lays it and leaves a
    card to discard (see :mod:`rummykit.engine.place`). A move that leaves no such
    sequence is refused, since the turn could not be finished (no discard comes before
    that card is laid). The freed jokers still owed are judged with it by
    :func:`freed_place_left`."""
    owed = d.owed
    if owed is None or owed in laying:
        return True
    return turn_can_finish(rules, d, laying, table, jokers, with_freed=False)


def turn_can_finish(rules: Ruleset, d: DealState, laying: Sequence[Card],
                    table: Sequence[Meld], jokers: int, with_freed: bool) -> bool:
    """Whether the turn can be finished after the move (laying ``laying``, freeing
    ``jokers`` jokers to the hand, ``table`` the melds after it), the freed jokers owed
    counted only ``with_freed``."""
    owed, freed = owed_after(rules, d, laying, jokers)
    if not with_freed:
        freed = 0
    if owed is None and not freed:
        return True
    hand = hand_without(d, laying) + [JOKER] * jokers
    # The search finishes a turn only once nothing is owed: under the duty the taken card
    # is laid by then, so no card left in hand is kept (see kept_card); nor once a copy of
    # it is laid, now or by this move.
    took = None if rules.taken_card_duty or d.took_laid or d.took in laying else d.took
    return can_finish(hand, table, owed, freed, took, turn_rules(rules, d))


def turn_rules(rules: Ruleset, d: DealState) -> TurnRules:
    """The rules of a turn the search of :mod:`rummykit.engine.place` plays by."""
    return TurnRules(
        melds=d.meld_rules,
        layoffs=rules.layoffs,
        swap=rules.swap,
        freed_joker_duty=rules.freed_joker_duty,
        keep=0 if rules.out_by_laying else 1,
        new_melds=rules.lay_mode == "open",
        discard_taken=rules.discard_taken,
    )


def freed_keeps_a_place(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld], freeing: int = 0
) -> None:
    """Refuse the move :func:`freed_place_left` says no to, with the simplest reason that
    holds."""
    if not freed_place_left(rules, d, laying, table, freeing):
        if no_card_to_keep(rules, d, laying, freeing):
            why = _KEEP_ONE
        elif not joker_place_left(rules, d, hand_without(d, laying), table):
            why = no_joker_place(rules)
        else:
            why = _NO_WAY
        raise IllegalAction(f"that would leave the freed joker with no place to go: {why}")


def freed_place_left(
    rules: Ruleset, d: DealState, laying: Sequence[Card], table: Sequence[Meld], freeing: int = 0
) -> bool:
    """Whether the freed jokers still owed once ``laying`` is laid and ``freeing`` more
    jokers are freed (a swap, under ``freed_joker_duty``) can still be laid this turn,
    with the card taken from the pile if it is still owed too (they may compete for the
    same cards), ``table`` being the table's melds after the move."""
    if not owed_after(rules, d, laying, freeing)[1]:
        return True
    return turn_can_finish(rules, d, laying, table, freeing, with_freed=True)


def owed_after(
    rules: Ruleset, d: DealState, laying: Sequence[Card], freeing: int = 0
) -> tuple[Card | None, int]:
    """The card taken from the pile still owed and the freed jokers still owed once
    ``laying`` is laid and ``freeing`` more jokers are freed, as ``Game._laid`` counts them."""
    owed, freed = d.owed, d.freed + (freeing if rules.freed_joker_duty else 0)
    for c in laying:
        if c is owed:
            owed = None
        elif c is JOKER and freed:
            freed -= 1
    return owed, freed


def no_card_to_keep(
    rules: Ruleset, d: DealState, laying: Sequence[Card], freeing: int = 0
) -> bool:
    """Whether, where a card must stay to discard (no going out by laying), the move
    (laying ``laying``, freeing ``freeing`` jokers) would leave only cards still owed to
    the table this turn: they could be neither all laid nor discarded, so the turn could
    not be finished."""
    if rules.out_by_laying:
        return False
    owed, freed = owed_after(rules, d, laying, freeing)
    # The taken card that may not be thrown (without its duty) cannot be the discard either.
    owing = (owed is not None) + freed + (kept_unless_laid(rules, d, laying) is not None)
    # A swap's joker comes to the hand, owed or not.
    left = len(d.hands[d.turn]) - len(laying) + freeing
    return owing > 0 and left <= owing


def joker_place_left(
    rules: Ruleset, d: DealState, rest: Sequence[Card], table: Sequence[Meld]
) -> bool:
    """Whether a joker that must be laid this turn (freed by a swap, or taken from the
    pile) may find a place, ``rest`` being the hand and ``table`` the table's melds, both
    after the move: a meld that takes a joker now, a run that would once a real card left
    in hand is laid beside a joker at its end, or two real cards left in hand that could
    meld with it. It only picks the reason of a refusal (the exact test is
    :func:`turn_can_finish`): with none of these, the joker's message says so."""
    mr = d.meld_rules
    # Without lay-offs (a house rule) the joker goes only into a new meld from the hand.
    for m in table if rules.layoffs else ():
        if m.layoff_ends(JOKER, mr):
            return True
        # A joker at a run's end keeps another from standing beside it; the real card
        # of the next place, laid first, makes room.
        if m.kind == "run" and len(m.cards) + 2 <= mr.max_run and (
            (m.jokers[0] and m.rank >= 3 and card(m.rank - 1, m.suit) in rest)
            or (m.jokers[-1] and m.high <= 12 and card(m.high + 1, m.suit) in rest)
        ):
            return True
    reals = sorted({c for c in rest if not mr.is_joker(c)}, key=lambda c: c.index)
    return any(
        _could_meld(a, b) or (mr.adjacent_jokers and a.suit == b.suit)
        for i, a in enumerate(reals)
        for b in reals[i + 1 :]
    )


def no_joker_place(rules: Ruleset) -> str:
    """The reason a joker owed this turn has no place: without lay-offs no table meld was
    a place to begin with, so the reason names none."""
    return _NO_JOKER_PLACE if rules.layoffs else _NO_JOKER_PLACE_NO_LAYOFFS


def hand_without(d: DealState, laying: Sequence[Card]) -> list[Card]:
    """The hand of the player to move once ``laying`` is laid."""
    rest = list(d.hands[d.turn])
    for c in laying:
        rest.remove(c)
    return rest


def _could_meld(c: Card, other: Card) -> bool:
    """Whether ``c`` could share a meld with ``other``: the same rank in another suit, or the
    same suit one or two ranks away (an ace at either end)."""
    if c.rank == other.rank:
        return c.suit != other.suit
    if c.suit != other.suit:
        return False
    gap = abs(c.rank - other.rank)
    return gap <= 2 or (ACE in (c.rank, other.rank) and gap >= 11)
