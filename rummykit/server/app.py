"""The ASGI application: HTTP endpoints, the WebSocket endpoint and the server's life cycle."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import logging
import os
import re
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit import rules
from rummykit.engine.review import replay_deal
from rummykit.errors import InvalidArgument
from rummykit.server.config import ServerConfig
from rummykit.server.loop_monitor import LoopMonitor, quantile_ms
from rummykit.server.protocol import (
    MAX_REFUSED,
    PROTOCOL_VERSION,
    ProtocolError,
    TokenBucket,
    error_message,
    message_id,
    parse_client_message,
)
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage, Storage
from rummykit.server.websec import (
    HostCheck,
    SecurityHeaders,
    admin_allowed,
    origin_allowed,
    own_names,
)

log = logging.getLogger("rummykit.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_RECORD_NAME = re.compile(r"^([A-Za-z0-9]{6})(?:-([0-9]{1,6}))?\.json$")
_GAME_NAME = re.compile(r"^([A-Za-z0-9]{6})-([0-9]{1,6})$")
#: Looked-back deals kept ready (a finished game never changes): a page stepping through a
#: game asks for each deal once, and players of one room ask for the same ones.
REPLAY_CACHE = 32

def _file_id(path: str) -> tuple[int, int] | None:
    """The device and inode of a file (None if there is none)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def create_app(config: ServerConfig, storage: Storage | None = None) -> Starlette:
    """The Starlette application of ``rummykit serve``."""
    # exclusive: a second server started on the same file is refused (storage.DatabaseInUse)
    store: Storage = storage or SQLiteStorage(config.db, durable=config.durable, exclusive=True)
    manager = RoomManager(store, config)
    monitor = LoopMonitor()
    # Read now rather than in the lifespan: a database whose pages are damaged is then refused
    # by ``serve`` in one line (sqlite3.Error, exit status 2), where uvicorn would print a
    # traceback and "Application startup failed" (exit status 3). Taken once: a second
    # lifespan of the same app (tests) reads them again.
    stored = [store.load_rooms()]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        count = manager.restore(stored.pop() if stored else None)
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

        async def full_collections() -> None:
            # Automatic full collections are off (tune_gc); one runs here now and then so
            # cyclic garbage that reached the old generation is still freed.
            while True:
                await asyncio.sleep(config.full_gc_interval)
                started = time.perf_counter()
                freed = gc.collect()
                log.info(
                    "full collection: %d objects freed in %.0f ms",
                    freed,
                    (time.perf_counter() - started) * 1000,
                )

        async def alive() -> None:
            while True:
                manager.mark_alive()
                await asyncio.sleep(config.alive_interval)

        sweeper = asyncio.ensure_future(janitor())
        background = [asyncio.ensure_future(monitor.probe()), asyncio.ensure_future(alive())]
        if config.full_gc_interval > 0:
            background.append(asyncio.ensure_future(full_collections()))
        gc.callbacks.append(monitor.gc_callback)
        try:
            yield
        finally:
            gc.callbacks.remove(monitor.gc_callback)
            for task in background:
                task.cancel()
            sweeper.cancel()
            manager.close()
            manager.mark_alive()  # the clocks stop now, not at the last mark
            store.close()

    def index(request: Request) -> Response:
        page = WEB_DIR / "index.html"
        if not page.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(page, media_type="text/html")

    # The file the database was opened as: removed or replaced while the server runs (a
    # clean-up, a restored backup copied over it), SQLite goes on writing to the open file,
    # which nothing can read once the server stops.
    db_path = store.path if isinstance(store, SQLiteStorage) else None
    opened = None if db_path is None else _file_id(db_path)

    def health(request: Request) -> Response:
        if db_path is not None and opened is not None and _file_id(db_path) != opened:
            log.error("the database file %s was removed or replaced while the server runs: "
                      "what it stores now is lost when it stops", db_path)
            return JSONResponse(
                {"ok": False, "error": "database_gone", "message": "the database file was "
                 "removed or replaced while the server runs"},
                status_code=503,
            )
        # The last write's outcome, or a probe's when nothing was written for a while: a full
        # disk, a file gone read-only or a write lock held elsewhere answered "ok" while every
        # action was refused.
        problem = store.write_problem()
        if problem is not None:
            return JSONResponse(
                {"ok": False, "error": "database_unwritable",
                 "message": f"the database refuses writes: {problem}"},
                status_code=503,
            )
        return JSONResponse(
            {
                "ok": True,
                "protocol": PROTOCOL_VERSION,
                "rooms": len(manager.rooms),
                "connections": manager.connections,
            }
        )

    def metrics(request: Request) -> Response:
        if request.method == "POST" and not admin_allowed(request, config):
            return JSONResponse(
                {"error": "forbidden", "message": "resetting the measurements needs the admin "
                 "token, or a request from this machine when no token is set"},
                status_code=403,
            )
        times = sorted(manager.timings)
        out = {
            "rooms": len(manager.rooms),
            "connections": manager.connections,
            "actions_sampled": len(times),
            "action_handling_ms": {
                "p50": quantile_ms(times, 0.5),
                "p99": quantile_ms(times, 0.99),
                "max": quantile_ms(times, 1.0),
            },
            **monitor.summary(),
        }
        if request.method == "POST":  # start a new measurement window (benchmarks)
            manager.timings.clear()
            monitor.reset()
        return JSONResponse(out)

    def variants(request: Request) -> Response:
        out: dict[str, Any] = {}
        for v in rules.VARIANTS:
            out[v] = {
                "players": list(rules.players_allowed(v)),
                "options": rules.option_schema(v),
                "house_rules": rules.house_rule_schema(v),
            }
        return JSONResponse({"variants": out, "bot_levels": list(manager.levels)})

    def client_address(request: Request) -> str:
        return request.client.host if request.client else ""

    def refused(exc: ProtocolError) -> Response:
        return JSONResponse(
            {"error": exc.code, "message": exc.message, **exc.extra}, status_code=429
        )

    def room_info(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        try:
            room = manager.find_room(code, client_address(request))
        except ProtocolError as exc:
            if exc.code == "rate_limited":
                return refused(exc)
            return JSONResponse({"error": "no_room"}, status_code=404)
        return JSONResponse({"room": room.summary(manager.levels)})

    def finished_record(
        request: Request, pattern: re.Pattern[str]
    ) -> tuple[str, str | None, Any] | Response:
        """The room code, the game number (None: the latest) and the record of the finished
        game a path names, or the answer refusing it: the address's guesses of codes count, as
        for every lookup by code."""
        address = client_address(request)
        try:
            manager.check_code_lookup(address)
        except ProtocolError as exc:
            return refused(exc)
        m = pattern.match(str(request.path_params["name"]))
        if m is None:
            return JSONResponse({"error": "not_found"}, status_code=404)
        code, game = m.group(1).upper(), m.group(2)
        rec = store.get_record(code, None if game is None else int(game))
        if rec is None:
            # a finished game's record is public to whoever has its code: guessing counts
            manager.note_missed_code(address)
            return JSONResponse({"error": "not_found"}, status_code=404)
        return code, game, rec

    def record(request: Request) -> Response:
        found = finished_record(request, _RECORD_NAME)
        if isinstance(found, Response):
            return found
        code, game, rec = found
        name = f"{code}-{game}.json" if game else f"{code}.json"
        return JSONResponse(
            rec, headers={"Content-Disposition": f'attachment; filename="rummykit-{name}"'}
        )

    replays: collections.OrderedDict[tuple[str, int, int], bytes] = collections.OrderedDict()
    replays_lock = threading.Lock()  # the handler runs in Starlette's thread pool

    def replay(request: Request) -> Response:
        """One deal of a finished game, move by move with every hand face up (the record
        lists the decks already): ``GET /api/replay/{code}-{game}?deal=k``."""
        deal_text = request.query_params.get("deal", "1")
        if not deal_text.isascii() or not deal_text.isdigit() or len(deal_text) > 6:
            return JSONResponse(
                {"error": "bad_request", "message": f"deal must be a number, not {deal_text!r}"},
                status_code=400,
            )
        found = finished_record(request, _GAME_NAME)
        if isinstance(found, Response):
            return found
        code, game, rec = found
        key = (code, int(game or 0), int(deal_text))
        with replays_lock:
            body = replays.get(key)
            if body is not None:
                replays.move_to_end(key)
        if body is None:
            try:
                answer = replay_deal(rec, key[2])
            except InvalidArgument as exc:
                return JSONResponse({"error": "no_deal", "message": str(exc)}, status_code=404)
            seats = rec.get("seats")
            if isinstance(seats, list):
                # who played, as the game ended (a record stored before records named the
                # seats has none: the page then names the room's seats)
                answer["seats"] = seats
            body = json.dumps(answer, separators=(",", ":")).encode()
            with replays_lock:
                replays[key] = body
                while len(replays) > REPLAY_CACHE:
                    replays.popitem(last=False)
        return Response(body, media_type="application/json")

    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        host, scheme = websocket.headers.get("host"), str(websocket.scope.get("scheme", "ws"))
        if not origin_allowed(origin, host, config.allow_origins, scheme):
            await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
            return
        conn = Connection(config.max_queue, websocket.client.host if websocket.client else "")
        await websocket.accept()
        if not manager.admit(conn):
            # Accepted, so that the page can tell its player why, then closed at once.
            with contextlib.suppress(Exception):
                await websocket.send_json(
                    error_message(
                        "too_many_connections",
                        f"too many connections from this address "
                        f"({config.max_connections_per_address})",
                    )
                )
                await websocket.close(code=1008)
            return
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
                    conn.send(error_message("rate_limited", "too many messages", message_id(text)))
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
                    mid = None if msg is None else msg.get("id")
                    conn.send(error_message("internal", "internal server error", mid))
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
        Route("/api/metrics", metrics, methods=["GET", "POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/records/{name}", record),
        Route("/api/replay/{name}", replay),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", app=StaticFiles(directory=str(WEB_DIR)), name="static"))
    names = [config.host, *own_names(), *config.allow_hosts]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        # outermost first: the host check's refusals get the headers too
        middleware=[Middleware(SecurityHeaders), Middleware(HostCheck, names=names)],
    )
    app.state.manager = manager
    app.state.storage = store
    return app
