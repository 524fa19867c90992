"""One declarative ruleset per variant.

A :class:`Ruleset` holds everything that makes a variant what it is: the deck, the deal, how
players lay down, what they may do afterwards, how a deal is scored and when the game ends. The
engine reads these fields; a new variant is a new ruleset, not new engine code.

Room options (``option_schema``) choose among the values a room may set. A field of the
ruleset may also be overridden by name as a *house rule* (``options={"max_restocks": 3}``)
where it means something in the variant and keeps it the same game (``by_name`` says how each
field may be set; a server room offers only ``house_rule_schema``); the fields marked as
decisions are the project's reading where the sources are silent.

>>> r = make_rules("rummy", 4, {"opening": 51})
>>> r.opening_minimum, r.hand_size, r.jokers
(51, 13, 4)
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from rummykit.errors import InvalidArgument, RummyError, UnknownVariant, describe
from rummykit.melds import MeldRules
from rummykit.solver import OpeningRule

VARIANTS: Final = ("rummy", "rami51", "rami71", "simple", "indian")
CLOCKS: Final = (30, 45, 60, 90, 600)

LayMode = Literal["open", "close", "declare"]
Scoring = Literal["rummy", "rami", "simple", "indian"]
Length = Literal["one-deal", "to-200", "to-limit", "pool101", "pool201", "deals", "points"]
LoserMelds = Literal["two_sequences", "pure_sequence", "all_cards"]


def _doc(text: str, decision: bool = False, *, only: tuple[str, ...] = (), **kw: Any) -> Any:
    """A field with its description; ``only`` names the variants it means something in (a
    house rule elsewhere is refused rather than silently ignored). The values a text field
    may take are those of its ``Literal`` type."""
    return field(metadata={"doc": text, "decision": decision, "only": only}, **kw)


# The variants that lay an opening and then meld on a shared table: only they swap jokers or
# count an opening's points.
_OPENING: Final = ("rummy", "rami51", "rami71")
# The opening variants with partners (at four seats, see ``make_rules``): only there may one
# partner's lay-down free the other from the minimum.
_PARTNERED: Final = ("rami51", "rami71")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules of a variant for one table; built by :func:`make_rules`."""

    variant: str = _doc("variant name")
    players: int = _doc("number of seats")
    # -- deck and deal -------------------------------------------------------------------
    jokers: int = _doc("printed jokers in the 104-card double deck")
    hand_size: int = _doc("cards dealt to each player")
    first_extra: bool = _doc(
        "the first player gets one more card and starts by discarding; the pile starts empty",
        decision=True,
    )
    starter: bool = _doc("a card turned face up starts the discard pile")
    indicator: bool = _doc("a face-up card names the wild rank (printed joker: aces)")
    indicator_in_stock: bool = _doc(
        "indian: the indicator goes face up to the bottom of the stock and is drawn last "
        "(no: it stays out of play for the whole deal)",
        decision=True,
        only=("indian",),
    )
    first_dealer: int = _doc("seat that deals the first deal", decision=True)
    dealer_after: Literal["next", "winner"] = _doc(
        "who deals the next deal: the next seat, or the winner of the deal just played (after "
        "a deal nobody won, the same dealer)",
        decision=True,
    )
    # -- melds --------------------------------------------------------------------------
    min_real: int = _doc("real cards every meld needs (the rest may be jokers)")
    adjacent_jokers: bool = _doc("two jokers may stand side by side in a run")
    # -- laying down ----------------------------------------------------------------------
    lay_mode: LayMode = _doc(
        "open: lay an opening, then meld and lay off; close: lay all but one card at once; "
        "declare: melds stay in hand until a declaration"
    )
    opening_minimum: int = _doc("points the first lay-down must reach", only=_OPENING)
    jokers_zero: bool = _doc(
        "jokers count zero towards the opening minimum",
        decision=True,
        only=_OPENING,
    )
    clean_run_and_set: bool = _doc(
        "a first lay-down needs a joker-free run and a joker-free set; with a card taken from "
        "the pile, a joker-free run made without it",
        decision=True,
        only=(*_OPENING, "simple"),
    )
    small_opening: int = _doc(
        "an opening that leaves at most this many cards ignores the minimum (-1: never)",
        only=_OPENING,
    )
    lay_all_close: bool = _doc(
        "a player may lay all cards but one in one go below the minimum, then discard the last",
        only=_OPENING,
    )
    partner_opens_free: bool = _doc(
        "once a partner has laid down, the other needs no minimum (Rami 2 v 2)",
        only=_PARTNERED,
    )
    layoffs: bool = _doc("cards may be laid off on table melds once opened", only=_OPENING)
    swap: Literal["any", "fourth", "none"] = _doc(
        "joker swaps: any exact place; in a set only as the fourth card; or none",
        decision=True,
        only=_OPENING,
    )
    freed_joker_duty: bool = _doc(
        "a freed joker must go back on the table this turn; no discard while it is in hand",
        decision=True,
        only=_OPENING,
    )
    taken_card_duty: bool = _doc(
        "a card taken from the pile must be laid this turn (in the opening if not opened) and "
        "may be returned before anything else",
        decision=True,
        only=(*_OPENING, "simple"),
    )
    discard_taken: bool = _doc(
        "a card taken from the pile may be discarded (or thrown by a declaration) in the "
        "same turn", decision=True
    )
    out_by_laying: bool = _doc(
        "a player may go out by melding or laying off the last card",
        only=(*_OPENING, "simple"),
    )
    take_jokers: bool = _doc("a joker on top of the pile may be taken")
    # -- stock ----------------------------------------------------------------------------
    max_restocks: int = _doc(
        "times the pile may be reshuffled into a new stock per deal (-1: no limit)",
        decision=True,
    )
    restock_keeps_top: bool = _doc(
        "an empty stock is rebuilt from the discard pile but its top card, which stays as the "
        "new pile (no: the whole pile is shuffled into the stock and the pile is empty, so the "
        "next player draws from the stock; the stock cannot be rebuilt from an empty pile)",
        decision=True,
    )
    # -- scoring and game end -------------------------------------------------------------
    scoring: Scoring = _doc("how a deal is scored")
    blocked_deal: Literal["scored", "void"] = _doc(
        "rummy: a blocked deal is scored (the lightest hand wins the differences) or void "
        "(nobody scores, the same dealer deals again; a one-deal game plays another deal)",
        decision=True,
        only=("rummy",),
    )
    teams: bool = _doc("partners sit opposite (seats 0 and 2 against 1 and 3)", decision=True)
    length: Length = _doc(
        "rummy: one-deal or to-200; indian: pool101, pool201, deals, points; rami: to-limit"
    )
    target: int = _doc("rummy to-200: the total that ends the game", only=("rummy",))
    limit: int = _doc(
        "Rami: the total at which a side loses; indian pool: elimination above",
        only=("rami51", "rami71", "simple", "indian"),
    )
    deals: int = _doc("indian deals format: number of deals", only=("indian",))
    fixed_penalty: int = _doc("simple: what each losing player pays", only=("simple",))
    cap: int = _doc("indian: most a player pays in one deal", only=("indian",))
    loser_melds: LoserMelds = _doc(
        "indian: how a loser's hand is counted: two_sequences: melds save their cards only if "
        "they include two sequences, one of them pure; pure_sequence: the same, and without "
        "them pure sequences alone still save their own cards; all_cards: every card counts "
        "at its value. The game arranges the cards for the least penalty; the cap applies",
        decision=True,
        only=("indian",),
    )
    wrong_declaration: int = _doc("indian: what a wrong declaration costs", only=("indian",))
    wrong_declaration_ends: bool = _doc(
        "indian: a wrong declaration ends the deal with no winner and only the declarer pays "
        "(in the deals and points formats the cost comes off the declarer's total); no: the "
        "declarer leaves the deal, which goes on, and the last player left wins it",
        decision=True,
        only=("indian",),
    )
    first_drop: int = _doc("indian: cost of dropping before one's first draw", only=("indian",))
    middle_drop: int = _doc("indian: cost of dropping later", only=("indian",))
    clock: int = _doc("seconds on the turn clock")
    timeout_discard: Literal["drawn", "heaviest"] = _doc(
        "what the automatic play (timeout) discards: the card drawn from the stock this turn "
        "if still in hand, else the highest-penalty non-joker; or always the highest-penalty "
        "non-joker (ties: highest rank with the ace high, then the first suit in the order "
        "♠ ♥ ♦ ♣)",
        decision=True,
    )
    house: tuple[tuple[str, Any], ...] = _doc("house rules: fields overridden by name", default=())

    @property
    def meld_rules(self) -> MeldRules:
        """Meld limits without a wild rank (a deal of Indian rummy adds its own)."""
        return MeldRules(min_real=self.min_real, adjacent_jokers=self.adjacent_jokers)

    def opening_rule(self, partner_opened: bool = False) -> OpeningRule:
        """The solver's view of the first lay-down (no minimum once a partner has laid down)."""
        if self.lay_mode == "close":
            leaves: tuple[int, ...] = (1,)
        elif self.lay_all_close:
            leaves = (1,)
        else:
            leaves = tuple(range(self.small_opening + 1))
        free = partner_opened and self.partner_opens_free
        return OpeningRule(
            minimum=0 if free else self.opening_minimum,
            jokers_zero=self.jokers_zero,
            clean_run_and_set=self.clean_run_and_set,
            # The run does without the taken card only when that card is owed to the table:
            # without the duty it is the player's like any other (the engine owes nothing),
            # and a player weighing a take asks for lay-downs holding it.
            clean_run_without_taken=self.clean_run_and_set and self.taken_card_duty,
            close_leaves=leaves,
            close_only=self.lay_mode == "close",
            close_run_and_set=self.lay_mode == "close",
            keep=0 if self.out_by_laying else 1,
        )

    @property
    def deck_size(self) -> int:
        """Cards in the deck: two 52-card decks and the printed jokers."""
        return 104 + self.jokers

    def team_of(self, seat: int) -> int:
        """The side a seat plays for: its own seat number, or seat mod 2 with partners."""
        if type(seat) is not int or not 0 <= seat < self.players:
            # 9 answered 9 (or 1 with partners) and "1" raised a TypeError from "1" % 2.
            raise InvalidArgument(
                f"seat must be a seat number from 0 to {self.players - 1}, not {describe(seat)}"
            )
        return seat % 2 if self.teams else seat

    @property
    def sides(self) -> int:
        """How many sides score apart: 2 with partners, else one per seat."""
        return 2 if self.teams else self.players

    def options(self) -> dict[str, Any]:
        """The room options of this table, as a record stores them: ``make_rules(variant,
        players, options())`` builds this ruleset again. A room option whose field a house
        rule sets is left out (the house rule says it)."""
        housed = {name for name, _ in self.house}
        opts = {
            name: getattr(self, _OPTION_FIELDS[name])
            for name in option_schema(self.variant)
            if _OPTION_FIELDS[name] not in housed
        }
        opts.update(self.house)
        return opts


