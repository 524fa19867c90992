"""A crash right after each kind of change a room goes through: what every seat saw before, it
sees after a restart on the same database (views, turn, clock, names, seats, rematch state);
a change the database refuses is refused with nothing changed; one database, one server."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import OVER, PLAYING, Connection, Room, RoomManager, now_ms
from rummykit.server.storage import DatabaseInUse, SQLiteStorage
from tests.server_support import (
    ROOT,
    Client,
    HeldBot,
    ServerProc,
    autoplay,
    bot_to_move,
    choose,
    make_room,
    refuse_start_once,
    sent,
)

CONFIG = {"bot_pool": "thread", "offload_views": False, "bot_delay": 0, "verify_views": True}


class Table:
    """Rooms of one server process over a database, its people's seat tokens, and what each
    person's connection received last of each kind; ``crash`` kills the process (nothing more
    runs) and starts another on the same database, where every person resumes."""

    def __init__(self, path: Path, **config: Any) -> None:
        self.storage = SQLiteStorage(str(path))
        self.config = ServerConfig(**{**CONFIG, **config})
        self.manager = RoomManager(self.storage, self.config)
        self.tokens: dict[int, tuple[str, str]] = {}
        self.conns: dict[int, Connection] = {}
        self.seen: dict[int, dict[str, dict[str, Any]]] = {}

    def handle(self, conn: Connection, **msg: Any) -> None:
        self.manager.handle(conn, {"id": 1, **msg})

    def create(self, variant: str, players: int, options: dict[str, Any]) -> Room:
        host = Connection()
        self.handle(host, type="create", variant=variant, players=players, options=options)
        assert host.room is not None
        self.host = host
        return host.room

    def sit(self, room: Room, seat: int, name: str) -> Connection:
        conn = self.host if seat == 0 else Connection()
        if conn.room is not room:
            self.handle(conn, type="join", room=room.code)
        self.handle(conn, type="sit", seat=seat, name=name)
        token = next(m["token"] for m in sent(conn) if m["type"] == "seated")
        self.tokens[seat], self.conns[seat] = (room.code, token), conn
        return conn

    def read(self) -> dict[int, dict[str, dict[str, Any]]]:
        for seat, conn in self.conns.items():
            for msg in sent(conn):
                self.seen.setdefault(seat, {})[msg["type"]] = msg
        return self.seen

    def crash(self) -> tuple[dict[int, dict[str, dict[str, Any]]], RoomManager]:
        """What each person saw last; the new process's rooms, every person resumed."""
        before = {seat: dict(kinds) for seat, kinds in self.read().items()}
        self.manager.close()  # the process dies: no timer, bot or write of it runs again
        self.manager = RoomManager(self.storage, self.config)
        self.manager.restore()
        self.seen = {}
        for seat, (code, token) in self.tokens.items():
            self.conns[seat] = Connection()
            self.handle(self.conns[seat], type="resume", room=code, token=token)
        self.read()
        return before, self.manager

    def close(self) -> None:
        self.manager.close()
        self.storage.close()


def _same(before: dict[int, dict[str, dict[str, Any]]],
          after: dict[int, dict[str, dict[str, Any]]], ran: float = 0.0) -> None:
    """Every person sees after the restart what they saw before it; ``ran``: the seconds the
    clock may have run between the state and the crash (a loaded machine stalls)."""
    for seat, kinds in before.items():
        old, new = kinds.get("state"), after[seat].get("state")
        if old is not None:
            assert new is not None, seat
            assert (new["version"], new["view"]) == (old["version"], old["view"]), seat
            if old["clock"] is None:
                assert new["clock"] is None, seat
            else:
                # the time left when the room was last stored: the state's, give or take
                assert new["clock"]["seat"] == old["clock"]["seat"]
                slack = 2000 + 1000 * ran
                assert abs(new["clock"]["remaining"] - old["clock"]["remaining"]) < slack, seat
        was, now = kinds.get("room"), after[seat]["room"]
        if was is not None:
            for key in ("variant", "players", "options", "status", "game"):
                assert was[key] == now[key], (seat, key)
            for a, b in zip(was["seats"], now["seats"], strict=True):
                assert {k: a.get(k) for k in ("kind", "name", "level", "away", "rematch")} == {
                    k: b.get(k) for k in ("kind", "name", "level", "away", "rematch")
                }, seat


