"""Helpers of the server tests: a real server process on loopback, a WebSocket client that keeps
every message it received, and a simple player that plays from its own view only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

from rummykit.cards import JOKER_RANK, Card, parse_cards
from rummykit.melds import parse_meld, rummy_penalty
from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from rummykit.solver import least_penalty

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def thread_rooms(db: Path) -> Iterator[RoomManager]:
    """A room manager on a SQLite file, its bots thinking in threads: the server's rooms
    without a process or a socket, closed after use."""
    storage = SQLiteStorage(str(db))
    rooms = RoomManager(storage, ServerConfig(bot_pool="thread"))
    try:
        yield rooms
    finally:
        rooms.close()
        storage.close()


def sent(conn: Connection) -> list[dict[str, Any]]:
    """The messages queued for a connection since the last call."""
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The most a whole game played through a test server (autoplay) may take. It lasts a few
#: hundred actions, about 10 s on an idle machine but over a minute under heavy load (155 ms an
#: action with 16 busy processes beside it; ad-hoc timing, not kept), and its length is the
#: shuffle's: a bound of 120 s ran out under load. A game that stalls is caught sooner, by
#: autoplay's wait for each message.
WHOLE_GAME = 900


class ServerProc:
    """``rummykit serve`` in a subprocess (so it can be killed with SIGKILL)."""

    def __init__(self, db: Path, *args: str) -> None:
        self.db = db
        self.args = list(args)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProc:
        cmd = [
            sys.executable,
            "-m",
            "rummykit.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            "--bot-delay",
            "0",
            "--next-deal-pause",
            "0",
            "--away-delay",
            "0",
            "--bot-pool",
            "thread",
            "--log-level",
            "warning",
            "--verify-views",
            "--rate",
            "1000",
            "--burst",
            "1000",
            *self.args,
        ]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        out = self.log.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        # A server answers in about 1.5 s on an idle machine, 12 s with 16 busy processes
        # beside it (ad-hoc timing, not kept): the deadline only ends a server that never does.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.http + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.http + path, timeout=5) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def errors_logged(self) -> str:
        text = self.log.read_text() if self.log.exists() else ""
        return "\n".join(
            line for line in text.splitlines() if "Traceback" in line or "ERROR" in line
        )


class Client:
    """A WebSocket client that records every message it receives (for the leak audit)."""

    def __init__(self, name: str = "client") -> None:
        self.name = name
        self.log: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.times: list[float] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.room: str | None = None
        self.state: dict[str, Any] | None = None
        self.closed = asyncio.Event()
        self._n = 0

    async def connect(self, url: str, **kw: Any) -> Client:
        self.ws = await websockets.connect(url, max_size=2**22, **kw)
        self.reader = asyncio.ensure_future(self._read())
        welcome = await self.recv("welcome")
        assert welcome["protocol"] == 1
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.raw.append(text)
                self.times.append(time.monotonic())
                msg = json.loads(text)
                self.log.append(msg)
                if msg["type"] == "state":
                    self.state = msg
                elif msg["type"] == "seated":
                    self.seat, self.token, self.room = msg["seat"], msg["token"], msg["room"]
                elif msg["type"] == "room":
                    self.room = msg["room"]
                self.queue.put_nowait(msg)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    def next_id(self) -> str:
        self._n += 1
        return f"{self.name}-{self._n}"

    async def send(self, type: str, **fields: Any) -> str:
        mid = fields.pop("id", None) or self.next_id()
        await self.ws.send(json.dumps({"type": type, "id": mid, **fields}))
        return str(mid)

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def recv(
        self, type: str | None = None, timeout: float = 10, **match: Any
    ) -> dict[str, Any]:
        """The next message of ``type`` (and fields equal to ``match``); others are skipped."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {type} {match} message")
            msg = await asyncio.wait_for(self.queue.get(), left)
            if type is not None and msg["type"] != type:
                continue
            if all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def request(self, type: str, **fields: Any) -> dict[str, Any]:
        """Send and wait for the reply with that id (or the state that acks it, or an error)."""
        mid = await self.send(type, **fields)
        end = time.monotonic() + 10
        while True:
            msg = await self.recv(None, timeout=max(0.01, end - time.monotonic()))
            if msg.get("id") == mid or msg.get("ack") == mid:
                return msg

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader


