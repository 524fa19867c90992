"""A soak of ``rummykit serve``: many rooms played for minutes through the WebSocket protocol,
with the server killed with SIGKILL twice and restarted on the same database.

    python scripts/soak_server.py                  # 15 minutes, 18 rooms at a time
    python scripts/soak_server.py --minutes 3 --rooms 6

Rooms of every variant and seat count, with one to three scripted people (who play legal
moves from their own views, as ``tests/server_support.choose`` does) and bots of every level.
The people drop their connection and resume with their token, stop playing until the clock
marks them away and come back with ``back``, have spectators drop in, all leave a room for a
while (it must hold and come back at the same version), ask rematches or leave finished rooms
(which must show their results when visited later). At 35 % and 70 % of the run the server is
killed with SIGKILL and restarted on the same database: every room must still be there and
held, and every seat must find its game as it left it. At the end everybody leaves, the server
is killed once more and every room visited as a spectator.

Every message is checked as it arrives: an error that is not the client's own doing
(anything but ``stale_version``, ``not_your_turn``, ``illegal_action``, ``replaced``), a view of
another seat or with another seat's cards, a spectator view with a hand, a state version going
back, a clock or a bot's or the clock's move in a held room, a room whose game stops while it
should go on. The report gives the counts, the restart times, the server's memory and
``/api/metrics``, the server log's errors, and every broken invariant (exit status 1 if any).
The server runs with clocks at a tenth of their length (``--clock-scale 0.1``), its bots in two
worker processes and the view check of the tests (``--verify-views``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server_support import Client, ServerProc, choose  # noqa: E402

MINUTES = 15.0
ROOMS = 18
#: every clock a tenth of its length: a 30 s turn is 3 s, so people are marked away quickly
SCALE = 0.1
EXPECTED = {"stale_version", "not_your_turn", "illegal_action", "replaced"}

issues: list[str] = []
stats: dict[str, float] = {
    "rooms": 0, "actions": 0, "accepted": 0, "states": 0, "reconnects": 0, "aways": 0,
    "backs": 0, "spectators": 0, "rematches": 0, "parks": 0, "left_finished": 0,
    "revisits": 0, "games_over": 0, "restarts": 0, "holds_seen": 0,
}
restart_times: list[float] = []
resume_times: list[float] = []
T0 = time.monotonic()


def issue(text: str) -> None:
    line = f"[{time.monotonic() - T0:7.1f}s] {text}"
    issues.append(line)
    print("ISSUE", line, flush=True)


class Soak:
    def __init__(self, out: Path, minutes: float, rooms: int) -> None:
        self.out, self.minutes, self.max_rooms = out, minutes, rooms
        #: spectators and later visits, kept until they end
        self.background: set[asyncio.Task[None]] = set()
        self.db = out / "soak.db"
        self.server = ServerProc(
            self.db, "--bot-delay", "0.1", "--next-deal-pause", "1", "--away-delay", "0.2",
            "--away-after", "2", "--clock-scale", str(SCALE), "--bot-pool", "process",
            "--bot-workers", "2",
        )
        self.up = asyncio.Event()
        self.restarting = False
        self.rooms: dict[str, RoomSoak] = {}
        self.stop = False

    def spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def get(self, path: str) -> tuple[int, Any]:
        code, body = self.server.get(path)
        try:
            return code, json.loads(body)
        except ValueError:
            return code, body

    async def aget(self, path: str) -> tuple[int, Any]:
        return await asyncio.get_running_loop().run_in_executor(None, self.get, path)

    def rss(self) -> int:
        assert self.server.proc is not None
        for line in Path(f"/proc/{self.server.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS"):
                return int(line.split()[1])
        return 0

    async def restart(self, n: int) -> None:
        self.restarting = True
        self.up.clear()
        print(f"--- kill -9 #{n} (rss {self.rss()} kB, rooms {len(self.rooms)})", flush=True)
        self.server.kill9()
        t = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, self.server.start)
        dt = time.monotonic() - t
        restart_times.append(dt)
        stats["restarts"] += 1
        print(f"--- restarted in {dt:.2f} s", flush=True)
        await self.check_all_rooms("after restart", all_held=True)
        self.up.set()
        await asyncio.sleep(8)
        self.restarting = False

    async def check_all_rooms(self, when: str, all_held: bool) -> None:
        for code, rs in list(self.rooms.items()):
            status, body = await self.aget(f"/api/rooms/{code}")
            if status != 200:
                issue(f"{when}: room {code} lost ({status} {body!r:.100})")
                continue
            room = body["room"]
            if room["status"] in ("playing", "between-deals"):
                if (all_held or rs.parked) and not room["held"]:
                    issue(f"{when}: room {code} ({room['status']}) not held; nobody is in it"
                          f" (parked={rs.parked})")
                if room["held"] and room["next_deal_at"] is not None:
                    issue(f"{when}: held room {code} has next_deal_at")
            if rs.finished_results is not None:
                if room["status"] != "over" and room["game"] == rs.finished_game:
                    issue(f"{when}: finished room {code} shows {room['status']}")
                st, _ = await self.aget(f"/records/{code}-{rs.finished_game}.json")
                if st != 200:
                    issue(f"{when}: record of finished room {code} game {rs.finished_game}: {st}")

    async def run(self) -> bool:
        await asyncio.get_running_loop().run_in_executor(None, self.server.start)
        self.up.set()
        total = self.minutes * 60
        kills = [total * 0.35, total * 0.7]
        keeper = asyncio.ensure_future(self.keep_rooms())
        watch = asyncio.ensure_future(self.watchdog())
        rss_log = asyncio.ensure_future(self.sample())
        start = time.monotonic()
        for i, at in enumerate(kills, 1):
            await asyncio.sleep(max(0, start + at - time.monotonic()))
            await self.restart(i)
        await asyncio.sleep(max(0, start + total - time.monotonic()))
        self.stop = True
        print("--- stopping: everybody leaves", flush=True)
        keeper.cancel()
        await asyncio.gather(*(rs.wind_down() for rs in self.rooms.values()),
                             return_exceptions=True)
        for task in list(self.background):
            task.cancel()
        await asyncio.gather(*self.background, return_exceptions=True)
        watch.cancel()
        rss_log.cancel()
        await asyncio.sleep(2)
        await self.check_all_rooms("at the end, everybody gone", all_held=True)
        rss_end = self.rss()
        _, metrics = await self.aget("/api/metrics")
        # a last restart with every room parked: restart time on the full database
        self.up.clear()
        self.server.kill9()
        t = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, self.server.start)
        final_restart = time.monotonic() - t
        self.up.set()
        await self.check_all_rooms("after the final restart", all_held=True)
        # every room once more, as a spectator: same version as left, finished ones over
        revisit_t = []
        for rs in list(self.rooms.values()):
            t = time.monotonic()
            await rs.revisit("final")
            revisit_t.append(time.monotonic() - t)
        rss_final = self.rss()
        self.server.stop()
        print("\n==== REPORT ====")
        print(json.dumps(stats))
        print(f"rooms known: {len(self.rooms)}")
        times = [round(x, 2) for x in restart_times]
        print(f"restart times (s): {times}, final {final_restart:.2f}")
        if resume_times:
            rt = sorted(resume_times)
            print(f"first resume after restart (s): n={len(rt)} median {rt[len(rt)//2]:.3f} "
                  f"max {rt[-1]:.3f}")
        if revisit_t:
            rv = sorted(revisit_t)
            print(f"final revisits (s): n={len(rv)} median {rv[len(rv)//2]:.3f} max {rv[-1]:.3f}")
        print(f"rss at the end: {rss_end} kB; after the final restart and revisits {rss_final} kB")
        print("metrics:", json.dumps(metrics)[:600])
        log = self.server.log.read_text() if self.server.log.exists() else ""
        bad = [ln for ln in log.splitlines() if "Traceback" in ln or "ERROR" in ln]
        warn = [ln for ln in log.splitlines() if "WARNING" in ln or "warning" in ln.lower()]
        print(f"server log: {len(bad)} error/traceback lines, {len(warn)} warning lines")
        for ln in bad[:30]:
            print("  LOG", ln[:300])
        print(f"ISSUES: {len(issues)}")
        for line in issues:
            print(" ", line)
        return not issues

    async def sample(self) -> None:
        while True:
            await asyncio.sleep(30)
            if not self.restarting:
                with open(self.out / "rss.log", "a") as f:
                    f.write(f"{time.monotonic() - T0:.0f} {self.rss()} {len(self.rooms)}\n")

    async def keep_rooms(self) -> None:
        live: set[asyncio.Task[None]] = set()
        while not self.stop:
            while len(live) < self.max_rooms and not self.stop:
                await self.up.wait()
                rs = RoomSoak(self)
                task = asyncio.ensure_future(rs.life())
                rs.life_task = task
                live.add(task)
                task.add_done_callback(live.discard)
                await asyncio.sleep(random.uniform(0.2, 1.5))
            await asyncio.sleep(1)

    async def watchdog(self) -> None:
        while True:
            await asyncio.sleep(2)
            if self.restarting:
                for rs in self.rooms.values():
                    rs.progress = time.monotonic()
                continue
            now = time.monotonic()
            for rs in list(self.rooms.values()):
                if rs.status != "playing" or rs.held or rs.parked or not rs.connected():
                    rs.progress = max(rs.progress, now - 1) if rs.held or rs.parked else rs.progress
                    continue
                if now - rs.progress > 3 * rs.duration + 15 and not rs.stall_reported:
                    rs.stall_reported = True
                    issue(f"room {rs.code} ({rs.desc}): no progress for {now - rs.progress:.0f} s"
                          f" (version {rs.version}, held {rs.held})")


class Conn:
    """One connection's invariants: its seat's view only, versions never back, no clock or
    move in a held room."""

    def __init__(self, rs: RoomSoak, label: str, seat: int | None) -> None:
        self.rs, self.label, self.seat = rs, label, seat
        self.client: Client | None = None
        self.held = False
        self.version: tuple[int, int] = (0, -1)
        self.last_state: dict[str, Any] | None = None
        self.entered = False

    async def connect(self) -> Client:
        self.client = await Client(self.label).connect(self.rs.soak.server.ws)
        return self.client

    def check(self, msg: dict[str, Any]) -> None:
        rs = self.rs
        t = msg["type"]
        if t == "room":
            self.held = bool(msg.get("held"))
            rs.held = self.held
            rs.status = msg["status"]
            if self.held:
                stats["holds_seen"] += 1
        elif t == "state":
            stats["states"] += 1
            view, game, version = msg["view"], msg["game"], msg["version"]
            key = (game, version)
            if key < self.version:
                issue(f"{self.label} room {rs.code}: version back from {self.version} to {key}")
            last = msg.get("last")
            if key > self.version:
                rs.progress = time.monotonic()
                rs.stall_reported = False
            self.version = max(self.version, key)
            rs.version = max(rs.version, key)
            if self.seat is None:
                for k in ("hand", "opening", "declaration"):
                    if k in view:
                        issue(f"{self.label} room {rs.code}: spectator view has {k}")
            else:
                if view.get("seat") != self.seat:
                    issue(f"{self.label} room {rs.code}: view of seat {view.get('seat')}")
                hand = view.get("hand")
                if hand is None:
                    issue(f"{self.label} room {rs.code}: seat view without hand")
                elif len(hand) != view["seats"][self.seat]["cards"]:
                    issue(f"{self.label} room {rs.code}: hand {len(hand)} cards, seats says "
                          f"{view['seats'][self.seat]['cards']}")
            for s in view.get("seats", []):
                if "hand" in s or "cards_list" in s:
                    issue(f"{self.label} room {rs.code}: seats entry with cards {s}")
            if "stock_cards" in view or "deck" in view:
                issue(f"{self.label} room {rs.code}: view has the stock")
            clock = msg.get("clock")
            kinds = rs.kinds
            if self.held:
                human_move = last is not None and not last["auto"] and \
                    kinds.get(last["seat"]) == "human"
                if last is not None and not human_move:
                    issue(f"{self.label} room {rs.code}: {last} in a held room (v{version})")
                if clock is not None and not human_move:
                    issue(f"{self.label} room {rs.code}: clock {clock} in a held room (v{version})")
            if clock is not None and clock["remaining"] > clock["duration"] + 50:
                issue(f"{self.label} room {rs.code}: remaining {clock['remaining']} > duration")
            self.last_state = msg
        elif t == "game_over":
            rs.status = "over"
            rs.over_msg = msg
        elif t == "error":
            code = msg.get("code")
            if code not in EXPECTED:
                issue(f"{self.label} room {rs.code}: error {code}: {msg.get('message')}")


class Player(Conn):
    def __init__(self, rs: RoomSoak, seat: int) -> None:
        super().__init__(rs, f"{rs.n}p{seat}", seat)
        self.token: str | None = None
        self.mode = "active"  # active / idle (lets its clock run out) / off (disconnected)
        self.pending: tuple[str, str, int, float] | None = None
        self.refused: set[str] = set()
        self.turns = 0
        self.last_version = -1
        self.think_until = 0.0
        self.snapshot: dict[str, Any] | None = None
        self.expect_exact: tuple[int, int] | None = None
        self.leaving = False
        self.reconnecting = False
        self.pong: tuple[str, asyncio.Event] | None = None

    async def run(self) -> None:
        while not self.rs.done:
            c = self.client
            if self.leaving:
                await asyncio.sleep(0.05)
                continue
            if c is None or c.closed.is_set():
                if self.mode == "off" or self.rs.done:
                    await asyncio.sleep(0.2)
                    continue
                await self.reconnect()
                continue
            try:
                msg = await asyncio.wait_for(c.queue.get(), 0.05)
            except TimeoutError:
                msg = None
            if msg is not None:
                self.on_msg(msg)
            await self.maybe_act()

    async def reconnect(self) -> None:
        self.reconnecting = True
        try:
            await self._reconnect()
        finally:
            self.reconnecting = False

    async def _reconnect(self) -> None:
        soak = self.rs.soak
        await soak.up.wait()
        was_restart = soak.restarting
        if was_restart:
            await asyncio.sleep(random.uniform(0, 3))
        before = self.last_state
        exact = self.expect_exact
        try:
            c = await Client(self.label).connect(soak.server.ws)
            self.client = c
            t = time.monotonic()
            r = await c.request("resume", room=self.rs.code, token=self.token)
        except Exception as exc:
            if not soak.restarting:
                issue(f"{self.label} room {self.rs.code}: reconnect failed: {exc!r}")
            self.client = None
            await asyncio.sleep(1)
            return
        if r["type"] != "seated":
            issue(f"{self.label} room {self.rs.code}: resume answered {r}")
            self.rs.done = True
            return
        stats["reconnects"] += 1
        self.pending = None
        # the first state after resume
        first = None
        while True:
            try:
                msg = await c.recv(None, timeout=20)
            except Exception:
                break
            self.on_msg(msg)
            if msg["type"] == "state":
                first = msg
                break
        if was_restart:
            resume_times.append(time.monotonic() - t)
        if first is None:
            if self.rs.status != "waiting":
                issue(f"{self.label} room {self.rs.code}: no state after resume")
            return
        key = (first["game"], first["version"])
        # only the first one back finds the game exactly as left: the clock goes on then, and
        # the time the turn had left may run out before the others are back
        first_back = self.rs.back_since_park == 0
        self.rs.back_since_park += 1
        if exact is not None and (key != exact if first_back else key < exact):
            issue(f"{self.label} room {self.rs.code}: parked at {exact}, back at {key}"
                  f" ({self.rs.desc})")
        self.expect_exact = None
        if before is not None:
            bkey = (before["game"], before["version"])
            if key < bkey:
                issue(f"{self.label} room {self.rs.code}: resumed at {key}, had seen {bkey}")
            elif key == bkey and first["view"] != before["view"]:
                diff = {k: (before["view"].get(k), first["view"].get(k)) for k in first["view"]
                        if first["view"][k] != before["view"].get(k)}
                issue(f"{self.label} room {self.rs.code}: same version {key}, other view "
                      f"{str(diff)[:400]}")

    def on_msg(self, msg: dict[str, Any]) -> None:
        self.check(msg)
        t = msg["type"]
        if t == "seated":
            self.token = msg["token"]
        if t == "pong" and self.pong is not None and msg.get("id") == self.pong[0]:
            self.pong[1].set()
        if self.pending is not None and (msg.get("id") == self.pending[0]
                                         or msg.get("ack") == self.pending[0]):
            if t == "error":
                self.refused.add(self.pending[1])
            else:
                stats["accepted"] += 1
            self.pending = None

    async def maybe_act(self) -> None:
        st = self.last_state
        c = self.client
        if c is None or c.closed.is_set() or st is None or self.mode != "active":
            return
        if self.pending is not None:
            if time.monotonic() - self.pending[3] > 20 and not self.rs.soak.restarting:
                issue(f"{self.label} room {self.rs.code}: no answer to {self.pending[1]!r}"
                      f" v{self.pending[2]} in 20 s")
                self.pending = None
            return
        view = st["view"]
        turn = view.get("turn")
        if not turn or turn["seat"] != self.seat or view["over"] or self.rs.status != "playing":
            return
        if st["version"] != self.last_version:
            if turn["phase"] == "draw":
                self.turns += 1
                self.refused = set()
            self.last_version = st["version"]
            self.think_until = time.monotonic() + random.uniform(0.05, 0.5) * self.rs.duration / 4
            return
        if time.monotonic() < self.think_until:
            return
        try:
            action = choose(view, self.refused, self.turns)
        except Exception as exc:
            issue(f"choose failed {exc!r}")
            action = "draw"
        try:
            mid = await c.send("action", version=st["version"], action=action)
        except Exception:
            return
        stats["actions"] += 1
        self.pending = (mid, action, st["version"], time.monotonic())

    async def leave_cleanly(self) -> None:
        """leave, then a ping: every state sent before the leave arrives before the pong."""
        c = self.client
        self.mode = "off"
        if c is None or c.closed.is_set():
            return
        self.leaving = True
        try:
            event = asyncio.Event()
            self.pong = (f"{self.label}-leave{time.monotonic()}", event)
            await c.send("leave")
            await c.send("ping", id=self.pong[0])
            end = time.monotonic() + 15
            while not event.is_set():
                if time.monotonic() > end or c.closed.is_set():
                    raise TimeoutError("no pong")
                while not c.queue.empty():
                    self.on_msg(c.queue.get_nowait())
                if not event.is_set():
                    await asyncio.sleep(0.02)
        except Exception as exc:
            if not self.rs.soak.restarting:
                issue(f"{self.label}: leave failed {exc!r}")
        finally:
            self.leaving = False
        await c.close()

    async def drop(self) -> None:
        self.mode = "off"
        if self.client is not None:
            await self.client.close()


VARIANTS = [("rummy", [2, 3, 4, 5, 6]), ("indian", [2, 3, 4, 5, 6]), ("rami51", [2, 4]),
            ("rami71", [2, 4]), ("simple", [2, 4])]


class RoomSoak:
    count = 0

    def __init__(self, soak: Soak) -> None:
        RoomSoak.count += 1
        self.n = RoomSoak.count
        self.soak = soak
        self.variant, seats = random.choice(VARIANTS)
        self.players = random.choice(seats)
        self.options: dict[str, Any] = {"clock": random.choice([30, 30, 45, 60, 90])}
        if self.variant == "rummy":
            self.options["length"] = random.choice(["one-deal", "one-deal", "to-200"])
            self.options["opening"] = random.choice([30, 40, 51])
        if self.variant == "indian":
            fmt = random.choice(["pool101", "deals", "points"])
            self.options["format"] = fmt
            if fmt == "deals":
                self.options["deals"] = random.choice([1, 2])
        if random.random() < 0.05:
            self.options["clock"] = 600
        self.duration = self.options["clock"] * SCALE
        self.humans = random.randint(1, min(3, self.players))
        self.levels = [random.choice(["easy", "easy", "medium", "medium", "hard"])
                       for _ in range(self.players - self.humans)]
        self.desc = f"{self.variant} {self.players}p {self.humans}h {self.levels} {self.options}"
        self.code = ""
        self.status = "waiting"
        self.held = False
        self.parked = False
        self.done = False
        self.progress = time.monotonic()
        self.stall_reported = False
        self.version: tuple[int, int] = (0, -1)
        self.kinds: dict[int, str] = {}
        self.over_msg: dict[str, Any] | None = None
        self.finished_results: Any = None
        self.finished_game = 0
        self.players_: list[Player] = []
        self.watching = 0
        #: players who resumed since the last time everybody left
        self.back_since_park = 0
        self.life_task: asyncio.Task[None] | None = None
        self.tasks: list[asyncio.Task[None]] = []

    def connected(self) -> bool:
        return any(p.client is not None and not p.client.closed.is_set()
                   for p in self.players_)

    async def life(self) -> None:
        try:
            await self._life()
        except Exception as exc:
            if not self.soak.restarting and not self.soak.stop:
                issue(f"room {self.n} {self.code} ({self.desc}): driver failed {exc!r}")
        finally:
            if not self.soak.stop:  # at the end, wind_down has everybody leave
                self.done = True
                for t in self.tasks:
                    t.cancel()
                for p in self.players_:
                    if p.client is not None and not p.client.closed.is_set():
                        await p.client.close()

    async def _life(self) -> None:
        await self.soak.up.wait()
        ps = [Player(self, i) for i in range(self.humans)]
        self.players_ = ps
        host = ps[0]
        hc = await host.connect()
        r = await hc.request("create", variant=self.variant, players=self.players,
                             options=self.options)
        if r["type"] != "room":
            issue(f"create {self.desc}: {r}")
            return
        self.code = r["room"]
        self.soak.rooms[self.code] = self
        stats["rooms"] += 1
        for i, p in enumerate(ps):
            c = hc if i == 0 else await p.connect()
            if i:
                r = await c.request("join", room=self.code)
                assert r["type"] == "room", r
            r = await c.request("sit", seat=i, name=f"Soak{self.n}-{i}")
            if r["type"] != "seated":
                issue(f"sit: {r}")
                return
            p.token = r["token"]
            self.kinds[i] = "human"
        for j, lvl in enumerate(self.levels):
            self.kinds[self.humans + j] = "bot"
            await hc.send("add_bot", seat=self.humans + j, level=lvl)
        for p in ps:
            assert p.client is not None
            # process what came so far, then let the run loop take over
            while not p.client.queue.empty():
                p.on_msg(p.client.queue.get_nowait())
        self.tasks = [asyncio.ensure_future(p.run()) for p in ps]
        while not self.soak.stop:
            await asyncio.sleep(random.uniform(5, 15))
            if self.soak.stop:
                break
            if self.soak.restarting:
                continue
            if self.status == "over":
                if not await self.game_end():
                    return
                continue
            if self.status not in ("playing", "between-deals"):
                continue
            ev = random.choices(["drop", "idle", "watch", "park", "none"], [3, 3, 2, 1.5, 2])[0]
            if ev == "drop":
                p = random.choice(ps)
                await p.drop()
                await asyncio.sleep(random.uniform(1, 8))
                p.mode = "active"
            elif ev == "idle":
                chosen = ps if random.random() < 0.5 else [random.choice(ps)]
                for p in chosen:
                    p.mode = "idle"
                stats["aways"] += 1
                await asyncio.sleep(2.5 * self.duration * self.players + 3)
                for p in chosen:
                    p.mode = "active"
                    if p.client is not None and not p.client.closed.is_set():
                        try:
                            await p.client.send("back")
                            stats["backs"] += 1
                        except Exception:
                            pass
            elif ev == "watch":
                self.soak.spawn(self.spectate(random.uniform(3, 15)))
            elif ev == "park":
                await self.park(random.uniform(8, 40))

    async def park(self, seconds: float) -> None:
        """Everybody leaves: the room must hold, and come back at the same version."""
        stats["parks"] += 1
        while self.watching:  # a spectator is somebody: the room would not hold
            await asyncio.sleep(0.2)
        for _ in range(200):  # a player coming back (after a drop) would be somebody too
            if not any(p.reconnecting for p in self.players_):
                break
            await asyncio.sleep(0.1)
        for p in self.players_:
            await p.leave_cleanly()
        await asyncio.sleep(0.3)
        self.parked = True
        exact = max(p.version for p in self.players_)
        status, body = await self.soak.aget(f"/api/rooms/{self.code}")
        if status == 200 and body["room"]["status"] in ("playing", "between-deals") \
                and not body["room"]["held"]:
            issue(f"room {self.code}: everybody left, not held ({body['room']['status']})")
        await asyncio.sleep(seconds)
        self.progress = time.monotonic()
        self.parked = False
        self.back_since_park = 0
        for p in self.players_:
            p.expect_exact = exact if exact[1] >= 0 else None
            p.mode = "active"

    async def spectate(self, seconds: float) -> None:
        stats["spectators"] += 1
        w = Conn(self, f"{self.n}w", None)
        self.watching += 1
        try:
            c = await w.connect()
            r = await c.request("join", room=self.code)
            if r["type"] != "room":
                if not self.soak.restarting:
                    issue(f"spectator join {self.code}: {r}")
                return
            w.check(r)
            if r["status"] not in ("playing", "between-deals") or r["held"]:
                stats["spectator_checks_skipped"] = stats.get("spectator_checks_skipped", 0) + 1
            end = time.monotonic() + seconds
            while time.monotonic() < end and not c.closed.is_set():
                try:
                    msg = await asyncio.wait_for(c.queue.get(), 0.5)
                except TimeoutError:
                    continue
                w.check(msg)
            await c.close()
        except Exception as exc:
            if not self.soak.restarting:
                issue(f"spectator {self.code}: {exc!r}")
        finally:
            self.watching -= 1

    async def game_end(self) -> bool:
        """The game is over: rematch (True) or everybody leaves for good (False)."""
        stats["games_over"] += 1
        await asyncio.sleep(random.uniform(0.5, 3))
        if random.random() < 0.5 and not self.soak.stop:
            stats["rematches"] += 1
            game = self.version[0]
            asked: set[int] = set()
            for _ in range(300):
                # A player whose connection was down (a restart) asks once it is back: the
                # server keeps the asks it got, but never heard this one.
                for i, p in enumerate(self.players_):
                    if i not in asked and p.client is not None and not p.client.closed.is_set():
                        asked.add(i)
                        await p.client.send("rematch")
                if self.version[0] > game:
                    self.status = "playing"
                    return True
                await asyncio.sleep(0.1)
            if all(p.mode == "active" for p in self.players_) and not self.soak.restarting:
                issue(f"room {self.code}: rematch did not start (game {game})")
            return True
        stats["left_finished"] += 1
        results = None
        if self.over_msg is not None:
            results = self.over_msg["results"]
        self.finished_game = self.version[0]
        for p in self.players_:
            await p.leave_cleanly()
        self.finished_results = results
        self.parked = True
        if random.random() < 0.6:
            self.soak.spawn(self.later_revisit(random.uniform(10, 120)))
        return False

    async def later_revisit(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.soak.up.wait()
        await self.revisit("later")

    async def revisit(self, when: str) -> None:
        """A spectator comes back: a finished room shows its results, a parked one its game
        as it was left."""
        stats["revisits"] += 1
        w = Conn(self, f"{self.n}r", None)
        try:
            c = await w.connect()
            r = await c.request("join", room=self.code)
            if r["type"] != "room":
                issue(f"{when} revisit {self.code}: {r}")
                await c.close()
                return
            w.check(r)
            if r["status"] != "waiting":
                st = await c.recv("state", timeout=20)
                w.check(st)
                if self.finished_results is not None and st["game"] == self.finished_game:
                    if not st["view"]["over"] or st["view"]["results"] != self.finished_results:
                        issue(f"{when} revisit {self.code}: finished game shows over="
                              f"{st['view']['over']} results differ="
                              f"{st['view']['results'] != self.finished_results}")
                elif self.finished_results is None and self.parked:
                    pv = max(p.version for p in self.players_)
                    if (st["game"], st["version"]) != pv:
                        issue(f"{when} revisit {self.code}: parked at {pv}, shows "
                              f"{(st['game'], st['version'])}")
            await c.send("leave")
            await c.close()
        except Exception as exc:
            issue(f"{when} revisit {self.code}: {exc!r}")

    async def wind_down(self) -> None:
        # the room's events stop first (one could drop a connection while its player leaves)
        if self.life_task is not None and not self.life_task.done():
            self.life_task.cancel()
            await asyncio.wait([self.life_task], timeout=10)
        self.done = True
        # the players' loops end by themselves (one cancelled while it reconnects would leave
        # its connection open, and the room would not hold)
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=30)
        while self.watching:
            await asyncio.sleep(0.2)
        for p in self.players_:
            if p.client is not None and not p.client.closed.is_set():
                await p.leave_cleanly()
        self.parked = True


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=MINUTES,
                        help=f"how long rooms are played (default {MINUTES:g})")
    parser.add_argument("--rooms", type=int, default=ROOMS,
                        help=f"rooms played at a time (default {ROOMS})")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the database, the server log and rss.log "
                        "(default: a new temporary folder)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="rummykit-soak-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"database, server log and rss.log in {out}", flush=True)
    soak = Soak(out, args.minutes, args.rooms)
    try:
        ok = asyncio.run(soak.run())
    finally:
        soak.server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
