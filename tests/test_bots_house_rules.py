"""The bots read the table's house rules: what a lost Indian deal costs (``loser_melds``,
the cap, the drop's cost) and ``simple``'s clean run."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from rummykit.bots.base import make_bot
from rummykit.bots.draws import SIMPLE_CLEAN_DRAWS, SIMPLE_DRAWS, draws_needed
from rummykit.bots.observation import observe
from rummykit.bots.policy import MEDIUM, Style, _draws_rule, lost_deal_cost, should_drop
from rummykit.cards import parse_cards
from rummykit.engine.game import Game
from rummykit.engine.indian import loser_penalty
from rummykit.melds import MeldRules
from tests.helpers import new_game

# Seat 1 plays first. No sequence, hardly a partial, tens wild and none held: medium drops it.
HOPELESS = "KH 9S 6D 3D KS KC AS 6D 8H 5C QH 2C JD"
# A pure sequence (30 points) and ten loose cards, 88 points in all; tens wild, none held.
ONE_PURE = "QH KH AH 2S 5S 8S JS 3D 6D 9D 4C 7C 4D"


def _game(hand: str, options: dict[str, Any] | None = None) -> Game:
    return new_game("indian", 2, {1: hand}, indicator="TS", options=options)


@pytest.mark.parametrize(
    ("options", "drops"),
    [
        (None, True),
        ({"loser_melds": "all_cards"}, True),
        ({"cap": 20}, False),  # losing costs no more than the drop
        ({"first_drop": 80}, False),
        ({"first_drop": 79}, True),
    ],
)
def test_medium_drops_only_when_losing_costs_more(
    options: dict[str, Any] | None, drops: bool
) -> None:
    g = _game(HOPELESS, options)
    obs = observe(g, 1)
    assert obs.rules.first_drop == (options or {}).get("first_drop", 20)
    for level in ("medium", "hard"):
        move = make_bot(level, 0.05).choose(obs, random.Random(1))
        assert (move == "drop") is drops, (level, options, move)


def test_the_drop_reads_loser_melds() -> None:
    # With a drop of 60, only the count that lets the pure sequence save its cards makes
    # losing cheaper than dropping (the looser threshold of a style not racing lets this
    # hand be judged at all).
    style = replace(MEDIUM, race=False, live=None)
    counted = {}
    for rule in ("two_sequences", "pure_sequence", "all_cards"):
        g = _game(ONE_PURE, {"loser_melds": rule, "first_drop": 60})
        counted[rule] = lost_deal_cost(g.deal.hands[1], g.deal.meld_rules, g.rules)
        assert should_drop(g, style) is (rule != "pure_sequence"), rule
    assert counted == {"two_sequences": 80, "pure_sequence": 58, "all_cards": 80}


def test_lost_deal_cost_is_the_engines() -> None:
    mr = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=10)
    hand = parse_cards("4H 5H 6H 9S TS JS QC QH QD KS KH 2C 3D")
    got = {}
    for rule, cap in (("two_sequences", 80), ("all_cards", 80), ("all_cards", 50)):
        rules = _game(HOPELESS, {"loser_melds": rule, "cap": cap}).rules
        got[rule, cap] = lost_deal_cost(hand, mr, rules)
        assert got[rule, cap] == min(cap, loser_penalty(hand, mr, rules.loser_melds))
    assert got[("two_sequences", 80)] < 50 < got[("all_cards", 80)]
    assert got[("all_cards", 50)] == 50


def test_simple_clean_run_and_set_needs_a_pure_run() -> None:
    g = new_game("simple", 2, {}, options={"clean_run_and_set": True})
    assert _draws_rule(g) == SIMPLE_CLEAN_DRAWS
    assert _draws_rule(new_game("simple", 2, {})) == SIMPLE_DRAWS
    mr = MeldRules(min_real=2, adjacent_jokers=False)
    hand = parse_cards("2S 3S X 9H 9D 9C KS KH KD 6C 7C X QH")  # every run holds a joker
    assert draws_needed(hand, mr, SIMPLE_DRAWS, spare=1)[0] == 0
    assert draws_needed(hand, mr, SIMPLE_CLEAN_DRAWS, spare=1)[0] == 1
    assert Style().draws is False  # the draws judgement is medium's and hard's
