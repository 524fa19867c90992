"""Game records (JSON) and their replay."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from rummykit.cards import Card, parse_card
from rummykit.errors import InvalidNotation, InvalidRecord, RummyError

if TYPE_CHECKING:
    from rummykit.engine.game import Game


def make_record(game: Game) -> dict[str, Any]:
    """The record of everything played so far; replaying it rebuilds the same state."""
    record: dict[str, Any] = {
        "variant": game.variant,
        "players": game.players,
        "options": game.rules.options(),
    }
    if game.seed is not None:
        record["seed"] = game.seed
    deals = []
    for d in game.deals:
        entry: dict[str, Any] = {
            "dealer": d.dealer,
            "deck": [c.text for c in d.deck],
            "actions": list(d.actions),
        }
        if d.restock_orders:
            entry["restocks"] = [[c.text for c in order] for order in d.restock_orders]
        deals.append(entry)
    record["deals"] = deals
    return record


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InvalidRecord(f"{where} must be a list of cards")
    try:
        return [parse_card(c) for c in value]
    except InvalidNotation as exc:
        raise InvalidRecord(f"{where}: {exc}") from None


def load_record(source: Mapping[str, Any] | str) -> Mapping[str, Any]:
    """A record as a mapping, from JSON text or as given; :class:`InvalidRecord` if it is
    not a JSON object."""
    if isinstance(source, str):
        try:
            record = json.loads(source)
        except json.JSONDecodeError as exc:
            raise InvalidRecord(f"the record is not valid JSON: {exc.msg} at line {exc.lineno}") \
                from None
        except ValueError:
            # int() refuses a number of over 4300 digits with a plain ValueError.
            raise InvalidRecord("the record holds a number too long to read") from None
        except RecursionError:
            raise InvalidRecord("the record nests lists or objects too deeply") from None
    else:
        record = source
    if not isinstance(record, Mapping):
        raise InvalidRecord("a record is a JSON object")
    return record


def replay(source: Mapping[str, Any] | str) -> Game:
    """Rebuild a game from its record; raise :class:`InvalidRecord` naming the deal, the
    action number (from 1 within its deal), the action and the reason at the first fault."""
    game: Game | None = None
    for step in replay_steps(source):
        game = step[0]
    assert game is not None
    # From here on the game goes on as a live one: further rebuilds shuffle afresh.
    game._replaying = False
    game._planned_restocks.clear()
    return game


def replay_steps(source: Mapping[str, Any] | str) -> Iterator[tuple[Game, int, int, str | None]]:
    """Replay a record step by step: yield ``(game, deal, step, action)`` once each deal is
    dealt (step 0, action None) and after each of its actions (step 1, 2, ... and the action's
    text). The same game object is yielded every time, changed in place: read what is needed
    before asking for the next step. Faults raise :class:`InvalidRecord` as :func:`replay`
    says, when the replay reaches them."""
    from rummykit.engine.game import Game
    from rummykit.rules import make_rules

    record = load_record(source)
    for key in ("variant", "players", "deals"):
        if key not in record:
            raise InvalidRecord(f"the record lacks the field {key!r}")
    if not isinstance(record["variant"], str):
        # make_rules looks the name up in a dict: a list there would raise a TypeError.
        raise InvalidRecord(f"variant must be a name, not {record['variant']!r}")
    options = record.get("options")
    if options is None:
        options = {}
    elif not isinstance(options, Mapping):
        raise InvalidRecord("options must be an object")
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise InvalidRecord("deals must be a non-empty list")
    seed = record.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidRecord("seed must be an integer")
    try:
        rules = make_rules(record["variant"], record["players"], options)
    except RummyError as exc:
        raise InvalidRecord(str(exc)) from None
    game: Game | None = None
    for k, entry in enumerate(deals, 1):
        if not isinstance(entry, Mapping):
            raise InvalidRecord(f"deal {k} must be an object")
        for key in ("deck", "actions"):
            if key not in entry:
                raise InvalidRecord(f"deal {k} lacks the field {key!r}")
        deck = _cards(entry["deck"], f"deal {k} deck")
        actions = entry["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidRecord(f"deal {k}: actions must be a list of strings")
        restocks = entry.get("restocks")
        planned = None
        if restocks is not None:
            if not isinstance(restocks, list):
                raise InvalidRecord(f"deal {k}: restocks must be a list of card lists")
            planned = [_cards(r, f"deal {k} restock {i}") for i, r in enumerate(restocks, 1)]
        try:
            if game is None:
                game = Game(rules, seed=seed, rng=None, deck=_checked_deck(deck, rules, k))
                game._replaying = True
                if planned is not None:
                    # The first deal started before its restocks were known; none happened yet.
                    game._planned_restocks[1] = planned
            else:
                if game.over:
                    raise InvalidRecord(f"deal {k}: the game was already over")
                if not game.deal.over:
                    raise InvalidRecord(f"deal {k} starts before deal {k - 1} is over")
                if planned is not None:
                    game._planned_restocks[k] = planned
                game.next_deal(_checked_deck(deck, rules, k))
        except InvalidRecord:
            raise
        except RummyError as exc:
            raise InvalidRecord(f"deal {k}: {exc}") from None
        dealer = entry.get("dealer")
        if dealer is not None and type(dealer) is not int:
            # "0" or 0.0 would read as the same seat in the message and still be refused.
            raise InvalidRecord(f"deal {k}: dealer must be a seat number, not {dealer!r}")
        if dealer is not None and dealer != game.deal.dealer:
            raise InvalidRecord(
                f"deal {k}: the record says seat {dealer} deals, the rules say seat "
                f"{game.deal.dealer}"
            )
        yield game, k, 0, None
        for i, text in enumerate(actions, 1):
            try:
                game.apply(text)
            except RummyError as exc:
                raise InvalidRecord(f"deal {k}, action {i} {text!r}: {exc}") from None
            yield game, k, i, text


def _checked_deck(deck: list[Card], rules: Any, k: int) -> list[Card]:
    from rummykit.engine.game import _deck_cards

    try:
        return _deck_cards(deck, rules)
    except RummyError as exc:
        raise InvalidRecord(f"deal {k}: {exc}") from None
