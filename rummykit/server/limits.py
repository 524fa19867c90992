"""The per-address limits of the room manager: connections open from one address, rooms it
created lately, room codes it asked for that named no room.

A room code is a private room's only key: an address that asks for too many codes naming
nothing is refused every lookup for a while (``check_code_lookup``). This machine (loopback)
and unknown addresses are not limited (``addresses.limited``).
"""

from __future__ import annotations

import collections
from typing import Any

from rummykit.server.addresses import address_key, limited, recent_times
from rummykit.server.protocol import ProtocolError
from rummykit.server.room_state import Connection, Room
from rummykit.server.room_store import RoomStore


class RoomLimits(RoomStore):
    """The room manager's counting of what each client address does."""

    def _recent_rooms(self, key: str, now: float) -> collections.deque[float]:
        """When an address (its ``address_key``) created its rooms of the last
        ``rooms_window`` seconds."""
        return recent_times(self.rooms_by_address, key, now - self.config.rooms_window)

    def _recent_misses(self, key: str, now: float) -> collections.deque[float]:
        """When an address (its ``address_key``) asked for codes naming no room over the last
        ``codes_window`` seconds."""
        return recent_times(self.misses_by_address, key, now - self.config.codes_window)

    def check_code_lookup(self, address: str, mid: Any = None) -> None:
        """Refuse (``rate_limited``) a lookup by room code from ``address`` when it asked for
        too many codes naming nothing lately. A code is a private room's only key, so such an
        address is refused every lookup, of a room that exists too (else a hit would tell
        itself from the refused misses), until its window slides."""
        limit = self.config.max_missed_codes_per_address
        if not limited(address, limit):
            return
        if len(self._recent_misses(address_key(address), self.monotonic())) >= limit:
            minutes = max(1, round(self.config.codes_window / 60))
            raise ProtocolError(
                "rate_limited",
                f"too many room codes naming nothing asked from this address ({limit} in "
                f"{minutes} minutes)",
                id=mid,
                reason="codes",
            )

    def note_missed_code(self, address: str) -> None:
        """Count a lookup from ``address`` of a code that named nothing."""
        if limited(address, self.config.max_missed_codes_per_address):
            now = self.monotonic()
            self._recent_misses(address_key(address), now).append(now)

    def find_room(self, code: str, address: str, mid: Any = None) -> Room:
        """The room of ``code`` asked for from ``address`` (a WebSocket's join or resume, the
        HTTP room summary), counted against the address's misses (``check_code_lookup``)."""
        self.check_code_lookup(address, mid)
        room = self.rooms.get(code)
        if room is None:
            self.note_missed_code(address)
            raise ProtocolError("no_room", f"no room {code}", id=mid)
        return room

    def admit(self, conn: Connection) -> bool:
        """Count a new connection of its address; False (not counted) if the address already
        has ``max_connections_per_address`` open."""
        limit = self.config.max_connections_per_address
        if limited(conn.address, limit) and self.by_address[conn.key] >= limit:
            return False
        self.by_address[conn.key] += 1
        return True
