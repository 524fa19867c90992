"""The opening meter: the best opening a seat's cards can lay, against the minimum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.cards import Card
from rummykit.engine.actions import Open
from rummykit.solver import Arrangement, OpeningRule, opening

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def opening_meter(game: Game, seat: int) -> dict[str, Any]:
    """The meter of ``seat``: ``points`` (the best total its cards can lay, counted as the
    variant counts an opening), its ``melds``, whether that is ``enough`` to lay down now,
    and ``action``: the one-tap ``open`` when it is legal right now (the seat's turn, after
    drawing; a card taken from the pile is inside it)."""
    d = game.deal
    rules = game.rules
    partner = rules.teams and d.opened[(seat + 2) % rules.players]
    must = d.owed if seat == d.turn else None
    rule = rules.opening_rule(partner)
    result = opening(d.hands[seat], rule, d.meld_rules, must)
    best = result.best
    lay = result.lay
    enough = result.valid
    action = None
    if lay is not None and lay.melds and seat == d.turn and d.phase == "play":
        candidate = Open(tuple(m.cards for m in lay.melds))
        if game.is_legal(candidate):
            action = str(candidate)
        elif enough:
            # The best lay may be refused now (it would leave only the card just taken from
            # the pile, which may not be thrown): the meter then shows the best legal opening,
            # so that it, its one-tap open and the listed moves agree.
            best = _best_legal(game, rule, must)
            enough = best is not None
            if best is not None:
                action = str(Open(tuple(m.cards for m in best.melds)))
    return {
        "points": best.points if best is not None else 0,
        "melds": [[c.text for c in m.cards] for m in best.melds] if best is not None else [],
        "enough": enough,
        "action": action,
    }


def _best_legal(game: Game, rule: OpeningRule, must: Card | None) -> Arrangement | None:
    """The most valuable legal opening of the player to move when the best lay is refused for
    leaving only the card just taken from the pile (which may not be thrown). A legal opening
    lays that card or leaves another card in hand: the best lay with it and the best lays of
    the hand without each other card, kept when legal, cover them (in a close the taken card
    is laid)."""
    d = game.deal
    taken = game.kept_card()
    if taken is None:
        return None
    hand = d.hands[d.turn]
    lays = [opening(hand, rule, d.meld_rules, taken).lay] if must in (None, taken) else []
    for left in sorted(set(hand) - {taken, must}):
        rest = list(hand)
        rest.remove(left)
        lays.append(opening(rest, rule, d.meld_rules, must).lay)
    found: Arrangement | None = None
    for lay in lays:
        if lay is None or not lay.melds or (found is not None and lay.points <= found.points):
            continue
        if game.is_legal(Open(tuple(m.cards for m in lay.melds))):
            found = lay
    return found
