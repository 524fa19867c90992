"""Rooms: the room manager of a server process, put together from its parts.

``RoomManager`` is what the app uses; here are only its start-up (``restore``), its sweep of
idle rooms and its count of connections. Its parts, each building on the one before:

- ``room_store.py``: the manager's state; reading and writing rooms (``RoomStore``)
- ``limits.py``: the per-address limits (``RoomLimits``)
- ``views.py``: what a room's connections are sent (``RoomViews``)
- ``holds.py``: holding a room nobody plays, and releasing it (``RoomHolds``)
- ``play.py``: starting games, playing and storing actions, the next deal (``RoomPlay``)
- ``rematch.py``: rematches (``RoomRematch``)
- ``bot_turns.py``: bots' turns (``BotTurns``)
- ``clock.py``: the room's one timer and ``timeout`` (``RoomClock``)
- ``lobby.py``: coming into rooms and going out of them (``RoomLobby``)
- ``messages.py``: the dispatch of client messages, and the table's (``RoomMessages``)

A room's data is in ``room_state.py`` (its names are importable from here too), the rules
of client addresses in ``addresses.py``.

Everything here runs on the server's one event loop; a room's state only changes in
synchronous code (no ``await`` between a check and the change), so no locks are needed. Bots
think in a worker pool; when their answer comes back the room checks the game has not moved
on before playing it.
"""

from __future__ import annotations

import functools
import importlib.metadata
import logging
import time

from rummykit.server.messages import RoomMessages
from rummykit.server.protocol import MAX_MESSAGE, PROTOCOL_VERSION, SAY_BURST, SAY_WINDOW
from rummykit.server.room_state import (
    BETWEEN,
    EMPTY_SEAT,
    OVER,
    PLAYING,
    WAITING,
    Connection,
    Room,
    Seat,
    hash_token,
    now_ms,
)
from rummykit.server.storage import JSON

#: what other modules, tests and scripts import from here (the room's data, now in
#: ``room_state.py``, stays importable from here)
__all__ = [
    "BETWEEN", "EMPTY_SEAT", "IDLE_MS", "OVER", "PLAYING", "WAITING",
    "Connection", "Room", "RoomManager", "Seat", "hash_token", "now_ms",
]

log = logging.getLogger("rummykit.server")


def _whole(x: float) -> float | int:
    """A number as an int when it is a whole one."""
    return int(x) if float(x).is_integer() else x


IDLE_MS = 24 * 3600 * 1000  # rooms nobody touched for a day are dropped


@functools.cache
def _version() -> str:
    try:
        return importlib.metadata.version("rummykit")
    except importlib.metadata.PackageNotFoundError:
        return "dev"


class RoomManager(RoomMessages):
    """All rooms of this server process, backed by a :class:`Storage`."""

    # -- start-up ---------------------------------------------------------------------------

    def restore(self, docs: list[JSON] | None = None) -> int:
        """Bring back every stored room (after a restart, even after ``kill -9``).

        Only the rooms' states are read. Nobody is in any room yet, so every game in progress
        holds still (``_hold``), and a game's record is replayed when somebody comes back to
        its room (``_open``): a restart costs a row per room, not a replay of every game kept.
        A running clock (or pause before the next deal, or rematch clock) is held with the time
        it had left when the server last ran (its last ``mark_alive``, or the room's last store
        if later), not now: the time the server was down is nobody's turn. A
        state stored before the save time was (no ``saved``) is held with the time left now.
        ``docs``: the room states, when the caller has read them already (``create_app`` does,
        so that a damaged database is refused before the server starts).
        """
        saved: dict[str, int] = {}
        # The server ran until about then (``mark_alive``): a clock ran until then too, not
        # only until its room was last stored.
        alive = self.storage.last_alive()
        for doc in self.storage.load_rooms() if docs is None else docs:
            try:
                room = Room.from_doc(doc)
            except Exception:
                log.exception("room %s could not be restored", doc.get("code"))
                continue
            self.rooms[room.code] = room
            at = doc.get("saved")
            if isinstance(at, int) and not isinstance(at, bool):
                at = saved[room.code] = at if alive is None else max(at, alive)
                due = doc.get("rematch_at")
                if room.status == OVER and isinstance(due, int) and room.rematch_left is None:
                    # The rematch clock was running: nobody is there now, and it goes on
                    # with the time it had left when somebody who asked is back (stored now:
                    # a second restart must not count the time since this one).
                    room.rematch_left = max(0, due - at)
                    self._save_quietly(room)
        for room in list(self.rooms.values()):
            self._hold(room, saved.get(room.code))
            self._schedule(room)
        return len(self.rooms)

    # -- idle rooms -------------------------------------------------------------------------

    def sweep(self, idle_ms: int = IDLE_MS) -> list[str]:
        """Forget rooms nobody has been connected to or written in for ``idle_ms`` (their
        finished records stay downloadable). Returns the codes dropped."""
        limit = now_ms() - idle_ms
        dropped = []
        for code, room in list(self.rooms.items()):
            if room.connections() or room.touched > limit:
                continue
            if room.timer is not None:
                room.timer.cancel()
            del self.rooms[code]
            self.storage.delete_room(code)
            dropped.append(code)
        now = time.monotonic()
        for address in list(self.rooms_by_address):
            if not self._recent_rooms(address, now):
                del self.rooms_by_address[address]
        for key in list(self.misses_by_address):
            if not self._recent_misses(key, self.monotonic()):
                del self.misses_by_address[key]
        return dropped

    # -- connections --------------------------------------------------------------------------

    def connected(self, conn: Connection) -> None:
        self.connections += 1
        conn.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "server": f"rummykit {_version()}",
                "limits": {
                    "max_message": MAX_MESSAGE,
                    # 20, not 20.0: the numbers as the docs and the command line give them
                    "rate": _whole(self.config.rate),
                    "burst": _whole(self.config.burst),
                    "say": {"burst": SAY_BURST, "window": _whole(SAY_WINDOW)},
                },
            }
        )

    def disconnected(self, conn: Connection) -> None:
        self.connections -= 1
        self.by_address[conn.key] -= 1
        if self.by_address[conn.key] <= 0:
            del self.by_address[conn.key]
        self._detach(conn)
