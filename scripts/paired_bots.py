#!/usr/bin/env python3
"""Compare two versions of a bot on the same deals: a paired measurement.

    python scripts/paired_bots.py --variant rummy --against medium \\
        --a hard:samples=3 --b hard:samples=3,search=yes --deals 400 --seed 11 --jobs 2

Each of ``--deals`` two-player deals is played twice: once by ``--a`` and once by ``--b``,
each against ``--against``, with the same shuffle, the same seats (every shuffle is dealt
twice, the compared bot in each seat) and the same random draws of the bots. It prints each
version's share of deals won with its 95% interval and mean net points per deal, then the
deals won by one version only ("+a/-b": won only by --a / only by --b) with a two-sided sign
test, which is what tells a change from noise: most deals go the same way whoever plays them.

A bot is ``LEVEL`` or ``LEVEL:NAME=VALUE,...``. For ``easy`` and ``medium`` the names are
fields of their policy (``rummykit.bots.base.STYLE_OPTIONS``: ``medium:drops=no``,
``medium:race_outs_weight=0.05``); for ``hard`` the arguments of ``HardBot`` (``samples``,
``search``, ``feed_weight``, ``draw_weight``, ``count_open``, ``swap_race``, ``rounds``,
``budget``). Give hard
a fixed ``samples=N`` for a comparison: with a time budget its play depends on the machine's
load, and the two versions would differ for that alone. Values: yes/no for true/false, numbers
as written. ``--rule NAME=VALUE`` (repeatable) plays every deal under a room option or house
rule, as ``rummykit tournament --rule`` does. Exit status 2 with one line for bad arguments.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _checkout  # noqa: F401  (this checkout's code, not an installed copy)

from rummykit.bots import Bot, play_deal
from rummykit.bots.base import EasyBot, MediumBot
from rummykit.bots.hard import HardBot, deal_net
from rummykit.bots.tournament import mean_ci, shuffle_seed, wilson
from rummykit.cli.analyze import parse_rules
from rummykit.engine import Game
from rummykit.errors import RummyError
from rummykit.rules import make_rules


class BadSpec(ValueError):
    """A bot, a rule or a count the comparison cannot be run with."""


def _value(text: str) -> bool | int | float:
    low = text.strip().lower()
    if low in ("yes", "true", "on"):
        return True
    if low in ("no", "false", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        pass
    try:
        number = float(low)
    except ValueError:
        raise BadSpec(f"{text!r} is no value: use yes/no or a number") from None
    if not math.isfinite(number):
        raise BadSpec(f"{text!r} is no finite number")
    return number


def parse_bot(spec: str) -> tuple[str, dict[str, bool | int | float]]:
    """``"hard:samples=3,search=yes"`` -> ``("hard", {"samples": 3, "search": True})``."""
    level, _, rest = spec.partition(":")
    level = level.strip().lower()
    if level not in ("easy", "medium", "hard"):
        raise BadSpec(f"unknown bot {level!r}: choose one of easy, medium, hard")
    options: dict[str, bool | int | float] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise BadSpec(f"{item!r} in {spec!r} is not NAME=VALUE")
        options[name.strip()] = _value(value)
    make_bot_of(level, options)  # names an unknown option or a value of the wrong kind
    return level, options


def _hard_options() -> list[str]:
    return list(inspect.signature(HardBot).parameters)


def make_bot_of(level: str, options: dict[str, bool | int | float]) -> Bot:
    """The bot of a spec; a value of the wrong kind or out of range raises the library's
    ``InvalidArgument`` (easy, medium and HardBot check their own arguments)."""
    if level == "easy":
        return EasyBot(**options)
    if level == "medium":
        return MediumBot(**options)
    # HardBot's signature already refuses an unknown name, with a TypeError that lists nothing
    known = _hard_options()
    for name in options:
        if name not in known:
            raise BadSpec(f"hard has no option {name!r}: choose among {', '.join(known)}")
    return HardBot(**options)  # type: ignore[arg-type]


def play_one(task: tuple[str, dict[str, Any], int, int, int, str, dict[str, Any]]
             ) -> tuple[int, int, int, bool, float]:
    """One deal: the compared bot (``which``: 0 for --a, 1 for --b) at seat ``lineup``."""
    variant, options, seed, shuffle, lineup, which_spec, against = task
    which, spec = which_spec.split("|", 1)
    level, bot_options = parse_bot(spec)
    game = Game.new(variant, 2, options, seed=shuffle_seed(seed, shuffle))
    rival = make_bot_of(against["level"], against["options"])
    bots = [rival, rival]
    bots[lineup] = make_bot_of(level, bot_options)
    # the same random draws for both versions: a difference is the bots', not the dice's
    rng = random.Random(f"{shuffle_seed(seed, shuffle)}:{lineup}")
    if not play_deal(game, bots, rng):
        return int(which), shuffle, lineup, False, 0.0
    result = game.results[-1]
    net = deal_net(result, game.rules)[lineup]
    return int(which), shuffle, lineup, result.winner == lineup, net


def sign_test(a: int, b: int) -> float:
    """Two-sided exact binomial test of ``a`` against ``b`` at even odds."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(variant: str, against: str, a: str, b: str, deals: int, seed: int, jobs: int,
            options: dict[str, Any]) -> dict[str, Any]:
    if deals < 2 or deals % 2:
        raise BadSpec(f"--deals must be an even number from 2 (each shuffle in both seats), "
                      f"not {deals}")
    if jobs < 1:
        raise BadSpec(f"--jobs must be at least 1, not {jobs}")
    make_rules(variant, 2, options)  # names a bad variant, rule or value
    level, rival_options = parse_bot(against)
    parse_bot(a)
    parse_bot(b)
    rival = {"level": level, "options": rival_options}
    tasks = [(variant, options, seed, shuffle, lineup, f"{which}|{spec}", rival)
             for shuffle in range(deals // 2) for lineup in (0, 1)
             for which, spec in ((0, a), (1, b))]
    if jobs == 1:
        outcomes = [play_one(t) for t in tasks]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(play_one, tasks, chunksize=4))
    won: dict[tuple[int, int, int], bool] = {}
    net: dict[tuple[int, int, int], float] = {}
    for which, shuffle, lineup, win, points in outcomes:
        won[which, shuffle, lineup] = win
        net[which, shuffle, lineup] = points
    keys = [(shuffle, lineup) for shuffle in range(deals // 2) for lineup in (0, 1)]
    sides = []
    for which, spec in ((0, a), (1, b)):
        k = sum(won[which, s, seat] for s, seat in keys)
        low, high = wilson(k, deals)
        per_shuffle = [(net[which, s, 0] + net[which, s, 1]) / 2 for s in range(deals // 2)]
        mean, mlow, mhigh = mean_ci(per_shuffle)
        sides.append({"bot": spec, "won": k, "deals": deals, "share": k / deals,
                      "interval": [low, high], "points": mean,
                      "points_interval": [mlow, mhigh] if deals // 2 > 1 else None})
    only_a = sum(won[0, s, seat] and not won[1, s, seat] for s, seat in keys)
    only_b = sum(won[1, s, seat] and not won[0, s, seat] for s, seat in keys)
    return {"variant": variant, "against": against, "seed": seed, "deals": deals,
            "rules": options, "a": sides[0], "b": sides[1], "only_a": only_a,
            "only_b": only_b, "sign_test_p": sign_test(only_a, only_b)}


def report(r: dict[str, Any]) -> str:
    rules = "".join(f", {k}={v}" for k, v in r["rules"].items())
    lines = [f"{r['variant']}{rules}, against {r['against']}, {r['deals']} deals, "
             f"seed {r['seed']}"]
    for key in ("a", "b"):
        s = r[key]
        low, high = s["interval"]
        lines.append(f"  --{key} {s['bot']}: won {s['won']} of {s['deals']}, "
                     f"{100 * s['share']:.1f}% [{100 * low:.1f}, {100 * high:.1f}], "
                     f"{s['points']:+.1f} points a deal")
    lines.append(f"  won by one only: +{r['only_a']}/-{r['only_b']} "
                 f"(sign test p = {r['sign_test_p']:.3f})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", default="rummy")
    ap.add_argument("--against", default="medium", help="the rival of both (a bot spec)")
    ap.add_argument("--a", required=True, help="the first version (a bot spec)")
    ap.add_argument("--b", required=True, help="the second version (a bot spec)")
    ap.add_argument("--deals", type=int, default=400,
                    help="deals each version plays (even: each shuffle in both seats)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    try:
        options = parse_rules(args.rule, args.variant, room=True) if args.rule else {}
        result = compare(args.variant, args.against, args.a, args.b, args.deals, args.seed,
                         args.jobs, options)
    except (BadSpec, RummyError, ValueError) as exc:
        print(f"paired_bots: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
