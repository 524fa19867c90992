"""The Python API under bad input: every entry point given a value of the wrong type or shape
raises a rummykit error (a ``ValueError``) naming the argument, and a game it was asked about
is left exactly as it was.

The entry points are those the README and docs/engine.md, solver.md and bots.md show, and the
``__all__`` of ``rummykit``, ``rummykit.engine``, ``rummykit.solver`` and ``rummykit.bots``.
Each is tried with hand-picked junk and with arbitrary JSON-like values (hypothesis;
``API_EXAMPLES=500`` for more).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummykit import analyze, make_meld, make_rules, parse_action, parse_cards
from rummykit.analysis import analysis_rules, answer_rules
from rummykit.bots import (
    Observation,
    choose_action,
    make_bot,
    observe,
    play_deal,
    play_turn,
    time_limit,
)
from rummykit.cards import (
    Card,
    card,
    check_cards_exist,
    format_cards,
    make_deck,
    parse_card,
    pretty_cards,
    sort_key_rank,
    sort_key_suit,
)
from rummykit.engine import Discard, Game, Layoff, NewMeld, Open, Swap
from rummykit.errors import InvalidArgument, InvalidRecord, RummyError
from rummykit.melds import (
    RUMMY_MELDS,
    MeldRules,
    indian_penalty,
    opening_value,
    parse_meld,
    rummy_penalty,
)
from rummykit.rules import (
    VARIANTS,
    by_name,
    house_rule_schema,
    option_schema,
    players_allowed,
    unused_options,
)
from rummykit.solver import (
    RUMMY_OPENING,
    RUMMY_PENALTY,
    OpeningRule,
    PenaltyRule,
    best_close,
    best_opening,
    card_penalty,
    declaration,
    least_penalty,
    opening,
    opening_and_penalty,
    opening_points,
    penalty_points,
)
from tests.helpers import new_game, play, snapshot

EXAMPLES = int(os.environ.get("API_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

HAND = parse_cards("KS KH KD 5H 6H 7H 9C 2D 4S")

#: Values of every JSON-like shape, and a few Python ones besides.
junk_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.binary(max_size=4) | st.sampled_from([object(), 1j, (), frozenset(), ...]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    | st.tuples(inner, inner),
    max_leaves=8,
)
#: The same without text at the top (text is notation: its faults are the parsers' own tests).
not_text = junk_values.filter(lambda v: not isinstance(v, str))
HAND_PICKED: list[Any] = [None, 5, -1, 1.5, True, "", "x", b"7H", [], [1, 2], {}, {"a": 1},
                          ("draw",), object(), ["AS", 3], [None]]


def bad(value: object) -> Any:
    """A wrong value, typed ``Any``: mypy would refuse it where the test passes it."""
    return value


def refused(call: Callable[[], object], *names: str) -> str:
    """``call`` raises a RummyError (a ValueError) naming one of ``names``; its message."""
    with pytest.raises(RummyError) as info:
        call()
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert any(n in message for n in names), f"{message!r} names none of {names}"
    assert "Traceback" not in message and message.strip() == message
    return message


@contextmanager
def unchanged(game: Game) -> Iterator[None]:
    """The game's record, views, history and version are the same after the block."""
    before = snapshot(game), json.dumps(game.history()), game.version
    yield
    assert (snapshot(game), json.dumps(game.history()), game.version) == before


def fresh() -> Game:
    return Game.new("rummy", players=2, seed=7)


def deal_over() -> Game:
    """A game of two deals or more, between its first two."""
    g = new_game("rummy", 2, {1: "2S 3S 4S 2H 3H 4H 2D 3D 4D AC 2C 3C 4C",
                              0: "2S 3S 4S 2H 3H 4H 2D 3D 4D 6C 3C 4C X"},
                 options={"length": "to-200"}, starter="QC", stock="5C")
    play(g, "draw", "open 2S 3S 4S / 2H 3H 4H / 2D 3D 4D / AC 2C 3C 4C 5C")
    assert g.phase == "deal-over"
    return g


# -- the engine -------------------------------------------------------------------------------


