"""Imagined games: an engine :class:`Game` rebuilt from an observation alone.

A bot never touches the real game. To check its own moves against the rules, and to look
ahead, it builds a *world*: a game whose public state and own hand are exactly those of the
observation, and whose hidden cards (the other hands, the stock order) are a sample drawn from
the cards the seat has not seen -- the cards another seat is known to have taken stay with that
seat. Rebuilding is cheap, so a bot can sample as many worlds as its time allows.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rummykit.bots.observation import Observation, _laid_cards
from rummykit.cards import JOKER, Card, make_deck, parse_card, parse_cards
from rummykit.engine.game import Game
from rummykit.engine.state import DealState, TableMeld
from rummykit.errors import RummyError
from rummykit.melds import make_meld


class WorldError(RummyError):
    """The observation does not describe a deal in progress that can be rebuilt."""


def _turn_state(obs: Observation) -> dict[str, Any]:
    t = obs.turn
    assert t is not None
    rules = obs.rules
    events = obs.turn_events()
    taken = parse_card(t["taken"]) if t.get("taken") else None
    owes = [parse_card(x) for x in t.get("owes", [])]
    acted = any(e.get("action") in ("open", "meld", "layoff", "swap") for e in events)
    returned = any(e.get("action") == "return" for e in events)
    # A card of the taken card's face laid this turn lays the taken card (Game.kept_card).
    took_laid = taken is not None and any(
        c is taken for e in events for c in _laid_cards(e)
    )
    owed: Card | None = None
    freed = 0
    if taken is not None and taken is not JOKER:
        owed = taken if taken in owes else None
        freed = sum(1 for c in owes if c is JOKER)
    elif taken is JOKER:
        n_x = sum(1 for c in owes if c is JOKER)
        laid_x = 0
        for e in events:
            if e.get("action") in ("open", "meld", "layoff"):
                laid_x += sum(1 for c in _laid_cards(e) if c is JOKER)
        owed = JOKER if (n_x and laid_x == 0 and rules.taken_card_duty) else None
        freed = n_x - (1 if owed is not None else 0)
    else:
        freed = sum(1 for c in owes if c is JOKER)
    return {
        "turn": int(t["seat"]),
        "phase": str(t["phase"]),
        "drawn": t.get("drawn"),
        "took": taken,
        "owed": owed,
        "took_laid": took_laid,
        "freed": freed,
        "acted": acted,
        "returned": returned,
    }


def _opened_before_turn(obs: Observation, seat: int) -> bool:
    if not obs.opened(seat):
        return False
    in_turn = {id(e) for e in obs.turn_events()}
    for e in obs.history:
        if e.get("seat") == seat and e.get("action") == "open":
            return id(e) not in in_turn
    # Opened by laying everything in the same turn or the history is partial.
    return True


def hidden_sizes(obs: Observation) -> list[int]:
    """Cards each seat holds (this seat's hand included)."""
    return [obs.cards_of(s) for s in range(obs.players)]


def deal_hidden(
    obs: Observation, rng: random.Random, weights: Any = None
) -> tuple[list[list[Card]], list[Card]]:
    """A sample of the hidden cards: every other seat's hand (cards it is known to hold
    first) and the stock (top last), consistent with everything the seat has seen."""
    me = obs.seat
    pool = Counter(obs.unseen)
    hands: list[list[Card]] = [[] for _ in range(obs.players)]
    hands[me] = list(obs.hand)
    sizes = hidden_sizes(obs)
    for s in range(obs.players):
        if s == me:
            continue
        for c in obs.memory[s].holds:
            if pool[c] > 0 and len(hands[s]) < sizes[s]:
                pool[c] -= 1
                hands[s].append(c)
    rest = [c for c, n in sorted(pool.items()) for _ in range(n)]
    rng.shuffle(rest)
    if weights is not None:
        rest = weights(obs, rest, rng)
    for s in range(obs.players):
        if s == me:
            continue
        need = sizes[s] - len(hands[s])
        hands[s].extend(rest[:need])
        del rest[:need]
    stock_n = int(obs.view["stock"])
    below = obs.indicator_below
    stock = [below, *rest[: stock_n - 1]] if below is not None and stock_n else rest[:stock_n]
    while len(stock) < stock_n:  # only if the observation is inconsistent
        stock.append(JOKER)
    return hands, stock


def build_world(
    obs: Observation,
    rng: random.Random,
    hidden: tuple[list[list[Card]], list[Card]] | None = None,
) -> Game:
    """A game matching ``obs`` (public state and own hand exact, hidden cards sampled)."""
    if obs.turn is None or obs.view.get("over"):
        raise WorldError("the deal is not in progress: there is no move to choose")
    if not obs.my_turn:
        raise WorldError(f"it is not seat {obs.seat}'s turn: a bot chooses for the seat to move")
    rules = obs.rules
    mr = obs.meld_rules
    hands, stock = hidden if hidden is not None else deal_hidden(obs, rng)
    ts = _turn_state(obs)
    n = obs.players
    table = []
    for m in obs.view["table"]:
        table.append(TableMeld(make_meld(parse_cards(" ".join(m["cards"])), mr), int(m["owner"])))
    drew = [False] * n
    for e in obs.history:
        s = e.get("seat")
        act = e.get("action")
        if isinstance(s, int) and (act in ("draw", "take") or (act == "timeout" and e.get("draw"))):
            drew[s] = True
    ind = obs.view.get("indicator")
    d = DealState(
        number=int(obs.view["deal"]),
        dealer=int(obs.view["dealer"]),
        deck=(),
        meld_rules=mr,
        hands=[list(h) for h in hands],
        stock=list(stock),
        pile=list(obs.pile),
        indicator=parse_card(ind) if ind else None,
        wild_rank=obs.wild_rank,
        table=table,
        opened=[obs.opened(s) for s in range(n)],
        out=[obs.view["seats"][s].get("out") for s in range(n)],
        drew=drew,
        restocks=int(obs.view.get("restocks") or 0),
        events=[dict(e) for e in obs.history],
    )
    d.turn = ts["turn"]
    d.phase = ts["phase"]
    d.drawn = ts["drawn"]
    d.took = ts["took"]
    d.owed = ts["owed"]
    d.took_laid = ts["took_laid"]
    d.freed = ts["freed"]
    d.acted = ts["acted"]
    d.returned = ts["returned"]
    d.opened_at_start = _opened_before_turn(obs, d.turn)
    # A real game (every attribute the engine keeps) whose deal is then replaced.
    g = Game(rules, rng=random.Random(rng.getrandbits(64)), deck=make_deck(rules.jokers))
    g.deals = [d]
    g.deal = d
    g.version = 0
    return g
