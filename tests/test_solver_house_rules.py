"""``analyze`` under a room's options and house rules: the answers they change, the ones
accepted that change nothing, the ones refused."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rummykit.analysis import VARIANTS, analysis_rules, analyze, answer_rules
from rummykit.cards import make_deck
from rummykit.engine.indian import loser_penalty
from rummykit.errors import RummyError
from rummykit.melds import MeldRules

# A pure sequence and nothing else: 89 points of cards, 15 of them in the sequence.
ONE_PURE = "4H 5H 6H QC QH QD KS KH KD 2C 3D 4S 5C"
# Two sequences, one pure: melds count under every rule but all_cards.
TWO_SEQ = "4H 5H 6H 9S TS X QC QH QD KS KH 2C 3D"


def test_jokers_zero_in_rami51() -> None:
    hand = "KS KH KD X 5H 6H 7H 2C 9D"
    assert analyze(hand, "rami51").opening.valid  # type: ignore[union-attr]
    a = analyze(hand, "rami51", options={"jokers_zero": True})
    assert a.opening is not None and not a.opening.valid
    want = "the best opening is 48 points without jokers, below the minimum 51"
    assert a.opening_reason() == want
    assert a.to_json()["rules"] == {"applied": {"jokers_zero": True}, "no_effect": []}


def test_clean_run_and_set_in_rummy_and_simple() -> None:
    hand = "KS KH KD 5H X 7H 2C 9D"
    assert analyze(hand).opening.valid  # type: ignore[union-attr]
    a = analyze(hand, options={"clean_run_and_set": True})
    assert a.opening_reason() == "no lay-down with a joker-free run and a joker-free set"
    close = "2S 3S X 5S 9H 9D 9C KS KH KD 6C 7C X QH"  # every run holds a joker
    assert analyze(close, "simple").opening.valid  # type: ignore[union-attr]
    a = analyze(close, "simple", options={"clean_run_and_set": True})
    assert a.opening is not None and not a.opening.valid
    assert "joker-free run and a joker-free set" in (a.opening_reason() or "")


def test_opening_minimum_any_value() -> None:
    hand = "KS KH KD 5H 6H 7H 2C 9D"  # 48 points, no close
    for key in ("opening", "opening_minimum"):
        assert not analyze(hand, options={key: 49}).opening.valid  # type: ignore[union-attr]
        assert analyze(hand, options={key: 48}).opening.valid  # type: ignore[union-attr]
        assert not analyze(hand, "rami71").opening.valid  # type: ignore[union-attr]
        assert analyze(hand, "rami71", options={key: 48}).opening.valid  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("hand", "rule", "cap", "points"),
    [
        (ONE_PURE, "two_sequences", 80, 80),
        (ONE_PURE, "two_sequences", 200, 89),
        (ONE_PURE, "pure_sequence", 80, 74),
        (ONE_PURE, "all_cards", 80, 80),
        (ONE_PURE, "all_cards", 200, 89),
        (TWO_SEQ, "two_sequences", 80, 25),
        (TWO_SEQ, "pure_sequence", 80, 25),
        (TWO_SEQ, "all_cards", 80, 80),
        (TWO_SEQ, "all_cards", 60, 60),
    ],
)
def test_indian_loser_melds_and_cap(hand: str, rule: str, cap: int, points: int) -> None:
    a = analyze(hand, "indian", wild_rank=7, options={"loser_melds": rule, "cap": cap})
    j = a.to_json()["penalty"]
    assert j["points"] == points
    melded = [c for m in j["melds"] for c in m]
    assert sorted(melded + j["left"]) == sorted(hand.split())
    if rule == "all_cards":
        assert j["melds"] == []
    if hand == ONE_PURE and rule == "pure_sequence":
        assert j["melds"] == [["4H", "5H", "6H"]]


def test_indian_penalty_matches_the_engine() -> None:
    """The analysis arranges a loser's hand as the engine counts it, every ``loser_melds``,
    on hands crowded into two suits (many pure sequences) and a wild rank."""
    rng = random.Random(2026)
    deck = make_deck(2)
    two_suits = [c for c in deck if c.is_joker or c.suit < 2]
    for i in range(40):
        wild = rng.randint(0, 13)
        hand = rng.sample(two_suits if i % 2 else deck, 13)
        mr = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=wild)
        for rule in ("two_sequences", "pure_sequence", "all_cards"):
            a = analyze(hand, "indian", wild_rank=wild,
                        options={"loser_melds": rule, "cap": 1000})
            assert a.penalty.points == loser_penalty(hand, mr, rule), (rule, hand)
            left = list(hand)
            for m in a.penalty.melds:
                for c in m.cards:
                    left.remove(c)
            assert sorted(left) == sorted(a.penalty.left)


def test_applied_and_no_effect() -> None:
    a = analyze("KS KH KD", options={"clock": 30, "swap": "none", "jokers_zero": True})
    assert a.applied == (("jokers_zero", True),)
    assert a.no_effect == ("clock", "swap")
    # A rule set to its default changes nothing either.
    assert analyze("KS KH KD", options={"jokers_zero": False}).no_effect == ("jokers_zero",)
    # One rule may matter only with another: each is judged with the others in place.
    both = analysis_rules("rami51", {"lay_all_close": False, "small_opening": 2})
    assert [n for n, _ in both.applied] == ["lay_all_close", "small_opening"]
    assert analysis_rules("rami51", {"small_opening": 2}).no_effect == ("small_opening",)
    big = analysis_rules("rummy", {"hand_size": 17, "jokers": 8, "clock": 30})
    assert (big.applied, big.no_effect) == ((("hand_size", 17), ("jokers", 8)), ("clock",))
    assert "rules" not in analyze("KS KH KD").to_json()


def test_answer_rules() -> None:
    assert answer_rules("indian") == (
        "jokers", "hand_size", "min_real", "adjacent_jokers", "cap", "loser_melds"
    )
    for name in ("opening", "jokers_zero", "clean_run_and_set", "lay_all_close"):
        assert name in answer_rules("rami71")
    for variant in ("rummy", "simple", "indian"):
        for name in ("clock", "swap", "taken_card_duty", "max_restocks", "first_dealer"):
            assert name not in answer_rules(variant)


def test_refused() -> None:
    with pytest.raises(RummyError, match="only lay-down is the close"):
        analyze("2S", "simple", options={"opening_minimum": 30})
    with pytest.raises(RummyError, match="another game"):
        analyze("2S", "rummy", options={"lay_mode": "declare"})
    with pytest.raises(RummyError, match="belongs to indian"):
        analyze("2S", "rummy", options={"loser_melds": "all_cards"})
    with pytest.raises(RummyError, match="unknown option 'colour'"):
        analyze("2S", "rummy", options={"colour": "red"})
    with pytest.raises(RummyError, match="give one"):
        analyze("2S", "rami51", options={"opening": 40, "opening_minimum": 30})
    with pytest.raises(RummyError, match="takes a bool"):
        analyze("2S", "rummy", options={"jokers_zero": []})
    # a hand size the house rule allows
    assert analyze("2S 3S 4S 5S 6S 7S 8S", "indian", options={"hand_size": 7}).declaration


def test_the_solver_doc_lists_the_rules_that_change_the_analysis() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "solver.md").read_text("utf-8")
    seen = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        variants = re.findall(r"`(\w+)`", cells[0])
        if not set(variants) <= set(VARIANTS):
            continue
        listed = set(re.findall(r"`(\w+)`", cells[1]))
        if cells[1].startswith("the same but"):
            listed = set(answer_rules("rummy")) - listed
        for variant in variants:
            assert listed == set(answer_rules(variant)), variant
            seen.add(variant)
    assert seen == set(VARIANTS)
