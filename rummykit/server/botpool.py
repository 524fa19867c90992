"""Bots in the server: the seam to ``rummykit.bots`` and a worker pool off the event loop.

The server asks ``rummykit.bots.choose_action(view, history, level, seed)`` (the action text)
in a pool of worker processes (or threads), so a slow bot never holds up other rooms. Each
decision has a deadline (``ServerConfig.bot_timeout``): a worker process past it is killed and
replaced, and so is one that dies. A bot that fails so, raises or answers ``timeout`` is
replaced for that turn by the ``medium`` move, asked with a short deadline of its own, and if
that fails too by :func:`fallback_bot`: a deliberately simple player (draw from the stock, then
discard the heaviest card) that needs the game itself. Every such event is logged.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import random
import signal
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rummykit.cards import ACE, JOKER_RANK, Card, parse_card

log = logging.getLogger("rummykit.server")

DEFAULT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

ChooseAction = Callable[[dict[str, Any], list[Any], str, int | None], str]

#: the level whose move replaces the move of a bot that failed (it takes milliseconds)
STANDBY_LEVEL = "medium"
#: seconds the standby move may take (at most the pool's own deadline)
STANDBY_TIMEOUT = 1.0
#: seconds a new worker process may take to start (to import the bots); start-up does not
#: count against the deadline of the decision that waits for it
START_TIMEOUT = 60.0

#: what a worker is given for one decision: view, history, level, seed
Job = tuple[dict[str, Any], list[Any], str, int]
#: what a worker answers: ``("ok", action)`` or ``("error", why)`` (``("ready", "")`` once)
Answer = tuple[str, str]
T = TypeVar("T")


def _penalty(card: Card, wild_rank: int | None) -> tuple[int, int, int]:
    """Sort key: penalty value (a joker lowest so it is kept), then rank (A high), then suit."""
    if card.rank == JOKER_RANK or (wild_rank is not None and card.rank == wild_rank):
        return (-1, 0, 0)
    rank = 14 if card.rank == ACE else card.rank
    value = 11 if card.rank == ACE else min(card.rank, 10)
    return (value, rank, -card.suit)


def fallback_bot(game: Any, seat: int, rng: random.Random) -> str:
    """A plain legal move for ``seat`` when no bot can answer: draw from the stock, then
    discard the card with the highest penalty (never a joker while another card can go);
    anything else the engine lists when neither is possible."""
    if game.is_legal("draw"):
        return "draw"
    view = game.view(seat)
    wild = view.get("wild_rank")
    wild_rank: int | None = None
    if isinstance(wild, str):
        try:
            wild_rank = parse_card(wild + "S").rank
        except ValueError:
            wild_rank = None
    elif isinstance(wild, int):
        wild_rank = wild
    hand = sorted(
        {c for c in view.get("hand", [])},
        key=lambda t: _penalty(parse_card(t), wild_rank),
        reverse=True,
    )
    for text in hand:
        action = f"discard {text}"
        if game.is_legal(action):
            return action
    legal = [str(a) for a in game.legal_actions()]
    if not legal:
        raise RuntimeError(f"no legal action for seat {seat}")
    return rng.choice(legal)


def find_choose_action() -> ChooseAction | None:
    """``rummykit.bots.choose_action`` when the bots package provides it."""
    try:
        bots = importlib.import_module("rummykit.bots")
    except ImportError:
        return None
    fn = getattr(bots, "choose_action", None)
    return fn if callable(fn) else None


def bot_levels() -> tuple[str, ...]:
    """The levels ``rummykit.bots`` offers (``LEVELS``), or the default three."""
    try:
        bots = importlib.import_module("rummykit.bots")
    except ImportError:
        return DEFAULT_LEVELS
    levels = getattr(bots, "LEVELS", None)
    if isinstance(levels, (list, tuple, dict)) and levels:
        return tuple(str(x) for x in levels)
    return DEFAULT_LEVELS


class BotFailed(ValueError):
    """A decision that brought no usable answer; ``reason`` says why (for the log)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _run(choose: ChooseAction, job: Job) -> Answer:
    view, history, level, seed = job
    try:
        return ("ok", str(choose(view, history, level, seed)))
    except Exception as exc:  # reported to the server, which plays the standby move
        return ("error", f"raised {type(exc).__name__}: {exc}")


def _worker_main(conn: multiprocessing.connection.Connection, choose: ChooseAction) -> None:
    """A worker process: answer the jobs that come down ``conn`` with ``choose`` until the
    server closes it. ``choose`` came with the process's start, so its module (the bots) is
    imported before the worker says it is ready: start-up is no decision's time."""
    # Ctrl-C reaches the whole process group; the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        # A server killed outright cannot stop its workers: each leaves once the server is
        # gone, even in the middle of a decision that never ends.
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()
    conn.send(("ready", ""))
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        conn.send(_run(choose, job))


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _settle(future: asyncio.Future[T], value: T) -> None:
    if not future.done():
        future.set_result(value)


