"""Rami 2 v 2 through the server: the seat counts a room takes, a whole game of people and
bots to its end by sides, the record replayed, rematch and a seat resumed."""

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
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import Connection, RoomManager
from tests.server_support import WHOLE_GAME, Client, ServerProc, autoplay, make_room


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("teams") / "teams.db").start()
    yield proc
    proc.stop()



@pytest.mark.parametrize("variant", ["rami51", "rami71", "simple"])
@pytest.mark.parametrize("players", [1, 3, 5, 6])
def test_a_rami_room_of_another_seat_count_is_refused_naming_its_2v2(
    manager: RoomManager, variant: str, players: int
) -> None:
    """Teams are no option: 4 seats are the 2 v 2 game, and the refusal says so (it read
    "rami51 is played by 2, 4 players, not 3")."""
    msg = {"type": "create", "id": 1, "variant": variant, "players": players, "options": {}}
    with pytest.raises(ProtocolError) as info:
        manager.handle(Connection(), msg)
    assert info.value.code == "bad_options"
    assert info.value.message == (
        f"{variant} is played by 2 players (1 v 1) or 4 (2 v 2, partners opposite), "
        f"not {players}"
    )
    assert not manager.rooms


def test_teams_is_not_a_room_option(manager: RoomManager) -> None:
    msg = {"type": "create", "id": 1, "variant": "rami51", "players": 2,
           "options": {"teams": True}}
    with pytest.raises(ProtocolError) as info:
        manager.handle(Connection(), msg)
    assert info.value.code == "bad_options" and "'teams'" in info.value.message
    # the refusal says why: the seat count makes the teams, not an option
    assert info.value.message.startswith(
        "a rami51 room cannot set 'teams': the variant decides who plays as partners "
        "(the seat count decides it); its options are "
    ), info.value.message


def _minimum_as_the_partner_decides(log: list[dict[str, Any]], seat: int) -> None:
    """Every state a seat received gives the minimum its partner's lay-down leaves it: none
    once the partner has laid down."""
    for m in log:
        if m["type"] != "state" or m["view"]["opening"] is None:
            continue
        v = m["view"]
        partner = v["seats"][(seat + 2) % 4]["opened"]
        assert v["opening"]["partner_opened"] is partner
        assert v["opening"]["minimum"] == (0 if partner else 51)


def test_a_2v2_game_of_people_and_bots_to_its_end_rematch_and_resume(
    server: ServerProc, tmp_path: Path
) -> None:
    async def main() -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
        # Ana (seat 0) and Ben (seat 1) are rivals; each has a bot for a partner.
        code, clients = await make_room(server.ws, "rami51", 4, 2, level="medium")
        await asyncio.wait_for(asyncio.gather(*(autoplay(c) for c in clients)), WHOLE_GAME)
        ana, ben = clients
        assert [ana.seat, ben.seat] == [0, 1]
        for c in clients:
            await c.send("rematch")
        room = await ana.recv("room", status="playing", timeout=30)
        assert room["game"] == 2
        first = await ana.recv("state", game=2, timeout=30)
        assert first["view"]["scores"] == [0, 0]
        assert [s["team"] for s in first["view"]["seats"]] == [0, 1, 0, 1]
        # Ana's seat resumed on another connection: her hand, and nobody else's
        again = await Client("again").connect(server.ws)
        r = await again.request("resume", room=code, token=ana.token)
        assert r["type"] == "seated" and r["seat"] == 0
        state = await again.recv("state", timeout=30)
        assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) >= 14
        assert "hands" not in json.dumps(state["view"]["seats"])
        logs = ana.log, ben.log
        for c in (ana, ben, again):
            await c.close()
        return code, *logs

    code, ana_log, ben_log = asyncio.run(main())
    over = [m for m in ana_log if m["type"] == "game_over"]
    assert len(over) == 1 and [m for m in ben_log if m["type"] == "game_over"] == over
    end = over[0]
    # Scores are by side: each side's total is what its two seats paid in the deals it lost.
    paid = [0, 0]
    for r in end["results"]:
        if r["winner"] is None:
            continue
        side = r["winner"] % 2
        assert r["penalties"][side] == r["penalties"][side + 2] == 0
        assert r["points"] == sum(r["penalties"])
        paid[1 - side] += r["points"]
    assert end["scores"] == paid
    assert max(paid) >= 351 > min(paid)  # rami51 2 v 2 is played to 351
    assert end["winner"] == paid.index(min(paid))
    # Every state each person got says the minimum its partner's lay-down leaves. Whether a
    # bot partner lays down before its person at all is the shuffle's doing (it does in most
    # games; a short one had no such turn): the freed minimum itself is pinned on planned
    # deals (tests/test_engine_rami.py, tests/test_rami_hunt.py).
    for log, seat in ((ana_log, 0), (ben_log, 1)):
        _minimum_as_the_partner_decides(log, seat)
    errors = [m["code"] for m in ana_log + ben_log if m["type"] == "error"]
    assert errors == ["replaced"]  # Ana's first connection, when her seat was resumed
    # The record replays to the same end, as a 2 v 2 game.
    status, body = server.get(end["record"])
    assert status == 200
    record = json.loads(body)
    game = Game.from_record(record)
    assert (game.winner, game.public_view()["scores"]) == (end["winner"], end["scores"])
    path = tmp_path / "game.json"
    path.write_bytes(body)
    out = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode == 0, out.stderr
    replayed = json.loads(out.stdout)
    assert replayed["teams"] is True and replayed["over"] is True
    assert (replayed["winner"], replayed["scores"]) == (end["winner"], end["scores"])
    assert server.get(f"/records/{code}-2.json")[0] == 404  # game 2 is being played
    assert server.errors_logged() == ""
