"""``rummykit check MELD --variant V [--json]``: is it a meld, of what kind, worth what."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rummykit.analysis import analysis_rules
from rummykit.cards import parse_cards
from rummykit.cli.analyze import parse_rules, parse_wild
from rummykit.cli.output import console, input_lines, pretty, print_json
from rummykit.errors import RummyError
from rummykit.melds import MeldRules, make_meld
from rummykit.rules import VARIANTS, make_rules, players_allowed


def add_parser(sub: Any) -> None:
    p = sub.add_parser("check", help="check whether cards form a meld")
    # One quoted argument or several, as for analyze: `check 7S 7H X` is one meld too.
    p.add_argument("meld", nargs="+", metavar="MELD",
                   help="cards like '7S 7H X', or - to read one meld a line from stdin")
    p.add_argument("--variant", default="rummy", help=f"one of {', '.join(VARIANTS)} (%(default)s)")
    p.add_argument("--wild", default=None,
                   help="Indian rummy: the wild rank (A 2-9 T J Q K or 1-13; X for a "
                        "printed-joker indicator: aces), as for analyze")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a room option or house rule of the variant, as for analyze, e.g. "
                        "min_real=1 or jokers_zero=yes (repeatable; see docs/rules.md)")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.set_defaults(run=run)


def meld_rules(variant: str, wild: str | None,
               options: dict[str, Any] | None = None) -> tuple[MeldRules, bool]:
    rules = make_rules(variant, players_allowed(variant)[0], options)
    wild_rank = 0
    if wild is not None:
        if variant != "indian":
            raise RummyError("--wild belongs to Indian rummy")
        wild_rank = parse_wild(wild)
    mr = rules.meld_rules
    return MeldRules(mr.min_real, mr.adjacent_jokers, mr.max_set, mr.max_run, wild_rank), \
        rules.jokers_zero


def check_one(text: str, rules: MeldRules, jokers_zero: bool,
              pure: bool = False) -> dict[str, Any]:
    """The answer for one meld, with whether it is pure when ``pure`` (Indian rummy); bad
    notation raises (it is not a question about melds)."""
    cards = parse_cards(text)
    try:
        meld = make_meld(cards, rules)
    except RummyError as exc:
        return {"valid": False, "reason": str(exc)}
    out: dict[str, Any] = {"valid": True, "kind": meld.kind, "points": meld.value(jokers_zero)}
    if pure:
        out["pure"] = meld.pure
    return out


def run(args: argparse.Namespace) -> int:
    make_rules(args.variant)  # an unknown variant is said as such, before its rules
    # The house rules that make melds (min_real, adjacent_jokers, jokers_zero...) change the
    # answer as they change analyze's: without them the two disagreed on the same cards.
    options = parse_rules(args.rule, args.variant)
    # Accepted exactly as analyze accepts them (its "opening" takes any minimum, a room's
    # only its choices); the opening minimum makes no meld, so it goes no further.
    analysis_rules(args.variant, options)
    options.pop("opening", None)
    rules, jokers_zero = meld_rules(args.variant, args.wild, options)
    indian = args.variant == "indian"
    meld = " ".join(args.meld)
    if meld.strip() == "-":
        worst = 0
        for number, (line, fault) in enumerate(input_lines(sys.stdin), 1):
            if not line.strip():
                continue
            try:
                if fault is not None:
                    raise RummyError(f"line {number} is {fault}")
                answer = check_one(line, rules, jokers_zero, indian)
            except RummyError as exc:
                if args.json:
                    print_json({"error": str(exc), "line": line.strip()})
                else:
                    print(f"bad line {line.strip()!r}: {exc}", file=sys.stderr)
                worst = 2
                continue
            print_json(answer) if args.json else _say(line.strip(), answer)
            worst = max(worst, 0 if answer["valid"] else 1)
        return worst
    answer = check_one(meld, rules, jokers_zero, indian)
    if args.json:
        print_json(answer)
    else:
        _say(meld, answer)
    return 0 if answer["valid"] else 1


def _say(text: str, answer: dict[str, Any]) -> None:
    out = console()
    if answer["valid"]:
        shown = pretty(text)
        # Indian rummy's answer says whether the meld is pure, as the JSON does: a hand
        # declares only with a pure sequence.
        said = answer.get("pure")
        pure = "" if said is None else "pure " if said else "impure "
        out.print(f"{shown}: a valid {pure}{answer['kind']}, worth {answer['points']}")
    else:
        out.print(f"[bold]not a meld[/bold]: {answer['reason']}")
