"""What a hunt through the player-facing texts found, each kept: every number or rule a catalog
line states is derived here from the rulesets, and the three languages state the same rule.
Plain Python: the catalogs are read as JSON and the page's code as text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import parse_cards
from rummykit.engine.indian import loser_penalty
from rummykit.melds import MeldRules
from rummykit.rules import CLOCKS, VARIANTS, make_rules, option_schema, players_allowed

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "rummykit" / "web"
LANGS = ("en", "es", "fr")


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def entry(lang: str, key: str) -> Any:
    node: Any = catalog(lang)
    for part in key.split("."):
        node = node[part]
    return node


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_number_a_variant_blurb_states_is_its_rulesets(lang: str) -> None:
    """The lobby's blurb is all a person reads of a variant before sitting down."""
    rummy = make_rules("rummy", 2)
    opening = option_schema("rummy")["opening"]
    others = [v for v in opening["values"] if v != opening["default"]]
    blurb = entry(lang, "variant.rummy.blurb")
    assert numbers(blurb) == [rummy.hand_size, opening["default"], *others], blurb
    for variant in ("rami51", "rami71"):
        alone, pairs = (make_rules(variant, n) for n in players_allowed(variant))
        blurb = entry(lang, f"variant.{variant}.blurb")
        assert str(alone.opening_minimum) in blurb and f"{alone.limit} (" in blurb
        assert f"({pairs.limit} " in blurb, (lang, variant, blurb)
    assert str(make_rules("rami51", 2).hand_size) in entry(lang, "variant.rami51.blurb")
    assert str(make_rules("indian", 2).hand_size) in entry(lang, "variant.indian.blurb")


def test_the_simple_blurb_says_what_each_loser_pays() -> None:
    """"100 points a deal" read as a side's loss, and in 2 v 2 a side pays twice that: the
    fixed penalty is each losing player's."""
    each = {"en": "Each loser pays", "es": "Cada perdedor paga", "fr": "Chaque perdant paie"}
    for lang in LANGS:
        blurb = entry(lang, "variant.simple.blurb")
        for players in players_allowed("simple"):
            assert f"{make_rules('simple', players).fixed_penalty} " in blurb
        assert each[lang] in blurb, (lang, blurb)


def test_the_wrong_declaration_warning_says_what_the_table_does() -> None:
    """The warning said "you leave the deal" also where the house rule wrong_declaration_ends
    ends the deal at once (nobody wins it); it has a line for each, with the cost the view gives
    (the view's ``wrong_declaration``), not a number written into the text."""
    for lang in LANGS:
        stays, over = entry(lang, "declare.wrongBody"), entry(lang, "declare.wrongBodyEnds")
        for line in (stays, over):
            assert set(line) == {"one", "other"}, lang
            assert "{n}" in line["other"] and numbers(line["other"].replace("{n}", "")) == [], lang
        assert over != stays
    moves = (WEB / "js" / "moves.js").read_text(encoding="utf-8")
    assert "wrong_declaration_ends" in moves and '"declare.wrongBodyEnds"' in moves
    assert "view.wrong_declaration" in moves


def test_a_deal_without_a_winner_is_no_others_paying() -> None:
    """A deal nobody won said "The others pay 80 points" when the wrong declaration that
    ended it cost its declarer 80, and "The others pay 0 points" when the stock ran out; the
    deal's line names what the declaration cost instead (browser: test_web_texts.py)."""
    for lang in LANGS:
        paid = entry(lang, "end.wrongPaid")
        assert set(paid) == {"one", "other"}
        assert all(numbers(paid[k].replace("{n}", "")) == [] for k in paid)


def test_pure_sequences_alone_save_only_themselves() -> None:
    """"A loser's melds save their cards with: a pure sequence" said one pure sequence lets
    every meld count; under ``pure_sequence`` the two sequences still do that, and without
    them only the pure sequences save their own cards."""
    rules = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=13)
    # a pure run and a set: without a second sequence the set counts in full
    hand = parse_cards("2S 3S 4S 9H 9D 9C 5D 7C JC QH 3D 6H 8D")
    assert loser_penalty(hand, rules, "pure_sequence") == loser_penalty(
        parse_cards("9H 9D 9C 5D 7C JC QH 3D 6H 8D"), rules, "all_cards"
    )
    for lang in LANGS:
        values = entry(lang, "house.loser_melds.values")
        assert values["pure_sequence"].startswith(values["two_sequences"]), (lang, values)
        assert values["pure_sequence"] != values["two_sequences"]


