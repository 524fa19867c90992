"""Duplicate-deal tournaments between bots (the engine of ``rummykit tournament``).

Every shuffle is played once per *lineup*: the bots are laid round the table (repeating the
list to fill the seats, so in 2 v 2 partners are the same bot) and rotated one seat at a time
until every bot has sat in every seat; rotations that give the same lineup are played once.
Three or more bots are played in every arrangement (up to 24), so that who sits after whom is
balanced too (see :func:`lineups`). Luck of the cards is thus shared out evenly. One game is
one deal (the first deal of a fresh game), scored as the variant scores it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
import signal
import statistics
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from rummykit.bots.base import DEFAULT_BUDGET, LEVELS, TurnReport, UnknownBot, make_bot, play_deal
from rummykit.bots.hard import deal_net
from rummykit.engine.game import Game
from rummykit.errors import RummyError
from rummykit.rules import make_rules


class TournamentError(RummyError):
    """A tournament that cannot be run as asked."""


#: The most deals one tournament plays (a million summaries take about 1.3 GB).
MAX_DEALS = 1_000_000


@dataclass(frozen=True)
class Spec:
    variant: str
    players: int
    bots: tuple[str, ...]
    deals: int
    seed: int
    budget: float | None = None
    records: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        rules = make_rules(self.variant, self.players, self.options)  # names bad variants/seats
        for b in self.bots:
            if b not in LEVELS:
                raise UnknownBot(f"unknown bot {b!r}: choose among {', '.join(LEVELS)}")
        if not self.bots:
            raise TournamentError("name at least one bot (--bots hard,medium)")
        if len(self.bots) > self.players:
            raise TournamentError(
                f"{len(self.bots)} bots cannot share {self.players} seats: name at most "
                f"{self.players}"
            )
        if rules.teams and len(self.bots) > 2:
            # Partners must be the same bot, or the points of a side are no one bot's.
            raise TournamentError(
                f"{self.variant} with {self.players} players is played in 2 v 2, partners "
                f"being the same bot: name at most 2 bots"
            )
        if self.deals < 1:
            raise TournamentError("--deals must be at least 1")
        if self.deals > MAX_DEALS:
            # Every deal's summary is kept for the statistics (about 1.3 KB each): a mistyped
            # count would fill the memory before the first deal is played.
            raise TournamentError(
                f"--deals must be at most {MAX_DEALS:,}: every deal's summary is kept in "
                f"memory for the statistics"
            )
        # An infinite budget would let hard's search run for ever.
        if self.budget is not None and not 0 < self.budget < math.inf:
            raise TournamentError("--budget must be a positive, finite number of seconds")


def budget_users() -> list[str]:
    """The levels whose bot thinks within a time budget (the others ignore it)."""
    return [lv for lv in LEVELS if make_bot(lv, 1.0).budget is not None]


def budget_used(spec: Spec) -> float | None:
    """The seconds per move the tournament's budgeted bots think within, or None if none
    of its bots has a budget."""
    if not set(budget_users()) & set(spec.bots):
        return None
    return DEFAULT_BUDGET if spec.budget is None else spec.budget


#: Most lineups a shuffle is played in when three or more bots share the table.
MAX_ARRANGEMENTS = 24


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The lineups every shuffle is played in.

    The bots are laid round the table in order, repeated to fill the seats. With one or two
    bots, the distinct rotations of that lineup: every bot in every seat, always between the
    same neighbours. With three or more, rotations alone would fix who sits after whom (who
    gets whose discards) -- a strong bot always feeding the same rival -- so every distinct
    arrangement of the lineup is played when there are at most :data:`MAX_ARRANGEMENTS`
    (3 or 4 seats), balancing seats and neighbours alike; bigger tables fall back to the
    rotations."""
    base = tuple(bots[s % len(bots)] for s in range(players))
    if len(set(base)) >= 3:
        every = list(dict.fromkeys(itertools.permutations(base)))
        if len(every) <= MAX_ARRANGEMENTS:
            return every
    out: list[tuple[str, ...]] = []
    for r in range(players):
        lu = tuple(base[(s - r) % players] for s in range(players))
        if lu not in out:
            out.append(lu)
    return out