_BASE: Final[dict[str, Any]] = dict(
    jokers=4,
    hand_size=13,
    first_extra=False,
    starter=True,
    indicator=False,
    indicator_in_stock=False,
    first_dealer=0,
    dealer_after="next",
    min_real=2,
    adjacent_jokers=False,
    lay_mode="open",
    opening_minimum=40,
    jokers_zero=False,
    clean_run_and_set=False,
    small_opening=1,
    lay_all_close=False,
    partner_opens_free=False,
    layoffs=True,
    swap="any",
    freed_joker_duty=True,
    taken_card_duty=True,
    discard_taken=False,
    out_by_laying=True,
    take_jokers=True,
    max_restocks=2,
    restock_keeps_top=True,
    scoring="rummy",
    blocked_deal="scored",
    teams=False,
    length="one-deal",
    target=200,
    limit=0,
    deals=1,
    fixed_penalty=0,
    cap=0,
    loser_melds="two_sequences",
    wrong_declaration=0,
    wrong_declaration_ends=False,
    first_drop=0,
    middle_drop=0,
    clock=45,
    timeout_discard="drawn",
)

_RAMI: Final[dict[str, Any]] = dict(
    hand_size=14,
    first_extra=True,
    starter=False,
    small_opening=-1,
    lay_all_close=True,
    partner_opens_free=True,
    swap="fourth",
    freed_joker_duty=False,
    out_by_laying=False,
    max_restocks=-1,
    scoring="rami",
    length="to-limit",
)