NEW_ARGUMENTS: dict[str, tuple[Callable[[Any], object], tuple[str, ...], Callable[[Any], bool]]] = {
    "variant": (lambda v: Game.new(v), ("variant",), lambda v: v in VARIANTS),
    "players": (lambda v: Game.new("rummy", players=v), ("players",),
                lambda v: type(v) is int and 2 <= v <= 6),
    "options": (lambda v: Game.new("rummy", options=v), ("option",),
                lambda v: v is None or v == {}),
    "seed": (lambda v: Game.new("rummy", seed=v), ("seed",),
             lambda v: v is None or type(v) is int),
    "deck": (lambda v: Game.new("rummy", deck=v), ("deck", "card"), lambda v: v is None),
    "rng": (lambda v: Game.new("rummy", rng=v), ("rng",), lambda v: v is None),
}


@pytest.mark.parametrize("name", NEW_ARGUMENTS)
@pytest.mark.parametrize("value", HAND_PICKED, ids=repr)
def test_game_new_names_the_bad_argument(name: str, value: Any) -> None:
    call, names, valid = NEW_ARGUMENTS[name]
    if not valid(value):
        refused(lambda: call(value), *names)


@pytest.mark.parametrize("name", NEW_ARGUMENTS)
@FUZZ
@given(value=junk_values)
def test_game_new_refuses_junk(name: str, value: Any) -> None:
    call, names, valid = NEW_ARGUMENTS[name]
    assume(not valid(value))
    refused(lambda: call(value), *names)


def test_option_values_of_another_type_are_refused() -> None:
    for options in ({"opening": 40.0}, {"opening": "40"}, {"opening": True}, {"clock": [45]},
                    {"jokers_zero": 1}, {"jokers": "4"}, {"hand_size": 13.0},
                    {"blocked_deal": None}, {5: 1}):
        refused(lambda: Game.new("rummy", options=bad(options)), "option", "house rule")  # noqa: B023
    assert Game.new("rummy", options={"opening": 40}).rules.opening_minimum == 40


PLAY_CALLS: dict[str, Callable[[Game, Any], object]] = {
    "apply": lambda g, v: g.apply(v),
    "check": lambda g, v: g.check(v),
    "is_legal": lambda g, v: g.is_legal(v),
}


@pytest.mark.parametrize("method", PLAY_CALLS)
@pytest.mark.parametrize("value", [v for v in HAND_PICKED if not isinstance(v, str)], ids=repr)
def test_an_action_of_the_wrong_type_changes_nothing(method: str, value: Any) -> None:
    g = fresh()
    with unchanged(g):
        refused(lambda: PLAY_CALLS[method](g, value), "action")


@pytest.mark.parametrize("method", PLAY_CALLS)
@FUZZ
@given(value=not_text)
def test_junk_actions_change_nothing(method: str, value: Any) -> None:
    g = fresh()
    with unchanged(g):
        refused(lambda: PLAY_CALLS[method](g, value), "action")


def test_text_that_is_no_action_is_simply_not_legal() -> None:
    g = fresh()
    with unchanged(g):
        assert g.is_legal("fly away") is False
        assert g.is_legal("discard ZZ") is False


ACTIONS_BUILT: list[tuple[Callable[[], object], str]] = [
    (lambda: Discard(bad("7H")), "discard"),
    (lambda: Discard(bad(None)), "discard"),
    (lambda: Layoff(bad("1"), parse_card("7H")), "layoff"),
    (lambda: Layoff(1, bad("7H")), "layoff"),
    (lambda: Layoff(1, parse_card("7H"), bad("middle")), "layoff"),
    (lambda: Layoff(True, parse_card("7H")), "layoff"),
    (lambda: Swap(bad(1.0), parse_card("7H")), "swap"),
    (lambda: Swap(1, bad(7)), "swap"),
    (lambda: NewMeld(bad("7H 8H 9H")), "meld"),
    (lambda: NewMeld(bad(5)), "meld"),
    (lambda: NewMeld(bad(["7H", "8H", "9H"])), "meld"),
    (lambda: Open(bad("7H 8H 9H")), "open"),
    (lambda: Open(bad((("7H", "8H", "9H"),))), "open"),
    (lambda: Open(bad((5,))), "open"),
]


