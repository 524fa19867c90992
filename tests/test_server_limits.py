"""What the server refuses to protect itself and its players: options a room would not use,
names that pass for bots, room codes already used, floods, and requests from elsewhere."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[RoomManager]:
    storage = SQLiteStorage(str(tmp_path / "limits.db"))
    rooms = RoomManager(storage, ServerConfig(bot_pool="thread"))
    yield rooms
    rooms.close()
    storage.close()


def _create(manager: RoomManager, conn: Connection, variant: str, players: int,
            options: dict[str, Any]) -> str:
    """Create a room on ``conn``; the room's code (or the ProtocolError raised)."""
    msg = {"type": "create", "id": 1, "variant": variant, "players": players, "options": options}

    async def main() -> str:
        manager.handle(conn, msg)
        assert conn.room is not None
        return conn.room.code

    return asyncio.run(main())


@pytest.mark.parametrize(
    "options",
    [
        {"deals": 3},  # the default format, pool101, plays to 101 points
        {"format": "pool201", "deals": 2},  # even the default count
        {"format": "points", "deals": 1},
        {"format": "deals", "deals": 21},
        {"format": "deals", "deals": 10**9},
        {"format": "deals", "deals": 0},
    ],
)
def test_an_option_the_room_would_not_use_or_out_of_bounds_is_refused(
    manager: RoomManager, options: dict[str, Any]
) -> None:
    with pytest.raises(ProtocolError) as info:
        _create(manager, Connection(), "indian", 3, options)
    assert info.value.code == "bad_options"
    assert "deals" in info.value.message
    assert not manager.rooms


def test_the_deals_option_with_the_deals_format(manager: RoomManager) -> None:
    code = _create(manager, Connection(), "indian", 3, {"format": "deals", "deals": 20})
    assert manager.rooms[code].options["deals"] == 20
    # the unused count is refused with a reason that says which format uses it
    with pytest.raises(ProtocolError, match="used only with format deals, not with format pool101"):
        _create(manager, Connection(), "indian", 3, {"deals": 2})
