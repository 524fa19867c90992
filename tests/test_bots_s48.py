"""hard's joker swaps in the variants that lay as they go: which joker to free, and where a
freed joker goes, judged by the hand left (``HardBot(swap_race=True)``, the default)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit.bots import make_bot, observe, play_deal
from rummykit.bots.base import MediumBot
from rummykit.bots.hard import HardBot, lay_value
from rummykit.bots.observation import Observation
from rummykit.bots.policy import MEDIUM
from rummykit.bots.world import build_world
from rummykit.engine import Game
from rummykit.engine.actions import Action, parse_action
from rummykit.errors import InvalidArgument

POSITIONS = Path(__file__).parent / "positions"


def _position() -> Game:
    # rummy, 2 players (seed 12, shuffle 96 of the paired measurement): seat 0 has opened
    # and has just swapped JD for the joker of JS JC X; the freed joker must be laid this turn.
    return Game.from_record((POSITIONS / "rummy-freed-joker-race.json").read_text())


def test_the_position() -> None:
    g = _position()
    assert g.to_move == 0 and g.deal.freed == 1
    assert sorted(g.view(0)["hand"]) == sorted(["6S", "AH", "6H", "TC", "3H", "AC", "X"])


def test_the_freed_joker_finishes_the_pair_that_leaves_the_better_hand() -> None:
    g = _position()
    obs = observe(g, 0)
    # medium (and hard without the option) melds the joker into its least-points
    # arrangement, the aces; the race keeps the aces, whose partner 3H waits for 2H, and
    # finishes the sixes.
    assert MediumBot().choose(obs, random.Random(1)) == "meld AH AC X"
    assert HardBot(samples=3, swap_race=False).choose(obs, random.Random(1)) == "meld AH AC X"
    for seed in range(3):  # whatever hidden cards the bot's sampled world deals
        move = HardBot(samples=3).choose(observe(g, 0), random.Random(seed))
        assert move == "meld 6S 6H X"
        assert g.is_legal(move)
    # It reads the seat's view alone: the same move from the view and the history.
    view_obs = Observation.from_view(g.view(0), g.history())
    assert HardBot(samples=3).choose(view_obs, random.Random(5)) == "meld 6S 6H X"


def test_lay_value_ranks_by_the_hand_left_and_leaves_the_world_alone() -> None:
    g = _position()
    obs = observe(g, 0)
    world = build_world(obs, random.Random(0))
    before = (list(world.deal.hands[0]), [tm.meld.cards for tm in world.deal.table])
    aces = lay_value(world, _act(world, "meld AH AC X"), MEDIUM)
    sixes = lay_value(world, _act(world, "meld 6S 6H X"), MEDIUM)
    assert sixes < aces
    assert (list(world.deal.hands[0]), [tm.meld.cards for tm in world.deal.table]) == before


def _act(world: Game, text: str) -> Action:
    act = parse_action(text)
    assert world.is_legal(act)
    return act


def test_the_option_is_checked() -> None:
    assert HardBot().swap_race is True
    with pytest.raises(InvalidArgument, match="swap_race must be True or False"):
        HardBot(swap_race="yes")  # type: ignore[arg-type]


def test_hard_still_plays_whole_deals_legally_against_medium() -> None:
    fallbacks: list[object] = []
    for lineup in (0, 1):
        g = Game.new("rummy", 2, seed=7)
        bots = [make_bot("medium"), make_bot("medium")]
        bots[lineup] = HardBot(samples=1)
        assert play_deal(g, bots, random.Random(lineup),
                         on_fallback=lambda seat, rep: fallbacks.append((seat, rep)))
        assert g.results[-1].winner is not None
    assert fallbacks == []
