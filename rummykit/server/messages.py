"""Client messages: the dispatch of every validated message to its handler (``handle``;
the lobby's handlers are in ``lobby.py``), and the messages of people at the table: an
action, a quick message, asking for a rematch, a ping.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from rummykit.errors import RummyError
from rummykit.server.lobby import RoomLobby
from rummykit.server.protocol import SAY_BURST, SAY_WINDOW, ProtocolError, error_message
from rummykit.server.room_state import OVER, PLAYING, Connection, dumps, now_ms
from rummykit.server.storage import JSON

log = logging.getLogger("rummykit.server")


class RoomMessages(RoomLobby):
    """The room manager's handling of client messages."""

    def handle(self, conn: Connection, msg: JSON) -> None:
        """Carry out one validated client message (raises :class:`ProtocolError`)."""
        handler: Callable[[Connection, JSON], None] = getattr(self, "_on_" + msg["type"])
        handler(conn, msg)
        if conn.room is not None:
            conn.room.touched = now_ms()

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
