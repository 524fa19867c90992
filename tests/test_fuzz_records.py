"""Game records fed garbage or mutated (a line dropped, an action changed, the seed, the options
or a deck edited) are refused with ``InvalidRecord`` naming the deal, the action and the reason,
or replay to another legal game that holds every action as written: never a crash of another
kind, never a replay that claims success while skipping or changing what the record says.

``FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz_*.py`` runs a longer hunt.
"""

from __future__ import annotations

import copy
import json
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit import InvalidRecord
from rummykit.bots.base import choose_action
from rummykit.engine import Game
from tests.hunt import scaled

examples = scaled("FUZZ_EXAMPLES")


def play(game: Game, steps: int, seed: int) -> Game:
    """Easy bots, deal after deal, until ``steps`` actions or the game's end."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        seat = game.to_move
        if seat is None:
            game.next_deal()
            continue
        game.apply(choose_action(game.view(seat), game.history(), "easy", rng))
    return game


#: Games of every variant, some under house rules, some long enough to span deals.
GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("rummy", 2, {"length": "to-200"}, 300),
    ("rummy", 3, {"opening": 30, "blocked_deal": "void", "discard_taken": True}, 150),
    ("rami51", 2, {}, 300),
    ("rami71", 4, {}, 150),
    ("simple", 2, {}, 200),
    ("indian", 2, {"format": "deals", "deals": 2, "wrong_declaration_ends": True}, 200),
]


@cache
def record_of(i: int) -> str:
    variant, players, options, steps = GAMES[i]
    game = play(Game.new(variant, players, options, seed=100 + i), steps, seed=i)
    return json.dumps(game.record())


def base_record(i: int) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(record_of(i))
    return record


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_a_record_with_house_rules_replays_to_the_same_game(i: int) -> None:
    record = base_record(i)
    game = Game.from_record(record)
    assert game.record() == record
    assert game.view(0) == Game.from_record(json.dumps(record)).view(0)
    for name, value in GAMES[i][2].items():
        assert record["options"][name] == value


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)


@st.composite
def mutated_records(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A valid record and one change to it; returns the record and what was changed."""
    record = base_record(draw(st.integers(0, len(GAMES) - 1)))
    deals = record["deals"]
    k = draw(st.integers(0, len(deals) - 1))
    deal = deals[k]
    actions = deal["actions"]
    how = draw(st.sampled_from(["drop action", "change action", "swap actions", "seed",
                                "option", "deck", "drop deal", "field", "deal field",
                                "restocks"]))
    if how == "drop action" and actions:
        del actions[draw(st.integers(0, len(actions) - 1))]
    elif how == "change action" and actions:
        other = base_record(draw(st.integers(0, len(GAMES) - 1)))["deals"][0]["actions"]
        actions[draw(st.integers(0, len(actions) - 1))] = draw(
            st.sampled_from(other) | st.sampled_from(["draw", "take", "discard X", "drop",
                                                       "layoff 1 AH", "swap 1 7H", "return"])
        )
    elif how == "swap actions" and len(actions) > 1:
        i = draw(st.integers(0, len(actions) - 2))
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif how == "seed":
        record["seed"] = draw(st.integers(-(2**70), 2**70) | JSON_VALUES)
    elif how == "option":
        name = draw(st.sampled_from(["opening", "clock", "length", "format", "deals",
                                     "blocked_deal", "first_dealer", "discard_taken",
                                     "take_jokers", "swap", "nonsense"]))
        record["options"][name] = draw(
            st.sampled_from([30, 40, 51, 45, "to-200", "deals", 3, "void", "fourth", True])
            | JSON_VALUES
        )
    elif how == "deck":
        deck = deal["deck"]
        i, j = draw(st.integers(0, len(deck) - 1)), draw(st.integers(0, len(deck) - 1))
        if draw(st.booleans()):
            deck[i], deck[j] = deck[j], deck[i]  # a hand edited: the same cards, elsewhere
        else:
            deck[i] = draw(st.sampled_from(["X", "AS", "7H", "1H", "", "ZZ"]) | JSON_VALUES)
    elif how == "restocks":
        # Without the rebuilt orders the seed shuffles them: another seed, other stocks.
        for d in deals:
            d.pop("restocks", None)
        record["seed"] = draw(st.sampled_from([record["seed"], record["seed"] + 1]))
    elif how == "drop deal" and len(deals) > 1:
        del deals[k]
    elif how == "field":
        record[draw(st.sampled_from(["variant", "players", "options", "deals"]))] = draw(
            JSON_VALUES
        )
    elif how == "deal field":
        deal[draw(st.sampled_from(["dealer", "deck", "actions", "restocks"]))] = draw(
            JSON_VALUES
        )
    return record, how


def replays_as_written(record: dict[str, Any]) -> None:
    """Replay ``record``: refused with a reason, or a game that holds exactly its actions."""
    try:
        game = Game.from_record(copy.deepcopy(record))
    except InvalidRecord as exc:
        message = str(exc)
        assert message.strip() and "index out of range" not in message
        return
    again = game.record()
    for written, played in zip(record["deals"], again["deals"], strict=True):
        assert played["actions"] == [str(a) for a in written["actions"]]
        assert played["deck"] == [c.upper() for c in written["deck"]]


@examples(150)
@given(mutated_records())
def test_a_mutated_record_is_refused_with_a_reason_or_replays_as_written(
    case: tuple[dict[str, Any], str],
) -> None:
    record, how = case
    if how in ("drop action", "change action", "swap actions"):
        # An illegal action is named by its deal and number.
        try:
            Game.from_record(copy.deepcopy(record))
        except InvalidRecord as exc:
            assert re.match(r"deal \d+", str(exc)), str(exc)
    replays_as_written(record)


@st.composite
def mutated_text(draw: st.DrawFn) -> str:
    text = record_of(draw(st.integers(0, len(GAMES) - 1)))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(["", "\x00", "\\u0000", "[", "]", "{", "}", ",", '"',
                                      "1" * 5000, "\ufeff", "NaN", "-Infinity", "1e999",
                                      "\ud800"]))
        cut = draw(st.integers(0, 3))
        text = text[:i] + piece + text[i + cut:]
    return text


@examples(150)
@given(st.one_of(st.text(max_size=30), mutated_text()))
def test_record_text_is_refused_with_a_reason_or_replays(text: str) -> None:
    try:
        Game.from_record(text)
    except InvalidRecord as exc:
        assert str(exc).strip()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"variant": "rummy", "players": 2, "seed": ' + "1" * 5000 + ', "deals": []}',
         "number too long"),
        ("[" * 100_000 + "]" * 100_000, "too deeply"),
    ],
)
def test_record_text_that_json_cannot_read_is_refused(text: str, says: str) -> None:
    with pytest.raises(InvalidRecord, match=says):
        Game.from_record(text)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("variant", ["rummy"], "variant must be a name"),
        ("variant", {"rummy": 1}, "variant must be a name"),
        ("options", [], "options must be an object"),
        ("options", 0, "options must be an object"),
        ("options", "", "options must be an object"),
    ],
)
def test_header_fields_of_the_wrong_type_are_refused(field: str, value: Any, says: str) -> None:
    record = base_record(0)
    record[field] = value
    with pytest.raises(InvalidRecord, match=says):
        Game.from_record(record)
