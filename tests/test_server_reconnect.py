"""Seats survive disconnection (seat tokens), presence, and the turn clock with away seats."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server_support import Client, ServerProc, make_room


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("reconnect") / "r.db", "--clock-scale", "0.02")
    proc.start()
    yield proc
    proc.stop()


@pytest.mark.parametrize("after", [1, 0])
def test_away_after_sets_how_many_run_out_clocks_mark_a_seat_away(
    after: int, tmp_path: Path
) -> None:
    proc = ServerProc(
        tmp_path / "a.db", "--clock-scale", "0.02", "--away-after", str(after)
    ).start()

    async def main() -> None:
        _code, (p0, p1) = await make_room(proc.ws, "rummy", 2, 2, {"clock": 30})
        # seat 1 lets its clock run out once
        st = await p0.recv("state", timeout=5)
        while st["last"] is None:
            st = await p0.recv("state", timeout=5)
        assert st["last"] == {"seat": 1, "action": "timeout", "auto": True}
        if after == 1:
            room = await p0.recv("room", timeout=5)
            assert room["seats"][1]["away"] is True
        else:
            # seat 0 plays, seat 1 runs out again and again: never marked away
            for _ in range(2):
                r = await p0.request("action", version=st["version"], action="draw")
                hand = r["view"]["hand"]
                await p0.request("action", version=r["version"], action=f"discard {hand[0]}")
                st = await p0.recv("state", timeout=5)
                while st["view"]["turn"]["seat"] != 0:
                    st = await p0.recv("state", timeout=5)
            assert not any(m.get("type") == "room" and m["seats"][1]["away"] for m in p0.log)
        for c in (p0, p1):
            await c.close()

    try:
        asyncio.run(main())
    finally:
        proc.stop()


def test_resume_with_token_restores_seat_and_view(server: ServerProc) -> None:
    async def main() -> None:
        code, (p0, p1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 600})
        assert p0.state is not None
        hand = p0.state["view"]["hand"]
        token = p0.token
        assert token is not None
        await p0.close()
        room = await p1.recv("room", timeout=5)
        assert room["seats"][0]["connected"] is False
        # a wrong token is refused, the connection goes on
        again = await Client("again").connect(server.ws)
        bad = await again.request("resume", room=code, token="not-the-token")
        assert bad["type"] == "error" and bad["code"] == "bad_token"
        ok = await again.request("resume", room=code, token=token)
        assert ok["type"] == "seated" and ok["seat"] == 0
        state = await again.recv("state")
        assert state["view"]["seat"] == 0 and sorted(state["view"]["hand"]) == sorted(hand)
        room = await p1.recv("room", timeout=5)
        assert room["seats"][0]["connected"] is True
        # resuming on a second connection takes the seat over; the first one is told
        third = await Client("third").connect(server.ws)
        ok = await third.request("resume", room=code, token=token)
        assert ok["type"] == "seated"
        err = await again.recv("error")
        assert err["code"] == "replaced"
        # the old connection is now a spectator: it cannot act
        v = (await third.recv("state"))["version"]
        r = await again.request("action", version=v, action="draw")
        assert r["type"] == "error" and r["code"] == "not_seated"
        for c in (p1, again, third):
            await c.close()

    asyncio.run(main())


def test_clock_timeout_away_and_back(server: ServerProc) -> None:
    # clock 30 s scaled by 0.02: 0.6 s per turn
    async def main() -> None:
        _code, (p0, p1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 30})
        assert p1.state is not None
        first = p1.state
        assert first["view"]["turn"]["seat"] == 1
        clock = first["clock"]
        assert clock["seat"] == 1 and clock["duration"] == 600
        assert abs(clock["deadline"] - time.time() * 1000 - clock["remaining"]) < 1000
        # seat 1 does nothing: the server plays timeout for it
        t0 = time.monotonic()
        st = await p0.recv("state", timeout=5)
        while st["last"] is None:
            st = await p0.recv("state", timeout=5)
        assert st["last"] == {"seat": 1, "action": "timeout", "auto": True}
        assert 0.4 < time.monotonic() - t0 < 3
        # seat 0 plays its turn
        v = st["version"]
        r = await p0.request("action", version=v, action="draw")
        assert r["type"] == "state" and r["ack"] is not None
        hand = r["view"]["hand"]
        r = await p0.request("action", version=r["version"], action=f"discard {hand[0]}")
        assert r["type"] == "state"
        # second timeout in a row: seat 1 is away
        room = await p0.recv("room", timeout=5)
        while not room["seats"][1]["away"]:
            room = await p0.recv("room", timeout=5)
        # now seat 1's turns are played at once
        st = await p0.recv("state", timeout=5)
        while st["view"]["turn"]["seat"] != 0:
            st = await p0.recv("state", timeout=5)
        r = await p0.request("action", version=st["version"], action="draw")
        hand = r["view"]["hand"]
        t0 = time.monotonic()
        r = await p0.request("action", version=r["version"], action=f"discard {hand[0]}")
        st = await p0.recv("state", timeout=5)
        assert st["last"]["seat"] == 1 and st["last"]["auto"] is True
        assert time.monotonic() - t0 < 0.4  # not after the 0.6 s clock
        # seat 1 comes back
        await p1.send("back")
        room = await p0.recv("room", timeout=5)
        assert room["seats"][1]["away"] is False
        for c in (p0, p1):
            await c.close()

    asyncio.run(main())


def test_join_from_a_seated_connection_keeps_its_seat(server: ServerProc) -> None:
    """A seated connection that sends ``join`` for its own room (or ``resume`` with its own
    token) keeps its seat and gets its view, and the room does not stop for a moment: alone
    there, the connection used to leave it first, which held the room and released it (a new
    deadline), and came back as a spectator."""

    async def main() -> None:
        code, (p0, p1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 600})
        await p1.close()
        room = await p0.recv("room", timeout=5)
        while room["seats"][1]["connected"]:
            room = await p0.recv("room", timeout=5)
        before = p0.state
        assert before is not None and before["clock"] is not None
        p0.log.clear()
        for kind, fields in (("join", {}), ("resume", {"token": p0.token})):
            reply = await p0.request(kind, room=code, **fields)
            assert reply["type"] == ("room" if kind == "join" else "seated"), reply
            state = await p0.recv("state", timeout=5)
            assert state["version"] == before["version"]
            assert state["view"] == before["view"] and state["view"]["seat"] == 0
            # the clock went on: the same deadline, not one set again from the time left
            assert state["clock"]["deadline"] == before["clock"]["deadline"]
        room_msgs = [m for m in p0.log if m["type"] == "room"]
        assert room_msgs and all(m["you"] == {"seat": 0} for m in room_msgs)
        assert not any(m["held"] for m in room_msgs)
        assert all(m["seats"][0]["connected"] and m["spectators"] == 0 for m in room_msgs)
        # still seated: an action is the seat's (refused only if it is not its turn)
        r = await p0.request("action", version=before["version"], action="draw")
        if before["view"]["turn"]["seat"] == 0:
            assert r["type"] == "state", r
        else:
            assert r["type"] == "error" and r["code"] == "not_your_turn", r
        # a spectator of the room who resumes a seat leaves the spectators for it
        watcher = await Client("watcher").connect(server.ws)
        await watcher.request("join", room=code)
        ok = await watcher.request("resume", room=code, token=p1.token)
        assert ok["type"] == "seated" and ok["seat"] == 1, ok
        room = await watcher.recv("room", timeout=5)
        assert room["spectators"] == 0 and room["seats"][1]["connected"], room
        assert room["you"] == {"seat": 1}
        for c in (p0, watcher):
            await c.close()

    asyncio.run(main())
