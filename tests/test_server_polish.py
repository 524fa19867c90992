"""Loose ends of the server: the seats' names in a finished game's record, a health check that
says whether the database takes writes, a bot's refused answer logged once, the scheme in the
WebSocket origin check, and Ctrl-C while ``rummykit serve`` is still starting."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
import websockets

from rummykit.server.app import create_app
from rummykit.server.config import ServerConfig
from rummykit.server.rooms import OVER, Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from rummykit.server.websec import origin_allowed
from tests.cli_support import cli
from tests.server_support import ROOT, ServerProc, free_port, hard_bot_turn_logs, sent

CONFIG: dict[str, Any] = {
    "bot_pool": "thread", "offload_views": False, "bot_delay": 0, "verify_views": True,
}


def _client(app: Any) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def _finished_game(db: Path) -> str:
    """A room of Ana and a medium bot whose first game is over (Indian rummy scored by
    points: the first drop ends it); its code. Ana drops, or the bot does."""
    storage = SQLiteStorage(str(db))
    manager = RoomManager(storage, ServerConfig(**CONFIG))
    manager.bots.choose = lambda view, history, level, seed: "drop"

    async def main() -> str:
        ana = Connection()
        manager.handle(ana, {"type": "create", "id": 1, "variant": "indian", "players": 2,
                             "options": {"format": "points"}})
        room = ana.room
        assert room is not None
        manager.handle(ana, {"type": "sit", "id": 2, "seat": 0, "name": "Ana"})
        manager.handle(ana, {"type": "add_bot", "id": 3, "seat": 1, "level": "medium"})
        game = room.game
        assert game is not None
        if game.to_move == 0:
            manager.handle(ana, {"type": "action", "id": 4, "version": game.version,
                                 "action": "drop"})
        for _ in range(1000):
            if room.status == OVER:
                break
            await asyncio.sleep(0.01)
        assert room.status == OVER
        assert any(m["type"] == "game_over" for m in sent(ana))
        manager.close()
        return room.code

    try:
        return asyncio.run(main())
    finally:
        storage.close()


SEATS = [
    {"seat": 0, "kind": "human", "name": "Ana"},
    {"seat": 1, "kind": "bot", "name": "Bot (medium)", "level": "medium"},
]


def test_a_finished_game_keeps_its_seats_names(tmp_path: Path) -> None:
    """A record names no one: the look back at a game named the seats from the room as it was
    when asked, and a downloaded record said nothing of who played it."""
    db = tmp_path / "names.db"
    code = _finished_game(db)
    storage = SQLiteStorage(str(db))
    record = storage.get_record(code, 1)
    assert record is not None and record["seats"] == SEATS
    with _client(create_app(ServerConfig(db=str(db), **CONFIG), storage)) as http:
        # the app closes the storage at its end
        got = http.get(f"/records/{code}-1.json")
        assert got.status_code == 200 and got.json()["seats"] == SEATS
        got = http.get(f"/api/replay/{code}-1?deal=1")
        assert got.status_code == 200 and got.json()["seats"] == SEATS
    # the command line reads such a record, naming the seats (tests/test_small_ends.py); the
    # same record without the names replays the same moves
    path, bare = tmp_path / "named.json", tmp_path / "bare.json"
    path.write_text(json.dumps(record))
    bare.write_text(json.dumps({k: v for k, v in record.items() if k != "seats"}))
    for args in ([], ["--json"], ["--deal", "1"], ["--at", "1"]):
        status, out, err = cli(["replay", str(path), *args])
        assert status == 0 and err == "" and "Traceback" not in out
        plain = cli(["replay", str(bare), *args])
        assert plain[0] == 0 and plain[2] == ""
        if args == ["--json"]:
            assert out == plain[1]
        else:
            names = [str(x["name"]) for x in SEATS]
            assert any(n in out for n in names) and not any(n in plain[1] for n in names)


def test_a_record_stored_before_records_named_seats_replays_without_them(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    code = _finished_game(db)
    with sqlite3.connect(db) as old:  # the record as this server stored it before
        (text,) = old.execute("SELECT record FROM games WHERE code = ?", (code,)).fetchone()
        doc = json.loads(text)
        del doc["seats"]
        old.execute("UPDATE games SET record = ? WHERE code = ?", (json.dumps(doc), code))
    storage = SQLiteStorage(str(db))
    with _client(create_app(ServerConfig(db=str(db), **CONFIG), storage)) as http:
        got = http.get(f"/api/replay/{code}-1")
        assert got.status_code == 200
        assert "seats" not in got.json()  # the page names the room's seats
        assert got.json()["frames"]


# -- the health check ------------------------------------------------------------------------


class Full(SQLiteStorage):
    """A database that refuses every commit while ``full`` (a full disk); counts the commits
    tried."""

    full = False
    tried = 0

    def _commit(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self.tried += 1
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        super()._commit(statements)


def test_health_says_when_the_database_refuses_writes(tmp_path: Path) -> None:
    """``/api/health`` answered ok on a full disk, every action refused meanwhile."""
    db = tmp_path / "health.db"
    storage = Full(str(db))
    # no "still running" note every 5 s: the writes here are the test's own
    config = ServerConfig(db=str(db), alive_interval=3600, **CONFIG)
    with _client(create_app(config, storage)) as http:
        assert http.get("/api/health").json()["ok"] is True
        # a recent write vouches for the database: no write of the health check's own
        tried = storage.tried
        for _ in range(3):
            assert http.get("/api/health").status_code == 200
        assert storage.tried == tried

        storage.full = True
        with pytest.raises(sqlite3.OperationalError):
            storage.mark_alive(1)
        got = http.get("/api/health")
        assert got.status_code == 503
        assert got.json() == {
            "ok": False, "error": "database_unwritable",
            "message": "the database refuses writes: database or disk is full",
        }
        assert storage.tried == tried + 1  # the failure was recent: no probe

        # the disk has room again: the next probe (once the failure is not recent) says so
        storage.full = False
        assert storage._wrote is not None
        storage._wrote = (storage._wrote[0] - 60, storage._wrote[1])
        assert http.get("/api/health").status_code == 200
        assert storage.tried == tried + 2

        # nothing written for a while: a probe finds the disk full
        storage.full = True
        assert storage._wrote is not None
        storage._wrote = (storage._wrote[0] - 60, None)
        got = http.get("/api/health")
        assert got.status_code == 503 and got.json()["error"] == "database_unwritable"
        assert storage.tried == tried + 3
        assert http.get("/api/health").status_code == 503
        assert storage.tried == tried + 3  # one probe, not one per request
        storage.full = False


# -- a bot's refused answer ------------------------------------------------------------------


def test_a_refused_bot_answer_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The hard bot answers a move rummy has not, and the medium bot standing in for it fails:
    the refusal was logged with the medium move to come, then again with the fallback move, as
    if the bot had been refused twice."""
    storage = SQLiteStorage(str(tmp_path / "refused.db"))
    manager = RoomManager(storage, ServerConfig(**CONFIG))
    manager.bots.choose = lambda view, history, level, seed: "declare"  # no such move in rummy
    decide = manager.bots.decide

    async def medium_fails(game: Any, seat: int, level: str, *args: Any, **kw: Any) -> str:
        if level == "medium":
            raise RuntimeError("the medium bot broke")
        return await decide(game, seat, level, *args, **kw)

    manager.bots.decide = medium_fails  # type: ignore[method-assign]
    messages = hard_bot_turn_logs(manager, storage, caplog)
    refusals = [m for m in messages if "'declare' refused" in m]
    failures = [m for m in messages if "the medium bot failed; playing the fallback move" in m]
    # each of the turn's moves (a draw, a discard): one refusal, one failure of the medium bot
    assert refusals and len(refusals) == len(failures), messages
    assert all("playing the medium move" in m for m in refusals), messages