@pytest.mark.parametrize(("make", "verb"), ACTIONS_BUILT)
def test_an_action_built_with_wrong_values_is_refused_and_changes_nothing(
    make: Callable[[], object], verb: str
) -> None:
    """Refused when made, or (values of the wrong type in an action of the right shape) where
    it enters the engine."""
    g = fresh()
    play(g, "draw")
    with unchanged(g):
        try:
            act = make()
        except RummyError:
            refused(make, verb)
            return
        for call in PLAY_CALLS.values():
            refused(lambda: call(g, act), verb)  # noqa: B023


SEAT_CALLS: dict[str, Callable[[Game, Any], object]] = {
    "view": lambda g, v: g.view(v),
    "hand": lambda g, v: g.hand(v),
    "observe": lambda g, v: observe(g, v),
}


@pytest.mark.parametrize("method", SEAT_CALLS)
@pytest.mark.parametrize("value", [*HAND_PICKED, 2, 2**70, -2, 1.0], ids=repr)
def test_a_seat_that_is_not_one_is_refused(method: str, value: Any) -> None:
    g = fresh()
    # True is 1 to Python, and -1 would index the last seat: neither is a seat number.
    with unchanged(g):
        refused(lambda: SEAT_CALLS[method](g, value), "seat")


@FUZZ
@given(value=junk_values)
def test_junk_seats_are_refused(value: Any) -> None:
    assume(not (type(value) is int and 0 <= value < 2))
    g = fresh()
    with unchanged(g):
        for call in SEAT_CALLS.values():
            refused(lambda: call(g, value), "seat")  # noqa: B023


@pytest.mark.parametrize("value", [5, "7H 8H", [1, 2], [None], ["7H"], {"7H": 1}], ids=repr)
def test_next_deal_with_a_bad_deck_changes_nothing(value: Any) -> None:
    g = deal_over()
    with unchanged(g):
        refused(lambda: g.next_deal(value), "deck", "card")
    g.next_deal()
    assert g.phase == "draw"


# -- records ----------------------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    g = fresh()
    play(g, "draw")
    return g.record()


@pytest.mark.parametrize("value", HAND_PICKED, ids=repr)
def test_a_record_that_is_no_record_is_refused(value: Any) -> None:
    if not isinstance(value, str):
        with pytest.raises(InvalidRecord, match="record"):
            Game.from_record(value)
    else:
        with pytest.raises(InvalidRecord):
            Game.from_record(value)


RECORD_FIELDS = ("variant", "players", "options", "seed", "deals")
DEAL_FIELDS = ("deck", "actions", "dealer", "restocks")


@FUZZ
@given(field=st.sampled_from(RECORD_FIELDS), value=junk_values)
def test_a_record_field_of_the_wrong_type_is_named(field: str, value: Any) -> None:
    record = a_record()
    assume(value != record[field] and not (field == "options" and value in (None, {})))
    assume(not (field == "seed" and (value is None or type(value) is int)))
    record[field] = value
    with pytest.raises(InvalidRecord) as info:
        Game.from_record(record)
    message = str(info.value)
    names = {"options": ("option", "house rule", "deal 1")}.get(field, (field, "deal 1"))
    assert any(n in message for n in names), message


@FUZZ
@given(field=st.sampled_from(DEAL_FIELDS), value=junk_values)
def test_a_deal_field_of_the_wrong_type_is_named(field: str, value: Any) -> None:
    record = a_record()
    assume(not (field in ("dealer", "restocks") and value is None))
    assume(not (field == "dealer" and value == 0 and type(value) is int))
    assume(value != record["deals"][0].get(field))
    assume(not (field in ("actions", "restocks") and value == []))  # no action, no restock
    record["deals"][0][field] = value
    with pytest.raises(InvalidRecord) as info:
        Game.from_record(record)
    message = str(info.value)
    # A dealer of the right type but another seat: "the record says seat 1 deals".
    stem = {"restocks": "restock", "dealer": "deal"}.get(field, field)
    assert stem in message or "card" in message, message


