"""A bot sees exactly what its seat sees: the proof that hidden cards are out of reach."""

from __future__ import annotations

import gc
import json
import pickle
import random
from typing import Any

import pytest

from rummykit.bots import choose_action, make_bot, observe, play_turn
from rummykit.bots.hard import HardBot
from rummykit.bots.observation import Observation
from rummykit.bots.world import build_world
from rummykit.engine import Game
from rummykit.engine.state import DealState
from rummykit.rules import make_rules

VARIANTS = [("rummy", 2), ("rummy", 3), ("rami51", 2), ("rami71", 4), ("simple", 2),
            ("simple", 4), ("indian", 2), ("indian", 3)]


def reachable(root: object, limit: int = 200_000) -> list[object]:
    seen: dict[int, object] = {}
    todo = [root]
    while todo and len(seen) < limit:
        x = todo.pop()
        if id(x) in seen or isinstance(x, type):
            continue
        seen[id(x)] = x
        todo.extend(gc.get_referents(x))
    return list(seen.values())


def choices(view: dict[str, Any], history: list[dict[str, Any]], seed: int = 5) -> list[str]:
    out = [choose_action(view, history, level, seed=seed) for level in ("easy", "medium")]
    bot = HardBot(budget=1.0, samples=2)
    out.append(bot.choose(Observation.from_view(view, history), random.Random(seed)))
    # Its rollouts too (off by default): they sample worlds from the observation alone.
    search = HardBot(budget=1.0, samples=1, search=True)
    out.append(search.choose(Observation.from_view(view, history), random.Random(seed)))
    return out


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_observation_holds_no_game(variant: str, players: int) -> None:
    g = Game.new(variant, players, seed=11)
    seat = g.to_move
    assert seat is not None
    obs = observe(g, seat)
    make_bot("medium").choose(obs, random.Random(1))  # fills the cached conveniences too
    stock = g.deal.stock
    for x in reachable(obs):
        assert not isinstance(x, (Game, DealState)), type(x)
        assert x is not stock
        for h in g.deal.hands:
            assert x is not h
    pickle.dumps(Observation.from_view(g.view(seat), g.history()))


def _hidden_positions(g: Game, seat: int) -> tuple[list[int], list[int]]:
    """Positions of the first deal's deck that ``seat`` sees at the start (its hand, the
    indicator, the pile's first card, the top of the stock it draws first) and the others."""
    rules = g.rules
    n = rules.players
    order = [(g.deal.dealer + i) % n for i in range(1, n + 1)]
    fixed = [k * n + order.index(seat) for k in range(rules.hand_size)]
    pos = rules.hand_size * n
    if rules.first_extra:
        if order[0] == seat:
            fixed.append(pos)
        pos += 1
    if rules.indicator:
        fixed.append(pos)
        pos += 1
    if rules.starter:
        fixed.append(pos)
        pos += 1
    fixed.append(pos)  # the first card of the stock: the seat draws it in both games
    others = [i for i in range(len(g.deal.deck)) if i not in fixed]
    return fixed, others