_VARIANT_FIELDS: Final[dict[str, dict[str, Any]]] = {
    "rummy": {},
    "rami51": {**_RAMI, "opening_minimum": 51},
    "rami71": {
        **_RAMI,
        "jokers": 2,
        "opening_minimum": 71,
        "jokers_zero": True,
        "clean_run_and_set": True,
    },
    "simple": {
        **_RAMI,
        "jokers": 2,
        "lay_mode": "close",
        "opening_minimum": 0,
        "lay_all_close": False,
        "partner_opens_free": False,
        "layoffs": False,
        "swap": "none",
        "scoring": "simple",
        "fixed_penalty": 100,
    },
    "indian": {
        "jokers": 2,
        "indicator": True,
        "min_real": 1,
        "adjacent_jokers": True,
        "lay_mode": "declare",
        "opening_minimum": 0,
        "small_opening": -1,
        "layoffs": False,
        "swap": "none",
        "freed_joker_duty": False,
        "taken_card_duty": False,
        "discard_taken": False,
        "out_by_laying": False,
        "take_jokers": False,
        "max_restocks": -1,
        "scoring": "indian",
        "length": "pool101",
        "deals": 2,
        "cap": 80,
        "wrong_declaration": 80,
        "first_drop": 20,
        "middle_drop": 40,
    },
}

