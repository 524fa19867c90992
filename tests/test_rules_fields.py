"""Ruleset fields set by name beyond the room options and offered house rules: each one is
refused with a reason or plays.

The audit is ``scripts/hunt_fields.py`` (every such field alone at edge values, then random
pairs, each played by random moves; ``--whole`` to the game's end). Here every single field is
created (refused or accepted alike by ``make_rules`` and ``Game.new``), and a derandomized
handful of pairs is played; ``FIELD_EXAMPLES=200 python -m pytest tests/test_rules_fields.py``
plays that many random pairs instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.engine import Game
from rummykit.errors import RummyError
from rummykit.rules import VARIANTS, make_rules, players_allowed
from tests.hunt import scaled

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import hunt_fields as audit

examples = scaled("FIELD_EXAMPLES")

SINGLES = [
    (v, p, name, value)
    for v in VARIANTS
    for p in (players_allowed(v)[0],)
    for name in audit.extra_fields(v)
    for value in audit.edge_values(v, p, name)
]


@pytest.mark.parametrize(("variant", "players", "name", "value"), SINGLES)
def test_every_extra_field_is_refused_or_built(
    variant: str, players: int, name: str, value: Any
) -> None:
    """make_rules and Game.new agree, and refuse with a RummyError only."""
    case = audit.Case(1, variant, players, {name: value})
    try:
        game = audit.create(case)
    except audit.Refused as exc:
        assert name in str(exc) or "cards" in str(exc), exc
        return
    assert getattr(game.rules, name) == value
    assert make_rules(variant, players, game.rules.options()) == game.rules


@pytest.mark.parametrize(
    ("variant", "options", "reason"),
    [
        ("rummy", {"lay_mode": "close"}, "'lay_mode' would make rummy another game"),
        ("simple", {"lay_mode": "open"}, "'lay_mode' would make simple another game"),
        ("indian", {"scoring": "rummy"}, "'scoring' would make indian another game"),
        ("rummy", {"indicator": True}, "'indicator' would make rummy another game"),
        ("rami51", {"length": "one-deal"}, "'length' would make rami51 another game"),
        ("rami51", {"teams": False}, "the seat count decides it"),
        ("rummy", {"cap": 20}, "'cap' belongs to indian"),
        ("rummy", {"fixed_penalty": 20}, "'fixed_penalty' belongs to simple"),
        ("simple", {"layoffs": True}, "simple has none, its only lay-down is the close"),
        ("indian", {"opening_minimum": 30}, "nothing is laid during play"),
        ("indian", {"hand_size": 5}, "'hand_size' must be a whole number from 6 to 17"),
        ("rummy", {"hand_size": 18}, "'hand_size' must be a whole number from 3 to 17"),
        # A deal of rami71 without lay-offs went on for 2500 steps: both players down to one
        # card, drawing and discarding, with no end to the restocks.
        ("rami51", {"layoffs": False}, "'layoffs' off needs a bounded 'max_restocks'"),
        ("rummy", {"layoffs": False, "max_restocks": -1}, "the deal would never end"),
        # An Indian pool whose losers paid nothing went 80 deals without an end.
        ("indian", {"cap": 0}, "'cap' must be a whole number of at least 1"),
        # A deal of simple with hands of 3 went on for 2500 steps: its close needs six cards.
        ("simple", {"hand_size": 5}, "needs a run and a set under the close"),
        ("rummy", {"clean_run_and_set": True, "hand_size": 5}, "could never make one"),
        ("rami51", {"lay_all_close": False, "hand_size": 4}, "minimum of 51 is out of reach"),
    ],
)
def test_fields_that_make_another_game_are_refused(
    variant: str, options: dict[str, Any], reason: str
) -> None:
    players = 4 if variant == "rami51" else 2
    with pytest.raises(RummyError, match=reason):
        make_rules(variant, players, options)
    with pytest.raises(RummyError, match=reason):
        Game.new(variant, players, options)


def test_the_variants_own_values_are_taken() -> None:
    """Setting a field to the variant's own value (or a value its room option offers)
    changes nothing and is taken: records that spell them out still replay."""
    assert make_rules("rummy", 2, {"length": "to-200"}).length == "to-200"
    own = make_rules("simple", 2, {"lay_mode": "close", "opening_minimum": 0})
    assert own.house == (("lay_mode", "close"), ("opening_minimum", 0))
    assert dict(own.options()) == {"clock": 45, "lay_mode": "close", "opening_minimum": 0}
    assert make_rules("rami51", 4, {"teams": True}).teams


@pytest.mark.parametrize(
    ("variant", "players", "reason"),
    [
        ("rummy", 4, "'partner_opens_free' belongs to rami51, rami71: rummy has no partners"),
        ("indian", 4, "indian has no partners"),
        ("simple", 4, "simple has none, its only lay-down is the close"),
        ("rami51", 2, "'partner_opens_free' needs partners: rami51 has them with 4 players"),
        ("rami71", 2, "rami71 has them with 4 players, not 2"),
    ],
)
def test_partner_opens_free_needs_partners(variant: str, players: int, reason: str) -> None:
    """Only a Rami table of four with an opening minimum has partners to open for one another:
    elsewhere the rule changed nothing (a rummy table took it and played as before)."""
    own = make_rules(variant, players).partner_opens_free
    with pytest.raises(RummyError, match=reason):
        make_rules(variant, players, {"partner_opens_free": not own})
    with pytest.raises(RummyError, match=reason):
        Game.new(variant, players, {"partner_opens_free": not own})
    # the variant's own value changes nothing and is taken, as for every field
    assert make_rules(variant, players, {"partner_opens_free": own}).partner_opens_free == own


def test_partner_opens_free_is_taken_with_partners() -> None:
    for variant, minimum in (("rami51", 51), ("rami71", 71)):
        rules = make_rules(variant, 4, {"partner_opens_free": False})
        assert rules.teams and not rules.partner_opens_free
        assert rules.opening_rule(partner_opened=True).minimum == minimum


def test_simple_has_no_opening_minimum() -> None:
    """The engine weighed a simple close against an ``opening_minimum`` house rule that the
    solver's close (the meter, the one-tap close, the bots) ignores: refused instead."""
    with pytest.raises(RummyError, match="only lay-down is the close"):
        Game.new("simple", 2, {"opening_minimum": 30})
    game = Game.new("simple", 2, seed=3)
    assert game.rules.opening_minimum == 0


PLAYED = [
    ("rummy", 2, {"hand_size": 3, "min_real": 1}),
    ("rummy", 4, {"target": 1, "length": "to-200", "out_by_laying": False}),
    ("rami51", 2, {"small_opening": 3, "lay_all_close": False}),
    ("rami51", 4, {"layoffs": False, "max_restocks": 1}),
    ("rami71", 4, {"jokers": 8, "take_jokers": False}),
    ("simple", 2, {"fixed_penalty": 0, "hand_size": 7}),
    ("indian", 3, {"hand_size": 6, "wrong_declaration": 0, "cap": 1}),
]


@pytest.mark.parametrize(("variant", "players", "options"), PLAYED)
def test_accepted_fields_play(variant: str, players: int, options: dict[str, Any]) -> None:
    assert audit.run(audit.Case(5, variant, players, options), 150, whole=False) == "ok"


@examples(6)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_pairs_are_refused_or_play(seed: int) -> None:
    for case in audit.pairs(1, seed, list(VARIANTS)):
        audit.run(case, 120, whole=False)
