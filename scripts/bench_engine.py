#!/usr/bin/env python3
"""Engine benchmark: random legal deals, engine steps per second.

Each run plays the same seeded 4-player deals with a random player that picks uniformly
among ``game.legal_actions()`` (the host-only ``timeout`` only when nothing else is legal).
Two rates are printed, medians of the runs:

- engine steps/s: actions applied per second of time spent inside ``Game.apply`` (each apply
  checks the action's legality and performs it) -- the engine's own speed;
- loop steps/s: actions per second of the whole loop, the enumeration of every legal action
  before every step included (what a search that lists all moves every step would see).

Usage: python scripts/bench_engine.py [--variant rummy] [--players 4] [--deals 40] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rummykit.engine import Game

MAX_STEPS = 3000  # Rami and simple deals may never end under random play: cap each deal.


def run_once(variant: str, players: int, deals: int, seed: int) -> tuple[int, float, float]:
    rng = random.Random(seed)
    steps = 0
    t_apply = 0.0
    start = time.perf_counter()
    for k in range(deals):
        game = Game.new(variant, players, seed=seed * 100_000 + k)
        n = 0
        while not game.deal.over and n < MAX_STEPS:
            actions = game.legal_actions()
            # A player stuck with a card they cannot lay has only the clock's timeout left.
            action = rng.choice([a for a in actions if a.verb != "timeout"] or actions)
            t0 = time.perf_counter()
            game.apply(action)
            t_apply += time.perf_counter() - t0
            n += 1
        steps += n
    return steps, t_apply, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="rummy")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    engine, loop = [], []
    for r in range(args.runs):
        steps, t_apply, t_loop = run_once(args.variant, args.players, args.deals, args.seed)
        engine.append(steps / t_apply)
        loop.append(steps / t_loop)
        print(f"run {r + 1}: {steps} steps, engine {steps / t_apply:,.0f} steps/s, "
              f"loop {steps / t_loop:,.0f} steps/s")
    print(f"{args.variant}, {args.players} players, {args.deals} deals x {args.runs} runs")
    print(f"median engine steps/s: {statistics.median(engine):,.0f}")
    print(f"median loop steps/s (legal_actions() every step): {statistics.median(loop):,.0f}")


if __name__ == "__main__":
    main()
