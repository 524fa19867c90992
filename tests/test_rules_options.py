"""Rulesets: one per variant, room options, house rules by field name."""

from __future__ import annotations

import pytest

from rummykit.engine import Game
from rummykit.errors import RummyError, UnknownVariant
from rummykit.rules import (
    VARIANTS,
    decisions,
    field_docs,
    make_rules,
    option_schema,
    players_allowed,
    unused_options,
)


def test_rummy_is_the_reference_game() -> None:
    assert VARIANTS[0] == "rummy"
    assert Game.new().variant == "rummy"


@pytest.mark.parametrize(
    ("variant", "players", "jokers", "hand", "minimum"),
    [
        ("rummy", (2, 3, 4, 5, 6), 4, 13, 40),
        ("rami51", (2, 4), 4, 14, 51),
        ("rami71", (2, 4), 2, 14, 71),
        ("simple", (2, 4), 2, 14, 0),
        ("indian", (2, 3, 4, 5, 6), 2, 13, 0),
    ],
)
def test_variant_table(variant: str, players: tuple[int, ...], jokers: int, hand: int,
                       minimum: int) -> None:
    assert players_allowed(variant) == players
    r = make_rules(variant, players[0])
    assert (r.jokers, r.hand_size, r.opening_minimum) == (jokers, hand, minimum)
    assert r.first_dealer == 0


def test_rami_family_shapes() -> None:
    for v in ("rami51", "rami71", "simple"):
        r = make_rules(v, 2)
        assert r.first_extra and not r.starter and not r.out_by_laying
        assert r.max_restocks == -1 and not r.freed_joker_duty and r.taken_card_duty
    assert make_rules("rami51", 2).swap == "fourth"
    assert make_rules("simple", 2).swap == "none" and make_rules("simple", 2).lay_mode == "close"
    r71 = make_rules("rami71", 4)
    assert r71.jokers_zero and r71.clean_run_and_set and r71.teams and r71.partner_opens_free


def test_rummy_shape() -> None:
    r = make_rules("rummy", 4)
    assert r.starter and not r.first_extra and r.max_restocks == 2
    assert r.freed_joker_duty and r.taken_card_duty and r.out_by_laying and r.small_opening == 1
    assert (r.length, r.target) == ("one-deal", 200)


def test_indian_shape() -> None:
    r = make_rules("indian", 3)
    assert r.indicator and r.starter and r.lay_mode == "declare" and not r.take_jokers
    assert (r.cap, r.wrong_declaration, r.first_drop, r.middle_drop) == (80, 80, 20, 40)
    assert (r.length, r.limit) == ("pool101", 101)
    assert make_rules("indian", 3, {"format": "pool201"}).limit == 201
    assert make_rules("indian", 3, {"format": "points", "deals": 5}).deals == 1
    assert make_rules("indian", 3, {"format": "deals"}).deals == 2


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("rummy", {"opening": 40, "clock": 45, "length": "one-deal"}),
        ("rami51", {"clock": 45}),
        ("rami71", {"clock": 45}),
        ("simple", {"clock": 45}),
        ("indian", {"format": "pool101", "deals": 2, "jokers_from_discard": False,
                    "clock": 45}),
    ],
)
def test_room_option_defaults(variant: str, options: dict[str, object]) -> None:
    schema = option_schema(variant)
    assert {k: v["default"] for k, v in schema.items()} == options
    assert make_rules(variant, players_allowed(variant)[0]).options() == options


@pytest.mark.parametrize("clock", [30, 45, 60, 90, 600])
def test_clock_options(clock: int) -> None:
    for v in VARIANTS:
        assert make_rules(v, 2, {"clock": clock}).clock == clock


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("rummy", 2, {"opening": 45}),
        ("rummy", 2, {"clock": 50}),
        ("rummy", 2, {"length": "to-300"}),
        ("rummy", 2, {"opening": True}),
        ("rummy", 1, {}),
        ("rummy", 7, {}),
        ("rami51", 3, {}),
        ("simple", 6, {}),
        ("indian", 2, {"format": "pool301"}),
        ("indian", 2, {"deals": 0}),
        ("indian", 2, {"format": "deals", "deals": 21}),
        ("indian", 2, {"format": "deals", "deals": 10**9}),
        ("indian", 2, {"jokers_from_discard": 1}),
        ("rummy", 2, {"nonsense": 1}),
        ("rummy", 2, {"max_restocks": "two"}),
        ("rummy", 2, {"variant": "indian"}),
    ],
)
def test_bad_options_are_refused_with_a_reason(variant: str, players: int,
                                               options: dict[str, object]) -> None:
    with pytest.raises(RummyError) as exc:
        make_rules(variant, players, options)
    assert str(exc.value)


