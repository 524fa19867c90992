"""An adversarial client: what a connection must never receive, whatever it sends and when.

See docs/server.md, *What a client can never learn*.
"""

from __future__ import annotations

import asyncio
import json
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.app import create_app
from rummykit.server.botpool import fallback_bot
from rummykit.server.config import ServerConfig
from rummykit.server.protocol import ProtocolError, parse_client_message
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from tests.server_support import sent


def _two_people(manager: RoomManager) -> tuple[str, Connection, Connection, str, str]:
    """A started 2-seat rummy room of two people: its code, their connections and tokens."""
    a, b = Connection(), Connection()
    manager.handle(a, {"type": "create", "id": 1, "variant": "rummy", "players": 2, "options": {}})
    assert a.room is not None
    code = a.room.code
    manager.handle(a, {"type": "sit", "id": 2, "seat": 0, "name": "A"})
    manager.handle(b, {"type": "join", "id": 3, "room": code})
    manager.handle(b, {"type": "sit", "id": 4, "seat": 1, "name": "B"})
    tokens = [m["token"] for c in (a, b) for m in sent(c) if m["type"] == "seated"]
    return code, a, b, tokens[0], tokens[1]


def _hands(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "state" and "hand" in m["view"]]


@pytest.mark.parametrize("how", ["resumed elsewhere", "left"])
def test_a_seat_view_computed_off_the_loop_goes_only_to_who_holds_the_seat(
    tmp_path: Path, how: str
) -> None:
    # With --view-threads, the view of the seat to move is computed in a thread and sent when
    # it is ready. A connection that meanwhile lost the seat (resumed on another connection)
    # or left the room must not get it: those are cards of a seat it no longer holds.
    store = SQLiteStorage(str(tmp_path / "c.db"))
    manager = RoomManager(store, ServerConfig(bot_pool="thread", offload_views=True))

    async def main() -> None:
        code, a, b, token_a, token_b = _two_people(manager)
        room = manager.rooms[code]
        assert room.game is not None
        while room.busy:
            await asyncio.sleep(0.01)
        mover, token = (a, token_a) if room.game.to_move == 0 else (b, token_b)
        sent(a), sent(b)
        manager.handle(
            mover, {"type": "action", "id": 5, "version": room.game.version, "action": "draw"}
        )
        assert room.busy  # the mover's view is being computed
        thief = Connection()
        if how == "left":
            manager.handle(mover, {"type": "leave", "id": 6})
        else:
            manager.handle(thief, {"type": "resume", "id": 6, "room": code, "token": token})
        while room.busy:
            await asyncio.sleep(0.01)
        got = sent(mover)
        assert not _hands(got), f"a connection that {how} got its old seat's cards"
        if how == "left":
            assert not [m for m in got if m["type"] == "state"]
        else:
            assert _hands(sent(thief))
            # still in the room as a spectator, it hears of the action it played
            [state] = [m for m in got if m["type"] == "state"]
            assert state["version"] == room.game.version and state["ack"] == 5
            assert state["view"] == room.game.public_view()
        manager.close()

    asyncio.run(main())
    store.close()


def _play_until(manager: RoomManager, code: str, conns: list[Connection], status: str) -> None:
    """Play the room's game with plain moves (draw, discard the heaviest card) until the
    room's status is ``status``."""
    room = manager.rooms[code]
    for n in range(2000):
        if room.status == status:
            return
        game = room.game
        assert game is not None and game.to_move is not None, room.status
        action = fallback_bot(game, game.to_move, random.Random(n))
        msg = {"type": "action", "id": n, "version": game.version, "action": action}
        manager.handle(conns[game.to_move], msg)
    raise AssertionError(f"room {code} never became {status}")


def _http(config: ServerConfig) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    return TestClient(create_app(config), base_url="http://127.0.0.1:8000")


