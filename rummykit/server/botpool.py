"""Bots in the server: the seam to ``rummykit.bots`` and a worker pool off the event loop.

The server asks ``rummykit.bots.choose_action(view, history, level, seed)`` (the action text)
in a pool of worker processes (or threads), so a slow bot never holds up other rooms. Each
decision has a deadline (``ServerConfig.bot_timeout``): a worker process past it is killed and
replaced, and so is one that dies. A bot that fails so, raises or answers ``timeout`` is
replaced for that turn by the ``medium`` move, asked with a short deadline of its own, and if
that fails too by :func:`fallback_bot`: a deliberately simple player (draw from the stock, then
discard the heaviest card) that needs the game itself. Every such event is logged. Processes
are started and reaped in threads, never on the event loop; workers that keep failing to
start make the pool start none for a while (a backoff), and bots play the fallback move.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Coroutine
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
#: workers in a row that fail to start or die before they answer (a bots package that raises
#: on import, a full process table) after which the pool starts none for a while
BACKOFF_AFTER = 3
#: seconds of the first such pause; each one that follows without a worker answering in
#: between is twice as long as the last, up to BACKOFF_MAX
BACKOFF_FIRST = 5.0
BACKOFF_MAX = 60.0

#: what a worker is given for one decision: view, history, level, seed
Job = tuple[dict[str, Any], list[Any], str, int]
#: what a worker answers: ``("ok", action)`` or ``("error", why)`` (``("ready", "")`` once)
Answer = tuple[str, str]
T = TypeVar("T")
R = TypeVar("R")


def _penalty(card: Card, wild_rank: int | None) -> tuple[int, int, int]:
    """Sort key: penalty value (a joker lowest so it is kept), then rank (A high), then suit."""
    if card.rank == JOKER_RANK or (wild_rank is not None and card.rank == wild_rank):
        return (-1, 0, 0)
    rank = 14 if card.rank == ACE else card.rank
    value = 11 if card.rank == ACE else min(card.rank, 10)
    return (value, rank, -card.suit)


#: how many of the listed actions :func:`fallback_bot` chooses among when it can neither draw
#: nor discard
FALLBACK_CHOICES = 64


def fallback_bot(game: Any, seat: int, rng: random.Random) -> str:
    """A plain legal move for ``seat`` when no bot can answer: draw from the stock, then
    discard the card with the highest penalty (never a joker while another card can go);
    one of the first actions the engine lists when neither is possible."""
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
    # The first actions listed only: a hand that owes the card it took may lay down in
    # thousands of ways, and listing them all took seconds (a rami71 hand with two jokers).
    legal = [str(a) for a in itertools.islice(game.iter_legal_actions(), FALLBACK_CHOICES)]
    if not legal:
        raise RuntimeError(f"no legal action for seat {seat}")
    return rng.choice(legal)


#: the package the server's bots come from
BOTS_MODULE = "rummykit.bots"
#: whether a failed import of :data:`BOTS_MODULE` was logged (once a process: the server
#: imports it twice at start-up, for ``choose_action`` and for ``LEVELS``)
_import_failure_logged = False


def _import_bots() -> Any | None:
    """The bots package, or None when it is missing or fails to import.

    A package that raises something other than ImportError on import (a broken deploy) must
    not stop the server from starting: it is logged with its traceback, once, and the server
    goes on as without bots (``fallback_bot`` plays every bot seat, the default levels).
    """
    global _import_failure_logged
    try:
        return importlib.import_module(BOTS_MODULE)
    except ImportError:
        return None
    except Exception:
        if not _import_failure_logged:
            _import_failure_logged = True
            log.exception(
                "the bots package %s failed to import; every bot plays the fallback move "
                "(draw, discard the heaviest card) until the server is restarted",
                BOTS_MODULE,
            )
        return None


def find_choose_action() -> ChooseAction | None:
    """``rummykit.bots.choose_action`` when the bots package provides it."""
    bots = _import_bots()
    fn = getattr(bots, "choose_action", None)
    return fn if callable(fn) else None


def bot_levels() -> tuple[str, ...]:
    """The levels ``rummykit.bots`` offers (``LEVELS``), or the default three."""
    levels = getattr(_import_bots(), "LEVELS", None)
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
    """One worker process and the server's end of its pipe. Created off the event loop (a
    process takes milliseconds to start, more on a busy machine)."""

    def __init__(self, ctx: multiprocessing.context.SpawnContext, choose: ChooseAction) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, choose), name="rummykit-bot", daemon=True
        )
        try:
            self.process.start()
        finally:
            child.close()
            if self.process.pid is None:  # never started (no process to be had)
                self.conn.close()
        #: the process said it is ready (it imported ``choose``)
        self.ready = False
        #: it answered a decision (so it works, even if the bot raised)
        self.answered = False
        #: its pipe came to an end: the process died
        self.lost = False
        #: the pool's pause count when it was started (see :meth:`BotPool._failed`)
        self.epoch = 0
        #: :meth:`reap` may run in a thread while :meth:`BotPool.close` stops every worker
        self._lock = threading.Lock()
        #: the event loop and the future of a :meth:`receive` under way
        self._waiting: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None

    def reap(self) -> None:
        """Kill the process (it holds nothing worth a gentler end), wait for its end and close
        the pipe. It blocks, so the pool runs it off the event loop, except when it closes."""
        with self._lock:
            if self.process.exitcode is None:
                self.process.kill()
            self.process.join(5)
            self.conn.close()

    def stop(self) -> None:
        """:meth:`reap`, cancelling a :meth:`receive` under way (the pool was closed under
        it): its pipe is taken off the event loop before it is closed, since a closed
        descriptor is never reported and its number, reused by a new pipe, would be taken for
        the old one."""
        if self._waiting is not None:
            loop, readable = self._waiting
            self._waiting = None
            loop.remove_reader(self.conn.fileno())
            readable.cancel()
        self.reap()

    def _join(self, timeout: float) -> None:
        with self._lock:
            self.process.join(timeout)

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
            self.lost = True
            # Its pipe is closed, but the process may take a moment to end: the wait for its
            # exit status is no business of the event loop.
            await loop.run_in_executor(None, self._join, 1.0)
            raise BotFailed(f"lost its worker, {_ending(self.process.exitcode)}") from None
        return answer


class _Place:
    """A place in the pool for one worker process: what :class:`BotPool` lends to one decision
    at a time. Empty (``worker`` is None) until a process is started for it; a place whose
    process could not be started, or died, is lent all the same, and the decision that takes
    it starts a new one (so the pool never shrinks for good)."""

    def __init__(self) -> None:
        self.worker: _Worker | None = None


class _Lender(Generic[T]):
    """Free things (places for worker processes, or permits to start a thread) lent to one
    decision at a time, to the decisions in the order they asked. The thing free the longest
    goes first: a worker just started to replace another comes after those that are ready."""

    def __init__(self, free: list[T]) -> None:
        self.free = collections.deque(free)
        self.waiting: collections.deque[asyncio.Future[T]] = collections.deque()
        #: decisions waiting in :meth:`until`
        self.watching: set[asyncio.Future[None]] = set()
        self.closed = False

    async def take(self) -> T:
        if self.closed:
            raise asyncio.CancelledError("the bot pool was closed")
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

    async def until(self, task: asyncio.Future[R]) -> R:
        """The result of ``task``, which a decision needs and which runs on if the decision
        is cancelled; the decision is cancelled when the lender closes, without waiting."""
        if self.closed:
            raise asyncio.CancelledError("the bot pool was closed")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task.add_done_callback(lambda _: _settle(done, None))
        self.watching.add(done)
        try:
            await done
        finally:
            self.watching.discard(done)
        return task.result()

    def give(self, thing: T) -> None:
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(thing)
                return
        self.free.append(thing)

    def close(self) -> None:
        """Cancel the decisions still waiting: nothing will be lent any more."""
        self.closed = True
        while self.waiting:
            self.waiting.popleft().cancel()
        for future in list(self.watching):
            future.cancel()


class _Paused(BotFailed):
    """No worker process for a decision: the pool starts none for a while after a run of
    failed starts (already logged once, so not logged per decision)."""


class BotPool:
    """Runs bot decisions in ``workers`` worker processes (``kind="process"``, the default) or
    threads (``kind="thread"``), each decision within ``timeout`` seconds of its start.

    Worker processes get :attr:`choose` when they start. A worker process past the deadline is
    killed and replaced. Processes are started and reaped off the event loop. After
    :data:`BACKOFF_AFTER` workers in a row failed to start or died before answering, the pool
    starts none for a while (see :meth:`_failed`). A thread cannot be killed: the decision
    falls back all the same and its permit goes to the next decision, but the thread runs on
    until the bot returns (a daemon thread, so it never holds up the server's exit).
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
        #: guards :attr:`_processes` and :attr:`_closes`, which threads starting workers use
        self._lock = threading.Lock()
        #: every worker process started and not yet reaped, lent or free
        self._processes: set[_Worker] = set()
        self._lender: _Lender[_Place] | None = None
        self._permits: _Lender[int] | None = None
        #: how many times :meth:`close` ran: a decision under way when the pool closes asks no
        #: standby move, which would start new workers for a server that is stopping; a worker
        #: whose start ends after a close is stopped at once
        self._closes = 0
        #: tasks that start or replace workers, kept to the end (the loop keeps weak ones)
        self._tasks: set[asyncio.Future[Any]] = set()
        #: the backoff (see :meth:`_failed`); attributes so that tests can shorten it
        self.backoff_after = BACKOFF_AFTER
        self.backoff_first = BACKOFF_FIRST
        self.backoff_max = BACKOFF_MAX
        #: the clock of the backoff (tests move it)
        self._clock: Callable[[], float] = time.monotonic
        self._failures = 0
        self._delay = 0.0
        self._paused_until = 0.0
        self._epoch = 0

    def pids(self) -> list[int]:
        """The process ids of the worker processes now running."""
        with self._lock:
            workers = list(self._processes)
        return sorted(w.process.pid for w in workers if w.process.pid is not None)

    def paused(self) -> float:
        """Seconds for which the pool starts no worker process (0 when it does)."""
        return max(0.0, self._paused_until - self._clock())

    async def decide(
        self, game: Any, seat: int, level: str, view: dict[str, Any] | None = None,
        *, room: str = "-",
    ) -> str:
        """The action text the bot in ``seat`` plays now (never ``timeout``); ``view`` is the
        seat's view when the caller has it already, ``room`` names the room in the log."""
        seed = self._rng.getrandbits(63)
        if self.choose is not None and self.paused():
            log.debug("room %s seat %d (%s): no bot worker; playing the fallback move",
                      room, seat, level)
        elif self.choose is not None:
            if view is None:
                view = game.view(seat)
            history = list(game.history())
            closes = self._closes
            try:
                return await self._ask(view, history, level, seed, self.timeout)
            except _Paused as exc:
                log.debug("room %s seat %d (%s): the bot %s; playing the fallback move",
                          room, seat, level, exc.reason)
                return fallback_bot(game, seat, random.Random(seed))
            except BotFailed as exc:
                reason = exc.reason
            if level != STANDBY_LEVEL and self._closes == closes and not self.paused():
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
            # Every place gets its worker now, not when a decision first needs it; a place is
            # lent once its process has started (or failed to).
            lender = self._lender = _Lender([])
            for _ in range(self.workers):
                self._keep(self._restock(lender, _Place(), choose))
        place, worker = await self._take(lender, choose)
        try:
            if not worker.ready:
                await worker.receive(START_TIMEOUT, "start")
                worker.ready = True
            try:
                worker.conn.send(job)
            except OSError:
                worker.lost = True
                raise BotFailed(f"lost its worker, {_ending(worker.process.exitcode)}") from None
            answer = await worker.receive(timeout, "answer")
        except BotFailed as exc:
            pid = worker.process.pid
            if not worker.answered and (worker.lost or not worker.ready):
                why = _ending(worker.process.exitcode) if worker.lost else exc.reason
                self._failed(worker.epoch, f"worker process {pid} {why}")
            fate = await self._replace(lender, place, choose)
            raise BotFailed(f"{exc.reason} (worker process {pid} {fate})") from None
        except BaseException:
            # Cancelled while the worker thinks: its late answer must never be read as the
            # next decision's, so it is replaced (by a task of its own: this one is cancelled).
            # After a close there is nothing to do: close() stopped it.
            if lender is self._lender:
                self._keep(self._restock(lender, place, choose))
            raise
        worker.answered = True
        self._answered()
        lender.give(place)
        return answer

    async def _take(self, lender: _Lender[_Place], choose: ChooseAction) -> tuple[_Place, _Worker]:
        """A place with a running worker (maybe still starting), lent to this decision. A place
        found empty, or with a worker that died while free (say, killed for memory), gets a
        new worker first (:class:`BotFailed` if none can be started)."""
        while True:
            place = await lender.take()
            worker = place.worker
            if worker is not None and worker.process.is_alive():
                return place, worker
            if worker is None:
                await self._replace(lender, place, choose)
                continue
            pid, ending = worker.process.pid, _ending(worker.process.exitcode)
            stale = worker.epoch != self._epoch  # its failure was counted before the pause
            if not worker.answered:
                self._failed(worker.epoch, f"worker process {pid} {ending}")
            fate = await self._replace(lender, place, choose)
            if not stale:
                log.warning("bot worker process %s %s; %s", pid, ending, fate)

    async def _replace(self, lender: _Lender[_Place], place: _Place, choose: ChooseAction) -> str:
        """:meth:`_restock` for a decision, which may be cancelled meanwhile: the place is
        never lost, but a decision waits no more once the pool is closed."""
        return await lender.until(self._keep(self._restock(lender, place, choose)))

    async def _restock(self, lender: _Lender[_Place], place: _Place, choose: ChooseAction) -> str:
        """Reap the worker in ``place`` if it has one and start a new one there, both off the
        event loop, then lend the place again (unless the pool was closed meanwhile). Says
        what became of the old worker; :class:`BotFailed` if no new one could be started (the
        place is lent all the same, and the next decision to take it tries again)."""
        loop = asyncio.get_running_loop()
        old = place.worker
        try:
            if old is not None:
                place.worker = None
                await loop.run_in_executor(None, old.reap)
                with self._lock:
                    self._processes.discard(old)
            if lender is not self._lender:
                return "stopped"
            a_worker = "a new worker process" if old is not None else "a worker process"
            if self.paused():
                if old is not None:
                    return "stopped"
                raise _Paused(f"found no worker process (the pool starts none for another "
                              f"{self.paused():.0f} s)")
            epoch, closes = self._epoch, self._closes
            try:
                worker = await loop.run_in_executor(None, self._launch, choose, closes)
            except OSError as exc:  # no process to be had (a full process table, no memory)
                self._failed(epoch, f"could not start {a_worker} ({exc})")
                if old is None:
                    raise BotFailed(f"could not start {a_worker} ({exc})") from None
                return f"stopped, and could not start {a_worker} ({exc})"
            if worker is None:
                return "stopped"
            worker.epoch = epoch
            place.worker = worker
            return "replaced"
        finally:
            if lender is self._lender:
                lender.give(place)

    def _launch(self, choose: ChooseAction, closes: int) -> _Worker | None:
        """A new worker process, started in a thread, or None if the pool was closed
        meanwhile: :meth:`close` could not see it, so it is stopped here."""
        worker = self._spawn(choose)
        with self._lock:
            if self._closes == closes:
                self._processes.add(worker)
                return worker
        worker.reap()
        return None

    def _spawn(self, choose: ChooseAction) -> _Worker:
        return _Worker(self._context, choose)

    def _keep(self, coroutine: Coroutine[Any, Any, R]) -> asyncio.Future[R]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._forget)
        return task

    def _forget(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # a decision that was waiting for it says why, if it still waits

    def _failed(self, epoch: int, reason: str) -> None:
        """Count a worker that did not start or died before it answered a decision (it never
        worked). After :attr:`backoff_after` such failures in a row the pool starts no worker
        for :attr:`backoff_first` seconds, and each pause after a failure that follows it for
        twice as long as the last (at most :attr:`backoff_max`), until a worker answers:
        meanwhile bots play the fallback move. A broken bots package (one that raises on
        import) would otherwise start new processes for every bot turn of every room.
        Failures of workers started before the latest pause were counted already."""
        if epoch != self._epoch or self.paused():
            return
        self._failures += 1
        if self._failures < self.backoff_after:
            return
        self._delay = min(self._delay * 2 if self._delay else self.backoff_first,
                          self.backoff_max)
        self._paused_until = self._clock() + self._delay
        self._epoch += 1
        log.warning(
            "bot workers: %d in a row failed to start or died before answering (the last: %s);"
            " starting none for %g s, bots play the fallback move meanwhile",
            self._failures, reason, self._delay,
        )

    def _answered(self) -> None:
        """A worker answered: the run of failures (and a backoff) is over."""
        if self._delay:
            log.warning("bot workers answer again after %d failed in a row; bots play their "
                        "own moves", self._failures)
        self._failures = 0
        self._delay = self._paused_until = 0.0

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
        with self._lock:
            self._closes += 1
            workers = list(self._processes)
            self._processes.clear()
        # On the event loop (the server is stopping): a worker being reaped in a thread
        # meanwhile is waited for, so none outlives the pool.
        for worker in workers:
            worker.stop()