def test_a_crash_after_any_change_of_a_game_loses_nothing(tmp_path: Path) -> None:
    """A two-deal Indian game of two people and a bot, the server killed after every action
    (a person's, a bot's) and during every pause between deals: every person finds the game
    as they saw it, no action lost or played twice, and the game plays on to its end."""
    table = Table(tmp_path / "every.db", next_deal_pause=0.2)

    async def main() -> None:
        room = table.create("indian", 3, {"format": "deals", "deals": 2, "clock": 600})
        for seat in (0, 1):
            table.sit(room, seat, f"P{seat}")
        table.handle(table.conns[0], type="add_bot", seat=2, level="easy")
        crashed_in: set[str] = set()
        refused: set[str] = set()
        turns = 0
        for _ in range(1000):
            room = table.manager.rooms[room.code]
            game = room.game
            assert game is not None
            if room.status == OVER:
                break
            started = time.monotonic()
            if room.status != PLAYING or game.to_move is None or game.to_move == 2:
                # a bot's move, the pause before the next deal: the crash comes after it
                was = (game.version, room.status)
                for _ in range(1000):
                    await asyncio.sleep(0.01)
                    if (game.version, room.status) != was or room.game is not game:
                        break
            else:
                view = game.view(game.to_move)
                if view["turn"]["phase"] == "draw":
                    turns += 1
                action = choose(view, refused, turns)
                try:
                    table.handle(table.conns[game.to_move], type="action",
                                 version=game.version, action=action)
                except ProtocolError:
                    refused.add(action)
                    continue
                refused = set()
            crashed_in.add(table.manager.rooms[room.code].status)
            history = [str(h) for h in game.history()]
            before, manager = table.crash()
            _same(before, table.seen, time.monotonic() - started)
            again = manager.rooms[room.code].game
            assert again is not None
            assert [str(h) for h in again.history()][: len(history)] == history
        else:
            raise AssertionError("the game did not end")
        # crashes came after people's and the bot's moves, and in a pause between deals
        assert {"between-deals", "playing"} <= crashed_in, crashed_in
        final = table.manager.rooms[room.code].game
        assert final is not None
        assert {h.get("seat") for h in final.history()} >= {0, 1, 2}
        assert table.manager.rooms[room.code].game_no == 1
        assert table.storage.get_record(room.code) is not None

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_crash_after_each_lobby_change_keeps_it(tmp_path: Path) -> None:
    table = Table(tmp_path / "lobby.db")

    async def main() -> None:
        room = table.create("rummy", 3, {"clock": 90, "first_extra": True})
        table.sit(room, 0, "Ann")
        _same(*table.crash()[:1], table.seen)
        table.handle(table.conns[0], type="add_bot", seat=2, level="hard")
        before, manager = table.crash()
        _same(before, table.seen)
        room = manager.rooms[room.code]
        assert room.options["first_extra"] is True and room.options["clock"] == 90
        assert [s.kind for s in room.seats] == ["human", "empty", "bot"]
        table.handle(table.conns[0], type="remove_bot", seat=2)
        table.handle(table.conns[0], type="leave")
        del table.tokens[0], table.conns[0]
        _, manager = table.crash()
        assert [s.kind for s in manager.rooms[room.code].seats] == ["empty"] * 3

    try:
        asyncio.run(main())
    finally:
        table.close()


def _over(table: Table, players: int = 2) -> Room:
    """A finished Indian game (points: the first drop ends it) of ``players`` people."""
    room = table.create("indian", players, {"format": "points", "clock": 60})
    for seat in range(players):
        table.sit(room, seat, f"P{seat}")
    game = room.game
    assert game is not None
    while room.status != OVER:  # the last one left in the deal wins it
        assert game.to_move is not None
        table.handle(table.conns[game.to_move], type="action", version=game.version,
                     action="drop")
    return room


