"""Bad input from clients: malformed JSON, unknown types, wrong fields, huge messages, illegal
actions, floods and foreign origins. Each is answered with an error while the connection and the
room go on."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.server.app import create_app
from rummykit.server.config import ServerConfig
from tests.server_support import Client, ServerProc, make_room


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("fuzz") / "fuzz.db").start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """A server with the default rate limit (the other fixture raises it for speed)."""
    proc = ServerProc(tmp_path_factory.mktemp("limited") / "l.db", "--rate", "20", "--burst", "40")
    proc.start()
    yield proc
    proc.stop()


async def _alive(c: Client) -> None:
    r = await c.request("ping")
    assert r["type"] == "pong"


BAD_TEXT: list[tuple[str | bytes, str]] = [
    ("{not json", "bad_json"),
    ("[1, 2, 3]", "bad_json"),
    ('"just a string"', "bad_json"),
    ("", "bad_json"),
    ("null", "bad_json"),
    (b"\xff\xfe\x00binary", "bad_json"),
    ('{"no": "type"}', "bad_message"),
    ('{"type": 7}', "bad_message"),
    ('{"type": "launch_missiles"}', "unknown_type"),
    ('{"type": "state"}', "unknown_type"),
    ('{"type": "create"}', "bad_message"),
    ('{"type": "create", "players": "four"}', "bad_message"),
    ('{"type": "create", "players": 4, "variant": "poker"}', "bad_options"),
    ('{"type": "create", "players": 9}', "bad_options"),
    ('{"type": "create", "players": 2, "options": {"opening": 77}}', "bad_options"),
    ('{"type": "create", "players": 2, "options": {"colour": "red"}}', "bad_options"),
    ('{"type": "join", "room": "ZZZZZZ"}', "no_room"),
    ('{"type": "join", "room": "../../etc"}', "bad_message"),
    ('{"type": "sit", "seat": 0, "name": "x"}', "not_in_room"),
    ('{"type": "action", "version": 1, "action": "draw"}', "not_in_room"),
    ('{"type": "resume", "room": "ABCDEF", "token": "x"}', "no_room"),
    ('{"type": "ping", "id": {"nested": true}}', "bad_message"),
    ('{"type": "ping", "id": ' + "[" * 3000 + "]" * 3000 + "}", "bad_json"),
    ('{"type": "sit", "seat": -1, "name": "x"}', "bad_message"),
    ('{"type": "sit", "seat": 0, "name": "' + "n" * 100 + '"}', "bad_message"),
]


def test_malformed_messages_get_errors_and_the_connection_lives(server: ServerProc) -> None:
    async def main() -> None:
        c = await Client("fuzz").connect(server.ws)
        for text, code in BAD_TEXT:
            await c.send_raw(text)
            err = await c.recv("error")
            assert err["code"] == code, (text, err)
            await _alive(c)
        await c.close()

    asyncio.run(main())


def test_message_size_cap(server: ServerProc) -> None:
    async def main() -> None:
        c = await Client("big").connect(server.ws)
        await c.send_raw(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        err = await c.recv("error")
        assert err["code"] == "too_large"
        await _alive(c)
        # the cap counts bytes: 3000 euro signs are 9000 of them
        await c.send_raw(json.dumps({"type": "ping", "pad": "€" * 3000}, ensure_ascii=False))
        err = await c.recv("error")
        assert err["code"] == "too_large"
        await _alive(c)
        # a frame over 64 KiB closes the connection (1009), the server goes on
        await c.send_raw("x" * 200_000)
        await asyncio.wait_for(c.closed.wait(), 5)
        assert c.ws.close_code == 1009
        d = await Client("after").connect(server.ws)
        await _alive(d)
        await d.close()

    asyncio.run(main())


def test_illegal_actions_are_refused_and_the_room_goes_on(server: ServerProc) -> None:
    async def main() -> None:
        code, (p0, p1) = await make_room(server.ws, "rummy", 2, 2, {"clock": 600})
        assert p1.state is not None
        v = p1.state["version"]
        cases: list[tuple[Client, dict[str, Any], str]] = [
            (p0, {"version": v, "action": "draw"}, "not_your_turn"),
            (p1, {"version": v - 1, "action": "draw"}, "stale_version"),
            (p1, {"version": v + 5, "action": "draw"}, "stale_version"),
            (p1, {"version": v, "action": "timeout"}, "forbidden_action"),
            (p1, {"version": v, "action": "TimeOut"}, "forbidden_action"),
            (p1, {"version": v, "action": "discard 7H"}, "illegal_action"),
            (p1, {"version": v, "action": "fly to the moon"}, "illegal_action"),
            (p1, {"version": v, "action": "layoff 99 7H low"}, "illegal_action"),
            (p1, {"version": v, "action": "open ZZ YY"}, "illegal_action"),
            (p1, {"version": v, "action": ""}, "bad_message"),
            (p1, {"version": "17", "action": "draw"}, "bad_message"),
            (p1, {"version": v, "action": ["draw"]}, "bad_message"),
        ]
        for client, fields, expected in cases:
            r = await client.request("action", **fields)
            assert r["type"] == "error" and r["code"] == expected, (fields, r)
            if expected in ("stale_version", "not_your_turn", "illegal_action"):
                assert r["version"] == v
        # lobby messages after the start are refused too
        r = await p0.request("sit", seat=1, name="again")
        assert r["code"] in ("not_waiting", "seat_taken")
        r = await p0.request("add_bot", seat=1, level="easy")
        assert r["code"] == "not_waiting"
        r = await p0.request("rematch")
        assert r["code"] == "not_over"
        # a spectator cannot act
        w = await Client("w").connect(server.ws)
        await w.request("join", room=code)
        r = await w.request("action", version=v, action="draw")
        assert r["code"] == "not_seated"
        # the game goes on at the same version
        r = await p1.request("action", version=v, action="draw")
        assert r["type"] == "state" and r["version"] == v + 1
        for c in (p0, p1, w):
            await c.close()

    asyncio.run(main())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(
            [
                "ping",
                "create",
                "join",
                "sit",
                "resume",
                "add_bot",
                "remove_bot",
                "leave",
                "action",
                "back",
                "rematch",
                "bogus",
            ]
        )
        | st.text(max_size=10),
        "id": json_values,
        "players": json_values,
        "variant": json_values,
        "options": json_values,
        "room": json_values,
        "seat": json_values,
        "name": json_values,
        "level": json_values,
        "token": json_values,
        "version": json_values,
        "action": json_values,
    },
)


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(messages, min_size=1, max_size=8))
def test_random_messages_never_break_the_server(
    server: ServerProc, batch: list[dict[str, Any]]
) -> None:
    async def main() -> None:
        async with websockets.connect(server.ws) as ws:
            await ws.recv()  # welcome
            for msg in batch:
                await ws.send(json.dumps(msg))
            await ws.send(json.dumps({"type": "ping", "id": "last"}))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert reply["type"] != "error" or reply["code"] != "internal", reply
                if reply.get("id") == "last" and reply["type"] == "pong":
                    break

    asyncio.run(main())


def test_rate_limit(limited: ServerProc) -> None:
    async def main() -> None:
        c = await Client("flood").connect(limited.ws)
        for _ in range(80):
            await c.send("ping")
        await asyncio.sleep(0.5)
        kinds = [m.get("code") or m["type"] for m in c.log]
        assert kinds.count("rate_limited") >= 30
        assert kinds.count("pong") >= 40
        await asyncio.sleep(1.0)
        await _alive(c)  # tokens came back
        # a client that keeps flooding is cut off
        for _ in range(400):
            if c.closed.is_set():
                break
            await c.send_raw('{"type":"ping"}')
        await asyncio.wait_for(c.closed.wait(), 5)
        assert c.ws.close_code == 1008
        await c.close()

    asyncio.run(main())


def test_origin_check(server: ServerProc) -> None:
    async def main() -> None:
        with pytest.raises(websockets.InvalidStatus) as info:
            await websockets.connect(server.ws, origin="http://evil.example")  # type: ignore[arg-type]
        assert info.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        c = await Client("same").connect(server.ws, origin=own)
        await _alive(c)
        await c.close()

    asyncio.run(main())


def test_dns_rebinding_is_refused(server: ServerProc) -> None:
    """A page of evil.example whose name resolves to 127.0.0.1 reaches the server with
    ``Origin`` and ``Host`` both evil.example: they match, the Host does not name the server."""
    port = server.port
    evil = f"evil.example:{port}"
    req = urllib.request.Request(server.http + "/api/health", headers={"Host": evil})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(req, timeout=5)
    assert info.value.code == 400

    async def main() -> None:
        with pytest.raises(websockets.InvalidStatus) as refused:
            # the connection goes to 127.0.0.1; the URI gives the Host header
            await websockets.connect(
                f"ws://{evil}/ws", host="127.0.0.1", port=port, origin=f"http://{evil}"  # type: ignore[arg-type]
            )
        assert refused.value.response.status_code == 403
        for name in (f"localhost:{port}", f"127.0.0.1:{port}"):
            c = await Client("local").connect(
                f"ws://{name}/ws", host="127.0.0.1", port=port, origin=f"http://{name}"
            )
            await _alive(c)
            await c.close()

    asyncio.run(main())


def test_http_endpoints(server: ServerProc) -> None:
    status, body = server.get("/")
    assert status == 200 and b"<html" in body.lower()
    status, body2 = server.get("/r/ABCDEF")
    assert status == 200 and body2 == body
    status, body = server.get("/api/variants")
    variants = json.loads(body)["variants"]
    assert set(variants) >= {"rummy", "rami51", "rami71", "simple", "indian"}
    assert json.loads(server.get("/api/health")[1])["protocol"] == 1
    assert server.get("/api/rooms/ZZZZZZ")[0] == 404


def test_an_internal_error_echoes_the_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A server bug is answered with ``internal`` carrying the message's id, like any error."""
    with warnings.catch_warnings():
        # Starlette deprecates its test client's httpx backend; the test needs no HTTP client.
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    app = create_app(ServerConfig(db=str(tmp_path / "i.db"), bot_pool="thread"))

    def broken(conn: object, msg: dict[str, Any]) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(app.state.manager, "handle", broken)
    with (
        TestClient(app) as http,
        http.websocket_connect("/ws", headers={"Host": "127.0.0.1:8000"}) as ws,
    ):
        assert ws.receive_json()["type"] == "welcome"
        ws.send_text(json.dumps({"type": "ping", "id": "p1"}))
        err = ws.receive_json()
    assert err == {
        "type": "error",
        "code": "internal",
        "message": "internal server error",
        "id": "p1",
    }
    assert "a bug" in caplog.text  # logged on the server, not sent
