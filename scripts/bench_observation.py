#!/usr/bin/env python3
"""What building a bot's observation costs against medium's decision, as a deal grows.

    python scripts/bench_observation.py --variant rami71 --players 4 --deals 30
    python scripts/bench_observation.py --variant rummy --players 6 --deals 30

Medium plays every seat of ``--deals`` deals; at each decision ``observe(game, seat)`` (the
view, the history, their check and copy: what ``play_turn`` builds for every move) is timed,
the best of three, and so is medium's decision on it. It prints the medians by the number of
events the deal had so far, the observation's as a share of the decision's. Wall-clock
times: a busy machine makes both longer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import observe
from rummykit.bots.base import MediumBot
from rummykit.engine import Game
from rummykit.errors import RummyError

#: The bins of the report, by events of the deal so far.
BINS = ((0, 50), (50, 100), (100, 150), (150, None))


def measure(variant: str, players: int, deals: int, seed: int) -> list[tuple[int, float, float]]:
    """(events so far, observation ms, decision ms) for every decision of medium."""
    rows = []
    for d in range(deals):
        game = Game.new(variant, players, seed=seed + d)
        bot = MediumBot()
        rng = random.Random(seed + d)
        start = len(game.results)
        for _ in range(3000):  # a Rami deal can go on for ever
            seat = game.to_move
            if seat is None or len(game.results) != start:
                break
            took = []
            for _ in range(3):
                t = time.perf_counter()
                obs = observe(game, seat)
                took.append(time.perf_counter() - t)
            t = time.perf_counter()
            act = bot.choose(obs, rng)
            decided = time.perf_counter() - t
            rows.append((game.history_length(), min(took) * 1e3, decided * 1e3))
            game.apply(act)
    return rows


def report(rows: list[tuple[int, float, float]], title: str) -> str:
    lines = [f"{title}: {len(rows)} decisions of medium, median decision "
             f"{statistics.median(r[2] for r in rows):.3f} ms"]
    for low, high in BINS:
        sel = [r for r in rows if low <= r[0] and (high is None or r[0] < high)]
        if not sel:
            continue
        built = statistics.median(r[1] for r in sel)
        decided = statistics.median(r[2] for r in sel)
        span = f"{low}-{high - 1}" if high is not None else f"{low} and more"
        lines.append(f"  events {span}: {len(sel)} decisions, observation {built:.3f} ms, "
                     f"decision {decided:.3f} ms ({built / decided:.0%})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", default="rami71")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args(argv)
    if args.deals < 1:
        print("bench_observation: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        rows = measure(args.variant, args.players, args.deals, args.seed)
    except RummyError as exc:
        print(f"bench_observation: {exc}", file=sys.stderr)
        return 2
    print(report(rows, f"{args.variant}, {args.players} seats, {args.deals} deals"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
