#!/usr/bin/env python3
"""Engine benchmark: random legal deals, engine steps per second.

A random player that picks uniformly among ``game.legal_actions()`` (the host-only ``timeout``
only when nothing else is legal) plays seeded 4-player deals. Each run then reports, and the
script prints the medians over the runs:

- engine steps/s: the same deals played again, action by action, through ``Game.apply`` (each
  apply checks the action's legality, then performs it, and moves the turn on) -- the engine's
  own speed, without the random player's bookkeeping;
- loop steps/s: the random play itself, the enumeration of every legal action before every
  step included (what a search that lists all moves at every step would see).

Usage: python scripts/bench_engine.py [--variant rummy] [--players 4] [--deals 40] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.engine import Action, Game

MAX_STEPS = 3000  # Rami and simple deals may never end under random play: cap each deal.


def random_deals(
    variant: str, players: int, deals: int, seed: int
) -> tuple[list[tuple[int, list[Action]]], int, float]:
    rng = random.Random(seed)
    played = []
    steps = 0
    start = time.perf_counter()
    for k in range(deals):
        game_seed = seed * 100_000 + k
        game = Game.new(variant, players, seed=game_seed)
        actions: list[Action] = []
        while not game.deal.over and len(actions) < MAX_STEPS:
            legal = game.legal_actions()
            # A player stuck with a card they cannot lay has only the clock's timeout left.
            action = rng.choice([a for a in legal if a.verb != "timeout"] or legal)
            game.apply(action)
            actions.append(action)
        played.append((game_seed, actions))
        steps += len(actions)
    return played, steps, time.perf_counter() - start


def replay(variant: str, players: int, played: list[tuple[int, list[Action]]]) -> float:
    start = time.perf_counter()
    for game_seed, actions in played:
        game = Game.new(variant, players, seed=game_seed)
        apply = game.apply
        for action in actions:
            apply(action)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--variant", default="rummy")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    engine, loop = [], []
    for r in range(args.runs):
        played, steps, t_loop = random_deals(args.variant, args.players, args.deals, args.seed)
        t_engine = replay(args.variant, args.players, played)
        engine.append(steps / t_engine)
        loop.append(steps / t_loop)
        print(f"run {r + 1}: {steps} steps, engine {steps / t_engine:,.0f} steps/s, "
              f"loop {steps / t_loop:,.0f} steps/s")
    print(f"{args.variant}, {args.players} players, {args.deals} deals x {args.runs} runs")
    print(f"median engine steps/s: {statistics.median(engine):,.0f}")
    print(f"median loop steps/s (legal_actions() every step): {statistics.median(loop):,.0f}")


if __name__ == "__main__":
    main()