def test_a_record_cut_before_its_rebuilt_stock_replays_to_that_point() -> None:
    # Looking at a game move by move replays the first actions of a record that lists a
    # rebuilt stock further on.
    record = a_record()
    record["deals"][0]["restocks"] = [[]]
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:2]
    game = Game.from_record(record)
    assert game.version == 2


def test_a_dealer_of_another_type_is_named_as_such() -> None:
    record = a_record()
    record["deals"][0]["dealer"] = "0"
    with pytest.raises(InvalidRecord, match="dealer must be a seat number, not '0'"):
        Game.from_record(record)


# -- cards, melds, actions as text, rules -----------------------------------------------------


TEXT_CALLS: dict[str, tuple[Callable[[Any], object], str]] = {
    "parse_card": (parse_card, "card"),
    "Card": (Card, "card"),
    "parse_cards": (parse_cards, "card"),
    "parse_action": (parse_action, "action"),
    "parse_meld": (parse_meld, "meld"),
}


@pytest.mark.parametrize("name", TEXT_CALLS)
@FUZZ
@given(value=not_text)
def test_parsers_refuse_what_is_not_text(name: str, value: Any) -> None:
    call, word = TEXT_CALLS[name]
    message = refused(lambda: call(value), word)
    assert isinstance(value, str) or "text" in message


@FUZZ
@given(value=junk_values)
def test_make_meld_refuses_what_is_not_cards(value: Any) -> None:
    refused(lambda: make_meld(value), "meld")
    refused(lambda: make_meld(HAND[:3], value), "rules", "MeldRules")


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (15, 1), (7, 4), (7, -1)])
def test_card_refuses_what_is_no_rank_or_suit(rank: int, suit: int) -> None:
    # Whole numbers only: card() is the inner loops' way to a face, and checks no types.
    refused(lambda: card(rank, suit), "rank")


SCHEMA_CALLS: list[Callable[[Any], object]] = [
    make_rules, option_schema, house_rule_schema, players_allowed, analysis_rules,
    lambda v: analyze(HAND, v),
]


@pytest.mark.parametrize("call", SCHEMA_CALLS)
@FUZZ
@given(value=junk_values)
def test_a_variant_that_is_no_name_is_refused(call: Callable[[Any], object], value: Any) -> None:
    assume(value not in VARIANTS)
    refused(lambda: call(value), "variant")


@pytest.mark.parametrize(
    "make", [lambda: MeldRules(min_real=bad("2")), lambda: MeldRules(adjacent_jokers=bad(1)),
             lambda: MeldRules(wild_rank=14), lambda: MeldRules(max_run=bad(None))],
)
def test_meld_rules_of_the_wrong_type_are_refused(make: Callable[[], object]) -> None:
    refused(make, "MeldRules")


@pytest.mark.parametrize(
    "make", [lambda: OpeningRule(minimum=bad("40")), lambda: OpeningRule(keep=2),
             lambda: OpeningRule(close_leaves=bad([0, 1])),
             lambda: OpeningRule(jokers_zero=bad(None)), lambda: OpeningRule(close_leaves=(-1,)),
             lambda: OpeningRule(close_leaves=bad((True,))), lambda: OpeningRule(minimum=-1),
             lambda: PenaltyRule(scoring=bad("bridge")), lambda: PenaltyRule(cap=bad(8.5)),
             lambda: PenaltyRule(two_sequences=bad("yes"))],
)
def test_solver_rules_of_the_wrong_type_are_refused(make: Callable[[], object]) -> None:
    refused(make, "OpeningRule", "PenaltyRule")


# -- the analysis and the solver ----------------------------------------------------------------


ANALYZE_CALLS: dict[str, tuple[Callable[[Any], object], str, Callable[[Any], bool]]] = {
    "hand": (lambda v: analyze(v), "hand", lambda v: isinstance(v, str)),
    "options": (lambda v: analyze(HAND, options=v), "option", lambda v: v is None or v == {}),
    "must_include": (lambda v: analyze(HAND, must_include=v), "must_include",
                     lambda v: v is None or isinstance(v, str)),
    "wild_rank": (lambda v: analyze(HAND, "indian", wild_rank=v), "wild rank",
                  lambda v: type(v) is int and 0 <= v <= 13),
}


