#!/usr/bin/env python
"""Load benchmark of ``rummykit serve`` (not a test).

Starts a server in a subprocess on loopback (or uses ``--url``), opens N WebSocket clients in
rooms of four people, and has them play real games of ``rummy`` through the protocol: each
client, when its seat is to move, waits a think time and sends ``draw`` or a discard. When a
game ends the room plays a rematch. Prints the action-to-update latency (from sending an action
to receiving the ``state`` that acknowledges it) at p50/p90/p99/max, the number of errors, the
actions per second and the server's resident memory.

    python scripts/bench_server.py                      # 1,000 connections, 250 rooms
    python scripts/bench_server.py --clients 200 --duration 30 --think 2
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def run_delay(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a CPU (schedstat)."""
    total = 0.0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[1]) / 1e9
    except OSError:
        return float("nan")
    return total


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.lags: list[float] = []  # the bench client's own event-loop lag
        self.errors: list[str] = []
        self.actions = 0
        self.games = 0
        self.measuring = False


class Bot:
    """One simulated person: plays its seat with a think time."""

    def __init__(self, i: int, url: str, stats: Stats, think: float, rng: random.Random) -> None:
        self.i = i
        self.url = url
        self.stats = stats
        self.think = think
        self.rng = rng
        self.ws: Any = None
        self.seat: int | None = None
        self.sent: dict[str, float] = {}
        self.n = 0
        self.acting = False
        self.started = asyncio.Event()
        self.stop = False
        self.tasks: set[asyncio.Future[None]] = set()

    async def send(self, msg: dict[str, Any]) -> str:
        self.n += 1
        mid = f"{self.i}-{self.n}"
        msg["id"] = mid
        await self.ws.send(json.dumps(msg))
        return mid

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=2**22, open_timeout=60)
        json.loads(await self.ws.recv())  # welcome

    async def run(self) -> None:
        try:
            async for text in self.ws:
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "state":
                    ack = msg.get("ack")
                    if ack is not None and ack in self.sent:
                        t0 = self.sent.pop(ack)
                        if self.stats.measuring:
                            self.stats.latencies.append(time.perf_counter() - t0)
                            self.stats.actions += 1
                        self.acting = False
                    self.started.set()
                    view = msg["view"]
                    turn = view.get("turn")
                    if turn and turn["seat"] == self.seat and not self.acting and not self.stop:
                        self.acting = True
                        task = asyncio.ensure_future(self.act(msg["version"], view))
                        self.tasks.add(task)
                        task.add_done_callback(self.tasks.discard)
                elif kind == "error":
                    self.stats.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                    self.acting = False
                elif kind == "game_over":
                    if self.stats.measuring:
                        self.stats.games += 1
                    if not self.stop:
                        await self.send({"type": "rematch"})
        except websockets.ConnectionClosed as exc:
            if not self.stop:
                self.stats.errors.append(f"connection closed: {exc}")

    async def act(self, version: int, view: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if self.stop:
            return
        if view["turn"]["phase"] == "draw":
            action = "draw"
        else:
            action = f"discard {self.rng.choice(view['hand'])}"
        mid = f"{self.i}-{self.n + 1}"
        self.sent[mid] = time.perf_counter()
        await self.send({"type": "action", "version": version, "action": action})


async def setup_room(bots: list[Bot]) -> None:
    host = bots[0]
    await host.send(
        {"type": "create", "variant": "rummy", "players": len(bots), "options": {"clock": 600}}
    )
    msg = json.loads(await host.ws.recv())
    code = msg["room"]
    for b in bots[1:]:
        await b.send({"type": "join", "room": code})
        json.loads(await b.ws.recv())
    for seat, b in enumerate(bots):
        b.seat = seat
        await b.send({"type": "sit", "seat": seat, "name": f"B{b.i}"})
        while True:
            m = json.loads(await b.ws.recv())
            if m["type"] == "seated":
                break


async def lag_probe(stats: Stats, tick: float = 0.02) -> None:
    """How late this client's event loop runs a timer: its own delays, which it adds to the
    latencies it measures."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(tick)
        if stats.measuring:
            stats.lags.append(max(0.0, time.perf_counter() - t - tick))


def server_metrics(url: str, method: str = "GET") -> dict[str, Any]:
    base = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    req = urllib.request.Request(base + "/api/metrics", method=method)
    with urllib.request.urlopen(req, timeout=5) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


async def bench(args: argparse.Namespace, url: str, pid: int | None) -> int:
    stats = Stats()
    rng = random.Random(args.seed)
    n = args.clients - args.clients % args.seats
    bots = [Bot(i, url, stats, args.think, random.Random(rng.random())) for i in range(n)]
    t0 = time.perf_counter()
    sem = asyncio.Semaphore(50)

    async def connect(b: Bot) -> None:
        async with sem:
            await b.connect()

    await asyncio.gather(*(connect(b) for b in bots))
    rooms = [bots[i : i + args.seats] for i in range(0, n, args.seats)]
    for k in range(0, len(rooms), 25):
        await asyncio.gather(*(setup_room(r) for r in rooms[k : k + 25]))
    tasks = [asyncio.ensure_future(b.run()) for b in bots]
    await asyncio.wait_for(asyncio.gather(*(b.started.wait() for b in bots)), 120)
    print(
        f"{n} connections in {len(rooms)} rooms ready in {time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    await asyncio.sleep(args.warmup)
    # The client is the measuring instrument: a pause of its own collector would be counted as
    # server latency, so the objects it has built are frozen and its collector stays off
    # while it measures (it makes little garbage of its own in a minute).
    gc.collect()
    gc.freeze()
    gc.disable()
    probe = asyncio.ensure_future(lag_probe(stats))
    try:
        server_metrics(url, "POST")  # the server's figures cover the measured time only
    except OSError as exc:
        print(f"no server metrics: {exc}")
    cpu0 = cpu_seconds(pid) if pid else float("nan")
    wait0 = run_delay(pid) if pid else float("nan")
    me0 = time.process_time()
    stats.measuring = True
    m0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - m0
    cpu1 = cpu_seconds(pid) if pid else float("nan")
    wait1 = run_delay(pid) if pid else float("nan")
    me1 = time.process_time()
    probe.cancel()
    gc.enable()
    for b in bots:
        b.stop = True
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    print(
        f"measured {elapsed:.0f} s: {stats.actions} actions ({stats.actions / elapsed:.1f}/s), "
        f"{stats.games} games finished"
    )
    if lat:
        print(
            f"action-to-update latency: p50 {pct(0.50):.1f} ms, p90 {pct(0.90):.1f} ms, "
            f"p99 {pct(0.99):.1f} ms, max {lat[-1] * 1000:.1f} ms, "
            f"mean {statistics.mean(lat) * 1000:.1f} ms"
        )
    lags = sorted(stats.lags)
    lag99 = lags[int(0.99 * len(lags))] * 1000 if lags else float("nan")
    print(
        f"bench clients CPU {100 * (me1 - me0) / elapsed:.0f}% of one core, own event-loop lag "
        f"p99 {lag99:.1f} ms, max {max(lags, default=float('nan')) * 1000:.1f} ms; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[:3]})" if stats.errors else "")
    )
    if pid:
        print(
            f"server RSS {rss_mb(pid):.0f} MB, server CPU {100 * (cpu1 - cpu0) / elapsed:.0f}% "
            f"of one core, and waited {100 * (wait1 - wait0) / elapsed:.0f}% of the time for a "
            f"CPU taken by other processes"
        )
    try:
        m = server_metrics(url)
        h = m["action_handling_ms"]
        print(
            f"server-side action handling (engine, storage, fan-out): p50 {h['p50']} ms, "
            f"p99 {h['p99']} ms, max {h['max']} ms"
        )
        if "loop_lag_ms" in m:
            lag, g = m["loop_lag_ms"], m["gc"]
            pauses = ", ".join(
                f"gen {n}: {g[f'gen{n}_pause_ms']['count']} (max {g[f'gen{n}_pause_ms']['max']} ms)"
                for n in range(3)
            )
            print(
                f"server event-loop lag p50 {lag['p50']} ms, p99 {lag['p99']} ms, max "
                f"{lag['max']} ms; collections {pauses}"
            )
    except OSError as exc:
        print(f"no server metrics: {exc}")
    for b in bots:
        await b.ws.close()
    for t in tasks:
        t.cancel()
    ok = bool(lat) and pct(0.99) <= args.target_p99 and not stats.errors
    print(f"target p99 <= {args.target_p99:.0f} ms and zero errors: {'MET' if ok else 'NOT MET'}")
    return 0 if ok else 1


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--clients", type=int, default=1000, help="WebSocket connections (1000)")
    p.add_argument("--seats", type=int, default=4, help="people per room (4)")
    p.add_argument(
        "--think",
        type=float,
        default=4.0,
        help="mean seconds a client thinks before each action (4.0)",
    )
    p.add_argument("--duration", type=float, default=60, help="seconds measured (60)")
    p.add_argument("--warmup", type=float, default=10, help="seconds before measuring (10)")
    p.add_argument("--url", help="use a running server (ws://host:port/ws) instead of starting one")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target-p99", type=float, default=50.0)
    p.add_argument(
        "--autogroup-nice",
        type=int,
        metavar="N",
        help="set the nice value of this benchmark's scheduling autogroup (Linux with "
        "sched_autogroup: other sessions' jobs share the CPUs by group whatever their own nice "
        "value; -10 makes the benchmark the machine's main job; below 0 needs root)",
    )
    args = p.parse_args()
    group = Path("/proc/self/autogroup")
    if args.autogroup_nice is None:
        return run(args)
    # The server started by run() inherits the group (same session); the group outlives this
    # process, so its nice value is put back at the end.
    before = group.read_text().split()[-1]
    group.write_text(f"{args.autogroup_nice}\n")
    print(f"autogroup: {group.read_text().strip()} (was nice {before})")
    try:
        return run(args)
    finally:
        group.write_text(f"{before}\n")


def run(args: argparse.Namespace) -> int:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.url:
        return asyncio.run(bench(args, args.url, None))
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="rummykit-bench-")
    cmd = [
        sys.executable,
        "-m",
        "rummykit",
        "serve",
        "--port",
        str(port),
        "--db",
        str(Path(tmp) / "bench.db"),
        "--next-deal-pause",
        "1",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd)
    try:
        for _ in range(200):
            # A server that could not start is said as such, not as a thousand refused
            # connections (python -m rummykit.server, gone since the layers, ended at once).
            if proc.poll() is not None:
                print(f"the server exited with status {proc.returncode} before it answered",
                      file=sys.stderr)
                return 2
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        print(f"server pid {proc.pid} on port {port}; RSS at start {rss_mb(proc.pid):.0f} MB")
        return asyncio.run(bench(args, f"ws://127.0.0.1:{port}/ws", proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
