"""A room's state: its status, its seats, the connections in it, and how each is stored.

Plain data with no behaviour of the server's: ``RoomManager`` (``rooms.py``) and its parts
change it, always on the event loop.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from rummykit.engine import Game
from rummykit.server.addresses import address_key
from rummykit.server.storage import JSON

WAITING, PLAYING, BETWEEN, OVER = "waiting", "playing", "between-deals", "over"


def now_ms() -> int:
    """The time now in epoch milliseconds, as deadlines and stored times are kept."""
    return int(time.time() * 1000)


def hash_token(token: str) -> str:
    """What a room stores of a seat token: its SHA-256, in hex."""
    # JSON may carry a lone surrogate ("\\ud800"), which strict UTF-8 cannot encode: such a
    # token holds no seat (bad_token), it is not a server error.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def dumps(msg: JSON) -> str:
    """A message as the compact JSON text sent to clients."""
    return json.dumps(msg, separators=(",", ":"))


class Connection:
    """One WebSocket client: an outgoing queue drained by the app's writer task."""

    def __init__(self, max_queue: int = 512, address: str = "") -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = max_queue
        self.address = address  # the client's IP address ("" when unknown)
        self.key = address_key(address)  # what the per-address limits count it under
        self.room: Room | None = None
        self.seat: int | None = None
        self.closed = False
        self.overflow = False
        self.created = 0  # rooms created on this connection
        #: the room and token hash of the seat a ``resume`` elsewhere took from this connection:
        #: the person holding that token is the one here, who may not take a second seat there
        self.replaced_from: tuple[Room, str] | None = None

    def send(self, msg: JSON) -> None:
        self.send_text(dumps(msg))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            # A client that does not read is cut off rather than holding memory.
            self.overflow = True
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class Seat:
    """One seat of a room: who holds it (nobody, a person or a bot) and their marks."""

    seat: int
    kind: str = "empty"  # empty, human, bot
    name: str | None = None
    level: str | None = None
    token: str | None = None  # SHA-256 of the seat token
    away: bool = False
    timeouts: int = 0
    rematch: bool = False
    conn: Connection | None = None
    #: when (``monotonic``) its quick messages of the last ``SAY_WINDOW`` seconds were sent;
    #: not stored
    said: collections.deque[float] = field(default_factory=collections.deque, repr=False)

    def doc(self) -> JSON:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token": self.token,
            "away": self.away,
            "timeouts": self.timeouts,
            "rematch": self.rematch,
        }

    def clear(self) -> None:
        for name, value in EMPTY_SEAT.items():
            setattr(self, name, value)
        self.said.clear()


#: the stored fields of a seat nobody holds (``Seat.clear``)
EMPTY_SEAT: JSON = {
    "kind": "empty", "name": None, "level": None, "token": None, "away": False, "timeouts": 0,
    "rematch": False,
}


