"""The storage interface: what is stored comes back, as a record the engine replays."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine import Game
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage


def test_actions_and_deals_rebuild_the_record(tmp_path: Path) -> None:
    game = Game.new("rummy", players=3, options={"length": "to-200"}, seed=5)
    record = game.record()
    head = {k: v for k, v in record.items() if k != "deals"}
    deal = {k: v for k, v in record["deals"][0].items() if k != "actions"}
    path = str(tmp_path / "s.db")
    store = SQLiteStorage(path)
    store.start_game("ABCDEF", 1, head, deal, {"code": "ABCDEF", "n": 0})
    for seq in range(12):
        assert game.to_move is not None
        view = game.view(game.to_move)
        action = "draw" if view["turn"]["phase"] == "draw" else f"discard {view['hand'][0]}"
        game.apply(action)
        store.append_action("ABCDEF", 1, 0, seq, action, {"code": "ABCDEF", "n": seq + 1})
    store.close()
    # a new process opening the same file
    again = SQLiteStorage(path)
    assert again.load_rooms() == [{"code": "ABCDEF", "n": 12}]
    stored = again.load_game("ABCDEF", 1)
    assert stored is not None
    replayed = Game.from_record(stored)
    assert replayed.version == game.version
    assert replayed.view(0) == game.view(0)
    assert again.get_record("ABCDEF") is None  # not finished
    # the game's last action stored with its final record
    again.append_action(
        "ABCDEF", 1, 0, 12, "draw", {"code": "ABCDEF", "n": 13}, record=game.record()
    )
    assert again.get_record("ABCDEF") == game.record()
    assert again.get_record("ABCDEF", 1) == game.record()
    assert again.get_record("ABCDEF", 2) is None
    again.delete_room("ABCDEF")
    assert again.load_rooms() == []
    assert again.get_record("ABCDEF") == game.record()  # records outlive rooms
    mode = again._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    again.close()


def test_a_storage_failure_refuses_the_action_and_keeps_the_room(tmp_path: Path) -> None:
    store = SQLiteStorage(str(tmp_path / "f.db"))
    manager = RoomManager(store, ServerConfig(bot_pool="thread", offload_views=False))

    async def main() -> None:
        a, b = Connection(), Connection()
        manager.handle(
            a, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}}
        )
        code = next(iter(manager.rooms))
        manager.handle(a, {"type": "sit", "id": 2, "seat": 0, "name": "A"})
        manager.handle(b, {"type": "join", "id": 3, "room": code})
        manager.handle(b, {"type": "sit", "id": 4, "seat": 1, "name": "B"})
        room = manager.rooms[code]
        assert room.game is not None
        version = room.game.version
        mover = a if room.game.to_move == 0 else b
        real = store.append_action

        def broken(*args: Any, **kw: Any) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        store.append_action = broken  # type: ignore[method-assign]
        msg = {"type": "action", "id": 5, "version": version, "action": "draw"}
        with pytest.raises(ProtocolError) as info:
            manager.handle(mover, msg)
        assert info.value.code == "internal"
        assert room.game.version == version  # put back as stored
        store.append_action = real  # type: ignore[method-assign]
        manager.handle(mover, msg)
        assert room.game.version == version + 1
        manager.close()

    asyncio.run(main())
    store.close()


def test_the_wal_file_shrinks_back_after_a_burst(tmp_path: Path) -> None:
    # A burst of commits the checkpoints cannot keep up with grows the WAL; once a checkpoint
    # lets the log start over, the next commit cuts the file back to the limit.
    path = tmp_path / "s.db"
    store = SQLiteStorage(str(path), wal_limit=64 * 1024)
    reader = sqlite3.connect(str(path))
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM rooms").fetchone()  # holds the log from the start
    padding = "x" * 4000
    for n in range(300):
        store.save_room("ABCDEF", {"code": "ABCDEF", "n": n, "padding": padding})
    wal = Path(str(path) + "-wal")
    grown = wal.stat().st_size
    assert grown > 1024 * 1024
    reader.execute("COMMIT")
    reader.close()
    store._db.execute("PRAGMA wal_checkpoint(RESTART)")
    store.save_room("ABCDEF", {"code": "ABCDEF", "n": 300})
    assert wal.stat().st_size <= 64 * 1024
    assert store.load_rooms() == [{"code": "ABCDEF", "n": 300}]
    store.close()
