"""Times the crafted inputs of ``tests/test_adversarial.py`` (the tests count work; this
measures the clock, by hand): the solver's worst hands found under the house rules at their
bounds, a view offering ``open`` on a rami71 hand, and the states of a long Rami deal.

    python scripts/bench_adversarial.py            # best of 3 each, in ms
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rummykit.analysis import analyze
from rummykit.cards import make_deck, parse_cards
from rummykit.engine import Game
from rummykit.solver import clear_tables

LOOSE = {"jokers": 8, "hand_size": 17, "min_real": 1, "adjacent_jokers": True}

#: (what, variant, hand, options, wild rank)
HANDS: list[tuple[str, str, str, dict[str, Any], int]] = [
    ("one whole suit, 3 jokers, min_real 1", "rummy",
     "TH 2H 3H 4H 5H 6H 7H 8H 9H AC AH JH KC KH QH X X X", LOOSE, 0),
    ("a dense suit, 5 jokers, min_real 1", "rummy",
     "TH 2H 3H 4H 4H 5H 6H 7H 8H 9H AH JH KH X X X X X", LOOSE, 0),
    ("indian, 8 printed jokers, sevens wild", "indian",
     "TD TS TS 2S 4S 4S 6S 7S 8S 9S 9S JS KS QC QS X X X", {"jokers": 8, "hand_size": 17}, 7),
    ("plain rummy hand", "rummy", "KS KH KD 5H 6H 7H 9C 2C 3D 4S 8H 9H TH", {}, 0),
]


def best_of(runs: int, setup: Callable[[], Any], work: Callable[[Any], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        state = setup()
        t0 = time.perf_counter()
        work(state)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def dealt(variant: str, hand: str) -> Game:
    """A two-seat game whose first player (seat 1) is dealt ``hand``."""
    rules = Game.new(variant, players=2, seed=1).rules
    mine = parse_cards(hand)
    rest = list(make_deck(rules.jokers))
    for c in mine:
        rest.remove(c)
    deck = []
    for i in range(rules.hand_size):
        deck += [mine[i], rest.pop()]
    deck += [*mine[rules.hand_size:], *rest]
    return Game.new(variant, players=2, deck=deck)


def long_deal(actions: int) -> Game:
    game = Game.new("rami51", players=2, seed=1)
    while game.history_length() < actions:
        game.apply("timeout")
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for what, variant, hand, options, wild in HANDS:

        def solve(_: object, v: str = variant, h: str = hand, o: dict[str, Any] = options,
                  w: int = wild) -> object:
            return analyze(h, v, options=o, wild_rank=w)

        ms = best_of(args.runs, clear_tables, solve)
        print(f"analyze, {what}: {ms:.1f} ms")
    rami = "2S 2H 2D 2C 3C 4C 5C 6C 7C 8C 9C TC JC X X"

    def view(game: Game) -> object:
        return game.view(1)

    ms = best_of(args.runs, lambda: dealt("rami71", rami), view)
    print(f"view offering open, rami71 {rami}: {ms:.1f} ms")
    game = long_deal(30_000)
    n = game.history_length()
    ms = best_of(args.runs, lambda: None, lambda _s: game.history(n - 2))
    print(f"the new events of a state after {n} events: {ms:.3f} ms")


if __name__ == "__main__":
    main()
