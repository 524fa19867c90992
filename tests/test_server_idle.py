"""A room nobody is in (no seated person connected, no spectator) holds still: no clock, no
bot move, until somebody comes back, when its clock goes on with the time it had left. A
spectator alone is somebody. A restart reads only the rooms' states: every game holds, and its
record is replayed when somebody comes back to it (a finished game's too)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.config import ServerConfig
from rummykit.server.rooms import OVER, PLAYING, Connection, Room, RoomManager, now_ms
from rummykit.server.storage import SQLiteStorage
from tests.server_support import HeldBot, bot_to_move, sent


def _manager(storage: SQLiteStorage, clock_scale: float = 1.0) -> RoomManager:
    config = ServerConfig(
        bot_pool="thread", offload_views=False, bot_delay=0, clock_scale=clock_scale,
        verify_views=True,
    )
    return RoomManager(storage, config)


def _two_people(
    manager: RoomManager, variant: str = "rummy", options: dict[str, Any] | None = None
) -> tuple[Room, list[Connection], list[str]]:
    """A started two-seat game of two people; their connections and seat tokens."""
    conns = [Connection(), Connection()]
    manager.handle(conns[0], {"type": "create", "id": 1, "variant": variant, "players": 2,
                              "options": options or {}})
    room = next(r for r in manager.rooms.values() if conns[0] in r.watchers)
    manager.handle(conns[1], {"type": "join", "id": 1, "room": room.code})
    tokens = []
    for seat, conn in enumerate(conns):
        manager.handle(conn, {"type": "sit", "id": 2, "seat": seat, "name": f"P{seat}"})
        tokens.append(next(m["token"] for m in sent(conn) if m["type"] == "seated"))
    assert room.status == PLAYING and room.game is not None
    return room, conns, tokens


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _run(storage: SQLiteStorage, main: Callable[[], Coroutine[Any, Any, None]],
         *held: HeldBot) -> None:
    try:
        asyncio.run(main())
    finally:
        for bot in held:
            bot.release.set()
        storage.close()


def test_a_room_nobody_is_in_holds_its_clock_and_goes_on_with_the_time_it_had_left(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "idle.db"))
    manager = _manager(storage, clock_scale=0.004)  # a 30 s clock lasts 120 ms

    async def main() -> None:
        room, (c0, c1), tokens = _two_people(manager, options={"clock": 30})
        game = room.game
        assert game is not None and room.timer is not None
        version = game.version
        manager.handle(c0, {"type": "leave", "id": 3})
        assert not room.held  # a person is still there
        manager.disconnected(c1)
        assert room.held and room.timer is None and room.deadline is None
        assert room.left is not None and 0 <= room.left <= room.duration
        stored = storage.load_rooms()[0]
        assert stored["held"] is True and stored["left"] == room.left
        left = room.left
        # three clocks' worth: nothing is played
        await asyncio.sleep(3 * room.duration / 1000)
        assert game.version == version and room.held
        # a person comes back: the turn goes on with the time it had left
        back = Connection()
        before = now_ms()
        manager.handle(back, {"type": "resume", "id": 4, "room": room.code, "token": tokens[0]})
        after = now_ms()
        assert not room.held and room.left is None
        assert room.deadline is not None and before + left <= room.deadline <= after + left
        state = next(m for m in sent(back) if m["type"] == "state")
        assert state["clock"]["deadline"] == room.deadline and state["version"] == version
        # and runs out as before
        await _until(lambda: game.version > version, "the clock ran out")
        assert game.history()[-1]["action"] == "timeout"
        assert not storage.load_rooms()[0]["held"]
        manager.close()

    _run(storage, main)


def test_bots_stand_still_in_a_room_nobody_is_in_and_play_on_for_a_spectator(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "bots.db"))
    manager = _manager(storage)
    bot = HeldBot()
    manager.bots.choose = bot

    async def main() -> None:
        conn, room, game = bot_to_move(manager, "easy")
        version = game.version
        await _until(lambda: bool(bot.asked), "the bot was asked")
        manager.handle(conn, {"type": "leave", "id": 6})
        assert room.held
        bot.release.set()  # its answer comes to a room nobody is in: not played
        await _until(lambda: room.thinking is None, "the bot answered")
        assert game.version == version
        # a spectator alone: the bot decides again and plays
        manager.handle(Connection(), {"type": "join", "id": 1, "room": room.code})
        assert not room.held
        await _until(lambda: game.version > version, "the bot moved for the spectator")
        assert bot.asked.count(version) == 2, bot.asked
        manager.close()

    _run(storage, main, bot)


def test_coming_back_while_the_bot_thinks_keeps_its_one_decision(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "think.db"))
    manager = _manager(storage)
    bot = HeldBot()
    manager.bots.choose = bot

    async def main() -> None:
        conn, room, game = bot_to_move(manager, "easy")
        version = game.version
        await _until(lambda: bool(bot.asked), "the bot was asked")
        manager.handle(conn, {"type": "leave", "id": 6})
        assert room.held
        manager.handle(conn, {"type": "join", "id": 7, "room": room.code})
        assert not room.held
        bot.release.set()
        await _until(lambda: game.version > version, "the bot's move was played")
        assert bot.asked.count(version) == 1, bot.asked
        manager.close()

    _run(storage, main, bot)


def test_a_restart_holds_every_game_and_loads_it_when_somebody_comes_back(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "restart.db"))
    first = _manager(storage)
    saved: dict[str, Any] = {}

    async def before_restart() -> None:
        # an empty room, held before the restart; and one with people, whose server dies
        empty, conns, _ = _two_people(first, options={"clock": 600})
        for conn in conns:
            first.disconnected(conn)
        live, _, tokens = _two_people(first, options={"clock": 600})
        assert empty.game is not None and live.game is not None
        saved.update(
            empty=empty.code, left=empty.left, live=live.code, deadline=live.deadline,
            token=tokens[0], version=live.game.version, view=live.game.view(0),
        )
        for room in first.rooms.values():
            if room.timer is not None:
                room.timer.cancel()  # the process dies: nothing more happens

    asyncio.run(before_restart())
    second = _manager(storage)

    async def after_restart() -> None:
        stored_at = {d["code"]: d["saved"] for d in storage.load_rooms()}
        assert second.restore() == 2
        empty, live = second.rooms[saved["empty"]], second.rooms[saved["live"]]
        # nothing is replayed, nothing runs
        assert empty.game is None and live.game is None
        assert empty.timer is None and live.timer is None
        assert empty.held and empty.left == saved["left"]
        # the room that had people holds with the time its clock had left when it was last
        # stored: the time the server was down does not count
        assert live.held and live.left == saved["deadline"] - stored_at[live.code]
        # the rooms' states are stored as held: another restart keeps the time left
        assert {d["code"]: d["left"] for d in storage.load_rooms()} == {
            empty.code: empty.left, live.code: live.left,
        }
        left = live.left
        conn = Connection()
        second.handle(conn, {"type": "resume", "id": 1, "room": live.code,
                             "token": saved["token"]})
        assert live.game is not None and live.game.version == saved["version"]
        assert not live.held and live.deadline is not None
        assert live.deadline - now_ms() <= left
        state = next(m for m in sent(conn) if m["type"] == "state")
        assert state["version"] == saved["version"] and state["view"] == saved["view"]
        # the other room is still held and unread; the sweep forgets it unread
        assert empty.game is None and empty.held
        empty.touched -= 25 * 3600 * 1000
        assert second.sweep() == [empty.code]
        second.close()

    try:
        asyncio.run(after_restart())
    finally:
        storage.close()


@pytest.mark.parametrize("stored", ["turn", "pause", "row without saved"])
def test_the_time_the_server_was_down_does_not_count_against_a_clock(
    stored: str, tmp_path: Path
) -> None:
    """A restart holds a running clock with the time it had left when the room was last
    stored, however long the server was down; a state stored before the save time was (no
    ``saved``) keeps the time left at the restart, as before."""
    storage = SQLiteStorage(str(tmp_path / "down.db"))
    first = _manager(storage)
    saved: dict[str, Any] = {}

    async def before_restart() -> None:
        room, _, tokens = _two_people(first, options={"clock": 600})
        assert room.game is not None
        saved.update(code=room.code, token=tokens[0], version=room.game.version)
        for r in first.rooms.values():
            if r.timer is not None:
                r.timer.cancel()  # the process dies: nothing more happens

    asyncio.run(before_restart())
    # The server stays down for an hour after the room was last stored: seen from the restart,
    # its state was stored an hour ago, and its deadline passed long since.
    (doc,) = storage.load_rooms()
    hour = 3600 * 1000
    if stored == "pause":  # between two deals, the next one due in 2 s when it was stored
        doc.update(status="between-deals", deadline=None, next_deal_at=doc["saved"] + 2000)
    for key in ("deadline", "next_deal_at", "saved", "created", "touched"):
        if doc[key] is not None:
            doc[key] -= hour
    left = (doc["deadline"] or doc["next_deal_at"]) - doc["saved"]
    assert 0 < left <= 600_000
    if stored == "row without saved":
        del doc["saved"]
    storage.save_room(doc["code"], doc)
    second = _manager(storage)

    async def after_restart() -> None:
        assert second.restore() == 1
        room = second.rooms[saved["code"]]
        assert room.held and room.deadline is None and room.next_deal_at is None
        assert room.left == (0 if stored == "row without saved" else left)
        # stored as held: another restart keeps that time left
        assert storage.load_rooms()[0]["left"] == room.left
        if stored == "pause":
            second.close()
            return
        conn = Connection()
        second.handle(conn, {"type": "resume", "id": 1, "room": room.code,
                             "token": saved["token"]})
        game = room.game
        assert game is not None
        if stored == "row without saved":
            # as before: the clock ran while the server was down, the turn is played at once
            await _until(lambda: game.version > saved["version"], "the timeout")
            assert game.history()[-1]["action"] == "timeout"
        else:
            # not timed out: the turn goes on with the time it had left
            assert game.version == saved["version"] and not room.held
            assert room.deadline is not None and 0 < room.deadline - now_ms() <= left
            assert _last(conn, "state")["clock"]["deadline"] == room.deadline
        second.close()

    try:
        asyncio.run(after_restart())
    finally:
        storage.close()


def test_a_finished_game_after_a_restart_shows_its_end_and_rematches(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "over.db"))
    first = _manager(storage)
    saved: dict[str, Any] = {}

    async def before_restart() -> None:
        # Indian rummy scored by points: the first drop ends the game
        room, conns, tokens = _two_people(first, "indian", {"format": "points"})
        game = room.game
        assert game is not None and game.to_move is not None
        mover = game.to_move
        first.handle(conns[mover], {"type": "action", "id": 3, "version": game.version,
                                    "action": "drop"})
        assert room.status == OVER
        over = [m for m in sent(conns[0]) if m["type"] in ("state", "game_over")]
        saved.update(code=room.code, tokens=tokens, state=over[-2], over=over[-1])
        first.close()

    asyncio.run(before_restart())
    record = storage.get_record(saved["code"])
    second = _manager(storage)

    async def after_restart() -> None:
        second.restore()
        room = second.rooms[saved["code"]]
        assert room.status == OVER and room.game is None and not room.held
        conns = [Connection(), Connection()]
        for seat, conn in enumerate(conns):
            second.handle(conn, {"type": "resume", "id": 1, "room": room.code,
                                 "token": saved["tokens"][seat]})
        state = next(m for m in sent(conns[0]) if m["type"] == "state")
        old = saved["state"]
        assert state["view"] == old["view"] and state["version"] == old["version"]
        assert state["view"]["over"] and state["events"][-1] == old["events"][-1]
        assert storage.get_record(room.code) == record
        # the version is stored as before, whether the game was read or not
        assert storage.load_rooms()[0]["version"] == old["version"]
        for conn in conns:
            second.handle(conn, {"type": "rematch", "id": 2})
        assert room.status == PLAYING and room.game_no == 2
        assert room.game is not None and not room.game.public_view()["over"]
        second.close()

    try:
        asyncio.run(after_restart())
    finally:
        storage.close()


def test_a_finished_game_nobody_looks_at_is_forgotten_until_somebody_comes_back(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "forget.db"))
    manager = _manager(storage)

    async def main() -> None:
        room, conns, tokens = _two_people(manager, "indian", {"format": "points"})
        game = room.game
        assert game is not None and game.to_move is not None
        manager.handle(conns[game.to_move], {"type": "action", "id": 3,
                                             "version": game.version, "action": "drop"})
        assert room.status == OVER
        final, public = game.view(0), game.public_view()
        manager.disconnected(conns[0])
        assert room.game is game  # somebody is still there
        manager.disconnected(conns[1])
        assert room.game is None and storage.load_rooms()[0]["version"] == game.version
        back = Connection()
        manager.handle(back, {"type": "resume", "id": 4, "room": room.code, "token": tokens[0]})
        state = next(m for m in sent(back) if m["type"] == "state")
        assert state["view"] == final and state["version"] == game.version
        # the only one there enters again: the room is not left first (its game is not
        # forgotten and read again), the seat is kept and the game still shown
        for again in (
            {"type": "join", "id": 5, "room": room.code},
            {"type": "resume", "id": 6, "room": room.code, "token": tokens[0]},
        ):
            manager.handle(back, again)
            state = next(m for m in sent(back) if m["type"] == "state")
            assert state["view"] == final and room.game is not None
        # a spectator alone enters again: the same
        manager.handle(back, {"type": "leave", "id": 7})
        assert room.game is None
        manager.handle(back, {"type": "join", "id": 8, "room": room.code})
        loaded = room.game
        manager.handle(back, {"type": "join", "id": 9, "room": room.code})
        state = [m for m in sent(back) if m["type"] == "state"][-1]
        assert state["view"] == public and room.game is loaded
        manager.close()

    _run(storage, main)


# -- every seated person away ----------------------------------------------------------------


def _away_manager(storage: SQLiteStorage) -> RoomManager:
    """A 30 s clock lasts 120 ms; one run-out clock marks a seat away, whose turns are then
    played at once."""
    config = ServerConfig(
        bot_pool="thread", offload_views=False, bot_delay=0, clock_scale=0.004,
        away_after=1, away_delay=0, verify_views=True,
    )
    return RoomManager(storage, config)


def _last(conn: Connection, kind: str) -> dict[str, Any]:
    """The last message of a type queued for a connection (the queue is emptied)."""
    return [m for m in sent(conn) if m["type"] == kind][-1]


def test_a_room_where_every_person_is_away_holds_until_one_comes_back(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "away.db"))
    manager = _away_manager(storage)

    async def main() -> None:
        # two-seat Rami 51: a game played by the clock alone would never end
        room, conns, _ = _two_people(manager, "rami51", {"clock": 30})
        game = room.game
        assert game is not None
        # nobody plays: both clocks run out, both seats are marked away, the room holds
        await _until(lambda: room.held, "the room held")
        assert all(s.away for s in room.seats) and room.deadline is None and room.timer is None
        assert room.left is not None and 0 < room.left <= room.duration
        stored = storage.load_rooms()[0]
        assert stored["held"] is True and stored["left"] == room.left
        for conn in conns:
            assert _last(conn, "room")["held"] is True
        version = game.version
        assert version <= 4  # two timeouts (draw, discard each) and no more
        await asyncio.sleep(3 * room.duration / 1000)
        assert game.version == version and room.held
        # a spectator is not a player: the room stays held, and it sees so
        watcher = Connection()
        manager.handle(watcher, {"type": "join", "id": 1, "room": room.code})
        assert room.held and room.timer is None
        got = sent(watcher)
        assert next(m for m in got if m["type"] == "room")["held"] is True
        assert next(m for m in got if m["type"] == "state")["clock"] is None
        # the seat to move comes back by playing: the clock runs again for everybody
        assert game.to_move is not None
        mover = game.to_move
        manager.handle(conns[mover], {"type": "action", "id": 2, "version": version,
                                      "action": "draw"})
        assert not room.held and room.deadline is not None and not room.seats[mover].away
        assert room.seats[1 - mover].away  # the other is still away
        got = sent(watcher)
        assert [m for m in got if m["type"] == "room"][-1]["held"] is False
        assert [m for m in got if m["type"] == "state"][-1]["clock"]["deadline"] == room.deadline
        assert not storage.load_rooms()[0]["held"]
        manager.close()

    _run(storage, main)


def test_back_starts_a_room_of_away_people_again_and_their_bots(tmp_path: Path) -> None:
    storage = SQLiteStorage(str(tmp_path / "bot.db"))
    manager = _away_manager(storage)

    async def main() -> None:
        conn = Connection()
        manager.handle(conn, {"type": "create", "id": 1, "variant": "rami51", "players": 2,
                              "options": {"clock": 30}})
        room = next(iter(manager.rooms.values()))
        manager.handle(conn, {"type": "sit", "id": 2, "seat": 0, "name": "Ana"})
        manager.handle(conn, {"type": "add_bot", "id": 3, "seat": 1, "level": "easy"})
        game = room.game
        assert game is not None
        # Ana's clock runs out once: she is away, the only person seated, so the room holds
        # and the bot, to move, stands still
        await _until(lambda: room.held, "the room held")
        assert room.seats[0].away and game.to_move == 1
        version = game.version
        await asyncio.sleep(3 * room.duration / 1000)
        assert game.version == version and room.thinking is None
        sent(conn)
        manager.handle(conn, {"type": "back", "id": 4})
        assert not room.held and not room.seats[0].away
        assert _last(conn, "state")["clock"]["deadline"] == room.deadline
        await _until(lambda: game.version > version, "the bot moved")
        manager.close()

    _run(storage, main)


def test_a_room_of_away_people_stays_held_after_a_restart_until_one_resumes(
    tmp_path: Path,
) -> None:
    storage = SQLiteStorage(str(tmp_path / "restart-away.db"))
    first = _away_manager(storage)
    saved: dict[str, Any] = {}

    async def before_restart() -> None:
        room, _, tokens = _two_people(first, "rami71", {"clock": 30})
        await _until(lambda: room.held, "the room held")
        assert room.game is not None
        saved.update(code=room.code, tokens=tokens, version=room.game.version, left=room.left)
        first.close()

    asyncio.run(before_restart())
    second = _away_manager(storage)

    async def after_restart() -> None:
        second.restore()
        room = second.rooms[saved["code"]]
        assert room.held and room.left == saved["left"]
        # a spectator loads the game, and it stays held: both people are still away
        watcher = Connection()
        second.handle(watcher, {"type": "join", "id": 1, "room": room.code})
        assert room.held and room.game is not None and room.timer is None
        assert all(s.away for s in room.seats)
        await asyncio.sleep(3 * room.duration / 1000)
        assert room.game.version == saved["version"]
        # one of them comes back: the clock goes on with the time it had left
        sent(watcher)
        back = Connection()
        before = now_ms()
        second.handle(back, {"type": "resume", "id": 2, "room": room.code,
                             "token": saved["tokens"][0]})
        assert not room.held and not room.seats[0].away and room.seats[1].away
        assert room.deadline is not None and room.deadline <= now_ms() + saved["left"]
        assert room.deadline >= before + saved["left"]
        for conn in (back, watcher):
            assert _last(conn, "state")["clock"]["deadline"] == room.deadline
        second.close()

    try:
        asyncio.run(after_restart())
    finally:
        storage.close()