@pytest.mark.parametrize("name", ANALYZE_CALLS)
@pytest.mark.parametrize("value", HAND_PICKED, ids=repr)
def test_analyze_names_the_bad_argument(name: str, value: Any) -> None:
    call, word, valid = ANALYZE_CALLS[name]
    if not valid(value):
        refused(lambda: call(value), word)


@pytest.mark.parametrize("name", ANALYZE_CALLS)
@FUZZ
@given(value=junk_values)
def test_analyze_refuses_junk(name: str, value: Any) -> None:
    call, word, valid = ANALYZE_CALLS[name]
    assume(not valid(value))
    refused(lambda: call(value), word)


SOLVER_CALLS: dict[str, Callable[..., object]] = {
    "best_opening": best_opening,
    "best_close": best_close,
    "opening": opening,
    "opening_points": opening_points,
    "least_penalty": lambda cards, rule=RUMMY_PENALTY, melds=RUMMY_MELDS: least_penalty(
        cards, rule, melds),
    "penalty_points": lambda cards, rule=RUMMY_PENALTY, melds=RUMMY_MELDS: penalty_points(
        cards, rule, melds),
    "opening_and_penalty": lambda cards, rule=RUMMY_OPENING, melds=RUMMY_MELDS: (
        opening_and_penalty(cards, rule, RUMMY_PENALTY, melds)),
    "declaration": lambda cards, rule=None, melds=RUMMY_MELDS: declaration(cards, melds),
}


@pytest.mark.parametrize("name", SOLVER_CALLS)
@FUZZ
@given(value=junk_values)
def test_solver_refuses_what_is_not_cards(name: str, value: Any) -> None:
    call = SOLVER_CALLS[name]
    # An empty sequence is an empty hand, whatever its type: the check is by the cards' type.
    assume(value not in ([], (), b"", ""))
    refused(lambda: call(value), "cards")


@pytest.mark.parametrize("name", SOLVER_CALLS)
def test_solver_refuses_a_generator_and_rules_of_the_wrong_type(name: str) -> None:
    call = SOLVER_CALLS[name]
    refused(lambda: call(c for c in HAND), "cards")
    refused(lambda: call(["KS", "KH", "KD"]), "cards")
    if name != "declaration":
        refused(lambda: call(HAND, 5), "rule")
        other = RUMMY_OPENING if name in ("least_penalty", "penalty_points") else RUMMY_PENALTY
        refused(lambda: call(HAND, other), "rule")
    refused(lambda: call(HAND, melds={}), "melds")
    if name in ("best_opening", "best_close", "opening", "opening_points"):
        refused(lambda: call(HAND, RUMMY_OPENING, RUMMY_MELDS, "KS"), "must_include")
    # The same hand as a list and as a tuple gives the same answer after all that.
    assert call(list(HAND)) == call(tuple(HAND))


def test_card_penalty_refuses_what_is_no_card() -> None:
    refused(lambda: card_penalty(bad("KS"), RUMMY_PENALTY), "cards")
    refused(lambda: card_penalty(HAND[0], bad("rummy")), "rule")
    assert card_penalty(HAND[0], RUMMY_PENALTY) == 10


# -- the bots ---------------------------------------------------------------------------------


def seat_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    g = fresh()
    play(g, "draw", "discard " + g.view(1)["hand"][0], "draw")
    seat = g.to_move
    assert seat is not None
    return g.view(seat), g.history()


@pytest.mark.parametrize("value", HAND_PICKED, ids=repr)
def test_choose_action_names_a_bad_view_or_history(value: Any) -> None:
    view, history = seat_view()
    refused(lambda: choose_action(value, history, "easy", seed=1), "view")
    if value != []:
        refused(lambda: choose_action(view, value, "easy", seed=1), "history")


