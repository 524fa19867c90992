"""The room's clock: its one timer, armed for whatever happens next without a client message
(a game to start, a bot to decide, a turn's time running out or an away seat's turn, the next
deal, a rematch due), and ``timeout`` played when a turn's time runs out.
"""

from __future__ import annotations

import asyncio
import logging
import time

from rummykit.errors import RummyError
from rummykit.server.bot_turns import BotTurns
from rummykit.server.protocol import ProtocolError
from rummykit.server.room_state import BETWEEN, OVER, PLAYING, WAITING, Room

log = logging.getLogger("rummykit.server")


class RoomClock(BotTurns):
    """The room manager's timers."""

    def _schedule(self, room: Room) -> None:
        """Arm the room's one timer for what happens next without a client message."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        loop = asyncio.get_running_loop()
        if room.status == WAITING:
            if room.seats and all(s.kind != "empty" for s in room.seats):
                room.timer = loop.call_soon(self._start_waiting, room)
            return
        if room.status == OVER:
            if room.rematch_at is not None:
                delay = max(0.0, room.rematch_at / 1000 - time.time())
                room.timer = loop.call_later(delay, self._rematch_due, room)
            return
        if self._holds(room):
            self._hold(room)
            return
        if room.held:
            self._unhold(room)  # schedules again, with the clock running
            return
        if room.status == BETWEEN and room.next_deal_at is not None:
            delay = max(0.0, room.next_deal_at / 1000 - time.time())
            room.timer = loop.call_later(delay, self._next_deal, room)
            return
        game = room.game
        if room.status != PLAYING or game is None or game.to_move is None:
            return
        if room.deadline is None:
            self._new_turn(room)
        seat = room.seats[game.to_move]
        turn = room.turn
        if seat.kind == "bot" and not self._thinking(room, game, game.version):
            # One decision per move: scheduling again (a person coming back) while the bot
            # thinks leaves it to finish.
            room.thinking = (game, game.version)
            task = asyncio.ensure_future(self._bot_turn(room, seat.seat, game, game.version))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if seat.away and seat.kind == "human":
            room.timer = loop.call_later(self.config.away_delay, self._expire, room, turn, True)
            return
        assert room.deadline is not None
        delay = max(0.0, room.deadline / 1000 - time.time())
        room.timer = loop.call_later(delay, self._expire, room, turn, False)

    def _expire(self, room: Room, turn: int, away: bool) -> None:
        """The clock ran out (or an away seat's turn came): play ``timeout`` if the turn is the
        same one."""
        room.timer = None
        game = room.game
        if (
            game is None
            or room.status != PLAYING
            or room.turn != turn
            or game.to_move is None
            or room.held
        ):
            return
        if room.busy:
            loop = asyncio.get_running_loop()
            room.timer = loop.call_later(0.02, self._expire, room, turn, away)
            return
        seat = room.seats[game.to_move]
        marked = False
        if seat.kind == "human":
            seat.timeouts += 1
            after = self.config.away_after
            if after and seat.timeouts >= after and not seat.away:
                seat.away = True
                marked = True
        try:
            self._play(room, seat.seat, "timeout", auto=True, presence=marked)
        except ProtocolError:  # not stored (logged): the room is as stored, its turn too
            self._retry_later(room)
        except RummyError:
            log.exception("room %s: timeout refused", room.code)
        del away
