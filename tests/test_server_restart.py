"""``kill -9`` of the server mid-game and a restart on the same database: every room comes
back exactly (state version, hands, seats and tokens, the time its clock had left when the room
was last stored: the downtime does not count) and play goes on."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from rummykit.engine import Game
from tests.server_support import WHOLE_GAME, Client, ServerProc, autoplay, make_room


async def _play_some(client: Client, other: Client, actions: int) -> None:
    """Play ``actions`` actions between two human clients (draw, discard the first card)."""
    players = {client.seat: client, other.seat: other}
    for _ in range(actions):
        state = client.state
        assert state is not None
        seat = state["view"]["turn"]["seat"]
        me = players[seat]
        assert me.state is not None
        view = me.state["view"]
        action = "draw" if view["turn"]["phase"] == "draw" else f"discard {view['hand'][0]}"
        r = await me.request("action", version=me.state["version"], action=action)
        assert r["type"] == "state", r
        # the other client sees the same version
        while other.state is None or other.state["version"] < r["version"]:
            await other.recv("state")
        while client.state is None or client.state["version"] < r["version"]:
            await client.recv("state")


def test_kill9_and_restart_restores_every_room(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    server = ServerProc(db).start()
    before: dict[str, Any] = {}
    tokens: dict[str, list[tuple[int, str]]] = {}

    async def phase1() -> None:
        # room A: two people, a few actions in; the last action was acknowledged just before
        # the kill
        code, (a0, a1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 600})
        await _play_some(a0, a1, 7)
        # room B: a person and a bot in a Rami game
        code_b, (b0,) = await make_room(server.ws, "rami51", 2, 1, {"clock": 600})
        # room C: waiting for players, one seat taken
        c0 = await Client("c0").connect(server.ws)
        r = await c0.request("create", variant="indian", players=3, options={})
        code_c = r["room"]
        await c0.request("sit", seat=1, name="Carla")
        # room D: a game in its first deal with a running 45 s clock
        code_d, (d0, d1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 45})
        for name, c in (("A", a0), ("A", a1), ("B", b0), ("C", c0), ("D", d0), ("D", d1)):
            assert c.token is not None and c.seat is not None and c.room is not None
            tokens.setdefault(name, []).append((c.seat, c.token))
            if c.state is not None:
                before[f"{name}{c.seat}"] = c.state
        before["codes"] = {"A": code, "B": code_b, "C": code_c, "D": code_d}
        # no close: the server dies under its clients

    asyncio.run(phase1())
    killed = time.time() * 1000
    server.kill9()
    server.start()
    restarted = time.time() * 1000

    async def phase2() -> None:
        codes = before["codes"]
        clients: dict[str, Client] = {}
        for name, seats in tokens.items():
            for seat, token in seats:
                c = await Client(f"{name}{seat}").connect(server.ws)
                r = await c.request("resume", room=codes[name], token=token)
                assert r["type"] == "seated" and r["seat"] == seat, r
                clients[f"{name}{seat}"] = c
        for key, c in clients.items():
            if key not in before:
                continue
            old = before[key]
            new = await c.recv("state")
            assert new["version"] == old["version"], key
            assert new["view"] == {**old["view"]}, key
            if old["clock"] is not None:
                # The clock stood still from the server's last note that it ran (before the
                # kill) until the first resume: the downtime did not count, and the turn has
                # about the time it had left then (at least what it had at the kill, less the
                # few milliseconds between that resume and this state).
                moved = new["clock"]["deadline"] - old["clock"]["deadline"]
                assert moved >= restarted - killed, (key, moved)
                remaining = new["clock"]["remaining"]
                assert old["clock"]["deadline"] - killed - 1000 <= remaining, (key, remaining)
                assert remaining <= old["clock"]["remaining"] + 1000, (key, remaining)
                assert remaining <= old["clock"]["duration"], (key, remaining)
                assert new["clock"]["seat"] == old["clock"]["seat"]
        # the waiting room is still waiting with its seat taken
        room = json.loads(server.get(f"/api/rooms/{codes['C']}")[1])["room"]
        assert room["status"] == "waiting"
        assert room["seats"][1]["kind"] == "human" and room["seats"][1]["name"] == "Carla"
        # games go on to the end after the restart
        for key in ("A0", "A1"):
            clients[key].queue.put_nowait(clients[key].state)  # type: ignore[arg-type]
        await asyncio.wait_for(
            asyncio.gather(autoplay(clients["A0"]), autoplay(clients["A1"])), WHOLE_GAME
        )
        for c in clients.values():
            await c.close()

    try:
        asyncio.run(phase2())
        # the finished game's record replays
        status, body = server.get(f"/records/{before['codes']['A']}.json")
        assert status == 200
        assert Game.from_record(json.loads(body)).phase == "game-over"
        assert server.errors_logged() == ""
    finally:
        server.stop()


def test_the_downtime_does_not_count_against_a_turn(tmp_path: Path) -> None:
    """A deadline that passed while the server was down is not played with ``timeout`` after
    the restart: the turn goes on with about the time it had left when the room was stored."""
    db = tmp_path / "clock.db"
    server = ServerProc(db, "--clock-scale", "0.05").start()  # 30 s clock -> 1.5 s
    saved: dict[str, Any] = {}

    async def phase1() -> None:
        code, (p0, _p1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 30})
        assert p0.state is not None and p0.state["clock"]["seat"] == 1
        saved.update(code=code, token=p0.token, state=p0.state)

    asyncio.run(phase1())
    server.kill9()
    time.sleep(2.0)  # the deadline passes while the server is down
    assert time.time() * 1000 > saved["state"]["clock"]["deadline"]
    server.start()

    async def phase2() -> None:
        old = saved["state"]
        c = await Client("back").connect(server.ws)
        r = await c.request("resume", room=saved["code"], token=saved["token"])
        assert r["type"] == "seated"
        st = await c.recv("state")
        # seat 1's turn was not played by the clock: it is still on, with about the time it
        # had left (what the last state said, less the milliseconds since the resume)
        assert st["version"] == old["version"] and st["last"] is None
        assert st["view"]["turn"]["seat"] == 1 and st["clock"]["seat"] == 1
        remaining, deadline = st["clock"]["remaining"], st["clock"]["deadline"]
        assert old["clock"]["remaining"] - 500 <= remaining <= old["clock"]["duration"]
        # and then it runs out: the server plays timeout at the new deadline, not before
        st = await c.recv("state", timeout=10)
        assert time.time() * 1000 >= deadline - 50  # (a wall clock may be slewed a little)
        assert st["version"] == old["version"] + 1 and st["view"]["turn"]["seat"] == 0
        assert st["last"] == {"seat": 1, "action": "timeout", "auto": True}
        await c.close()

    try:
        asyncio.run(phase2())
        assert server.errors_logged() == ""
    finally:
        server.stop()
