"""Rematches: a finished game's room starts the next game when every person asked (bots
always agree), or, once some person there asked and everybody who did not is gone, when the
rematch clock runs out, without them (docs/server.md, *Decision: a rematch does not wait for
people who are gone*).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from rummykit.server.play import RoomPlay
from rummykit.server.protocol import ProtocolError
from rummykit.server.room_state import OVER, Room, Seat, now_ms


class RoomRematch(RoomPlay):
    """The room manager's rematches."""

    @staticmethod
    def _gone(seat: Seat) -> bool:
        """Whether a person's seat has nobody there: no connection, or marked away."""
        return seat.conn is None or seat.away

    def _rematch_check(self, room: Room, start: bool = True, mid: Any = None) -> bool:
        """After a change in a finished room (a rematch asked, a person leaving or back): start
        the rematch when every person asked (bots always agree), and otherwise run the rematch
        clock while it would wait only for people who are gone (see docs/server.md, *Decision:
        a rematch does not wait for people who are gone*). ``start``: whether every person
        having asked starts the rematch (False for a change of who is there, which never
        completes the askers). Whether the new game started; ``mid``: the request that asked,
        whose error an unreadable room is (``_start_game``)."""
        if room.status != OVER:
            room.rematch_at = room.rematch_left = None
            return False
        people = [s for s in room.seats if s.kind == "human"]
        if start and all(s.rematch for s in people):
            self._rematch(room, mid=mid)
            return room.status != OVER
        waits = self._rematch_waits_for_gone(room)
        if waits and room.rematch_at is None:
            # a whole clock, or the time it had left when the server stopped
            left = room.duration if room.rematch_left is None else room.rematch_left
            room.rematch_at, room.rematch_left = now_ms() + left, None
            self._save_quietly(room)  # a restart goes on with the time it has left
            self._schedule(room)
        elif not waits and room.rematch_at is not None:
            room.rematch_at = None
            self._save_quietly(room)
            self._schedule(room)
        return False

    def _rematch_waits_for_gone(self, room: Room) -> bool:
        """Whether a person there asked for the rematch and every person who did not is gone."""
        people = [s for s in room.seats if s.kind == "human"]
        return any(s.rematch and not self._gone(s) for s in people) and all(
            s.rematch or self._gone(s) for s in people
        )

    def _rematch_due(self, room: Room) -> None:
        """The rematch clock ran out: the new game starts without the people still gone. Their
        seats stay theirs (the token resumes them) and start the game marked away, played at
        once by ``timeout`` as an away seat mid-game is, until they come back."""
        room.timer = None
        if room.status != OVER or room.rematch_at is None:
            return
        if not self._rematch_waits_for_gone(room):  # checked at every change; kept safe
            room.rematch_at = None
            self._broadcast_room(room)
            return
        if room.rematch_at > now_ms():  # the loop's timer fired a little early
            self._schedule(room)
            return
        gone = {s.seat for s in room.seats if s.kind == "human" and not s.rematch}
        # a new game the database refused is logged, and the room stays as stored (over)
        with contextlib.suppress(ProtocolError):
            self._rematch(room, away=gone)

    def _rematch(self, room: Room, away: set[int] | None = None, mid: Any = None) -> None:
        if room.status != OVER:
            return
        if room.busy:  # views of the last state are still being computed
            asyncio.get_running_loop().call_later(0.01, self._rematch_quietly, room, away)
            return
        room.game_no += 1
        room.rematch_at = room.rematch_left = None
        self._start_game(room, away or set(), mid)

    def _rematch_quietly(self, room: Room, away: set[int] | None) -> None:
        """``_rematch`` from the loop: a new game the database refused is logged and tried
        again (``_start_game``), where its error went to the loop's exception handler."""
        with contextlib.suppress(ProtocolError):
            self._rematch(room, away)

    def _rematch_again(self, room: Room) -> None:
        """Try again a rematch whose new game the database refused (``_start_game``; the room
        was put back as stored, over): every person asked, it starts now; waiting for people
        who are gone, the stored rematch clock starts it without them. Nobody asks again: it
        used to start only when somebody sent ``rematch`` once more."""
        room.timer = None
        if room.status != OVER:
            return
        with contextlib.suppress(ProtocolError):
            if self._rematch_check(room):
                return
        if room.status == OVER and room.timer is None:  # no retry planned by a new refusal
            self._schedule(room)
