"""A bot whose answer the engine refuses (a bot bug) does not cost its seat a sensible move:
the seat plays the medium move, as for a bot that raises or overruns, and the event is logged."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import choose_action
from rummykit.server.config import ServerConfig
from rummykit.server.rooms import RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import bot_to_move, hard_bot_turn_logs

ASKED: list[str] = []


def _illegal_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                           seed: int | None) -> str:
    ASKED.append(level)
    if level != "medium":
        return "declare"  # no such move in rummy
    return choose_action(view, history, level, seed)


def test_a_refused_bot_answer_gives_way_to_the_medium_move(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = SQLiteStorage(str(tmp_path / "refused.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False))
    manager.bots.choose = _illegal_unless_medium
    ASKED.clear()
    messages = hard_bot_turn_logs(manager, storage, caplog)
    assert ASKED.count("hard") >= 2 and "medium" in ASKED
    refused = [m for m in messages if "refused" in m]
    assert refused and all("playing the medium move" in m for m in refused), messages
    assert not any("fallback" in m for m in messages), messages


def test_the_medium_move_waits_while_views_of_the_game_are_computed(tmp_path: Path) -> None:
    # The medium move was played as soon as it came, changing the game while the view thread
    # could be reading it (the bot's first answer waits for that).
    storage = SQLiteStorage(str(tmp_path / "busy.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False))
    manager.bots.choose = _illegal_unless_medium
    ask = manager.bots.decide
    unchanged_while_busy: list[bool] = []

    async def decide(game: Any, seat: int, level: str, view: Any = None, *,
                     room: str = "-") -> str:
        action = await ask(game, seat, level, view, room=room)
        if level == "medium" and not unchanged_while_busy:
            held, version = manager.rooms[room], game.version
            held.busy += 1  # as _send_view_later does while the view thread works

            def release() -> None:
                unchanged_while_busy.append(game.version == version)
                held.busy -= 1

            asyncio.get_running_loop().call_later(0.2, release)
        return action

    manager.bots.decide = decide  # type: ignore[method-assign]

    async def main() -> None:
        bot_to_move(manager, "hard")
        for _ in range(1000):
            if unchanged_while_busy:
                break
            await asyncio.sleep(0.01)
        manager.close()

    asyncio.run(main())
    storage.close()
    assert unchanged_while_busy == [True]