# -- a simple player working from its own view ----------------------------------------------


def _key(c: Card) -> tuple[int, int]:
    return (-1, 0) if c.rank == JOKER_RANK else (rummy_penalty(c), c.rank)


def choose(view: dict[str, Any], refused: set[str], turns: int) -> str:
    """An action for the seat to move, from its view only (no hidden card)."""
    turn = view["turn"]
    hand = list(parse_cards(" ".join(view["hand"]))) if view.get("hand") else []
    can = set(turn["can"])
    me = view["seat"]
    candidates: list[str] = []
    decl = view.get("declaration") or {}
    if decl.get("valid") and decl.get("action"):
        candidates.append(decl["action"])
    if "draw" in can:
        candidates.append("draw")
    opening = view.get("opening") or {}
    meter = opening.get("meter") or {}
    opened = view["seats"][me]["opened"]
    if not opened and meter.get("enough") and meter.get("action"):
        candidates.append(meter["action"])
    if view["variant"] == "indian" and turns > 40 and "drop" in can:
        candidates.append("drop")
    left: list[Card] = hand
    if hand:
        try:
            arr = least_penalty(hand)
            left = list(arr.left)
            if opened and "meld" in can:
                candidates.extend(f"meld {m}" for m in arr.melds if len(arr.left) >= 1)
        except Exception:
            left = hand
    if opened and "layoff" in can:
        for m in view["table"]:
            try:
                meld = parse_meld(" ".join(m["cards"]))
            except Exception:
                continue
            for c in hand:
                for end in meld.layoff_ends(c):
                    candidates.append(f"layoff {m['number']} {c}" + (f" {end}" if end else ""))
    if "discard" in can:
        pool = sorted(left or hand, key=_key, reverse=True) + sorted(hand, key=_key, reverse=True)
        candidates.extend(f"discard {c}" for c in pool)
    for a in candidates:
        if a not in refused:
            return a
    return "draw"


async def autoplay(client: Client, stop_at_game_over: bool = True, max_actions: int = 5000) -> int:
    """Play this client's seat until the game is over; returns the number of actions sent."""
    sent = 0
    refused: set[str] = set()
    last_version = -1
    turns = 0
    pending: tuple[str, str, int] | None = None
    while True:
        msg = await client.recv(None, timeout=60)
        t = msg["type"]
        if t == "game_over" and stop_at_game_over:
            return sent
        if t == "error" and msg["code"] == "rate_limited":
            raise AssertionError("rate limited")
        if t == "error" and pending is not None and msg.get("id") == pending[0]:
            assert msg["code"] in ("illegal_action", "stale_version"), msg
            refused.add(pending[1])
            pending = None
            state = client.state
        elif t == "state":
            state = msg
            if pending is not None and msg.get("ack") == pending[0]:
                pending = None
            if pending is not None:
                continue
        else:
            continue
        if state is None or pending is not None:
            continue
        view = state["view"]
        turn = view.get("turn")
        if not turn or turn["seat"] != client.seat or view["over"]:
            continue
        if state["version"] != last_version:
            if turn["phase"] == "draw":
                turns += 1
            refused = set() if turn["phase"] == "draw" else refused
            last_version = state["version"]
        action = choose(view, refused, turns)
        mid = await client.send("action", version=state["version"], action=action)
        pending = (mid, action, state["version"])
        sent += 1
        if sent > max_actions:
            raise AssertionError("game did not end")


