"""Full games of every variant against a real server on loopback, with people and bots."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine import Game
from tests.server_support import (
    WHOLE_GAME,
    Client,
    ServerProc,
    autoplay,
    make_room,
    unfinished_room,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("games") / "games.db").start()
    yield proc
    proc.stop()


CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("rummy", 4, 2, {"opening": 30}),
    ("rami51", 2, 1, {}),
    ("rami71", 4, 2, {}),
    ("simple", 2, 2, {}),
    ("indian", 3, 2, {"format": "points"}),
]


@pytest.mark.parametrize(("variant", "players", "humans", "options"), CASES)
def test_full_game(
    server: ServerProc, variant: str, players: int, humans: int, options: dict[str, Any]
) -> None:
    async def main() -> tuple[str, list[dict[str, Any]]]:
        code, clients = await make_room(server.ws, variant, players, humans, options)
        await asyncio.wait_for(asyncio.gather(*(autoplay(c) for c in clients)), WHOLE_GAME)
        for c in clients:
            await c.close()
        return code, clients[0].log

    code, log = asyncio.run(main())
    over = [m for m in log if m["type"] == "game_over"]
    assert len(over) == 1
    assert not [m for m in log if m["type"] == "error"]
    status, body = server.get(over[0]["record"])
    assert status == 200
    record = json.loads(body)
    game = Game.from_record(record)
    assert game.phase == "game-over"
    assert game.public_view()["scores"] == over[0]["scores"]
    # the latest record of the room is the same
    status, latest = server.get(f"/records/{code}.json")
    assert status == 200 and json.loads(latest) == record
    assert server.errors_logged() == ""


def test_record_of_unfinished_game_is_not_served(server: ServerProc, tmp_path: Path) -> None:
    code = unfinished_room(server.ws)
    assert server.get(f"/records/{code}.json")[0] == 404
    assert server.get(f"/records/{code}-1.json")[0] == 404
    assert server.get("/records/nonsense")[0] == 404


def test_rematch_and_replay_command(server: ServerProc, tmp_path: Path) -> None:
    async def main() -> str:
        code, clients = await make_room(server.ws, "rummy", 3, 2, {"opening": 30})
        await asyncio.wait_for(asyncio.gather(*(autoplay(c) for c in clients)), WHOLE_GAME)
        p0, p1 = clients
        await p0.send("rematch")
        r = await p0.recv("room", status="over")
        while not r["seats"][0]["rematch"]:
            r = await p0.recv("room", status="over")
        assert r["seats"][0]["rematch"] is True and r["seats"][1]["rematch"] is False
        await p1.send("rematch")
        room = await p0.recv("room", status="playing")
        assert room["game"] == 2
        state = await p0.recv("state")
        assert state["game"] == 2 and state["view"]["deal"] == 1
        # the same token holds the seat in the new game
        again = await Client("again").connect(server.ws)
        r = await again.request("resume", room=code, token=p0.token)
        assert r["type"] == "seated" and r["seat"] == 0
        for c in (p0, p1, again):
            await c.close()
        return code

    code = asyncio.run(main())
    status, body = server.get(f"/records/{code}-1.json")
    assert status == 200
    assert server.get(f"/records/{code}-2.json")[0] == 404  # game 2 is being played
    path = tmp_path / "game.json"
    path.write_bytes(body)
    out = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["over"] is True


def test_an_action_is_stored_and_shown_in_its_canonical_spelling(server: ServerProc) -> None:
    """Whatever spelling a player sends, the other seats and the stored room read the
    engine's canonical text (what its record writes), so a room replays the same after an
    upgrade of the notation."""

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        _, clients = await make_room(server.ws, "rummy", 2, 2)
        first = clients[0].state
        assert first is not None
        mover = next(c for c in clients if c.seat == first["view"]["turn"]["seat"])
        other = next(c for c in clients if c is not mover)
        reply = await mover.request("action", version=first["version"], action="  DrAw \t")
        seen = await other.recv("state", timeout=10, version=reply["version"])
        for c in clients:
            await c.close()
        return reply, seen

    reply, seen = asyncio.run(main())
    assert reply["type"] == "state", reply
    assert reply["last"]["action"] == "draw"
    assert seen["last"]["action"] == "draw"
