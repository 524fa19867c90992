"""Audit the ruleset fields that a house rule sets by name beyond what a room offers.

``make_rules`` takes any ruleset field by name (``options={"hand_size": 10}``), not only the
room options and offered house rules a room shows. For every variant and seat count this sets
each such field alone (then random pairs) to edge values of its type, and checks that the
ruleset is either refused with a ``RummyError`` (by ``make_rules`` and ``Game.new`` alike, with
a reason) or plays: random legal moves, some of them ``timeout``, for up to ``--steps`` steps
(``--whole``: to the game's end, with every check of ``scripts/hunt_house_rules.py`` and its
caps), with at each step every seat's view and the legal actions built without an error, the
cards conserved, and at the end the record replaying to the same views. An exception other than
a ``RummyError`` anywhere is a failure.

    python scripts/hunt_fields.py                  # every single field, then 200 pairs
    python scripts/hunt_fields.py --no-singles --pairs 100 --whole --seed 3
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import random
import sys
import time
import traceback
from collections.abc import Iterator
from typing import Any, get_args, get_type_hints

import _checkout  # noqa: F401  (this checkout's rummykit first)
import hunt_house_rules as hunt

from rummykit.engine import Game
from rummykit.errors import RummyError
from rummykit.rules import (
    VARIANTS,
    Ruleset,
    house_rule_schema,
    make_rules,
    option_schema,
    players_allowed,
)

#: Fields no option sets: what the table is, not how it plays.
_NOT_RULES = ("variant", "players", "house")
#: Probability of a ``timeout`` instead of a chosen move (the automatic play is a move too).
TIMEOUTS = 0.05


def extra_fields(variant: str) -> list[str]:
    """The ruleset fields that neither a room option nor an offered house rule sets."""
    offered = set(house_rule_schema(variant))
    offered |= _option_fields(variant)
    return [f.name for f in dataclasses.fields(Ruleset)
            if f.name not in offered and f.name not in _NOT_RULES]


def _option_fields(variant: str) -> set[str]:
    """Ruleset fields set by the variant's room options (by their field name)."""
    base = make_rules(variant, players_allowed(variant)[0])
    fields: set[str] = set()
    for name, spec in option_schema(variant).items():
        others = [v for v in spec["values"] if v != spec["default"]] if isinstance(
            spec["values"], list) else []
        if not others:
            continue
        changed = make_rules(variant, players_allowed(variant)[0], {name: others[0]})
        fields |= {f.name for f in dataclasses.fields(Ruleset)
                   if getattr(changed, f.name) != getattr(base, f.name)}
    return fields


def edge_values(variant: str, players: int, name: str) -> list[Any]:
    """Values of the field's type other than the variant's own: the other choices, the other
    truth value, or whole numbers around the default and at the edges (negative and large)."""
    rules = make_rules(variant, players)
    default = getattr(rules, name)
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, str):
        return [v for v in get_args(get_type_hints(Ruleset)[name]) if v != default]
    values = {-1, 0, 1, 3, default - 1, default + 1, 2 * default + 7}
    return sorted(v for v in values if v != default)


@dataclasses.dataclass(frozen=True)
class Case:
    seed: int
    variant: str
    players: int
    options: dict[str, Any]

    def command(self) -> str:
        return (f"python scripts/hunt_fields.py --replay {self.seed} {self.variant} "
                f"{self.players} '{json.dumps(self.options, sort_keys=True)}'")


def singles(seed: int, variants: list[str]) -> Iterator[Case]:
    """Every extra field alone at every edge value, at every seat count."""
    for variant in variants:
        for players in players_allowed(variant):
            for name in extra_fields(variant):
                for value in edge_values(variant, players, name):
                    yield Case(seed, variant, players, {name: value})


def accepted_values(variant: str, players: int) -> dict[str, list[Any]]:
    """The edge values of each extra field that ``make_rules`` takes alone."""
    out = {}
    for name in extra_fields(variant):
        good = [v for v in edge_values(variant, players, name)
                if _accepted(variant, players, {name: v})]
        if good:
            out[name] = good
    return out


def pairs(count: int, seed: int, variants: list[str]) -> Iterator[Case]:
    """``count`` random pairs of extra fields that some edge value of theirs is accepted
    for, mostly at such values (refused singles would only make refused pairs)."""
    rng = random.Random(seed)
    combos = [(v, p) for v in variants for p in players_allowed(v)]
    for _ in range(count):
        variant, players = rng.choice(combos)
        good = accepted_values(variant, players)
        options = {}
        for name in rng.sample(sorted(good), 2):
            pool = good[name] if rng.random() < 0.9 else edge_values(variant, players, name)
            options[name] = rng.choice(pool)
        yield Case(rng.randrange(2**31), variant, players, options)


