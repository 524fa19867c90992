#!/usr/bin/env python3
"""Solo race: how many turns a bot needs to go out when nobody gets in its way.

    python scripts/solo_race.py --variants simple,indian --bots easy,medium --deals 100

Each deal is a seeded two-player deal (the same shuffles for every bot): the bot measured
sits in seat 0, and seat 1 is a *passive* player that draws from the stock and throws away
the card it drew, so it never goes out, never takes from the pile and never drops. The
number of turns seat 0 plays until it goes out (closes, declares, or empties its hand) says
how fast its judgement builds a hand, with the luck of the deal the same for every bot.
A deal the bot has not finished after ``--max-turns`` turns, or that ends without it going
out (it dropped, or an Indian stock ran dry), counts as that many turns and not as *out*.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import Bot, Observation, make_bot, play_turn
from rummykit.bots.tournament import mean_ci, shuffle_seed
from rummykit.engine import Game
from rummykit.rules import VARIANTS


class Passive:
    """Draws from the stock and throws away the card it drew."""

    name = "passive"
    budget: float | None = None

    def __init__(self) -> None:
        self.before: Counter[str] = Counter()

    def choose(self, obs: Observation, rng: random.Random) -> str:
        hand: list[str] = obs.view["hand"]
        if obs.phase == "draw":
            self.before = Counter(hand)
            return "draw"
        drawn = list((Counter(hand) - self.before).elements())
        # the first player of a Rami deal starts by discarding, with no card drawn
        return f"discard {drawn[0] if drawn else hand[-1]}"


def race(variant: str, level: str, shuffle_no: int, seed: int, budget: float,
         max_turns: int) -> tuple[int, bool]:
    """Turns seat 0 played in one deal, and whether it went out."""
    options: dict[str, Any] = {"format": "points"} if variant == "indian" else {}
    game = Game.new(variant, 2, options, seed=shuffle_seed(seed, shuffle_no))
    bots: list[Bot] = [make_bot(level, budget), Passive()]
    rng = random.Random(f"solo:{seed}:{shuffle_no}")
    turns, last = 0, None
    while game.to_move is not None:
        seat = game.to_move
        if seat == 0 and last != 0:
            if turns == max_turns:
                return max_turns, False
            turns += 1
        last = seat
        play_turn(game, seat, bots[seat], rng)
    if game.results and game.results[-1].winner == 0:
        return turns, True
    return max_turns, False  # a drop, or a stock run dry: no race won


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--variants", default="simple,indian")
    p.add_argument("--bots", default="easy,medium")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move")
    p.add_argument("--max-turns", type=int, default=60)
    args = p.parse_args(argv)
    for variant in args.variants.split(","):
        if variant not in VARIANTS:
            p.error(f"unknown variant {variant!r} ({', '.join(VARIANTS)})")
    print(f"{'variant':8} {'bot':7} {'deals':>5} {'out':>5} {'mean turns':>11} "
          f"{'95% interval':>15} {'median':>7}")
    for variant in args.variants.split(","):
        for level in args.bots.split(","):
            got = [race(variant, level, i, args.seed, args.budget, args.max_turns)
                   for i in range(args.deals)]
            turns = [float(t) for t, _ in got]
            mean, lo, hi = mean_ci(turns)
            print(f"{variant:8} {level:7} {len(got):5d} {sum(ok for _, ok in got):5d} "
                  f"{mean:11.1f} [{lo:5.1f}, {hi:5.1f}] {statistics.median(turns):7.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
