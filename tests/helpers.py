"""Helpers of the engine tests: explicit decks built from the hands a test wants, and games."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummykit.cards import FACES, Card, format_cards, make_deck, parse_cards
from rummykit.engine import Game
from rummykit.rules import make_rules


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def _as_cards(value: str | Iterable[Card | str]) -> list[Card]:
    if isinstance(value, str):
        return cards(value)
    out: list[Card] = []
    for c in value:
        out.extend(parse_cards(c) if isinstance(c, str) else [c])
    return out


def build_deck(
    variant: str,
    players: int,
    hands: Mapping[int, str | Sequence[str]],
    *,
    dealer: int = 0,
    starter: str | None = None,
    indicator: str | None = None,
    extra: str | None = None,
    stock: str | Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    fill_seed: int = 0,
    seats: Sequence[int] | None = None,
) -> list[Card]:
    """A full deck of ``variant`` (every card exactly once) that deals the given hands.

    ``hands`` maps a seat to its cards (all of them, or the first few: the rest is filled from
    the cards nobody asked for, in an order shuffled by ``fill_seed``). ``starter`` is the card
    that starts the pile (rummy, indian), ``indicator`` the wild-joker indicator (indian),
    ``extra`` the first player's 15th card (Rami), ``stock`` the top cards of the stock, top
    first. Dealing is one card at a time to each seat starting after the dealer; ``seats``
    lists the seats still playing (Indian pools: eliminated seats get no cards).
    """
    rules = make_rules(variant, players, options)
    wanted: dict[int, list[Card]] = {s: _as_cards(h) for s, h in hands.items()}
    special: list[Card] = []
    for value in (starter, indicator, extra):
        if value is not None:
            special.extend(cards(value))
    top = _as_cards(stock)
    used = Counter(special) + Counter(top)
    for h in wanted.values():
        if len(h) > rules.hand_size + (1 if rules.first_extra else 0):
            raise ValueError(f"a hand of {len(h)} cards is too big")
        used += Counter(h)
    full = Counter(make_deck(rules.jokers))
    if used - full:
        extra_cards = format_cards((used - full).elements())
        raise ValueError(f"more copies than the deck holds: {extra_cards}")
    rest = list((full - used).elements())
    random.Random(fill_seed).shuffle(rest)

    def take_rest() -> Card:
        return rest.pop()

    order = [(dealer + i) % players for i in range(1, players + 1)]
    if seats is not None:
        order = [s for s in order if s in seats]
    first = order[0]
    big_first = first in wanted and len(wanted[first]) > rules.hand_size
    if rules.first_extra and extra is None and big_first:
        # A 15-card hand given for the first player: its last card is the 15th.
        extra_card: Card | None = wanted[first][-1]
        wanted[first] = wanted[first][:-1]
    elif rules.first_extra:
        extra_card = cards(extra)[0] if extra is not None else None
    else:
        extra_card = None
    full_hands = {s: list(wanted.get(s, [])) for s in order}
    for s in order:
        while len(full_hands[s]) < rules.hand_size:
            full_hands[s].append(take_rest())
    deck: list[Card] = []
    for i in range(rules.hand_size):
        for s in order:
            deck.append(full_hands[s][i])
    if rules.first_extra:
        deck.append(extra_card if extra_card is not None else take_rest())
    if rules.indicator:
        deck.append(cards(indicator)[0] if indicator is not None else take_rest())
    if rules.starter:
        deck.append(cards(starter)[0] if starter is not None else take_rest())
    deck.extend(top)
    deck.extend(reversed(rest))
    assert Counter(deck) == full, "helper bug: the deck is not complete"
    return deck


def new_game(
    variant: str,
    players: int,
    hands: Mapping[int, str | Sequence[str]],
    *,
    options: Mapping[str, Any] | None = None,
    seed: int | None = 1,
    **kw: Any,
) -> Game:
    """A game whose first deal deals ``hands`` (see :func:`build_deck`); ``seed`` orders the
    stock rebuilds and later deals."""
    deck = build_deck(variant, players, hands, options=options, **kw)
    return Game.new(variant, players, options, deck=deck, seed=seed)


def play(game: Game, *actions: str) -> Game:
    for a in actions:
        game.apply(a)
    return game


def hand_text(game: Game, seat: int) -> list[str]:
    return sorted(c.text for c in game.hand(seat))


def same(a: Iterable[Card | str], b: Iterable[Card | str]) -> bool:
    """Same multiset of cards."""
    return Counter(_as_cards(a)) == Counter(_as_cards(b))


def all_cards(game: Game) -> Counter[Card]:
    """Every card of the current deal wherever it is (engine-side state, for invariants)."""
    d = game.deal
    found: Counter[Card] = Counter()
    for h in d.hands:
        found.update(h)
    for tm in d.table:
        found.update(tm.meld.cards)
    found.update(d.pile)
    found.update(d.stock)
    if d.indicator is not None and not game.rules.indicator_in_stock:
        found[d.indicator] += 1  # out of play; under indicator_in_stock it is a stock card
    return found


_SHARED = {id(c): c for c in FACES}


def clone(g: Game) -> Game:
    """An independent copy of a game (cards, rules and melds are immutable: shared)."""
    memo: dict[int, Any] = dict(_SHARED)
    memo[id(g.rules)] = g.rules
    for d in g.deals:
        memo[id(d.deck)] = d.deck
        memo[id(d.meld_rules)] = d.meld_rules
        for tm in d.table:
            memo[id(tm)] = tm
    return copy.deepcopy(g, memo)


def full_deck(game: Game) -> Counter[Card]:
    return Counter(make_deck(game.rules.jokers))


def snapshot(game: Game) -> str:
    """Everything observable about a game: its record and every seat's view, as JSON text."""
    views = [game.view(s) for s in range(game.players)]
    return json.dumps({"record": game.record(), "views": views, "public": game.public_view()},
                      sort_keys=True)


def shuffle_hidden(g: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``g`` in which every card ``seat`` cannot see (the other hands, the stock)
    is dealt again at random: the seat's view of it must be the same."""
    twin = clone(g)
    td = twin.deal
    # The Indian indicator lying face up under the first stock is public: it stays.
    face_up = g.rules.indicator_in_stock and td.restocks == 0 and bool(td.stock)
    bottom = td.stock[:1] if face_up else []
    unseen = [c for o in range(g.players) if o != seat for c in td.hands[o]]
    unseen += td.stock[len(bottom):]
    rng.shuffle(unseen)
    for o in range(g.players):
        if o != seat:
            n = len(td.hands[o])
            td.hands[o], unseen = unseen[:n], unseen[n:]
    td.stock = bottom + unseen
    return twin


def medium_game(variant: str, players: int, deals: int, *, seed: int = 5,
                options: Mapping[str, Any] | None = None, deal_next: bool = True) -> Game:
    """A game of medium bots after ``deals`` deals (or its end, if sooner), the bots' choices
    drawn from ``random.Random(seed)``; ``deal_next``: the game must go on, and its next deal
    is dealt."""
    from rummykit.bots import make_bot, play_deal

    game = Game.new(variant, players=players, seed=seed, options=dict(options or {}))
    bots = [make_bot("medium") for _ in range(players)]
    rng = random.Random(seed)
    while True:
        assert play_deal(game, bots, rng)
        if game.over or len(game.results) >= deals:
            break
        game.next_deal()
    if deal_next:
        assert not game.over, "the game ended too soon for the test"
        game.next_deal()
    return game
