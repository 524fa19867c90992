"""What the server refuses to protect itself and its players: options a room would not use,
names that pass for bots, room codes already used, floods, and requests from elsewhere."""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from starlette.websockets import WebSocketDisconnect

from rummykit.cli.serve import add_arguments, config_from_args
from rummykit.server.app import create_app
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import (
    MAX_REFUSED,
    ProtocolError,
    TokenBucket,
    looks_like_bot,
    parse_client_message,
)
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import ROOT, Client, ServerProc


def _create(manager: RoomManager, conn: Connection, variant: str, players: int,
            options: dict[str, Any]) -> str:
    """Create a room on ``conn``; the room's code (or the ProtocolError raised)."""
    msg = {"type": "create", "id": 1, "variant": variant, "players": players, "options": options}

    async def main() -> str:
        manager.handle(conn, msg)
        assert conn.room is not None
        return conn.room.code

    return asyncio.run(main())


@pytest.mark.parametrize(
    "options",
    [
        {"deals": 3},  # the default format, pool101, plays to 101 points
        {"format": "pool201", "deals": 2},  # even the default count
        {"format": "points", "deals": 1},
        {"format": "deals", "deals": 21},
        {"format": "deals", "deals": 10**9},
        {"format": "deals", "deals": 0},
    ],
)
def test_an_option_the_room_would_not_use_or_out_of_bounds_is_refused(
    manager: RoomManager, options: dict[str, Any]
) -> None:
    with pytest.raises(ProtocolError) as info:
        _create(manager, Connection(), "indian", 3, options)
    assert info.value.code == "bad_options"
    assert "deals" in info.value.message
    assert not manager.rooms


def test_the_deals_option_with_the_deals_format(manager: RoomManager) -> None:
    code = _create(manager, Connection(), "indian", 3, {"format": "deals", "deals": 20})
    assert manager.rooms[code].options["deals"] == 20
    # the unused count is refused with a reason that says which format uses it
    with pytest.raises(ProtocolError, match="used only with format deals, not with format pool101"):
        _create(manager, Connection(), "indian", 3, {"deals": 2})


