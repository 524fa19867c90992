"""``scripts/paired_bots.py``: two versions of a bot on the same deals (docs/bots.md, *Paired
comparisons*), and the options of easy and medium it builds them with."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rummykit.bots import make_bot, observe
from rummykit.bots.base import STYLE_OPTIONS, EasyBot, MediumBot
from rummykit.engine import Game
from rummykit.errors import InvalidArgument

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "paired_bots.py"


def script() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        spec = importlib.util.spec_from_file_location("paired_bots", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPT.parent))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_a_version_against_itself_wins_the_same_deals() -> None:
    """The same bot twice: the same shuffles, seats and random draws give the same deals, so
    nothing is won by one only (a comparison that differed here would measure its dice)."""
    got = json.loads(run("--variant", "rummy", "--a", "medium", "--b", "medium", "--against",
                         "easy", "--deals", "8", "--seed", "4", "--json").stdout)
    assert (got["only_a"], got["only_b"], got["sign_test_p"]) == (0, 0, 1.0)
    assert got["a"]["won"] == got["b"]["won"] and got["a"]["deals"] == 8
    assert got["a"]["points"] == got["b"]["points"]


def test_two_levels_differ_and_the_count_adds_up() -> None:
    module = script()
    got = module.compare("simple", "easy", "medium", "easy", 12, 5, 1, {})
    # won only by a, only by b: what separates the two shares
    assert got["a"]["won"] - got["b"]["won"] == got["only_a"] - got["only_b"]
    assert got["only_a"] > 0
    assert module.report(got).splitlines()[-1].startswith(
        f"  won by one only: +{got['only_a']}/-{got['only_b']}")


def test_the_sign_test() -> None:
    sign_test = script().sign_test
    assert sign_test(0, 0) == 1.0 and sign_test(5, 5) == 1.0
    assert sign_test(10, 0) == pytest.approx(2 / 1024)
    assert sign_test(76, 64) == pytest.approx(0.352, abs=0.001)


@pytest.mark.parametrize(("args", "said"), [
    (["--a", "hard:foo=1", "--b", "medium"], "hard has no option 'foo'"),
    (["--a", "hard:samples=0", "--b", "medium"], "samples must be a whole number above 0"),
    (["--a", "hard:search=1", "--b", "medium"], "search must be True or False"),
    (["--a", "medium:drops=maybe", "--b", "medium"], "'maybe' is no value"),
    (["--a", "medium:drops=1", "--b", "medium"], "drops takes a bool"),
    (["--a", "wizard", "--b", "medium"], "unknown bot 'wizard'"),
    (["--a", "medium", "--b", "medium", "--deals", "3"], "an even number"),
    (["--a", "medium", "--b", "medium", "--rule", "bogus=1"], "no room option or house rule"),
    (["--a", "medium", "--b", "medium", "--variant", "poker"], "poker"),
])
def test_bad_arguments_give_one_line_and_status_2(args: list[str], said: str) -> None:
    out = run(*args)
    assert out.returncode == 2 and out.stdout == "", out
    assert len(out.stderr.splitlines()) == 1 and said in out.stderr, out.stderr


def test_easy_and_medium_take_their_policys_options() -> None:
    assert "drops" in STYLE_OPTIONS and "level" not in STYLE_OPTIONS
    assert MediumBot(drops=False).style.drops is False and MediumBot().style.drops is True
    assert EasyBot(take=True).style.take is True and EasyBot().style.take is False
    with pytest.raises(InvalidArgument, match="medium has no option 'level'"):
        MediumBot(level="hard")
    with pytest.raises(InvalidArgument, match="outs_weight takes a float, not str"):
        MediumBot(outs_weight="0.2")
    MediumBot(outs_weight=1)  # an int where a float goes
    # without options a level plays as make_bot's
    import random

    game = Game.new("rummy", 2, seed=9)
    obs = observe(game, game.to_move or 0)
    assert MediumBot().choose(obs, random.Random(1)) == \
        make_bot("medium").choose(obs, random.Random(1))
