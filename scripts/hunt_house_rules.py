"""Hunt for bugs in combinations of house rules by playing whole random games.

For every variant and seat count it draws random combinations of the house rules
``rummykit.rules.house_rule_schema`` lists (several at once, edge values favoured) and random
room options, then plays whole games (every deal, to the game's end or a step cap) with random
legal moves biased towards laying, taking and swapping, or with the bots. At every step it
checks that:

- the move played is listed by ``legal_actions()`` (a bot's wrong Indian declaration excepted,
  which is legal but never listed) and ``is_legal`` and ``check`` agree on it;
- every card of the deck is somewhere, exactly once;
- no seat's view shows another seat's hand, and a view does not change when the cards its seat
  cannot see are dealt differently;
- a player is left with ``timeout`` as the only legal action only for a documented reason (a
  card or a freed joker still owed that has no place after all): every such turn is counted by
  reason, and one without a documented reason is a failure;
- bots never raise, never answer ``timeout`` and never answer an illegal action;
- the game ends within the cap, and its record replays to the same views.

Every failure is printed with its seed, variant, seats, player and options, and
``--replay SEED VARIANT PLAYERS MODE JSON`` plays that one game again.

    python scripts/hunt_house_rules.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import _checkout  # noqa: F401  (this checkout's rummykit first)

from rummykit.bots import Observation, make_bot
from rummykit.bots.hard import HardBot
from rummykit.cards import make_deck
from rummykit.engine import Action, Declare, Game, parse_action
from rummykit.rules import VARIANTS, house_rule_schema, option_schema, players_allowed
from tests.helpers import all_cards, shuffle_hidden

#: How the seats are played: random legal moves, or bots (``mixed`` seats them in turn).
MODES = ("random", "easy", "medium", "hard", "mixed")
#: Verbs a random player favours: they reach the rules the combinations change.
FAVOURED = ("open", "meld", "layoff", "swap", "declare", "take")
#: The hard bot's fixed number of samples per search (reproducible and quick).
HARD_SAMPLES = 4
#: Steps of a deal after which random seats play as ``medium``: random moves rarely go out,
#: and with unlimited restocks (``max_restocks`` -1, the default of several variants) a deal of
#: random moves need never end.
STEPS_BEFORE_HELP = 400
#: Deals after which random seats play as ``medium`` throughout (deals that nobody wins
#: score nothing: random moves could make a game of them that never ends).
DEALS_BEFORE_HELP = 20
#: Steps per deal before the hunt calls the game stuck.
STEPS_PER_DEAL = 2500
#: Deals per game before the hunt calls the game endless.
MAX_DEALS = 80


# -- drawing the rules ----------------------------------------------------------------------


def _edge_value(name: str, spec: dict[str, Any], players: int, rng: random.Random) -> Any:
    """A value of a house rule, its edges (and its non-default values) favoured."""
    kind = spec["kind"]
    default = spec["default"]
    if kind == "bool":
        return not default if rng.random() < 0.8 else default
    if kind == "choice":
        others = [v for v in spec["values"] if v != default]
        return rng.choice(others) if others and rng.random() < 0.8 else rng.choice(spec["values"])
    if kind == "seat":
        return rng.choice([players - 1, players - 1, 0, rng.randrange(players)])
    least = spec["min"]
    most = spec["max"] if spec["max"] is not None else least + 6
    return rng.choice([least, least, least + 1, most, rng.randint(least, most)])


def draw_options(variant: str, players: int, rng: random.Random) -> dict[str, Any]:
    """Random room options and a random combination of several house rules."""
    options: dict[str, Any] = {}
    for name, spec in option_schema(variant).items():
        if name == "clock" or rng.random() < 0.4:
            continue
        only = spec.get("only_with")
        if only and any(options.get(k, option_schema(variant)[k]["default"]) not in v
                        for k, v in only.items()):
            continue
        values = spec["values"]
        if values == "bool":
            options[name] = rng.random() < 0.5
        elif values == "int":
            options[name] = rng.choice([spec["min"], spec["min"] + 1, spec["max"]])
        else:
            options[name] = rng.choice(values)
    schema = house_rule_schema(variant)
    names = sorted(schema)
    for name in rng.sample(names, rng.randint(min(2, len(names)), len(names))):
        options[name] = _edge_value(name, schema[name], players, rng)
    if rng.random() < 0.3 and "max_restocks" in schema:
        # The pair the task singles out: the whole pile turned over, any number of times.
        options["max_restocks"] = -1
        options["restock_keeps_top"] = False
    return options


# -- the checks -----------------------------------------------------------------------------


class Finding(AssertionError):
    """A check that failed (the hunt records it with the game that shows it)."""


class Stall(Finding):
    """A deal or a game that does not end within the caps: the players may be too weak to
    finish it (the easy bot lays off only once the stock has been rebuilt) rather than the
    engine wrong."""


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise Finding(what)


def check_cards(g: Game) -> None:
    found = all_cards(g)
    want = Counter(make_deck(g.rules.jokers))
    if found != want:
        lost = "".join(f" {c.text}" for c in (want - found).elements())
        more = "".join(f" {c.text}" for c in (found - want).elements())
        raise Finding(f"cards not conserved: missing{lost or ' none'}, extra{more or ' none'}")


def _contains(needle: list[str], hay: str) -> bool:
    return json.dumps(needle) in hay or json.dumps(sorted(needle)) in hay


def check_privacy(g: Game, rng: random.Random) -> None:
    d = g.deal
    if d.over:
        return  # the deal's end shows every hand
    for s in range(g.players):
        v = g.view(s)
        expect(v["hand"] == [c.text for c in g.hand(s)], f"seat {s}'s view shows another hand")
        text = json.dumps({k: val for k, val in v.items() if k != "hand"})
        for o in range(g.players):
            other = [c.text for c in g.hand(o)]
            if o != s and len(other) >= 4:
                expect(not _contains(other, text), f"seat {s} sees seat {o}'s hand")
    expect("hand" not in g.public_view(), "the public view has a hand")
    s = rng.randrange(g.players)
    twin = shuffle_hidden(g, s, rng)
    expect(twin.view(s) == g.view(s), f"seat {s}'s view depends on cards it cannot see")


def all_views(g: Game) -> list[dict[str, Any]]:
    return [g.view(s) for s in range(g.players)] + [g.public_view()]


def check_replay(g: Game) -> None:
    rec = g.record()
    again = Game.from_record(json.dumps(rec))
    expect(all_views(again) == all_views(g), "the record replays to other views")
    expect(again.record() == rec, "the record replays to another record")


def stuck_reason(g: Game) -> str:
    """Why only ``timeout`` is left: the documented reasons, or ``undocumented``."""
    d = g.deal
    if d.phase == "play" and d.owed is not None and d.freed:
        return "taken card and freed joker with no place"
    if d.phase == "play" and d.owed is not None:
        return "taken card with no place"
    if d.phase == "play" and d.freed:
        return "freed joker with no place"
    return f"undocumented ({d.phase} phase)"


# -- playing ---------------------------------------------------------------------------------


def random_move(legal: list[Action], rng: random.Random) -> Action:
    favoured = [a for a in legal if a.verb in FAVOURED]
    if favoured and rng.random() < 0.7:
        return rng.choice(favoured)
    plain = [a for a in legal if a.verb not in ("timeout", "drop")]
    if plain and rng.random() < 0.97:
        return rng.choice(plain)
    return rng.choice(legal)


class Seat:
    """One seat's player: ``random`` legal moves or a bot level."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.bot = (HardBot(samples=HARD_SAMPLES) if kind == "hard"
                    else make_bot(kind) if kind != "random" else None)


