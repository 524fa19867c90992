"""``rummykit tournament``: duplicate deals between bots, with 95% intervals.

    rummykit tournament --variant rummy --players 2 --bots hard,medium --deals 200 --seed 1 \\
        [--json] [--plot results.png] [--jobs 2] [--records DIR [--overwrite]] [--budget 1.0] \\
        [--rule NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
from typing import Any

from rummykit.bots.base import DEFAULT_BUDGET, LEVELS
from rummykit.bots.tournament import (
    Interrupted,
    Spec,
    TournamentError,
    budget_users,
    iter_table,
    run_deals,
    saved_records,
    summarize,
)
from rummykit.cli.analyze import parse_rules
from rummykit.cli.main import one_line
from rummykit.cli.output import console, print_json
from rummykit.rules import VARIANTS, make_rules


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="play bots against each other on duplicate deals",
        description="Play bots against each other: every shuffle is replayed with the bots "
        "rotated through the seats. Reports, per bot, deals won and mean points per deal "
        "with 95% confidence intervals.",
    )
    p.add_argument("--variant", default="rummy", help=f"one of {', '.join(VARIANTS)} (%(default)s)")
    p.add_argument("--players", type=int, default=2, help="seats at the table (%(default)s)")
    p.add_argument("--bots", default="hard,medium",
                   help=f"comma-separated levels laid round the table, among {', '.join(LEVELS)} "
                        "(%(default)s)")
    p.add_argument("--deals", type=int, default=100,
                   help="deals to play, rounded up to whole sets of lineups (%(default)s)")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffles (default: random)")
    p.add_argument("--budget", type=float, default=None,
                   help=f"seconds per move for hard (default {DEFAULT_BUDGET})")
    p.add_argument("--jobs", type=int, default=1,
                   help="deals played in parallel processes (%(default)s)")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="save every deal's game record (JSON) in DIR")
    p.add_argument("--overwrite", action="store_true",
                   help="let --records DIR replace the deal records already there (they are "
                   "deleted first)")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="draw the results (needs matplotlib: pip install 'rummykit[plot]')")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a room option or house rule every deal is played with, e.g. "
                        "opening=51 or jokers_zero=yes (repeatable; see docs/rules.md)")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.set_defaults(run=run)


def _spec(args: argparse.Namespace) -> Spec:
    bots = tuple(b.strip().lower() for b in str(args.bots).split(",") if b.strip())
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(31)
    if args.jobs < 1:
        raise TournamentError("--jobs must be at least 1")
    # An unknown variant is said as such, before any rule is looked up in it.
    make_rules(args.variant)
    options = parse_rules(args.rule, args.variant, room=True)
    spec = Spec(args.variant, args.players, bots, args.deals, seed, args.budget, args.records,
                options)
    spec.check()
    if spec.budget is not None:
        # Asked for on the command line, a budget no bot reads would be a setting silently
        # without effect (the library's Spec accepts it: scripts pass one budget to every
        # pairing).
        users = budget_users()
        if not set(users) & set(bots):
            raise TournamentError(
                f"--budget is used only by {', '.join(users)}, and --bots "
                f"{','.join(bots)} names none: add one or drop --budget"
            )
    return spec


def _check_records(args: argparse.Namespace) -> list[str]:
    """The old deal records ``--overwrite`` will delete; without it, a directory holding
    any is refused (the new records would silently replace some of them and leave the
    others, mixing two tournaments)."""
    if args.overwrite and not args.records:
        raise TournamentError("--overwrite needs --records DIR: it lets the new records "
                              "replace those already in DIR")
    if not args.records:
        return []
    old = saved_records(args.records)
    if old and not args.overwrite:
        held = f"{old[0]}" if len(old) == 1 else f"{len(old)} deal records ({old[0]}, …)"
        raise TournamentError(
            f"--records {args.records} already holds {held}: choose another directory, or "
            f"add --overwrite to replace them"
        )
    return old


def run(args: argparse.Namespace) -> int:
    for flag, value in (("--records", args.records), ("--plot", args.plot)):
        if value is not None and not value.strip():
            # An empty name ("--records $DIR" with DIR unset) read as none: no record or
            # chart was made, without a word.
            raise TournamentError(f"{flag} {value!r}: name a "
                                  f"{'directory' if flag == '--records' else 'file'}")
    spec = _spec(args)
    old = _check_records(args)
    plot = args.plot
    if plot:
        _check_plot(plot)
    # Every check has passed: only now are the old records deleted.
    for name in old:
        os.remove(os.path.join(args.records, name))
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from rummykit.bots.tournament import tasks

    total = len(tasks(spec))
    # Made on standard error from the start: a console made on standard output decides then
    # whether it is interactive, and with `--json > FILE` it drew no bar on the terminal.
    err = console(sys.stderr)
    with Progress(
        TextColumn(f"{spec.variant} {'/'.join(spec.bots)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task("deals", total=total)
        signals: list[int] = []

        def stop_on(signum: int, frame: Any) -> None:
            # `kill`, a service manager or `timeout` stops the tournament as Ctrl-C does: the
            # workers are stopped and no half-written record is left behind.
            signals.append(signum)
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGTERM, stop_on)
        try:
            deals = run_deals(spec, args.jobs, lambda k: bar.advance(task, k))
        except Interrupted as stop:
            bar.stop()
            kept = (f"; the records of those played are in {args.records}" if args.records
                    else "")
            how = "terminated" if signals else "interrupted"
            print(one_line(f"rummykit tournament: {how} after {stop.played} of "
                           f"{stop.total} deals, no results{kept}"), file=sys.stderr)
            # A shell's status for a command ended by the signal.
            return 128 + signals[0] if signals else 130
        finally:
            signal.signal(signal.SIGTERM, previous)
    summary = summarize(spec, deals)
    if plot:
        draw(summary, plot)
    if args.json:
        print_json(summary)
        return 0
    _print(summary)
    return 0


def _print(summary: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    con = console()
    table = Table(title=Text(title_of(summary)))
    for col in ("bot", "deals", "won", "won % [95%]", "points/deal [95%]",
                "ms median / p95", "fallbacks"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in iter_table(summary):
        # Plain text: rich would read "[one shuffle]" as a style tag and drop it.
        table.add_row(*(Text(cell) for cell in row))
    con.print(table)
    falls = summary["fallbacks"]
    if falls:
        f = falls[0]
        con.print(f"{len(falls)} moves were replaced by the medium move (listed with --json); "
                  f"the first: {f['bot']} at seat {f['seat'] + 1} of shuffle {f['shuffle'] + 1}, "
                  f"lineup {f['lineup'] + 1}: {f['why']}", markup=False)
    if summary["no_winner"]:
        con.print(f"{summary['no_winner']} deals ended with no winner"
                  + (f" ({summary['unfinished']} stopped unfinished after 3000 actions)"
                     if summary["unfinished"] else ""))


def title_of(summary: dict[str, Any]) -> str:
    """What was played: the table's title and the chart's (the results are those of these
    rules and this budget)."""
    budget = summary["budget"]
    deals, shuffles = summary["deals"], summary["shuffles"]
    return (
        f"{summary['variant']}, {summary['players']} players, {deals} deal{'s' * (deals != 1)} "
        f"({shuffles} shuffle{'s' * (shuffles != 1)}, seed {summary['seed']}"
        + (f", hard budget {budget} s" if budget is not None else "")
        + ")"
        + "".join(f", {k}={_said(v)}" for k, v in summary.get("rules", {}).items())
    )


def _said(value: Any) -> str:
    """A rule's value as ``--rule`` takes it (yes/no rather than True/False)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _check_plot(path: str) -> None:
    """Everything that would stop the chart from being saved, found before any deal is
    played: matplotlib, the directory, the format named by the file's extension."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise TournamentError(
            "--plot needs matplotlib: pip install 'rummykit[plot]'"
        ) from None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise TournamentError(f"--plot {path}: no directory {folder}")
    if os.path.isdir(path) or path.endswith(os.sep):
        raise TournamentError(f"--plot {path} is a directory: name the image file, e.g. "
                              f"{os.path.join(path, 'results.png')}")
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    formats = Figure().canvas.get_supported_filetypes()
    if not ext:
        # matplotlib would save it as PATH.png, a file of another name than the one given.
        raise TournamentError(f"--plot {path}: the file's extension names the image format "
                              f"(e.g. {path}.png): choose among {', '.join(sorted(formats))}")
    if ext not in formats:
        raise TournamentError(f"--plot {path}: unknown image format {ext!r}: choose among "
                              f"{', '.join(sorted(formats))}")
    # A file that cannot be written (permissions, a read-only or special file system) is
    # found now, not once every deal is played; a file made only to try is removed.
    existed = os.path.exists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        raise TournamentError(f"--plot {path}: {exc.strerror or exc}") from None
    if not existed:
        os.remove(path)


def draw(summary: dict[str, Any], path: str) -> None:
    """Two panels: share of deals won and mean points per deal, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = summary["results"]
    names = list(res)
    win = [100 * res[b]["win_rate"] for b in names]
    win_err = [
        [100 * (res[b]["win_rate"] - res[b]["win_ci"][0]) for b in names],
        [100 * (res[b]["win_ci"][1] - res[b]["win_rate"]) for b in names],
    ]
    pts = [res[b]["mean_points"] for b in names]
    # No error bar where there is no interval (a single shuffle).
    cis = [res[b]["points_ci"] or [res[b]["mean_points"]] * 2 for b in names]
    pts_err = [
        [res[b]["mean_points"] - ci[0] for b, ci in zip(names, cis, strict=True)],
        [ci[1] - res[b]["mean_points"] for b, ci in zip(names, cis, strict=True)],
    ]
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4))
    a.bar(names, win, yerr=win_err, capsize=6, color="#4c72b0")
    # Each bot's even share (its seats out of all): with two bots at three seats, the one
    # holding two seats wins two deals in three at equal strength, not one in two.
    even = [100 * res[b]["seats"] / summary["players"] for b in names]
    a.hlines(even, [i - 0.4 for i in range(len(names))], [i + 0.4 for i in range(len(names))],
             color="black", lw=1, ls="--", zorder=3)
    a.set_ylabel("deals won (%; dashes: even share)")
    a.set_ylim(0, 100)
    b.bar(names, pts, yerr=pts_err, capsize=6, color="#dd8452")
    b.axhline(0, color="grey", lw=1)
    b.set_ylabel("mean points per deal")
    # The table's title: the chart named neither the rules nor hard's budget ("1 shuffles").
    fig.suptitle(f"{title_of(summary)}; 95% intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
