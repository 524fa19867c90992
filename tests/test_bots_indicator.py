"""Bots under the house rule ``indicator_in_stock``: the Indian indicator lies face up under
the stock, so every seat knows the stock's last card until someone draws it (and then who
holds it)."""

from __future__ import annotations

import random
from collections import Counter

from rummykit.bots import make_bot, observe, play_turn
from rummykit.bots.observation import Observation
from rummykit.bots.world import build_world, deal_hidden
from rummykit.cards import make_deck
from rummykit.engine import Game

OPTIONS = {"indicator_in_stock": True}


def _game(seed: int) -> Game:
    return Game.new("indian", 2, options=OPTIONS, seed=seed)


def _obs(g: Game) -> Observation:
    seat = g.to_move
    assert seat is not None
    return observe(g, seat)


def test_a_sampled_world_keeps_the_indicator_under_its_stock() -> None:
    g = _game(5)
    obs = _obs(g)
    ind = g.deal.indicator
    assert ind is not None and obs.indicator_below == ind
    for n in range(20):
        hands, stock = deal_hidden(obs, random.Random(n))
        assert stock[0] == ind
        assert len(stock) == len(g.deal.stock)
        # Every card of the deck exactly once: hands, stock, pile (nothing made up).
        dealt = Counter(c for h in hands for c in h) + Counter(stock) + Counter(obs.pile)
        assert dealt == Counter(make_deck(g.rules.jokers))
    world = build_world(obs, random.Random(1))
    assert world.deal.stock[0] == ind


def test_whoever_draws_the_indicator_is_known_to_hold_it() -> None:
    g = _game(8)
    ind = g.deal.indicator
    assert ind is not None
    # Both seats draw and throw the card drawn until the stock's last card is drawn.
    while True:
        seat = g.to_move
        assert seat is not None
        g.apply("draw")
        drawn = g.deal.stock_card
        assert drawn is not None
        if not g.deal.stock:
            break
        g.apply(f"discard {drawn}")
    assert drawn == ind
    watcher = Observation.from_view(g.view(1 - seat), g.history())
    assert watcher.indicator_below is None
    assert ind in watcher.memory[seat].holds
    assert ind in watcher.unseen  # hidden again, in the drawer's hand
    # A world sampled for the watcher deals the indicator to the drawer.
    g.apply(f"discard {g.deal.hands[seat][0]}" if g.deal.hands[seat][0] != ind
            else f"discard {g.deal.hands[seat][1]}")
    obs = _obs(g)
    assert obs.seat == 1 - seat and ind in obs.memory[seat].holds
    hands, _ = deal_hidden(obs, random.Random(3))
    assert ind in hands[seat]


def test_bots_play_indian_deals_with_the_indicator_under_the_stock() -> None:
    for seed in range(3):
        g = _game(seed)
        bots = [make_bot("medium"), make_bot("hard", 0.05)]
        rng = random.Random(seed)
        while g.to_move is not None and g.deal is g.deals[0]:
            rep = play_turn(g, g.to_move, bots[g.to_move], rng)
            assert not rep.fallback, rep
