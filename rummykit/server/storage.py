"""Storage of rooms, games and actions: one small interface and its SQLite implementation.

The database is the source of truth. A room is stored as

- its *room state*: a JSON document with the options, the seats (token hashes, bots, away
  marks), the status, the clock deadline and the pause before the next deal — rewritten in the
  same transaction as every accepted action;
- for each game of the room: the record head (``variant``, ``players``, ``options`` …), the
  header of every deal (the record's deal without its actions: dealer, deck, restocks) and
  the accepted actions of each deal in order.

``load_game`` puts those back together into a game record (docs in notation.md) that
``Game.from_record`` replays to the exact state. A finished game's full record is kept for
download.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from typing import Any, Protocol

try:
    import fcntl
except ImportError:  # not on Windows: a second server there is not refused
    fcntl = None  # type: ignore[assignment]

from rummykit.errors import RummyError

JSON = dict[str, Any]

log = logging.getLogger("rummykit.server")


class Storage(Protocol):
    """What the server needs from a database. Every method is synchronous and durable on return
    (the data survives a ``kill -9`` of the server process once the call returned)."""

    def load_rooms(self) -> list[JSON]:
        """Every stored room state (rooms to bring back at start-up)."""
        ...

    def save_room(self, code: str, state: JSON) -> None:
        """Insert or replace a room state."""
        ...

    def start_game(self, code: str, game: int, head: JSON, deal: JSON, state: JSON) -> None:
        """A new game: its record head, its first deal header and the room state, at once."""
        ...

    def save_deal(self, code: str, game: int, deal: int, header: JSON, state: JSON) -> None:
        """Insert or replace the header of deal ``deal`` (0-based) and the room state."""
        ...

    def append_action(
        self, code: str, game: int, deal: int, seq: int, action: str, state: JSON,
        header: JSON | None = None, record: JSON | None = None,
    ) -> None:
        """Store the accepted action number ``seq`` (0-based) of a deal and the room state,
        with the deal's ``header`` when the action rebuilt the stock (the rebuilt order) and
        the game's final ``record`` when it ended the game: all in one transaction, so that a
        crash never leaves an action stored without what its replay needs."""
        ...

    def load_game(self, code: str, game: int) -> JSON | None:
        """The record of a game as stored so far (head, deals with their actions)."""
        ...

    def get_record(self, code: str, game: int | None = None) -> JSON | None:
        """The record of a finished game (the latest one when ``game`` is None)."""
        ...

    def delete_room(self, code: str) -> None:
        """Forget a room state (its finished records stay)."""
        ...

    def mark_alive(self, at: int) -> None:
        """Note that the server still ran at ``at`` (epoch ms): the next start takes the time a
        running clock had left then, not when its room was last stored."""
        ...

    def last_alive(self) -> int | None:
        """The last ``mark_alive`` time (None: never marked)."""
        ...

    def code_used(self, code: str) -> bool:
        """Whether anything is stored under a room code: a room state, or a game (a room
        forgotten by ``delete_room`` keeps its records, so its code must not be issued again)."""
        ...

    def write_problem(self) -> str | None:
        """None when the database takes writes, else why it does not (``GET /api/health``)."""
        ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    head TEXT NOT NULL,
    record TEXT,
    finished REAL,
    PRIMARY KEY (code, game)
);
CREATE TABLE IF NOT EXISTS deals (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    header TEXT NOT NULL,
    PRIMARY KEY (code, game, deal)
);
CREATE TABLE IF NOT EXISTS marks (
    name TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, game, deal, seq)
);
"""


#: ``PRAGMA application_id`` of a rummykit database (the bytes "RMKT"): a file of another
#: program is never taken for one, and never changed.
APPLICATION_ID = 0x524D4B54
#: ``PRAGMA user_version`` of the tables above. A change to them bumps it and adds the step
#: from the version before to ``_MIGRATIONS``; a database of a newer version is refused.
SCHEMA_VERSION = 1
#: The SQL that takes a database from version N to N + 1 (0: the databases of rummykit before
#: the version was written; the ``marks`` table they may lack is made by ``_SCHEMA``).
_MIGRATIONS: dict[int, list[str]] = {0: []}
#: The columns of each table, by which a database of rummykit without a version is known.
_COLUMNS = {
    "rooms": {"code", "state", "updated"},
    "games": {"code", "game", "head", "record", "finished"},
    "deals": {"code", "game", "deal", "header"},
    "actions": {"code", "game", "deal", "seq", "action"},
}


