"""Crafted inputs that must cost no more than ordinary ones: the solver's worst hands under
the house rules, and what a record or a client can make the engine and the server do.

Every test counts work (table entries made, states searched, bytes, items) or checks a
refusal; none times anything (``scripts/bench_adversarial.py`` times the same inputs).
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.analysis import analyze
from rummykit.cards import JOKER, Card, card, make_deck, parse_cards
from rummykit.engine import Action, Game, checks
from rummykit.errors import InvalidArgument
from rummykit.melds import MeldRules
from rummykit.server.botpool import FALLBACK_CHOICES, fallback_bot
from rummykit.server.config import ServerConfig
from rummykit.server.rooms import Connection, RoomManager
from rummykit.server.storage import SQLiteStorage
from rummykit.solver import (
    RUMMY_OPENING,
    RUMMY_PENALTY,
    SIMPLE_OPENING,
    best_close,
    best_opening,
    clear_tables,
    config,
    least_penalty,
)
from tests import solver_reference as ref
from tests.hunt import scaled
from tests.server_support import sent

examples = scaled("SOLVER_EXAMPLES")

#: The house rules that let one real card make a meld with jokers side by side, with every
#: printed joker and card a house rule allows.
LOOSE = {"jokers": 8, "hand_size": 17, "min_real": 1, "adjacent_jokers": True}


@pytest.fixture
def entries(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the solver's table entries made (its unit of work) from empty tables."""
    made = [0]
    grow = config._grow

    def counted() -> None:
        made[0] += 1
        grow()

    clear_tables()
    # Each module of the engine that makes entries reads ``_grow`` as a name of its own:
    # count in every one (one left out would count less work than is done).
    for name, module in list(sys.modules.items()):
        if name.startswith("rummykit.solver.") and getattr(module, "_grow", None) is grow:
            monkeypatch.setattr(module, "_grow", counted)
    yield made
    clear_tables()


def test_one_real_card_sets_do_not_make_a_dense_suit_branch(entries: list[int]) -> None:
    """With one real card a meld, a card and two jokers made a set, so every card of a
    dense suit was a set choice and the search walked the suit's subsets: this hand (a whole
    suit and three jokers) made over 100,000 table entries and took 13 s. A set of one real
    card is searched only where no run of the same cards weighs as much (the high ace of
    the opening)."""
    hand = "TH 2H 3H 4H 5H 6H 7H 8H 9H AC AH JH KC KH QH X X X"
    a = analyze(hand, "rummy", options=LOOSE)
    assert a.opening is not None and a.opening.best is not None
    assert a.opening.best.points == 148
    assert a.penalty.points == 0
    assert entries[0] < 30_000


@st.composite
def loose_hands(draw: st.DrawFn) -> tuple[list[Card], MeldRules]:
    """Small hands of a narrow window with up to three jokers, under one real card a meld."""
    rules = MeldRules(min_real=1, adjacent_jokers=draw(st.booleans()))
    low = draw(st.integers(1, 11))
    ranks = [r if r <= 13 else 1 for r in range(low, low + 4)]
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=2)))
    deck = [card(r, s) for r in ranks for s in suits for _ in range(2)]
    picks = draw(st.lists(st.integers(0, len(deck) - 1), unique=True, min_size=1, max_size=5))
    return [deck[i] for i in picks] + [JOKER] * draw(st.integers(0, 3)), rules


def _check_loose(cards: Sequence[Card], rules: MeldRules) -> None:
    clear_tables()
    got = best_opening(cards, RUMMY_OPENING, rules)
    assert (got.points if got else None) == ref.best_opening(cards, ref.RUMMY, rules)
    for rule, v in ((RUMMY_OPENING, ref.RUMMY), (SIMPLE_OPENING, ref.SIMPLE)):
        close = best_close(cards, rule, rules)
        want = ref.best_close(cards, v, rules)
        assert (None if close is None else (len(cards) - len(close.left), close.points)) == want
    assert least_penalty(cards, RUMMY_PENALTY, rules).points == ref.rummy_least_penalty(
        cards, rules
    )


@examples(120)
@given(loose_hands())
def test_one_real_card_answers_match_the_reference(case: tuple[list[Card], MeldRules]) -> None:
    """The sets of one real card left out of the search change no answer: the opening (its
    high ace keeps them), the closes (simple's needs a set) and the penalty."""
    _check_loose(*case)


@pytest.mark.parametrize(
    "hand",
    [
        "QH X X 2C",
        "KH X X X 2C",
        "5H X X 4C 4D",
    ],
)
@pytest.mark.parametrize("adjacent", [True, False])
def test_one_real_card_sets_that_matter(hand: str, adjacent: bool) -> None:
    _check_loose(parse_cards(hand), MeldRules(min_real=1, adjacent_jokers=adjacent))


# -- the server: a long deal ------------------------------------------------------------------