# -- the origin check ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "scheme", "ok"),
    [
        ("http://games.example.org", "ws", True),
        ("https://games.example.org", "wss", True),
        ("http://games.example.org", "http", True),
        ("https://games.example.org", "https", True),
        # a page over plain http (a network on the way may have written it) is not the https
        # server's own
        ("http://games.example.org", "wss", False),
        ("http://games.example.org", "https", False),
        # an https page reaching a plain server: a proxy that ends TLS without saying so
        ("https://games.example.org", "ws", True),
        ("https://games.example.org", "http", True),
        ("HTTPS://Games.Example.org", "WSS", True),
        ("ftp://games.example.org", "ws", False),
        # no scheme to compare with: host and port alone, as before
        ("https://games.example.org", None, True),
        ("http://other.example.org", "ws", False),
    ],
)
def test_the_origin_check_compares_the_scheme(origin: str, scheme: str | None, ok: bool) -> None:
    assert origin_allowed(origin, "games.example.org", [], scheme) is ok
    # no Origin (a script, a bot) and a listed origin pass whatever the scheme
    assert origin_allowed(None, "games.example.org", [], scheme)
    assert origin_allowed(origin, "games.example.org", [origin], scheme)


def _handshake(http: Any, url: str, origin: str) -> bool:
    """Whether the server accepts a WebSocket from a page of ``origin``."""
    from starlette.websockets import WebSocketDisconnect

    try:
        with http.websocket_connect(url, headers={"Origin": origin}) as ws:
            return str(ws.receive_json()["type"]) == "welcome"
    except WebSocketDisconnect:
        return False


