"""The opening meter: the best opening a seat's cards can lay, against the minimum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.cards import format_cards

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def opening_meter(game: Game, seat: int) -> dict[str, Any] | None:
    """``{"points", "melds", "action", "enough"}`` for ``seat``; the action is the one-tap
    open (legal only on the seat's own turn after drawing)."""
    from rummykit.engine.actions import Open
    from rummykit.engine.legal import candidate_melds

    d = game.deal
    rules = game.rules
    hand = d.hands[seat]
    must = d.owed if seat == d.turn else None
    melds = candidate_melds(hand, d.meld_rules)
    best: tuple[int, list[Any]] | None = None
    from collections import Counter

    from rummykit.melds import make_meld

    values = [make_meld(g, d.meld_rules).value(rules.jokers_zero) for g in melds]

    def walk(i: int, chosen: list[int], left: Counter[Any], total: int) -> None:
        nonlocal best
        if chosen and (must is None or any(must in melds[k] for k in chosen)):
            if best is None or total > best[0]:
                best = (total, list(chosen))
        for j in range(i, len(melds)):
            need = Counter(melds[j])
            if all(left[c] >= n for c, n in need.items()):
                walk(j, [*chosen, j], left - need, total + values[j])

    walk(0, [], Counter(hand), 0)
    if best is None:
        return {"points": 0, "melds": [], "action": None, "enough": False}
    points, idx = best
    groups = [melds[k] for k in idx]
    action = Open(tuple(groups))
    enough = seat == d.turn and d.phase == "play" and game.is_legal(action)
    return {
        "points": points,
        "melds": [format_cards(g).split() for g in groups],
        "action": str(action) if enough else None,
        "enough": points >= rules.opening_minimum,
    }
