"""Fixes of the server found through the web client, checked on the room objects: a rematch
that waited for ever for a person who had gone, …"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError, parse_client_message
from rummykit.server.rooms import OVER, PLAYING, Connection, Room, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import sent


def _manager(storage: SQLiteStorage, **kw: Any) -> RoomManager:
    """Rooms whose 30 s clock lasts 120 ms."""
    config = ServerConfig(
        bot_pool="thread", offload_views=False, bot_delay=0, clock_scale=0.004,
        away_delay=0, verify_views=True, **kw,
    )
    return RoomManager(storage, config)


def _people(
    manager: RoomManager, n: int = 2, variant: str = "indian",
    options: dict[str, Any] | None = None,
) -> tuple[Room, list[Connection], list[str]]:
    """A started game of ``n`` people; their connections and seat tokens."""
    conns = [Connection() for _ in range(n)]
    manager.handle(conns[0], {"type": "create", "id": 1, "variant": variant, "players": n,
                              "options": {"clock": 30} if options is None else options})
    room = next(r for r in manager.rooms.values() if conns[0] in r.watchers)
    for conn in conns[1:]:
        manager.handle(conn, {"type": "join", "id": 1, "room": room.code})
    tokens = []
    for seat, conn in enumerate(conns):
        manager.handle(conn, {"type": "sit", "id": 2, "seat": seat, "name": f"P{seat}"})
        tokens.append(next(m["token"] for m in sent(conn) if m["type"] == "seated"))
    assert room.status == PLAYING and room.game is not None
    return room, conns, tokens


def _over(manager: RoomManager, room: Room, conns: list[Connection]) -> None:
    """End a two-seat Indian game scored by points: the first drop ends it."""
    game = room.game
    assert game is not None and game.to_move is not None
    manager.handle(conns[game.to_move], {"type": "action", "id": 3, "version": game.version,
                                         "action": "drop"})
    assert room.status == OVER


def _last_room(conn: Connection) -> dict[str, Any]:
    return [m for m in sent(conn) if m["type"] == "room"][-1]


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _run(storage: SQLiteStorage, manager: RoomManager, main: Callable[[], Any]) -> None:
    try:
        asyncio.run(main())
    finally:
        manager.close()
        storage.close()


# -- 1. a rematch does not wait for people who are gone ----------------------------------------


def test_a_rematch_starts_without_a_person_gone_once_the_clock_runs_out(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "r.db"))
    manager = _manager(storage)

    async def main() -> None:
        room, conns, tokens = _people(manager, options={"clock": 30, "format": "points"})
        _over(manager, room, conns)
        manager.disconnected(conns[1])  # P1 closed the tab
        sent(conns[0])
        manager.handle(conns[0], {"type": "rematch", "id": 4})
        # the rematch waits only for a person who is gone: its clock runs, and P0 is told
        assert room.status == OVER and room.rematch_at is not None
        assert _last_room(conns[0])["rematch_at"] == room.rematch_at
        await _until(lambda: room.status == PLAYING, "the rematch started")
        assert room.game_no == 2 and room.rematch_at is None
        # P1's seat is still P1's, played at once by the clock (away) until P1 comes back
        assert room.seats[1].kind == "human" and room.seats[1].away
        assert not room.seats[0].away and not room.held
        back = Connection()
        manager.handle(back, {"type": "resume", "id": 5, "room": room.code, "token": tokens[1]})
        assert room.seats[1].conn is back and not room.seats[1].away

    _run(storage, manager, main)


def test_a_rematch_waits_for_a_person_who_is_there(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "r.db"))
    manager = _manager(storage)

    async def main() -> None:
        room, conns, _ = _people(manager, options={"clock": 30, "format": "points"})
        _over(manager, room, conns)
        manager.handle(conns[0], {"type": "rematch", "id": 4})
        # P1 is there, reading the results: the rematch is theirs to ask for, no clock runs
        assert room.status == OVER and room.rematch_at is None and room.timer is None
        assert _last_room(conns[1])["rematch_at"] is None
        manager.handle(conns[1], {"type": "rematch", "id": 4})
        assert room.status == PLAYING and not any(s.away for s in room.seats)

    _run(storage, manager, main)


def test_a_person_back_in_time_stops_the_rematch_clock(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "r.db"))
    manager = _manager(storage)

    async def main() -> None:
        room, conns, tokens = _people(manager, 3, options={"clock": 30, "format": "points"})
        game = room.game
        assert game is not None
        # two drops leave one player: the deal, and a game scored by points, are over
        while room.status != OVER:
            assert game.to_move is not None
            manager.handle(conns[game.to_move], {"type": "action", "id": 3,
                                                 "version": game.version, "action": "drop"})
        manager.disconnected(conns[2])
        manager.handle(conns[0], {"type": "rematch", "id": 4})
        # P1 is there: nothing runs yet; P1 leaves: now only the gone are waited for
        assert room.rematch_at is None
        manager.disconnected(conns[1])
        assert room.rematch_at is not None and room.timer is not None
        assert _last_room(conns[0])["rematch_at"] == room.rematch_at
        # P1 comes back before the clock ran out: the rematch waits for them again
        back = Connection()
        manager.handle(back, {"type": "resume", "id": 5, "room": room.code, "token": tokens[1]})
        assert room.rematch_at is None and room.timer is None
        assert _last_room(conns[0])["rematch_at"] is None
        # and the one who asked leaving stops it too: no new game for nobody there
        manager.disconnected(back)
        assert room.rematch_at is not None
        manager.disconnected(conns[0])
        assert room.rematch_at is None and room.timer is None and room.status == OVER

    _run(storage, manager, main)


# -- 2. a tab replaced in a waiting room takes no second seat ----------------------------------


def test_a_replaced_connection_may_not_take_a_second_seat_while_its_own_is_held(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "r.db"))
    manager = _manager(storage)

    async def main() -> None:
        first = Connection()
        manager.handle(first, {"type": "create", "id": 1, "variant": "rummy", "players": 3,
                               "options": {}})
        room = next(iter(manager.rooms.values()))
        manager.handle(first, {"type": "sit", "id": 2, "seat": 0, "name": "Ana"})
        token = next(m["token"] for m in sent(first) if m["type"] == "seated")
        # the same person opens the room in a second tab: it resumes the seat, the first tab
        # is replaced and watches
        second = Connection()
        manager.handle(second, {"type": "resume", "id": 1, "room": room.code, "token": token})
        assert room.seats[0].conn is second and first.seat is None and first in room.watchers
        sent(first)
        # the first tab may not sit again: one person, two seats (and the page's stored token
        # of the first seat overwritten by the second's)
        try:
            manager.handle(first, {"type": "sit", "id": 3, "seat": 1, "name": "Ana"})
        except ProtocolError as exc:
            assert exc.code == "replaced"
        else:
            raise AssertionError("a replaced connection took a second seat")
        assert room.seats[1].kind == "empty"
        # once that seat is given up (the other tab left the waiting room), it may sit
        manager.handle(second, {"type": "leave", "id": 4})
        assert room.seats[0].kind == "empty"
        manager.handle(first, {"type": "sit", "id": 5, "seat": 1, "name": "Ana"})
        assert room.seats[1].conn is first

    _run(storage, manager, main)


# -- 3. a refused join or resume leaves the connection where it was ----------------------------


def test_a_room_whose_record_no_longer_replays_is_refused_without_moving_anybody(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "r.db"))
    manager = _manager(storage)

    async def main() -> None:
        broken, conns, tokens = _people(manager, options={"clock": 30, "format": "points"})
        _over(manager, broken, conns)
        for conn in conns:
            manager.disconnected(conn)
        assert broken.game is None  # forgotten: read again when somebody comes back
        # the database is damaged: the game's record no longer replays
        manager.storage.load_game = lambda code, game: {"variant": "rummy"}  # type: ignore
        here, others, _ = _people(manager, options={"clock": 600})
        watcher = Connection()
        manager.handle(watcher, {"type": "join", "id": 1, "room": here.code})
        for conn, msg in (
            (watcher, {"type": "join", "id": 2, "room": broken.code}),
            (others[0], {"type": "resume", "id": 2, "room": broken.code, "token": tokens[0]}),
        ):
            seat = conn.seat
            manager.rooms[broken.code] = broken  # a refusal drops it from memory
            try:
                manager.handle(conn, msg)
            except ProtocolError as exc:
                assert exc.code == "no_room"
            else:
                raise AssertionError("a room that does not replay was entered")
            # nothing changed: the connection is where it was, in its seat or watching
            assert conn.room is here and conn.seat == seat
            if seat is None:
                assert conn in here.watchers
            else:
                assert here.seats[seat].conn is conn and not here.held

    _run(storage, manager, main)


# -- 7. names made of stacked combining marks ("Zalgo") ----------------------------------------


ZALGO = "Z\u0351\u0307\u0342a\u0300\u0301\u0302\u0303l\u0336g\u0334o"


@pytest.mark.parametrize(
    "name",
    [
        ZALGO,
        "Ana\u0301\u0301\u0301\u0301",  # four marks on the a
        "Ệ\u0301\u0301",  # a precomposed letter's marks count: four
        "B" + "\u20dd" * 4,  # enclosing marks count too
    ],
)
def test_a_name_stacking_marks_on_a_letter_is_refused_with_its_reason(name: str) -> None:
    msg = {"type": "sit", "id": 7, "seat": 0, "name": name}
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(json.dumps(msg))
    assert caught.value.code == "bad_name" and caught.value.extra["reason"] == "marks"
    assert "at most 3 marks on one character" in caught.value.message
    assert caught.value.extra["id"] == 7


@pytest.mark.parametrize(
    "name",
    [
        "Nguyễn Thị",  # Vietnamese: a circumflex and a tilde on the e
        "སྒྲུབ་པ",  # Tibetan: two subjoined letters and a vowel under one letter
        "ज़ूँ",  # Hindi: a nukta, a vowel sign and a candrabindu
        "ปิ่น",  # Thai: a vowel and a tone mark
        "Ana\u0301\u0301\u0301",  # three marks: the most a letter may carry
        "Ệ\u0301",  # a precomposed letter's two marks and one typed after it
        "Zoë",
    ],
)
def test_names_with_a_few_marks_on_a_letter_are_kept(name: str) -> None:
    msg = parse_client_message(json.dumps({"type": "sit", "id": 7, "seat": 0, "name": name}))
    assert msg["name"] == name