_PLAYERS: Final[dict[str, tuple[int, ...]]] = {
    "rummy": (2, 3, 4, 5, 6),
    "rami51": (2, 4),
    "rami71": (2, 4),
    "simple": (2, 4),
    "indian": (2, 3, 4, 5, 6),
}

# Room option name -> (ruleset field, allowed values or a type, default).
_SCHEMA: Final[dict[str, dict[str, tuple[str, tuple[Any, ...] | type, Any]]]] = {
    "rummy": {
        "opening": ("opening_minimum", (30, 40, 51), 40),
        "clock": ("clock", CLOCKS, 45),
        "length": ("length", ("one-deal", "to-200"), "one-deal"),
    },
    "rami51": {"clock": ("clock", CLOCKS, 45)},
    "rami71": {"clock": ("clock", CLOCKS, 45)},
    "simple": {"clock": ("clock", CLOCKS, 45)},
    "indian": {
        "format": ("length", ("pool101", "pool201", "deals", "points"), "pool101"),
        "deals": ("deals", int, 2),
        "jokers_from_discard": ("take_jokers", bool, False),
        "clock": ("clock", CLOCKS, 45),
    },
}
# Whole-number room options: (least, greatest). A game of 20 deals already lasts for hours (the
# lobby's field stops there too); an unbounded count let a room ask for 10**9 deals.
_INT_BOUNDS: Final[dict[str, tuple[int, int]]] = {"deals": (1, 20)}
# The whole numbers a house rule may set (no upper bound: None). The deal must also fit the
# deck, and the first dealer must be a seat: both checked with the other fields.
_HOUSE_INT_BOUNDS: Final[dict[str, tuple[int, int | None]]] = {
    "jokers": (0, 8),
    # The legal actions list every opening (each combination of melds the hand holds), which
    # grows exponentially with the hand: with random play the slowest listing measured 0.1 s
    # at 17 cards, 0.5 s at 20, 4 s at 24, and minutes at 33.
    "hand_size": (3, 17),
    "first_dealer": (0, None),
    "min_real": (1, 3),
    "opening_minimum": (0, None),
    "small_opening": (-1, None),
    "max_restocks": (-1, None),
    "target": (1, None),
    "limit": (1, None),
    "deals": (1, 20),
    "fixed_penalty": (0, None),
    # A cap of 0 charges losers nothing: a pool would end only by drops and wrong
    # declarations, which good players avoid (a hunt's game went 80 deals).
    "cap": (1, None),
    "wrong_declaration": (0, None),
    "first_drop": (0, None),
    "middle_drop": (0, None),
    "clock": (1, None),
}
# Whole numbers a house rule may set in one variant only, narrower than the above: an Indian
# declaration needs two sequences of three, so a smaller hand could never be declared and only
# drops would end a deal.
_VARIANT_INT_BOUNDS: Final[dict[str, dict[str, tuple[int, int | None]]]] = {
    "indian": {"hand_size": (6, 17)},
}
# Fields that make the variant another game rather than a house version of it: a house rule may
# not change them (``length`` may take the values of the variant's own room option). The engine
# reads them together with fields no house rule sets (rummy scoring with a wild rank, an Indian
# declaration in a close variant), so the variant decides them: field -> what it decides.
_OWN_FIELDS: Final[dict[str, str]] = {
    "lay_mode": "how cards are laid down",
    "scoring": "how a deal is scored",
    "indicator": "whether a face-up card names a wild rank",
    "length": "how the game ends",
    "teams": "who plays as partners (the seat count decides it)",
}
# Why a field of the opening variants means nothing elsewhere (the refusal says it).
_NO_OPENING: Final[dict[str, str]] = {
    "close": "its only lay-down is the close",
    "declare": "nothing is laid during play",
}
# Room options that only mean something with some values of another option:
# option -> (that other option, the values it is used with). ``unused_options`` names them.
_USED_WITH: Final[dict[str, dict[str, tuple[str, tuple[Any, ...]]]]] = {
    "indian": {"deals": ("format", ("deals",))},
}
_OPTION_FIELDS: Final = {
    name: spec[0] for schema in _SCHEMA.values() for name, spec in schema.items()
}