def seats_for(mode: str, players: int) -> list[Seat]:
    if mode == "mixed":
        kinds = ["random", "easy", "medium", "hard"]
        return [Seat(kinds[s % len(kinds)]) for s in range(players)]
    return [Seat(mode) for _ in range(players)]


@dataclass
class Outcome:
    steps: int = 0
    deals: int = 0
    stuck: Counter[str] = field(default_factory=Counter)


def play_game(variant: str, players: int, options: dict[str, Any], seed: int, mode: str,
              privacy_every: int = 6, out: Outcome | None = None) -> Outcome:
    """Plays one whole game with every check; raises on the first failure (``out``, when
    given, holds the counts up to it)."""
    out = Outcome() if out is None else out
    rng = random.Random(f"{seed}:moves")
    # The privacy check draws from its own generator: the moves do not depend on it.
    peek = random.Random(f"{seed}:privacy")
    g = Game.new(variant, players, options, seed=seed)
    seats = seats_for(mode, players)
    helper = Seat("medium")
    check_cards(g)
    steps_in_deal = 0
    while not g.over:
        if g.phase == "deal-over":
            out.deals += 1
            check_cards(g)
            if out.deals >= MAX_DEALS:
                raise Stall(f"no end after {MAX_DEALS} deals")
            if out.deals == 1:
                check_replay(g)
            g.next_deal()
            check_cards(g)
            steps_in_deal = 0
            continue
        if steps_in_deal >= STEPS_PER_DEAL:
            raise Stall(f"deal {g.deal.number} goes on after {STEPS_PER_DEAL} steps")
        seat = g.to_move
        expect(seat is not None, f"nobody to move in phase {g.phase}")
        assert seat is not None
        legal = g.legal_actions()
        expect(bool(legal), "no legal action at all")
        expect(len(set(legal)) == len(legal), "legal_actions lists an action twice")
        if all(a.verb == "timeout" for a in legal):
            out.stuck[stuck_reason(g)] += 1
            expect(not stuck_reason(g).startswith("undocumented"),
                   f"seat {seat} has only timeout: {stuck_reason(g)}")
        player = seats[seat]
        if player.bot is None and (steps_in_deal >= STEPS_BEFORE_HELP
                                   or out.deals >= DEALS_BEFORE_HELP):
            player = helper
        if player.bot is None:
            act: Action = random_move(legal, rng)
        else:
            obs = Observation.from_view(g.view(seat), g.history())
            try:
                text = player.bot.choose(obs, random.Random(f"{seed}:{out.steps}"))
            except Exception as exc:
                raise Finding(f"the {player.kind} bot raised {exc!r}") from exc
            act = parse_action(text)
            expect(act.verb != "timeout", f"the {player.kind} bot answered timeout")
            if act not in legal and not (isinstance(act, Declare) and g.is_legal(act)):
                try:
                    g.check(act)
                    why = "legal but not listed"
                except ValueError as exc:
                    why = str(exc)
                raise Finding(f"the {player.kind} bot played {act}: {why}")
        expect(g.is_legal(act), f"{act} is listed but is_legal says no")
        try:
            g.check(act)
        except ValueError as exc:
            raise Finding(f"{act} is listed but check refuses it: {exc}") from exc
        g.apply(act)
        out.steps += 1
        steps_in_deal += 1
        check_cards(g)
        if out.steps % privacy_every == 0:
            check_privacy(g, peek)
    out.deals += 1
    check_replay(g)
    return out


