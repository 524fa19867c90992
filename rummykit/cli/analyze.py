"""``rummykit analyze HAND --variant V [--json] [--opening N] [--must-include C] [--wild R]
[--rule NAME=VALUE ...]``.

``HAND`` is the cards (one quoted argument or several); ``-`` reads one hand a line from
standard input and answers one JSON line each: a bad line answers ``{"error": ...}`` for that
line and the batch goes on; the exit status is then 2. Blank lines are skipped. ``--rule``
sets a room option or house rule of the variant (checked once, before any hand is read).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rummykit.analysis import VARIANTS, Analysis, analysis_rules, analyze, answer_rules
from rummykit.cards import RANK_CHARS, Card, pretty_cards
from rummykit.cli.main import one_line
from rummykit.cli.output import input_lines
from rummykit.errors import RummyError
from rummykit.melds import Meld
from rummykit.rules import Ruleset, house_rule_schema, make_rules, option_schema


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``analyze`` subcommand to an argparse ``subparsers`` object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help="best opening, least penalty and (indian) declaration of a hand",
        description=(
            "Analyse a hand: the best opening it can lay, the least penalty it can be left "
            "with and, in indian, whether it can declare. HAND is cards like 'KS KH KD 5H'; "
            "'-' reads one hand a line from standard input and answers one JSON line each."
        ),
    )
    p.add_argument("hand", nargs="+", metavar="HAND", help="the cards, or - for standard input")
    p.add_argument("--variant", default="rummy", help=f"one of {', '.join(VARIANTS)} (%(default)s)")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.add_argument("--opening", type=int, metavar="N", help="opening minimum (default: variant's)")
    p.add_argument(
        "--must-include", metavar="C", help="the card taken from the pile: it must be laid"
    )
    p.add_argument(
        "--wild",
        metavar="R",
        help="indian wild rank: A 2-9 T J Q K (or 1-13; X for a printed-joker indicator: aces)",
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=(
            "a room option or house rule of the variant, e.g. jokers_zero=yes or "
            "loser_melds=all_cards (repeatable; see docs/rules.md)"
        ),
    )
    p.set_defaults(run=run)
    return p


_YES = ("yes", "true", "on", "1")
_NO = ("no", "false", "off", "0")


def _rule_default(variant: str, name: str) -> Any:
    """The default of a room option or ruleset field of ``variant`` (its value's type is the
    one ``--rule`` parses), or None when the variant has no rule of that name."""
    schema = option_schema(variant).get(name)
    if schema is not None:
        return schema["default"]
    if name == "opening":
        return make_rules(variant).opening_minimum
    if name in Ruleset.__dataclass_fields__ and name not in ("variant", "players", "house"):
        return getattr(make_rules(variant), name)
    return None


def parse_rules(texts: list[str], variant: str, *, room: bool = False) -> dict[str, Any]:
    """The options of ``--rule NAME=VALUE`` arguments, each value read as its rule's type
    (yes/no, a whole number or a word); :class:`RummyError` names what is wrong.

    ``room``: the rules a game is created with (a tournament plays games), where
    ``opening`` is no other name of the opening minimum as it is for an analysis."""
    out: dict[str, Any] = {}
    for text in texts:
        name, eq, raw = text.partition("=")
        name, raw = name.strip(), raw.strip()
        if not eq or not name or not raw:
            raise RummyError(f"--rule takes NAME=VALUE, not {text!r}")
        default = _rule_default(variant, name)
        if room and name == "opening" and name not in option_schema(variant):
            default = None  # another name of the minimum for an analysis, no room's option
        if room and default is None:
            known = [*option_schema(variant), *house_rule_schema(variant)]
            raise RummyError(
                f"{variant} has no room option or house rule {name!r}: choose among "
                f"{', '.join(known)} (see docs/rules.md)"
            )
        if default is None:
            changing = ", ".join(answer_rules(variant))
            raise RummyError(
                f"{variant} has no rule {name!r}: the rules that change the analysis are "
                f"{changing}; any other room option or house rule of docs/rules.md is accepted"
            )
        if name in out:
            raise RummyError(f"rule {name!r} is given twice")
        value: Any
        if isinstance(default, bool):
            low = raw.lower()
            if low not in _YES + _NO:
                raise RummyError(f"rule {name!r} takes yes or no, not {raw!r}")
            value = low in _YES
        elif isinstance(default, int):
            # int() alone reads "٣" and "1_000"; a rule's number is plain digits.
            digits = raw[1:] if raw.startswith("-") else raw
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
                raise RummyError(f"rule {name!r} takes a whole number, not {raw!r}")
            value = int(raw)
        else:
            value = raw
        out[name] = value
    return out


def parse_wild(text: str | None) -> int:
    """The wild rank of ``--wild``: a rank letter or number, ``X`` meaning aces."""
    if text is None:
        return 0
    t = text.strip().upper()
    if t in ("X", "*", "JOKER"):
        return 1
    if t == "10":
        return 10
    # isdigit() alone admits superscripts and other scripts' digits ("²", "٣"), and int()
    # refuses the one and reads the other; a long number is no rank either.
    if t.isascii() and t.isdigit() and len(t) <= 2 and 1 <= int(t) <= 13:
        return int(t)
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 1
    raise RummyError(f"{text!r} is not a rank for --wild: use A 2-9 T J Q K, 1-13 or X")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_rules(args.rule, args.variant)
    if args.opening is not None:
        if "opening" in options or "opening_minimum" in options:
            raise RummyError("--opening and --rule set the opening minimum both: give one")
        options["opening"] = args.opening
    # Checked here, once: a bad rule is not a bad line of the batch.
    analysis_rules(args.variant, options)
    return options


def _analyze_text(text: str, args: argparse.Namespace, wild: int,
                  options: dict[str, Any]) -> Analysis:
    return analyze(
        text, args.variant, options=options or None, must_include=args.must_include,
        wild_rank=wild,
    )


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None) -> int:
    """Run the command; returns the exit status (0, or 2 for bad input)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        wild = parse_wild(args.wild)
        if args.variant not in VARIANTS:
            analyze("", args.variant)  # raises UnknownVariant with the list
        options = _options(args)
    except RummyError as exc:
        _refuse(exc, stderr)
        return 2
    hand = " ".join(args.hand)
    if hand.strip() == "-":
        return _batch(args, wild, options, stdin, stdout)
    try:
        result = _analyze_text(hand, args, wild, options)
    except RummyError as exc:
        _refuse(exc, stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()), file=stdout)
    else:
        _print_for_people(result, stdout)
    return 0


