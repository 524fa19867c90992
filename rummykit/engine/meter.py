"""The opening meter: the best opening a seat's cards can lay, against the minimum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.engine.actions import Open
from rummykit.solver import opening

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
            # The best lay is refused now: it leaves only the card just taken from the pile,
            # which may not be thrown (where the last card may be laid to go out, it is
            # refused only when that card could not then be laid). The meter then shows the
            # solver's best lay that does not leave that card alone, when legal, so that it,
            # its one-tap open and the listed moves agree.
            best, enough = None, False
            kept = game.kept_card()
            if kept is not None:
                lay = opening(d.hands[seat], rule, d.meld_rules, must, kept).lay
                if lay is not None and lay.melds:
                    candidate = Open(tuple(m.cards for m in lay.melds))
                    if game.is_legal(candidate):
                        best, enough, action = lay, True, str(candidate)
    return {
        "points": best.points if best is not None else 0,
        "melds": [[c.text for c in m.cards] for m in best.melds] if best is not None else [],
        "enough": enough,
        "action": action,
    }