@FUZZ
@given(field=st.sampled_from(["variant", "players", "seat", "hand", "pile", "table", "seats",
                              "turn", "options", "stock", "restocks", "over", "indicator"]),
       value=junk_values)
def test_choose_action_names_a_view_field_of_the_wrong_shape(field: str, value: Any) -> None:
    view, history = seat_view()
    assume(value != view[field] and not (field == "options" and value in (None, {})))
    view[field] = value
    try:
        answer = choose_action(view, history, "easy", seed=1)
    except RummyError as exc:
        assert isinstance(exc, ValueError)
        if value is not None and type(value) is not type(view[field]):
            # Of another shape: refused as such. (Of the same shape, the value may be refused
            # for what it says: a variant that does not exist, no turn to play...)
            names = {"variant": ("variant",), "players": ("players", "seats"),
                     "options": ("option",), "hand": ("hand", "card")}.get(field, (field,))
            assert "view" in str(exc) or any(n in str(exc) for n in names), str(exc)
    else:
        # A value of the right shape that changes nothing the bot reads (an indicator, a
        # stock count...) may still give an answer; it is then an action.
        parse_action(answer)


@FUZZ
@given(event=junk_values)
def test_choose_action_names_a_bad_history_event(event: Any) -> None:
    view, history = seat_view()
    assume(not isinstance(event, dict) or event.get("action") in (
        "take", "return", "discard", "layoff", "swap", "meld") or event.get("seat", 0) is None)
    try:
        choose_action(view, [*history, event], "easy", seed=1)
    except RummyError as exc:
        assert "history" in str(exc) or "variant" in str(exc), str(exc)


@pytest.mark.parametrize(
    ("kw", "word"),
    [({"level": 5}, "bot"), ({"level": None}, "bot"), ({"seed": "x"}, "seed"),
     ({"seed": []}, "seed"), ({"seed": 1.5}, "seed"), ({"budget": "1"}, "budget"),
     ({"budget": -1}, "budget"), ({"budget": float("nan")}, "budget"),
     ({"budget": True}, "budget")],
)
def test_choose_action_names_bad_settings(kw: dict[str, Any], word: str) -> None:
    view, history = seat_view()
    args: dict[str, Any] = {"level": "hard", "seed": 1, "budget": 0.05, **kw}
    refused(lambda: choose_action(view, history, **args), word)


def test_make_bot_refuses_a_bad_budget() -> None:
    for budget in ("x", 0, -1.0, float("inf"), [1]):
        refused(lambda: make_bot("hard", bad(budget)), "budget")  # noqa: B023


def test_observation_refuses_a_public_view() -> None:
    g = fresh()
    refused(lambda: Observation.from_view(g.public_view(), g.history()), "view")


def test_play_turn_and_play_deal_refuse_bad_arguments_and_change_nothing() -> None:
    g = fresh()
    seat = g.to_move
    assert seat is not None
    bot = make_bot("easy")
    with unchanged(g):
        refused(lambda: play_turn(g, seat, bad("easy")), "bot")
        refused(lambda: play_turn(g, seat, bot, bad(5)), "rng")
        refused(lambda: play_turn(g, seat, bot, limit=bad("1")), "limit")
        refused(lambda: play_turn(bad("game"), seat, bot), "game")
        refused(lambda: play_turn(g, bad("1"), bot), "seat")
        refused(lambda: play_deal(g, [bot], random.Random(1)), "bots")
        refused(lambda: play_deal(g, bad("easy"), random.Random(1)), "bots")
        refused(lambda: play_deal(g, [bot, bot], bad(1)), "rng")
        refused(lambda: play_deal(g, [bot, bot], random.Random(1), max_actions=bad("9")),
                "max_actions")
        odd = make_bot("easy")
        odd.budget = bad("1")
        refused(lambda: play_turn(g, seat, odd), "budget")
    assert play_turn(g, seat, bot, random.Random(1)).fallback is None


def test_invalid_argument_is_a_value_error_and_exported() -> None:
    import rummykit

    assert issubclass(InvalidArgument, RummyError) and issubclass(InvalidArgument, ValueError)
    assert rummykit.InvalidArgument is InvalidArgument


