"""Rooms: seats, tokens, the game, the turn clock, bots, persistence and broadcasting.

Everything here runs on the server's one event loop; a room's state only changes in
synchronous code (no ``await`` between a check and the change), so no locks are needed. Bots
think in a worker pool; when their answer comes back the room checks the game has not moved
on before playing it.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import logging
import time
from collections.abc import Callable

from rummykit.errors import RummyError
from rummykit.server.limits import MAX_ROOMS_PER_CONNECTION
from rummykit.server.lobby import RoomLobby
from rummykit.server.protocol import (
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    SAY_BURST,
    SAY_WINDOW,
    ProtocolError,
    error_message,
)
from rummykit.server.room_state import (
    BETWEEN,
    EMPTY_SEAT,
    OVER,
    PLAYING,
    WAITING,
    Connection,
    Room,
    Seat,
    dumps,
    hash_token,
    now_ms,
)
from rummykit.server.storage import JSON

#: what other modules, tests and scripts import from here (the room's data types moved to
#: ``room_state.py`` and are still importable from here)
__all__ = [
    "BETWEEN", "EMPTY_SEAT", "IDLE_MS", "MAX_ROOMS_PER_CONNECTION", "OVER", "PLAYING", "WAITING",
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


class RoomManager(RoomLobby):
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

    # -- client messages --------------------------------------------------------------------

    def handle(self, conn: Connection, msg: JSON) -> None:
        """Carry out one validated client message (raises :class:`ProtocolError`)."""
        handler: Callable[[Connection, JSON], None] = getattr(self, "_on_" + msg["type"])
        handler(conn, msg)
        if conn.room is not None:
            conn.room.touched = now_ms()

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

    def _on_ping(self, conn: Connection, msg: JSON) -> None:
        conn.send({"type": "pong", "id": msg["id"], "time": now_ms()})

    def _on_rematch(self, conn: Connection, msg: JSON) -> None:
        room, seat = self._seat_of(conn)
        if room.status != OVER:
            raise ProtocolError("not_over", "the game is not over", id=msg["id"])
        # asking is being there: an away mark left from the game's end goes with it
        self._store_seat(room, seat, msg["id"], rematch=True, away=False, timeouts=0)
        # The asking is stored: when the new game is not (the database refused it), the
        # request was made all the same, and the rematch is tried again (``_start_game``).
        if not self._rematch_check(room, mid=msg["id"]):
            self._broadcast_room(room)

    def _on_say(self, conn: Connection, msg: JSON) -> None:
        """A quick message (one of ``PHRASES``) from a seated person to everybody in the room,
        spectators too; the sender's copy carries its ``id``. Nothing of it is stored."""
        room, seat = self._seat_of(conn)
        now = self.monotonic()
        while seat.said and seat.said[0] <= now - SAY_WINDOW:
            seat.said.popleft()
        if len(seat.said) >= SAY_BURST:
            raise ProtocolError(
                "rate_limited",
                f"at most {SAY_BURST} quick messages every {SAY_WINDOW:g} seconds",
                id=msg["id"],
                reason="say",
            )
        seat.said.append(now)
        said = {"type": "said", "seat": seat.seat, "phrase": msg["phrase"]}
        for s in room.seats:
            if s.conn is not None:
                s.conn.send({**said, "id": msg["id"]} if s.conn is conn else said)
        if room.watchers:
            text = dumps(said)
            for watcher in room.watchers:
                watcher.send_text(text)

    def _retry(self, conn: Connection, msg: JSON) -> None:
        """Handle a message again later (an action that came while its room was busy)."""
        if conn.closed:
            return
        try:
            self.handle(conn, msg)
        except ProtocolError as exc:
            extra = dict(exc.extra)
            mid = extra.pop("id", None) or msg.get("id")
            conn.send(error_message(exc.code, exc.message, mid, **extra))
        except Exception:
            log.exception("internal error handling a message")
            conn.send(error_message("internal", "internal server error", msg.get("id")))

    def _on_action(self, conn: Connection, msg: JSON) -> None:
        room, seat = self._seat_of(conn)
        game, mid = room.game, msg["id"]
        if game is None or room.status != PLAYING:
            raise ProtocolError("not_your_turn", "no deal is being played", id=mid)
        if room.busy:  # views of the last change are being computed: play it right after
            asyncio.get_running_loop().call_later(0.005, self._retry, conn, msg)
            return
        if msg["version"] != game.version:
            raise ProtocolError(
                "stale_version",
                f"the state is at version {game.version}",
                id=mid,
                version=game.version,
            )
        if game.to_move != seat.seat:
            raise ProtocolError(
                "not_your_turn", f"seat {game.to_move} is to move", id=mid, version=game.version
            )
        text = msg["action"].strip()
        if text.split(None, 1)[:1] and text.split(None, 1)[0].lower() == "timeout":
            raise ProtocolError("forbidden_action", "only the server plays timeout", id=mid)
        was_away, timeouts = seat.away, seat.timeouts
        seat.away, seat.timeouts = False, 0
        try:
            self._play(room, seat.seat, text, auto=False, ack=(conn, mid), presence=was_away)
        except RummyError as exc:
            seat.away, seat.timeouts = was_away, timeouts
            raise ProtocolError("illegal_action", str(exc), id=mid, version=game.version) from None

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