def test_the_deals_count_is_bounded_and_used_only_by_its_format() -> None:
    assert make_rules("indian", 2, {"format": "deals", "deals": 20}).deals == 20
    assert option_schema("indian")["deals"] == {
        "values": "int", "default": 2, "min": 1, "max": 20, "only_with": {"format": ["deals"]},
    }
    assert unused_options("indian", {"format": "deals", "deals": 3}) == []
    assert unused_options("indian", {"deals": 3}) == ["deals"]  # the default format: pool101
    assert unused_options("indian", {"format": "points", "deals": 1}) == ["deals"]
    assert unused_options("rummy", {"length": "to-200"}) == []


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariant, match="choose one of"):
        make_rules("canasta", 2)
    with pytest.raises(UnknownVariant):
        option_schema("canasta")


def test_house_rules_override_fields_by_name_and_are_recorded() -> None:
    r = make_rules("rummy", 2, {"max_restocks": 3, "opening": 30})
    assert r.max_restocks == 3 and r.opening_minimum == 30
    g = Game.new("rummy", 2, {"max_restocks": 0}, seed=5)
    assert g.record()["options"]["max_restocks"] == 0
    while not g.deal.over:
        g.apply("timeout")
    again = Game.from_record(g.record())
    assert again.view(0) == g.view(0) and again.results[0].blocked


def test_decisions_are_listed_with_their_option_names() -> None:
    names = {name for name, _ in decisions()}
    assert {"first_dealer", "max_restocks", "freed_joker_duty", "taken_card_duty",
            "swap", "teams", "jokers_zero", "clean_run_and_set", "blocked_deal",
            "wrong_declaration_ends", "dealer_after", "indicator_in_stock", "loser_melds",
            "restock_keeps_top", "timeout_discard"} <= names
    docs = field_docs()
    assert all(docs[name] for name in names)


@pytest.mark.parametrize(
    ("variant", "players", "options", "reason"),
    [
        ("rummy", 2, {"hand_size": 60}, "'hand_size' must be a whole number from 3 to 17"),
        ("rummy", 6, {"hand_size": 18}, "'hand_size' must be a whole number from 3 to 17"),
        ("indian", 6, {"hand_size": 17, "jokers": 0}, "need 104 of the 104 cards and leave"),
        ("rummy", 2, {"hand_size": 0}, "'hand_size' must be a whole number from 3 to 17"),
        ("rummy", 2, {"jokers": -2}, "'jokers' must be a whole number from 0 to 8"),
        ("rummy", 2, {"min_real": 0}, "'min_real' must be a whole number from 1 to 3"),
        ("rummy", 2, {"min_real": 9}, "'min_real' must be a whole number from 1 to 3"),
        ("rummy", 3, {"first_dealer": 3}, "'first_dealer' must be a seat from 0 to 2, not 3"),
        ("rummy", 2, {"first_dealer": -1}, "'first_dealer' must be a whole number of at least 0"),
        ("rummy", 2, {"max_restocks": -2}, "'max_restocks' must be a whole number of at least -1"),
        ("indian", 2, {"cap": 0}, "'cap' must be a whole number of at least 1"),
        ("rami51", 2, {"limit": 0}, "'limit' must be a whole number of at least 1"),
        ("rummy", 2, {"opening": 51, "opening_minimum": 35}, "set the same rule: give one"),
        ("indian", 2, {"jokers_from_discard": True, "take_jokers": True}, "set the same rule"),
    ],
)
def test_house_rules_are_bounded(variant: str, players: int, options: dict[str, object],
                                 reason: str) -> None:
    """A house rule the deal or the table cannot play is refused with a reason (a hand of 60
    cards raised IndexError at the deal, a first dealer of seat 5 at the second deal)."""
    with pytest.raises(RummyError, match=reason):
        make_rules(variant, players, options)
    with pytest.raises(RummyError, match=reason):
        Game.new(variant, players=players, options=options)


@pytest.mark.parametrize(
    ("variant", "options", "field", "value"),
    [
        ("rummy", {"opening_minimum": 35}, "opening_minimum", 35),
        ("indian", {"take_jokers": True}, "take_jokers", True),
        ("indian", {"limit": 150}, "limit", 150),
        ("rami51", {"limit": 500, "hand_size": 12}, "limit", 500),
    ],
)
def test_a_house_rule_on_a_room_options_field_round_trips(
    variant: str, options: dict[str, object], field: str, value: object
) -> None:
    """``options()`` leaves out the room option a house rule overrides (it wrote the house
    value under the room option's name, ``opening: 35``, which no record could replay), and a
    format's own limit gives way to a house rule's."""
    rules = make_rules(variant, 2, options)
    assert getattr(rules, field) == value
    assert make_rules(variant, 2, rules.options()) == rules
    game = Game.new(variant, players=2, options=options, seed=5)
    game.apply(game.legal_actions()[0])
    again = Game.from_record(game.record())
    assert again.rules == game.rules and again.version == game.version


def test_bots_play_under_a_house_rule_on_a_room_options_field() -> None:
    from rummykit.bots import choose_action

    game = Game.new("rummy", players=2, options={"opening_minimum": 35}, seed=5)
    for _ in range(6):
        seat = game.to_move
        assert seat is not None
        game.apply(choose_action(game.view(seat), list(game.history()), "medium", 1))
