"""A room swept while one of its bots is thinking stays swept: the late answer is dropped
rather than played into a room nobody can reach (the move wrote the room back to storage and
the bots played on unseen)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import HeldBot, bot_to_move


def test_a_swept_room_does_not_take_its_bots_late_move(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "sweep.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False))
    bot = HeldBot()
    manager.bots.choose = bot

    async def main() -> None:
        conn, room, game = bot_to_move(manager, "easy")
        code = room.code
        version = game.version
        while not bot.asked:
            await asyncio.sleep(0.01)
        manager.handle(conn, {"type": "leave", "id": 6})
        room.touched -= 25 * 3600 * 1000
        assert manager.sweep() == [code]
        bot.release.set()
        await asyncio.sleep(0.3)
        assert game.version == version  # the late draw was not played
        assert code not in manager.rooms
        assert storage.load_rooms() == []
        manager.close()

    try:
        asyncio.run(main())
    finally:
        bot.release.set()
        storage.close()