async def make_room(
    ws_url: str,
    variant: str,
    players: int,
    humans: int,
    options: dict[str, Any] | None = None,
    level: str = "easy",
) -> tuple[str, list[Client]]:
    """A room with ``humans`` seated clients (seats 0..humans-1) and bots in the other seats;
    returns the code and the clients once the game has started."""
    clients = [await Client(f"p{i}").connect(ws_url) for i in range(humans)]
    host = clients[0]
    reply = await host.request("create", variant=variant, players=players, options=options or {})
    assert reply["type"] == "room", reply
    code = reply["room"]
    for i, c in enumerate(clients):
        if i:
            r = await c.request("join", room=code)
            assert r["type"] == "room", r
        r = await c.request("sit", seat=i, name=f"P{i}")
        assert r["type"] == "seated", r
    for s in range(humans, players):
        await host.send("add_bot", seat=s, level=level)
    for c in clients:
        await c.recv("state", timeout=20)
        # put the first state back for autoplay
        assert c.state is not None
        c.queue.put_nowait(c.state)
    return code, clients


def unfinished_room(ws_url: str) -> str:
    """The code of a two-person ``rummy`` room whose first game has started, its people gone."""

    async def main() -> str:
        code, clients = await make_room(ws_url, "rummy", 2, 2)
        for c in clients:
            await c.close()
        return code

    return asyncio.run(main())


class HeldBot:
    """Stands in for the bots' ``choose``: notes the version of each view it is asked about,
    then answers ``draw`` once released, so a test can act while a bot is thinking."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.release = threading.Event()

    def __call__(self, view: dict[str, Any], history: list[Any], level: str,
                 seed: int | None) -> str:
        self.asked.append(view["version"])
        self.release.wait(30)
        return "draw"


def bot_to_move(manager: Any, level: str) -> tuple[Any, Any, Any]:
    """In a new two-seat rummy room of ``manager`` (a ``RoomManager``), Ana sits at seat 1 and
    a bot of ``level`` at seat 0; if Ana starts she draws and discards, so the bot is to move
    (or thinking already). Returns her connection, the room and its game."""
    from rummykit.server.rooms import Connection

    conn = Connection()
    manager.handle(
        conn, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}}
    )
    room = manager.rooms[next(iter(manager.rooms))]
    manager.handle(conn, {"type": "sit", "id": 2, "seat": 1, "name": "Ana"})
    manager.handle(conn, {"type": "add_bot", "id": 3, "seat": 0, "level": level})
    game = room.game
    assert game is not None
    if game.to_move == 1:
        manager.handle(conn, {"type": "action", "id": 4, "version": game.version,
                              "action": "draw"})
        card = game.view(1)["hand"][0]
        manager.handle(conn, {"type": "action", "id": 5, "version": game.version,
                              "action": f"discard {card}"})
    return conn, room, game


def refuse_start_once(storage: Any) -> None:
    """Make ``storage.start_game`` refuse its next call as a full disk does, then work again."""
    real = storage.start_game
    refusals = [1]

    def once(*args: Any, **kw: Any) -> None:
        if refusals:
            refusals.pop()
            raise sqlite3.OperationalError("database or disk is full")
        real(*args, **kw)

    storage.start_game = once


def hard_bot_turn_logs(manager: Any, storage: Any, caplog: Any) -> list[str]:
    """Play a hard bot's whole turn in a new rummy room of ``manager`` (``bot_to_move``), then
    close the manager and ``storage``; the server's warnings logged meanwhile."""
    import logging

    async def main() -> None:
        _, _, game = bot_to_move(manager, "hard")
        for _ in range(1000):  # the bot's whole turn: a draw and a discard
            if game.to_move == 1:
                break
            await asyncio.sleep(0.01)
        assert game.to_move == 1, "the bot did not finish its turn"
        manager.close()

    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        asyncio.run(main())
    storage.close()
    return [r.getMessage() for r in caplog.records]