# -- the smaller functions and methods: each argument in turn junk --------------------------------


def _smaller_calls() -> dict[str, tuple[Callable[..., object], list[Any]]]:
    run = make_meld(parse_cards("5H X 7H"))
    eight = parse_card("8H")
    game = fresh()
    return {
        "Game": (Game, [make_rules("rummy")]),
        "format_cards": (format_cards, [HAND]),
        "pretty_cards": (pretty_cards, [HAND]),
        "make_deck": (make_deck, [4, 2]),
        "sort_key_suit": (sort_key_suit, [HAND[0]]),
        "sort_key_rank": (sort_key_rank, [HAND[0]]),
        "check_cards_exist": (check_cards_exist, [HAND, 4]),
        "rummy_penalty": (rummy_penalty, [HAND[0]]),
        "indian_penalty": (indian_penalty, [HAND[0], 13]),
        "opening_value": (opening_value, [7]),
        "Meld.layoff_ends": (run.layoff_ends, [eight, RUMMY_MELDS]),
        "Meld.add": (run.add, [eight, "high", RUMMY_MELDS]),
        "Meld.swap_index": (run.swap_index, [parse_card("6H"), RUMMY_MELDS]),
        "Meld.swap": (run.swap, [1, parse_card("6H")]),
        "Meld.place": (run.place, [1]),
        "Game.kept_after_take": (game.kept_after_take, [[*HAND, eight], eight]),
        "unused_options": (unused_options, ["indian", {}]),
        "by_name": (by_name, ["jokers_zero"]),
        "answer_rules": (answer_rules, ["simple"]),
        "time_limit": (time_limit, [make_bot("hard", 1.0)]),
    }


SMALLER = _smaller_calls()


@pytest.mark.parametrize("name", SMALLER)
@pytest.mark.parametrize("value", [None, 5, "x", [1], {"a": 1}, 1.5, b"x", (None,), -1])
def test_smaller_functions_refuse_junk_in_every_argument(name: str, value: Any) -> None:
    call, args = SMALLER[name]
    call(*args)  # the arguments as given are right
    for i in range(len(args)):
        junk = [*args[:i], value, *args[i + 1:]]
        try:
            call(*junk)
        except RummyError as exc:
            assert isinstance(exc, ValueError)
        # Some junk is a value of the right type (-1 jokers is refused, 5 copies is a deck).


def test_ranks_of_the_wrong_type_are_refused_not_counted() -> None:
    # A float or a bool compared like a whole number and gave a value no place has.
    assert opening_value(14) == 11 and opening_value(1) == 1
    bad_ranks: list[Any] = [7.5, 7.0, True, 0, 15]
    for rank in bad_ranks:
        refused(partial(opening_value, rank), "rank")
    seven = parse_card("7H")
    assert indian_penalty(seven, 7) == 0 and indian_penalty(seven, 0) == 7
    bad_wilds: list[Any] = ["7", 7.5, 14, -1, None]
    for wild in bad_wilds:
        refused(partial(indian_penalty, seven, wild), "wild_rank")


def test_a_swap_must_put_the_right_card_on_a_joker() -> None:
    run = make_meld(parse_cards("5H X 7H"))
    assert run.swap(1, parse_card("6H"))[1] == parse_card("X")
    refused(lambda: run.swap(0, parse_card("6H")), "joker")
    refused(lambda: run.swap(1, parse_card("6S")), "cannot take")
    refused(lambda: run.swap(3, parse_card("6H")), "place")
    the_set = make_meld(parse_cards("7S 7H X"))
    assert the_set.swap(2, parse_card("7D"))[0] == make_meld(parse_cards("7S 7H 7D"))
    refused(lambda: the_set.swap(2, parse_card("7S")), "cannot take")


@pytest.mark.parametrize(("rank", "suit"), [("7", 1), (7, "1"), (7.0, 1), (None, 0)])
def test_card_of_a_rank_and_suit_that_are_no_whole_numbers(rank: Any, suit: Any) -> None:
    from rummykit.cards import card

    with pytest.raises(InvalidArgument, match="whole numbers"):
        card(rank, suit)
