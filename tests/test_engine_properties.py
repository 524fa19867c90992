"""Property-based tests over random games of every variant.

Each example plays a seeded game with random legal actions (and, now and then, a burst of
automatic plays to reach the stock's end) and checks at every step:

- every card of the variant is somewhere: hands, table, pile, stock, indicator;
- no view shows another seat's hand or the stock order, and a view does not change when the
  cards a seat cannot see are dealt differently;
- every action ``legal_actions()`` offers passes ``is_legal`` and applies (on a copy);
- random other actions (random verbs, cards, numbers) are refused with the state unchanged;
- the game record replays (as a dict and as JSON text) to the same views and the same record.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import FACES, Card, format_cards
from rummykit.engine import Action, Declare, Game, Layoff, NewMeld, Open, Swap, parse_action
from rummykit.engine.actions import VERBS
from rummykit.errors import RummyError
from tests.helpers import all_cards, clone, full_deck, shuffle_hidden

CONFIGS = [
    ("rummy", 2), ("rummy", 4), ("rummy", 6),
    ("rami51", 2), ("rami51", 4), ("rami71", 2), ("rami71", 4),
    ("simple", 2), ("simple", 4),
    ("indian", 2), ("indian", 4),
]
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "rummy": [{}, {"opening": 30, "length": "to-200", "dealer_after": "winner",
                   "restock_keeps_top": False},
              {"opening": 51, "blocked_deal": "void", "max_restocks": 0}],
    "rami51": [{}, {"dealer_after": "winner", "restock_keeps_top": False}], "rami71": [{}],
    "simple": [{}, {"timeout_discard": "heaviest"}],
    "indian": [{}, {"format": "deals", "jokers_from_discard": True,
                    "wrong_declaration_ends": True, "loser_melds": "all_cards"},
               {"format": "points", "indicator_in_stock": True, "loser_melds": "pure_sequence",
                "restock_keeps_top": False}],
}
LAYING = ("open", "meld", "layoff", "swap", "declare")
#: More random games: RUMMYKIT_EXAMPLES=500 python -m pytest tests/test_engine_properties.py
EXAMPLES = int(os.environ.get("RUMMYKIT_EXAMPLES", "12"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


# -- helpers ----------------------------------------------------------------------------------


def views(g: Game) -> list[dict[str, Any]]:
    return [g.view(s) for s in range(g.players)] + [g.public_view()]


def state_of(g: Game) -> str:
    """Everything a view or a record is built from (cheaper than building every view)."""
    d = g.deal

    def texts(cards: Any) -> list[str]:
        return [c.text for c in cards]

    def text(c: Card | None) -> str | None:
        return None if c is None else c.text

    return json.dumps({
        "record": g.record(), "version": g.version, "totals": g.scores, "over": g.over,
        "results": len(g.results), "hands": [texts(h) for h in d.hands],
        "stock": texts(d.stock), "pile": texts(d.pile), "opened": d.opened, "out": d.out,
        "table": [texts(tm.meld.cards) for tm in d.table], "drew": d.drew, "turn": d.turn,
        "phase": d.phase, "drawn": d.drawn, "stock_card": text(d.stock_card),
        "took": text(d.took), "owed": text(d.owed), "freed": d.freed, "acted": d.acted,
        "returned": d.returned, "restocks": d.restocks, "events": len(d.events),
    })


def check_cards(g: Game) -> None:
    assert all_cards(g) == full_deck(g), "a card appeared or vanished"


def _sublist(needle: list[str], hay: str) -> bool:
    return json.dumps(needle) in hay


def check_privacy(g: Game, rng: random.Random) -> None:
    d = g.deal
    stock = [c.text for c in reversed(d.stock)]  # top first
    for s in range(g.players):
        v = g.view(s)
        assert v["hand"] == [c.text for c in g.hand(s)]
        assert v["stock"] == len(d.stock)
        text = json.dumps({k: val for k, val in v.items() if k != "hand"})
        if len(stock) >= 4:
            assert not _sublist(stock, text) and not _sublist(stock[::-1], text)
        if d.over:
            continue  # the deal's end shows every hand (public once it is over)
        for o in range(g.players):
            other = [c.text for c in g.hand(o)]
            if o != s and len(other) >= 4:
                assert not _sublist(other, json.dumps(v)), f"seat {s} sees seat {o}'s hand"
    pv = json.dumps(g.public_view())
    assert "hand" not in g.public_view()
    if not d.over:
        for o in range(g.players):
            other = [c.text for c in g.hand(o)]
            if len(other) >= 4:
                assert not _sublist(other, pv)
    # A view is built from what its seat knows: dealing the unseen cards differently (other
    # hands, the stock) leaves it unchanged.
    if d.over:
        return
    s = rng.randrange(g.players)
    twin = shuffle_hidden(g, s, rng)
    assert twin.view(s) == g.view(s), f"seat {s}'s view depends on cards it cannot see"


def check_replay(g: Game) -> None:
    rec = g.record()
    want = views(g)
    for source in (rec, json.dumps(rec)):
        again = Game.from_record(source)
        assert views(again) == want
        assert again.record() == rec
        assert again.version == g.version


def check_legal_actions(g: Game, legal: list[Action], rng: random.Random) -> None:
    verbs = {a.verb for a in legal}
    own = g.view(g.to_move) if g.to_move is not None else None
    if own is not None:
        can = verbs - {"timeout"}
        if g.rules.lay_mode == "declare" and own["turn"]["phase"] == "play":
            # Any 13 of the 14 cards may be declared (a wrong declaration costs 80), though
            # legal_actions() lists only a valid declaration.
            can.add("declare")
        assert set(own["turn"]["can"]) == can
        # The one-tap open of the meter and the declaration check agree with the list.
        meter = (own["opening"] or {}).get("meter") or {}
        if meter.get("action"):
            assert parse_action(meter["action"]) in legal or g.is_legal(meter["action"])
            assert "open" in verbs
        if own["turn"]["phase"] == "play" and g.rules.lay_mode != "declare" and meter:
            assert ("open" in verbs) == bool(meter.get("action")), "meter and legal disagree"
        decl = own.get("declaration")
        if decl is not None:
            assert decl["valid"] == ("declare" in verbs)
            if decl["valid"]:
                assert g.is_legal(decl["action"])
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    for a in legal:
        assert g.is_legal(a), f"{a} is listed but not legal"
        assert parse_action(str(a)) == a
    for i, a in enumerate(rng.sample(legal, min(2, len(legal)))):
        twin = clone(g)
        twin.apply(a)
        check_cards(twin)
        if i == 0:
            # The same action on a copy rebuilt from the record gives the same state.
            again = Game.from_record(g.record())
            again.apply(a)
            assert state_of(again) == state_of(twin)


def random_action(g: Game, rng: random.Random) -> str:
    """A random action line, often built from the cards in hand so it is nearly legal."""
    hand = g.hand(g.to_move) if g.to_move is not None else []
    table = len(g.deal.table)

    def a_card() -> Card:
        if hand and rng.random() < 0.8:
            return rng.choice(hand)
        return rng.choice(FACES)

    def a_group(size: int) -> list[Card]:
        if hand and rng.random() < 0.8 and len(hand) >= size:
            return rng.sample(hand, size)
        return [a_card() for _ in range(size)]

    verb = rng.choice(VERBS)
    if verb in ("draw", "take", "return", "drop", "timeout"):
        return verb
    if verb == "discard":
        return f"discard {a_card().text}"
    if verb == "meld":
        return "meld " + format_cards(a_group(rng.choice((3, 3, 4, 5))))
    if verb in ("layoff", "swap"):
        n = rng.randint(0, table + 1)
        end = rng.choice(("", "", " low", " high")) if verb == "layoff" else ""
        return f"{verb} {n} {a_card().text}{end}"
    # open / declare: a random split of some cards of the hand into groups.
    if verb == "declare" and len(hand) == 14 and rng.random() < 0.5:
        cards = rng.sample(hand, 13)
    else:
        cards = a_group(rng.randint(3, max(3, min(len(hand), 14))))
    groups, i = [], 0
    while i < len(cards):
        k = rng.choice((3, 3, 4, 5))
        groups.append(cards[i : i + k])
        i += k
    return f"{verb} " + " / ".join(format_cards(gr) for gr in groups)


def mutants(g: Game, legal: list[Action], rng: random.Random) -> list[str]:
    """Actions one small change away from legal ones: the likeliest to be wrongly listed or
    wrongly missing."""
    hand = g.hand(g.to_move) if g.to_move is not None else []
    out: list[str] = []
    for a in rng.sample(legal, min(4, len(legal))):
        if isinstance(a, Layoff):
            for end in ("", " low", " high"):
                out.append(f"layoff {a.number} {a.card.text}{end}")
            out.append(f"layoff {a.number + 1} {a.card.text}")
            out.append(f"swap {a.number} {a.card.text}")
        elif isinstance(a, Swap):
            out.append(f"layoff {a.number} {a.card.text}")
        elif isinstance(a, NewMeld | Open) and not isinstance(a, Declare):
            groups = [list(m) for m in (a.melds if isinstance(a, Open) else (a.cards,))]
            k = rng.randrange(len(groups))
            if hand:
                groups[k].append(rng.choice(hand))
            if len(groups) > 1 and rng.random() < 0.5:
                groups.pop(rng.randrange(len(groups)))
            elif len(groups[k]) > 3:
                groups[k].pop(rng.randrange(len(groups[k])))
            verb = "open" if isinstance(a, Open) else "meld"
            if verb == "meld" or rng.random() < 0.3:
                verb = "meld" if verb == "open" and len(groups) == 1 else verb
            out.append(f"{verb} " + " / ".join(format_cards(m) for m in groups))
    return out


def check_refusals(g: Game, legal: list[Action], rng: random.Random, tries: int = 6) -> None:
    legal_set = set(legal)
    before = state_of(g)
    texts = [random_action(g, rng) for _ in range(tries)] + mutants(g, legal, rng)
    for text in texts:
        try:
            act = parse_action(text)
        except RummyError:
            with pytest.raises(RummyError):
                g.apply(text)
            assert state_of(g) == before
            continue
        if act in legal_set:
            continue
        if isinstance(act, Declare) and g.is_legal(act):
            # Indian rummy: declaring is legal for ANY arrangement of 13 of the 14 cards (a
            # wrong one costs 80), but legal_actions() lists only a valid declaration.
            twin = clone(g)
            twin.apply(act)
            check_cards(twin)
            continue
        assert not g.is_legal(act), f"{act} is legal but legal_actions() does not list it"
        with pytest.raises(RummyError):
            g.apply(act)
        assert state_of(g) == before, f"refused {act} changed the state"


def choose(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action, biased towards laying cards so games get somewhere."""
    laying = [a for a in legal if a.verb in LAYING]
    if laying and rng.random() < 0.75:
        return rng.choice(laying)
    plain = [a for a in legal if a.verb not in ("timeout", "drop")]
    if rng.random() < 0.04 or not plain:
        rare = [a for a in legal if a.verb in ("timeout", "drop")]
        return rng.choice(rare or legal)
    return rng.choice(plain)


