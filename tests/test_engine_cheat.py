"""A player sending whatever it likes learns nothing it cannot see from the engine's answers.

Random games of every variant (with the house rules that add duties and refusals); at random
moments the seat to move sends random actions, legal or not, naming cards of its hand, of the
table, of the pile and cards it cannot see (another hand, the stock). Two worlds that differ
only in cards hidden from that seat must answer every action alike (the same acceptance, the
same refusal text: a difference is an oracle), a refusal may only name cards the seat sees or
named itself, and every seat's view must stay the same when a card hidden from it moves
between another hand and the stock, or the stock is shuffled. See docs/server.md, *What a
client can never learn*.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from rummykit.bots import make_bot, observe, play_turn
from rummykit.bots.world import build_world
from rummykit.engine import Game
from rummykit.errors import RummyError

CARD = re.compile(r"^(?:[A2-9TJQK]|10)[SHDC]$|^X$")

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("rummy", 2, {}),
    ("rummy", 3, {"taken_card_duty": True, "freed_joker_duty": True, "first_extra": True}),
    ("rummy", 2, {"max_restocks": 3, "restock_keeps_top": False}),
    ("rami51", 4, {"taken_card_duty": True}),
    ("rami71", 2, {"freed_joker_duty": True, "swap": "fourth"}),
    ("simple", 2, {"taken_card_duty": True, "discard_taken": True}),
    ("indian", 2, {"format": "points"}),
    ("indian", 3, {"format": "pool101", "indicator_in_stock": True, "jokers_from_discard": True}),
]


def _cards_named(text: str) -> set[str]:
    return {t for t in re.split(r"[\s/,;:()'\"\[\].]+", text) if CARD.match(t)}


def _answer(game: Game, action: str) -> str:
    try:
        game.check(action)
    except RummyError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "legal"


def _public(game: Game) -> set[str]:
    """The cards face up now, and every card an event of the deal named."""
    pub = game.public_view()
    out = set(pub["pile"])
    for m in pub["table"]:
        out.update(m["cards"])
    if pub.get("indicator"):
        out.add(pub["indicator"])
    for e in game.history():
        out |= _cards_named(json.dumps(e))
    return out


def _attempts(game: Game, seat: int, rng: random.Random) -> list[str]:
    hand = [c.text for c in game.hand(seat)]
    hidden = [c.text for s in range(game.players) if s != seat for c in game.hand(s)]
    hidden += [c.text for c in game.deal.stock]
    pub = game.public_view()
    table = [c for m in pub["table"] for c in m["cards"]]
    pools: list[list[str]] = [p for p in (hand, hand, hidden, table, list(pub["pile"])) if p]

    def card() -> str:
        return rng.choice(rng.choice(pools))

    def group(k: int) -> str:
        return " ".join(card() for _ in range(k))

    n = max(1, len(pub["table"]))
    out = ["draw", "take", "drop", f"discard {card()}", f"meld {group(rng.randint(2, 4))}",
           f"open {group(3)} / {group(3)}", f"layoff {rng.randint(1, n)} {card()} low",
           f"layoff {rng.randint(1, n)} {card()}", f"swap {rng.randint(1, n)} {card()}",
           f"declare {group(3)} / {group(3)} / {group(3)} / {group(4)}"]
    if hidden and len(hand) >= 2:
        # the seat's own cards with one it cannot see: the likeliest oracle
        a, b = rng.sample(hand, 2)
        x = rng.choice(hidden)
        out += [f"meld {a} {b} {x}", f"open {a} {b} {x}", f"discard {x}",
                f"layoff {rng.randint(1, n)} {x}", f"swap {rng.randint(1, n)} {x}"]
        if len(hand) >= 13:
            shown = list(hand)
            rng.shuffle(shown)
            shown[0] = x
            out.append("declare " + " / ".join(
                " ".join(shown[i:i + 3]) for i in range(0, len(shown) - 1, 3)))
    return out


def _check_position(game: Game, rng: random.Random) -> None:
    seat = game.to_move
    assert seat is not None
    worlds = [build_world(observe(game, seat), random.Random(rng.random())) for _ in range(2)]
    seen = set(game.view(seat).get("hand") or []) | _public(game)
    for action in _attempts(game, seat, rng):
        answer = _answer(game, action)
        leaked = _cards_named(answer) - seen - _cards_named(action)
        assert not leaked, (action, answer)
        for world in worlds:
            assert _answer(world, action) == answer, action
    # every seat's view, when a card it cannot see changes place
    known = _public(game)
    d = game.deal
    face_up = bool(game.rules.indicator_in_stock and game.rules.indicator and not d.restocks)
    stock = [i for i, c in enumerate(d.stock) if not (face_up and i == 0) and c.text not in known]
    for s in range(game.players):
        for t in range(game.players):
            cards = [i for i, c in enumerate(d.hands[t]) if c.text not in known]
            if t == s or not cards or not stock:
                continue
            twin = copy.deepcopy(game)
            i, j = rng.choice(cards), rng.choice(stock)
            twin.deal.hands[t][i], twin.deal.stock[j] = twin.deal.stock[j], twin.deal.hands[t][i]
            assert twin.view(s) == game.view(s), (s, t)
        twin = copy.deepcopy(game)
        rest = twin.deal.stock[int(face_up):]
        rng.shuffle(rest)
        twin.deal.stock[int(face_up):] = rest
        assert twin.view(s) == game.view(s), s
        assert twin.public_view() == game.public_view()


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_answers_depend_only_on_what_the_seat_sees(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    bot = make_bot("medium")
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(variant, players, options, seed=seed)
        for _ in range(150):
            if game.over:
                break
            if game.to_move is None:
                game.next_deal()
                continue
            if rng.random() < 0.3:
                _check_position(game, rng)
                checked += 1
            play_turn(game, game.to_move, bot, rng)
    assert checked >= 10


def test_unseeded_shuffles_are_secure() -> None:
    # The server makes its games with neither a seed nor a deck: every deal and every rebuilt
    # stock must then come from the operating system's randomness, not from Python's seeded
    # generator (which a seed, the time or the module's state would predict), and a record
    # (which a finished game's page serves) must carry no seed to predict the next game with.
    random.seed(7)
    a = Game.new("rummy", 2)
    random.seed(7)
    b = Game.new("rummy", 2)
    assert a.deal.deck != b.deal.deck
    assert "seed" not in a.record()
    replayed = Game.from_record(a.record())
    assert type(replayed._rng) is random.SystemRandom  # later deals of a restored room
    assert type(a._rng) is random.SystemRandom
