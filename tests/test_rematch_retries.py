"""A rematch whose new game the database refuses is started later: asked while the room was
busy (played from the loop a moment after), or with the server stopped before its retry."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rummykit.server.rooms import OVER, PLAYING, Room
from tests.server_support import refuse_start_once, sent
from tests.test_server_crash import Table, _over


def refused_rematch(table: Table) -> Room:
    """A finished two-person game (``_over``) whose rematch both asked for, the new game
    refused by the database: the room stays over, its retry planned (run on the rooms' loop)."""
    room = _over(table)
    table.handle(table.conns[0], type="rematch")
    refuse_start_once(table.storage)
    table.handle(table.conns[1], type="rematch")
    assert room.status == OVER and room.game_no == 1
    return room


def test_a_deferred_rematch_whose_game_is_refused_starts_on_the_retry(tmp_path: Path) -> None:
    """Asked while the room is still busy (the last state's views being computed): the
    start is retried as for a rematch asked at a quiet moment, and nobody gets an error."""
    table = Table(tmp_path / "deferred.db")

    async def main() -> None:
        room = _over(table)
        table.handle(table.conns[0], type="rematch")
        table.read()
        room.busy += 1  # views of the last change still being computed
        refuse_start_once(table.storage)
        calls: list[int] = []
        real = table.storage.start_game

        def counted(*args: Any, **kw: Any) -> None:
            calls.append(room.busy)
            real(*args, **kw)

        table.storage.start_game = counted  # type: ignore[method-assign]
        table.manager.handle(table.conns[1], {"type": "rematch", "id": 9})
        assert calls == [] and room.status == OVER and room.game_no == 1  # deferred
        await asyncio.sleep(0.05)
        assert calls == [] and room.status == OVER  # still busy: still waiting
        room.busy -= 1
        for _ in range(500):
            if room.status == PLAYING:
                break
            await asyncio.sleep(0.01)
        assert len(calls) == 2, calls  # the refused start, then the retry
        assert room.status == PLAYING and room.game_no == 2
        assert table.storage.load_rooms()[0]["status"] == PLAYING
        for seat in (0, 1):
            got = sent(table.conns[seat])
            assert [m for m in got if m["type"] == "error"] == [], seat
            assert "state" in [m["type"] for m in got], seat

    try:
        asyncio.run(main())
    finally:
        table.close()


def test_a_rematch_refused_before_a_restart_starts_when_somebody_is_back(
    tmp_path: Path,
) -> None:
    """Every person asked, the database refused the new game, and the server stopped before
    its retry: the room came back over with everybody's "asked" stored, and nothing started
    it (no request of the people back completes the askers)."""
    table = Table(tmp_path / "restart.db")

    async def main() -> None:
        room = refused_rematch(table)
        _, manager = table.crash()  # before the retry: the new process resumes everybody
        again = manager.rooms[room.code]
        assert again.status == PLAYING and again.game_no == 2
        assert table.storage.load_rooms()[0]["status"] == PLAYING
        for seat in (0, 1):
            got = table.seen[seat]
            assert "error" not in got, seat
            assert got["room"]["status"] == PLAYING, seat
            assert got["room"]["game"] == 2, seat
            view = got["state"]["view"]
            assert (view["deal"], view["over"], view["results"]) == (1, False, []), seat

    try:
        asyncio.run(main())
    finally:
        table.close()
