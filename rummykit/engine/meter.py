"""The opening meter: the best opening a seat's cards can lay, against the minimum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.engine.actions import Open
from rummykit.solver import Arrangement, opening

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def opening_meter(game: Game, seat: int) -> dict[str, Any]:
    """The meter of ``seat``: whether its cards can lay down now (``enough``), ``action``:
    the one-tap ``open`` when it is legal right now (the seat's turn, after drawing; a card
    taken from the pile is inside it), and the lay-down its ``points`` and ``melds``
    describe: when ``enough``, the one the one-tap open lays (the best opening when it
    reaches the minimum, else the close, which ignores the minimum), so that the points on
    the button are what it lays; otherwise the best opening, whatever the minimum."""
    d = game.deal
    must = d.owed if seat == d.turn else None
    rule = game.opening_rule(seat)
    result = opening(d.hands[seat], rule, d.meld_rules, must)
    enough = result.valid
    action = None
    lay = result.lay
    if lay is not None and lay.melds and seat == d.turn and d.phase == "play":
        candidate = Open(tuple(m.cards for m in lay.melds))
        if game.is_legal(candidate):
            action = str(candidate)
        elif enough:
            # The best lay is refused now: it leaves only the card just taken from the pile,
            # which may not be thrown (where the last card may be laid to go out, it is
            # refused only when that card could not then be laid). The meter then shows the
            # solver's best lay-down that does not leave that card alone, when legal, so
            # that it, its one-tap open and the listed moves agree.
            kept = game.kept_card()
            if kept is None:
                return _meter(None, False, None)
            result = opening(d.hands[seat], rule, d.meld_rules, must, kept)
            enough = False
            lay = result.lay
            if lay is not None and lay.melds:
                candidate = Open(tuple(m.cards for m in lay.melds))
                if game.is_legal(candidate):
                    action, enough = str(candidate), True
    return _meter(result.lay if enough else result.best, enough, action)


def _meter(shown: Arrangement | None, enough: bool, action: str | None) -> dict[str, Any]:
    return {
        "points": shown.points if shown is not None else 0,
        "melds": [[c.text for c in m.cards] for m in shown.melds] if shown is not None else [],
        "enough": enough,
        "action": action,
    }