def _stored_earlier(storage: SQLiteStorage, ms: int) -> None:
    """Move the room's stored times ``ms`` back: it was stored that long ago."""
    (doc,) = storage.load_rooms()
    for key in ("saved", "deadline", "rematch_at", "touched"):
        if doc.get(key) is not None:
            doc[key] -= ms
    storage.save_room(doc["code"], doc)


def test_a_restart_takes_the_time_a_turn_had_left_when_the_server_last_ran(
    tmp_path: Path,
) -> None:
    """A room is stored at its changes, not while a turn's clock runs: a crash used to give
    the turn back all the time it had spent since its last action (up to a whole clock). The
    server notes every few seconds that it runs, and a restart counts the clock until then."""
    table = Table(tmp_path / "turn.db")

    async def main() -> None:
        room = table.create("rummy", 2, {"clock": 600})
        for seat in (0, 1):
            table.sit(room, seat, f"P{seat}")
        _stored_earlier(table.storage, 100_000)  # 100 s of the turn went by, nothing stored
        table.manager.mark_alive()  # the server's last note, then it dies
        _, manager = table.crash()
        again = manager.rooms[room.code]
        assert again.deadline is not None
        assert 495_000 < again.deadline - now_ms() <= 500_000

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_the_rematch_clock_goes_on_after_a_restart_with_the_time_it_had_left(
    tmp_path: Path,
) -> None:
    """It was not stored: after a restart it started again with a whole clock."""
    table = Table(tmp_path / "rematch.db")

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[0], type="rematch")
        table.manager.disconnected(table.conns[1])  # the rematch waits only for P1, gone
        assert room.rematch_at is not None
        _stored_earlier(table.storage, 20_000)  # 20 s of its 60 went by
        table.manager.mark_alive()
        token = table.tokens[0][1]
        table.tokens.clear()
        table.conns.clear()
        _, manager = table.crash()
        # nobody is back; the new server runs 10 minutes and dies too: the clock stood still
        assert manager.rooms[room.code].rematch_at is None
        table.storage.mark_alive(now_ms() + 600_000)
        _, manager = table.crash()
        table.handle(Connection(), type="resume", room=room.code, token=token)
        again = manager.rooms[room.code]
        assert [s.rematch for s in again.seats] == [True, False]
        assert again.rematch_at is not None
        assert 35_000 < again.rematch_at - now_ms() <= 40_000

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_crash_after_the_rematch_clock_ran_out_keeps_the_new_game_and_its_away_seat(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path / "due.db", clock_scale=0.005)  # the 60 s clock: 0.3 s

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[0], type="rematch")
        table.manager.disconnected(table.conns[1])
        for _ in range(500):
            if room.game_no == 2:
                break
            await asyncio.sleep(0.01)
        assert room.status == PLAYING and [s.away for s in room.seats] == [False, True]
        del table.tokens[1], table.conns[1]  # P1 is still gone
        before, manager = table.crash()
        _same(before, table.seen)
        again = manager.rooms[room.code]
        assert again.game_no == 2 and again.status == PLAYING
        assert [(s.away, s.rematch) for s in again.seats] == [(False, False), (True, False)]

    try:
        asyncio.run(main())
    finally:
        table.close()


class Refusing(SQLiteStorage):
    """A database that refuses every write while ``full`` (a full disk)."""

    full = False

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        super()._tx(statements)