def twin(g: Game, seat: int, seed: int) -> Game:
    """The same deal but for the cards ``seat`` cannot see (other hands, stock order)."""
    deck = list(g.deal.deck)
    _, others = _hidden_positions(g, seat)
    cards = [deck[i] for i in others]
    random.Random(seed).shuffle(cards)
    for i, c in zip(others, cards, strict=True):
        deck[i] = c
    return Game.new(g.variant, g.players, deck=deck)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_same_choice_when_only_hidden_cards_differ(variant: str, players: int) -> None:
    for seed in range(3):
        a = Game.new(variant, players, seed=100 + seed)
        seat = a.to_move
        assert seat is not None
        b = twin(a, seat, seed)
        assert [a.hand(s) for s in range(players) if s != seat] != \
            [b.hand(s) for s in range(players) if s != seat]
        for _ in range(2):  # the first decision, then (after drawing) the next one
            va, vb = a.view(seat), b.view(seat)
            assert va == vb
            assert choices(va, a.history()) == choices(vb, b.history())
            act = choose_action(va, a.history(), "medium", seed=1)
            if a.to_move != seat or not act.startswith(("draw", "take")):
                break
            a.apply(act)
            b.apply(act)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_mid_deal_worlds_share_the_view_and_the_choice(variant: str, players: int) -> None:
    """Mid-deal, a game rebuilt with other hidden cards shows the seat the same view, and
    every level chooses the same action in both."""
    medium = make_bot("medium")
    for seed in range(7, 40):  # the first shuffle whose deal is still on after these turns
        g = Game.new(variant, players, seed=seed)
        rng = random.Random(3)
        for _ in range(6 * players + 3):
            if g.to_move is None:
                break
            play_turn(g, g.to_move, medium, rng)
        if g.to_move is not None:
            break
    seat = g.to_move
    assert seat is not None
    obs = observe(g, seat)
    other = build_world(obs, random.Random(99))
    va, vb = g.view(seat), other.view(seat)
    va.pop("version")
    vb.pop("version")
    assert va == vb
    hidden_a = [g.hand(s) for s in range(players) if s != seat] + [g.deal.stock]
    hidden_b = [other.hand(s) for s in range(players) if s != seat] + [other.deal.stock]
    assert hidden_a != hidden_b
    assert choices(g.view(seat), g.history()) == choices(other.view(seat), other.history())


def test_rules_come_from_the_view_only() -> None:
    g = Game.new("rummy", 2, {"opening": 51}, seed=3)
    obs = observe(g, g.to_move or 0)
    assert obs.rules == make_rules("rummy", 2, {"opening": 51})


def _typed(data: object) -> object:
    """``data`` with the type of every value kept (``True == 1`` for ``==`` alone)."""
    if isinstance(data, dict):
        return {k: _typed(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_typed(v) for v in data]
    return (type(data).__name__, data)


@pytest.mark.parametrize(("variant", "players"), [("rummy", 3), ("rami51", 2), ("rami71", 4)])
def test_the_history_a_bot_gets_is_the_json_copy_of_the_games(variant: str,
                                                              players: int) -> None:
    # The engine's events are copied directly (a JSON round trip of the whole history at
    # every decision was most of the time of building an observation in a long deal): the
    # copy must be the same data, of the same types, sharing no dict or list with the game.
    g = Game.new(variant, players, seed=21)
    rng = random.Random(2)
    melds = 0
    for _ in range(150):
        seat = g.to_move
        if seat is None:
            break
        obs = observe(g, seat)
        history = g.history()
        assert _typed(list(obs.history)) == _typed(json.loads(json.dumps(history)))
        engine = {id(x) for e in g.deal.events for x in (e, *e.values())
                  if isinstance(x, (dict, list))}
        for e in obs.history:
            assert id(e) not in engine
            for v in e.values():
                assert not isinstance(v, (dict, list)) or id(v) not in engine
                if isinstance(v, list):
                    v.append("altered")  # the bot's copy only
                    melds += 1
        assert g.history() == history
        play_turn(g, seat, make_bot("medium"), rng)
    assert melds > 0  # lists were copied, not only texts and numbers


def test_other_histories_are_still_copied_through_json() -> None:
    # Events that are no engine's (a text or an int of a subclass, a Mapping that is no
    # dict) take the JSON copy, as before: plain texts, ints and dicts.
    from collections import OrderedDict
    from enum import IntEnum

    class Seat(IntEnum):
        FIRST = 0

    class Text(str):
        pass

    g = Game.new("rummy", 2, seed=4)
    seat = g.to_move
    assert seat is not None
    odd = [OrderedDict(seat=0, action="open", melds=["3H 4H 5H"]),
           {"seat": Seat.FIRST, "action": "open", "melds": ["3H 4H 5H"]},
           {"seat": 0, "action": "open", "melds": [Text("3H 4H 5H")]}]
    for event in odd:
        obs = Observation.from_view(g.view(seat), [*g.history(), event])
        assert _typed(obs.history[-1]) == _typed({"seat": 0, "action": "open",
                                                  "melds": ["3H 4H 5H"]})
        assert type(obs.history[-1]) is dict and type(obs.history[-1]["melds"][0]) is str