# Losing limits of the Rami family: (1 v 1, 2 v 2).
_RAMI_LIMITS: Final = {"rami51": (251, 351), "rami71": (251, 451), "simple": (300, 600)}
# The seat count at which the Rami family plays 2 v 2 (the other variants never have partners).
_TEAM_SEATS: Final = 4

_FIELDS: Final = {f.name: f for f in dataclasses.fields(Ruleset)}
# The values of every text field with a fixed set of them (its ``Literal`` type).
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    name: get_args(hint)
    for name, hint in get_type_hints(Ruleset).items()
    if get_origin(hint) is Literal
}


def option_schema(variant: str) -> dict[str, dict[str, Any]]:
    """Room options of a variant: ``{name: {"values": [...] or type name, "default": v}}``,
    with ``"min"``/``"max"`` for a whole number and ``"only_with": {option: [values]}`` for an
    option used only with those values of another one."""
    schema = _SCHEMA.get(variant) if isinstance(variant, str) else None
    if schema is None:
        raise UnknownVariant(_unknown(variant))
    out: dict[str, dict[str, Any]] = {}
    for name, (_, values, default) in schema.items():
        spec: dict[str, Any] = {
            "values": list(values) if isinstance(values, tuple) else values.__name__,
            "default": default,
        }
        if values is int:
            spec["min"], spec["max"] = _INT_BOUNDS.get(name, (1, None))
        used = _USED_WITH.get(variant, {}).get(name)
        if used is not None:
            spec["only_with"] = {used[0]: list(used[1])}
        out[name] = spec
    return out


# Decision fields a room does not offer as house rules: the seat count already decides them
# (Rami's partners are the 4-player table).
_SEATED: Final = frozenset({"teams"})


def house_rule_schema(variant: str) -> dict[str, dict[str, Any]]:
    """The house rules a room of ``variant`` may set: every decision field meaningful there
    (its ``only`` includes the variant) that no room option sets and the seat count does not
    decide. ``{name: {"kind": ..., "default": v, "doc": text}}`` where the kind is ``"bool"``,
    ``"choice"`` (with ``"values"``), ``"int"`` (with ``"min"`` and ``"max"``, ``None`` for
    no bound) or ``"seat"`` (a seat number from ``"min"`` to ``"max"``, below the table's
    seat count)."""
    schema = _SCHEMA.get(variant) if isinstance(variant, str) else None
    if schema is None:
        raise UnknownVariant(_unknown(variant))
    by_option = {spec[0] for spec in schema.values()}
    defaults = dataclasses.asdict(make_rules(variant, _PLAYERS[variant][0]))
    out: dict[str, dict[str, Any]] = {}
    for f in dataclasses.fields(Ruleset):
        meta = f.metadata
        if (
            not meta["decision"]
            or (meta["only"] and variant not in meta["only"])
            or f.name in by_option
            or f.name in _SEATED
        ):
            continue
        default = defaults[f.name]
        spec: dict[str, Any]
        if isinstance(default, bool):
            spec = {"kind": "bool"}
        elif f.name in _CHOICES:
            spec = {"kind": "choice", "values": list(_CHOICES[f.name])}
        elif f.name == "first_dealer":
            spec = {"kind": "seat", "min": 0, "max": max(_PLAYERS[variant]) - 1}
        else:
            least, most = _HOUSE_INT_BOUNDS.get(f.name, (0, None))
            spec = {"kind": "int", "min": least, "max": most}
        spec["default"] = default
        spec["doc"] = meta["doc"]
        out[f.name] = spec
    return out


