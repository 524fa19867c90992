"""What the connections of a room are sent: each seat's view of the game (reused while a
waiting seat's own part is unchanged), states with the deal's events, room summaries, and the
end of a deal or game.

The views and states are the engine's (``game.view``, ``game.public_view``): nothing is added
from the server's own knowledge of the game. With ``offload_views`` a view that costs is
computed in the view threads while its room waits (``busy``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from rummykit.engine import Game
from rummykit.server.limits import RoomLimits
from rummykit.server.room_state import BETWEEN, OVER, PLAYING, Connection, Room, dumps, now_ms
from rummykit.server.storage import JSON

log = logging.getLogger("rummykit.server")


def _own_part(full: JSON, public: JSON) -> JSON:
    """What a seat's view has beyond the public view (its hand, meters, costs …)."""
    return {k: v for k, v in full.items() if k not in public or (k != "seat" and public[k] != v)}


class RoomViews(RoomLimits):
    """The room manager's sending of rooms and states to the connections in them."""

    def _view(self, room: Room, seat: int, public: JSON) -> JSON:
        """``game.view(seat)``, computed cheaply for a seat that is not to move.

        A seat's view is the public view plus its own part (``hand``, ``opening``,
        ``declaration``). For a seat that is not to move, that own part only depends on its
        hand and on who has opened, so it is reused from the last time it was computed while
        those are unchanged; the opening meter (a solver search) is then not run again for
        every action of the other players. ``verify_views`` checks the result against the
        engine (tests run with it).
        """
        game = room.game
        assert game is not None
        key = self._view_key(room, seat, public)
        if key is None:
            room.view_cache.pop(seat, None)
            return game.view(seat)
        view = self._cached_view(room, seat, public, key)
        if view is None:
            full = game.view(seat)
            room.view_cache[seat] = (key, _own_part(full, public))
            return full
        return view

    def _view_key(self, room: Room, seat: int, public: JSON) -> Any:
        """What the own part of a waiting seat's view depends on (None: not cacheable)."""
        game = room.game
        assert game is not None
        hand_of = getattr(game, "hand", None)
        if seat == game.to_move or hand_of is None:
            return None
        return (
            public["deal"],
            public["over"],
            public["turn"] is None,  # the deal is over
            tuple(c.text for c in hand_of(seat)),
            tuple(s["opened"] for s in public["seats"]),
            public["seats"][seat].get("drop_cost"),  # changes when the seat draws (Indian)
        )

    def _cached_view(self, room: Room, seat: int, public: JSON, key: Any) -> JSON | None:
        """The view of a waiting seat from the cache, or None when its own part changed."""
        cached = room.view_cache.get(seat)
        if cached is None or cached[0] != key:
            return None
        view = {**public, "seat": seat, **cached[1]}
        if self.config.verify_views:
            assert room.game is not None
            truth = room.game.view(seat)
            if truth != view:
                diff = {k: (truth.get(k), view.get(k)) for k in truth if truth[k] != view.get(k)}
                log.error("view cache mismatch in room %s seat %s: %s", room.code, seat, diff)
                return truth
        return view

    def _broadcast_room(self, room: Room) -> None:
        base = room.summary(self.levels)
        for seat in room.seats:
            if seat.conn is not None:
                seat.conn.send({**base, "you": {"seat": seat.seat}})
        if room.watchers:
            text = dumps({**base, "you": {"seat": None}})
            for conn in room.watchers:
                conn.send_text(text)

    def _send_room(self, conn: Connection, room: Room, mid: Any = None) -> None:
        msg = {**room.summary(self.levels), "you": {"seat": conn.seat}}
        if mid is not None:
            msg["id"] = mid
        conn.send(msg)

    def _clock(self, room: Room) -> JSON | None:
        game = room.game
        if game is None or room.status != PLAYING or game.to_move is None or room.deadline is None:
            return None
        return {
            "seat": game.to_move,
            "deadline": room.deadline,
            "remaining": max(0, room.deadline - now_ms()),
            "duration": room.duration,
        }

    def _state_msg(self, room: Room, view: JSON, events: list[JSON], last: JSON | None) -> JSON:
        assert room.game is not None
        return {
            "type": "state",
            "room": room.code,
            "game": room.game_no,
            "version": view.get("version", room.game.version),
            "view": view,
            "last": last,
            "events": events,
            "clock": self._clock(room),
        }

    def _send_state(self, conn: Connection, room: Room) -> None:
        """The full state to one connection (entering a room)."""
        game = room.game
        if game is None:
            return
        view = game.public_view() if conn.seat is None else game.view(conn.seat)
        msg = self._state_msg(room, view, [], None)
        del msg["events"]
        # The deal's events are the same for everybody entering: written once per change of
        # the deal, not at every join (a deal of 30,000 events is 2.4 MB of JSON, some 100 ms
        # to write, and joining again and again would have made the server write it each time).
        conn.send_text(dumps(msg)[:-1] + ',"events":' + self._history_text(room, game) + "}")

    @staticmethod
    def _history_text(room: Room, game: Game) -> str:
        """The current deal's events as JSON text (events are only ever appended to a deal)."""
        key = (room.game_no, len(game.deals), game.history_length())
        if room.history_text is None or room.history_text[0] != key:
            room.history_text = (key, dumps(game.history()))  # type: ignore[arg-type]
        return room.history_text[1]

    def _broadcast_state(
        self,
        room: Room,
        last: JSON | None,
        ack: tuple[Connection, Any] | None = None,
        public: JSON | None = None,
    ) -> None:
        game = room.game
        assert game is not None
        count = game.history_length()
        # Only the events since the previous state are copied: the whole deal's, copied at
        # every action, made each action of a long deal cost more (a Rami deal rebuilds its
        # stock without end; 225 ms an action after 30,000 of them).
        if last is None or count < room.history_len:
            events = game.history()
        else:
            events = game.history(room.history_len)
        room.history_len = count
        if public is None:
            public = game.public_view()
        for seat in room.seats:
            conn = seat.conn
            if conn is None:
                continue
            mid = ack[1] if ack is not None and ack[0] is conn else None
            if self.config.offload_views:
                key = self._view_key(room, seat.seat, public)
                view = None if key is None else self._cached_view(room, seat.seat, public, key)
                if view is None:
                    self._send_view_later(room, conn, seat.seat, events, last, mid, key, public)
                    continue
            else:
                view = self._view(room, seat.seat, public)
            msg = self._state_msg(room, view, events, last)
            if mid is not None:
                msg["ack"] = mid
            conn.send(msg)
        if room.watchers:
            msg = self._state_msg(room, public, events, last)
            text = dumps(msg)
            for conn in room.watchers:
                if ack is not None and ack[0] is conn and ack[1] is not None:
                    conn.send({**msg, "ack": ack[1]})
                else:
                    conn.send_text(text)

    def _send_view_later(
        self,
        room: Room,
        conn: Connection,
        seat: int,
        events: list[JSON],
        last: JSON | None,
        mid: Any,
        key: Any = None,
        public: JSON | None = None,
    ) -> None:
        """Compute a seat's view in the view thread (the seat to move, or a waiting seat whose
        hand changed), then send its state. The room is *busy* until then: its game does not
        change (actions wait, the clock waits)."""
        game = room.game
        assert game is not None
        room.busy += 1
        future = asyncio.get_running_loop().run_in_executor(self.view_pool, game.view, seat)

        def done(f: asyncio.Future[JSON]) -> None:
            room.busy -= 1
            try:
                view = f.result()
            except Exception:
                log.exception("room %s: view of seat %s failed", room.code, seat)
                view = game.view(seat)
            if key is not None and public is not None:
                room.view_cache[seat] = (key, _own_part(view, public))
            if room.seats[seat].conn is not conn:
                # The connection lost the seat while its view was computed (resumed on another
                # connection, or left): the seat's cards are no longer its to see. Still in
                # the room it is a spectator, told of the change as spectators are.
                if conn.room is not room or conn.seat is not None:
                    return
                view = public if public is not None else game.public_view()
            msg = self._state_msg(room, view, events, last)
            if mid is not None:
                msg["ack"] = mid
            conn.send(msg)

        future.add_done_callback(done)

    def _deal_over(self, room: Room, public: JSON) -> None:
        results = public.get("results") or []
        msg = {
            "type": "deal_over",
            "room": room.code,
            "game": room.game_no,
            "deal": room.deal + 1,
            "result": results[-1] if results else None,
            "scores": public.get("scores"),
            "next_deal_at": room.next_deal_at if room.status == BETWEEN else None,
        }
        for conn in room.connections():
            conn.send(msg)
        if room.status == OVER:
            over = {
                "type": "game_over",
                "room": room.code,
                "game": room.game_no,
                "winner": public.get("winner"),
                "scores": public.get("scores"),
                "results": results,
                "record": f"/records/{room.code}-{room.game_no}.json",
            }
            for conn in room.connections():
                conn.send(over)
        self._broadcast_room(room)