def shuffle_seed(seed: int, shuffle: int) -> int:
    return random.Random(f"rummykit-tournament:{seed}:{shuffle}").getrandbits(62)


#: The names of the deal records a tournament saves (see :func:`record_name`).
RECORD_PATTERN = "deal-*-lineup-*.json"


def record_name(shuffle: int, lineup: int) -> str:
    """The file of one deal's record, shuffle and lineup counted from 1."""
    return f"deal-{shuffle + 1:05d}-lineup-{lineup + 1}.json"


def saved_records(folder: str) -> list[str]:
    """The deal records already in ``folder``, sorted (none if it is not a directory)."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if fnmatchcase(n, RECORD_PATTERN))


#: What a record is written to before it takes its name (see :func:`save_record`).
PART_PATTERN = ".deal-*-lineup-*.json.part"


def save_record(folder: str, name: str, record: dict[str, Any]) -> None:
    """Write a deal's record under ``name`` whole or not at all: it is written to a hidden
    ``.part`` file first and renamed once complete, so that a tournament interrupted (Ctrl-C,
    a full disk) never leaves a truncated record that ``rummykit replay`` would refuse."""
    part = os.path.join(folder, f".{name}.part")
    try:
        with open(part, "w", encoding="utf-8") as fh:
            json.dump(record, fh)
        os.replace(part, os.path.join(folder, name))
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(part)
        raise


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_deals`: ``played`` of ``total`` deals were played to the end
    (their records saved), the deal being played was dropped and the others never begun."""

    def __init__(self, played: int, total: int) -> None:
        super().__init__(f"interrupted after {played} of {total} deals")
        self.played = played
        self.total = total


@dataclass(frozen=True)
class Task:
    spec: Spec
    shuffle: int
    lineup: int
    bots: tuple[str, ...]


