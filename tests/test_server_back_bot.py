"""A person who comes back (``back`` or ``resume``) while a bot is thinking does not make the
bot think a second time about the same move: clearing the seat's timeouts used to re-arm the
room's schedule, which starts a bot decision whenever a bot is to move."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager, hash_token
from rummykit.server.storage import SQLiteStorage
from tests.server_support import HeldBot, bot_to_move


@pytest.mark.parametrize("how", ["back", "resume"])
def test_coming_back_does_not_start_a_second_bot_decision(tmp_path: Path, how: str) -> None:
    storage = SQLiteStorage(str(tmp_path / "back.db"))
    config = ServerConfig(bot_pool="thread", offload_views=False, bot_delay=0)
    manager = RoomManager(storage, config)
    bot = HeldBot()
    manager.bots.choose = bot

    async def main() -> None:
        conn, room, game = bot_to_move(manager, "easy")
        token = "t" * 32
        seat = room.seats[1]
        seat.token = hash_token(token)
        version = game.version
        while not bot.asked:
            await asyncio.sleep(0.01)
        assert len(bot.asked) == 1 and bot.asked[0] == version, bot.asked
        # Ana's clock ran out once before (a timeout on her earlier turn)
        seat.timeouts = 1
        if how == "back":
            manager.handle(conn, {"type": "back", "id": 7})
        else:
            manager.handle(Connection(), {"type": "resume", "id": 7, "room": room.code,
                                          "token": token})
        assert seat.timeouts == 0
        # the bot thinks on past the pause a second decision would wait (bot_delay is 0 here;
        # a hard bot thinks 1 s, more than the default 0.6 s pause)
        await asyncio.sleep(0.3)
        bot.release.set()
        await asyncio.sleep(0.3)
        # one decision for the bot's move at that version (later versions are its next moves)
        assert bot.asked.count(version) == 1, bot.asked
        manager.close()

    try:
        asyncio.run(main())
    finally:
        bot.release.set()
        storage.close()