def unused_options(variant: str, options: Mapping[str, Any]) -> list[str]:
    """The room options in ``options`` that the other options chosen make meaningless (an
    Indian ``deals`` count with a format other than ``deals``): a room refuses them rather
    than show a setting that does nothing."""
    schema = _SCHEMA.get(variant) if isinstance(variant, str) else None
    if schema is None:
        raise UnknownVariant(_unknown(variant))
    if not isinstance(options, Mapping):
        raise InvalidArgument(
            f"options must be a mapping of option names to values (a dict), not "
            f"{describe(options)}"
        )
    unused = []
    for name, (other, values) in _USED_WITH.get(variant, {}).items():
        if name in options and options.get(other, schema[other][2]) not in values:
            unused.append(name)
    return unused


def players_allowed(variant: str) -> tuple[int, ...]:
    """Seat counts a variant can be played with."""
    if not isinstance(variant, str) or variant not in _PLAYERS:
        raise UnknownVariant(_unknown(variant))
    return _PLAYERS[variant]


def _unknown(variant: str) -> str:
    return f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}"


def _seat_counts(variant: str) -> str:
    """The seat counts of ``variant`` in words: the Rami family's 4 is its 2 v 2 game, which a
    bare "2, 4 players" left to be guessed."""
    allowed = _PLAYERS[variant]
    if variant in _RAMI_LIMITS:
        return f"2 players (1 v 1) or {_TEAM_SEATS} (2 v 2, partners opposite)"
    if allowed == tuple(range(allowed[0], allowed[-1] + 1)):
        return f"{allowed[0]} to {allowed[-1]} players"
    return f"{', '.join(map(str, allowed))} players"