def _ending(exitcode: int | None) -> str:
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            return f"ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"ended by signal {-exitcode}"
    return f"exited with status {exitcode}"


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, ctx: multiprocessing.context.SpawnContext, choose: ChooseAction) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, choose), name="rummykit-bot", daemon=True
        )
        self.process.start()
        child.close()
        #: the process said it is ready (it imported ``choose``)
        self.ready = False
        #: the event loop and the future of a :meth:`receive` under way
        self._waiting: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None

    def stop(self) -> None:
        """Kill the process and reap it: it holds nothing worth a gentler end. A
        :meth:`receive` under way is cancelled (the pool was closed under it): its pipe is
        taken off the event loop before it is closed, since a closed descriptor is never
        reported and its number, reused by a new pipe, would be taken for the old one."""
        if self.process.exitcode is None:
            self.process.kill()
        self.process.join(5)
        if self._waiting is not None:
            loop, readable = self._waiting
            self._waiting = None
            loop.remove_reader(self.conn.fileno())
            readable.cancel()
        self.conn.close()

    async def receive(self, timeout: float, doing: str) -> Answer:
        """The next message from the process, awaited on the event loop for at most
        ``timeout`` seconds (:class:`BotFailed` if none comes or the process died; cancelled
        if the pool is closed meanwhile)."""
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()
        loop.add_reader(fd, _settle, readable, None)
        self._waiting = (loop, readable)
        try:
            await asyncio.wait_for(readable, timeout)
        except TimeoutError:
            raise BotFailed(f"did not {doing} within {timeout:g} s") from None
        finally:
            if self._waiting is not None:  # else stop() took the pipe off the loop
                self._waiting = None
                loop.remove_reader(fd)
        try:
            # Readable: a whole message (answers are small, written at once) or the end of a
            # process that died.
            answer: Answer = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(1)
            raise BotFailed(f"lost its worker, {_ending(self.process.exitcode)}") from None
        return answer


class _Lender(Generic[T]):
    """Free things (worker processes, or permits to start a thread) lent to one decision at a
    time, to the decisions in the order they asked. The thing free the longest goes first: a
    worker just started to replace another comes after those that are ready."""

    def __init__(self, free: list[T]) -> None:
        self.free = collections.deque(free)
        self.waiting: collections.deque[asyncio.Future[T]] = collections.deque()

    async def take(self) -> T:
        if self.free:
            return self.free.popleft()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.give(future.result())  # lent just as the decision was cancelled
            raise

    def give(self, thing: T) -> None:
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(thing)
                return
        self.free.append(thing)

    def close(self) -> None:
        """Cancel the decisions still waiting: nothing will be lent any more."""
        while self.waiting:
            self.waiting.popleft().cancel()


