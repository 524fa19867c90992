"""An adversarial client: what a connection must never receive, whatever it sends and when.

See docs/server.md, *What a client can never learn*.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import sent


def _two_people(manager: RoomManager) -> tuple[str, Connection, Connection, str, str]:
    """A started 2-seat rummy room of two people: its code, their connections and tokens."""
    a, b = Connection(), Connection()
    manager.handle(a, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}})
    code = next(iter(manager.rooms))
    manager.handle(a, {"type": "sit", "id": 2, "seat": 0, "name": "A"})
    manager.handle(b, {"type": "join", "id": 3, "room": code})
    manager.handle(b, {"type": "sit", "id": 4, "seat": 1, "name": "B"})
    tokens = [m["token"] for c in (a, b) for m in sent(c) if m["type"] == "seated"]
    return code, a, b, tokens[0], tokens[1]


def _hands(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "state" and "hand" in m["view"]]


@pytest.mark.parametrize("how", ["resumed elsewhere", "left"])
def test_a_seat_view_computed_off_the_loop_goes_only_to_who_holds_the_seat(
    tmp_path: Path, how: str
) -> None:
    # With --view-threads, the view of the seat to move is computed in a thread and sent when
    # it is ready. A connection that meanwhile lost the seat (resumed on another connection)
    # or left the room must not get it: those are cards of a seat it no longer holds.
    store = SQLiteStorage(str(tmp_path / "c.db"))
    manager = RoomManager(store, ServerConfig(bot_pool="thread", offload_views=True))

    async def main() -> None:
        code, a, b, token_a, token_b = _two_people(manager)
        room = manager.rooms[code]
        assert room.game is not None
        while room.busy:
            await asyncio.sleep(0.01)
        mover, token = (a, token_a) if room.game.to_move == 0 else (b, token_b)
        sent(a), sent(b)
        manager.handle(
            mover, {"type": "action", "id": 5, "version": room.game.version, "action": "draw"}
        )
        assert room.busy  # the mover's view is being computed
        thief = Connection()
        if how == "left":
            manager.handle(mover, {"type": "leave", "id": 6})
        else:
            manager.handle(thief, {"type": "resume", "id": 6, "room": code, "token": token})
        while room.busy:
            await asyncio.sleep(0.01)
        got = sent(mover)
        assert not _hands(got), f"a connection that {how} got its old seat's cards"
        if how == "left":
            assert not [m for m in got if m["type"] == "state"]
        else:
            assert _hands(sent(thief))
            # still in the room as a spectator, it hears of the action it played
            [state] = [m for m in got if m["type"] == "state"]
            assert state["version"] == room.game.version and state["ack"] == 5
            assert state["view"] == room.game.public_view()
        manager.close()

    asyncio.run(main())
    store.close()
