"""The room lifecycle before a game: create, join by code, seats, bots, spectators, leave."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import Client, ServerProc


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("lobby") / "lobby.db").start()
    yield proc
    proc.stop()


def test_lobby(server: ServerProc) -> None:
    async def main() -> None:
        a = await Client("a").connect(server.ws)
        r = await a.request("create", variant="rami51", players=4, options={"clock": 60})
        assert r["type"] == "room" and r["status"] == "waiting" and r["you"] == {"seat": None}
        code = r["room"]
        assert r["link"] == f"/r/{code}" and r["options"]["clock"] == 60
        assert [s["kind"] for s in r["seats"]] == ["empty"] * 4
        # spectators cannot add bots
        r = await a.request("add_bot", seat=1, level="easy")
        assert r["code"] == "not_seated"
        r = await a.request("sit", seat=0, name="  Ana  ")
        assert r["type"] == "seated" and r["seat"] == 0 and len(r["token"]) >= 30
        b = await Client("b").connect(server.ws)
        r = await b.request("join", room=code.lower())
        assert r["type"] == "room" and r["seats"][0]["name"] == "Ana"
        assert r["seats"][0]["connected"] is True
        r = await b.request("sit", seat=0, name="Bea")
        assert r["code"] == "seat_taken"
        r = await b.request("sit", seat=4, name="Bea")
        assert r["code"] == "bad_seat"
        r = await b.request("sit", seat=2, name="Bea")
        assert r["type"] == "seated"
        r = await a.request("add_bot", seat=1, level="grandmaster")
        assert r["code"] == "bad_level"
        await a.send("add_bot", seat=1, level="easy")
        room = await b.recv("room")
        while room["seats"][1]["kind"] != "bot":
            room = await b.recv("room")
        assert room["seats"][1]["level"] == "easy" and room["status"] == "waiting"
        r = await a.request("remove_bot", seat=2)
        assert r["code"] == "not_bot"
        await a.send("remove_bot", seat=1)
        room = await b.recv("room")
        while room["seats"][1]["kind"] != "empty":
            room = await b.recv("room")
        # leaving while waiting frees the seat
        await b.send("leave")
        room = await a.recv("room")
        while room["seats"][2]["kind"] != "empty":
            room = await a.recv("room")
        status, body = server.get(f"/api/rooms/{code}")
        assert status == 200 and json.loads(body)["room"]["seats"][2]["kind"] == "empty"
        # a spectator watches; the game starts when the last seat is filled
        w = await Client("w").connect(server.ws)
        await w.request("join", room=code)
        await a.send("add_bot", seat=1, level="easy")
        await a.send("add_bot", seat=2, level="medium")
        await a.send("add_bot", seat=3, level="hard")
        room = await w.recv("room", status="playing")
        assert room["game"] == 1 and room["spectators"] == 1
        state = await w.recv("state")
        assert state["view"]["seat"] is None and "hand" not in state["view"]
        mine = await a.recv("state")
        assert mine["view"]["seat"] == 0 and len(mine["view"]["hand"]) in (14, 15)
        for c in (a, b, w):
            await c.close()

    asyncio.run(main())


def test_going_to_another_room_gives_up_a_waiting_seat(server: ServerProc) -> None:
    """A seat in a room still waiting is given up when its player creates or joins another
    room, as with ``leave``: otherwise it stays held by a disconnected player whom nobody can
    remove (the page sends no ``leave`` when it follows another room's link)."""

    async def main() -> None:
        a = await Client("a").connect(server.ws)
        first = (await a.request("create", variant="rummy", players=2))["room"]
        assert (await a.request("sit", seat=0, name="Ana"))["type"] == "seated"
        second = (await a.request("create", variant="rummy", players=2))["room"]
        b = await Client("b").connect(server.ws)
        r = await b.request("join", room=first)
        assert r["seats"][0]["kind"] == "empty", r["seats"]
        assert (await b.request("sit", seat=0, name="Bea"))["type"] == "seated"
        # and by join: Bea's seat in the first room goes when she joins the second
        r = await b.request("join", room=second)
        assert r["type"] == "room"
        status, body = server.get(f"/api/rooms/{first}")
        assert status == 200 and json.loads(body)["room"]["seats"][0]["kind"] == "empty"
        for c in (a, b):
            await c.close()

    asyncio.run(main())


def test_metrics(server: ServerProc) -> None:
    """/api/metrics: action handling, event-loop lag and collector pauses; POST starts anew."""
    status, body = server.get("/api/metrics")
    assert status == 200
    m = json.loads(body)
    assert {"rooms", "connections", "actions_sampled", "action_handling_ms"} <= set(m)
    assert m["loop_lag_ms"]["samples"] >= 0
    assert len(m["gc"]["collections"]) == 3
    assert set(m["gc"]) >= {"gen0_pause_ms", "gen1_pause_ms", "gen2_pause_ms"}
    req = urllib.request.Request(server.http + "/api/metrics", method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        assert r.status == 200
    status, body = server.get("/api/metrics")
    m = json.loads(body)
    assert m["actions_sampled"] == 0 and m["loop_lag_ms"]["samples"] < 100


def test_idle_rooms_are_swept(tmp_path: Path) -> None:
    """Rooms nobody touched for a day are dropped; finished records stay downloadable."""
    storage = SQLiteStorage(str(tmp_path / "sweep.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread"))

    async def main() -> None:
        conn = Connection()
        manager.handle(
            conn, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}}
        )
        code = next(iter(manager.rooms))
        assert manager.sweep() == []  # connected and fresh
        manager.handle(conn, {"type": "leave", "id": 2})
        assert manager.sweep() == []  # fresh
        manager.rooms[code].touched -= 25 * 3600 * 1000
        assert manager.sweep() == [code]
        assert code not in manager.rooms
        assert storage.load_rooms() == []

    asyncio.run(main())
    manager.close()
    storage.close()