@pytest.mark.parametrize("change", ["sit", "add_bot", "remove_bot", "leave", "rematch", "back"])
def test_a_change_the_database_refuses_is_not_made(change: str, tmp_path: Path) -> None:
    """It used to be made in memory and then refused (``internal``): a seat taken whose token
    was never sent, a bot shown that a restart removed, a rematch asked that a restart forgot."""
    storage = Refusing(str(tmp_path / "full.db"))
    manager = RoomManager(storage, ServerConfig(**CONFIG))  # type: ignore[arg-type]

    def handle(conn: Connection, **msg: Any) -> None:
        manager.handle(conn, {"id": 1, **msg})

    async def main() -> None:
        host, other = Connection(), Connection()
        in_game = change in ("rematch", "back")
        handle(host, type="create", variant="indian", players=2 if in_game else 3,
               options={"format": "points"})
        room = host.room
        assert room is not None
        if change != "sit":
            handle(host, type="sit", seat=0, name="Bo")
        if change == "remove_bot":
            handle(host, type="add_bot", seat=1, level="easy")
        if in_game:
            handle(other, type="join", room=room.code)
            handle(other, type="sit", seat=1, name="Cy")
            game = room.game
            assert game is not None and game.to_move is not None
            if change == "rematch":
                handle(host if game.to_move == 0 else other, type="action",
                       version=game.version, action="drop")
                assert room.status == OVER
            else:
                room.seats[0].away = True
                manager._save(room)
        msg = {"type": change, "seat": 1, "name": "Ann", "level": "easy"}
        if change in ("leave", "rematch", "back"):
            msg = {"type": change}

        def now() -> tuple[str, int | None, Room | None, list[Any]]:
            return json.dumps([s.doc() for s in room.seats]), host.seat, host.room, [
                d["seats"] for d in storage.load_rooms()
            ]

        before = now()
        storage.full = True
        with pytest.raises(ProtocolError) as info:
            handle(host, **msg)
        assert info.value.code == "internal"
        storage.full = False
        assert now() == before  # nothing changed: in memory as in the database
        handle(host, **msg)  # the database is back: it is made
        assert now() != before

    try:
        asyncio.run(main())
    finally:
        manager.close()
        storage.close()


class Counting(Refusing):
    """A refusing database that counts the writes it refused."""

    refused = 0

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        if self.full:
            self.refused += 1
        super()._tx(statements)


@pytest.mark.parametrize("what", ["next deal", "timeout", "bot"])
def test_what_the_database_refuses_the_clock_or_a_bot_tries_again_later(
    what: str, tmp_path: Path
) -> None:
    """A new deal refused was tried again at once, as fast as the loop ran (a thousand times
    a second, each logged with a traceback, on a full disk); a refused ``timeout`` or bot
    move was never tried again, and the game stood still once the database was back."""
    storage = Counting(str(tmp_path / "retry.db"))
    bot = HeldBot()
    config = ServerConfig(**{**CONFIG, "next_deal_pause": 0.01, "away_after": 0,  # type: ignore[arg-type]
                             "clock_scale": 0.001 if what == "timeout" else 1.0})
    manager = RoomManager(storage, config)

    async def until(check: Any, what: str) -> None:
        for _ in range(1000):
            if check():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never: {what}")

    async def main() -> None:
        if what == "bot":
            manager.bots.choose = bot
            _, room, game = bot_to_move(manager, "easy")
            await until(lambda: bool(bot.asked), "the bot thinks")
        else:
            host = Connection()
            manager.handle(host, {"type": "create", "id": 1, "variant": "indian", "players": 2,
                                  "options": {"format": "deals", "deals": 3, "clock": 30}})
            room = host.room
            assert room is not None
            manager.handle(host, {"type": "sit", "id": 2, "seat": 0, "name": "Ann"})
            other = Connection()
            manager.handle(other, {"type": "join", "id": 3, "room": room.code})
            manager.handle(other, {"type": "sit", "id": 4, "seat": 1, "name": "Bo"})
            game = room.game
            assert game is not None
        storage.full = True
        if what == "next deal":
            assert game.to_move is not None
            mover = host if game.to_move == 0 else other
            with pytest.raises(ProtocolError):  # the drop that ends the deal: refused too
                manager.handle(mover, {"type": "action", "id": 5, "version": game.version,
                                       "action": "drop"})
            storage.full = False
            game = room.game  # put back as stored: a game replayed anew
            assert game is not None
            manager.handle(mover, {"type": "action", "id": 5, "version": game.version,
                                   "action": "drop"})
            assert room.status == "between-deals"
            storage.full = True
        bot.release.set()
        await asyncio.sleep(0.5)
        assert 1 <= storage.refused <= 2, storage.refused
        assert room.game is not None
        version, status = room.game.version, room.status
        assert status == ("between-deals" if what == "next deal" else PLAYING)
        storage.full = False
        # the database is back: the game goes on by itself
        if what == "next deal":
            await until(lambda: room.status == PLAYING, "the next deal")
        else:
            await until(lambda: room.game is not None and room.game.version > version,
                        f"the {what}")

    try:
        asyncio.run(main())
    finally:
        bot.release.set()
        manager.close()
        storage.close()


