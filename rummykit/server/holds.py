"""Rooms that stand still: a room nobody is in, or whose seated people are all away, holds
its clock (or the pause before the next deal) and its bots with the time it had left, and
goes on with that time when somebody is back.
"""

from __future__ import annotations

from rummykit.server.room_state import BETWEEN, PLAYING, Room, Seat, now_ms
from rummykit.server.views import RoomViews


class RoomHolds(RoomViews):
    """The room manager's holding and releasing of rooms."""

    def _schedule(self, room: Room) -> None:
        """Arm the room's one timer for what happens next: ``RoomClock._schedule``
        (``clock.py``), which builds on this class (holding or releasing a room schedules it
        again, and the clock holds a room nobody plays)."""
        raise NotImplementedError

    def _reschedule_for(self, room: Room, seat: Seat) -> None:
        """Re-arm the clock after ``seat`` lost its away mark: only its own turn was timed as
        an away seat's. Another seat's turn keeps its timer, and rescheduling it would start a
        second decision of a bot that is already thinking."""
        if room.game is not None and room.game.to_move == seat.seat:
            self._schedule(room)

    @staticmethod
    def _everyone_away(room: Room) -> bool:
        """Whether the room has seated people and every one of them is marked away (a room of
        bots alone is played on: watching bots is a use of its own). A person out of a pool
        game (eliminated) only watches, as a spectator does: their clock never runs, so they are
        never marked away, and the game went on played by ``timeout`` under their eyes."""
        playing = set(room.game.score.active_seats()) if room.game is not None else None
        people = [
            s
            for s in room.seats
            if s.kind == "human" and (playing is None or s.seat in playing)
        ]
        return bool(people) and all(s.away for s in people)

    def _holds(self, room: Room) -> bool:
        """Whether the room's game must stand still: nobody is in the room, or every seated
        person is away (the game would be played by ``timeout`` alone)."""
        return room.status in (PLAYING, BETWEEN) and (
            not room.connections() or self._everyone_away(room)
        )

    def _freeze(self, room: Room, at: int | None = None) -> None:
        """Stop the clock (or the pause before the next deal), keeping the time it had left
        at ``at`` (epoch ms; now when None); the caller stores the room."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        until = room.deadline if room.status == PLAYING else room.next_deal_at
        room.left = None if until is None else max(0, until - (now_ms() if at is None else at))
        room.held = True
        room.deadline = room.next_deal_at = None

    def _release(self, room: Room) -> None:
        """Start the clock again with the time it had left; the caller stores the room and
        schedules it."""
        room.held = False
        left, room.left = room.left, None
        if left is not None:
            if room.status == PLAYING:
                room.deadline = now_ms() + left
            elif room.status == BETWEEN:
                room.next_deal_at = now_ms() + left

    def _hold(self, room: Room, at: int | None = None) -> None:
        """Nobody is in the room any more, or every seated person is away: stop its clock (or
        the pause before the next deal) with the time it had left (at ``at``, epoch ms: when
        the server that stored a restored room last ran; now when None), and its bots
        (``_moved_on``), until a person comes back.

        A game nobody plays would otherwise be played on by the clock until the room is swept
        (an away seat's turns at ``--away-delay``, fast), and in a two-seat Rami or Indian game
        played only by ``timeout`` the stock is rebuilt without end. The time left is stored,
        so a restart keeps the room held.
        """
        if room.held or room.status not in (PLAYING, BETWEEN):
            return
        self._freeze(room, at)
        self._save_quietly(room)
        if room.connections() and room.game is not None:  # away people's tabs, spectators
            self._broadcast_room(room)
            self._broadcast_state(room, None)

    def _unhold(self, room: Room) -> bool:
        """Somebody is in a held room again and not every seated person is away: its clock
        goes on with the time it had left. Whether the room was released."""
        if not room.held or self._holds(room):
            return False
        self._release(room)
        self._save_quietly(room)
        self._schedule(room)
        return True
