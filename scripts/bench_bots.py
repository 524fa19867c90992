#!/usr/bin/env python3
"""Measure the bots: duplicate-deal matches hard v medium and medium v easy, every variant.

    python scripts/bench_bots.py --deals 1000 --jobs 2 --budget 1.0 --out bench.json

For each variant and pairing it plays ``--deals`` two-player deals (each shuffle twice, the
bots swapping seats) and prints, per pairing, the stronger bot's share of deals won with its
95% interval, the mean points per deal, and the decision times (median and 95th percentile,
the time the bot takes for one move, the engine's view excluded). ``--out`` writes every
summary as JSON. Long runs are made by hand; the numbers in ``docs/bots.md`` came from here.
Last it judges the decision-time targets of the bots' issue against what the run measured:
``medium``'s median decision at most 10 ms and ``hard``'s 95th percentile at most its budget,
for every variant and pairing (wall-clock times: a busy machine makes them longer).
``--rule NAME=VALUE`` (repeatable) plays every table under that room option or house rule,
read as ``rummykit analyze --rule`` reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots.tournament import Spec, run_deals, summarize
from rummykit.cli.analyze import parse_rules
from rummykit.rules import VARIANTS

PAIRINGS = (("hard", "medium"), ("medium", "easy"))
#: The most medium's median decision may take (issue #6), in ms.
MEDIUM_MEDIAN_MS = 10.0


def time_targets(summary: dict[str, Any], budget: float) -> list[tuple[str, bool, str]]:
    """The decision-time targets one run of a pairing speaks to: what, met, measured."""
    out = []
    pairing = " v ".join(summary["bots"])
    for name, r in summary["results"].items():
        if name == "medium":
            out.append((f"{summary['variant']} ({pairing}): medium median <= "
                        f"{MEDIUM_MEDIAN_MS:g} ms", r["median_ms"] <= MEDIUM_MEDIAN_MS,
                        f"{r['median_ms']:.1f} ms"))
        elif name == "hard":
            out.append((f"{summary['variant']} ({pairing}): hard p95 <= its budget "
                        f"{budget:g} s", r["p95_ms"] <= 1000 * budget,
                        f"{r['p95_ms']:.1f} ms"))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--pairings", default="hard-medium,medium-easy")
    p.add_argument("--out", default=None, help="write the summaries as JSON")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a room option or house rule for every table (repeatable)")
    args = p.parse_args(argv)
    pairings = [tuple(x.split("-")) for x in args.pairings.split(",") if x]
    out: list[dict[str, Any]] = []
    print(f"{'variant':8} {'pairing':13} {'deals':>5} {'won %':>6} {'95% interval':>15} "
          f"{'pts/deal':>9} {'ms med':>7} {'ms p95':>7} {'s':>6}")
    for variant in args.variants.split(","):
        for a, b in pairings:
            spec = Spec(variant, 2, (a, b), args.deals, args.seed, args.budget,
                        options=parse_rules(args.rule, variant))
            t = time.perf_counter()
            summary = summarize(spec, run_deals(spec, args.jobs))
            secs = time.perf_counter() - t
            summary["seconds"] = secs
            summary["options"] = spec.options
            out.append(summary)
            r = summary["results"][a]
            lo, hi = r["win_ci"]
            print(f"{variant:8} {a + ' v ' + b:13} {summary['deals']:5d} "
                  f"{100 * r['win_rate']:6.1f} [{100 * lo:5.1f}, {100 * hi:5.1f}] "
                  f"{r['mean_points']:+9.1f} {r['median_ms']:7.1f} {r['p95_ms']:7.1f} "
                  f"{secs:6.0f}", flush=True)
            for name in (a, b):
                rr = summary["results"][name]
                print(f"{'':22}{name:7} decisions {rr['decisions']:6d}  median "
                      f"{rr['median_ms']:.1f} ms  p95 {rr['p95_ms']:.1f} ms  max "
                      f"{rr['max_ms']:.0f} ms  fallbacks {rr['fallbacks']}", flush=True)
            if args.out:
                with open(args.out, "w", encoding="utf-8") as fh:
                    json.dump(out, fh, indent=1)
    print("decision-time targets (issue #6, wall-clock, this run):")
    for summary in out:
        for what, ok, got in time_targets(summary, args.budget):
            print(f"  {what:54} {got:>10}   {'met' if ok else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