@pytest.mark.parametrize(
    "name",
    ["Bot (hard)", "bot", "BOT 2 (HARD)", " Robot  3 (difficile) ", "Bot (difícil)",
     "bot(DIFICIL)", "Bot medium", "Robot", "Bot 1"],
)
def test_a_name_that_reads_as_a_bot_is_refused(name: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(json.dumps({"type": "sit", "id": 4, "seat": 0, "name": name}))
    assert info.value.code == "bad_name" and info.value.extra == {"id": 4}


@pytest.mark.parametrize("name", ["Ana", "Botha", "Robotnik", "Bot Bob", "Abbot", "Player"])
def test_names_that_merely_contain_bot_are_kept(name: str) -> None:
    msg = parse_client_message(json.dumps({"type": "sit", "seat": 0, "name": name}))
    assert msg["name"] == name


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_every_bot_label_of_the_web_client_is_refused_as_a_name(lang: str) -> None:
    """The page's own labels (its catalogs) are what a fake name would copy."""
    catalog = json.loads((ROOT / "rummykit/web/i18n" / f"{lang}.json").read_text("utf-8"))
    labels = [catalog["seat"]["botPlain"]]
    for level in catalog["bot"].values():
        label = catalog["seat"]["bot"].replace("{n}", "2").replace("{level}", level)
        labels += [label, label.upper(), label.replace(" 2", "")]
    assert all(looks_like_bot(label) for label in labels), labels
    assert catalog["error"]["bad_name"]


def test_a_code_the_storage_still_holds_is_never_issued_again(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room swept from memory keeps its finished records under its code: a new room given
    that code would overwrite them when its own game starts."""
    storage = manager.storage
    storage.start_game("AAAAAA", 1, {"variant": "rummy"}, {"dealer": 0}, {"code": "AAAAAA"})
    storage.append_action("AAAAAA", 1, 0, 0, "draw", {"code": "AAAAAA"}, record={"old": "record"})
    storage.delete_room("AAAAAA")  # swept: only the records remain
    storage.save_room("CCCCCC", {"code": "CCCCCC"})  # a stored room not loaded (yet)
    letters = iter("A" * 6 + "C" * 6 + "B" * 6)
    monkeypatch.setattr("rummykit.server.lobby.secrets.choice", lambda alphabet: next(letters))
    assert _create(manager, Connection(), "rummy", 2, {}) == "BBBBBB"
    assert storage.get_record("AAAAAA") == {"old": "record"}


def test_refusals_are_forgotten_over_time() -> None:
    """A long-lived connection that bursts over the limit now and then is never closed; a
    flood, or a client that keeps sending above the rate, still is."""
    bucket = TokenBucket(20, 40, 0.0)
    for minute in range(30):  # 60 messages at once, every minute for half an hour
        allowed = sum(bucket.allow(minute * 60.0) for _ in range(60))
        assert allowed == 40
        assert bucket.refused <= MAX_REFUSED
    flood = TokenBucket(20, 40, 0.0)
    for i in range(1000):  # 1,000 messages in one second
        flood.allow(i / 1000)
    assert flood.refused > MAX_REFUSED
    steady = TokenBucket(20, 40, 0.0)
    t = 0.0
    while steady.refused <= MAX_REFUSED:  # 25 messages a second, 5 over the rate
        steady.allow(t)
        t += 1 / 25
        assert t < 300, steady.refused


def _http(config: ServerConfig, address: str = "127.0.0.1", **kw: Any) -> Any:
    """An in-process HTTP client of the app, its requests coming from ``address``."""
    with warnings.catch_warnings():
        # Starlette deprecates its test client's httpx backend; nothing here depends on it.
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    return TestClient(
        create_app(config), base_url="http://127.0.0.1:8000", client=(address, 40000), **kw
    )


def test_only_this_machine_may_reset_the_metrics(tmp_path: Path) -> None:
    config = ServerConfig(db=str(tmp_path / "m.db"), bot_pool="thread")
    with _http(config, "203.0.113.9") as remote:
        assert remote.get("/api/metrics").status_code == 200  # nothing private in it
        assert remote.post("/api/metrics").status_code == 403
    with _http(config, "127.0.0.1") as local:
        assert local.post("/api/metrics").status_code == 200
        # a page of another origin may make a browser on this machine post to loopback
        evil = {"Origin": "http://evil.example"}
        assert local.post("/api/metrics", headers=evil).status_code == 403


def test_with_an_admin_token_only_the_token_resets_the_metrics(tmp_path: Path) -> None:
    config = ServerConfig(db=str(tmp_path / "m.db"), bot_pool="thread", admin_token="s3cret")
    with _http(config, "127.0.0.1") as local:
        # behind a proxy on the same machine every request comes from loopback
        assert local.post("/api/metrics").status_code == 403
        wrong = {"Authorization": "Bearer guess"}
        assert local.post("/api/metrics", headers=wrong).status_code == 403
    with _http(config, "203.0.113.9") as remote:
        right = {"Authorization": "Bearer s3cret"}
        assert remote.post("/api/metrics", headers=right).status_code == 200


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8000", True),
        ("[::1]:8000", True),
        ("192.168.1.20:8000", True),  # a machine of the household, by its address
        ("localhost:8000", True),
        ("evil.example:8000", False),  # DNS rebinding
        ("rummy.example.org", True),  # --allow-host
        ("club.rummy.example.org:443", False),
        ("", False),
    ],
)
def test_the_host_header_must_name_the_server(tmp_path: Path, host: str, allowed: bool) -> None:
    config = ServerConfig(db=str(tmp_path / "h.db"), bot_pool="thread",
                          allow_hosts=["rummy.example.org"])
    with _http(config) as http:
        status = http.get("/api/health", headers={"Host": host}).status_code
        assert status == (200 if allowed else 400)
        if allowed:
            with http.websocket_connect("/ws", headers={"Host": host}) as ws:
                assert ws.receive_json()["type"] == "welcome"
        else:
            with pytest.raises(WebSocketDisconnect), http.websocket_connect(
                "/ws", headers={"Host": host}
            ):
                pass


def test_the_machine_is_reached_by_its_own_name(tmp_path: Path) -> None:
    """A household reaches `--host 0.0.0.0` by the machine's name (or its mDNS name) too."""
    name = socket.gethostname().lower()
    config = ServerConfig(db=str(tmp_path / "h.db"), bot_pool="thread", host="0.0.0.0")
    with _http(config) as http:
        for host in (f"{name}:8000", f"{name}.local:8000"):
            assert http.get("/api/health", headers={"Host": host}).status_code == 200, host
        assert http.get("/api/health", headers={"Host": f"{name}.evil.example"}).status_code == 400


def test_allowed_host_patterns(tmp_path: Path) -> None:
    config = ServerConfig(db=str(tmp_path / "h.db"), bot_pool="thread", host="gamebox",
                          allow_hosts=["*.rummy.example.org"])
    with _http(config) as http:
        for host, status in (("gamebox:8000", 200), ("club.rummy.example.org", 200),
                             ("rummy.example.org.evil.example", 400)):
            assert http.get("/", headers={"Host": host}).status_code == status, host


def test_rooms_per_address_over_a_sliding_window(tmp_path: Path) -> None:
    """Reconnecting used to give a fresh per-connection allowance, so one address could create
    rooms without end (each kept a day)."""
    storage = SQLiteStorage(str(tmp_path / "rooms.db"))
    config = ServerConfig(bot_pool="thread", max_rooms_per_address=3, rooms_window=3600)
    manager = RoomManager(storage, config)
    try:
        for _ in range(3):  # a new connection for each room
            _create(manager, Connection(address="203.0.113.5"), "rummy", 2, {})
        with pytest.raises(ProtocolError) as info:
            _create(manager, Connection(address="203.0.113.5"), "rummy", 2, {})
        assert info.value.code == "rate_limited" and "address" in info.value.message
        _create(manager, Connection(address="198.51.100.1"), "rummy", 2, {})  # another address
        for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1") * 2:
            # this machine (tests, benchmarks, a proxy) is not limited
            _create(manager, Connection(address=address), "rummy", 2, {})
        # an IPv6 client may take any address of its /64: they share one allowance
        for i in range(3):
            _create(manager, Connection(address=f"2001:db8:5:6::{i + 1}"), "rummy", 2, {})
        with pytest.raises(ProtocolError):
            _create(manager, Connection(address="2001:db8:5:6:ffff::7"), "rummy", 2, {})
        _create(manager, Connection(address="2001:db8:5:7::1"), "rummy", 2, {})
        # the window slides: the oldest room made an hour ago no longer counts
        times = manager.rooms_by_address["203.0.113.5"]
        times[0] -= 3600
        _create(manager, Connection(address="203.0.113.5"), "rummy", 2, {})
        with pytest.raises(ProtocolError):
            _create(manager, Connection(address="203.0.113.5"), "rummy", 2, {})
        # the sweep forgets addresses with no recent room
        for address in manager.rooms_by_address:
            manager.rooms_by_address[address] = type(times)(t - 3600 for t in times)
        manager.sweep()
        assert manager.rooms_by_address == {}
    finally:
        manager.close()
        storage.close()


def test_rooms_per_connection(tmp_path: Path) -> None:
    """One connection creates at most ``max_rooms_per_connection`` rooms, from this machine
    too (which no per-address limit counts); the limit is the server's setting, read when a
    room is created."""
    storage = SQLiteStorage(str(tmp_path / "rooms.db"))
    assert ServerConfig().max_rooms_per_connection == 20
    config = ServerConfig(bot_pool="thread", max_rooms_per_connection=2)
    manager = RoomManager(storage, config)
    try:
        conn = Connection(address="127.0.0.1")
        codes = {_create(manager, conn, "rummy", 2, {}) for _ in range(2)}
        assert len(codes) == 2 and conn.created == 2
        with pytest.raises(ProtocolError) as info:
            _create(manager, conn, "rummy", 2, {})
        assert info.value.code == "rate_limited"
        assert info.value.message == "too many rooms created on this connection (2 at most)"
        assert len(manager.rooms) == 2 and conn.created == 2  # the refusal changed nothing
        _create(manager, Connection(address="127.0.0.1"), "rummy", 2, {})  # a new connection
        config.max_rooms_per_connection = 3
        _create(manager, conn, "rummy", 2, {})
        assert len(manager.rooms) == 4
    finally:
        manager.close()
        storage.close()


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """A server allowing 3 connections and 4 rooms an hour per address."""
    proc = ServerProc(
        tmp_path_factory.mktemp("few") / "few.db",
        "--max-connections-per-address", "3", "--max-rooms-per-address", "4",
    )
    yield proc.start()
    proc.stop()


def test_connections_and_rooms_per_address(few: ServerProc) -> None:
    """Clients behind another address: uvicorn takes it from ``X-Forwarded-For`` when the
    request comes from loopback (as from a proxy on the same machine)."""

    def at(address: str) -> dict[str, Any]:
        return {"additional_headers": {"X-Forwarded-For": address}}

    async def main() -> None:
        a = [await Client(f"a{i}").connect(few.ws, **at("203.0.113.7")) for i in range(3)]
        async with websockets.connect(few.ws, **at("203.0.113.7")) as extra:
            refused = json.loads(await asyncio.wait_for(extra.recv(), 5))
            assert refused["code"] == "too_many_connections", refused
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(extra.recv(), 5)
            assert extra.close_code == 1008
        b = await Client("b").connect(few.ws, **at("198.51.100.2"))  # another address
        await a[0].close()
        a[0] = await Client("a0").connect(few.ws, **at("203.0.113.7"))  # a place came free
        # rooms: 4 an hour from the address, whichever connection creates them
        for i in range(4):
            reply = await a[i % 3].request("create", variant="rummy", players=2)
            assert reply["type"] == "room", reply
        reply = await a[0].request("create", variant="rummy", players=2)
        assert reply["code"] == "rate_limited", reply
        assert (await b.request("create", variant="rummy", players=2))["type"] == "room"
        for c in (*a, b):
            await c.close()

    asyncio.run(main())



def _serve_config(*argv: str) -> ServerConfig:
    parser = argparse.ArgumentParser()
    add_arguments(parser)  # reads RUMMYKIT_ADMIN_TOKEN now
    return config_from_args(parser.parse_args(argv))


def test_serve_flags_set_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUMMYKIT_ADMIN_TOKEN", raising=False)
    defaults = _serve_config()
    assert defaults.admin_token is None and defaults.allow_hosts == []
    assert (defaults.max_connections_per_address, defaults.max_rooms_per_address) == (100, 100)
    config = _serve_config(
        "--allow-host", "rummy.example.org", "--allow-host", "*.club.example",
        "--max-connections-per-address", "30", "--max-rooms-per-address", "0",
        "--admin-token", "t",
    )
    assert config.allow_hosts == ["rummy.example.org", "*.club.example"]
    assert (config.max_connections_per_address, config.max_rooms_per_address) == (30, 0)
    assert config.admin_token == "t"
    # from the environment, so that the token does not show in the process list
    monkeypatch.setenv("RUMMYKIT_ADMIN_TOKEN", "from-env")
    assert _serve_config().admin_token == "from-env"
