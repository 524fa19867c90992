"""Coming into rooms and going out of them: creating a room, joining it, taking a seat,
adding or removing a bot, resuming a seat with its token, coming back from away, leaving.

A connection is in one room at a time, seated or watching; moving to another room gives up a
seat held in a room still waiting (``_move_out``).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import Any

from rummykit import rules
from rummykit.engine import Game
from rummykit.errors import RummyError
from rummykit.server.addresses import limited
from rummykit.server.clock import RoomClock
from rummykit.server.protocol import ROOM_ALPHABET, ROOM_CODE_LEN, ProtocolError, error_message
from rummykit.server.room_state import (
    EMPTY_SEAT,
    OVER,
    WAITING,
    Connection,
    Room,
    Seat,
    hash_token,
)
from rummykit.server.storage import JSON


class RoomLobby(RoomClock):
    """The room manager's handling of the messages that move people into, around and out of
    rooms."""

    def _new_code(self) -> str:
        """A code no room has had: not a live room's, nor one the storage still holds (a swept
        room's records stay downloadable under its code; a new room would overwrite them)."""
        while True:
            code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LEN))
            if code not in self.rooms and not self.storage.code_used(code):
                return code

    def _room_of(self, conn: Connection) -> Room:
        if conn.room is None:
            raise ProtocolError("not_in_room", "join or create a room first")
        return conn.room

    def _seat_of(self, conn: Connection) -> tuple[Room, Seat]:
        room = self._room_of(conn)
        if conn.seat is None:
            raise ProtocolError("not_seated", "take a seat first")
        return room, room.seats[conn.seat]

    def _move_out(self, conn: Connection, to: Room | None, mid: Any = None) -> None:
        """Leave the connection's room for another one (``to``; None: a new room): a seat held
        in a room still waiting is given up, as with ``leave`` (else it stays held by a
        disconnected player whom nobody can remove); in a game under way it stays, to be
        resumed. Staying in the same room is no move: leaving it first would empty it for a
        moment (held and released, a finished game forgotten and read again); the caller
        changes the connection's place in it."""
        room = conn.room
        if room is not None and room is to:
            return
        if room is not None and conn.seat is not None:
            seat = room.seats[conn.seat]
            if room.status == WAITING and seat.conn is conn:
                self._store_seat(room, seat, mid, **EMPTY_SEAT)
                seat.conn = None
        self._detach(conn)

    def _detach(self, conn: Connection) -> None:
        room = conn.room
        if room is None:
            return
        if conn.seat is not None:
            seat = room.seats[conn.seat]
            if seat.conn is conn:
                seat.conn = None
        room.watchers.discard(conn)
        conn.room, conn.seat = None, None
        if not room.connections():
            self._hold(room)
            self._unload(room)
        self._rematch_check(room, start=False)  # the rematch may now wait only for the gone
        self._broadcast_room(room)

    def _on_create(self, conn: Connection, msg: JSON) -> None:
        most = self.config.max_rooms_per_connection
        if conn.created >= most:
            raise ProtocolError(
                "rate_limited",
                f"too many rooms created on this connection ({most} at most)",
                id=msg["id"],
            )
        now = time.monotonic()
        limit = self.config.max_rooms_per_address
        recent = self._recent_rooms(conn.key, now) if limited(conn.address, limit) else None
        if recent is not None and len(recent) >= limit:
            minutes = round(self.config.rooms_window / 60)
            raise ProtocolError(
                "rate_limited",
                f"too many rooms created from this address ({limit} in {minutes} minutes)",
                id=msg["id"],
            )
        variant, players, options = msg["variant"], msg["players"], msg["options"] or {}
        if isinstance(variant, str) and variant in rules.VARIANTS and isinstance(options, dict):
            # Before the trial game: the engine refuses some of these fields itself (lay_mode,
            # scoring), and a room's refusal should name them the same way whatever they are.
            offered = rules.option_schema(variant).keys() | rules.house_rule_schema(
                variant
            ).keys()
            foreign = sorted(set(options) - offered, key=str)
            if foreign:
                # The engine takes more ruleset fields by name (how a house version is tried
                # out), but the lobby shows only the options and house rules below.
                decides = rules.variant_decides(foreign[0]) if isinstance(foreign[0], str) else None
                why = f"the variant decides {decides}; " if decides else ""
                raise ProtocolError(
                    "bad_options",
                    f"{'an' if variant[0] in 'aeiou' else 'a'} {variant} room cannot set "
                    f"{foreign[0]!r}: {why}its options are "
                    f"{', '.join(sorted(offered))}",
                    id=msg["id"],
                )
        try:
            trial = Game.new(variant, players=players, options=options)
        except (RummyError, ValueError, TypeError) as exc:
            raise ProtocolError("bad_options", str(exc), id=msg["id"]) from None
        unused = rules.unused_options(trial.variant, options)
        if unused:
            # The engine ignores them; a room showing a setting that does nothing misleads.
            schema = rules.option_schema(trial.variant)
            name = unused[0]
            other, values = next(iter(schema[name]["only_with"].items()))
            chosen = options.get(other, schema[other]["default"])
            raise ProtocolError(
                "bad_options",
                f"option {name!r} is used only with {other} {', '.join(map(str, values))}, "
                f"not with {other} {chosen}",
                id=msg["id"],
            )
        public = trial.public_view()
        full_options = dict(public.get("options") or options)
        clock = full_options.get("clock", 45)
        room = Room(
            code=self._new_code(),
            variant=trial.variant,
            players=trial.players,
            options=full_options,
            seats=[Seat(seat=i) for i in range(trial.players)],
            duration=int(float(clock) * 1000 * self.config.clock_scale),
        )
        # Stored first: a room the database refused (a full disk) must not live on in memory.
        self._save(room)
        self.rooms[room.code] = room
        conn.created += 1
        if recent is not None:
            recent.append(now)
        self._move_out(conn, None, msg["id"])
        conn.room, conn.seat = room, None
        room.watchers.add(conn)
        self._send_room(conn, room, msg["id"])

    def _on_join(self, conn: Connection, msg: JSON) -> None:
        room = self.find_room(msg["room"], conn.address, msg["id"])
        if conn.room is room and conn.seat is not None:
            # A seated connection asking for its own room again (a page that lost its place)
            # keeps its seat: answered with the seat's view, as a resume is, and nothing
            # else changes (not even an away mark: only `back`, an action or `resume` is a
            # player coming back).
            self._send_room(conn, room, msg["id"])
            self._send_state(conn, room)
            return
        # Read first: a room whose record no longer replays is refused (no_room) with the
        # connection still where it was, as any refusal leaves it.
        self._open(room, msg["id"])
        self._move_out(conn, room, msg["id"])
        conn.room, conn.seat = room, None
        room.watchers.add(conn)
        # A spectator alone is somebody: watching bots play is what some come for.
        self._unhold(room)
        self._send_room(conn, room, msg["id"])
        self._send_state(conn, room)
        self._broadcast_room(room)

    def _on_sit(self, conn: Connection, msg: JSON) -> None:
        room = self._room_of(conn)
        seat = self._free_seat(room, msg)
        if conn.seat is not None:
            raise ProtocolError("seat_taken", "this connection already holds a seat", id=msg["id"])
        if conn.replaced_from is not None and conn.replaced_from[0] is room:
            held = conn.replaced_from[1]
            if any(s.token == held for s in room.seats):
                # The same person (the same seat token, opened in another tab): a second seat
                # would be theirs too, and the page's stored token would be overwritten.
                raise ProtocolError(
                    "replaced",
                    "your seat of this room was resumed on another connection: resume it "
                    "rather than take a second one",
                    id=msg["id"],
                )
        token = secrets.token_urlsafe(24)
        self._store_seat(room, seat, msg["id"], kind="human", name=msg["name"],
                         token=hash_token(token))
        seat.conn = conn
        room.watchers.discard(conn)
        conn.seat = seat.seat
        conn.send(
            {
                "type": "seated",
                "id": msg["id"],
                "room": room.code,
                "seat": seat.seat,
                "token": token,
            }
        )
        self._seats_changed(room, msg["id"])

    def _waiting_seat(self, room: Room, msg: JSON) -> Seat:
        """The seat a lobby message names, while the room still waits for players."""
        if room.status != WAITING:
            raise ProtocolError("not_waiting", "the game has started", id=msg["id"])
        n = msg["seat"]
        if not 0 <= n < room.players:
            raise ProtocolError("bad_seat", f"no seat {n} (0 to {room.players - 1})", id=msg["id"])
        return room.seats[n]

    def _free_seat(self, room: Room, msg: JSON) -> Seat:
        seat = self._waiting_seat(room, msg)
        if seat.kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat.seat} is taken", id=msg["id"])
        return seat

    def _seats_changed(self, room: Room, mid: Any) -> None:
        """Tell the room a seat changed, starting the game when every seat is taken. The seat
        is stored already: when the game is not (the database refused it), the message that
        took the seat was made all the same, and answered so (``seated``; a bot shown), with
        no error: the room, every seat taken and still ``waiting``, is broadcast and the game
        starts when the database takes it (``_start_game`` tries again). An ``internal`` error
        there said that nothing was made, and came without the request's id."""
        if (
            room.status == WAITING
            and all(s.kind != "empty" for s in room.seats)
            and self._start_game(room, mid=mid)
        ):
            return
        self._broadcast_room(room)

    def _on_resume(self, conn: Connection, msg: JSON) -> None:
        room = self.find_room(msg["room"], conn.address, msg["id"])
        digest = hash_token(msg["token"])
        seat = next(
            (
                s
                for s in room.seats
                if s.kind == "human"
                and s.token is not None
                and secrets.compare_digest(s.token, digest)
            ),
            None,
        )
        if seat is None:
            raise ProtocolError("bad_token", "that token holds no seat of this room", id=msg["id"])
        self._open(room, msg["id"])  # before anything moves: a refusal changes nothing
        cleared = seat.away or seat.timeouts > 0
        if cleared:  # stored first, for the same reason
            self._store_seat(room, seat, msg["id"], away=False, timeouts=0)
        if conn.room is room:
            # Already in the room, watching or in another seat: it changes places there.
            room.watchers.discard(conn)
            if conn.seat is not None and room.seats[conn.seat].conn is conn:
                room.seats[conn.seat].conn = None
        self._move_out(conn, room, msg["id"])
        old = seat.conn
        if old is not None and old is not conn:
            old.send(error_message("replaced", "this seat was resumed on another connection"))
            old.seat = None
            room.watchers.add(old)
            old.replaced_from = (room, digest)
        seat.conn = conn
        conn.room, conn.seat = room, seat.seat
        conn.replaced_from = None
        released = self._unhold(room)
        if cleared and not released:
            self._reschedule_for(room, seat)
        # the person back may be one who asked for a rematch, or one the others waited for
        self._rematch_check(room, start=False)
        conn.send(
            {
                "type": "seated",
                "id": msg["id"],
                "room": room.code,
                "seat": seat.seat,
                "token": msg["token"],
            }
        )
        self._broadcast_room(room)
        if released and room.connections() != [conn]:
            # a room held because everyone was away: the others' clocks run again
            self._broadcast_state(room, None)
        else:
            self._send_state(conn, room)
        if room.status == OVER:
            # Every person may have asked already, the new game refused by the database, its
            # retry a timer of a server that has since stopped: the first person back starts
            # it, after their ``seated`` and the finished game's state, as a ``rematch`` would
            # have (otherwise the check above has done all there is to do).
            with contextlib.suppress(ProtocolError):
                self._rematch_check(room)

    def _on_add_bot(self, conn: Connection, msg: JSON) -> None:
        room, _ = self._seat_of(conn)
        seat = self._free_seat(room, msg)
        level = msg["level"]
        if level not in self.levels:
            raise ProtocolError(
                "bad_level", f"unknown level {level!r} ({', '.join(self.levels)})", id=msg["id"]
            )
        self._store_seat(room, seat, msg["id"], kind="bot", level=level, name=f"Bot ({level})")
        self._seats_changed(room, msg["id"])

    def _on_remove_bot(self, conn: Connection, msg: JSON) -> None:
        room, _ = self._seat_of(conn)
        seat = self._waiting_seat(room, msg)
        if seat.kind != "bot":
            raise ProtocolError("not_bot", f"seat {seat.seat} is not a bot", id=msg["id"])
        self._store_seat(room, seat, msg["id"], **EMPTY_SEAT)
        self._broadcast_room(room)

    def _on_leave(self, conn: Connection, msg: JSON) -> None:
        self._room_of(conn)  # refuses a connection in no room
        self._move_out(conn, None, msg["id"])

    def _on_back(self, conn: Connection, msg: JSON) -> None:
        room, seat = self._seat_of(conn)
        if seat.away or seat.timeouts:
            self._store_seat(room, seat, msg["id"], away=False, timeouts=0)
            if self._unhold(room):  # stored with the time left
                self._broadcast_room(room)
                self._broadcast_state(room, None)  # everybody's clock runs again
                return
            self._rematch_check(room, start=False)  # a rematch now waits for them again
            self._broadcast_room(room)
            self._reschedule_for(room, seat)
