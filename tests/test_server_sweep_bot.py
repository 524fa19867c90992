"""A room swept while one of its bots is thinking stays swept: the late answer is dropped
rather than played into a room nobody can reach (the move wrote the room back to storage and
the bots played on unseen)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage

THINKING = threading.Event()
ANSWER = threading.Event()


def _slow_draw(view: dict[str, Any], history: list[Any], level: str, seed: int | None) -> str:
    THINKING.set()
    ANSWER.wait(30)
    return "draw"


def test_a_swept_room_does_not_take_its_bots_late_move(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "sweep.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False))
    manager.bots.choose = _slow_draw
    THINKING.clear()
    ANSWER.clear()

    async def main() -> None:
        conn = Connection()
        manager.handle(
            conn, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}}
        )
        code = next(iter(manager.rooms))
        room = manager.rooms[code]
        manager.handle(conn, {"type": "sit", "id": 2, "seat": 1, "name": "Ana"})
        manager.handle(conn, {"type": "add_bot", "id": 3, "seat": 0, "level": "easy"})
        game = room.game
        assert game is not None
        if game.to_move == 1:  # Ana starts: she draws and discards, then the bot thinks
            manager.handle(conn, {"type": "action", "id": 4, "version": game.version,
                                  "action": "draw"})
            card = game.view(1)["hand"][0]
            manager.handle(conn, {"type": "action", "id": 5, "version": game.version,
                                  "action": f"discard {card}"})
        version = game.version
        while not THINKING.is_set():
            await asyncio.sleep(0.01)
        manager.handle(conn, {"type": "leave", "id": 6})
        room.touched -= 25 * 3600 * 1000
        assert manager.sweep() == [code]
        ANSWER.set()
        await asyncio.sleep(0.3)
        assert game.version == version  # the late draw was not played
        assert code not in manager.rooms
        assert storage.load_rooms() == []
        manager.close()

    try:
        asyncio.run(main())
    finally:
        ANSWER.set()
        storage.close()
