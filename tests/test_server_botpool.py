"""The server's bot pool keeps its workers: a decision past its deadline has its worker killed
and replaced, a worker that dies is replaced, and either way the seat plays the medium move (or
the fallback move) instead; nothing outlives the pool.

The stand-ins for ``choose_action`` live in ``test_server_botpool_standins.py``, which the
spawned workers import."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import itertools
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.serve import add_arguments, config_from_args
from rummykit.engine.game import Game
from rummykit.server import botpool
from rummykit.server.app import create_app
from rummykit.server.botpool import BotPool, ChooseAction, _Worker
from rummykit.server.config import ServerConfig
from tests import server_botpool_broken
from tests.server_support import WHOLE_GAME, ServerProc, autoplay, make_room
from tests.test_server_botpool_standins import (
    RELEASE,
    ExitOnArrival,
    die_always,
    die_unless_medium,
    hang_always,
    hang_unless_medium,
    raise_unless_medium,
)

#: tests wait this long for a deadline; short, but long enough that a quick stand-in answers
#: in time on a loaded machine
DEADLINE = 0.5


@pytest.fixture(autouse=True)
def _release_threads() -> Iterator[None]:
    RELEASE.clear()
    yield
    RELEASE.set()


def _game() -> Game:
    return Game.new("rummy", players=2, seed=11)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (not gone, not a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        # The state follows the command name, which is in parentheses.
        return stat.read_text().rpartition(")")[2].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return not Path("/proc/self/stat").exists()


def _wait_gone(pids: list[int]) -> None:
    """Wait until none of ``pids`` runs: processes that leave by themselves (they notice at
    once; a loaded machine gets 30 s)."""
    for _ in range(300):
        if not any(_alive(pid) for pid in pids):
            return
        time.sleep(0.1)
    raise AssertionError(f"still running: {[p for p in pids if _alive(p)]}")


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_overrun_kills_the_worker_and_plays_the_medium_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = BotPool(workers=2, kind="process", timeout=DEADLINE)
    pool.choose = hang_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        assert await pool.decide(game, seat, "medium", room="ABCD") == "draw"
        before = set(pool.pids())
        assert len(before) == 2 and not _warnings(caplog)

        assert await pool.decide(game, seat, "hard", room="ABCD") == "draw"
        (message,) = _warnings(caplog)
        assert message.startswith(f"room ABCD seat {seat} (hard): the bot did not answer within")
        assert message.endswith("replaced); playing the medium move")
        after = set(pool.pids())
        (killed,) = before - after  # one worker replaced, the other untouched
        assert len(after) == 2 and not _alive(killed)

        caplog.clear()
        assert await pool.decide(game, seat, "medium", room="ABCD") == "draw"
        assert not _warnings(caplog) and set(pool.pids()) == after

    try:
        asyncio.run(main())
        seen = pool.pids()
    finally:
        pool.close()
    assert pool.pids() == [] and not any(_alive(pid) for pid in seen)


def test_a_hung_medium_move_gives_way_to_the_fallback_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = hang_always
    game = _game()
    seat = game.to_move
    assert seat is not None
    try:
        for level in ("hard", "medium"):
            caplog.clear()
            assert asyncio.run(pool.decide(game, seat, level, room="EFGH")) == "draw"
            (message,) = _warnings(caplog)
            assert message.startswith(f"room EFGH seat {seat} ({level}): the bot did not answer")
            assert message.endswith("; playing the fallback move")
            # hard: its own worker and the medium move's were replaced; medium is not asked twice
            assert message.count("replaced") == (2 if level == "hard" else 1)
            assert len(pool.pids()) == 1
        # three workers killed for overrunning in a row: they worked, and the pool goes on
        assert pool.paused() == 0
    finally:
        pool.close()


def test_a_dead_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = die_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        assert await pool.decide(game, seat, "easy") == "draw"
        (message,) = _warnings(caplog)
        assert "the bot lost its worker, ended by SIGKILL" in message
        assert message.endswith("; playing the medium move")
        assert len(pool.pids()) == 1

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_worker_that_died_while_free_is_replaced_before_use(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = hang_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        assert await pool.decide(game, seat, "medium") == "draw"
        (pid,) = pool.pids()
        (worker,) = pool._processes
        os.kill(pid, signal.SIGKILL)
        worker.process.join(30)
        assert await pool.decide(game, seat, "medium") == "draw"
        assert _warnings(caplog) == [f"bot worker process {pid} ended by SIGKILL; replaced"]
        assert pool.pids() != [pid] and len(pool.pids()) == 1

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_bot_that_raises_keeps_its_worker(caplog: pytest.LogCaptureFixture) -> None:
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = raise_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        assert await pool.decide(game, seat, "medium") == "draw"
        pids = pool.pids()
        assert await pool.decide(game, seat, "hard", room="IJKL") == "draw"
        assert _warnings(caplog) == [
            f"room IJKL seat {seat} (hard): the bot raised ZeroDivisionError: a bug in the bot; "
            "playing the medium move"
        ]
        assert pool.pids() == pids

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_closing_during_a_hung_decision_leaves_no_process() -> None:
    pool = BotPool(workers=2, kind="process", timeout=60)
    pool.choose = hang_always
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> list[int]:
        task = asyncio.ensure_future(pool.decide(game, seat, "hard"))
        await asyncio.sleep(0.2)
        seen = pool.pids()
        pool.close()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return seen

    seen = asyncio.run(main())
    assert len(seen) == 2 and pool.pids() == []
    assert not any(_alive(pid) for pid in seen)


@pytest.mark.parametrize("stage", ["spawning", "starting", "thinking"])
def test_closing_cancels_a_pending_decision_at_once_and_starts_no_worker(
    stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The decision's pipe was closed under it: it waited out its whole deadline (60 s for a
    # worker still starting), then asked the medium move, starting a worker after close. A
    # process whose start (in a thread) ends after the close is one the close did not see.
    pool = BotPool(workers=1, kind="process", timeout=60)
    pool.choose = hang_always
    game = _game()
    seat = game.to_move
    assert seat is not None
    spawn = pool._spawn
    gate = threading.Event()
    spawned: list[int] = []

    def recorded(choose: ChooseAction) -> object:
        if stage == "spawning":
            gate.wait(30)
        worker = spawn(choose)
        assert worker.process.pid is not None
        spawned.append(worker.process.pid)
        return worker

    monkeypatch.setattr(pool, "_spawn", recorded)

    async def main() -> None:
        task = asyncio.ensure_future(pool.decide(game, seat, "hard"))
        waiting = asyncio.ensure_future(pool.decide(game, seat, "hard"))  # no worker free
        if stage == "spawning":
            await asyncio.sleep(0.05)
        else:
            while not pool.pids():
                await asyncio.sleep(0.001)
            if stage == "thinking":
                while not any(w.ready for w in pool._processes):
                    await asyncio.sleep(0.01)
        pool.close()
        gate.set()
        for pending in (task, waiting):
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(pending, 1)

    asyncio.run(main())  # it waits for the thread that started the worker
    assert len(spawned) == 1 and pool.pids() == []
    assert not any(_alive(pid) for pid in spawned)


def test_workers_leave_when_the_server_is_killed() -> None:
    """A server killed outright (``kill -9``) cannot stop its workers; they stop themselves,
    even one stuck in a decision."""
    script = f"""
