"""House rules over HTTP and the protocol: ``GET /api/variants`` lists them beside the room
options, a room created with some carries them in its summary and its game's view, and a bad
one is refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from rummykit.rules import VARIANTS, house_rule_schema, option_schema
from tests.server_support import Client, ServerProc, make_room


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("house") / "house.db").start()
    yield proc
    proc.stop()


def test_variants_list_the_house_rules(server: ServerProc) -> None:
    status, body = server.get("/api/variants")
    assert status == 200
    variants = json.loads(body)["variants"]
    for v in VARIANTS:
        assert variants[v]["options"] == option_schema(v)
        assert variants[v]["house_rules"] == house_rule_schema(v)
    assert variants["rummy"]["house_rules"]["blocked_deal"]["values"] == ["scored", "void"]
    assert "blocked_deal" not in variants["rami51"]["house_rules"]


def test_a_room_carries_its_house_rules_to_everyone(server: ServerProc) -> None:
    async def main() -> None:
        options = {"opening": 51, "blocked_deal": "void", "restock_keeps_top": False}
        code, (host,) = await make_room(server.ws, "rummy", 2, 1, options)
        # the summary a joining page receives, the one /api/rooms answers, the game's view
        guest = await Client("guest").connect(server.ws)
        room = await guest.request("join", room=code)
        assert room["type"] == "room"
        for name, value in options.items():
            assert room["options"][name] == value
        status, body = server.get(f"/api/rooms/{code}")
        assert status == 200
        assert json.loads(body)["room"]["options"] == room["options"]
        assert host.state is not None
        view = host.state["view"]
        assert view["options"]["blocked_deal"] == "void"
        assert view["options"]["restock_keeps_top"] is False
        await guest.close()
        await host.close()

    asyncio.run(main())


def test_a_bad_house_rule_is_refused(server: ServerProc) -> None:
    async def main() -> None:
        c = await Client("c").connect(server.ws)
        for options in (
            {"blocked_deal": "replayed"},
            {"blocked_deal": "void", "swap": 3},
            {"loser_melds": "all_cards"},  # Indian rummy's only
            {"first_dealer": 2},  # a seat past the table's two
        ):
            r = await c.request("create", variant="rummy", players=2, options=options)
            assert r["type"] == "error" and r["code"] == "bad_options", (options, r)
        # Ruleset fields the lobby does not offer: the engine takes them by name, a room not.
        for options in ({"lay_mode": "close"}, {"scoring": "indian"}, {"hand_size": 10},
                        {"opening_minimum": 35}):
            r = await c.request("create", variant="rummy", players=2, options=options)
            assert r["type"] == "error" and r["code"] == "bad_options", (options, r)
            assert f"cannot set {next(iter(options))!r}" in r["message"], r
        r = await c.request("create", variant="simple", players=2, options={"jokers": 6})
        assert r["type"] == "error" and "cannot set 'jokers'" in r["message"], r
        await c.close()

    asyncio.run(main())