def test_no_record_of_a_game_in_progress_nor_of_a_later_one(tmp_path: Path) -> None:
    # GET /records/… is public (anyone with the room code): it must serve no record of a
    # game still being played (its decks give every hand and the stock away), before the
    # first deal ends, between two deals of a longer game, nor of a game to come; and a
    # finished game's record must hold no seed (the next game's shuffle is not derived).
    db = str(tmp_path / "r.db")
    config = ServerConfig(db=db, bot_pool="thread", next_deal_pause=3600)
    store = SQLiteStorage(db)
    manager = RoomManager(store, config)
    codes: dict[str, str] = {}

    async def main() -> None:
        for length, status in (("to-200", "between-deals"), ("one-deal", "over")):
            a, b = Connection(), Connection()
            manager.handle(a, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                               "options": {"length": length, "max_restocks": 0}})
            code = next(c for c in manager.rooms if c not in codes.values())
            manager.handle(a, {"type": "sit", "id": 2, "seat": 0, "name": "A"})
            manager.handle(b, {"type": "join", "id": 3, "room": code})
            manager.handle(b, {"type": "sit", "id": 4, "seat": 1, "name": "B"})
            codes[status] = code
            if status == "over":
                codes["playing"] = code
                with _http(config) as http:
                    for name in (f"{code}.json", f"{code}-1.json", f"{code.lower()}-1.json"):
                        assert http.get(f"/records/{name}").status_code == 404, name
            _play_until(manager, code, [a, b], status)
        manager.close()

    asyncio.run(main())
    store.close()
    with _http(config) as http:
        between = codes["between-deals"]
        for name in (f"{between}.json", f"{between}-1.json", f"{between}-2.json"):
            assert http.get(f"/records/{name}").status_code == 404, name
        over = codes["over"]
        got = http.get(f"/records/{over}-1.json")
        assert got.status_code == 200
        assert "seed" not in got.json()
        assert http.get(f"/records/{over}.json").json() == got.json()
        assert http.get(f"/records/{over}-2.json").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/static/../../../etc/passwd",
        "/static/..%2f..%2f..%2fetc%2fpasswd",
        "/static/%2e%2e/%2e%2e/server/app.py",
        "/static/..%5c..%5cserver%5capp.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/..%252fserver%252fapp.py",
        "/..%2f..%2fetc/passwd",
        "/records/..%2f..%2fetc%2fpasswd",
        "/r/..%2f..%2fetc%2fpasswd",
    ],
)
def test_no_file_outside_the_web_client(tmp_path: Path, path: str) -> None:
    with _http(ServerConfig(db=str(tmp_path / "t.db"), bot_pool="thread")) as http:
        got = http.get(path)
        assert b"root:" not in got.content and b"import" not in got.content
        assert got.status_code == 404 or got.headers["content-type"].startswith("text/html")


def test_nobody_acts_for_a_seat_it_does_not_hold(tmp_path: Path) -> None:
    store = SQLiteStorage(str(tmp_path / "s.db"))
    manager = RoomManager(store, ServerConfig(bot_pool="thread"))

    def refusal(conn: Connection, **fields: Any) -> str:
        msg = parse_client_message(json.dumps({"id": "x", **fields}))
        with pytest.raises(ProtocolError) as info:
            manager.handle(conn, msg)
        return info.value.code

    async def main() -> None:
        code, a, b, token_a, token_b = _two_people(manager)
        other, _, _, token_c, _ = _two_people(manager)
        room = manager.rooms[code]
        assert room.game is not None
        mover, token = (a, token_a) if room.game.to_move == 0 else (b, token_b)
        seat = room.game.to_move
        play = {"type": "action", "version": room.game.version, "action": "draw", "seat": seat,
                "room": code}
        spectator = Connection()
        manager.handle(spectator, {"type": "join", "id": 1, "room": code})
        assert refusal(spectator, **play) == "not_seated"  # a seat field is not read
        assert refusal(spectator, type="resume", room=code, token=token_c) == "bad_token"
        assert refusal(spectator, type="resume", room=other, token=token) == "bad_token"
        thief = Connection()
        manager.handle(thief, {"type": "resume", "id": 2, "room": code, "token": token})
        assert refusal(mover, **play) == "not_seated"  # replaced: a spectator now
        assert refusal(mover, type="back") == "not_seated"
        manager.handle(thief, {"type": "leave", "id": 3})
        assert refusal(thief, **play) == "not_in_room"
        assert room.game.version == play["version"]
        assert not _hands(sent(spectator))
        manager.close()

    asyncio.run(main())
    store.close()
