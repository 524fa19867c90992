"""Small loose ends: a rematch whose new game the database refuses to store, and a bot's
initial in each language."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import OVER, PLAYING
from tests.server_support import refuse_start_once, sent
from tests.test_server_crash import Table, _over

# -- a rematch, its new game refused by the database --------------------------------------------


def _refuse_once(table: Table) -> None:
    refuse_start_once(table.storage)


def test_a_rematch_whose_game_cannot_be_stored_is_no_error(tmp_path: Path) -> None:
    """The asking was stored and the new game starts once the database takes it: the last
    person to ask got ``internal`` with no request id (an error saying nothing was made, about
    no request), nobody was told they had asked, and the rematch waited for another ``rematch``."""
    table = Table(tmp_path / "again.db")

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[0], type="rematch")
        table.read()
        _refuse_once(table)
        table.manager.handle(table.conns[1], {"type": "rematch", "id": 9})
        for seat in (0, 1):
            got = sent(table.conns[seat])
            assert [m for m in got if m["type"] == "error"] == []
            rooms = [m for m in got if m["type"] == "room"]
            assert rooms, seat
            assert rooms[-1]["status"] == OVER and rooms[-1]["game"] == 1
            assert [s["rematch"] for s in rooms[-1]["seats"]] == [True, True]
        assert room.status == OVER
        for _ in range(500):
            if room.status == PLAYING:
                break
            await asyncio.sleep(0.01)
        assert room.status == PLAYING and room.game_no == 2
        assert table.storage.load_rooms()[0]["status"] == PLAYING
        for seat in (0, 1):
            assert "state" in [m["type"] for m in sent(table.conns[seat])]

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_rematch_due_whose_game_cannot_be_stored_starts_on_the_retry(tmp_path: Path) -> None:
    """The rematch clock ran out (a person gone) and the new game was refused: the room stayed
    over, its clock run out, until somebody sent a message."""
    table = Table(tmp_path / "due.db")

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[1], type="leave")  # gone: the rematch clock runs for them
        table.handle(table.conns[0], type="rematch")
        assert room.rematch_at is not None
        _refuse_once(table)
        room.rematch_at -= room.duration  # the clock ran out, as stored
        table.manager._save(room)
        table.manager._schedule(room)
        for _ in range(500):
            if room.status == PLAYING:
                break
            await asyncio.sleep(0.01)
        assert room.status == PLAYING and room.game_no == 2
        assert room.seats[1].away

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_rematch_refused_with_the_room_unreadable_is_that_requests_error(
    tmp_path: Path,
) -> None:
    """When the room cannot even be read back after the refusal (so no retry is planned), the
    request is answered ``internal``, now with its id."""
    table = Table(tmp_path / "unreadable.db")

    def refused(*args: Any, **kw: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    async def main() -> None:
        _over(table)
        table.handle(table.conns[0], type="rematch")
        table.storage.start_game = refused  # type: ignore[method-assign]
        table.storage.load_rooms = refused  # type: ignore[method-assign]
        with pytest.raises(ProtocolError) as info:
            table.manager.handle(table.conns[1], {"type": "rematch", "id": 7})
        assert (info.value.code, info.value.extra.get("id")) == ("internal", 7)

    try:
        asyncio.run(main())
    finally:
        table.close()