def test_spanish_and_french_refusals_about_the_tables_melds_state_the_english_rule() -> None:
    """"cards are not laid off in this game" read in Spanish "no cards are put on the table"
    (simple Rami's close puts them there); the fourth-card swap rule told the Spanish player
    to put the card "in its place" (the joker's, the very move refused) and the French one to
    lay it "in sequence" on a set."""
    es = catalog("es")["reason"]
    assert "combinaciones" in es["noLayoff"] and "combinación" in es["what"]["layOff"]
    assert "en su lugar" not in es["fourthOnly"] and "añade {card}" in es["fourthOnly"]
    fr = catalog("fr")["reason"]
    assert "à la suite" not in fr["fourthOnly"] and "au brelan" in fr["fourthOnly"]


def test_the_lobbys_fallback_options_are_the_rulesets() -> None:
    """The lobby shows its own copy of the room options until the server's list comes (and
    tells a room option from a house rule by it): the copy must be the rule book's."""
    lobby = (WEB / "js" / "lobby.js").read_text(encoding="utf-8")
    clocks = re.search(r"const CLOCKS = \[([^\]]*)\]", lobby)
    assert clocks is not None and numbers(clocks.group(1)) == list(CLOCKS)
    block = lobby.split("const FALLBACK = {")[1].split("\n};")[0]
    for variant in VARIANTS:
        m = re.search(rf"\b{variant}: \{{ players: \[([^\]]*)\], options: \{{(.*?)\}} \}},?\n",
                      block + "\n", re.S)
        assert m is not None, variant
        assert numbers(m.group(1)) == list(players_allowed(variant))
        shown = dict(re.findall(r"(\w+): \{ values: ([^}]*)\}", m.group(2)))
        schema = option_schema(variant)
        assert list(shown) == list(schema), variant
        for name, spec in schema.items():
            parts = re.fullmatch(r"(.+), default: (.+?)\s*", shown[name])
            assert parts is not None, (variant, name, shown[name])
            values = list(CLOCKS) if parts.group(1) == "CLOCKS" else json.loads(parts.group(1))
            assert values == spec["values"], (variant, name)
            assert json.loads(parts.group(2)) == spec["default"], (variant, name)


def test_the_docs_say_a_rami_side_loses_on_reaching_its_limit() -> None:
    """A side reaching the limit loses (the engine's ``>=``); docs/web.md said "passes"."""
    web = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    limit = make_rules("rami51", 2).limit
    assert f"reaches {limit}" in web and f"passes {limit}" not in web
    assert f"({make_rules('simple', 2).limit} in" in web


def test_the_numbers_docs_web_gives_of_indian_rummy_are_the_rulesets() -> None:
    web = " ".join((ROOT / "docs" / "web.md").read_text(encoding="utf-8").split())
    indian = make_rules("indian", 2)
    assert f"a wrong declaration costs {indian.wrong_declaration} points" in web
    assert f"{indian.first_drop} before the player's first draw, {indian.middle_drop} after" in web
    pools = [make_rules("indian", 2, {"format": f}).limit for f in ("pool101", "pool201")]
    assert f"its total passed {pools[0]} or {pools[1]}" in web


def test_the_no_minimum_hint_says_one_card_may_be_left_to_discard() -> None:
    """The meter says a lay-down under the minimum is enough when it goes out at once; it said
    "laying down all your cards", while the lay-down that needs none may keep the card to
    discard (rummy's opening leaving at most one card, Rami's close)."""
    rummy = make_rules("rummy", 2)
    assert rummy.opening_minimum > 0
    for lang, one in (("en", "at most one"), ("es", "como mucho una"), ("fr", "au plus une")):
        assert one in entry(lang, "meter.noMinimum"), lang


def test_the_timeout_discard_rule_names_its_fallback() -> None:
    """timeout_discard=drawn throws the card drawn this turn "if still in hand, else the
    highest-penalty non-joker" (the ruleset's own words); the lobby gave only the first half."""
    field = make_rules("rummy", 2).__dataclass_fields__["timeout_discard"]
    assert "else the highest-penalty" in str(field.metadata)
    for lang, fallback in (("en", "else the costliest"), ("es", "si no, la que más penaliza"),
                           ("fr", "sinon la plus pénalisante")):
        assert fallback in entry(lang, "house.timeout_discard.values.drawn"), lang
