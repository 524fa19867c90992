"""Running ``rummykit serve`` in production: the database it is given, what it says at start,
and how it stops (docs/server.md, Running it)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.storage import APPLICATION_ID, SCHEMA_VERSION, SQLiteStorage
from tests.server_support import ROOT, Client, ServerProc, free_port

#: Enough for the server to start (or refuse) on a loaded machine; only a hang reaches it.
START = 60


def _serve(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``rummykit serve`` expected to refuse at once."""
    cmd = [sys.executable, "-m", "rummykit", "serve", "--port", str(free_port()), *args]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=START, env=env, cwd=cwd)


def _refused(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def _tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM sqlite_master ORDER BY name")]


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    # It used to get rummykit's four tables beside its own, and its journal switched to WAL.
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    line = _refused(_serve("--db", str(path)))
    assert "another program's SQLite database (tables customers)" in line
    assert _tables(path) == ["customers"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SQLiteStorage(str(path)).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    line = _refused(_serve("--db", str(path)))
    assert f"--db {path}: written by a newer rummykit (schema version {SCHEMA_VERSION + 1}" in line


def test_a_database_of_rummykit_before_versions_is_upgraded_with_its_rooms(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    store = SQLiteStorage(str(path))
    store.save_room("ABCDEF", {"code": "ABCDEF"})
    store.close()
    with sqlite3.connect(path) as db:  # as rummykit wrote it before the version was kept
        db.execute("PRAGMA application_id=0")
        db.execute("PRAGMA user_version=0")
    again = SQLiteStorage(str(path))
    assert again.load_rooms() == [{"code": "ABCDEF"}]
    again.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_database_in_a_directory_it_cannot_write_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    SQLiteStorage(str(folder / "games.db")).close()
    folder.chmod(0o555)
    try:
        cmd = [sys.executable, "-m", "rummykit", "serve", "--port", str(free_port()),
               "--db", str(folder / "games.db")]
        if os.geteuid() == 0:
            # root writes anywhere: drop the capability that lets it
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv")
            caps = "-dac_override,-dac_read_search"
            cmd = [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=START,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    finally:
        folder.chmod(0o755)
    # It said "attempt to write a readonly database" of a file anybody may write.
    assert f"the directory {folder} is not writable" in _refused(done)


def test_the_start_line_names_the_database_file_in_full(tmp_path: Path) -> None:
    # Under a service manager the working directory is not where one looks for the file.
    cmd = [sys.executable, "-m", "rummykit", "serve", "--port", "0", "--db", "games.db"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(START)
    assert line.startswith("rummykit server on http://127.0.0.1:"), line
    assert line.rstrip().endswith(f"(database {tmp_path / 'games.db'})"), line


def test_the_start_line_on_every_address_gives_addresses_one_can_open(tmp_path: Path) -> None:
    # It said http://0.0.0.0:PORT/, which Chrome refuses and Windows cannot reach.
    cmd = [sys.executable, "-m", "rummykit", "serve", "--host", "0.0.0.0", "--port", "0",
           "--db", str(tmp_path / "any.db")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = line.split()[3]
        assert url.startswith("http://127.0.0.1:"), line
        port = url.rsplit(":", 1)[1].rstrip("/")
        name = socket.gethostname().strip().lower()
        assert f"from other machines http://{name}:{port}/;" in line, line
        with urllib.request.urlopen(f"{url}api/health", timeout=START) as answer:
            assert json.load(answer)["ok"] is True
    finally:
        proc.terminate()
        proc.wait(START)


def test_a_second_ctrl_c_lets_the_shutdown_finish(tmp_path: Path) -> None:
    server = ServerProc(tmp_path / "stop.db").start()

    async def main() -> int | None:
        client = await Client("p").connect(server.ws)
        await client.request("create", variant="rummy", players=2, options={})
        assert server.proc is not None
        server.proc.send_signal(signal.SIGINT)
        await asyncio.sleep(0.05)  # two signals at once would be delivered as one
        server.proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(client.closed.wait(), START)
        return int(client.ws.close_code)

    try:
        close_code = asyncio.run(main())
        assert server.proc is not None
        server.proc.wait(START)
    finally:
        server.stop()
    log = server.log.read_text()
    # uvicorn forced the exit: the application's shutdown was skipped, with a traceback
    assert "Traceback" not in log and "ERROR" not in log, log
    assert "already stopping" in log
    assert close_code == 1012  # "service restart": the page reconnects and resumes
    # the last checkpoint ran: everything is in the database file
    wal = tmp_path / "stop.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(tmp_path / "stop.db") as db:
        assert db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 1


def test_health_says_when_the_database_file_is_gone(tmp_path: Path) -> None:
    # SQLite goes on writing to the removed file; health said ok until the restart lost it all.
    server = ServerProc(tmp_path / "gone.db").start()
    try:
        assert server.get("/api/health")[0] == 200
        (tmp_path / "gone.db").unlink()
        status, body = server.get("/api/health")
    finally:
        server.stop()
    assert status == 503, body
    assert json.loads(body)["error"] == "database_gone"
    assert "was removed or replaced" in server.log.read_text()


def test_info_logs_the_settings_but_not_the_admin_token(tmp_path: Path) -> None:
    secret = "s3cret-admin-token-0123456789"
    server = ServerProc(tmp_path / "set.db", "--log-level", "info", "--admin-token", secret)
    server.start().stop()
    log = server.log.read_text()
    lines = [line for line in log.splitlines() if "INFO settings: " in line]
    assert len(lines) == 1, log
    assert f"db={tmp_path / 'set.db'}, durable=False" in lines[0]
    assert "admin_token=set" in lines[0]
    assert secret not in log


def test_debug_logs_carry_no_seat_token_nor_room_code(tmp_path: Path) -> None:
    server = ServerProc(tmp_path / "debug.db", "--log-level", "debug").start()

    async def main() -> tuple[str, str]:
        client = await Client("p").connect(server.ws)
        await client.request("create", variant="rummy", players=2, options={})
        await client.request("sit", seat=0, name="Alice")
        await client.close()
        again = await Client("q").connect(server.ws)
        assert client.room is not None and client.token is not None
        reply = await again.request("resume", room=client.room, token=client.token)
        assert reply["type"] == "seated", reply
        await again.close()
        return client.room, client.token

    try:
        room, token = asyncio.run(main())
    finally:
        server.stop()
    log = server.log.read_text()
    # uvicorn's debug logged every frame, cut to its first 48 and last 24 characters
    assert token[-12:] not in log and room not in log, log


def _started_with_sighup(handler: Any, db: Path) -> ServerProc:
    """A server started with SIGHUP's disposition ``handler`` (inherited through exec: the
    default, or ignored as under `nohup`), whatever the test runner's own is."""
    before = signal.signal(signal.SIGHUP, handler)
    try:
        return ServerProc(db).start()
    finally:
        signal.signal(signal.SIGHUP, before)


def test_the_terminal_closing_stops_the_server_as_sigterm_does(tmp_path: Path) -> None:
    """SIGHUP killed the server with no shutdown: pages saw the connection drop, not a
    restart, and the database's log was left unmerged."""
    server = _started_with_sighup(signal.SIG_DFL, tmp_path / "hup.db")

    async def main() -> int:
        client = await Client("p").connect(server.ws)
        await client.request("create", variant="rummy", players=2, options={})
        assert server.proc is not None
        server.proc.send_signal(signal.SIGHUP)
        await asyncio.wait_for(client.closed.wait(), START)
        return int(client.ws.close_code)

    try:
        close_code = asyncio.run(main())
        assert server.proc is not None
        status = server.proc.wait(START)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log
    assert close_code == 1012  # "service restart": the page reconnects and resumes
    assert status == -signal.SIGHUP  # ended by the signal it got, as a shell expects
    wal = tmp_path / "hup.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(tmp_path / "hup.db") as db:
        assert db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 1


def test_under_nohup_the_server_outlives_its_terminal(tmp_path: Path) -> None:
    server = _started_with_sighup(signal.SIG_IGN, tmp_path / "nohup.db")
    try:
        assert server.proc is not None
        server.proc.send_signal(signal.SIGHUP)
        with pytest.raises(subprocess.TimeoutExpired):
            server.proc.wait(1)
        with urllib.request.urlopen(server.http + "/api/health", timeout=START) as r:
            assert r.status == 200
    finally:
        server.stop()


def test_no_answer_names_the_server_software(tmp_path: Path) -> None:
    """uvicorn's ``server: uvicorn`` told whoever asked which software (and so which known
    flaws) answered; refusals too."""
    server = ServerProc(tmp_path / "name.db").start()
    try:
        for path, status in (("/", 200), ("/api/health", 200), ("/records/nonsense", 404)):
            try:
                with urllib.request.urlopen(server.http + path, timeout=5) as answer:
                    got, headers = answer.status, answer.headers
            except urllib.error.HTTPError as refused:
                got, headers = refused.code, refused.headers
            assert got == status and headers.get("server") is None, (path, dict(headers))
    finally:
        server.stop()
