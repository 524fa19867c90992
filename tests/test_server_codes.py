"""Room codes are not for guessing: an address that asked for too many codes naming nothing is
refused every lookup by code (docs/server.md, Safety limits), over the WebSocket and HTTP."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.app import create_app
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage

GUESSER = "203.0.113.5"
CLOCK = {"now": 1000.0}


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[RoomManager]:
    storage = SQLiteStorage(str(tmp_path / "codes.db"))
    config = ServerConfig(bot_pool="thread", max_missed_codes_per_address=3)
    rooms = RoomManager(storage, config)
    # the limit's clock, moved by the tests (the window is ten minutes)
    CLOCK["now"] = 1000.0
    rooms.monotonic = lambda: CLOCK["now"]
    yield rooms
    rooms.close()
    storage.close()


def new_room(manager: RoomManager) -> str:
    host = Connection()
    manager.handle(host, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                          "options": {}})
    assert host.room is not None
    return host.room.code


def join(manager: RoomManager, conn: Connection, code: str) -> str:
    """The error code a join gets, or "ok"."""
    try:
        manager.handle(conn, {"type": "join", "id": 7, "room": code})
    except ProtocolError as exc:
        return exc.code if exc.code != "rate_limited" else f"rate_limited:{exc.extra['reason']}"
    return "ok"


def test_an_address_guessing_codes_is_refused_every_lookup(manager: RoomManager) -> None:
    code = new_room(manager)
    guesser = Connection(address=GUESSER)
    assert [join(manager, guesser, c) for c in ("AAAAAA", "BBBBBB", "CCCCCC")] == ["no_room"] * 3
    # the real room too: a hit must not tell itself from the refused misses
    assert join(manager, guesser, code) == "rate_limited:codes"
    assert join(manager, guesser, "DDDDDD") == "rate_limited:codes"
    # and from another connection of the same address, or of its IPv6 /64
    assert join(manager, Connection(address=GUESSER), code) == "rate_limited:codes"
    # another address, and this machine (tests, benchmarks), are not touched
    assert join(manager, Connection(address="198.51.100.7"), code) == "ok"
    local = Connection(address="127.0.0.1")
    assert [join(manager, local, "EEEEEE") for _ in range(5)] == ["no_room"] * 5
    # ten minutes after its first miss the address may look again, one miss at a time
    CLOCK["now"] += 600.5
    assert join(manager, guesser, code) == "ok"


def test_a_resume_counts_as_a_lookup(manager: RoomManager) -> None:
    guesser = Connection(address="2001:db8::1")
    for n in range(3):
        with pytest.raises(ProtocolError) as info:
            manager.handle(guesser, {"type": "resume", "id": n, "room": f"ZZZZZ{n + 2}",
                                     "token": "x" * 20})
        assert info.value.code == "no_room"
    code = new_room(manager)
    # another address of the same /64
    assert join(manager, Connection(address="2001:db8::2"), code) == "rate_limited:codes"


def test_a_person_mistyping_a_code_is_not_refused(manager: RoomManager) -> None:
    """Misses spread over time never add up: the window slides."""
    code = new_room(manager)
    person = Connection(address=GUESSER)
    for _ in range(10):
        assert join(manager, person, "QQQQQQ") == "no_room"
        CLOCK["now"] += 250
    assert join(manager, person, code) == "ok"


def test_the_sweep_forgets_addresses_whose_misses_are_old(manager: RoomManager) -> None:
    join(manager, Connection(address=GUESSER), "AAAAAA")
    assert manager.misses_by_address
    CLOCK["now"] += 601
    manager.sweep(10**12)
    assert not manager.misses_by_address


def http(tmp_path: Path, limit: int) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    config = ServerConfig(db=str(tmp_path / "h.db"), bot_pool="thread",
                          max_missed_codes_per_address=limit)
    return TestClient(create_app(config), base_url="http://127.0.0.1:8000",
                      client=(GUESSER, 40000))


def test_http_lookups_count_and_are_refused_with_429(tmp_path: Path) -> None:
    with http(tmp_path, 4) as client:
        manager: RoomManager = client.app.state.manager
        code = new_room(manager)
        assert client.get(f"/api/rooms/{code}").status_code == 200
        assert client.get("/api/rooms/AAAAAA").status_code == 404
        assert client.get("/api/rooms/BBBBBB").status_code == 404
        assert client.get("/records/CCCCCC.json").status_code == 404
        # a room whose game is not over has no record yet: a miss too (the code is right,
        # but its answer is the same as a wrong code's)
        assert client.get(f"/records/{code}.json").status_code == 404
        refused = client.get(f"/api/rooms/{code}")
        assert refused.status_code == 429
        body = refused.json()
        assert body["error"] == "rate_limited" and body["reason"] == "codes"
        assert body["message"] == (
            "too many room codes naming nothing asked from this address (4 in 10 minutes)"
        )
        assert client.get(f"/records/{code}.json").status_code == 429
        # the page itself and the API's other answers are not lookups by code
        assert client.get("/api/variants").status_code == 200


def test_no_limit_when_it_is_zero(tmp_path: Path) -> None:
    with http(tmp_path, 0) as client:
        statuses = {client.get(f"/api/rooms/A{n:05d}").status_code for n in range(100)}
        assert statuses == {404}


def test_serve_takes_the_limit_from_its_option(tmp_path: Path) -> None:
    """``rummykit serve --max-missed-codes-per-address 2``, a client behind a proxy on the
    same machine (uvicorn takes its address from ``X-Forwarded-For``)."""
    import urllib.error
    import urllib.request

    from tests.server_support import ServerProc

    proc = ServerProc(tmp_path / "s.db", "--max-missed-codes-per-address", "2").start()
    try:
        def status(code: str) -> int:
            request = urllib.request.Request(f"{proc.http}/api/rooms/{code}",
                                             headers={"X-Forwarded-For": GUESSER})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as exc:
                return exc.code

        assert [status(c) for c in ("AAAAAA", "BBBBBB", "CCCCCC")] == [404, 404, 429]
    finally:
        proc.stop()
