"""What the solver benchmarks share: CPU time per hand, percentiles, the machine's reference
line, the untimed ``--work`` mode for callgrind, and the ``--bytecodes`` count."""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TypeVar

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.solver import clear_tables

H = TypeVar("H")


def timed(hands: Sequence[H], solve: Callable[[H], object], passes: int,
          cold: bool = False) -> list[float]:
    """CPU time per hand, the best of ``passes`` identical passes (each pass starts from
    empty tables, so every pass does the same work; the minimum filters out the noise of
    other processes). ``cold``: the tables are cleared before every hand too."""
    best = [float("inf")] * len(hands)
    for _ in range(passes):
        clear_tables()
        for i, h in enumerate(hands):
            if cold:
                clear_tables()
            t = time.process_time()
            solve(h)
            best[i] = min(best[i], time.process_time() - t)
    return best


def pct(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def reference_line() -> str:
    """How fast this machine runs Python now: benchmark times follow it."""
    timer = timeit.Timer("sum(range(1000))", timer=time.process_time)
    ref = min(timer.repeat(number=2000, repeat=5)) / 2000
    return (f"machine reference: sum(range(1000)) takes {ref * 1e6:.1f} µs of CPU "
            f"(Python {sys.version.split()[0]}); load average {os.getloadavg()[0]:.1f}")


def add_work_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--work", type=int, metavar="N",
                    help="only solve the first N hands once from empty tables, untimed, and "
                         "stop: run under valgrind --tool=callgrind with N and with 0, the "
                         "difference is the instructions the solving takes")
    ap.add_argument("--bytecodes", action="store_true",
                    help="count the Python bytecodes each hand executes (one pass from empty "
                         "tables, as the timed passes): the same numbers on any machine, at "
                         "any load")
    ap.add_argument("--pick", metavar="I,J,...",
                    help="with --work: solve only these hands (indices among the first N), "
                         "tables cleared before each (a fixed list, such as the slowest ones)")


def work(hands: Sequence[H], solve: Callable[[H], object], pick: str | None) -> None:
    """The ``--work`` mode: solve the hands once (or only the picked ones, tables cleared
    before each), untimed, garbage collector off."""
    gc.disable()
    clear_tables()
    if pick:
        for i in sorted({int(x) for x in pick.split(",")}):
            clear_tables()
            solve(hands[i])
        return
    for h in hands:
        solve(h)


def bytecodes(hands: Sequence[H], solve: Callable[[H], object]) -> list[int]:
    """Bytecodes executed per hand, one pass from empty tables (as each timed pass runs).

    Unlike a clock this does not move with the machine's load, so a 5 % change in the
    solver's work shows; it counts the interpreter's steps, not their cost (a bytecode that
    calls into C counts one), so it judges changes to Python code, not to its C calls. String
    hashes vary between interpreters unless ``PYTHONHASHSEED`` is fixed, and with them the
    order of some tables: the caller fixes it (see :func:`fixed_hash_seed`).
    """
    count = 0

    def opcodes(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "opcode":
            count += 1
        return opcodes

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        frame.f_trace_opcodes = True
        return opcodes

    gc.disable()
    clear_tables()
    out = []
    for h in hands:
        count = 0
        sys.settrace(calls)
        try:
            solve(h)
        finally:
            sys.settrace(None)
        out.append(count)
    gc.enable()
    return out


def fixed_hash_seed() -> None:
    """Run this script again with ``PYTHONHASHSEED=0`` unless some seed is already fixed."""
    if os.environ.get("PYTHONHASHSEED") in (None, "", "random"):
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)


def bytecode_report(counts: Sequence[int], label: str) -> None:
    print(f"{label}: bytecodes per hand (PYTHONHASHSEED={os.environ['PYTHONHASHSEED']}), "
          f"{len(counts)} hands")
    print(f"  median {statistics.median(counts):,.0f}   p99 {pct(counts, 0.99):,}   "
          f"max {max(counts):,}   total {sum(counts):,}")