def test_a_long_deal_copies_each_event_once_per_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Rami deal rebuilds its stock without end, so two players drawing and discarding
    make a deal as long as they like. Every state sent used to copy the deal's whole history
    to find the new events: each action cost more than the one before (225 ms an action after
    30,000). Now each state copies only its own events; a spectator entering still gets them
    all, written once for every connection entering (2.4 MB of JSON after 30,000)."""
    copied = [0]
    history = Game.history

    def counted(game: Game, start: int = 0) -> list[dict[str, Any]]:
        out = history(game, start)
        copied[0] += len(out)
        return out

    monkeypatch.setattr(Game, "history", counted)
    storage = SQLiteStorage(str(tmp_path / "long.db"))
    manager = RoomManager(storage, ServerConfig(bot_pool="thread", offload_views=False))

    async def main() -> None:
        conns = [Connection(), Connection()]
        manager.handle(conns[0], {"type": "create", "id": 1, "variant": "rami51",
                                  "players": 2, "options": {"clock": 600}})
        room = next(r for r in manager.rooms.values() if conns[0] in r.watchers)
        manager.handle(conns[1], {"type": "join", "id": 1, "room": room.code})
        for seat, conn in enumerate(conns):
            manager.handle(conn, {"type": "sit", "id": 2, "seat": seat, "name": f"P{seat}"})
        game = room.game
        assert game is not None
        copied[0] = 0
        actions = 0
        while game.deal.restocks < 3:
            mover = game.to_move
            assert mover is not None
            drawn = game.phase != "draw"
            text = f"discard {game.view(mover)['hand'][-1]}" if drawn else "draw"
            manager.handle(conns[mover], {"type": "action", "id": 3, "version": game.version,
                                         "action": text})
            actions += 1
        assert game.phase != "deal-over"
        assert game.history_length() > actions
        # one copy per event (the new ones), not the whole deal's at every action
        assert copied[0] <= game.history_length() + actions
        # Entering, each spectator gets the deal's whole history, written once for all.
        copied[0] = 0
        for k in range(5):
            late = Connection()
            manager.handle(late, {"type": "join", "id": 4 + k, "room": room.code})
            state = [m for m in sent(late) if m["type"] == "state"][-1]
            assert state["events"] == game.history()
            assert state["view"] == game.public_view() and state["last"] is None
        assert copied[0] == 6 * game.history_length()  # once for the joins, 5 times above

    try:
        asyncio.run(main())
    finally:
        manager.close()
        storage.close()


@pytest.mark.parametrize("start", [-1, True, 1.0, "2"])
def test_history_from_a_start_that_is_no_count_is_refused(start: Any) -> None:
    game = Game.new("rummy", players=2, seed=1)
    with pytest.raises(InvalidArgument, match="start must be a whole number"):
        game.history(start)
    assert game.history(game.history_length()) == []
    assert game.history(1) == game.history()[1:]


# -- the engine: which verbs a view offers ------------------------------------------------------


def _dealt(variant: str, hand: str, options: dict[str, Any] | None = None) -> Game:
    """A two-seat game whose first player (seat 1) is dealt ``hand``."""
    rules = Game.new(variant, players=2, seed=1, options=options).rules
    mine = parse_cards(hand)
    rest = list(make_deck(rules.jokers))
    for c in mine:
        rest.remove(c)
    assert len(mine) == rules.hand_size + (1 if rules.first_extra else 0)
    deck: list[Card] = []
    for i in range(rules.hand_size):
        deck += [mine[i], rest.pop()]
    deck += [*mine[rules.hand_size:], *rest]
    return Game.new(variant, players=2, deck=deck, options=options)


@pytest.mark.parametrize(
    ("variant", "hand", "options"),
    [
        ("rami71", "2S 2H 2D 2C 3C 4C 5C 6C 7C 8C 9C TC JC X X", None),
        ("rami71", "KS KH KD 2C 3C 4C 5C 6C 7C 8C 9C X X X X X X X", {"jokers": 8,
                                                                       "hand_size": 17}),
    ],
)
def test_a_view_finds_the_open_verb_from_the_solver(
    variant: str, hand: str, options: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view says whether ``open`` is legal. It used to walk the combinations of the hand's
    candidate melds until the lay-down rules accepted one: on this plain rami71 hand (71
    points with jokers at zero, a joker-free run and set) that took 3 s, 13 s with the
    house rules' jokers, at every view. The solver's lay-down (the meter's one-tap open) is
    tried first."""
    game = _dealt(variant, hand, options)
    seat = game.to_move
    assert seat == 1 and game.phase == "play"
    tried = [0]
    rules_of = checks.lay_down_rules

    def counted(game: Game, *args: Any, **kwargs: Any) -> Any:
        tried[0] += 1
        return rules_of(game, *args, **kwargs)

    monkeypatch.setattr(checks, "lay_down_rules", counted)
    view = game.view(seat)
    assert "open" in view["turn"]["can"]
    assert view["opening"]["meter"]["action"] is not None
    assert tried[0] <= 4


# -- the server's fallback bot ------------------------------------------------------------------


def test_the_fallback_bot_chooses_among_the_first_actions_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When it can neither draw nor discard (a card taken from the pile is owed), the
    fallback bot chose among every legal action: this rami71 hand, having taken the 2C, can
    lay down in 1,016 ways, which took 9 s to list. It now chooses among the first ones."""
    rules = Game.new("rami71", players=2, seed=1).rules
    mine = parse_cards("2S 2H 2D 3C 4C 5C 6C 7C 8C 9C TC JC X X")
    first = parse_cards("2C 5H 9H KD 3S 7D 4H 8D JS QH 6S TH AD 5D AS")
    rest = list(make_deck(rules.jokers))
    for c in [*mine, *first]:
        rest.remove(c)
    deck: list[Card] = []
    for i in range(rules.hand_size):
        deck += [first[i], mine[i]]
    deck += [*first[rules.hand_size:], *rest]
    game = Game.new("rami71", players=2, deck=deck)
    game.apply("discard 2C")
    game.apply("take")
    listed = [0]
    iterate = Game.iter_legal_actions

    def counted(self: Game) -> Iterator[Action]:
        for action in iterate(self):
            listed[0] += 1
            yield action

    monkeypatch.setattr(Game, "iter_legal_actions", counted)
    monkeypatch.setattr(Game, "legal_actions", lambda self: list(counted(self)))
    action = fallback_bot(game, 0, random.Random(1))
    assert game.is_legal(action)
    assert listed[0] <= FALLBACK_CHOICES
