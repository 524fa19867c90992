#!/usr/bin/env python3
"""Benchmark of the solver's Indian rummy questions (not a test), by wild cards in hand.

    python scripts/bench_indian.py [--hands 300] [--heavy 200] [--crowded 0] [--seed 2026]
                                   [--passes 3] [--cold] [--work N [--pick I,J,...]]
                                   [--bytecodes]

A fixed set of hands (seeded): ``--hands`` dealt at random from the 106-card Indian deck (two
printed jokers) with a random wild rank, then ``--heavy`` hands holding 3 to 6 wild cards and
printed jokers together (the case where the solver has the most to decide), then
``--crowded`` hands holding 4 to 8 of them with the other cards from six ranks of one or two
suits (one dense suit and many jokers: the slowest case). For each hand it
times ``least_penalty`` of the first 13 cards (the two-sequence rule: the seat's view, the
bots, end-of-deal scoring) plus ``declaration`` of all 14 (CPU time of this process, garbage
collector off, tables kept from hand to hand as in a long-running server; ``--cold`` empties
them before every hand, as a fresh process would). The whole set is
run ``--passes`` times from empty tables and each hand keeps its best time. It prints the
median, p90, p99 and max per hand, then a table by the number of wild cards plus printed
jokers in the 14 cards, and the slowest hand. ``--bytecodes`` counts the Python bytecodes each
hand executes instead (the same numbers at any load).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)
from _bench import (
    add_work_options,
    bytecode_report,
    bytecodes,
    fixed_hash_seed,
    pct,
    reference_line,
    timed,
    work,
)

from rummykit.cards import JOKER, Card, card, format_cards, make_deck
from rummykit.melds import MeldRules
from rummykit.solver import INDIAN_PENALTY, clear_tables, declaration, least_penalty

Hand = tuple[list[Card], MeldRules]


def rules_of(wild: int) -> MeldRules:
    return MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)


def random_hand(rng: random.Random) -> Hand:
    wild = rng.randint(1, 13)
    return rng.sample(make_deck(2), 14), rules_of(wild)


def heavy_hand(rng: random.Random) -> Hand:
    """3 to 6 of the hand's 14 cards are wild cards or printed jokers, the rest at random."""
    wild = rng.randint(1, 13)
    jokerish = [card(wild, s) for s in range(4) for _ in range(2)] + [JOKER] * 2
    k = rng.randint(3, 6)
    hand = rng.sample(jokerish, k)
    others = [c for c in make_deck(0) if c.rank != wild]
    hand += rng.sample(others, 14 - k)
    rng.shuffle(hand)
    return hand, rules_of(wild)


def crowded_hand(rng: random.Random) -> Hand:
    """4 to 8 wild cards and printed jokers, the other cards from six ranks of one suit (or
    two), two copies each in the deck: runs of one suit crowd in with many jokers."""
    wild = rng.randint(1, 13)
    jokerish = [card(wild, s) for s in range(4) for _ in range(2)] + [JOKER] * 2
    hand = rng.sample(jokerish, rng.randint(4, 8))
    suits = rng.sample(range(4), rng.choice((1, 1, 2)))
    lo = rng.randint(1, 8)
    near = [card(r, s) for r in range(lo, lo + 6) if r != wild for s in suits for _ in range(2)]
    hand += rng.sample(near, min(14 - len(hand), len(near)))
    others = [c for c in make_deck(0) if c.rank != wild]
    while len(hand) < 14:
        c = rng.choice(others)
        if hand.count(c) < 2:
            hand.append(c)
    rng.shuffle(hand)
    return hand, rules_of(wild)


def make_hands(n: int, heavy: int, seed: int, crowded: int = 0) -> list[Hand]:
    rng = random.Random(seed)
    return (
        [random_hand(rng) for _ in range(n)] + [heavy_hand(rng) for _ in range(heavy)]
        + [crowded_hand(rng) for _ in range(crowded)]
    )


def wild_count(h: Hand) -> int:
    cards, rules = h
    return sum(1 for c in cards if rules.is_joker(c))


def solve(h: Hand) -> tuple[int, bool]:
    cards, rules = h
    p = least_penalty(cards[:13], INDIAN_PENALTY, rules)
    d = declaration(cards, rules)
    return p.points, d is not None


def solve_cold(h: Hand) -> tuple[int, bool]:
    clear_tables()
    return solve(h)


def ms(x: float) -> str:
    return f"{x * 1e3:7.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--heavy", type=int, default=200)
    ap.add_argument("--crowded", type=int, default=0,
                    help="hands with one dense suit and 4 to 8 wild cards and printed jokers")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--passes", type=int, default=3, help="passes; each hand keeps its best")
    ap.add_argument("--cold", action="store_true",
                    help="empty the tables before every hand (each hand's own tables built)")
    add_work_options(ap)
    args = ap.parse_args()
    if args.bytecodes:
        fixed_hash_seed()
    hands = make_hands(args.hands, args.heavy, args.seed, args.crowded)
    if args.work is not None:
        work(hands[: args.work], solve, args.pick)
        return
    if args.bytecodes:
        counts = bytecodes(hands, solve_cold if args.cold else solve)
        bytecode_report(counts, "least_penalty on 13 + declaration on 14")
        if 0 < args.crowded < len(hands):
            bytecode_report(counts[:-args.crowded], "without the crowded hands")
            bytecode_report(counts[-args.crowded:], "the crowded hands")
        return

    print(reference_line())
    crowded = f" + {args.crowded} crowded" if args.crowded else ""
    print(f"{args.hands} random + {args.heavy} heavy{crowded} hands of 14 cards (seed "
          f"{args.seed}); least_penalty on 13 cards + declaration on 14, ms per hand:")
    gc.disable()
    clear_tables()
    times = timed(hands, solve, args.passes, args.cold)
    gc.enable()
    print(f"  all      n {len(times):4}  median {ms(statistics.median(times))}  "
          f"p90 {ms(pct(times, 0.9))}  p99 {ms(pct(times, 0.99))}  max {ms(max(times))}")
    if 0 < args.crowded < len(hands):
        for name, xs in (("others", times[:-args.crowded]), ("crowded", times[-args.crowded:])):
            print(f"  {name:8} n {len(xs):4}  median {ms(statistics.median(xs))}  "
                  f"p90 {ms(pct(xs, 0.9))}  p99 {ms(pct(xs, 0.99))}  max {ms(max(xs))}")
    by: dict[int, list[float]] = {}
    for h, t in zip(hands, times, strict=True):
        by.setdefault(wild_count(h), []).append(t)
    for k in sorted(by):
        xs = by[k]
        print(f"  wild {k:2}  n {len(xs):4}  median {ms(statistics.median(xs))}  "
              f"p90 {ms(pct(xs, 0.9))}  p99 {ms(pct(xs, 0.99))}  max {ms(max(xs))}")
    worst = max(range(len(hands)), key=lambda i: times[i])
    cards, rules = hands[worst]
    print(f"  slowest hand (#{worst}): {format_cards(cards)}  wild rank {rules.wild_rank}")


if __name__ == "__main__":
    main()
