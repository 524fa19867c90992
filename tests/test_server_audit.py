"""Leak audit: every message each seat (and a spectator) received during real games holds no
card that seat must not know — no other seat's hand, no stock order.

The games are replayed from their records: at every version, a state message must carry
exactly the engine's view for its seat, and every card named anywhere in it (events, last
action, meters, results …) must be in that seat's own hand, among the cards shown face up in
the deal so far (pile, table, indicator), or in the hands of deals already over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.cards import parse_card
from rummykit.engine import Game
from rummykit.server.storage import SQLiteStorage
from tests.server_support import Client, ServerProc, autoplay, make_room

CARD = re.compile(r"^(?:[A2-9TJQK]|10)[SHDC]$|^X$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    proc = ServerProc(tmp_path_factory.mktemp("audit") / "audit.db").start()
    yield proc
    proc.stop()


def _tokens(value: Any, skip: tuple[str, ...] = (), path: str = "") -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{path}.{k}" if path else k
            if p not in skip:
                out |= _tokens(v, skip, p)
    elif isinstance(value, list):
        for v in value:
            out |= _tokens(v, skip, path)
    elif isinstance(value, str):
        for tok in re.split(r"[\s/]+", value):
            if CARD.match(tok):
                out.add(tok)
    return out


def _truth(
    record: dict[str, Any], seats: set[int | None]
) -> dict[int, tuple[Game, set[str], dict[int | None, Any]]]:
    """For every version: the game's views by seat (None: spectator) and the public cards seen
    in the deal so far."""
    out: dict[int, tuple[Game, set[str], dict[int | None, Any]]] = {}
    for k, deal in enumerate(record["deals"]):
        partial = dict(record, deals=[*record["deals"][:k], dict(deal, actions=[])])
        game = Game.from_record(partial)
        if deal.get("restocks"):
            game._planned_restocks[k + 1] = [
                [parse_card(c) for c in order] for order in deal["restocks"]
            ]
        seen: set[str] = set()
        _snap(game, seen, seats, out)
        for action in deal["actions"]:
            game.apply(action)
            _snap(game, seen, seats, out)
    return out


def _snap(
    game: Game,
    seen: set[str],
    seats: set[int | None],
    out: dict[int, tuple[Game, set[str], dict[int | None, Any]]],
) -> None:
    public = game.public_view()
    seen.update(public["pile"])
    for m in public["table"]:
        seen.update(m["cards"])
    if public.get("indicator"):
        seen.add(public["indicator"])
    views: dict[int | None, Any] = {s: game.view(s) for s in seats if s is not None}
    views[None] = public
    out[game.version] = (game, set(seen), views)


def _states(clients: list[Client]) -> int:
    return sum(1 for c in clients for m in c.log if m["type"] == "state")


def _audit(clients: list[Client], record: dict[str, Any]) -> int:
    truth = _truth(record, {c.seat for c in clients})
    checked = 0
    for c in clients:
        seat = c.seat
        for msg in c.log:
            if msg["type"] in ("deal_over", "game_over"):
                continue  # results: every hand of a finished deal is public
            if msg["type"] != "state":
                assert not _tokens(msg), (c.name, msg)
                continue
            _, seen, views = truth[msg["version"]]
            view = msg["view"]
            assert view == views[seat], (c.name, msg["version"])
            if seat is None:
                assert "hand" not in view
            own = set(view.get("hand") or [])
            finished = _tokens(view.get("results"))
            allowed = own | seen | finished
            named = _tokens(msg, skip=("view.hand",))
            leaked = named - allowed
            assert not leaked, (c.name, msg["version"], leaked)
            assert "deck" not in json.dumps(msg)
            checked += 1
    return checked


@pytest.mark.parametrize(
    ("variant", "players", "humans", "options", "budget"),
    [
        ("rummy", 4, 3, {"opening": 30}, None),
        # 2 v 2: partners do not see each other's hands either (a long game: audited once the
        # seats have received this many states, from the record as stored so far)
        ("rami51", 4, 2, {}, 120),
        ("indian", 3, 2, {"format": "points"}, None),
    ],
)
def test_no_seat_learns_a_hidden_card(
    server: ServerProc,
    variant: str,
    players: int,
    humans: int,
    options: dict[str, Any],
    budget: int | None,
) -> None:
    # A deal can end in a few turns (a quick declaration, two drops): such a game audits too
    # few states to mean much, so another game is played until enough states are audited.
    checked = 0
    for _ in range(5):
        checked += _play_and_audit(server, variant, players, humans, options, budget)
        if checked > 50:
            break
    assert checked > 50


def _play_and_audit(
    server: ServerProc,
    variant: str,
    players: int,
    humans: int,
    options: dict[str, Any],
    budget: int | None,
) -> int:
    """Play one game in a new room and audit what every seat and a watcher received; the
    number of states audited."""

    async def main() -> tuple[list[Client], str]:
        code, clients = await make_room(server.ws, variant, players, humans, options)
        watcher = await Client("watcher").connect(server.ws)
        r = await watcher.request("join", room=code)
        assert r["type"] == "room"
        play = asyncio.gather(*(autoplay(c) for c in clients))
        if budget is None:
            await asyncio.wait_for(play, 120)
            await watcher.recv("game_over", timeout=20)
        else:
            # Counted in messages, not seconds, so that a loaded machine audits as much.
            loop = asyncio.get_running_loop()
            give_up = loop.time() + 120
            while _states(clients) < budget and not play.done() and loop.time() < give_up:
                await asyncio.sleep(0.05)
            play.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await play
        for c in [*clients, watcher]:
            await c.close()
        return [*clients, watcher], code

    clients, code = asyncio.run(main())
    if budget is None:
        status, body = server.get(f"/records/{code}.json")
        assert status == 200
        record = json.loads(body)
    else:
        store = SQLiteStorage(str(server.db))
        stored = store.load_game(code, 1)
        store.close()
        assert stored is not None
        record = stored
    return _audit(clients, record)

