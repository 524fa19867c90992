"""Small loose ends: `rummykit replay` naming the seats of a server's record, and the server
when storing a game it starts fails."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.main import main
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import PLAYING, WAITING, Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import refuse_start_once, sent

GOLDEN = Path(__file__).parent / "golden"


def _replay(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["replay", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def _named(tmp_path: Path, names: list[str], name: str = "rummy-69") -> tuple[str, str]:
    """The golden record as it is, and with the ``seats`` a server's record carries."""
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(record))
    record["seats"] = [
        {"seat": i, "kind": "human", "name": n} for i, n in enumerate(names)
    ]
    named = tmp_path / "named.json"
    named.write_text(json.dumps(record))
    return str(plain), str(named)


@pytest.mark.parametrize("argv", [(), ("--deal", "1"), ("--at", "1")], ids=["", "deal", "at"])
def test_replay_names_the_seats_of_a_servers_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    plain, named = _named(tmp_path, ["Ana", "Bo"])
    without = _replay(capsys, plain, *argv)
    out = _replay(capsys, named, *argv)
    assert "Ana (seat 1)" in out and "Bo (seat 2)" in out
    # the same output, the seats named: nothing else moves (but the tables' widths)
    unnamed = out.replace("Ana (seat 1)", "seat 1").replace("Bo (seat 2)", "seat 2")
    assert _words(unnamed) == _words(without)


def _words(out: str) -> list[str]:
    return re.sub("[\u2500-\u257f]", " ", out).split()


def test_replay_of_a_record_without_seats_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, _ = _named(tmp_path, [])
    out = _replay(capsys, plain, "--at", "1")
    assert "seat 1" in out and "(seat" not in out


def test_replay_names_the_seats_in_2v2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, named = _named(tmp_path, ["Ana", "Bo", "Cy", "Di"], "simple-2v2")
    out = _replay(capsys, named, "--at", "0")
    assert "Ana (seat 1, side 1)" in out and "Di (seat 4, side 2)" in out
    assert "Scores: side 1" in out  # a side's score is not one seat's


HOSTILE = [
    "\x1b[2J\x1b]0;pwned\x07Eve",   # clear the screen, set the window title
    "\x9b31mRed",                   # C1 control sequence introducer
    "[bold red]Loud[/]",            # rich markup
    "Mal\u202eory",                 # right-to-left override
    "Tab\tLine\nBreak\r",
]


@pytest.mark.parametrize("argv", [(), ("--deal", "1"), ("--at", "1")], ids=["", "deal", "at"])
def test_replay_prints_hostile_names_harmlessly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    _, named = _named(tmp_path, HOSTILE[:2], "rummy-69")
    out = _replay(capsys, named, *argv)
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "\\x1b[2J" in out and "\\x9b31mRed" in out


def test_replay_escapes_markup_and_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # no name wrapped in its cell
    _, named = _named(tmp_path, [*HOSTILE[2:], "Ok"], "simple-2v2")
    out = _replay(capsys, named, "--at", "0")
    assert "[bold red]Loud[/] (seat 1, side 1)" in out
    assert "Mal\\u202eory (seat 2, side 2)" in out
    assert "Tab\\tLine\\nBreak (seat 3, side 1)" in out  # stripped, then escaped
    assert all(ch.isprintable() for ch in out.replace("\n", ""))


@pytest.mark.parametrize("seats", [
    "Ana", [1, 2], [{"seat": "0", "name": "Ana"}], [{"seat": 5, "name": "Ana"}],
    [{"seat": 0, "name": 7}], [{"seat": 0, "name": "   "}], [{"seat": True, "name": "Ana"}],
])
def test_replay_ignores_a_malformed_seats_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: Any
) -> None:
    plain, _ = _named(tmp_path, [])
    record = json.loads(Path(plain).read_text())
    record["seats"] = seats
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(record))
    assert _replay(capsys, str(odd), "--at", "1") == _replay(capsys, plain, "--at", "1")


# -- the last seat taken, the game's start refused by the database ------------------------------


@pytest.mark.parametrize("last", ["sit", "add_bot"])
def test_the_last_seat_taken_when_the_game_cannot_be_stored_is_no_error(
    tmp_path: Path, last: str
) -> None:
    """The seat was stored and the game starts once the database takes it: the client that
    took it was told ``seated`` and then ``internal`` with no request id (an error saying
    nothing was made, about no request), and nobody was told the seat was taken."""
    storage = SQLiteStorage(str(tmp_path / "start.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False,
                                                bot_delay=0))
    refuse_start_once(storage)

    async def main() -> None:
        host, other = Connection(), Connection()
        manager.handle(host, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                              "options": {}})
        room = host.room
        assert room is not None
        manager.handle(host, {"type": "sit", "id": 2, "seat": 0, "name": "Ann"})
        manager.handle(other, {"type": "join", "id": 3, "room": room.code})
        sent(host), sent(other)
        if last == "sit":
            manager.handle(other, {"type": "sit", "id": 4, "seat": 1, "name": "Bo"})
        else:
            manager.handle(host, {"type": "add_bot", "id": 4, "seat": 1, "level": "easy"})
        asker = other if last == "sit" else host
        got = sent(asker)
        assert [m for m in got if m["type"] == "error"] == []
        if last == "sit":
            assert got[0]["type"] == "seated" and got[0]["id"] == 4
        # everybody sees every seat taken, the room still waiting for its game to start
        for conn in (host, other):
            rooms = [m for m in (got if conn is asker else sent(conn)) if m["type"] == "room"]
            assert rooms, conn
            assert rooms[-1]["status"] == WAITING
            assert all(s["kind"] != "empty" for s in rooms[-1]["seats"])
        assert room.status == WAITING and storage.load_rooms()[0]["seats"][1]["kind"] != "empty"
        for _ in range(500):
            if room.status == PLAYING:
                break
            await asyncio.sleep(0.01)
        assert room.status == PLAYING
        for conn in (host, other):
            assert "state" in [m["type"] for m in sent(conn)]
        manager.close()  # on the loop: a bot may be thinking already

    try:
        asyncio.run(main())
    finally:
        storage.close()


def test_a_start_refused_with_the_room_unreadable_is_that_requests_error(tmp_path: Path) -> None:
    """When the room cannot even be read back after the refusal (so no retry is planned), the
    request is answered ``internal``, now with its id."""
    storage = SQLiteStorage(str(tmp_path / "start.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False,
                                                bot_delay=0))

    def refused(*args: Any, **kw: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    async def main() -> None:
        host = Connection()
        manager.handle(host, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                              "options": {}})
        manager.handle(host, {"type": "sit", "id": 2, "seat": 0, "name": "Ann"})
        storage.start_game = refused  # type: ignore[method-assign]
        storage.load_rooms = refused  # type: ignore[method-assign]
        with pytest.raises(ProtocolError) as info:
            manager.handle(host, {"type": "add_bot", "id": 7, "seat": 1, "level": "easy"})
        assert (info.value.code, info.value.extra.get("id")) == ("internal", 7)
        manager.close()

    try:
        asyncio.run(main())
    finally:
        storage.close()