def test_a_game_the_database_refused_to_start_starts_once_it_is_back(tmp_path: Path) -> None:
    """The last seat was stored but the new game was not: the room waited, every seat taken,
    until the server was restarted."""
    storage = SQLiteStorage(str(tmp_path / "start.db"))
    manager = RoomManager(storage, ServerConfig(**CONFIG))  # type: ignore[arg-type]
    refuse_start_once(storage)

    async def main() -> None:
        host = Connection()
        manager.handle(host, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                              "options": {}})
        room = host.room
        assert room is not None
        manager.handle(host, {"type": "sit", "id": 2, "seat": 0, "name": "Ann"})
        # the bot is stored: no error (tests/test_small_ends.py), the game starts later
        manager.handle(host, {"type": "add_bot", "id": 3, "seat": 1, "level": "easy"})
        assert room.status == "waiting" and room.seats[1].kind == "bot"
        for _ in range(500):
            if room.status == PLAYING:
                break
            await asyncio.sleep(0.01)
        assert room.status == PLAYING and storage.load_rooms()[0]["status"] == PLAYING
        # On the loop: the bot may be thinking already, and cancelling its task once the loop
        # is closed fails ("Event loop is closed": the test failed about one run in three).
        manager.close()

    try:
        asyncio.run(main())
    finally:
        storage.close()


def test_a_full_database_is_named_so(tmp_path: Path) -> None:
    """SQLite rolls a transaction back itself on a full disk; the ROLLBACK that followed failed
    and its "cannot rollback - no transaction is active" replaced the error in the log."""
    storage = SQLiteStorage(str(tmp_path / "full.db"))
    storage.save_room("AAAAAA", {"code": "AAAAAA"})
    pages = storage._db.execute("PRAGMA page_count").fetchone()[0]
    storage._db.execute(f"PRAGMA max_page_count={pages + 1}")
    try:
        for _ in range(2):  # and the next write is not refused for another reason
            with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
                storage.start_game("BBBBBB", 1, {"pad": "y" * 3000}, {"pad": "x" * 30000},
                                   {"code": "BBBBBB"})
        storage._db.execute("PRAGMA max_page_count=1073741823")
        storage.save_room("CCCCCC", {"code": "CCCCCC"})
        assert [d["code"] for d in storage.load_rooms()] == ["AAAAAA", "CCCCCC"]
    finally:
        storage.close()


def test_a_new_game_the_database_refuses_leaves_the_rematch_asked(tmp_path: Path) -> None:
    """The refused start used to put the game back as stored but leave the seats' rematch
    marks cleared in memory (stored as asked): the end screen said nobody had asked."""
    table = Table(tmp_path / "again.db")

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[0], type="rematch")
        real = table.storage.start_game

        def refused(*args: Any, **kw: Any) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        table.storage.start_game = refused  # type: ignore[method-assign]
        # the asking is stored: no error (tests/test_small_ends2.py), the game starts later
        table.handle(table.conns[1], type="rematch")
        assert room.status == OVER and room.game_no == 1
        assert [s.rematch for s in room.seats] == [True, True]
        table.storage.start_game = real  # type: ignore[method-assign]

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_bot_answer_that_arrives_as_the_server_stops_is_not_played(tmp_path: Path) -> None:
    """asyncio.wait_for (Python 3.11) returns an answer that came in with the cancellation: a
    bot then played, and stored its move, after the server had stopped."""
    storage = SQLiteStorage(str(tmp_path / "stop.db"))
    bot = HeldBot()
    manager = RoomManager(storage, ServerConfig(**CONFIG))  # type: ignore[arg-type]
    manager.bots.choose = bot

    async def main() -> None:
        _, _, game = bot_to_move(manager, "easy")
        for _ in range(500):
            if bot.asked:
                break
            await asyncio.sleep(0.01)
        version = game.version
        bot.release.set()
        time.sleep(0.3)  # the answer is queued on the loop, not yet taken
        manager.close()
        await asyncio.sleep(0.2)
        assert game.version == version
        assert storage.load_rooms()[0]["version"] == version

    try:
        asyncio.run(main())
    finally:
        bot.release.set()
        storage.close()


