"""Every level plays legal moves to the end of the deal in every variant, and a bot that
raises, answers nonsense or overruns its time never breaks a game."""

from __future__ import annotations

import logging
import pickle
import random
import time

import pytest

from rummykit.bots import (
    LEVELS,
    Bot,
    TurnReport,
    UnknownBot,
    choose_action,
    make_bot,
    observe,
    play_deal,
    play_turn,
)
from rummykit.bots.hard import HardBot
from rummykit.bots.observation import Observation
from rummykit.engine import Game
from rummykit.errors import RummyError

TABLES = [("rummy", 2), ("rummy", 4), ("rami51", 2), ("rami51", 4), ("rami71", 2),
          ("rami71", 4), ("simple", 2), ("simple", 4), ("indian", 2), ("indian", 5)]


def _lineup(players: int, shift: int) -> list[Bot]:
    levels = ["easy", "medium", "hard"]
    return [
        HardBot(budget=0.02) if levels[(s + shift) % 3] == "hard"
        else make_bot(levels[(s + shift) % 3])
        for s in range(players)
    ]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_every_level_plays_legal_moves_to_the_end(variant: str, players: int) -> None:
    fallbacks: list[tuple[int, TurnReport]] = []
    for shift in range(2 if players > 2 else 3):
        g = Game.new(variant, players, seed=1000 + shift)
        play_deal(g, _lineup(players, shift), random.Random(shift),
                  on_fallback=lambda s, r: fallbacks.append((s, r)))
        assert g.to_move is None
        assert g.results, "the deal was scored"
        # On a loaded machine a move may overrun its time; it must never be illegal or fail.
        assert [r for _, r in fallbacks if not (r.fallback or "").startswith("took")] == []


@pytest.mark.parametrize("variant", ["rummy", "rami51", "rami71", "simple", "indian"])
def test_many_medium_deals_are_legal(variant: str) -> None:
    """Each action the policy picks is legal on the real game (play_turn would fall back
    otherwise): many short deals of medium against easy."""
    falls: list[TurnReport] = []
    for i in range(4):
        g = Game.new(variant, 2, seed=i)
        bots = [make_bot("medium"), make_bot("easy")][:: 1 if i % 2 else -1]
        play_deal(g, bots, random.Random(i), on_fallback=lambda s, r: falls.append(r))
        assert [r for r in falls if not (r.fallback or "").startswith("took")] == []


class Raising:
    name = "raising"
    budget = None

    def choose(self, obs: Observation, rng: random.Random) -> str:
        raise RuntimeError("boom")


class Illegal:
    name = "illegal"
    budget = None

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def choose(self, obs: Observation, rng: random.Random) -> str:
        return self.answer


class Slow:
    name = "slow"
    budget = 0.01

    def choose(self, obs: Observation, rng: random.Random) -> str:
        start = time.thread_time()
        while time.thread_time() - start < 0.2:  # processor time: sleeping would not count
            pass
        return "draw" if obs.phase == "draw" else "discard " + obs.view["hand"][0]


@pytest.mark.parametrize(
    "bot", [Raising(), Illegal("discard ZZ"), Illegal("open 2S 3S 4S"), Illegal("timeout"),
            Illegal("declare 2S"), Slow()],
    ids=["raises", "nonsense", "illegal", "timeout", "declare", "slow"],
)
def test_fallback_to_the_medium_move(bot: object, caplog: pytest.LogCaptureFixture) -> None:
    g = Game.new("rummy", 2, seed=4)
    seen: list[TurnReport] = []
    with caplog.at_level(logging.WARNING, logger="rummykit.bots"):
        for _ in range(4):
            seat = g.to_move
            assert seat is not None
            before = g.view(seat), g.history()
            expected = choose_action(before[0], before[1], "medium", seed=0)
            rep = play_turn(g, seat, bot, random.Random(0),  # type: ignore[arg-type]
                            limit=0.1 if isinstance(bot, Slow) else None,
                            on_fallback=seen.append)
            assert rep.fallback is not None
            assert rep.action == expected
    assert len(seen) == 4
    assert "played the medium move" in caplog.text
    assert g.to_move is not None  # the game goes on


def test_whole_deal_with_a_broken_bot_ends_normally() -> None:
    g = Game.new("rami51", 2, seed=2)
    falls: list[object] = []
    play_deal(g, [Raising(), make_bot("easy")], random.Random(1),  # type: ignore[list-item]
              on_fallback=lambda s, r: falls.append(r))
    assert g.results and falls


def test_play_turn_refuses_the_wrong_seat() -> None:
    g = Game.new("rummy", 2, seed=4)
    other = 1 - (g.to_move or 0)
    with pytest.raises(RummyError):
        play_turn(g, other, make_bot("easy"))


def test_choose_action_is_a_pure_function_of_picklable_arguments() -> None:
    g = Game.new("rummy", 3, seed=9)
    for _ in range(10):
        seat = g.to_move
        assert seat is not None
        view, history = g.view(seat), g.history()
        view2, history2 = pickle.loads(pickle.dumps((view, history)))
        for level in ("easy", "medium"):
            a = choose_action(view2, history2, level, seed=3)
            assert a == choose_action(view, history, level, seed=3)
            assert a == choose_action(view, history, level, random.Random(3))
            assert g.is_legal(a)
        hard = choose_action(view, history, "hard", seed=3, budget=0.05)
        assert g.is_legal(hard) and hard != "timeout"
        g.apply(choose_action(view, history, "medium", seed=3))


def test_unknown_level_lists_the_levels() -> None:
    g = Game.new("rummy", 2, seed=1)
    with pytest.raises(UnknownBot, match="easy, medium, hard"):
        choose_action(g.view(1), g.history(), "grandmaster")
    assert LEVELS == ("easy", "medium", "hard")
    with pytest.raises(RummyError):
        Observation.from_view(g.public_view(), g.history())


class FakeClock:
    """hard's clock: each reading moves it on by ``step`` seconds, so that the time its
    decisions take depends only on the work they do, never on the machine's load."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("search", [False, True])
def test_hard_respects_its_budget(search: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision stops within the budget by hard's own clock, and a bigger budget buys
    more samples. (The decision times a machine gives are measured by
    scripts/bench_bots.py, not here: a test timed by the wall clock fails on a busy machine.)"""
    samples = {}
    for budget in (0.05, 0.5):
        clock = FakeClock(0.002)
        monkeypatch.setattr("rummykit.bots.hard.time", clock)
        g = Game.new("rummy", 2, seed=21)
        bot = HardBot(budget=budget, search=search)
        medium = make_bot("medium")
        rng = random.Random(0)
        took: list[float] = []
        samples[budget] = 0
        while g.to_move is not None and len(g.deal.actions) < 60:
            seat = g.to_move
            if seat == 0:
                start = clock.now
                act = bot.choose(observe(g, seat), rng)
                took.append(clock.now - start)
                samples[budget] += bot.last_samples
            else:
                act = medium.choose(observe(g, seat), rng)
            g.apply(act)
        assert len(took) > 20 and max(took) <= budget
    if search:
        assert samples[0.5] > samples[0.05]


def test_choose_action_needs_the_seat_to_move() -> None:
    g = Game.new("rummy", 2, seed=1)
    other = 1 - (g.to_move or 0)
    with pytest.raises(RummyError, match="turn"):
        choose_action(g.view(other), g.history(), "medium")
