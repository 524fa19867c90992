"""Bots' turns in a room: a bot decides in the worker pool (``botpool.py``) and its answer
is played only if the game has not moved on meanwhile; an answer the engine refuses (a bot's
bug) is replaced by the standby level's move, else the fallback move.
"""

from __future__ import annotations

import asyncio
import logging
import random

from rummykit.engine import Game
from rummykit.errors import RummyError
from rummykit.server.botpool import STANDBY_LEVEL, fallback_bot
from rummykit.server.protocol import ProtocolError
from rummykit.server.rematch import RoomRematch
from rummykit.server.room_state import PLAYING, Room
from rummykit.server.storage import JSON

log = logging.getLogger("rummykit.server")


class BotTurns(RoomRematch):
    """The room manager's playing of its bots' turns."""

    @staticmethod
    def _thinking(room: Room, game: Game, version: int) -> bool:
        """Whether a bot of the room is deciding its move of ``game`` at ``version``."""
        return (
            room.thinking is not None and room.thinking[0] is game and room.thinking[1] == version
        )

    async def _bot_turn(self, room: Room, seat: int, game: Game, version: int) -> None:
        try:
            await self._bot_decides(room, seat, version)
        finally:
            if self._thinking(room, game, version):
                room.thinking = None

    async def _bot_decides(self, room: Room, seat: int, version: int) -> None:
        if self.config.bot_delay > 0:
            await asyncio.sleep(self.config.bot_delay)
        game = room.game
        if game is None or room.status != PLAYING or self._moved_on(room, game, version, seat):
            return
        level = room.seats[seat].level or self.levels[0]
        view: JSON | None = None
        if self.config.offload_views and self.bots.choose is not None:
            room.busy += 1
            try:
                view = await asyncio.get_running_loop().run_in_executor(
                    self.view_pool, game.view, seat
                )
            finally:
                room.busy -= 1
            if self._moved_on(room, game, version, seat):
                return
        try:
            action = await self.bots.decide(game, seat, level, view, room=room.code)
        except Exception:
            log.exception("room %s: bot failed", room.code)
            return
        while room.busy:
            await asyncio.sleep(0.005)
        if self._moved_on(room, game, version, seat):
            return
        try:
            self._play(room, seat, action, auto=False)
        except RummyError as exc:
            await self._bot_refused(room, game, seat, level, version, action, exc)
        except ProtocolError:  # not stored (logged): the bot decides again later
            self._retry_later(room)

    def _moved_on(self, room: Room, game: Game, version: int, seat: int) -> bool:
        """Whether a bot's answer for ``seat`` at ``version`` came too late: the game moved
        on, the room itself was swept meanwhile (a move would bring it back to storage), or
        everybody left it (a held room does not move; the bot decides again when somebody
        comes back)."""
        return (
            room.held
            or self.closed
            or self.rooms.get(room.code) is not room
            or room.game is not game
            or game.version != version
            or game.to_move != seat
        )

    async def _bot_refused(
        self, room: Room, game: Game, seat: int, level: str, version: int, action: str,
        exc: RummyError,
    ) -> None:
        """A bot's answer the engine refused (a bot bug): the seat plays the standby level's
        move instead, as for a bot that fails or overruns, else the fallback move. Each refusal
        is logged once, with the move played instead."""
        told = False  # whether the refusal of ``action`` is logged already
        if level != STANDBY_LEVEL:
            log.warning(
                "room %s seat %d (%s): bot action %r refused (%s); playing the %s move",
                room.code, seat, level, action, exc, STANDBY_LEVEL,
            )
            standby: str | None = None
            try:
                standby = await self.bots.decide(game, seat, STANDBY_LEVEL, room=room.code)
            except Exception:
                # The refusal is logged above: said again below, it read as a second one.
                log.exception("room %s seat %d: the %s bot failed; playing the fallback move",
                              room.code, seat, STANDBY_LEVEL)
                told = True
            # As after the first answer: the game stays as it is while views of it are being
            # computed in the view thread, and it may have moved on meanwhile.
            while room.busy:
                await asyncio.sleep(0.005)
            if self._moved_on(room, game, version, seat):
                return
            if standby is not None:
                try:
                    self._play(room, seat, standby, auto=False)
                    return
                except RummyError as again:
                    exc, action = again, standby
                except ProtocolError:
                    self._retry_later(room)
                    return
        if not told:
            log.warning(
                "room %s seat %d: bot action %r refused (%s); playing the fallback move",
                room.code, seat, action, exc,
            )
        try:
            self._play(room, seat, fallback_bot(game, seat, random.Random()), auto=False)
        except RummyError:
            log.exception("room %s: fallback bot refused too", room.code)
        except ProtocolError:
            self._retry_later(room)