def test_one_database_one_server(tmp_path: Path) -> None:
    """Two servers over one file each played their own copy of its rooms: the same action
    number stored by both (refused, ``internal``), each room's state overwriting the other's."""
    path = tmp_path / "one.db"
    first = SQLiteStorage(str(path), exclusive=True)
    with pytest.raises(DatabaseInUse, match="another rummykit server"):
        SQLiteStorage(str(path), exclusive=True)
    reader = SQLiteStorage(str(path))  # a reader (a backup, the tests) is not kept out
    reader.close()
    first.close()
    SQLiteStorage(str(path), exclusive=True).close()  # free again once closed

    server = ServerProc(path).start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rummykit.cli.main", "serve", "--port", "0", "--db",
             str(path)],
            capture_output=True, text=True, timeout=60,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        assert done.returncode == 2, done.stderr[-2000:]
        assert done.stderr.strip().splitlines() == [
            f"rummykit serve: --db {path}: another rummykit server is using this database: "
            "two servers over one file would each play their own copy of its rooms and "
            "overwrite each other's"
        ]
        server.kill9()  # a server killed outright lets it go
        server.start()
    finally:
        server.stop()


def _history(client: Client) -> tuple[int, int, list[Any]]:
    """The game, deal and the events of the deal as ``client`` received them: a state after an
    action carries the new events, one that starts anew (``last`` null) the whole history."""
    events: list[Any] = []
    game = deal = 0
    for msg in client.log:
        if msg["type"] != "state":
            continue
        if msg["last"] is None or (msg["game"], msg["view"]["deal"]) != (game, deal):
            events = []
        game, deal = msg["game"], msg["view"]["deal"]
        events += msg["events"]
    return game, deal, events


def test_kill9_while_rooms_write_loses_no_action_and_plays_none_twice(tmp_path: Path) -> None:
    """The server killed while three rooms play as fast as they can (a person and two bots
    each, no pause): every action a person saw is stored, in the order seen, and each room
    replays to the version it was stored at (no replay warning in the log)."""
    server = ServerProc(tmp_path / "busy.db").start()
    seen: dict[str, tuple[str, str, tuple[int, int, list[Any]]]] = {}

    async def play() -> None:
        rooms = [await make_room(server.ws, "rummy", 3, 1, {"clock": 600}) for _ in range(3)]
        players = [asyncio.ensure_future(autoplay(clients[0])) for _, clients in rooms]
        await asyncio.sleep(1.5)
        server.kill9()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for code, (client,) in rooms:
            assert client.token is not None
            seen[code] = (code, client.token, _history(client))
            await client.close()

    async def back() -> None:
        for code, token, (game, deal, events) in seen.values():
            assert events, code  # the room had played
            client = await Client("back").connect(server.ws)
            r = await client.request("resume", room=code, token=token)
            assert r["type"] == "seated", r
            state = await client.recv("state")
            if (state["game"], state["view"]["deal"]) == (game, deal):
                assert state["events"][: len(events)] == events, code
            else:  # a new deal or game stored, not yet told: the one seen is complete
                assert (state["game"], state["view"]["deal"]) > (game, deal), code
            await client.close()

    try:
        asyncio.run(play())
        server.start()
        asyncio.run(back())
        log = server.log.read_text()
        assert "replayed version" not in log and server.errors_logged() == ""
    finally:
        server.stop()