def _accepted(variant: str, players: int, options: dict[str, Any]) -> bool:
    try:
        make_rules(variant, players, options)
    except RummyError:
        return False
    return True


class Refused(Exception):
    """The ruleset was refused with a reason (the expected outcome of many cases)."""


def create(case: Case) -> Game:
    """The game of a case; :class:`Refused` when ``make_rules`` and ``Game.new`` both refuse
    it with a ``RummyError``, a failure when they disagree."""
    try:
        make_rules(case.variant, case.players, case.options)
    except RummyError as exc:
        try:
            Game.new(case.variant, case.players, case.options, seed=case.seed)
        except RummyError:
            raise Refused(str(exc)) from None
        raise hunt.Finding("make_rules refuses what Game.new accepts") from None
    return Game.new(case.variant, case.players, case.options, seed=case.seed)


def play_capped(case: Case, steps: int) -> int:
    """Random legal moves (some ``timeout``) for up to ``steps`` steps, every deal; returns the
    steps played."""
    g = create(case)
    rng = random.Random(f"{case.seed}:moves")
    hunt.check_cards(g)
    played = 0
    while not g.over and played < steps:
        if g.phase == "deal-over":
            g.next_deal()
            hunt.check_cards(g)
            continue
        for s in range(g.players):
            g.view(s)
        g.public_view()
        legal = g.legal_actions()
        hunt.expect(bool(legal), f"no legal action in phase {g.phase}")
        timeouts = [a for a in legal if a.verb == "timeout"]
        act = (timeouts[0] if timeouts and rng.random() < TIMEOUTS
               else hunt.random_move(legal, rng))
        hunt.expect(g.is_legal(act), f"{act} is listed but is_legal says no")
        g.apply(act)
        played += 1
        hunt.check_cards(g)
    hunt.check_replay(g)
    return played


def run(case: Case, steps: int, whole: bool) -> str:
    """``ok``, ``refused: reason``, or raises the failure."""
    try:
        if whole:
            create(case)
            hunt.play_game(case.variant, case.players, case.options, case.seed, "random")
        else:
            play_capped(case, steps)
    except Refused as exc:
        return f"refused: {exc}"
    return "ok"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--steps", type=int, default=300, help="steps per game (without --whole)")
    ap.add_argument("--whole", action="store_true", help="play every game to its end")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--no-singles", action="store_true", help="random pairs only")
    ap.add_argument("--quiet", action="store_true", help="print failures only")
    ap.add_argument("--replay", nargs=4, metavar=("SEED", "VARIANT", "PLAYERS", "JSON"))
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    if args.replay:
        s, v, p, o = args.replay
        todo: Iterator[Case] = iter([Case(int(s), v, int(p), json.loads(o))])
    else:
        first = iter(()) if args.no_singles else singles(args.seed, variants)
        todo = itertools.chain(first, pairs(args.pairs, args.seed, variants))
    start = time.process_time()
    counts = {"ok": 0, "refused": 0, "failed": 0}
    failures: list[tuple[Case, str]] = []
    for case in todo:
        try:
            outcome = run(case, args.steps, args.whole)
        except Exception as exc:
            where = "" if isinstance(exc, hunt.Finding) else traceback.format_exc(limit=-3)
            failures.append((case, f"{type(exc).__name__}: {exc}\n{where}".rstrip()))
            counts["failed"] += 1
            print(f"FAIL {case.variant} {case.players} {case.options}: {exc!r}\n  "
                  f"{case.command()}", flush=True)
            continue
        counts[outcome.split(":")[0]] += 1
        if not args.quiet:
            print(f"{case.variant} {case.players} {json.dumps(case.options)}: {outcome}",
                  flush=True)
    spent = time.process_time() - start
    print(f"{sum(counts.values())} rulesets in {spent:.0f} s of processor time: "
          f"{counts['ok']} played, {counts['refused']} refused, {counts['failed']} failed")
    for case, what in failures:
        print(f"\n{case.variant} players={case.players} seed={case.seed} "
              f"options={json.dumps(case.options, sort_keys=True)}\n{what}\n  {case.command()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
