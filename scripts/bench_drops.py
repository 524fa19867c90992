"""What medium's drops cost or save in Indian rummy: medium as it is against medium with its
drops turned off (``Style.drops = False``), each against easy (share of deals won and points a
deal) and against medium itself (the net points of the shuffles, both seatings, where the two
differ). Duplicate deals from ``tournament.run_deals``, one process; about a minute per 1,000
deals on an idle core.

    python scripts/bench_drops.py                          # 1,000 deals, seed 2026
    python scripts/bench_drops.py --seeds 2026,11,12,13    # the 4,000 deals of docs/bots-log.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import base, policy
from rummykit.bots.tournament import Spec, run_deals, summarize


@contextmanager
def without_drops(slot: str) -> Iterator[None]:
    """The bot named ``slot`` plays medium with no drops while the block runs (in this process:
    the tournament's bots are made by name)."""
    cls = base.EasyBot if slot == "easy" else base.MediumBot
    real = cls.choose
    style = replace(policy.MEDIUM, drops=False)

    def choose(self: Any, obs: Any, rng: Any) -> str:
        return base._checked(obs, rng, replace(style, rng=rng))

    cls.choose = choose  # type: ignore[method-assign]
    try:
        yield
    finally:
        cls.choose = real  # type: ignore[method-assign]


def against_easy(deals: int, seed: int) -> tuple[int, float]:
    """Deals won by medium against easy, and its mean points a deal."""
    spec = Spec("indian", 2, ("medium", "easy"), deals, seed, None)
    r = summarize(spec, run_deals(spec, 1))["results"]["medium"]
    return round(r["win_rate"] * r["deals"]), r["mean_points"]


def against_medium(deals: int, seed: int) -> tuple[float, float, int, int]:
    """medium without drops (in the ``easy`` slot) against medium: the mean net points of a
    shuffle (both seatings), its 95% half-interval, the shuffles and those that differ."""
    spec = Spec("indian", 2, ("easy", "medium"), deals, seed, None)
    with without_drops("easy"):
        done = run_deals(spec, 1)
    by: dict[int, list[float]] = {}
    for d in done:
        by.setdefault(d["shuffle"], []).append(d["net"][d["bots"].index("easy")])
    nets = [sum(v) for v in by.values() if len(v) == 2]
    half = 1.96 * statistics.stdev(nets) / len(nets) ** 0.5 if len(nets) > 1 else 0.0
    return statistics.mean(nets), half, len(nets), sum(1 for n in nets if n)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--deals", type=int, default=1000, help="deals per seed (even: both seats)")
    p.add_argument("--seeds", default="2026")
    args = p.parse_args(argv)
    if args.deals < 2:
        p.error("--deals must be at least 2")
    seeds = [int(s) for s in args.seeds.split(",") if s]
    totals = {"with": [0, 0], "without": [0, 0]}
    for seed in seeds:
        won, pts = against_easy(args.deals, seed)
        with without_drops("medium"):
            won_nd, pts_nd = against_easy(args.deals, seed)
        for key, w in (("with", won), ("without", won_nd)):
            totals[key][0] += w
            totals[key][1] += args.deals
        net, half, shuffles, differ = against_medium(args.deals, seed)
        print(f"seed {seed}: v easy, drops {100 * won / args.deals:.1f}% {pts:+.1f} pts/deal, "
              f"no drops {100 * won_nd / args.deals:.1f}% {pts_nd:+.1f} pts/deal; "
              f"no drops v medium {net:+.2f} ± {half:.2f} net points a shuffle "
              f"({differ} of {shuffles} shuffles differ)", flush=True)
    for key, (w, n) in totals.items():
        print(f"all {n} deals v easy, {key} drops: {w} won, {100 * w / n:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
