"""Times what the server does for *Watch the game again* (``GET /api/replay``): one deal of a
finished game replayed position by position (``replay_deal``), for the first deal and for the
last, which replays every deal before it. The game is played by medium bots from a seed.

    python scripts/bench_replay.py                  # a rami51 game of seed 6 (23 deals)
    python scripts/bench_replay.py --variant rummy --options '{"length": "to-200"}'
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import make_bot, play_deal
from rummykit.engine import Game
from rummykit.engine.review import replay_deal


def finished(variant: str, players: int, options: dict[str, object], seed: int) -> Game:
    game = Game.new(variant, players=players, seed=seed, options=options)
    bots = [make_bot("medium") for _ in range(players)]
    rng = random.Random(seed)
    while True:
        play_deal(game, bots, rng)
        if game.over:
            return game
        game.next_deal()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rami51")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", default="{}", help="room options, as JSON")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--runs", type=int, default=7, help="timed runs; the median is given")
    args = parser.parse_args()
    record = finished(args.variant, args.players, json.loads(args.options), args.seed).record()
    deals = len(record["deals"])
    print(f"{args.variant}, {args.players} players, seed {args.seed}: {deals} deals")
    for deal in sorted({1, deals}):
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            answer = replay_deal(record, deal)
            times.append(time.perf_counter() - t0)
        size = len(json.dumps(answer, separators=(",", ":")))
        print(f"deal {deal:>3}: median {statistics.median(times) * 1000:.1f} ms "
              f"(runs {min(times) * 1000:.1f}-{max(times) * 1000:.1f} ms), "
              f"{len(answer['frames'])} positions, {size / 1024:.0f} KiB of JSON")


if __name__ == "__main__":
    main()