def _refuse(exc: RummyError, stderr: TextIO) -> None:
    # Worded as every other subcommand's refusal: "rummykit COMMAND: what and why".
    print(one_line(f"rummykit analyze: {exc}"), file=stderr)


def _batch(args: argparse.Namespace, wild: int, options: dict[str, Any], stdin: TextIO,
           stdout: TextIO) -> int:
    status = 0
    for number, (line, fault) in enumerate(input_lines(stdin), 1):
        if not line.strip():
            continue
        try:
            if fault is not None:
                raise RummyError(f"line {number} is {fault}")
            answer: dict[str, Any] = _analyze_text(line, args, wild, options).to_json()
        except RummyError as exc:
            answer = {"error": str(exc), "line": number, "hand": line.strip()}
            status = 2
        print(json.dumps(answer), file=stdout, flush=True)
    return status


# -- for people -------------------------------------------------------------------------------


def _meld_text(m: Meld) -> str:
    return pretty_cards(m.cards)


def _cards_text(cards: tuple[Card, ...]) -> str:
    return pretty_cards(cards) if cards else "-"


def _print_for_people(a: Analysis, out: TextIO) -> None:
    from rich.table import Table

    from rummykit.cli.output import console as make_console

    console = make_console(out)
    console.print(f"[bold]{a.variant}[/bold]  {pretty_cards(a.hand)}")
    table = Table(show_header=True, header_style="bold")
    table.add_column("")
    table.add_column("points", justify="right")
    table.add_column("melds")
    table.add_column("left")
    o = a.opening
    if o is not None:
        if not o.rule.close_only:
            best = o.best
            table.add_row(
                "best opening",
                str(best.points) if best else "-",
                "  ".join(_meld_text(m) for m in best.melds) if best else "-",
                _cards_text(best.left) if best else "-",
            )
        close = o.close
        table.add_row(
            "close" if not o.rule.close_only else "lay-down",
            str(close.points) if close else "-",
            "  ".join(_meld_text(m) for m in close.melds) if close else "none",
            _cards_text(close.left) if close else "-",
        )
    p = a.penalty
    table.add_row(
        "least penalty",
        str(p.points),
        "  ".join(_meld_text(m) for m in p.melds) or "-",
        _cards_text(p.left),
    )
    if a.variant == "indian":
        d = a.declaration
        table.add_row(
            "declaration",
            "",
            "  ".join(_meld_text(m) for m in d.melds) if d else "none",
            _cards_text(d.left) if d else "-",
        )
    console.print(table)
    if o is not None:
        if o.valid:
            lay = o.lay
            pts = f" ({lay.points} points)" if lay is not None else ""
            console.print(f"[green]can open[/green]{pts}; minimum {o.rule.minimum}")
        else:
            console.print(f"[red]cannot open[/red]: {a.opening_reason()}")
    if a.variant == "indian":
        if a.declaration is not None:
            d = a.declaration
            what = f"discard {d.left[0].pretty()} and declare" if d.left else "declare"
            console.print(f"[green]valid declaration[/green]: {what}")
        else:
            console.print(f"[red]no valid declaration[/red]: {a.declaration_reason}")
    if a.applied:
        said = ", ".join(f"{name}={_value_text(v)}" for name, v in a.applied)
        console.print(f"rules applied: {said}")
    if a.no_effect:
        console.print(f"rules with no effect on the analysis: {', '.join(a.no_effect)}")


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)