def play_random(variant: str, players: int, options: dict[str, Any], seed: int, burst: int,
                steps: int) -> Game:
    g = Game.new(variant, players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(burst):
        if g.to_move is None:
            break
        g.apply("timeout")
    check_cards(g)
    for step in range(steps):
        if g.phase == "game-over":
            break
        if g.phase == "deal-over":
            check_privacy(g, rng)
            g.next_deal()
            check_cards(g)
            continue
        legal = g.legal_actions()
        assert legal, "a live deal always has a legal action (timeout at least)"
        check_legal_actions(g, legal, rng)
        check_refusals(g, legal, rng)
        if step % 8 == 0:
            check_privacy(g, rng)
        g.apply(choose(legal, rng))
        check_cards(g)
    check_privacy(g, rng)
    check_replay(g)
    return g


# -- the properties -------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), burst=st.sampled_from([0, 0, 0, 60, 150]),
       which=st.integers(0, 2))
def test_random_games(variant: str, players: int, seed: int, burst: int, which: int) -> None:
    opts = OPTIONS[variant][which % len(OPTIONS[variant])]
    play_random(variant, players, opts, seed, burst, steps=50)


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("rummy", 3, {"length": "to-200"}),
    ("rami51", 2, {}),
    ("rami71", 4, {}),
    ("indian", 3, {"format": "pool101"}),
    ("indian", 2, {"format": "deals"}),
])
@settings(max_examples=2, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_played_to_the_end_replay(
    variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Whole games (lay-downs whenever possible, else draws and discards, drops now and then):
    the game ends, the record replays, the totals add up."""
    g = Game.new(variant, players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(8000):
        if g.phase == "game-over":
            break
        if g.phase == "deal-over":
            g.next_deal()
            continue
        legal = g.legal_actions()
        laying = [a for a in legal if a.verb in LAYING]
        plain = [a for a in legal if a.verb in ("draw", "discard")]
        if laying and rng.random() < 0.9:
            act: Action | str = rng.choice(laying)
        elif variant == "indian" and rng.random() < 0.05:
            act = "drop"
        elif plain and rng.random() < 0.95:
            act = rng.choice(plain)
        else:
            act = "timeout"
        g.apply(act)
    check_cards(g)
    assert g.over, "the game did not end"
    check_replay(g)
    if variant == "rummy":
        for r in g.results:
            if not r.blocked:
                assert r.points == sum(r.penalties) * (2 if r.double else 1)
        assert sum(g.scores) == sum(r.points for r in g.results)
    else:
        assert all(r.points == sum(r.penalties) for r in g.results)
    rules = g.rules
    if rules.scoring == "rami":
        # The side that reached its limit lost; the other one is the winner.
        assert [t >= rules.limit for t in g.scores].count(True) == 1
        assert g.scores[g.winner] < rules.limit  # type: ignore[index]
        assert [r.dealer for r in g.results] == [k % players for k in range(len(g.results))]
    if rules.length == "pool101":
        assert g.scores[g.winner] <= rules.limit  # type: ignore[index]
        assert sum(not e for e in g.score.eliminated) == 1
