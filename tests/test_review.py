"""Looking back at a finished game move by move: ``replay_deal`` and ``GET /api/replay``."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import make_bot, play_deal
from rummykit.cli.output import pretty as marked
from rummykit.engine import Game
from rummykit.engine.records import replay_steps
from rummykit.engine.review import replay_deal
from rummykit.errors import InvalidArgument, InvalidRecord
from tests.cli_support import cli, refused
from tests.server_support import WHOLE_GAME, ServerProc, autoplay, make_room, unfinished_room

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("rummy", 3, {"length": "to-200"}),
    ("rami51", 4, {}),
    ("rami71", 2, {}),
    ("simple", 2, {}),
    ("indian", 3, {"format": "deals"}),
    ("indian", 4, {"format": "pool101"}),  # players put out of the game on the way
    ("rummy", 6, {}),
]


def finished(variant: str, players: int, options: dict[str, Any], seed: int) -> Game:
    game = Game.new(variant, players=players, seed=seed, options=options)
    bots = [make_bot("medium") for _ in range(players)]
    rng = random.Random(seed)
    while not game.over:
        assert play_deal(game, bots, rng)
        if not game.over:
            game.next_deal()
    return game


def pretty(cards: list[str]) -> str:
    """Cards as the command prints them (its rich markup gone)."""
    return re.sub(r"\[/?\w+\]", "", marked(cards))


def cut(record: dict[str, Any], deal: int, step: int) -> dict[str, Any]:
    """The record up to ``step`` actions of ``deal``: replayed, the game as it stood then."""
    deals = [dict(d) for d in record["deals"][:deal]]
    deals[-1]["actions"] = deals[-1]["actions"][:step]
    return {**record, "deals": deals}


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_every_frame_is_the_game_as_it_stood(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    game = finished(variant, players, options, seed=3)
    record = game.record()
    total = len(record["deals"])
    deal = total  # the last deal; for the first one see test_first_deal_of_many
    looked = replay_deal(record, deal)
    assert (looked["variant"], looked["players"], looked["deal"], looked["deals"]) == (
        variant,
        players,
        deal,
        total,
    )
    assert looked["options"] == record["options"]
    actions = record["deals"][deal - 1]["actions"]
    frames = looked["frames"]
    assert [f["step"] for f in frames] == list(range(len(actions) + 1))
    assert [f["action"] for f in frames] == [None, *actions]
    # a few positions checked whole against the record cut there and replayed
    for step in sorted({0, 1, len(actions) // 2, len(actions)}):
        then = Game.from_record(cut(record, deal, step))
        frame = frames[step]
        assert frame["hands"] == [then.view(s)["hand"] for s in range(players)]
        view = then.public_view()
        view.pop("results")
        view.pop("options")
        assert frame["view"] == view
    # every card of the deal is somewhere in every frame
    for frame in frames:
        v = frame["view"]
        seen: Counter[str] = Counter()
        for hand in frame["hands"]:
            seen.update(hand)
        for meld in v["table"]:
            seen.update(meld["cards"])
        seen.update(v["pile"])
        indicator = v.get("indicator")
        if indicator and not v.get("indicator_drawn"):
            seen[indicator] += 1
        assert sum(seen.values()) + v["stock"] == len(record["deals"][deal - 1]["deck"])
    # the events, frame after frame, are the deal's history
    events = [e for f in frames for e in f["events"]]
    assert events == game.history()
    assert looked["results"] == game.public_view()["results"]
    assert frames[-1]["view"]["over"] is True


def test_first_deal_of_many() -> None:
    game = finished("rummy", 2, {"length": "to-200"}, seed=8)
    record = game.record()
    assert len(record["deals"]) > 1
    looked = replay_deal(json.dumps(record), 1)  # JSON text is read as the dict is
    assert looked == replay_deal(record, 1)
    assert looked["deals"] == len(record["deals"])
    assert len(looked["results"]) == 1 and looked["results"][0]["deal"] == 1
    last = looked["frames"][-1]
    assert last["view"]["over"] is False
    assert last["events"][-1]["action"] == "end"
    # the hands at the deal's end are those its result shows
    assert last["hands"] == looked["results"][0]["hands"]


@pytest.mark.parametrize("deal", [0, -1, 99, True, "1", 1.0])
def test_a_deal_the_record_does_not_hold_is_refused(deal: Any) -> None:
    record = Game.new("rummy", players=2, seed=1).record()
    with pytest.raises(InvalidArgument):
        replay_deal(record, deal)


def test_a_broken_record_is_refused_as_replay_refuses_it() -> None:
    record = finished("rami71", 2, {}, seed=4).record()
    record["deals"][0]["actions"][3] = "discard XX"
    with pytest.raises(InvalidRecord, match="deal 1, action 4"):
        replay_deal(record, 1)
    with pytest.raises(InvalidRecord, match="not valid JSON"):
        replay_deal("{", 1)


def test_replay_steps_yields_every_position_once() -> None:
    record = finished("indian", 2, {"format": "deals"}, seed=2).record()
    steps = [(k, i, text) for _game, k, i, text in replay_steps(record)]
    expected = [
        (k, i, text)
        for k, deal in enumerate(record["deals"], 1)
        for i, text in enumerate([None, *deal["actions"]])
    ]
    assert steps == expected


# -- the server ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("review") / "review.db").start()
    yield proc
    proc.stop()


def test_server_serves_a_finished_game_deal_by_deal(server: ServerProc) -> None:
    async def main() -> str:
        code, clients = await make_room(server.ws, "rami51", 2, 1)
        await asyncio.wait_for(asyncio.gather(*(autoplay(c) for c in clients)), WHOLE_GAME)
        for c in clients:
            await c.close()
        return code

    code = asyncio.run(main())
    status, body = server.get(f"/records/{code}-1.json")
    assert status == 200
    record = json.loads(body)
    for deal in range(1, len(record["deals"]) + 1):
        status, body = server.get(f"/api/replay/{code}-1?deal={deal}")
        assert status == 200
        # with who played, from the record (tests/test_server_polish.py)
        assert json.loads(body) == {**replay_deal(record, deal), "seats": record["seats"]}
    # the first deal by default; a code in lower case is the same room
    assert json.loads(server.get(f"/api/replay/{code.lower()}-1")[1]) == {
        **replay_deal(record, 1), "seats": record["seats"]
    }
    status, body = server.get(f"/api/replay/{code}-1?deal={len(record['deals']) + 1}")
    assert status == 404 and json.loads(body)["error"] == "no_deal"
    for bad in ("x", "-1", "1.5", "%D9%A1", "1234567"):
        status, body = server.get(f"/api/replay/{code}-1?deal={bad}")
        assert status == 400 and json.loads(body)["error"] == "bad_request"
    assert server.get(f"/api/replay/{code}-2")[0] == 404  # no second game
    assert server.get(f"/api/replay/{code}")[0] == 404  # the game's number is needed
    assert server.errors_logged() == ""


def test_server_never_serves_a_game_in_progress(server: ServerProc) -> None:
    code = unfinished_room(server.ws)
    status, body = server.get(f"/api/replay/{code}-1")
    assert status == 404 and json.loads(body)["error"] == "not_found"


# -- the command line ----------------------------------------------------------------------


def test_replay_command_lists_a_deal_and_shows_a_position(tmp_path: Path) -> None:
    record = finished("rami51", 2, {}, seed=6).record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    looked = replay_deal(record, 1)
    moves = len(looked["frames"]) - 1
    code, out, err = cli(["replay", str(path), "--deal", "1"])
    assert code == 0 and err == ""
    assert f"deal 1 of {len(record['deals'])}" in out and f"{moves} moves" in out
    # a stock draw is listed with the card drawn, a take with the card taken
    first_draw = next(f for f in looked["frames"] if f["action"] == "draw")
    seat = first_draw["events"][0]["seat"]
    before = looked["frames"][first_draw["step"] - 1]["hands"][seat]
    drawn = [c for c in first_draw["hands"][seat] if c not in before]
    assert f"draw ({pretty(drawn)})" in out
    # a position: every hand, the melds, the stock and the pile
    code, out, err = cli(["replay", str(path), "--at", str(moves)])
    assert code == 0 and err == ""
    end = looked["frames"][moves]
    for s, hand in enumerate(end["hands"]):
        line = next(x for x in out.splitlines() if f"seat {s + 1}" in x and "│" in x)
        assert line.split("│")[2].strip() == str(len(hand))
        assert sorted(pretty([c]) for c in hand) == sorted(line.split("│")[3].split())
    assert f"Stock: {end['view']['stock']} cards" in out
    assert out.count("Meld ") == len(end["view"]["table"])
    # in JSON, the library's own answer
    code, out, _ = cli(["replay", str(path), "--deal", "1", "--json"])
    assert code == 0 and json.loads(out) == json.loads(json.dumps(looked))
    code, out, _ = cli(["replay", str(path), "--at", "2", "--json"])
    data = json.loads(out)
    assert data["step"] == 2 and data["hands"] == looked["frames"][2]["hands"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--deal", "0"], "a deal is a number from 1, not '0'"),
        (["--deal", "x"], "a deal is a number from 1, not 'x'"),
        (["--deal", "99"], "not 99"),
        (["--at", "-1"], "a move is a number from 0, not '-1'"),
        (["--at", "999"], "--at must be 0 to"),
    ],
)
def test_replay_command_refuses_a_deal_or_move_it_has_not(
    tmp_path: Path, argv: list[str], says: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished("rami71", 2, {}, seed=4).record()))
    assert says in refused(*cli(["replay", str(path), *argv]))
