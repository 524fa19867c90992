"""Write the golden records of ``tests/golden/`` (run from the repository root:
``python -m tests.golden.generate``).

Each game is a hand-checked position of the engine tests; the expected ``rummykit replay
--json`` answer is written next to it and checked by hand (the numbers are in the comments and
in ``tests/test_cli_engine.py``). Regenerating must not change the expected files unless the
engine's answer changed on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

from rummykit.cli.replay import summary
from rummykit.engine import Game
from tests.helpers import build_deck, new_game, play

HERE = Path(__file__).parent

ALL_OUT = "2S 3S 4S 2H 3H 4H 2D 3D 4D AC 2C 3C 4C"
HEAVY60 = "2S 3S 4S 2H 3H 4H 2D 3D 4D 6C 3C 4C X"
OUT_OPEN = "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C"


def rummy_69() -> Game:
    """Seat 1 opens T-A of spades and keeps K 7 A X 3 4 4 Q (69); seat 0 opened the turn before
    and goes out by discard: 69, not doubled."""
    g = new_game("rummy", 2, {1: "TS JS QS KS AS KH 7C AD X 3S 4D 4C QH",
                              0: "KC KH KD 5C 6C 7C 2H 3H 4H 2D 3D 4D 9S"},
                 starter="QC", stock="9C JC 8D 8C", seed=None)
    play(g, "draw", "open TS JS QS KS AS", "discard 9C",
         "draw", "open KC KH KD / 5C 6C 7C", "discard JC",
         "draw", "discard 8D",
         "draw", "meld 2H 3H 4H", "meld 2D 3D 4D", "layoff 3 8C", "discard 9S")
    return g


def rummy_de_mano_138() -> Game:
    """Seat 0 opens and goes out in its first turn: 69 doubled, 138."""
    g = new_game("rummy", 2, {1: "TS JS QS KS AS KH 7C AD X 3S 4D 4C QH", 0: ALL_OUT},
                 starter="QC", stock="9C 5C", seed=None)
    play(g, "draw", "open TS JS QS KS AS", "discard 9C", "draw", OUT_OPEN)
    return g


def rummy_to_200() -> Game:
    """Three deals of rummy de mano worth 120 each; the dealer moves every deal; seat 1 reaches
    240 in deal 3."""
    g = new_game("rummy", 2, {1: ALL_OUT, 0: HEAVY60}, options={"length": "to-200"},
                 starter="QC", stock="5C", seed=None)
    play(g, "draw", OUT_OPEN)
    g.next_deal(build_deck("rummy", 2, {0: ALL_OUT, 1: HEAVY60}, dealer=1, starter="QC",
                           stock="5C"))
    play(g, "draw", OUT_OPEN)
    g.next_deal(build_deck("rummy", 2, {1: ALL_OUT, 0: HEAVY60}, dealer=0, starter="QC",
                           stock="5C"))
    play(g, "draw", OUT_OPEN)
    return g


def rummy_blocked() -> Game:
    """Three players open, then only automatic play: the stock is rebuilt twice and the deal
    blocks with hands of 24, 25, 17: seat 2 wins 15."""
    g = new_game("rummy", 3, {
        1: "KS KH KD QS QH QD 2S 2H 3S 3H 4D 4H 7C",
        2: "JS JH JD TS TH TD 2D 2C 2D 2C 3D 3C 3D",
        0: "9S 9H 9D 8S 8H 8D 4S 4C 4S 4C 3S 3H 2S",
    }, starter="5S", seed=7)
    play(g, "draw", "open KS KH KD / QS QH QD", "timeout",
         "draw", "open JS JH JD / TS TH TD", "timeout",
         "draw", "open 9S 9H 9D / 8S 8H 8D", "timeout")
    while not g.deal.over:
        g.apply("timeout")
    return g


SEC51 = "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C 4C KD"
SEC51_OPEN = "open AS 2S 3S 4S / AH 2H 3H / AD 2D 3D / AC 2C 3C 4C"
HEAVY180 = "X X X X KS KS KH KH JD JD QS QS QH QH"


def rami51_to_the_limit() -> Game:
    """Two rami secs; seat 0 keeps 180 in hand each time: 360 >= 251, seat 0 loses."""
    g = new_game("rami51", 2, {1: SEC51, 0: HEAVY180}, seed=None)
    play(g, SEC51_OPEN, "discard KD")
    g.next_deal(build_deck("rami51", 2, {0: HEAVY180 + " 5S", 1: SEC51[:-3]}, dealer=1,
                           stock="KD"))
    play(g, "discard 5S", "draw", SEC51_OPEN, "discard KD")
    return g


def simple_2v2() -> Game:
    """Seat 1 lays 14 cards (runs and a set) and throws KD: seats 0 and 2 take 100 each."""
    g = new_game("simple", 4, {1: "AS 2S 3S 4S AH 2H 3H 5D 5H 5C AC 2C 3C 4C KD"}, seed=None)
    play(g, "open AS 2S 3S 4S / AH 2H 3H / 5H 5D 5C / AC 2C 3C 4C", "discard KD")
    return g


DECL = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S"
DECLARE = "declare 4H 5H 6H / 9S TS JS / AD 2D 3D / QC QH QD 7S"
CAP_A = "KS KH KD KC QS QH QD QC 9S 9H 9D 9C TD"
CAP_B = "8S 8H 8D 8C JS JH JD JC 6S 6H 6D 6C 2C"


def indian_pool101() -> Game:
    """Three deals of pool 101; every loser pays the 80 cap; seat 0 goes over 101 after deal 2,
    seat 2 after deal 3: seat 1 wins."""
    g = new_game("indian", 3, {1: DECL, 2: CAP_A, 0: CAP_B}, indicator="7C", starter="2C",
                 stock="KH", seed=None)
    play(g, "draw", DECLARE)
    g.next_deal(build_deck("indian", 3, {2: DECL, 0: CAP_A, 1: CAP_B}, dealer=1,
                           indicator="7C", starter="2C", stock="KH"))
    play(g, "draw", DECLARE)
    g.next_deal(build_deck("indian", 3, {1: DECL, 2: CAP_A}, dealer=2, indicator="7C",
                           starter="2C", stock="KH", seats=[1, 2]))
    play(g, "draw", DECLARE)
    return g


def indian_wrong_declaration_and_drop() -> Game:
    """Points format, 3 players: seat 1 declares wrong (80), seat 2 drops after drawing (40):
    seat 0 is left and collects 120."""
    g = new_game("indian", 3, {1: "KH KS KD KC QH QS QD JH JS JD 9C TC X"},
                 options={"format": "points"}, indicator="7C", starter="2C",
                 stock="4C 8D 9D 3C", seed=None)
    play(g, "draw", "declare KS KH KD KC / QS QH QD / JS JH JD / 9C TC X",
         "draw", "discard 8D", "draw", "discard 9D", "drop")
    return g


GAMES = {
    "rummy-69": rummy_69,
    "rummy-de-mano-138": rummy_de_mano_138,
    "rummy-to-200": rummy_to_200,
    "rummy-blocked": rummy_blocked,
    "rami51-limit": rami51_to_the_limit,
    "simple-2v2": simple_2v2,
    "indian-pool101": indian_pool101,
    "indian-wrong-declaration": indian_wrong_declaration_and_drop,
}


def main() -> None:
    for name, make in GAMES.items():
        g = make()
        (HERE / f"{name}.json").write_text(json.dumps(g.record(), indent=1) + "\n")
        (HERE / f"{name}.expected.json").write_text(json.dumps(summary(g), indent=1) + "\n")


if __name__ == "__main__":
    main()
