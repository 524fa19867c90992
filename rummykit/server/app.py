"""The ASGI application: HTTP endpoints, the WebSocket endpoint and the server's life cycle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit import rules
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import (
    MAX_REFUSED,
    PROTOCOL_VERSION,
    ProtocolError,
    TokenBucket,
    error_message,
    parse_client_message,
)
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage, Storage

log = logging.getLogger("rummykit.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_RECORD_NAME = re.compile(r"^([A-Za-z0-9]{6})(?:-([0-9]{1,6}))?\.json$")


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """A browser's ``Origin`` must be the server's own (same host:port) or a listed one."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.netloc.lower() == (host or "").lower()


def create_app(config: ServerConfig, storage: Storage | None = None) -> Starlette:
    """The Starlette application of ``rummykit serve``."""
    store: Storage = storage or SQLiteStorage(config.db, durable=config.durable)
    manager = RoomManager(store, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        count = manager.restore()
        log.info("restored %d rooms", count)

        async def janitor() -> None:
            while True:
                await asyncio.sleep(600)
                try:
                    dropped = manager.sweep()
                    if dropped:
                        log.info("dropped %d idle rooms", len(dropped))
                except Exception:
                    log.exception("sweeping idle rooms failed")

        sweeper = asyncio.ensure_future(janitor())
        try:
            yield
        finally:
            sweeper.cancel()
            manager.close()
            store.close()

    def index(request: Request) -> Response:
        page = WEB_DIR / "index.html"
        if not page.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(page, media_type="text/html")

    def health(request: Request) -> Response:
        return JSONResponse(
            {
                "ok": True,
                "protocol": PROTOCOL_VERSION,
                "rooms": len(manager.rooms),
                "connections": manager.connections,
            }
        )

    def metrics(request: Request) -> Response:
        times = sorted(manager.timings)

        def pct(p: float) -> float | None:
            if not times:
                return None
            return round(times[min(len(times) - 1, int(p * len(times)))] * 1000, 2)

        return JSONResponse(
            {
                "rooms": len(manager.rooms),
                "connections": manager.connections,
                "actions_sampled": len(times),
                "action_handling_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
            }
        )

    def variants(request: Request) -> Response:
        out: dict[str, Any] = {}
        for v in rules.VARIANTS:
            out[v] = {"players": list(rules.players_allowed(v)), "options": rules.option_schema(v)}
        return JSONResponse({"variants": out, "bot_levels": list(manager.levels)})

    def room_info(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        room = manager.rooms.get(code)
        if room is None:
            return JSONResponse({"error": "no_room"}, status_code=404)
        return JSONResponse({"room": room.summary(manager.levels)})

    def record(request: Request) -> Response:
        m = _RECORD_NAME.match(str(request.path_params["name"]))
        if m is None:
            return JSONResponse({"error": "not_found"}, status_code=404)
        code, game = m.group(1).upper(), m.group(2)
        rec = store.get_record(code, None if game is None else int(game))
        if rec is None:
            return JSONResponse({"error": "not_found"}, status_code=404)
        name = f"{code}-{game}.json" if game else f"{code}.json"
        return JSONResponse(
            rec, headers={"Content-Disposition": f'attachment; filename="rummykit-{name}"'}
        )

    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.headers.get("host"), config.allow_origins):
            await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
            return
        await websocket.accept()
        conn = Connection(config.max_queue)
        bucket = TokenBucket(config.rate, config.burst, time.monotonic())
        writer = asyncio.ensure_future(_writer(websocket, conn))
        manager.connected(conn)
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                if not bucket.allow(time.monotonic()):
                    if bucket.refused > MAX_REFUSED:
                        conn.overflow = True  # closes with 1008
                        conn.close()
                        break
                    conn.send(error_message("rate_limited", "too many messages"))
                    continue
                msg: dict[str, Any] | None = None
                started = time.perf_counter()
                try:
                    msg = parse_client_message(text)
                    manager.handle(conn, msg)
                    if msg["type"] == "action":
                        manager.timings.append(time.perf_counter() - started)
                except ProtocolError as exc:
                    extra = dict(exc.extra)
                    mid = extra.pop("id", None)
                    if mid is None and msg is not None:
                        mid = msg.get("id")
                    conn.send(error_message(exc.code, exc.message, mid, **extra))
                except Exception:
                    log.exception("internal error handling a message")
                    conn.send(error_message("internal", "internal server error"))
        except WebSocketDisconnect:
            pass
        finally:
            manager.disconnected(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await writer
            if conn.overflow:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008)

    async def _writer(websocket: WebSocket, conn: Connection) -> None:
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    break
                await websocket.send_text(text)
        except Exception:
            conn.closed = True
        with contextlib.suppress(Exception):
            await websocket.close(code=1008 if conn.overflow else 1000)

    routes: list[Any] = [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/api/health", health),
        Route("/api/variants", variants),
        Route("/api/metrics", metrics),
        Route("/api/rooms/{code}", room_info),
        Route("/records/{name}", record),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", app=StaticFiles(directory=str(WEB_DIR)), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    app.state.storage = store
    return app
