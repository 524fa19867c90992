"""The rooms of a server process as held in memory and in storage.

``RoomStore`` is the root of ``RoomManager`` (``rooms.py``): every part of the manager
builds on it. It holds the manager's state (rooms, tasks, pools, the per-address counts) and
reads and writes rooms: loading a room's game when somebody enters, forgetting a finished one
nobody is in, storing a room or a seat, putting a room back as stored after the database
refused a change.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import time
from collections.abc import Callable
from typing import Any

from rummykit.engine import Game
from rummykit.server.botpool import BotPool, bot_levels
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.room_state import EMPTY_SEAT, OVER, Room, Seat, now_ms
from rummykit.server.storage import JSON, Storage

log = logging.getLogger("rummykit.server")


class RoomStore:
    """All rooms of this server process, backed by a :class:`Storage`: the manager's state
    and the reading and writing of rooms."""

    def __init__(self, storage: Storage, config: ServerConfig, bots: BotPool | None = None) -> None:
        self.storage = storage
        self.config = config
        self.bots = bots or BotPool(config.bot_workers, config.bot_pool, config.bot_timeout)
        self.levels = bot_levels()
        self.rooms: dict[str, Room] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.connections = 0
        #: open connections by client address, and when each address created its recent rooms
        #: (the per-address limits; loopback is not limited: see ``addresses.limited``)
        self.by_address: collections.Counter[str] = collections.Counter()
        self.rooms_by_address: dict[str, collections.deque[float]] = {}
        #: when each address asked for a room code that named no room (``find_room``), on
        #: ``monotonic``'s clock
        self.misses_by_address: dict[str, collections.deque[float]] = {}
        self.monotonic: Callable[[], float] = time.monotonic
        #: with ``offload_views`` (``--view-threads N``), threads compute the views that cost
        #: (legal verbs, opening meter) so that a slow one lets other rooms go on; the room
        #: waits meanwhile. By default views are computed on the loop: the hops to a thread
        #: and back cost more than a view on a busy machine (docs/server.md, Measured load).
        self.view_pool = concurrent.futures.ThreadPoolExecutor(config.view_threads, "views")
        #: seconds the server spent on each of the last accepted or refused actions
        self.timings: collections.deque[float] = collections.deque(maxlen=20000)
        #: the server is stopping (``close``): nothing more is played or stored
        self.closed = False

    def mark_alive(self) -> None:
        """Note in the database that the server runs (``ServerConfig.alive_interval``)."""
        try:
            self.storage.mark_alive(now_ms())
        except Exception:
            log.exception("noting that the server runs failed")

    def _load(self, doc: JSON) -> Room:
        room = Room.from_doc(doc)
        self._load_game(room)
        return room

    def _load_game(self, room: Room) -> None:
        """Replay the record of the room's current game, unless it is loaded (or there is
        none yet)."""
        if room.game is not None or room.game_no == 0:
            return
        record = self.storage.load_game(room.code, room.game_no)
        if record is None:
            raise RuntimeError(f"room {room.code}: game {room.game_no} is not stored")
        game = Game.from_record(record)
        if room.stored_version is not None and game.version != room.stored_version:
            log.warning(
                "room %s: replayed version %s, stored %s",
                room.code,
                game.version,
                room.stored_version,
            )
        room.game = game
        room.history_len = game.history_length()

    def _unload(self, room: Room) -> None:
        """Forget the game of a finished room nobody is in: it is only read again if somebody
        comes back (``_open``), so memory, and the collector's walks over it, keep to the
        rooms people are in rather than every finished game of the last day."""
        if room.status != OVER or room.game is None or room.busy:
            return
        room.stored_version = room.game.version
        room.game = None
        room.view_cache.clear()

    def _open(self, room: Room, mid: Any) -> None:
        """Load the room's game before somebody enters (a restart leaves records unread). A
        record that does not replay drops the room from memory, as a restart used to."""
        try:
            self._load_game(room)
        except Exception:
            log.exception("room %s could not be restored", room.code)
            if self.rooms.get(room.code) is room:
                del self.rooms[room.code]
            raise ProtocolError("no_room", f"no room {room.code}", id=mid) from None

    def close(self) -> None:
        # A bot's answer already on its way when its task is cancelled is still delivered
        # (asyncio.wait_for in Python 3.11 lets a finished answer win over the cancellation):
        # it must not be played, and stored, after the server stopped.
        self.closed = True
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in self.tasks:
            task.cancel()
        self.bots.close()
        self.view_pool.shutdown(wait=False, cancel_futures=True)

    def _save(self, room: Room) -> None:
        self.storage.save_room(room.code, room.doc())

    def _store_seat(self, room: Room, seat: Seat, mid: Any, **change: Any) -> None:
        """Store a change of a seat's stored fields (``Seat.doc``), then make it. A change the
        database refuses (a full disk, a file gone read-only, a lock held too long) is refused
        to its client (``internal``) with nothing changed: it used to be made in memory first,
        so that the room showed it (a seat taken whose token was never sent, a bot added, a
        rematch asked) until a restart lost it."""
        doc = room.doc()
        doc["seats"][seat.seat] = {**doc["seats"][seat.seat], **change}
        try:
            self.storage.save_room(room.code, doc)
        except Exception:
            log.exception("room %s: storing a change of seat %d failed", room.code, seat.seat)
            raise ProtocolError("internal", "the change could not be stored", id=mid) from None
        for name, value in change.items():
            setattr(seat, name, value)

    def _reload(self, room: Room) -> None:
        """Put a room back as stored (after a storage failure)."""
        try:
            docs = self.storage.load_rooms()
        except Exception:
            log.exception("room %s: the database cannot be read", room.code)
            return
        for doc in docs:
            if doc["code"] == room.code:
                fresh = self._load(doc)
                room.game, room.seq, room.status = fresh.game, fresh.seq, fresh.status
                room.game_no, room.deal = fresh.game_no, fresh.deal
                room.view_cache.clear()
                room.deadline, room.next_deal_at = fresh.deadline, fresh.next_deal_at
                room.restocks, room.turn, room.turn_seat = (
                    fresh.restocks,
                    fresh.turn,
                    fresh.turn_seat,
                )
                room.turn_deal, room.history_len = fresh.turn_deal, fresh.history_len
                room.held, room.left = fresh.held, fresh.left
                # a refused rematch goes on with the rematch clock it had, where it used to
                # start a whole new one
                room.rematch_at, room.rematch_left = doc.get("rematch_at"), fresh.rematch_left
                # a new game refused resets the seats' marks (away, rematch asked) in memory
                for seat, stored in zip(room.seats, fresh.seats, strict=True):
                    for name in EMPTY_SEAT:
                        setattr(seat, name, getattr(stored, name))
                return

    def _save_quietly(self, room: Room) -> None:
        """Store a room whose game did not change (a hold): a failure costs only the clock's
        accuracy after a restart, and must not stop a connection from leaving."""
        try:
            self._save(room)
        except Exception:
            log.exception("room %s: storing its state failed", room.code)
