"""The house rules a room may set (``rules.house_rule_schema``): which fields, their kinds,
defaults and descriptions, and that every value it offers is one ``make_rules`` takes."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.errors import RummyError, UnknownVariant
from rummykit.rules import (
    VARIANTS,
    decisions,
    field_docs,
    house_rule_schema,
    make_rules,
    option_schema,
    players_allowed,
)


def test_rummy_offers_its_decisions_with_the_rule_books_defaults() -> None:
    schema = house_rule_schema("rummy")
    assert schema["blocked_deal"] == {
        "kind": "choice",
        "values": ["scored", "void"],
        "default": "scored",
        "doc": field_docs()["blocked_deal"],
    }
    assert schema["restock_keeps_top"]["kind"] == "bool"
    assert schema["restock_keeps_top"]["default"] is True
    assert schema["max_restocks"] == {
        "kind": "int",
        "min": -1,
        "max": None,
        "default": 2,
        "doc": field_docs()["max_restocks"],
    }
    assert schema["first_dealer"]["kind"] == "seat"
    assert (schema["first_dealer"]["min"], schema["first_dealer"]["max"]) == (0, 5)


def test_defaults_are_the_variants_own() -> None:
    assert house_rule_schema("rami51")["max_restocks"]["default"] == -1
    assert house_rule_schema("rami71")["jokers_zero"]["default"] is True
    assert house_rule_schema("rummy")["swap"]["default"] == "any"
    assert house_rule_schema("rami51")["swap"]["default"] == "fourth"
    assert house_rule_schema("rami51")["first_dealer"]["max"] == 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_decisions_meaningful_in_the_variant(variant: str) -> None:
    schema = house_rule_schema(variant)
    assert set(schema) <= {name for name, _ in decisions()}
    # the seat count decides the partners; a room option's field is set as that option
    assert "teams" not in schema
    assert "take_jokers" not in schema
    only_rummy, only_indian = "blocked_deal", "loser_melds"
    assert (only_rummy in schema) == (variant == "rummy")
    assert (only_indian in schema) == (variant == "indian")
    assert ("wrong_declaration_ends" in schema) == (variant == "indian")
    # no shared table to swap on, no opening's points to count
    swaps = variant in ("rummy", "rami51", "rami71")
    assert ("swap" in schema) == ("freed_joker_duty" in schema) == swaps
    assert ("jokers_zero" in schema) == swaps
    assert ("clean_run_and_set" in schema) == ("taken_card_duty" in schema) == (variant != "indian")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_offered_value_is_taken_and_recorded(variant: str) -> None:
    """Each rule set to a value other than its default builds a table whose options name it,
    for every seat count (the lobby sends it as it is)."""
    for name, spec in house_rule_schema(variant).items():
        changed: Any
        if spec["kind"] == "bool":
            changed = not spec["default"]
        elif spec["kind"] == "choice":
            changed = next(v for v in spec["values"] if v != spec["default"])
            assert spec["default"] in spec["values"]
        else:
            changed = spec["default"] + 1
            assert spec["min"] <= spec["default"]
        for players in players_allowed(variant):
            if spec["kind"] == "seat" and changed >= players:
                continue
            rules = make_rules(variant, players, {name: changed})
            assert getattr(rules, name) == changed
            assert rules.options()[name] == changed
            assert make_rules(variant, players).options().get(name) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_bounds_are_those_make_rules_keeps(variant: str) -> None:
    for name, spec in house_rule_schema(variant).items():
        if spec["kind"] not in ("int", "seat"):
            continue
        with pytest.raises(RummyError):
            make_rules(variant, max(players_allowed(variant)), {name: spec["min"] - 1})
        if spec["max"] is not None:
            with pytest.raises(RummyError):
                make_rules(variant, max(players_allowed(variant)), {name: spec["max"] + 1})
            make_rules(variant, max(players_allowed(variant)), {name: spec["max"]})


def test_no_house_rule_shares_a_name_with_a_room_option() -> None:
    for variant in VARIANTS:
        assert not set(house_rule_schema(variant)) & set(option_schema(variant))


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(UnknownVariant):
        house_rule_schema("canasta")
