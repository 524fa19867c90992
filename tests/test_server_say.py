"""Quick messages (``say``): fixed phrases from a seated person to everyone in the room."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from rummykit.server.protocol import (
    PHRASES,
    SAY_BURST,
    SAY_WINDOW,
    ProtocolError,
    parse_client_message,
)
from rummykit.server.rooms import Connection, RoomManager
from tests.server_support import sent


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table(manager: RoomManager) -> tuple[Connection, Connection, Connection, Connection]:
    """Ana and Ben seated at a three-seat rummy table (seat 2 still empty), a spectator, and a
    connection in no room."""
    ana, ben, watcher, outsider = Connection(), Connection(), Connection(), Connection()

    async def main() -> None:
        manager.handle(ana, {"type": "create", "id": 1, "variant": "rummy", "players": 3,
                             "options": {}})
        assert ana.room is not None
        code = ana.room.code
        manager.handle(ana, {"type": "sit", "id": 2, "seat": 0, "name": "Ana"})
        for conn in (ben, watcher):
            manager.handle(conn, {"type": "join", "id": 3, "room": code})
        manager.handle(ben, {"type": "sit", "id": 4, "seat": 1, "name": "Ben"})

    asyncio.run(main())
    for conn in (ana, ben, watcher, outsider):
        sent(conn)
    return ana, ben, watcher, outsider


def say(manager: RoomManager, conn: Connection, phrase: str, mid: Any = 9) -> None:
    manager.handle(conn, parse_client_message(
        json.dumps({"type": "say", "id": mid, "phrase": phrase})))


def saids(conn: Connection) -> list[dict[str, Any]]:
    return [m for m in sent(conn) if m["type"] == "said"]


def test_a_phrase_reaches_everyone_in_the_room(manager: RoomManager) -> None:
    ana, ben, watcher, outsider = table(manager)
    say(manager, ben, "good_luck", mid="b1")
    expected = {"type": "said", "seat": 1, "phrase": "good_luck"}
    assert saids(ana) == [expected]
    assert saids(watcher) == [expected]
    assert saids(ben) == [{**expected, "id": "b1"}]  # the sender's copy answers its request
    assert sent(outsider) == []


def test_only_the_fixed_phrases_and_only_from_a_seat(manager: RoomManager) -> None:
    ana, _ben, watcher, outsider = table(manager)
    for phrase in PHRASES:
        assert parse_client_message(f'{{"type": "say", "phrase": "{phrase}"}}')["phrase"] == phrase
    for bad in ('"hi there"', '"Hello"', "1", "null", '["hello"]', '""'):
        with pytest.raises(ProtocolError) as info:
            parse_client_message(f'{{"type": "say", "phrase": {bad}}}')
        assert info.value.code == "bad_message"
    with pytest.raises(ProtocolError) as info:
        say(manager, watcher, "hello")
    assert info.value.code == "not_seated"
    with pytest.raises(ProtocolError) as info:
        say(manager, outsider, "hello")
    assert info.value.code == "not_in_room"
    assert saids(ana) == []


def test_at_most_a_few_every_ten_seconds_per_seat(manager: RoomManager) -> None:
    clock = Clock()
    manager.monotonic = clock
    ana, ben, _watcher, _outsider = table(manager)
    for _ in range(SAY_BURST):
        say(manager, ana, "oops")
        clock.now += 1
    with pytest.raises(ProtocolError) as info:
        say(manager, ana, "oops", mid="over")
    assert info.value.code == "rate_limited"
    assert info.value.extra == {"id": "over", "reason": "say"}
    assert f"at most {SAY_BURST} quick messages every 10 seconds" in info.value.message
    # another seat has its own allowance
    say(manager, ben, "thanks")
    assert len(saids(ana)) == SAY_BURST + 1
    # the first one falls out of the window: one more may go
    clock.now = 1000.0 + SAY_WINDOW
    say(manager, ana, "bye")
    with pytest.raises(ProtocolError):
        say(manager, ana, "bye")


def test_nothing_of_it_is_stored(manager: RoomManager) -> None:
    ana, _ben, _watcher, _outsider = table(manager)
    assert ana.room is not None
    before = ana.room.doc()
    say(manager, ana, "hello")
    after = ana.room.doc()
    # the room was used (its sweep waits), and nothing else changed ("saved" is the time now)
    assert after.pop("touched") >= before.pop("touched")
    assert after.pop("saved") >= before.pop("saved")
    assert after == before