import asyncio, sys
sys.path[:0] = [{str(Path(__file__).parents[1])!r}]
from rummykit.engine.game import Game
from rummykit.server.botpool import BotPool, ChooseAction
from tests.test_server_botpool_standins import hang_always

async def main():
    pool = BotPool(workers=2, kind="process", timeout=60)
    pool.choose = hang_always
    game = Game.new("rummy", players=2, seed=11)
    task = asyncio.ensure_future(pool.decide(game, game.to_move, "hard"))
    while not any(w.ready for w in pool._processes):  # the decision went to a worker
        await asyncio.sleep(0.05)
    print(*pool.pids(), flush=True)
    await task

asyncio.run(main())
"""
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(pid) for pid in pids)
    finally:
        server.kill()
        server.wait()
    _wait_gone(pids)


def test_a_hung_thread_falls_back_and_frees_its_permit(caplog: pytest.LogCaptureFixture) -> None:
    pool = BotPool(workers=1, kind="thread", timeout=DEADLINE)
    pool.choose = hang_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        # Twice: the one permit comes back though the first thread still hangs.
        for _ in range(2):
            caplog.clear()
            assert await pool.decide(game, seat, "hard", room="MNOP") == "draw"
            (message,) = _warnings(caplog)
            assert message.startswith(f"room MNOP seat {seat} (hard): the bot did not answer")
            assert "its thread runs on" in message and message.endswith("the medium move")

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_the_bot_timeout_flag() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert config_from_args(parser.parse_args([])).bot_timeout == 10.0
    assert config_from_args(parser.parse_args(["--bot-timeout", "2.5"])).bot_timeout == 2.5
    for bad in ("0", "-1", "soon", "nan", "inf"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--bot-timeout", bad])
    with pytest.raises(ValueError, match="positive"):
        BotPool(timeout=0)


def test_the_real_bots_answer_from_worker_processes(caplog: pytest.LogCaptureFixture) -> None:
    pool = BotPool(workers=1, kind="process")
    game = _game()

    async def main() -> None:
        for level in ("medium", "hard"):
            seat = game.to_move
            assert seat is not None
            game.apply(await pool.decide(game, seat, level))

    try:
        asyncio.run(main())
    finally:
        pool.close()
    assert not _warnings(caplog) and len(game.history()) >= 2


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from ``/proc``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_server_with_worker_processes_plays_and_leaves_none(tmp_path: Path) -> None:
    server = ServerProc(tmp_path / "p.db", "--bot-pool", "process", "--bot-workers", "1").start()
    try:
        async def main() -> None:
            _, clients = await make_room(server.ws, "rami51", 2, 1, level="medium")
            await asyncio.wait_for(autoplay(clients[0]), WHOLE_GAME)
            await clients[0].close()

        asyncio.run(main())
        assert server.proc is not None
        children = [p for p in _children(server.proc.pid) if _alive(p)]
        workers = [p for p in children if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
    finally:
        server.stop()
    # The server reaps its workers before it exits; multiprocessing's resource tracker (also
    # started by spawn) leaves by itself when the server is gone.
    assert len(workers) == 1 and not _alive(workers[0])
    _wait_gone(children)
    assert server.errors_logged() == "" and "playing the" not in server.log.read_text()


def test_a_worker_that_cannot_be_replaced_keeps_its_place(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No new process to be had (a full process table): the seat still gets a move, and the
    pool tries again at the next decision instead of shrinking for good (with one worker, every
    later decision waited for ever)."""
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = die_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None
    start = pool._spawn

    def no_process(choose: object) -> object:
        raise OSError(11, "Resource temporarily unavailable")

    async def main() -> None:
        assert await pool.decide(game, seat, "medium") == "draw"  # the worker starts
        monkeypatch.setattr(pool, "_spawn", no_process)
        assert await asyncio.wait_for(pool.decide(game, seat, "easy"), 30) == "draw"
        assert any("could not start a new worker process" in m for m in _warnings(caplog))
        assert pool.pids() == []
        monkeypatch.setattr(pool, "_spawn", start)
        assert await asyncio.wait_for(pool.decide(game, seat, "medium"), 30) == "draw"
        assert len(pool.pids()) == 1

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_pool_that_cannot_start_answers_with_the_fallback_move(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = BotPool(workers=2, kind="process", timeout=DEADLINE)
    pool.choose = hang_always
    game = _game()
    seat = game.to_move
    assert seat is not None

    def no_process(choose: object) -> object:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(pool, "_spawn", no_process)
    try:
        assert asyncio.run(pool.decide(game, seat, "hard")) == "draw"
        # Both places failed to start, and then the decision's own try: the pool backs off.
        pause, message = _warnings(caplog)
        assert pause.startswith("bot workers: 3 in a row failed to start or died before")
        assert "could not start a worker process" in message
        assert message.endswith("playing the fallback move")
    finally:
        pool.close()


def test_workers_are_started_and_reaped_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Starting a process, and waiting for the end of one that was killed, take milliseconds
    (a start ~100 ms on a busy machine): on the event loop every room's clock and sockets would
    wait. Here each start and reap waits until the loop has run: on the loop, it never would."""
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = die_unless_medium
    game = _game()
    seat = game.to_move
    assert seat is not None
    loop_ran = threading.Event()
    steps: list[tuple[str, bool]] = []

    def after_the_loop_ran(step: str) -> None:
        loop_ran.clear()
        steps.append((step, loop_ran.wait(10)))

    spawn, reap = pool._spawn, _Worker.reap

    def slow_spawn(choose: ChooseAction) -> _Worker:
        after_the_loop_ran("start")
        return spawn(choose)

    def slow_reap(worker: _Worker) -> None:
        after_the_loop_ran("reap")
        reap(worker)

    monkeypatch.setattr(pool, "_spawn", slow_spawn)
    monkeypatch.setattr(_Worker, "reap", slow_reap)

    async def main() -> None:
        async def tick() -> None:
            while True:
                loop_ran.set()
                await asyncio.sleep(0.005)

        ticker = asyncio.ensure_future(tick())
        # the worker starts, dies in the decision, is reaped and replaced
        assert await pool.decide(game, seat, "easy") == "draw"
        ticker.cancel()

    try:
        asyncio.run(main())
    finally:
        monkeypatch.setattr(_Worker, "reap", reap)  # close() runs when no loop runs any more
        pool.close()
    assert steps == [("start", True), ("reap", True), ("start", True)]


def test_a_bots_package_that_crashes_on_import_pauses_the_pool_until_it_is_mended(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every worker dies as it imports the bots: after three such deaths in a row the pool
    starts none for 5 s, then 10 s (twice as long each time a try fails), and bots play the
    fallback move, logged once per change; a worker that answers ends it."""
    pool = BotPool(workers=2, kind="process", timeout=DEADLINE)
    pool.choose = server_botpool_broken.choose_action
    now = [1000.0]
    pool._clock = lambda: now[0]
    game = _game()
    seat = game.to_move
    assert seat is not None
    spawn = pool._spawn
    spawned: list[int] = []

    def recorded(choose: ChooseAction) -> _Worker:
        worker = spawn(choose)
        assert worker.process.pid is not None
        spawned.append(worker.process.pid)
        return worker

    monkeypatch.setattr(pool, "_spawn", recorded)
    monkeypatch.setenv(server_botpool_broken.BROKEN, "1")  # for the workers

    def pauses() -> list[str]:
        return [m for m in _warnings(caplog) if m.startswith("bot workers")]

    async def main() -> None:
        # each decision counts two deaths (the bot's worker and the medium move's)
        for _ in range(2):
            if not pool.paused():
                assert await pool.decide(game, seat, "hard", room="QRST") == "draw"
        (paused,) = pauses()
        assert re.fullmatch(
            r"bot workers: 3 in a row failed to start or died before answering \(the last: "
            r"worker process \d+ exited with status 1\); starting none for 5 s, bots play the "
            r"fallback move meanwhile", paused)
        # each failure but the last started one worker in its place
        assert len(spawned) <= pool.workers + 2
        assert pool.paused() == 5

        caplog.clear()
        started = len(spawned)
        for _ in range(20):
            assert await pool.decide(game, seat, "hard", room="QRST") == "draw"
        assert len(spawned) == started and not _warnings(caplog)

        now[0] += 5  # the pause is over: the next decision tries again, and fails
        assert await pool.decide(game, seat, "hard", room="QRST") == "draw"
        (paused,) = pauses()
        assert re.fullmatch(
            r"bot workers: 4 in a row .* \(the last: worker process \d+ exited with status 1\);"
            r" starting none for 10 s, bots play the fallback move meanwhile", paused)
        # one try: at most a new worker for each place
        assert started < len(spawned) <= started + pool.workers

        caplog.clear()
        now[0] += 10
        monkeypatch.delenv(server_botpool_broken.BROKEN)  # the bots are mended
        # The workers started by the last try die yet, one for each place: by the second
        # decision one of the new ones answers.
        for _ in range(2):
            assert await pool.decide(game, seat, "easy", room="QRST") == "draw"
        assert _warnings(caplog).count(
            "bot workers answer again after 4 failed in a row; bots play their own moves"
        ) == 1
        assert pool.paused() == 0
        caplog.clear()
        for level in ("easy", "hard"):
            assert await pool.decide(game, seat, level, room="QRST") == "draw"
        assert not _warnings(caplog)

    try:
        asyncio.run(main())
    finally:
        pool.close()
    assert not any(_alive(pid) for pid in spawned)


@pytest.mark.parametrize("choose", [ExitOnArrival(), die_always], ids=["at-start", "at-first-move"])
def test_workers_that_die_before_they_answer_pause_the_pool(
    choose: ChooseAction, caplog: pytest.LogCaptureFixture
) -> None:
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = choose
    game = _game()
    seat = game.to_move
    assert seat is not None

    async def main() -> None:
        # the decision's worker and the medium move's die, then the next decision's (or a
        # worker found dead as it was taken)
        for _ in range(2):
            if not pool.paused():
                assert await pool.decide(game, seat, "hard") == "draw"
        assert 0 < pool.paused() <= 5
        assert sum(m.startswith("bot workers: 3 in a row") for m in _warnings(caplog)) == 1
        assert pool.pids() == []  # none is started for its place while the pool pauses

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_worker_that_answers_ends_a_run_of_failures(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start that fails now and then (a busy process table) is no broken deploy: each is
    followed by a worker that answers, and the pool never pauses."""
    pool = BotPool(workers=1, kind="process", timeout=DEADLINE)
    pool.choose = die_unless_medium
    pool.backoff_after = 2
    game = _game()
    seat = game.to_move
    assert seat is not None
    spawn = pool._spawn
    calls = itertools.count()

    def every_other(choose: ChooseAction) -> _Worker:
        if next(calls) % 2:
            raise OSError(11, "Resource temporarily unavailable")
        return spawn(choose)

    monkeypatch.setattr(pool, "_spawn", every_other)

    async def main() -> None:
        assert await pool.decide(game, seat, "medium") == "draw"  # the worker starts
        # each time: the worker dies, no new one can be started, then one is for the medium move
        for _ in range(pool.backoff_after + 1):
            assert await pool.decide(game, seat, "easy") == "draw"
        assert pool.paused() == 0
        assert len(_warnings(caplog)) == pool.backoff_after + 1
        assert all("could not start a new worker process" in m for m in _warnings(caplog))
        assert all(m.endswith("playing the medium move") for m in _warnings(caplog))

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_bots_package_that_raises_on_import_leaves_the_server_running_without_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bots package that raises something other than ImportError on import (a broken
    deploy) is logged once, with its traceback, and the server starts as without bots: the
    default levels, and every bot plays the fallback move."""
    with warnings.catch_warnings():
        # Starlette deprecates its test client's httpx backend; the test needs no HTTP client.
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient

    real_import = importlib.import_module
    attempts: list[str] = []

    def import_module(name: str, package: str | None = None) -> object:
        if name == botpool.BOTS_MODULE:
            attempts.append(name)
            raise RuntimeError("a broken bots package")
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", import_module)
    monkeypatch.setattr(botpool, "_import_failure_logged", False)
    caplog.set_level(logging.WARNING, logger="rummykit.server")
    app = create_app(ServerConfig(db=str(tmp_path / "b.db"), bot_pool="thread", bot_delay=0))
    manager = app.state.manager
    assert len(attempts) == 2  # choose_action and LEVELS: the failure is not cached away
    assert manager.bots.choose is None
    assert manager.levels == botpool.DEFAULT_LEVELS
    (record,) = [r for r in caplog.records if "bots package" in r.getMessage()]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert isinstance(record.exc_info[1], RuntimeError)
    assert "fallback move" in record.getMessage()

    with (
        TestClient(app) as http,
        http.websocket_connect("/ws", headers={"Host": "127.0.0.1:8000"}) as ws,
    ):
        variants = http.get("/api/variants", headers={"Host": "127.0.0.1:8000"})
        assert variants.json()["bot_levels"] == list(botpool.DEFAULT_LEVELS)

        def reply(msg: dict[str, object], kind: str) -> dict[str, object]:
            ws.send_text(json.dumps(msg))
            while True:
                got: dict[str, object] = ws.receive_json()
                if got["type"] == kind:
                    return got
                assert got["type"] != "error", got

        assert ws.receive_json()["type"] == "welcome"
        reply({"type": "create", "id": 1, "variant": "rummy", "players": 2}, "room")
        reply({"type": "sit", "id": 2, "seat": 0, "name": "Ana"}, "seated")
        state = reply({"type": "add_bot", "id": 3, "seat": 1, "level": "hard"}, "state")
        # Ana plays her turn if she starts; then the bot's turn comes, played by the fallback
        # bot: it draws from the stock (and discards)
        while True:
            view: Any = state["view"]
            last: Any = state["last"]
            if last is not None and last["seat"] == 1:
                assert last["action"] == "draw" and not last["auto"]
                break
            if view["turn"]["seat"] == 0:
                action = "draw" if view["turn"]["phase"] == "draw" else f"discard {view['hand'][0]}"
                ws.send_text(json.dumps({"type": "action", "id": 4, "version": state["version"],
                                         "action": action}))
            state = ws.receive_json()
            while state["type"] != "state":
                assert state["type"] != "error", state
                state = ws.receive_json()
    # logged once in all
    assert len([r for r in caplog.records if "bots package" in r.getMessage()]) == 1
