"""Running ``rummykit serve`` in production: the database it is given (docs/server.md)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from rummykit.server.storage import APPLICATION_ID, SCHEMA_VERSION, SQLiteStorage
from tests.server_support import ROOT, free_port

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
