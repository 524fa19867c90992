"""Playing a room's game: starting a game, applying an action (a person's, a bot's, the
clock's ``timeout``) and storing it, the next deal, each turn's clock.

Every change is stored before it is sent; a change the database refuses puts the room back as
stored (``_reload``), and what the server did by itself is tried again ``STORE_RETRY_S``
later (``_retry_later``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from rummykit.engine import Game
from rummykit.engine.actions import as_action
from rummykit.server.holds import RoomHolds
from rummykit.server.protocol import ProtocolError
from rummykit.server.room_state import (
    BETWEEN,
    OVER,
    PLAYING,
    WAITING,
    Connection,
    Room,
    now_ms,
    record_seats,
)
from rummykit.server.storage import JSON

log = logging.getLogger("rummykit.server")

SLOW_S = 0.1  # actions taking longer are logged
#: seconds before the clock or a bot tries again what the database refused (``_retry_later``)
STORE_RETRY_S = 1.0


def _strip_actions(deal: JSON) -> JSON:
    return {k: v for k, v in deal.items() if k != "actions"}


class RoomPlay(RoomHolds):
    """The room manager's playing of games."""

    def _rematch_again(self, room: Room) -> None:
        """Try again a rematch whose new game the database refused: ``RoomRematch``
        (``rematch.py``), which builds on this class (it starts games)."""
        raise NotImplementedError

    def _start_game(self, room: Room, away: set[int] | None = None, mid: Any = None) -> bool:
        """Start the room's next game; the seats of ``away`` (people gone when a rematch
        started without them) are marked away from its start, unless away marks are off.
        Whether it started: a game the database refused is tried again later (the room is put
        back as stored, waiting or over, and the change that started it stays made), and only a
        room that cannot even be read back raises ``internal`` (with ``mid``, the request's
        id, when a request started it)."""
        if room.game_no == 0:
            room.game_no = 1
        game = Game.new(room.variant, players=room.players, options=room.options)
        record = game.record()
        head = {k: v for k, v in record.items() if k != "deals"}
        room.game = game
        room.view_cache.clear()
        room.status = PLAYING
        room.deal, room.seq, room.restocks = 0, 0, 0
        room.turn_seat, room.turn_deal, room.deadline, room.next_deal_at = None, -1, None, None
        for s in room.seats:
            s.away, s.timeouts, s.rematch = False, 0, False
            if away and s.seat in away and self.config.away_after:
                s.away = True
        self._new_turn(room)
        try:
            self.storage.start_game(
                room.code, room.game_no, head, _strip_actions(record["deals"][0]), room.doc()
            )
        except Exception:
            log.exception("room %s: storing a new game failed", room.code)
            self._reload(room)
            if room.status == WAITING:
                # every seat is taken (and stored): the game starts once the database takes
                # it, where it used to wait for a restart
                self._retry_later(room)
                return False
            if room.status == OVER:
                # a rematch, its asking stored: the same
                self._retry_later(room, self._rematch_again)
                return False
            raise ProtocolError("internal", "the game could not be stored", id=mid) from None
        room.history_len = 0
        self._broadcast_room(room)
        self._broadcast_state(room, None)
        self._schedule(room)
        return True

    def _start_waiting(self, room: Room) -> None:
        """Start the game of a waiting room whose seats are all taken (``_schedule``); a start
        the database refused is logged and tried again later (``_start_game``)."""
        room.timer = None
        if room.status == WAITING:
            with contextlib.suppress(ProtocolError):
                self._start_game(room)

    def _new_turn(self, room: Room) -> bool:
        """Start the clock when the turn passed to another seat (or a deal started)."""
        game = room.game
        assert game is not None
        seat = game.to_move
        if seat is None:
            room.deadline = None
            room.turn_seat = None
            return False
        if seat == room.turn_seat and room.deal == room.turn_deal and room.deadline is not None:
            return False
        room.turn += 1
        room.turn_seat, room.turn_deal = seat, room.deal
        room.deadline = now_ms() + room.duration
        return True

    def _play(
        self,
        room: Room,
        seat: int,
        text: str,
        *,
        auto: bool,
        ack: tuple[Connection, Any] | None = None,
        presence: bool = False,
    ) -> None:
        """Apply an action of ``seat``, store it, tell everybody, schedule what comes next."""
        game = room.game
        assert game is not None
        t0 = time.perf_counter()
        action = as_action(text)  # raises on bad notation
        game.apply(action)  # raises on an illegal action, changing nothing
        t1 = time.perf_counter()
        held = room.held
        if held and not self._holds(room):
            self._release(room)  # an away person acted: the clock goes on, stored below
        # The canonical text, as the engine's record writes it: what is stored replays the
        # same whatever spelling the player used, and the other seats read it alike.
        stored = str(action)
        try:
            seq = room.seq
            room.seq += 1
            header: JSON | None = None
            public = game.public_view()
            restocks = int(public.get("restocks") or 0)
            if restocks != room.restocks:
                room.restocks = restocks
                header = _strip_actions(game.record()["deals"][room.deal])
            phase = game.phase
            over_record: JSON | None = None
            if phase == "deal-over":
                room.status = BETWEEN
                room.next_deal_at = now_ms() + int(self.config.next_deal_pause * 1000)
                room.deadline = None
            elif phase == "game-over":
                room.status = OVER
                room.deadline = None
                room.next_deal_at = None
                over_record = game.record()
                # A record names no one: the look back at a finished game and its download
                # named the seats from the room as it is when read, not as the game was played.
                over_record["seats"] = record_seats(room)
            else:
                self._new_turn(room)
            if not room.held and self._holds(room):
                # the last person there was just marked away: the state sent below shows
                # the clock stopped
                self._freeze(room)
            # One transaction: a crash between two commits left an action whose rebuilt stock
            # was not stored (a game that no longer replays) or a finished game whose record
            # was never kept.
            self.storage.append_action(
                room.code, room.game_no, room.deal, seq, stored, room.doc(), header, over_record
            )
        except Exception:
            log.exception("room %s: storing an action failed; reloading it", room.code)
            self._reload(room)
            raise ProtocolError("internal", "the action could not be stored") from None
        t2 = time.perf_counter()
        self._broadcast_state(room, {"seat": seat, "action": stored, "auto": auto}, ack, public)
        if presence or room.held != held:
            self._broadcast_room(room)
        if room.status in (BETWEEN, OVER):
            self._deal_over(room, public)
        self._schedule(room)
        t3 = time.perf_counter()
        if t3 - t0 > SLOW_S:
            log.warning(
                "slow action in room %s: %r took %.0f ms (engine %.0f, storage %.0f, views and "
                "sending %.0f)",
                room.code,
                text,
                (t3 - t0) * 1000,
                (t1 - t0) * 1000,
                (t2 - t1) * 1000,
                (t3 - t2) * 1000,
            )

    def _next_deal(self, room: Room) -> None:
        game = room.game
        if game is None or room.status != BETWEEN or game.phase != "deal-over" or room.held:
            return
        if room.busy:
            room.timer = asyncio.get_running_loop().call_later(0.01, self._next_deal, room)
            return
        game.next_deal()
        room.deal += 1
        room.seq, room.restocks = 0, 0
        room.status = PLAYING
        room.next_deal_at = None
        self._new_turn(room)
        header = _strip_actions(game.record()["deals"][room.deal])
        try:
            self.storage.save_deal(room.code, room.game_no, room.deal, header, room.doc())
        except Exception:
            log.exception("room %s: storing a new deal failed; reloading it", room.code)
            self._reload(room)
            self._retry_later(room)
            return
        self._broadcast_room(room)
        self._broadcast_state(room, None)
        self._schedule(room)

    def _retry_later(self, room: Room, then: Callable[[Room], None] | None = None) -> None:
        """After the database refused what the clock or a bot did (a new deal, a ``timeout``,
        a bot's move), try again in ``STORE_RETRY_S``: the room was put back as stored, with a
        deadline or a next-deal time already past. Scheduled at once it was retried as fast as
        the loop ran (a new deal refused over a thousand times a second, each logged with its
        traceback, on a full disk), and a refused ``timeout`` or bot move was never tried again:
        the game stood still after the database was back. ``then``: what to try again
        (``_schedule`` unless told)."""
        if room.timer is not None:
            room.timer.cancel()
        room.timer = asyncio.get_running_loop().call_later(
            STORE_RETRY_S, then or self._schedule, room
        )
