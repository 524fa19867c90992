"""Whole games under combinations of house rules, and the bugs such games found.

A fixed handful of random combinations per variant (drawn by ``scripts/hunt_house_rules.py``,
which hunts with many more: ``python scripts/hunt_house_rules.py --games 500 --seed 3``) is
played to the game's end by random moves and by the bots, checking at every step the played
move's legality, the cards, the views' privacy, the turns left with only ``timeout`` and, at
the end, the replay of the record.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rummykit.engine import Game
from rummykit.errors import IllegalAction
from rummykit.rules import house_rule_schema
from tests.helpers import new_game, play

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import hunt_house_rules as hunt

#: One seat count per variant and a seed per game; each game draws its own house rules.
GAMES = [
    ("rummy", 2, "random", 11), ("rummy", 4, "mixed", 12), ("rummy", 6, "random", 13),
    ("rami51", 2, "medium", 21), ("rami51", 4, "random", 22),
    ("rami71", 2, "random", 31), ("rami71", 4, "medium", 32),
    ("simple", 2, "random", 41), ("simple", 4, "mixed", 42),
    ("indian", 3, "random", 51), ("indian", 5, "medium", 52), ("indian", 2, "hard", 53),
]


@pytest.mark.parametrize(("variant", "players", "mode", "seed"), GAMES)
def test_whole_games_under_random_house_rules(
    variant: str, players: int, mode: str, seed: int
) -> None:
    options = hunt.draw_options(variant, players, random.Random(seed))
    assert len(set(options) & set(house_rule_schema(variant))) >= 2
    # Raises at the first check that fails (a turn left with only timeout for no documented
    # reason included), or when the game does not end.
    hunt.play_game(variant, players, options, seed, mode)


# -- taken_card_duty off: the card just taken is kept, and cannot be the last card -----------


SEAT1 = "8S 8D 8C 2S 3S 4S TS JS QS KS 5D 6D 7D 8H 2H"
OPEN = "open 8S 8D 8C / 2S 3S 4S / TS JS QS KS / 5D 6D 7D"


def _taken_jh(options: dict[str, object] | None = None) -> Game:
    """Seat 1 has opened and holds 8H; it takes the JH seat 0 throws."""
    g = new_game("rami51", 2, {0: "JH 9H", 1: SEAT1},
                 options={"taken_card_duty": False, **(options or {})})
    play(g, OPEN, "discard 2H", "draw", "discard JH", "take")
    return g


def test_without_the_duty_laying_all_but_the_taken_card_is_refused() -> None:
    """Laying off 8H left only the JH just taken, which may not be thrown this turn: the
    player had nothing but the clock's ``timeout`` left."""
    g = _taken_jh()
    assert g.view(1)["hand"] == ["8H", "JH"]
    before = g.record()
    with pytest.raises(IllegalAction, match="only the JH you took from the pile"):
        g.apply("layoff 1 8H")
    assert g.record() == before
    assert [str(a) for a in g.legal_actions()] == ["discard 8H", "timeout"]
    assert g.view(1)["turn"]["can"] == ["discard"]


def test_without_the_duty_the_taken_card_itself_may_still_be_laid() -> None:
    g = new_game("rami51", 2, {0: "8H 9H", 1: SEAT1.replace("8H", "QH")},
                 options={"taken_card_duty": False})
    play(g, OPEN, "discard 2H", "draw", "discard 8H", "take")
    assert sorted(g.view(1)["hand"]) == ["8H", "QH"]
    assert "discard 8H" not in [str(a) for a in g.legal_actions()]
    play(g, "layoff 1 8H", "discard QH")
    assert g.phase == "deal-over" and g.results[-1].winner == 1


def test_when_the_taken_card_may_be_thrown_it_may_be_the_last_card() -> None:
    g = _taken_jh({"discard_taken": True})
    g.apply("layoff 1 8H")
    g.apply("discard JH")
    assert g.results[-1].winner == 1