def test_a_page_of_plain_http_opens_no_secure_websocket(tmp_path: Path) -> None:
    db = tmp_path / "origin.db"
    config = ServerConfig(db=str(db), **CONFIG)
    with _client(create_app(config, SQLiteStorage(str(db)))) as http:
        plain, secure = "ws://127.0.0.1:8000/ws", "wss://127.0.0.1:8000/ws"
        assert _handshake(http, plain, "http://127.0.0.1:8000")
        assert _handshake(http, secure, "https://127.0.0.1:8000")
        assert not _handshake(http, secure, "http://127.0.0.1:8000")
        assert _handshake(http, plain, "https://127.0.0.1:8000")


def test_a_proxy_that_ends_tls_says_so_with_x_forwarded_proto(tmp_path: Path) -> None:
    """uvicorn believes ``X-Forwarded-Proto`` from 127.0.0.1: behind a proxy that says the
    connection is secure the page of https passes and one of http does not; without the header
    both pass, as before."""
    server = ServerProc(tmp_path / "proxy.db").start()
    own = f"127.0.0.1:{server.port}"

    async def opens(origin: str, proto: str | None) -> bool:
        headers = {} if proto is None else {"X-Forwarded-Proto": proto}
        try:
            ws = await websockets.connect(server.ws, origin=origin,  # type: ignore[arg-type]
                                          additional_headers=headers)
        except websockets.InvalidStatus as exc:
            assert exc.response.status_code == 403
            return False
        await ws.close()
        return True

    async def main() -> None:
        assert await opens(f"https://{own}", "https")
        assert not await opens(f"http://{own}", "https")
        assert await opens(f"http://{own}", None)
        assert await opens(f"https://{own}", None)

    try:
        asyncio.run(main())
    finally:
        server.stop()
    assert server.errors_logged() == ""


# -- Ctrl-C while the command starts -----------------------------------------------------------

#: Put first on the path of a command started by the test: when the command imports the module
#: named in the environment, the process sends itself SIGINT, as a Ctrl-C at that moment would.
INTERRUPTER = '''
import os, signal, sys

class Interrupt:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == os.environ["RUMMYKIT_TEST_INTERRUPT_AT"]:
            sys.meta_path.remove(Interrupt)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt)
'''

def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: What pip writes as the ``rummykit`` script.
SCRIPT = """import sys
from rummykit.cli.main import main
sys.exit(main())
"""


@pytest.mark.parametrize("how", ["script", "-m rummykit", "-m rummykit.cli.main"])
@pytest.mark.parametrize(
    "module",
    [
        "rummykit.rules",  # the package's own imports, before main runs
        "rummykit.cli.serve",  # the subcommands' modules, read to build the parser
        "uvicorn",  # the server's, once serve runs (main answered this one already)
    ],
)
def test_ctrl_c_while_the_command_starts_ends_it_quietly(
    tmp_path: Path, how: str, module: str
) -> None:
    (tmp_path / "sitecustomize.py").write_text(INTERRUPTER)
    (tmp_path / "rummykit").write_text(SCRIPT)
    start = [str(tmp_path / "rummykit")] if how == "script" else how.split()
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}",
               RUMMYKIT_TEST_INTERRUPT_AT=module)
    proc = subprocess.Popen(
        [sys.executable, *start, "serve", "--port", str(free_port()), "--db",
         str(tmp_path / "never.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        # as from a terminal: a test run in the background of a shell (``pytest &``, nohup)
        # ignores SIGINT, which the command then inherits and keeps (as it should), and the
        # server ran on until the test's timeout
        preexec_fn=_default_sigint,
    )
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # the interrupt never came: the server runs
            proc.kill()
            proc.wait()
    assert (proc.returncode, out, err) == (130, "", "")
    assert not (tmp_path / "never.db").exists()


def test_a_program_importing_the_package_keeps_its_ctrl_c() -> None:
    """Only the command answers Ctrl-C so while it starts: ``import rummykit`` elsewhere (a
    script, a notebook) keeps Python's KeyboardInterrupt."""
    code = ("import signal, rummykit; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "True", "")
