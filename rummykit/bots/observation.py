"""What a bot may know: one seat's view plus the public history of the deal.

An :class:`Observation` is built from plain data only -- the dict of ``game.view(seat)`` and
the list of ``game.history()`` events -- copied through JSON so that it holds no reference to
the game, its deck or its stock. Everything a bot decides comes from an observation.

The observation also keeps a *memory* of the deal, rebuilt from the public events: which
cards each seat took from the pile (and still holds), which it threw away, and which cards
nobody at this seat has seen (the other hands and the stock, in unknown order).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from rummykit.cards import JOKER, Card, make_deck, parse_card, parse_cards
from rummykit.engine import Game
from rummykit.errors import InvalidArgument, describe
from rummykit.melds import MeldRules
from rummykit.rules import Ruleset, make_rules

_LAYING = ("open", "meld", "layoff", "swap", "declare")


# What a bot reads of a view and of the history's events, by field: the types it takes (None
# among them for a field that may be null or missing). Checked once, when the observation is
# built, so that a malformed view is refused with its field named instead of failing deep
# inside a bot.
_NUMBER: Final = (int,)
_VIEW_SHAPE: Final[dict[str, tuple[Any, ...]]] = {
    "variant": (str,), "players": _NUMBER, "seat": _NUMBER, "deal": _NUMBER,
    "dealer": _NUMBER, "stock": _NUMBER, "restocks": _NUMBER, "hand": ("cards",),
    "pile": ("cards",), "table": (list,), "seats": (list,), "options": (Mapping, None),
    "turn": (Mapping, None), "over": (bool, None), "wild_rank": (int, None),
    "indicator": (str, None), "declaration": (Mapping, None),
}
_TABLE_SHAPE: Final[dict[str, tuple[Any, ...]]] = {"cards": ("cards",), "owner": _NUMBER}
_SEAT_SHAPE: Final[dict[str, tuple[Any, ...]]] = {
    "cards": _NUMBER, "opened": (bool,), "team": (int, None), "out": (str, None),
}
_TURN_SHAPE: Final[dict[str, tuple[Any, ...]]] = {
    "seat": _NUMBER, "phase": (str,), "drawn": (str, None), "taken": (str, None),
    "owes": ("cards",),
}
_EVENT_SHAPE: Final[dict[str, tuple[Any, ...]]] = {
    "action": (str,), "seat": (int, None), "card": (str, None), "drawn": (str, None),
    "meld": (str,), "melds": (list,), "undone": (bool, None), "draw": (bool, None),
}

#: The field an event of these actions always has (a bot reads it).
_EVENT_NEEDS: Final = {
    "take": "card", "return": "card", "discard": "card", "layoff": "card", "swap": "card",
    "meld": "meld",
}


def _check_shape(view: object, history: object) -> bool:
    """Raise :class:`InvalidArgument` naming the first field of the wrong shape; True when
    every event is as the engine makes them (:func:`_plain_event`)."""
    if not isinstance(view, Mapping):
        raise InvalidArgument(f"view must be a seat's view (a dict), not {describe(view)}")
    if view.get("seat") is None or "hand" not in view:
        raise InvalidArgument("view must be the view of a seat (with its hand), not a public view")
    _check_fields(view, _VIEW_SHAPE, "view")
    for i, m in enumerate(view["table"]):
        _check_fields(m, _TABLE_SHAPE, f"view table[{i}]")
    for i, seat in enumerate(view["seats"]):
        _check_fields(seat, _SEAT_SHAPE, f"view seats[{i}]")
    if len(view["seats"]) != view["players"]:
        raise InvalidArgument(f"view seats must list the {view['players']} seats of the table")
    if not 0 <= view["seat"] < view["players"]:
        raise InvalidArgument(f"view seat must be a seat of the table, not {view['seat']}")
    if view.get("turn") is not None:
        _check_fields(view["turn"], _TURN_SHAPE, "view turn")
    if not isinstance(history, Sequence) or isinstance(history, str):
        raise InvalidArgument(f"history must be a list of events (dicts), not {describe(history)}")
    plain = True
    for i, e in enumerate(history):
        # a plain event's action is text (or absent) and its melds, if any, a list of texts
        # already: only its fields' presence is left to check
        event_plain = _plain_event(e)
        if not event_plain:
            plain = False
            _check_fields(e, _EVENT_SHAPE, f"history[{i}]")
        need = _EVENT_NEEDS.get(e.get("action"))
        if need is not None and not isinstance(e.get(need), str):
            raise InvalidArgument(f"history[{i}] ({e['action']}) lacks its {need!r}")
        melds = [] if event_plain else e.get("melds", [])
        if not all(isinstance(m, str) for m in melds):
            raise InvalidArgument(f"history[{i}] melds must be card texts, not {describe(melds)}")
    return plain


#: The exact types of an event's fields that :func:`_check_fields` accepts (a bool only where
#: it is asked for), and of any other field's value that a JSON copy gives back unchanged.
_EVENT_TYPES: Final = {
    name: frozenset(type(None) if k is None else k for k in kinds) for name, kinds in
    _EVENT_SHAPE.items()
}
_SCALARS: Final = frozenset((str, int, bool, type(None)))


def _plain_event(e: object) -> bool:
    """Whether ``e`` is an event as the engine makes them: a dict of text keys whose values
    are text, whole numbers, bools, None or lists of text, each of a field's checked type.
    Such an event passes :func:`_check_fields` and :func:`_copy_events` copies it as JSON
    would; the check of every field, once per event at every decision, was most of the
    time of building an observation late in a long deal."""
    if type(e) is not dict:
        return False
    for name, value in e.items():
        kind = type(value)
        if kind is list:
            if not all(type(x) is str for x in value):
                return False
        elif kind not in _SCALARS:
            return False
        if type(name) is not str:
            return False
        kinds = _EVENT_TYPES.get(name)
        if kinds is not None and kind not in kinds:
            return False
    return True


def _copy_events(history: Sequence[Mapping[str, Any]], plain: bool) -> list[dict[str, Any]]:
    """A copy of the events as plain data, the same as :func:`_plain`'s (JSON) copy but made
    directly when every event is ``plain`` (:func:`_plain_event`), about twice as fast."""
    if plain:
        return [{k: list(v) if type(v) is list else v for k, v in e.items()} for e in history]
    return list(_plain([dict(e) for e in history]))


def _check_fields(data: object, shape: Mapping[str, tuple[Any, ...]], where: str) -> None:
    if not isinstance(data, Mapping):
        raise InvalidArgument(f"{where} must be a dict, not {describe(data)}")
    for name, kinds in shape.items():
        if name not in data:
            if None in kinds or where.startswith("history") or name == "team":
                continue
            raise InvalidArgument(f"{where} lacks the field {name!r}")
        value = data[name]
        if value is None and None in kinds:
            continue
        if "cards" in kinds:
            ok = isinstance(value, list) and all(isinstance(c, str) for c in value)
        else:
            types = tuple(k for k in kinds if isinstance(k, type))
            # A bool is an int to Python, never a count or a seat here.
            ok = isinstance(value, types) and not (
                isinstance(value, bool) and bool not in types
            )
        if not ok:
            what = "a list of card texts" if "cards" in kinds else " or ".join(
                "null" if k is None else k.__name__ for k in kinds
            )
            raise InvalidArgument(f"{where} field {name!r} must be {what}, not {describe(value)}")


def _plain(data: Any) -> Any:
    """A deep copy made of JSON values only (no object of the engine can survive it)."""
    return json.loads(json.dumps(data))


@dataclass(frozen=True, slots=True)
class SeatMemory:
    """What the public events say about one seat in this deal."""

    #: Cards the seat took from the pile and has not laid, thrown or returned since.
    holds: tuple[Card, ...] = ()
    #: Every card the seat took from the pile in this deal.
    took: tuple[Card, ...] = ()
    #: Every card the seat discarded (or the automatic play discarded for it).
    threw: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Observation:
    """Exactly what one seat knows: its view (``view``) and the deal's public events
    (``history``), both as plain JSON data, plus conveniences parsed from them."""

    view: Mapping[str, Any]
    history: tuple[Mapping[str, Any], ...] = field(default=())

    @classmethod
    def from_view(cls, view: Mapping[str, Any], history: Sequence[Mapping[str, Any]]) -> (
        Observation
    ):
        """Build from a view dict and history events (both copied; nothing else is read).
        Either of the wrong shape raises :class:`InvalidArgument` naming the field."""
        plain = _check_shape(view, history)
        try:
            return cls(_plain(dict(view)), tuple(_copy_events(history, plain)))
        except (TypeError, ValueError, RecursionError) as exc:
            # What json refuses: a value of another type somewhere inside, a circular list.
            raise InvalidArgument(f"view and history must be JSON data: {exc}") from None

    # -- the basics -----------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return str(self.view["variant"])

    @property
    def players(self) -> int:
        return int(self.view["players"])

    @property
    def seat(self) -> int:
        return int(self.view["seat"])

    @cached_property
    def rules(self) -> Ruleset:
        return make_rules(self.variant, self.players, self.view.get("options") or {})

    @property
    def wild_rank(self) -> int:
        return int(self.view.get("wild_rank") or 0)

    @cached_property
    def meld_rules(self) -> MeldRules:
        r = self.rules
        return MeldRules(min_real=r.min_real, adjacent_jokers=r.adjacent_jokers,
                         wild_rank=self.wild_rank)

    @cached_property
    def indicator_below(self) -> Card | None:
        """The Indian indicator while it still lies face up under the stock (house rule
        ``indicator_in_stock``): the stock's last card, known to every seat. None once it was
        drawn (the draw shows it), after a restock, or when the indicator is out of play."""
        ind = self.view.get("indicator")
        if not ind or not self.rules.indicator_in_stock or self.view.get("restocks"):
            return None
        for e in self.history:
            if ("card" in e and e.get("action") == "draw") or "drawn" in e:
                return None
        return parse_card(ind)

    @cached_property
    def hand(self) -> tuple[Card, ...]:
        return tuple(parse_card(t) for t in self.view["hand"])

    @cached_property
    def pile(self) -> tuple[Card, ...]:
        return tuple(parse_card(t) for t in self.view["pile"])

    @cached_property
    def table(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(parse_cards(" ".join(m["cards"]))) for m in self.view["table"])

    @property
    def turn(self) -> Mapping[str, Any] | None:
        t = self.view.get("turn")
        return t if isinstance(t, Mapping) else None

    @property
    def my_turn(self) -> bool:
        t = self.turn
        return t is not None and t.get("seat") == self.seat and not self.view.get("over")

    @property
    def phase(self) -> str | None:
        t = self.turn
        return None if t is None else str(t["phase"])

    def opened(self, seat: int) -> bool:
        return bool(self.view["seats"][seat]["opened"])

    def cards_of(self, seat: int) -> int:
        return int(self.view["seats"][seat]["cards"])

    def active(self, seat: int) -> bool:
        return self.view["seats"][seat].get("out") is None

    def team(self, seat: int) -> int:
        return int(self.view["seats"][seat].get("team", seat))

    def opponents(self) -> list[int]:
        """Live seats of the other side(s), in playing order after this seat."""
        me = self.team(self.seat)
        n = self.players
        order = [(self.seat + i) % n for i in range(1, n)]
        return [s for s in order if self.team(s) != me and self.active(s)]

    def next_seat(self) -> int:
        n = self.players
        for i in range(1, n):
            s = (self.seat + i) % n
            if self.active(s):
                return s
        return self.seat

    # -- the memory of the deal -----------------------------------------------------------

    def turn_events(self) -> list[Mapping[str, Any]]:
        """The events of the turn in progress (those of the seat to move since its turn
        began)."""
        t = self.turn
        if t is None:
            return []
        out: list[Mapping[str, Any]] = []
        for e in reversed(self.history):
            if e.get("seat") is None:
                if e.get("action") == "restock":
                    continue
                break
            if e.get("seat") != t["seat"]:
                break
            out.append(e)
        out.reverse()
        return out

    @cached_property
    def memory(self) -> tuple[SeatMemory, ...]:
        holds: list[Counter[Card]] = [Counter() for _ in range(self.players)]
        took: list[list[Card]] = [[] for _ in range(self.players)]
        threw: list[list[Card]] = [[] for _ in range(self.players)]
        for e in self.history:
            s = e.get("seat")
            if not isinstance(s, int) or not 0 <= s < self.players:
                continue
            act = e.get("action")
            # The indicator drawn from under the stock is shown: its drawer holds it.
            if act == "draw" and "card" in e:
                holds[s][parse_card(e["card"])] += 1
            elif act == "timeout" and "drawn" in e:
                holds[s][parse_card(e["drawn"])] += 1
            if act == "take":
                c = parse_card(e["card"])
                holds[s][c] += 1
                took[s].append(c)
            elif act == "return":
                c = parse_card(e["card"])
                if holds[s][c]:
                    holds[s][c] -= 1
            elif act in ("discard", "timeout") or (act == "declare" and "discard" in e):
                key = "discard" if act == "declare" else "card"
                c = parse_card(e[key])
                threw[s].append(c)
                if holds[s][c]:
                    holds[s][c] -= 1
            if act in _LAYING:
                for c in _laid_cards(e):
                    if holds[s][c]:
                        holds[s][c] -= 1
                if act == "swap":
                    holds[s][JOKER] += 1
            if act == "timeout" and e.get("undone"):
                # The automatic play undid the turn: what was laid went back to the hand,
                # which the memory cannot follow exactly; keep what is certain.
                pass
        return tuple(
            SeatMemory(tuple(sorted(holds[s].elements())), tuple(took[s]), tuple(threw[s]))
            for s in range(self.players)
        )

    @cached_property
    def unseen(self) -> tuple[Card, ...]:
        """Cards this seat has not seen: the other hands and the stock, in no order (cards
        another seat is known to hold are included: they are still hidden from sight)."""
        left = Counter(make_deck(self.rules.jokers))
        seen: Counter[Card] = Counter(self.hand)
        seen.update(self.pile)
        for m in self.table:
            seen.update(m)
        # The indicator is seen while it is out of play or lies under the stock; once drawn
        # it is in a hand (or in sight again, counted with the pile and the table).
        ind = self.view.get("indicator")
        if ind and (not self.rules.indicator_in_stock or self.indicator_below is not None):
            seen[parse_card(ind)] += 1
        left.subtract(seen)
        return tuple(sorted(c for c, n in left.items() for _ in range(max(0, n))))

    @cached_property
    def gone(self) -> Counter[Card]:
        """Cards out of reach for anyone's hand: on the table, in the pile below its top,
        and the Indian indicator out of play (useful to judge which melds can still grow)."""
        out: Counter[Card] = Counter()
        for m in self.table:
            out.update(m)
        out.update(self.pile[:-1])
        ind = self.view.get("indicator")
        if ind and not self.rules.indicator_in_stock:
            out[parse_card(ind)] += 1
        return out


def _laid_cards(e: Mapping[str, Any]) -> list[Card]:
    act = e.get("action")
    if act in ("open", "declare"):
        return [c for m in e.get("melds", []) for c in parse_cards(m)]
    if act == "meld":
        return list(parse_cards(e["meld"]))
    if act in ("layoff", "swap"):
        return [parse_card(e["card"])]
    return []


def observe(game: Game, seat: int) -> Observation:
    """The observation of ``seat`` in ``game``: ``game.view(seat)`` and ``game.history()``,
    and nothing else of the game."""
    if not isinstance(game, Game):
        # Named as play_turn names it: "'str' object has no attribute 'view'" named nothing.
        raise InvalidArgument(f"game must be a Game, not {describe(game)}")
    return Observation.from_view(game.view(seat), game.history())
