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
    result = opening(d.hands[seat], rules.opening_rule(partner), d.meld_rules, must)
    best = result.best
    lay = result.lay
    action = None
    if lay is not None and lay.melds and seat == d.turn and d.phase == "play":
        candidate = Open(tuple(m.cards for m in lay.melds))
        if game.is_legal(candidate):
            action = str(candidate)
    return {
        "points": best.points if best is not None else 0,
        "melds": [[c.text for c in m.cards] for m in best.melds] if best is not None else [],
        "enough": result.valid,
        "action": action,
    }
