"""``rummykit replay FILE [--json]``: replay a game record and report how it ended."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from rummykit.cli.output import console, pretty, print_json, read_text
from rummykit.engine import Game


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a game record (JSON) and print its outcome")
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.set_defaults(run=run)


def summary(game: Game) -> dict[str, Any]:
    """The outcome of a replayed game, in the shape of the text formats."""
    deals = []
    for r in game.results:
        deals.append(
            {
                "deal": r.deal,
                "dealer": r.dealer,
                "winner": r.winner,
                "how": r.how,
                "points": r.points,
                "double": r.double,
                "blocked": r.blocked,
                "penalties": list(r.penalties),
            }
        )
    return {
        "variant": game.variant,
        "players": game.players,
        "deals": deals,
        "scores": game.scores,
        "over": game.over,
        "winner": game.winner,
        "teams": game.rules.teams,
        "actions": sum(len(d.actions) for d in game.deals),
    }


def run(args: argparse.Namespace) -> int:
    game = Game.from_record(read_text(args.file))
    data = summary(game)
    if args.json:
        print_json(data)
        return 0
    out = console()
    # Said to people, seats and sides count from 1, as the web page counts them ("Seat 3",
    # "Side 2"); the JSON keeps the engine's numbers, from 0.
    teams = game.rules.teams
    who = "side" if teams else "seat"
    table = Table(title=f"{game.variant}, {game.players} players")
    for col in ("deal", "winner", "how", "points", "marks"):
        table.add_column(col, justify="right" if col in ("deal", "points") else "left")
    for d in data["deals"]:
        marks = " ".join(m for m, on in (("double", d["double"]), ("blocked", d["blocked"])) if on)
        winner = "—" if d["winner"] is None else _seat(d["winner"], teams)
        table.add_row(str(d["deal"]), winner, d["how"], str(d["points"]), marks)
    out.print(table)
    scores = ", ".join(f"{who} {i + 1}: {s}" for i, s in enumerate(data["scores"]))
    out.print(f"Scores: {scores}")
    if data["over"]:
        won = "" if data["winner"] is None else f" {who} {data['winner'] + 1} wins."
        out.print(f"Game over:{won}" if won else "Game over.")
    else:
        d = game.deal
        # Between deals nobody is to move: the record stops before the next deal is dealt.
        if d.over or game.to_move is None:
            turn = " is over, the next is not dealt yet"
        else:
            turn = f", seat {game.to_move + 1} to move"
        out.print(f"Game in progress: deal {d.number}{turn}.")
        out.print(f"Top of the pile: {pretty([c.text for c in d.pile[-1:]]) or '—'}")
    return 0


def _seat(seat: int, teams: bool) -> str:
    """A seat for people, from 1, with its side in 2 v 2 (seats 1 and 3 are side 1)."""
    return f"seat {seat + 1} (side {seat % 2 + 1})" if teams else f"seat {seat + 1}"
