"""What an adversarial hunt of the server found: a client's odd strings, and databases that are
damaged or read-only when the server starts."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine.game import Game
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError, parse_client_message
from rummykit.server.rooms import Connection, Room, RoomManager, Seat
from rummykit.server.storage import SQLiteStorage
from tests.server_support import ROOT, Client, ServerProc, choose, sent


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    """``rummykit serve`` on ``db``, expected to refuse to start."""
    return subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "serve", "--port", "0", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )


def test_a_token_with_a_lone_surrogate_holds_no_seat(manager: RoomManager) -> None:
    # JSON's "\ud800" decodes to a lone surrogate, which strict UTF-8 cannot encode: the
    # token's hash raised, and the client was told `internal` (a traceback in the log).
    msg = parse_client_message('{"type": "resume", "id": 7, "room": "ABCDEF", "token": "\\ud800"}')

    async def main() -> None:
        host = Connection()
        manager.handle(host, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                              "options": {}})
        assert host.room is not None
        with pytest.raises(ProtocolError) as info:
            manager.handle(Connection(), {**msg, "room": host.room.code})
        assert info.value.code == "bad_token"

    asyncio.run(main())


@pytest.mark.parametrize("code", ["\u00dfABCDE", "\u017fABCDE", "ABCDE\u017f"])
def test_a_room_code_is_ascii(code: str) -> None:
    # "ß" and "ſ" upper-case to "SS" and "S": such a code passed the check and named a room
    # of seven characters, or one it does not spell.
    with pytest.raises(ProtocolError) as info:
        parse_client_message(f'{{"type": "join", "room": "{code}"}}')
    assert info.value.code == "bad_message"
    assert parse_client_message('{"type": "join", "room": "abcdef"}')["room"] == "ABCDEF"


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\uffa0 \u115f", "\u0301\u0301"])
def test_a_name_that_draws_nothing_is_refused(name: str) -> None:
    # Printable, so it passed: the seat list showed an empty name.
    with pytest.raises(ProtocolError) as info:
        parse_client_message(json.dumps({"type": "sit", "seat": 0, "name": name}))
    assert info.value.code == "bad_message"


@pytest.mark.parametrize("name", ["A\u3164", "\u0645\u0631\u062d\u0628\u0627", "\u674e"])
def test_names_in_any_script_are_kept(name: str) -> None:
    assert parse_client_message(json.dumps({"type": "sit", "seat": 0, "name": name}))["name"]


def test_a_room_row_that_is_not_json_costs_only_that_room(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"
    store = SQLiteStorage(str(path))
    store.save_room("GOODGG", {"code": "GOODGG"})
    store.close()
    db = sqlite3.connect(path)
    db.executemany(
        "INSERT INTO rooms (code, state, updated) VALUES (?, ?, 0)",
        [("BADBAD", "{not json"), ("LISTLS", "[1, 2]")],
    )
    db.commit()
    db.close()
    again = SQLiteStorage(str(path))
    try:
        assert again.load_rooms() == [{"code": "GOODGG"}]
    finally:
        again.close()


def test_serve_refuses_a_damaged_database_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    store = SQLiteStorage(str(path))
    for i in range(300):
        store.save_room(f"R{i:05d}", {"code": f"R{i:05d}", "pad": "x" * 500})
    store.close()  # checkpointed: everything is in the file itself
    with path.open("r+b") as f:  # pages of the rooms table, past the file's header
        f.seek(4096 * 20)
        f.write(b"\xff" * 4096 * 5)
    done = _serve(path)
    # It used to start, fail reading the rooms in uvicorn's start-up: a traceback, exit 3.
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.strip().splitlines() == [
        f"rummykit serve: --db {path}: database disk image is malformed"
    ]


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """``path`` made read-only even for root (an immutable file), or the test skipped."""
    path.chmod(0o444)
    if os.access(path, os.W_OK):  # root: permissions do not stop it
        chattr = shutil.which("chattr")
        done = chattr and subprocess.run([chattr, "+i", str(path)], capture_output=True)
        if not done or done.returncode != 0:
            pytest.skip("cannot make a file read-only for this user")
        try:
            yield
        finally:
            subprocess.run([str(chattr), "-i", str(path)], check=True)
        return
    yield


def test_serve_refuses_a_read_only_database_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    SQLiteStorage(str(path)).close()
    with _read_only(path):
        done = _serve(path)
    # SQLite opens such a file read-only without a word: the server started, and every room
    # created or action played was answered `internal`.
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.strip().splitlines() == [
        f"rummykit serve: --db {path}: attempt to write a readonly database"
    ]


class _Refusing(SQLiteStorage):
    """A database that stops taking writes (a full disk)."""

    def save_room(self, code: str, state: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")


def test_a_room_the_database_refused_is_not_kept(tmp_path: Path) -> None:
    store = _Refusing(str(tmp_path / "full.db"))
    manager = RoomManager(store, ServerConfig(bot_pool="thread"))

    async def main() -> None:
        conn = Connection()
        with pytest.raises(sqlite3.OperationalError):  # answered `internal` by the app
            manager.handle(conn, {"type": "create", "id": 1, "variant": "rummy",
                                  "players": 2, "options": {}})
        assert manager.rooms == {}
        assert conn.room is None and conn.created == 0

    try:
        asyncio.run(main())
    finally:
        manager.close()
        store.close()


def test_a_message_over_the_rate_limit_still_gets_its_id(tmp_path: Path) -> None:
    # `rate_limited` was sent without the message's id, though any refused message is
    # answered with it: the web client waited 15 s for its action's answer.
    server = ServerProc(tmp_path / "ids.db", "--rate", "1", "--burst", "2").start()

    async def main() -> None:
        c = await Client("ids").connect(server.ws)
        ids = [await c.send("ping", id=f"p{i}") for i in range(6)]
        answers = [await c.recv(None) for _ in range(6)]
        assert [m["id"] for m in answers] == ids, answers
        assert "rate_limited" in [m.get("code") for m in answers], answers
        await c.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


class _Crash(BaseException):
    """The server process dying (kill -9) at this point."""


class _DiesOnSecondWrite(SQLiteStorage):
    """Storage whose process dies when a write follows an action's own commit: the window
    between two commits of one action that kill -9 could hit."""

    def save_deal(self, *args: Any, **kw: Any) -> None:
        raise _Crash




def _play_until(manager: RoomManager, variant: str, options: dict[str, Any],
                done: Callable[[Any], bool], meld: bool = True) -> tuple[Any, str]:
    """Two people play a new room of ``variant`` until ``done(room)`` or the process "dies":
    the room (as the dead process left it in memory) and the first seat's token. Without
    ``meld`` they only draw from the stock and discard, so that the stock runs out."""
    seen: dict[str, Any] = {}

    async def main() -> None:
        conns = [Connection(), Connection()]
        manager.handle(conns[0], {"type": "create", "id": 1, "variant": variant, "players": 2,
                                  "options": options})
        room = seen["room"] = conns[0].room
        assert room is not None
        manager.handle(conns[1], {"type": "join", "id": 2, "room": room.code})
        for seat, conn in enumerate(conns):
            manager.handle(conn, {"type": "sit", "id": 3, "seat": seat, "name": f"P{seat}"})
        seen["token"] = next(m["token"] for m in sent(conns[0]) if m["type"] == "seated")
        refused: set[str] = set()
        for turns in range(3000):
            if done(room):
                return
            game = room.game
            assert game is not None and game.to_move is not None
            view = game.view(game.to_move)
            if view["turn"]["phase"] == "draw":
                refused = set()
            if meld:
                action = choose(view, refused, turns)
            elif view["turn"]["phase"] == "draw":
                action = "draw"
            else:
                action = f"discard {view['hand'][0]}"
            try:
                manager.handle(conns[game.to_move], {"type": "action", "id": 4,
                                                     "version": game.version, "action": action})
            except ProtocolError:
                refused.add(action)
        raise AssertionError("the game never got there")

    with contextlib.suppress(_Crash):
        asyncio.run(main())
    return seen["room"], seen["token"]


def _restarted(path: Path, code: str, token: str) -> tuple[Any, RoomManager, SQLiteStorage]:
    """A new server process on ``path``: the state its player finds on resuming."""
    storage = SQLiteStorage(str(path))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread"))
    state: list[Any] = []

    async def main() -> None:
        manager.restore()
        conn = Connection()
        manager.handle(conn, {"type": "resume", "id": 1, "room": code, "token": token})
        state.extend(m for m in sent(conn) if m["type"] == "state")
        manager.close()

    asyncio.run(main())
    return state[0], manager, storage


def test_a_crash_right_after_a_stock_rebuild_keeps_the_game(tmp_path: Path) -> None:
    # The rebuilt stock's order was stored in a second commit after the action's: a crash
    # between the two left a game whose replay fails ("the record needs a seed, or the
    # rebuilt orders"): the room was then answered `no_room`.
    path = tmp_path / "restock.db"
    first = RoomManager(_DiesOnSecondWrite(str(path)), ServerConfig(bot_pool="thread"))
    room, token = _play_until(first, "rami51", {}, lambda r: r.restocks > 0, meld=False)
    assert room.restocks == 1 and room.game is not None
    view = room.game.view(0)
    state, _, storage = _restarted(path, room.code, token)
    try:
        assert state["version"] == room.game.version and state["view"] == view
    finally:
        storage.close()


def test_a_crash_right_after_the_last_action_keeps_the_record(tmp_path: Path) -> None:
    # The final record was stored in a second commit after the action's: a crash between
    # the two left a finished game whose record was never served.
    path = tmp_path / "over.db"
    first = RoomManager(_DiesOnSecondWrite(str(path)), ServerConfig(bot_pool="thread"))
    room, token = _play_until(first, "rummy", {}, lambda r: r.status == "over")
    assert room.game is not None and room.game.phase == "game-over"
    state, _, storage = _restarted(path, room.code, token)
    try:
        assert state["view"]["over"]
        stored = storage.get_record(room.code)
        # the game's record, and who played it (tests/test_server_polish.py)
        assert stored is not None and stored.pop("seats")
        assert stored == room.game.record()
    finally:
        storage.close()


def test_a_person_out_of_a_pool_game_does_not_keep_the_game_going() -> None:
    """Pool 101, Ana and Ben with a bot: once Ana is out of the game (eliminated) she only
    watches, and her clock never runs, so she is never marked away. When Ben, the one person
    still in the game, is away, everybody at the table is away and the room holds
    (docs/server.md, *The turn clock*); before, Ana's seat kept the game going, Ben's turns
    played by ``timeout`` under her eyes."""
    game = Game.new("indian", 3, {"format": "pool101"}, seed=1)
    room = Room("POOLAB", "indian", 3, {"format": "pool101"}, game=game, seats=[
        Seat(0, "human", name="Ana"), Seat(1, "human", name="Ben", away=True),
        Seat(2, "bot", level="medium"),
    ])
    assert not RoomManager._everyone_away(room)
    game.score.eliminated[0] = True
    assert RoomManager._everyone_away(room)
    room.seats[1].away = False
    assert not RoomManager._everyone_away(room)
