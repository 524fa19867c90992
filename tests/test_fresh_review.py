"""What a fresh look at the day's server changes found, each kept: the health check's probe
run once for the requests that arrive while it waits, and a write refused for its own sake (a
broken constraint) not taken for a database that refuses writes."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.storage import SQLiteStorage


class Locked(SQLiteStorage):
    """A database whose write lock another process holds while ``locked``: each commit then
    waits (as SQLite's busy timeout does) until ``free`` is set, and fails. Counts the commits
    tried."""

    locked = False
    tried = 0

    def __init__(self, path: str) -> None:
        self.free = threading.Event()
        super().__init__(path)

    def _commit(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self.tried += 1
        if self.locked:
            with self._lock:  # the connection's, held while SQLite waits out the lock
                self.free.wait(10)
            raise sqlite3.OperationalError("database is locked")
        super()._commit(statements)


def _stale(storage: SQLiteStorage) -> None:
    """Nothing written for a minute: the next health check probes."""
    assert storage._wrote is not None
    storage._wrote = (storage._wrote[0] - 60, None)


def test_health_checks_arriving_during_a_probe_wait_for_it(tmp_path: Path) -> None:
    """Health checks (public, run in Starlette's threads) that found no recent write each
    probed, one after the other: with the write lock held elsewhere each held the storage's
    lock for the busy timeout, and the games' writes waited behind every one of them."""
    storage = Locked(str(tmp_path / "locked.db"))
    try:
        _stale(storage)
        storage.locked = True
        tried = storage.tried
        answers: list[str | None] = []
        threads = [threading.Thread(target=lambda: answers.append(storage.write_problem()))
                   for _ in range(6)]
        for th in threads:
            th.start()
        # the first probe waits on the lock; give the others the time to arrive (without the
        # fix they all try a commit of their own meanwhile)
        deadline = time.monotonic() + 2
        while storage.tried < tried + 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        storage.free.set()
        for th in threads:
            th.join(10)
        assert answers == ["database is locked"] * 6
        assert storage.tried == tried + 1  # one probe for all six
        storage.locked = False
    finally:
        storage.close()


def test_a_write_refused_for_its_own_sake_is_no_unwritable_database(tmp_path: Path) -> None:
    """A write that breaks a constraint (a bug of the caller's) made ``/api/health`` answer
    503 *the database refuses writes: UNIQUE constraint failed* while it took every other
    write: a monitor would restart a healthy server."""
    storage = SQLiteStorage(str(tmp_path / "unique.db"))
    try:
        storage._tx([("CREATE TABLE t (k INTEGER PRIMARY KEY)", ()),
                     ("INSERT INTO t VALUES (1)", ())])
        with pytest.raises(sqlite3.IntegrityError):
            storage._tx([("INSERT INTO t VALUES (1)", ())])
        assert storage.write_problem() is None
    finally:
        storage.close()