@dataclass(frozen=True)
class Case:
    seed: int
    variant: str
    players: int
    mode: str
    options: dict[str, Any]

    def command(self) -> str:
        return (f"python scripts/hunt_house_rules.py --replay {self.seed} {self.variant} "
                f"{self.players} {self.mode} '{json.dumps(self.options, sort_keys=True)}'")


def cases(games: int, seed: int, variants: list[str], modes: list[str]) -> Iterator[Case]:
    """``games`` games, spread over every variant, seat count and mode in turn."""
    rng = random.Random(seed)
    combos = [(v, p) for v in variants for p in players_allowed(v)]
    for i in range(games):
        variant, players = combos[i % len(combos)]
        mode = modes[(i // len(combos)) % len(modes)]
        game_seed = rng.randrange(2**31)
        options = draw_options(variant, players, random.Random(game_seed))
        yield Case(game_seed, variant, players, mode, options)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--replay", nargs=5, metavar=("SEED", "VARIANT", "PLAYERS", "MODE", "JSON"),
                    help="play one game again (as printed with a failure)")
    args = ap.parse_args(argv)
    if args.replay:
        s, v, p, m, o = args.replay
        todo = [Case(int(s), v, int(p), m, json.loads(o))]
    else:
        todo = list(cases(args.games, args.seed, args.variants.split(","),
                          args.modes.split(",")))
    start = time.process_time()
    stuck: Counter[str] = Counter()
    stuck_by: Counter[str] = Counter()
    failures: list[tuple[Case, str]] = []
    stalls: list[tuple[Case, str]] = []
    steps = deals = 0
    for n, case in enumerate(todo, 1):
        out = Outcome()
        try:
            play_game(case.variant, case.players, case.options, case.seed, case.mode, out=out)
        except Exception as exc:
            where = traceback.format_exc(limit=-3) if not isinstance(exc, Finding) else ""
            stall = isinstance(exc, Stall)
            (stalls if stall else failures).append(
                (case, f"{type(exc).__name__}: {exc}\n{where}".rstrip()))
            print(f"{'STALL' if stall else 'FAIL'} {case.variant} {case.players} {case.mode}: "
                  f"{exc}\n  {case.command()}", flush=True)
        steps += out.steps
        deals += out.deals
        stuck.update(out.stuck)
        for reason, k in out.stuck.items():
            stuck_by[f"{case.variant}: {reason}"] += k
        print(f"{n:4d} {case.variant} {case.players} {case.mode}: {out.deals} deals, "
              f"{out.steps} steps, {time.process_time() - start:.0f} s", flush=True)
    spent = time.process_time() - start
    print(f"{len(todo)} games, {deals} deals, {steps} steps in {spent:.0f} s of processor time; "
          f"{len(failures)} failures, {len(stalls)} games that did not end")
    print(f"turns left with only timeout: {sum(stuck.values())} of {steps} steps")
    for reason, k in sorted(stuck_by.items()):
        print(f"  {k:6d}  {reason}")
    for case, what in failures + stalls:
        print(f"\n{case.variant} players={case.players} mode={case.mode} seed={case.seed} "
              f"options={json.dumps(case.options, sort_keys=True)}\n{what}\n  {case.command()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
