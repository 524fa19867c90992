"""How long the server's bot pool holds up the event loop while it starts, replaces or stops
worker processes.

A ticking task sleeps 1 ms at a time on the loop and records the longest gap between two of its
ticks while one pool operation runs (the loop serves every room's clock and socket: a gap is
time no room is served). Each operation is repeated; the script prints the median and the
largest of its longest gaps, and the same for the ticker alone (what the machine itself costs):

    python scripts/bench_botpool.py            # 10 rounds of each operation
    python scripts/bench_botpool.py --rounds 3

Operations: ``first start`` (the first decision of a new two-worker pool: both workers start),
``dead worker`` (the bot kills its worker: it is reaped and replaced, the medium move is asked)
and ``overrun`` (the bot hangs past a 0.3 s deadline: its worker is killed, reaped and
replaced).

It also prints how long the steps the pool runs in threads took (starting a process, reaping a
killed one): what the loop waited for when they ran on it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import statistics
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.engine.game import Game
from rummykit.server.botpool import BotPool, ChooseAction, _Worker

#: seconds each step run in a thread took: "start a process", "reap a process"
STEPS: dict[str, list[float]] = {"start a process": [], "reap a process": []}


def die_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                      seed: int | None) -> str:
    if level != "medium":
        os.kill(os.getpid(), signal.SIGKILL)
    return "draw"


def hang_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                       seed: int | None) -> str:
    if level != "medium":
        time.sleep(3600)
    return "draw"


async def longest_gap(operation: Callable[[], Awaitable[object]]) -> float:
    """The longest time (seconds) the loop left a 1 ms ticker waiting while ``operation``
    ran."""
    loop = asyncio.get_running_loop()
    longest = 0.0
    done = False

    async def tick() -> None:
        nonlocal longest
        last = loop.time()
        while not done:
            await asyncio.sleep(0.001)
            now = loop.time()
            longest = max(longest, now - last)
            last = now

    ticker = asyncio.ensure_future(tick())
    await asyncio.sleep(0.01)
    longest = 0.0
    try:
        await operation()
    finally:
        done = True
        await ticker
    return longest


async def one_round() -> dict[str, float]:
    game = Game.new("rummy", players=2, seed=11)
    seat = game.to_move
    assert seat is not None
    # the server hands the pool the view it computed already (not the pool's time)
    view = game.view(seat)
    gaps: dict[str, float] = {}
    gaps["ticker alone"] = await longest_gap(lambda: asyncio.sleep(0.5))
    pool = BotPool(workers=2, kind="process", timeout=0.3)
    try:
        pool.choose = die_unless_medium
        gaps["first start"] = await longest_gap(lambda: pool.decide(game, seat, "medium", view))
        await pool.decide(game, seat, "medium", view)  # both workers ready
        gaps["dead worker"] = await longest_gap(lambda: pool.decide(game, seat, "easy", view))
        pool.choose = hang_unless_medium  # the replacement workers got the old choose
        pool.close()
        await pool.decide(game, seat, "medium", view)
        await pool.decide(game, seat, "medium", view)
        gaps["overrun"] = await longest_gap(lambda: pool.decide(game, seat, "hard", view))
    finally:
        pool.close()
    return gaps


def record_steps() -> None:
    """Time the pool's blocking steps (those in threads: :meth:`BotPool.close` reaps on the
    loop, at a server's end, and is left out)."""
    spawn, reap = BotPool._spawn, _Worker.reap

    def timed_spawn(pool: BotPool, choose: ChooseAction) -> _Worker:
        start = time.perf_counter()
        try:
            return spawn(pool, choose)
        finally:
            STEPS["start a process"].append(time.perf_counter() - start)

    def timed_reap(worker: _Worker) -> None:
        start = time.perf_counter()
        reap(worker)
        if threading.current_thread() is not threading.main_thread():
            STEPS["reap a process"].append(time.perf_counter() - start)

    setattr(BotPool, "_spawn", timed_spawn)  # noqa: B010  (a method replaced on the class)
    setattr(_Worker, "reap", timed_reap)  # noqa: B010


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    # the pool logs every failure it is made to handle here
    logging.getLogger("rummykit.server").setLevel(logging.ERROR)
    record_steps()
    rounds = [asyncio.run(one_round()) for _ in range(args.rounds)]
    print(f"longest stall of the event loop, ms, over {args.rounds} rounds (median / max)")
    for name in rounds[0]:
        values = [r[name] * 1000 for r in rounds]
        print(f"  {name:15} {statistics.median(values):7.1f} / {max(values):7.1f}")
    print("steps run in threads, ms (median / max, count)")
    for name, times in STEPS.items():
        ms = [t * 1000 for t in times]
        print(f"  {name:15} {statistics.median(ms):7.1f} / {max(ms):7.1f}  {len(ms)}")


if __name__ == "__main__":
    main()
