"""``HardBot(...)`` checks its own arguments: a bad one raises ``InvalidArgument`` naming it
(docs/bots.md, *The levels*), where it used to be kept and fail moves later, deep inside a
decision, or not at all."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import make_bot, observe
from rummykit.bots.hard import DRAW_WEIGHT, FEED_WEIGHT, HardBot
from rummykit.engine import Game
from rummykit.errors import InvalidArgument


@pytest.mark.parametrize(("name", "value", "said"), [
    ("budget", 0, "above 0"),
    ("budget", -1.0, "above 0"),
    ("budget", float("inf"), "above 0"),
    ("budget", float("nan"), "above 0"),
    ("budget", 10**400, "above 0"),  # no float holds it
    ("budget", "1", "not str '1'"),
    ("budget", None, "not NoneType None"),
    ("budget", True, "not bool True"),
    ("rounds", 0, "whole number above 0"),
    ("rounds", -2, "whole number above 0"),
    ("rounds", 2.0, "not float 2.0"),
    ("rounds", True, "not bool True"),
    ("samples", 0, "whole number above 0"),
    ("samples", 1.5, "not float 1.5"),
    ("samples", "3", "not str '3'"),
    ("samples", True, "not bool True"),
    ("feed_weight", -0.5, "0 or more"),
    ("feed_weight", float("inf"), "0 or more"),
    ("feed_weight", "25", "not str '25'"),
    ("feed_weight", False, "not bool False"),
    ("feed_weight", None, "not NoneType None"),
    ("draw_weight", -1, "0 or more"),
    ("draw_weight", float("nan"), "0 or more"),
    ("draw_weight", [2.0], "not list [2.0]"),
    ("draw_weight", True, "not bool True"),
    ("search", 1, "True or False"),
    ("search", "yes", "True or False"),
    ("search", None, "True or False"),
    ("count_open", 0, "True or False"),
    ("count_open", "no", "True or False"),
])
def test_a_bad_argument_is_refused_naming_it(name: str, value: object, said: str) -> None:
    with pytest.raises(InvalidArgument, match=f"HardBot's {name} must be") as got:
        HardBot(**{name: value})  # type: ignore[arg-type]
    assert said in str(got.value)


@pytest.mark.parametrize("options", [
    {},
    {"feed_weight": 0, "draw_weight": 0},  # 0 leaves an estimate out: a version to compare
    {"feed_weight": 0.0, "draw_weight": 0.0},
    {"budget": 2, "rounds": 1, "samples": 1},  # whole numbers where floats go
    {"budget": 0.01, "samples": None, "search": True, "count_open": False},
    {"feed_weight": 40, "draw_weight": 3.5, "rounds": 10, "samples": 50},
])
def test_good_arguments_are_kept(options: dict[str, object]) -> None:
    bot = HardBot(**options)  # type: ignore[arg-type]
    expected = {"budget": 1.0, "rounds": 3, "samples": None, "feed_weight": FEED_WEIGHT,
                "search": False, "draw_weight": DRAW_WEIGHT, "count_open": True, **options}
    for name, value in expected.items():
        assert getattr(bot, name) == value, name
    assert type(bot.budget) is float and type(bot.feed_weight) is float


def test_a_bot_without_the_estimates_still_plays() -> None:
    # weights of 0 skip the feeding and draw estimates: a decision must still be made
    game = Game.new("rummy", 2, seed=3)
    bot = HardBot(samples=1, feed_weight=0, draw_weight=0)
    for _ in range(12):
        seat = game.to_move
        assert seat is not None
        act = bot.choose(observe(game, seat), random.Random(seat))
        assert game.is_legal(act)
        game.apply(act)


def test_make_bot_still_builds_hard() -> None:
    assert make_bot("hard").budget == 1.0
    assert make_bot("hard", 0.25).budget == 0.25
    with pytest.raises(InvalidArgument, match="budget"):
        make_bot("hard", 0)


def test_the_doc_lists_the_arguments_with_their_defaults() -> None:
    import inspect
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text()
    block = re.search(r"```python\n(HardBot\(.*?\))\n```", text, re.S)
    assert block is not None
    documented = " ".join(block.group(1).split())
    params = inspect.signature(HardBot).parameters.values()
    actual = "HardBot(" + ", ".join(f"{p.name}={p.default!r}" for p in params) + ")"
    assert documented == actual
    for p in params:
        assert f"`{p.name}`:" in text, p.name
