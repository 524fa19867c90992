"""``rummykit replay FILE [--deal K [--at N]] [--json]``: replay a game record and report how
it ended, or look back at one deal move by move with every hand face up."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table

from rummykit.cards import format_cards, parse_cards
from rummykit.cli.output import console, pretty, print_json, read_text
from rummykit.engine import Game
from rummykit.engine.records import load_record
from rummykit.engine.review import replay_deal
from rummykit.errors import InvalidArgument


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a game record (JSON) and print its outcome")
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument(
        "--deal",
        type=_positive,
        metavar="K",
        help="list deal K's moves, every hand face up (deals count from 1)",
    )
    p.add_argument(
        "--at",
        type=_count,
        metavar="N",
        help="show the position after move N of the deal (0: as dealt; deal 1 without --deal)",
    )
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.set_defaults(run=run)


def _positive(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a deal is a number from 1, not {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"a move is a number from 0, not {text!r}")
    return int(text)


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
    if args.deal is not None or args.at is not None:
        return _look_back(args)
    record = load_record(read_text(args.file))
    game = Game.from_record(record)
    data = summary(game)
    if args.json:
        print_json(data)
        return 0
    out = console()
    # Said to people, seats and sides count from 1, as the web page counts them ("Seat 3",
    # "Side 2"); the JSON keeps the engine's numbers, from 0.
    teams = game.rules.teams
    names = seat_names(record, game.players)
    table = Table(title=f"{game.variant}, {game.players} players")
    for col in ("deal", "winner", "how", "points", "marks"):
        table.add_column(col, justify="right" if col in ("deal", "points") else "left")
    for d in data["deals"]:
        marks = " ".join(m for m, on in (("double", d["double"]), ("blocked", d["blocked"])) if on)
        winner = "—" if d["winner"] is None else _seat(d["winner"], teams, names)
        table.add_row(str(d["deal"]), winner, d["how"], str(d["points"]), marks)
    out.print(table)
    scores = ", ".join(f"{_who(i, teams, names)}: {s}" for i, s in enumerate(data["scores"]))
    out.print(f"Scores: {scores}")
    if data["over"]:
        won = "" if data["winner"] is None else f" {_who(data['winner'], teams, names)} wins."
        out.print(f"Game over:{won}" if won else "Game over.")
    else:
        d = game.deal
        # Between deals nobody is to move: the record stops before the next deal is dealt.
        if d.over or game.to_move is None:
            turn = " is over, the next is not dealt yet"
        else:
            turn = f", {_seat(game.to_move, False, names)} to move"
        out.print(f"Game in progress: deal {d.number}{turn}.")
        out.print(f"Top of the pile: {pretty([c.text for c in d.pile[-1:]]) or '—'}")
    return 0


def _seat(seat: int, teams: bool, names: Sequence[str | None] = ()) -> str:
    """A seat for people, from 1, with its side in 2 v 2 (seats 1 and 3 are side 1), after
    the name of whoever held it when the record names them: ``Ana (seat 1, side 1)``."""
    name = names[seat] if seat < len(names) else None
    if name is None:
        return f"seat {seat + 1} (side {seat % 2 + 1})" if teams else f"seat {seat + 1}"
    side = f", side {seat % 2 + 1}" if teams else ""
    return f"{name} (seat {seat + 1}{side})"


def _who(i: int, teams: bool, names: Sequence[str | None]) -> str:
    """Who a score or a win belongs to: a side in 2 v 2 (its two seats' names are not one
    name), else the seat."""
    return f"side {i + 1}" if teams else _seat(i, False, names)


#: The most characters of a name shown: the server takes 24, a record edited by hand any.
MAX_NAME_SHOWN = 40


def seat_names(record: Any, players: int) -> list[str | None]:
    """Each seat's name from a record's ``seats`` (the server's records: who held each seat
    when the game ended), ready to print through rich: ``None`` for a seat the record does not
    name, or when it has no ``seats`` (it is advisory: the replay itself ignores it, so a
    malformed one names nobody rather than refusing the record).

    A name is text from whoever sat down, or whoever edited the file: every character that
    is not printable (control characters, so terminal escape sequences; bidirectional
    overrides) is shown escaped, ``\\x1b``, and rich's markup (``[bold]``) is escaped so that
    it prints as written."""
    names: list[str | None] = [None] * players
    seats = record.get("seats") if isinstance(record, dict) else None
    if not isinstance(seats, list):
        return names
    for entry in seats:
        if not isinstance(entry, dict):
            continue
        seat, name = entry.get("seat"), entry.get("name")
        if (type(seat) is not int or not 0 <= seat < players or not isinstance(name, str)
                or not name.strip()):
            continue
        shown = name.strip()
        if len(shown) > MAX_NAME_SHOWN:
            shown = shown[:MAX_NAME_SHOWN] + "…"
        shown = "".join(
            ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
            for ch in shown
        )
        names[seat] = escape(shown)
    return names


def _look_back(args: argparse.Namespace) -> int:
    deal = 1 if args.deal is None else args.deal
    record = load_record(read_text(args.file))
    looked = replay_deal(record, deal)
    frames = looked["frames"]
    moves = len(frames) - 1
    if args.at is not None and args.at > moves:
        raise InvalidArgument(f"deal {deal} has {moves} moves: --at must be 0 to {moves}")
    if args.json:
        if args.at is None:
            print_json(looked)
        else:
            print_json({k: v for k, v in looked.items() if k != "frames"} | frames[args.at])
        return 0
    out = console()
    teams = looked["players"] == 4 and len(frames[0]["view"]["scores"]) == 2
    names = seat_names(record, looked["players"])
    title = f"{looked['variant']}, {looked['players']} players: deal {deal} of {looked['deals']}"
    if args.at is None:
        table = Table(title=title)
        for col in ("move", "seat", "action"):
            table.add_column(col, justify="right" if col == "move" else "left")
        for before, frame in itertools.pairwise(frames):
            table.add_row(str(frame["step"]), *_move(before, frame, teams, names))
        out.print(table)
        out.print(f"{moves} moves; --at N shows the position after move N, every hand face up.")
        return 0
    frame = frames[args.at]
    out.print(title)
    if args.at == 0:
        out.print("Move 0: as dealt.")
    else:
        seat, action = _move(frames[args.at - 1], frame, teams, names)
        out.print(f"Move {args.at} of {moves}: {seat}, {action}")
    view = frame["view"]
    turn = view.get("turn")
    hands = Table(show_header=True)
    for col in ("seat", "cards", "hand"):
        hands.add_column(col, justify="right" if col == "cards" else "left")
    # a pool player put out by this deal's end is out of the game already (the view's seats
    # are still the deal's), as the web page's end screen marks them
    gone = view.get("eliminated") or []
    for s, hand in enumerate(frame["hands"]):
        mark = " (to move)" if turn and turn["seat"] == s else ""
        out_of = "eliminated" if s in gone else view["seats"][s].get("out")
        if out_of:
            mark += f" ({_OUT.get(out_of, out_of)})"
        by_suit = format_cards(sorted(parse_cards(" ".join(hand))))  # Card's own order
        hands.add_row(_seat(s, teams, names) + mark, str(len(hand)), pretty(by_suit))
    out.print(hands)
    for meld in view["table"]:
        owner = _seat(meld["owner"], teams, names)
        out.print(f"Meld {meld['number']}, {owner}: {pretty(meld['cards'])}")
    pile = view["pile"]
    top = f"Pile: {_cards(len(pile))}, {pretty(pile[-1:])} on top." if pile else "Pile: empty."
    out.print(f"Stock: {_cards(view['stock'])}. {top}")
    if view.get("indicator"):
        out.print(f"Wild-joker indicator: {pretty([view['indicator']])}")
    # the totals at that point: the game's, which the deal's end changes
    scores = ", ".join(f"{_who(i, teams, names)}: {n}" for i, n in enumerate(view["scores"]))
    out.print(f"Scores: {scores}")
    return 0


# a seat's ``out`` in the view, said in words
_OUT = {"wrong-declaration": "declared wrongly"}


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _move(
    before: dict[str, Any], frame: dict[str, Any], teams: bool, names: Sequence[str | None]
) -> tuple[str, str]:
    """Who made a frame's move and what it was, a stock draw naming the card drawn (known once
    the game is over)."""
    events = frame["events"]
    seat = next((e["seat"] for e in events if e.get("seat") is not None), None)
    action = str(frame["action"])
    if action == "draw" and seat is not None:
        drawn = list(frame["hands"][seat])
        for card in before["hands"][seat]:
            if card in drawn:
                drawn.remove(card)
        if drawn:
            action = f"draw ({pretty(drawn)})"
    took = next((e for e in events if e["action"] in ("take", "return", "timeout")), None)
    if took is not None and took.get("card") and action in ("take", "return", "timeout"):
        action = f"{action} ({pretty([took['card']])})"
    extra = [e["action"] for e in events if e["action"] in ("restock", "end")]
    if extra:
        action += " — " + ", ".join("stock rebuilt" if x == "restock" else "deal over"
                                    for x in extra)
    return ("—" if seat is None else _seat(seat, teams, names)), action