def make_rules(
    variant: str = "rummy", players: int = 2, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """The ruleset of a table; raises a ``ValueError`` subclass naming a bad variant, seat
    count or option."""
    # A name of another type (a list is not even hashable) is no variant either.
    if not isinstance(variant, str) or variant not in _VARIANT_FIELDS:
        raise UnknownVariant(_unknown(variant))
    allowed = _PLAYERS[variant]
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidArgument(
            f"players must be a whole number (int): {variant} is played by "
            f"{_seat_counts(variant)}, not {describe(players)}"
        )
    if players not in allowed:
        raise RummyError(f"{variant} is played by {_seat_counts(variant)}, not {players!r}")
    values: dict[str, Any] = {**_BASE, **_VARIANT_FIELDS[variant]}
    values["variant"] = variant
    values["players"] = players
    if variant in _RAMI_LIMITS:
        values["teams"] = players == _TEAM_SEATS
        values["limit"] = _RAMI_LIMITS[variant][1 if players == 4 else 0]
    schema = _SCHEMA[variant]
    for fname, _, default in schema.values():
        values[fname] = default
    house: list[tuple[str, Any]] = []
    if options is not None and not isinstance(options, Mapping):
        raise InvalidArgument(
            f"options must be a mapping of option names to values (a dict) or None, not "
            f"{describe(options)}"
        )
    given = dict(options or {})
    for name, value in given.items():
        if name in schema:
            fname, allowed_values, _ = schema[name]
            if fname != name and fname in given:
                raise RummyError(
                    f"room option {name!r} and house rule {fname!r} set the same rule: give one"
                )
            _check_option(name, value, allowed_values)
            values[fname] = value
        elif name in _FIELDS and name not in ("variant", "players", "house"):
            current = values[name]
            if type(value) is not type(current):
                raise RummyError(
                    f"house rule {name!r} takes a {type(current).__name__}, not {value!r}"
                )
            _check_house_rule(name, value, variant, current)
            _check_own_field(name, value, variant, current)
            house.append((name, value))
        else:
            raise RummyError(_unknown_option(name, variant, schema))
    if variant == "indian":
        if values["length"] == "pool101":
            values["limit"] = 101
        elif values["length"] == "pool201":
            values["limit"] = 201
        if values["length"] == "points":
            values["deals"] = 1
    # House rules come last: a format's own limit or deal count gives way to them.
    values.update(house)
    _check_partners(dict(house), variant, values)
    values["house"] = tuple(house)
    rules = Ruleset(**values)
    _check_deal_fits(rules)
    return rules


def _unknown_option(name: object, variant: str, schema: Mapping[str, Any]) -> str:
    """Why ``name`` is no option: the room options, that ruleset fields are taken too, and
    the name meant when it is a slip of the keyboard (``max_restock``)."""
    known = ", ".join(schema) or "none"
    names = [*schema, *(f for f in _FIELDS if f not in ("variant", "players", "house"))]
    close = difflib.get_close_matches(name, names, n=1) if isinstance(name, str) else []
    meant = f"; did you mean {close[0]!r}?" if close else ""
    return (
        f"unknown option {name!r} for {variant} (room options: {known}; a ruleset field is "
        f"also taken by name as a house rule, docs/rules.md){meant}"
    )


def _check_deal_fits(rules: Ruleset) -> None:
    """A deal must leave a card in the stock, the first dealer must sit at the table, and a
    deal must be able to end (a first lay-down possible, lay-offs or bounded restocks)."""
    dealt = (
        rules.players * rules.hand_size
        + rules.first_extra
        + rules.starter
        + (rules.indicator and not rules.indicator_in_stock)
    )
    if dealt >= rules.deck_size:
        raise RummyError(
            f"{rules.players} hands of {rules.hand_size} cards need {dealt} of the "
            f"{rules.deck_size} cards and leave no stock"
        )
    if not rules.layoffs and rules.lay_mode == "open" and rules.max_restocks < 0:
        # Without lay-offs a player down to one card draws and discards for ever (a meld needs
        # three cards and one kept to discard): only a bounded stock ends such a deal.
        raise RummyError(
            "house rule 'layoffs' off needs a bounded 'max_restocks' (0 or more): a player "
            "left with one card could never go out, and the deal would never end"
        )
    if rules.lay_mode != "declare":
        _check_first_lay_down(rules)
    if rules.first_dealer >= rules.players:
        raise RummyError(
            f"house rule 'first_dealer' must be a seat from 0 to {rules.players - 1}, "
            f"not {rules.first_dealer}"
        )


def _check_first_lay_down(rules: Ruleset) -> None:
    """A first lay-down must be possible with the cards dealt, or no deal could end (a deal
    of ``simple`` with hands of 3 went on for 2500 steps: its close needs a run and a set)."""
    if (rules.clean_run_and_set or rules.lay_mode == "close") and rules.hand_size < 6:
        rule = "the close" if rules.lay_mode == "close" else "'clean_run_and_set'"
        raise RummyError(
            f"a first lay-down needs a run and a set under {rule}: hands of "
            f"{rules.hand_size} cards (house rule 'hand_size') could never make one; give 6 or more"
        )
    free_route = rules.lay_mode == "close" or rules.lay_all_close or rules.small_opening >= 0
    # No card counts more than an ace's 11: a minimum above that many cards' worth is out of
    # reach, and without a lay-down below the minimum nobody could ever lay down.
    if not free_route and rules.opening_minimum > 11 * rules.hand_size:
        raise RummyError(
            f"an opening minimum of {rules.opening_minimum} is out of reach of hands of "
            f"{rules.hand_size} cards (at most {11 * rules.hand_size} points) and no lay-down "
            "below it is allowed ('small_opening' -1, 'lay_all_close' off)"
        )


def _check_option(name: str, value: Any, allowed: tuple[Any, ...] | type) -> None:
    if isinstance(allowed, tuple):
        # 40.0 == 40 and True == 1: only a value of the choices' own type is one of them.
        if value not in allowed or type(value) is not type(allowed[0]):
            choices = ", ".join(str(v) for v in allowed)
            raise RummyError(f"option {name!r} cannot be {value!r}: choose one of {choices}")
    elif allowed is int:
        least, most = _INT_BOUNDS.get(name, (1, None))
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < least
            or (most is not None and value > most)
        ):
            bounds = f"from {least} to {most}" if most is not None else f"of at least {least}"
            raise RummyError(f"option {name!r} must be a whole number {bounds}, not {value!r}")
    elif not isinstance(value, allowed):
        raise RummyError(f"option {name!r} must be {allowed.__name__}, not {value!r}")


def _check_own_field(name: str, value: Any, variant: str, current: Any) -> None:
    what = _OWN_FIELDS.get(name)
    if what is None or value == current:
        return
    own = [spec for spec in _SCHEMA[variant].values() if spec[0] == name]
    if own and isinstance(own[0][1], tuple) and value in own[0][1]:
        return  # a value the variant's own room option offers
    raise RummyError(
        f"house rule {name!r} would make {variant} another game: the variant decides "
        f"{what} ({name}: {current})"
    )