def play_task(task: Task) -> dict[str, Any]:
    """Play one deal of a lineup; a JSON-ready summary."""
    spec = task.spec
    seed = shuffle_seed(spec.seed, task.shuffle)
    game = Game.new(spec.variant, spec.players, spec.options, seed=seed)
    bots = [make_bot(b, spec.budget) for b in task.bots]
    timings: dict[int, list[float]] = {s: [] for s in range(spec.players)}
    fallbacks: list[dict[str, Any]] = []

    def on_fallback(seat: int, rep: TurnReport) -> None:
        fallbacks.append({"seat": seat, "bot": task.bots[seat], "why": rep.fallback,
                          "played": rep.action})

    rng = random.Random(f"{seed}:{task.lineup}")
    finished = play_deal(game, bots, rng, timings=timings, on_fallback=on_fallback)
    if finished:
        result = game.results[-1]
        net = deal_net(result, game.rules)
        winner, how, points = result.winner, result.how, result.points
    else:  # counted as a deal without a winner
        net = [0.0] * spec.players
        winner, how, points = None, "unfinished", 0
    if spec.records:
        rec = game.record()
        rec["seed"] = seed
        rec["bots"] = list(task.bots)
        save_record(spec.records, record_name(task.shuffle, task.lineup), rec)
    return {
        "shuffle": task.shuffle,
        "lineup": task.lineup,
        "bots": list(task.bots),
        "winner": winner,
        "how": how,
        "points": points,
        "net": net,
        "times": {str(s): timings[s] for s in timings},
        "fallbacks": fallbacks,
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # The interval holds p; rounding can put an end a hair on the wrong side of 0 or 1
    # (6 of 6 gave 0.9999999999999999), which makes a negative error bar in the plot.
    return (max(0.0, min(p, mid - half)), min(1.0, max(p, mid + half)))


#: Two-sided 95% quantiles of Student's t for 1 to 9 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262)


def t975(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (from 10 on,
    the Cornish-Fisher expansion, within 0.2% of the exact value)."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (Student's t: with a few samples the normal quantile
    1.96 would give far too narrow an interval, 4.3 being right for three)."""
    if not xs:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return (m, m, m)
    half = t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return (m, m - half, m + half)


def summarize(spec: Spec, deals: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per bot: deals played and won (with a 95% interval of the share), mean net points per
    deal (95% interval), decision times and fallbacks.

    The points' interval is taken over shuffles, each counting as the mean of its lineups:
    the deals of one shuffle are not independent (that is the point of duplicate deals --
    the luck of the cards largely cancels between them), so the shuffle is the sample. With
    fewer than two shuffles there is no interval (None)."""
    names = list(dict.fromkeys(spec.bots))
    table = lineups(spec.bots, spec.players)
    shuffles = sorted({d["shuffle"] for d in deals})
    out: dict[str, Any] = {}
    for b in names:
        played = won = 0
        points: list[float] = []
        by_shuffle: dict[int, list[float]] = {i: [] for i in shuffles}
        times: list[float] = []
        falls = 0
        for d in deals:
            seats = [s for s, x in enumerate(d["bots"]) if x == b]
            if not seats:
                continue
            played += 1
            if d["winner"] is not None and d["bots"][d["winner"]] == b:
                won += 1
            points.append(statistics.fmean(d["net"][s] for s in seats))
            by_shuffle[d["shuffle"]].append(points[-1])
            for s in seats:
                times.extend(d["times"][str(s)])
            falls += sum(1 for f in d["fallbacks"] if f["bot"] == b)
        lo, hi = wilson(won, played)
        m = statistics.fmean(points) if points else 0.0
        _, mlo, mhi = mean_ci([statistics.fmean(v) for v in by_shuffle.values() if v])
        times.sort()
        out[b] = {
            # Seats the bot holds at every deal: its even share of the wins is seats/players.
            "seats": table[0].count(b),
            "deals": played,
            "won": won,
            "win_rate": won / played if played else 0.0,
            "win_ci": [lo, hi],
            "mean_points": m,
            "points_ci": [mlo, mhi] if len(shuffles) > 1 else None,
            "decisions": len(times),
            "median_ms": 1000 * statistics.median(times) if times else 0.0,
            "p95_ms": 1000 * times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0,
            "max_ms": 1000 * times[-1] if times else 0.0,
            "fallbacks": falls,
        }
    no_winner = sum(1 for d in deals if d["winner"] is None)
    unfinished = sum(1 for d in deals if d["how"] == "unfinished")
    return {
        "variant": spec.variant,
        "players": spec.players,
        "bots": list(spec.bots),
        "seed": spec.seed,
        # The budget hard played with, its default when none was given (the results depend
        # on it); None when no bot of the table thinks within one.
        "budget": budget_used(spec),
        # The room options and house rules every deal was played with (the results are
        # theirs); empty for the variant's own rules.
        "rules": dict(spec.options),
        "lineups": [list(lu) for lu in table],
        "deals": len(deals),
        "shuffles": len(shuffles),
        "no_winner": no_winner,
        "unfinished": unfinished,
        # Every move replaced by the fallback, with where it happened (a tournament measures
        # the bots, so a replaced move is worth finding).
        "fallbacks": [
            {"shuffle": d["shuffle"], "lineup": d["lineup"], **f}
            for d in deals for f in d["fallbacks"]
        ],
        "results": out,
    }


def tasks(spec: Spec) -> list[Task]:
    lus = lineups(spec.bots, spec.players)
    shuffles = -(-spec.deals // len(lus))
    return [Task(spec, i, j, lu) for i in range(shuffles) for j, lu in enumerate(lus)]


def warm_up(variant: str, players: int) -> None:
    """Play one untimed deal of medium bots so that the solver's lazily built tables exist
    before anything is timed (a fresh process builds them on first use)."""
    game = Game.new(variant, players, seed=0)
    play_deal(game, [make_bot("medium") for _ in range(players)], random.Random(0))


def _start_worker(variant: str, players: int) -> None:
    # Ctrl-C reaches every process of the terminal's group: the workers leave it to the
    # main process, which stops them (run_deals), instead of each printing a traceback.
    # (Only a process of its own may, and need, do so: not a thread standing in for one.)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # The main process stops its workers with SIGTERM: a handler inherited from it
        # (the command's, which stops a tournament) would make each print a traceback.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    warm_up(variant, players)


def run_deals(
    spec: Spec, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> list[dict[str, Any]]:
    """Play every deal of the tournament (in ``jobs`` processes); sorted summaries.

    Ctrl-C raises :class:`Interrupted` at once: the deals being played are dropped (no
    record of theirs is left, not even a truncated one) and the others are never begun."""
    spec.check()
    if spec.records:  # a directory that cannot be made fails now, not after the first deal
        if os.path.exists(spec.records) and not os.path.isdir(spec.records):
            raise TournamentError(f"--records {spec.records} is a file, not a directory: "
                                  f"name a directory for the records")
        try:
            os.makedirs(spec.records, exist_ok=True)
        except OSError as exc:
            # The bare error named the path but not the flag ("No such file or directory").
            raise TournamentError(
                f"--records {spec.records}: the directory cannot be made: {exc.strerror or exc}"
            ) from None
        # So does one that cannot be written in (its permissions, a read-only file system).
        try:
            with tempfile.TemporaryFile(dir=spec.records, prefix=".deal-probe-"):
                pass
        except OSError as exc:
            raise TournamentError(
                f"--records {spec.records}: no record can be written there: "
                f"{exc.strerror or exc}"
            ) from None
    todo = tasks(spec)
    done: list[dict[str, Any]] = []
    before = set(saved_records(spec.records)) if spec.records else set()
    # A process with no deal to play would only be started and warmed up: more jobs than
    # deals (--jobs 1000000) would try to start that many processes.
    jobs = min(jobs, len(todo))
    try:
        if jobs <= 1:
            warm_up(spec.variant, spec.players)
            for t in todo:
                done.append(play_task(t))
                if progress:
                    progress(1)
        else:
            _run_pool(todo, jobs, done, progress)
    except KeyboardInterrupt:
        raise Interrupted(len(done) + _saved_uncounted(todo, done, before),
                          len(todo)) from None
    done.sort(key=lambda d: (d["shuffle"], d["lineup"]))
    return done


def _saved_uncounted(todo: list[Task], done: list[dict[str, Any]], before: set[str]) -> int:
    """The deals whose record was saved whole but whose summary never came back: the stop
    fell between the record's renaming and the deal's return. They were played to the end
    and their records are in the folder, so they count as played."""
    folder = todo[0].spec.records if todo else None
    if not folder:
        return 0
    counted = {(d["shuffle"], d["lineup"]) for d in done}
    now = set(saved_records(folder))
    return sum(1 for t in todo
               if (t.shuffle, t.lineup) not in counted
               and (name := record_name(t.shuffle, t.lineup)) in now and name not in before)


def _run_pool(todo: list[Task], jobs: int, done: list[dict[str, Any]],
              progress: Callable[[int], None] | None) -> None:
    spec = todo[0].spec
    pool = ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(spec.variant, spec.players)
    )
    futures: list[Future[dict[str, Any]]] = []
    try:
        futures = [pool.submit(play_task, t) for t in todo]
        for f in as_completed(futures):
            done.append(f.result())
            if progress:
                progress(1)
    except BaseException:
        # Ctrl-C, or a deal that failed: leaving the pool normally would wait for every deal
        # still queued (all of them, for an early Ctrl-C). The deals not begun are
        # cancelled and the workers stopped in the middle of theirs.
        # (A private attribute: the executor has no public way to stop its workers.)
        workers = getattr(pool, "_processes", None) or {}
        for process in list(workers.values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        # Deals finished but not yet collected count too: their records are saved.
        done[:] = [f.result() for f in futures
                   if f.done() and not f.cancelled() and f.exception() is None]
        if spec.records:  # what a stopped worker was writing
            for name in os.listdir(spec.records):
                if fnmatchcase(name, PART_PATTERN):
                    with contextlib.suppress(OSError):
                        os.remove(os.path.join(spec.records, name))
        raise
    pool.shutdown()


def iter_table(summary: dict[str, Any]) -> Iterator[list[str]]:
    """Rows for people: bot, deals, won, win share [95%], mean points [95%], times."""
    for b, r in summary["results"].items():
        lo, hi = r["win_ci"]
        m = r["mean_points"]
        ci = r["points_ci"]
        yield [
            b,
            str(r["deals"]),
            str(r["won"]),
            f"{100 * r['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
            f"{m:+.1f} [{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else f"{m:+.1f} [one shuffle]",
            f"{r['median_ms']:.1f} / {r['p95_ms']:.1f}",
            str(r["fallbacks"]),
        ]
