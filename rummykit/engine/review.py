"""A finished game looked at again, move by move, every hand face up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.engine.records import load_record, replay_steps
from rummykit.errors import InvalidArgument, InvalidRecord


def replay_deal(record: Mapping[str, Any] | str, deal: int = 1) -> dict[str, Any]:
    """Every position of one deal of a record, oldest first, for a player looking back at it.

    Returns ``{"variant", "players", "options", "deal", "deals", "results", "frames"}``:
    ``deals`` is how many deals the record holds, ``results`` the view's ``results`` at the
    deal's end (this deal's and every earlier one's), and each frame is ``{"step", "action",
    "events", "hands", "view"}``. Step 0 is the deal as dealt; step *i* follows the deal's
    *i*-th action (its text in ``action``). ``events`` are the public history events that
    action added (the format of :meth:`Game.history`), ``hands`` every seat's hand, ``view``
    the spectator's view (:meth:`Game.public_view`) without its ``results`` and ``options``.

    The hands make this a look *back*: they show what no seat saw during the deal, so a
    server hands this out only for a game that is over, as it does the record itself (which
    lists the decks)."""
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise InvalidArgument(f"a deal is a number from 1, not {deal!r}")
    source = load_record(record)
    frames: list[dict[str, Any]] = []
    seen = 0
    results: list[Any] = []
    game = None
    for game, k, step, text in replay_steps(source):
        if k > deal:
            break
        if k < deal:
            continue
        if step == 0:
            seen = 0
        events = game.deal.events[seen:]
        seen = len(game.deal.events)
        view = game.public_view()
        # said once below: every earlier deal's hands would be repeated in every frame
        results = view.pop("results")
        view.pop("options")
        frames.append(
            {
                "step": step,
                "action": text,
                "events": [dict(e) for e in events],
                "hands": [[c.text for c in hand] for hand in game.deal.hands],
                "view": view,
            }
        )
    if game is None:  # pragma: no cover - replay_steps yields the first deal or raises
        raise InvalidRecord("the record holds no deal")
    total = len(source["deals"])
    if deal < 1 or not frames:
        raise InvalidArgument(f"the record holds deals 1 to {total}, not {deal}")
    return {
        "variant": game.variant,
        "players": game.players,
        "options": game.rules.options(),
        "deal": deal,
        "deals": total,
        "results": results,
        "frames": frames,
    }