class BotPool:
    """Runs bot decisions in ``workers`` worker processes (``kind="process"``, the default) or
    threads (``kind="thread"``), each decision within ``timeout`` seconds of its start.

    Worker processes get :attr:`choose` when they start. A worker process past the deadline is
    killed and replaced. A thread cannot be killed: the decision falls back all the same and
    its permit goes to the next decision, but the thread runs on until the bot returns (a
    daemon thread, so it never holds up the server's exit).
    """

    def __init__(self, workers: int = 2, kind: str = "process", timeout: float = 10.0) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind must be 'process' or 'thread', not {kind!r}")
        if not timeout > 0:
            raise ValueError(f"the bot timeout must be a positive number of seconds, not {timeout}")
        self.workers = max(1, workers)
        self.kind = kind
        self.timeout = timeout
        self.choose = find_choose_action()
        self._rng = random.SystemRandom()
        self._context = multiprocessing.get_context("spawn")
        #: every worker process started and not yet stopped, lent or free
        self._processes: set[_Worker] = set()
        self._lender: _Lender[_Worker] | None = None
        self._permits: _Lender[int] | None = None
        #: how many times :meth:`close` ran: a decision under way when the pool closes asks no
        #: standby move, which would start new workers for a server that is stopping
        self._closes = 0

    def pids(self) -> list[int]:
        """The process ids of the worker processes now running."""
        return sorted(w.process.pid for w in self._processes if w.process.pid is not None)

    async def decide(
        self, game: Any, seat: int, level: str, view: dict[str, Any] | None = None,
        *, room: str = "-",
    ) -> str:
        """The action text the bot in ``seat`` plays now (never ``timeout``); ``view`` is the
        seat's view when the caller has it already, ``room`` names the room in the log."""
        seed = self._rng.getrandbits(63)
        if self.choose is not None:
            if view is None:
                view = game.view(seat)
            history = list(game.history())
            closes = self._closes
            try:
                return await self._ask(view, history, level, seed, self.timeout)
            except BotFailed as exc:
                reason = exc.reason
            if level != STANDBY_LEVEL and self._closes == closes:
                limit = min(self.timeout, STANDBY_TIMEOUT)
                try:
                    action = await self._ask(view, history, STANDBY_LEVEL, seed, limit)
                except BotFailed as exc:
                    reason = f"{reason}, and the {STANDBY_LEVEL} move {exc.reason}"
                else:
                    log.warning(
                        "room %s seat %d (%s): the bot %s; playing the %s move",
                        room, seat, level, reason, STANDBY_LEVEL,
                    )
                    return action
            log.warning(
                "room %s seat %d (%s): the bot %s; playing the fallback move",
                room, seat, level, reason,
            )
        return fallback_bot(game, seat, random.Random(seed))

    async def _ask(
        self, view: dict[str, Any], history: list[Any], level: str, seed: int, timeout: float
    ) -> str:
        assert self.choose is not None
        job: Job = (view, history, level, seed)
        if self.kind == "process":
            kind, text = await self._in_process(self.choose, job, timeout)
        else:
            kind, text = await self._in_thread(self.choose, job, timeout)
        if kind != "ok":
            raise BotFailed(text)
        if text.strip().lower() == "timeout":
            raise BotFailed("answered 'timeout'")
        return text

    async def _in_process(self, choose: ChooseAction, job: Job, timeout: float) -> Answer:
        lender = self._lender
        if lender is None:
            try:
                started = [self._start(choose) for _ in range(self.workers)]
            except OSError as exc:  # no process to be had (a full process table, no memory)
                for worker in list(self._processes):
                    worker.stop()
                self._processes.clear()
                raise BotFailed(f"could not start a worker process ({exc})") from None
            lender = self._lender = _Lender(started)
        worker = await lender.take()
        while not worker.process.is_alive():  # died while free (say, killed for memory)
            log.warning("bot worker process %s %s; replaced", worker.process.pid,
                        _ending(worker.process.exitcode))
            self._retire(worker, lender, choose)
            worker = await lender.take()
        try:
            if not worker.ready:
                await worker.receive(START_TIMEOUT, "start")
                worker.ready = True
            try:
                worker.conn.send(job)
            except OSError:
                raise BotFailed(f"lost its worker, {_ending(worker.process.exitcode)}") from None
            answer = await worker.receive(timeout, "answer")
        except BotFailed as exc:
            fate = "replaced" if lender is self._lender else "stopped"
            try:
                self._retire(worker, lender, choose)
            except BotFailed as again:
                fate = f"stopped, and {again.reason}"
            pid = worker.process.pid
            raise BotFailed(f"{exc.reason} (worker process {pid} {fate})") from None
        except BaseException:
            # Cancelled while the worker thinks: its late answer must never be read as the
            # next decision's.
            with contextlib.suppress(BotFailed):
                self._retire(worker, lender, choose)
            raise
        lender.give(worker)
        return answer

    def _start(self, choose: ChooseAction) -> _Worker:
        worker = _Worker(self._context, choose)
        self._processes.add(worker)
        return worker

    def _retire(self, worker: _Worker, lender: _Lender[_Worker], choose: ChooseAction) -> None:
        """Stop ``worker`` and, unless the pool was closed meanwhile, lend a new one instead.
        If no new process can be started, the stopped worker keeps its place (a later
        decision finds it dead and tries again) and :class:`BotFailed` says why: the pool
        never shrinks for good, and no decision waits for a worker that will never come."""
        worker.stop()
        self._processes.discard(worker)
        if lender is self._lender:
            try:
                fresh = self._start(choose)
            except OSError as exc:
                lender.give(worker)
                raise BotFailed(f"could not start a new worker process ({exc})") from None
            lender.give(fresh)

    async def _in_thread(self, choose: ChooseAction, job: Job, timeout: float) -> Answer:
        lender = self._permits
        if lender is None:
            lender = self._permits = _Lender(list(range(self.workers)))
        permit = await lender.take()
        try:
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[Answer] = loop.create_future()

            def run() -> None:
                result = _run(choose, job)
                # A closed event loop refuses the answer: nobody waits for it any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, answer, result)

            threading.Thread(target=run, name="rummykit-bot", daemon=True).start()
            try:
                return await asyncio.wait_for(answer, timeout)
            except TimeoutError:
                raise BotFailed(
                    f"did not answer within {timeout:g} s (its thread runs on: a thread cannot "
                    "be stopped)"
                ) from None
        finally:
            lender.give(permit)

    def close(self) -> None:
        """Stop every worker process and reap it (none outlives the server), cancelling the
        decisions that wait for one; threads still thinking are left to finish, and their
        decisions ask no standby move. A later decision starts new workers."""
        for lender in (self._lender, self._permits):
            if lender is not None:
                lender.close()
        self._lender = self._permits = None
        self._closes += 1
        for worker in self._processes:
            worker.stop()
        self._processes.clear()