class UnusableDatabase(RummyError):
    """A database file that is not rummykit's, or was written by a newer rummykit."""


def schema_version(db: sqlite3.Connection) -> int:
    """The schema version of an open database, 0 for an empty file or one of rummykit before
    versions; :class:`UnusableDatabase` for a file of another program or a newer rummykit.
    Reads only: nothing is changed in a file that is refused."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables = {
        name: {col[1] for col in db.execute(f"PRAGMA table_info({name!r})")}
        for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    }
    if app == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise UnusableDatabase(
                f"written by a newer rummykit (schema version {version}; this one "
                f"reads up to {SCHEMA_VERSION}): run that version, or a copy made before it"
            )
        return version
    ours = all(_COLUMNS[name] <= tables.get(name, set()) for name in _COLUMNS)
    if app == 0 and (not tables or ours):
        return 0
    # The tables would be added to it, and its journal mode changed, without a word.
    what = f"application id {app:#x}" if app else "tables " + ", ".join(sorted(tables))
    raise UnusableDatabase(
        f"another program's SQLite database ({what}), not rummykit's: name another file"
    )


def _dump(doc: JSON) -> str:
    return json.dumps(doc, separators=(",", ":"))


class DatabaseInUse(ValueError):
    """The database file is held by another server process (``SQLiteStorage(exclusive=True)``)."""


def _claim(path: str) -> int | None:
    """Hold ``path`` for this process alone (an advisory ``flock``, released when the process
    ends, however it ends); the descriptor holding it, or None where it cannot be taken.

    SQLite lets two processes write one file in turn, but two servers over one database
    would each play their own copy of its rooms in memory: the same action number stored by
    both (one refused, ``internal``), each room state overwriting the other's, and after a
    restart games whose stored state no longer matches their record. ``flock`` does not touch
    the POSIX locks SQLite itself takes on the file, so readers (a backup, the ``sqlite3``
    shell) are not kept out.
    """
    if fcntl is None or path in ("", ":memory:") or path.startswith("file:"):
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None  # SQLite's own open says what is wrong with the file
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseInUse(
            "another rummykit server is using this database: two servers over one file "
            "would each play their own copy of its rooms and overwrite each other's"
        ) from None
    return fd


#: The most the WAL file keeps on disk once checkpointed (bytes).
WAL_LIMIT = 64 * 1024 * 1024
#: Seconds a successful write vouches for the database (``write_problem``): a running server
#: writes every 5 s (``mark_alive``), so the health check costs no write of its own then.
WRITE_FRESH = 30.0
#: Seconds a failed write is reported as it is before a probe tries again.
PROBE_RETRY = 5.0


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _refuses_writes(exc: BaseException) -> bool:
    """Whether a failed write says the database takes no writes (a full disk, a read-only
    file, a lock held elsewhere, an I/O error, a damaged file), not that this one write was
    wrong: a constraint it broke, or a value SQLite cannot bind, is a bug of the caller's, and
    the database takes the next write all the same."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)
    )