def _check_partners(house: dict[str, Any], variant: str, values: dict[str, Any]) -> None:
    """A rule about partners at a table without them would change nothing (the variant's own
    value is taken, as everywhere)."""
    value = house.get("partner_opens_free")
    own = _VARIANT_FIELDS[variant].get("partner_opens_free", _BASE["partner_opens_free"])
    if value is not None and value != own and not values["teams"]:
        raise RummyError(
            f"house rule 'partner_opens_free' needs partners: {variant} has them with "
            f"{_TEAM_SEATS} players, not {values['players']}"
        )


def _check_house_rule(name: str, value: Any, variant: str, default: Any) -> None:
    meta = _FIELDS[name].metadata
    if meta["only"] and variant not in meta["only"] and value != default:
        raise RummyError(
            f"house rule {name!r} belongs to {', '.join(meta['only'])}"
            + _why_not_here(meta["only"], variant)
        )
    choices = _CHOICES.get(name)
    if choices and value not in choices:
        raise RummyError(
            f"house rule {name!r} cannot be {value!r}: choose one of {', '.join(choices)}"
        )
    bounds = _VARIANT_INT_BOUNDS.get(variant, {}).get(name) or _HOUSE_INT_BOUNDS.get(name)
    if bounds is not None:
        least, most = bounds
        if value < least or (most is not None and value > most):
            span = f"from {least} to {most}" if most is not None else f"of at least {least}"
            raise RummyError(f"house rule {name!r} must be a whole number {span}, not {value!r}")


def _why_not_here(only: tuple[str, ...], variant: str) -> str:
    """Why a field of the variants ``only`` means nothing in ``variant``: no partners, or no
    opening (the lay mode says why), or nothing more to say."""
    if only == _PARTNERED and variant not in _RAMI_LIMITS:
        return f": {variant} has no partners"
    if not set(only) <= set(_OPENING):
        return ""
    lay_mode = _VARIANT_FIELDS[variant].get("lay_mode", _BASE["lay_mode"])
    why = _NO_OPENING.get(lay_mode)
    return f": {variant} has none, {why}" if why else ""


def variant_decides(name: str) -> str | None:
    """What the field ``name`` decides when the variant alone sets it ("who plays as partners
    (the seat count decides it)"), or None for a field a house rule may set."""
    return _OWN_FIELDS.get(name)


def by_name(name: str) -> str:
    """How a house rule may set the ruleset field ``name`` by name, in words (for the
    generated docs): where it is taken, and the values."""
    if not isinstance(name, str) or name not in _FIELDS:
        raise InvalidArgument(f"name must be the name of a Ruleset field, not {describe(name)}")
    if name in _OWN_FIELDS:
        own = {
            v: [str(x) for x in spec[1]]
            for v, schema in _SCHEMA.items()
            for spec in schema.values()
            if spec[0] == name and isinstance(spec[1], tuple)
        }
        text = f"no: the variant decides {_OWN_FIELDS[name]}"
        if own:
            text += "; the values of the variant's room option are taken (" + "; ".join(
                f"{v}: {', '.join(values)}" for v, values in own.items()
            ) + ")"
        return text
    only = _FIELDS[name].metadata["only"]
    where = f"in {', '.join(only)}" if only else "in every variant"
    bounds = _HOUSE_INT_BOUNDS.get(name)
    if bounds is not None:
        where += f"; {bounds[0]}–{bounds[1]}" if bounds[1] is not None else f"; {bounds[0]} or more"
        for variant, narrower in _VARIANT_INT_BOUNDS.items():
            if name in narrower:
                least, most = narrower[name]
                where += f" ({variant}: {least}–{most})"
    if name == "partner_opens_free":
        where += f"; changed only with {_TEAM_SEATS} players (partners)"
    if name == "layoffs":
        where += "; off only with `max_restocks` 0 or more (else a deal could go on for ever)"
    return where


def decisions() -> list[tuple[str, str]]:
    """Ruleset fields that record a project decision: ``(name, description)``."""
    return [
        (f.name, f.metadata["doc"]) for f in dataclasses.fields(Ruleset) if f.metadata["decision"]
    ]


def field_docs() -> dict[str, str]:
    """Every ruleset field with its description (for generated docs)."""
    return {f.name: f.metadata["doc"] for f in dataclasses.fields(Ruleset)}