@dataclass
class Room:
    """One room: its settings, its seats, its game and clock, who watches it."""

    code: str
    variant: str
    players: int
    options: JSON
    status: str = WAITING
    game_no: int = 0
    seats: list[Seat] = field(default_factory=list)
    game: Game | None = None
    deal: int = 0  # 0-based index of the current deal in the record
    seq: int = 0  # actions stored in the current deal
    restocks: int = 0
    turn: int = 0  # counts turns; a deadline belongs to one turn
    turn_seat: int | None = None
    turn_deal: int = -1
    deadline: int | None = None  # epoch ms
    duration: int = 45000
    next_deal_at: int | None = None
    created: int = field(default_factory=now_ms)
    watchers: set[Connection] = field(default_factory=set)
    history_len: int = 0
    #: the deal's events as JSON text, for the states of connections entering the room:
    #: ((game number, deal number, events), text) -- see RoomManager._history_text
    history_text: tuple[tuple[int, int, int], str] | None = None
    timer: asyncio.Handle | None = None
    touched: int = field(default_factory=now_ms)  # last message from a person in the room
    #: views being computed off the loop; the game must not change meanwhile
    busy: int = 0
    #: by seat: (key, the seat's own part of its view) — see RoomManager._view
    view_cache: dict[int, tuple[Any, JSON]] = field(default_factory=dict)
    #: nobody is in the room (no seated person connected, no spectator), or every seated
    #: person is away: its clock and its bots stand still, and ``left`` keeps the milliseconds
    #: the turn's clock (or the pause before the next deal) had left — see RoomManager._hold
    held: bool = False
    left: int | None = None
    #: the game's version as stored, while its record is not loaded (``game`` is None with
    #: ``game_no`` > 0: a restored room nobody has come back to yet)
    stored_version: int | None = None
    #: the game and version a bot of the room is deciding about (one decision at a time)
    thinking: tuple[Game, int] | None = None
    #: epoch ms: when a finished game's rematch starts without the people who are gone (some
    #: person there asked, every seat that did not ask has nobody there) — see
    #: RoomManager._rematch_check. Stored with the room; a restart keeps the time it had left
    #: in ``rematch_left`` (nobody is there yet) and starts the clock with it when it runs again.
    rematch_at: int | None = None
    rematch_left: int | None = None

    def doc(self) -> JSON:
        return {
            "code": self.code,
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "status": self.status,
            "game": self.game_no,
            "deal": self.deal,
            "seq": self.seq,
            "restocks": self.restocks,
            "turn": self.turn,
            "turn_seat": self.turn_seat,
            "turn_deal": self.turn_deal,
            "deadline": self.deadline,
            "duration": self.duration,
            "next_deal_at": self.next_deal_at,
            "created": self.created,
            "touched": self.touched,
            "version": self.stored_version if self.game is None else self.game.version,
            "held": self.held,
            "left": self.left,
            "rematch_at": self.rematch_at,
            "rematch_left": self.rematch_left,
            "seats": [s.doc() for s in self.seats],
            # when this state was stored: a restart gives a running clock the time it had
            # left then, so the server's downtime never counts against a turn
            "saved": now_ms(),
        }

    @classmethod
    def from_doc(cls, doc: JSON) -> Room:
        room = cls(
            code=doc["code"],
            variant=doc["variant"],
            players=doc["players"],
            options=doc["options"],
            status=doc["status"],
            game_no=doc["game"],
            deal=doc["deal"],
            seq=doc["seq"],
            restocks=doc.get("restocks", 0),
            turn=doc["turn"],
            turn_seat=doc["turn_seat"],
            turn_deal=doc["turn_deal"],
            deadline=doc["deadline"],
            duration=doc["duration"],
            next_deal_at=doc["next_deal_at"],
            created=doc["created"],
            touched=int(doc.get("touched") or doc["created"]),
            held=bool(doc.get("held", False)),
            left=doc.get("left"),
            stored_version=doc.get("version"),
            rematch_left=doc.get("rematch_left"),
        )
        room.seats = [
            Seat(
                seat=s["seat"],
                kind=s["kind"],
                name=s["name"],
                level=s["level"],
                token=s["token"],
                away=s["away"],
                timeouts=s["timeouts"],
                rematch=s["rematch"],
            )
            for s in doc["seats"]
        ]
        return room

    def connections(self) -> list[Connection]:
        out = [s.conn for s in self.seats if s.conn is not None]
        out.extend(self.watchers)
        return out

    def summary(self, levels: tuple[str, ...]) -> JSON:
        return {
            "type": "room",
            "room": self.code,
            "link": f"/r/{self.code}",
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "status": self.status,
            "game": self.game_no,
            "bot_levels": list(levels),
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    **({"level": s.level} if s.kind == "bot" else {}),
                    "connected": s.kind == "bot" or s.conn is not None,
                    "away": s.away,
                    "rematch": s.rematch,
                }
                for s in self.seats
            ],
            "spectators": len(self.watchers),
            "next_deal_at": self.next_deal_at if self.status == BETWEEN else None,
            "held": self.held,
            "rematch_at": self.rematch_at if self.status == OVER else None,
        }


def record_seats(room: Room) -> list[JSON]:
    """Who held each seat when the game ended, for its record (``seats``): the seat's kind,
    its display name and a bot's level, as a room summary lists them. Nothing private: no
    token, and the room's summary shows these to whoever has its code."""
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            **({"level": s.level} if s.kind == "bot" else {}),
        }
        for s in room.seats
    ]