class SQLiteStorage:
    """:class:`Storage` in one SQLite file in WAL mode.

    ``synchronous=NORMAL`` with WAL: a committed transaction is in the WAL file (in the operating
    system's cache) before the call returns, so it survives the server process being killed;
    only a power cut can lose the last transactions. ``durable=True`` uses ``synchronous=FULL``
    (an fsync per commit) for that case too. ``exclusive=True`` (a server's own database)
    refuses a file another process opened so (:class:`DatabaseInUse`), until that process
    closes it or ends.
    """

    def __init__(
        self, path: str, durable: bool = False, wal_limit: int = WAL_LIMIT,
        exclusive: bool = False,
    ) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._held: int | None = None
        #: the outcome of the last write: when (``time.monotonic``) and its error (None: done)
        self._wrote: tuple[float, str | None] | None = None
        #: held by the health check's probe: requests that find no recent outcome while one
        #: probe runs wait for its outcome rather than each probing in turn
        self._probing = threading.Lock()
        try:
            if exclusive:
                self._held = _claim(path)
            version = schema_version(self._db)
        except BaseException:
            self._db.close()
            if self._held is not None:
                os.close(self._held)
            raise
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA busy_timeout=5000")
        # A burst of commits faster than the checkpoints grows the WAL file, and SQLite keeps
        # it at its peak size for ever (5.5 GB was seen under a load test); past this limit it
        # is cut back once a checkpoint has let the log start over.
        self._db.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
        self._db.executescript(_SCHEMA)
        self._migrate(version)
        # Commits on the event loop only append to the WAL (no fsync with synchronous=NORMAL);
        # the checkpoint, which does fsync, runs in a background thread on its own connection.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        # A file the server may read but not write (its permissions, an immutable file, a
        # read-only mount) opens read-only without a word, and every action would fail later.
        # A write that changes nothing says it now ("attempt to write a readonly database").
        self._tx([("DELETE FROM rooms WHERE 0", ())])
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _migrate(self, version: int) -> None:
        """Take the tables from ``version`` to ``SCHEMA_VERSION`` and mark the file as
        rummykit's, in one transaction (a crash leaves the version it was at)."""
        if version == SCHEMA_VERSION:
            return
        steps = [(sql, ()) for v in range(version, SCHEMA_VERSION) for sql in _MIGRATIONS[v]]
        self._tx(
            [
                *steps,
                (f"PRAGMA application_id={APPLICATION_ID}", ()),
                (f"PRAGMA user_version={SCHEMA_VERSION}", ()),
            ]
        )
        if version:
            log.warning("%s: schema upgraded from version %d to %d", self.path, version,
                        SCHEMA_VERSION)

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=5000")
        try:
            while not self._stop.wait(1.0):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in one transaction, noting whether it was committed."""
        try:
            self._commit(statements)
        except Exception as exc:
            if _refuses_writes(exc):
                self._wrote = (time.monotonic(), _reason(exc))
            raise
        self._wrote = (time.monotonic(), None)

    def write_problem(
        self, fresh: float = WRITE_FRESH, retry: float = PROBE_RETRY
    ) -> str | None:
        """None when the database takes writes, else why not: the outcome of the last write
        when it is recent (a commit in the last ``fresh`` seconds, a failure in the last
        ``retry``), else of a probe made now. The probe writes a row (a write that changes
        nothing commits nothing, and a full disk would not refuse it), so a health check polled
        every second costs a write only when the server has written nothing for a while, or
        every ``retry`` seconds while writes fail. One probe at a time: health checks arriving
        while it runs (waiting out a lock held elsewhere, up to the 5 s busy timeout) take its
        outcome; each used to probe in turn, holding the storage's lock, and the games' own
        writes, on the event loop, waited behind them all."""

        def recent() -> tuple[bool, str | None]:
            last = self._wrote
            if last is not None:
                age = time.monotonic() - last[0]
                if last[1] is None and age < fresh:
                    return True, None
                if last[1] is not None and age < retry:
                    return True, last[1]
            return False, None

        known, problem = recent()
        if known:
            return problem
        with self._probing:
            known, problem = recent()  # the probe this one waited for
            if known:
                return problem
            try:
                self._tx([("INSERT OR REPLACE INTO marks (name, at) VALUES ('probe', ?)",
                           (int(time.time() * 1000),))])
            except Exception as exc:
                return _reason(exc)
            return None

    def _commit(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
                db.execute("COMMIT")
            except BaseException:
                # A full disk or an I/O error makes SQLite roll the transaction back itself:
                # a ROLLBACK then fails ("no transaction is active") and its error used to
                # replace the one that says what went wrong. A COMMIT that fails may leave the
                # transaction open, and every later BEGIN would fail.
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise

    @staticmethod
    def _room(code: str, state: JSON) -> tuple[str, tuple[Any, ...]]:
        return (
            "INSERT OR REPLACE INTO rooms (code, state, updated) VALUES (?, ?, ?)",
            (code, _dump(state), time.time()),
        )

    def load_rooms(self) -> list[JSON]:
        with self._lock:
            rows = self._db.execute("SELECT code, state FROM rooms ORDER BY code").fetchall()
        out = []
        for code, state in rows:
            # One damaged row costs its room, as a state that does not restore does, not the
            # start-up of every other room.
            try:
                doc = json.loads(state)
            except (TypeError, ValueError) as exc:
                log.error("room %s could not be restored: its stored state is not JSON (%s)",
                          code, exc)
                continue
            if isinstance(doc, dict):
                out.append(doc)
            else:
                log.error("room %s could not be restored: its stored state is not an object",
                          code)
        return out

    def save_room(self, code: str, state: JSON) -> None:
        self._tx([self._room(code, state)])

    def start_game(self, code: str, game: int, head: JSON, deal: JSON, state: JSON) -> None:
        self._tx(
            [
                ("DELETE FROM games WHERE code = ? AND game = ?", (code, game)),
                ("DELETE FROM deals WHERE code = ? AND game = ?", (code, game)),
                ("DELETE FROM actions WHERE code = ? AND game = ?", (code, game)),
                (
                    "INSERT INTO games (code, game, head) VALUES (?, ?, ?)",
                    (code, game, _dump(head)),
                ),
                (
                    "INSERT INTO deals (code, game, deal, header) VALUES (?, ?, 0, ?)",
                    (code, game, _dump(deal)),
                ),
                self._room(code, state),
            ]
        )

    def save_deal(self, code: str, game: int, deal: int, header: JSON, state: JSON) -> None:
        self._tx(
            [
                (
                    "INSERT OR REPLACE INTO deals (code, game, deal, header) VALUES (?, ?, ?, ?)",
                    (code, game, deal, _dump(header)),
                ),
                self._room(code, state),
            ]
        )

    def append_action(
        self, code: str, game: int, deal: int, seq: int, action: str, state: JSON,
        header: JSON | None = None, record: JSON | None = None,
    ) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO actions (code, game, deal, seq, action) VALUES (?, ?, ?, ?, ?)",
                (code, game, deal, seq, action),
            ),
        ]
        if header is not None:
            statements.append(
                (
                    "INSERT OR REPLACE INTO deals (code, game, deal, header) VALUES (?, ?, ?, ?)",
                    (code, game, deal, _dump(header)),
                )
            )
        if record is not None:
            statements.append(
                (
                    "UPDATE games SET record = ?, finished = ? WHERE code = ? AND game = ?",
                    (_dump(record), time.time(), code, game),
                )
            )
        statements.append(self._room(code, state))
        self._tx(statements)

    def load_game(self, code: str, game: int) -> JSON | None:
        with self._lock:
            row = self._db.execute(
                "SELECT head FROM games WHERE code = ? AND game = ?", (code, game)
            ).fetchone()
            if row is None:
                return None
            deals = self._db.execute(
                "SELECT deal, header FROM deals WHERE code = ? AND game = ? ORDER BY deal",
                (code, game),
            ).fetchall()
            actions = self._db.execute(
                "SELECT deal, action FROM actions WHERE code = ? AND game = ? ORDER BY deal, seq",
                (code, game),
            ).fetchall()
        record: JSON = json.loads(row[0])
        out_deals: list[JSON] = []
        for _, header in deals:
            d = json.loads(header)
            d["actions"] = []
            out_deals.append(d)
        for deal, action in actions:
            out_deals[deal]["actions"].append(action)
        record["deals"] = out_deals
        return record

    def get_record(self, code: str, game: int | None = None) -> JSON | None:
        with self._lock:
            if game is None:
                row = self._db.execute(
                    "SELECT record FROM games WHERE code = ? AND record IS NOT NULL "
                    "ORDER BY game DESC LIMIT 1",
                    (code,),
                ).fetchone()
            else:
                row = self._db.execute(
                    "SELECT record FROM games WHERE code = ? AND game = ? AND record IS NOT NULL",
                    (code, game),
                ).fetchone()
        return None if row is None else json.loads(row[0])

    def delete_room(self, code: str) -> None:
        self._tx([("DELETE FROM rooms WHERE code = ?", (code,))])

    def mark_alive(self, at: int) -> None:
        self._tx([("INSERT OR REPLACE INTO marks (name, at) VALUES ('alive', ?)", (int(at),))])

    def last_alive(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT at FROM marks WHERE name = 'alive'").fetchone()
        return None if row is None else int(row[0])

    def code_used(self, code: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT EXISTS (SELECT 1 FROM rooms WHERE code = ?)"
                " OR EXISTS (SELECT 1 FROM games WHERE code = ?)",
                (code, code),
            ).fetchone()
        return bool(row[0])

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(5)
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.close()
            finally:
                if self._held is not None:
                    os.close(self._held)
                    self._held = None
